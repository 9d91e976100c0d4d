//! `POST /v1/hands/move` and `POST /v1/matches/move`, the referee playing,
//! as a client meets them: every move is one the state lists for the seat,
//! exactly as listed, and appending it keeps the record legal; the same body
//! gives the same move; two records that differ only in cards the seat
//! cannot know give the same move; and every refusal has its code and
//! pointer.
//!
//! Whole hands are played through the operations themselves (the contract's
//! `Referee`, the bytes the service answers) and a few calls go over HTTP to
//! the real app.

use std::collections::BTreeSet;

use gin_contract::referee::{Operation, Referee};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};

use crate::support::spawn_app;

const BOTS: [&str; 3] = ["random", "simple", "strong"];

fn call(operation: Operation, body: &Value) -> Result<Value, Value> {
    Referee::new()
        .answer(operation, body.to_string().as_bytes())
        .map(|bytes| serde_json::from_slice(&bytes).expect("JSON"))
        .map_err(|problem| serde_json::to_value(problem.to_document()).expect("a problem"))
}

fn shuffled_deal(rng: &mut StdRng) -> Value {
    let mut deck: Vec<String> = gin_rules::Card::deck().map(|c| c.to_string()).collect();
    deck.shuffle(rng);
    json!({"dealer": deck[0..10], "non_dealer": deck[10..20], "upcard": deck[20],
           "stock": deck[21..]})
}

/// A move request: the hand so far, the seat, the bot.
fn move_body(profile: &str, deal: &Value, actions: &[Value], seat: &str, bot: Value) -> Value {
    json!({"profile": profile, "deal": deal, "actions": actions, "seat": seat, "bot": bot})
}

/// The bot for a decision: the three in turn, `strong` with a small search
/// so that the debug build stays quick.
fn bot_for(step: usize, seed: u64) -> Value {
    match BOTS[step % 3] {
        "strong" => json!({"name": "strong", "seed": seed, "samples": 4}),
        name => json!({"name": name, "seed": seed}),
    }
}

/// Every card named anywhere in `value` (a seat's state answer): what the
/// seat may know.
fn named_cards(value: &Value, into: &mut BTreeSet<String>) {
    match value {
        Value::String(text) if text.len() == 2 && gin_rules::parse_hand(text).is_ok() => {
            into.insert(text.clone());
        }
        Value::Array(items) => items.iter().for_each(|v| named_cards(v, into)),
        Value::Object(map) => map.values().for_each(|v| named_cards(v, into)),
        _ => {}
    }
}

/// The same deal with every card `seat` cannot know (not named in its view)
/// shuffled among their places.
fn resampled(deal: &Value, known: &BTreeSet<String>, rng: &mut StdRng) -> Value {
    let mut places: Vec<(String, usize)> = Vec::new();
    for part in ["dealer", "non_dealer", "stock"] {
        for (at, card) in deal[part].as_array().unwrap().iter().enumerate() {
            if !known.contains(card.as_str().unwrap()) {
                places.push((part.to_owned(), at));
            }
        }
    }
    let mut hidden: Vec<Value> = places
        .iter()
        .map(|(part, at)| deal[part.as_str()][*at].clone())
        .collect();
    hidden.shuffle(rng);
    let mut other = deal.clone();
    for ((part, at), card) in places.iter().zip(hidden) {
        other[part.as_str()][*at] = card;
    }
    other
}

/// Plays hands to their end through the move operation alone, checking at
/// every decision that the move is listed exactly, that it keeps the record
/// legal, that it does not depend on what the seat cannot know, and that it
/// is the same again. Returns the decisions checked.
fn play_hands(profile: &str, hands: u64) -> usize {
    let mut decisions = 0;
    for hand in 0..hands {
        let mut rng = StdRng::seed_from_u64(hand);
        let deal = shuffled_deal(&mut rng);
        let mut actions: Vec<Value> = Vec::new();
        for step in 0..200 {
            let referee = json!({"profile": profile, "deal": deal, "actions": actions});
            let state = call(Operation::HandState, &referee).unwrap();
            let Some(seat) = state["to_act"].as_str().map(str::to_owned) else {
                assert_eq!(state["phase"], "over", "{state}");
                break;
            };
            let bot = bot_for(step, rng.gen_range(0..1000));
            let body = move_body(profile, &deal, &actions, &seat, bot.clone());
            let answer = call(Operation::MoveHand, &body).unwrap_or_else(|p| panic!("{p}"));
            // Listed exactly as the state lists it for the seat.
            let mut seen = referee.clone();
            seen["seat"] = json!(seat);
            let view = call(Operation::HandState, &seen).unwrap();
            let mut entry = answer.clone();
            entry.as_object_mut().unwrap().remove("bot");
            assert!(
                view["legal_actions"].as_array().unwrap().contains(&entry),
                "{entry} is not listed: {view}"
            );
            assert_eq!(answer["bot"]["name"], bot["name"]);
            assert_eq!(answer["bot"]["seed"], bot["seed"]);
            // The same body, the same move; with OpenSpiel's ids too.
            assert_eq!(call(Operation::MoveHand, &body).unwrap(), answer);
            let mut with_ids = body.clone();
            with_ids["openspiel"] = json!(true);
            let ids = call(Operation::MoveHand, &with_ids).unwrap();
            assert_eq!(ids["move"], answer["move"]);
            // Only what the seat knows: the hidden cards dealt otherwise.
            let mut known = BTreeSet::new();
            named_cards(&view, &mut known);
            let other = resampled(&deal, &known, &mut rng);
            let mut elsewhere = body.clone();
            elsewhere["deal"] = other;
            assert_eq!(
                call(Operation::MoveHand, &elsewhere).unwrap(),
                answer,
                "the move changed with cards {seat} cannot know"
            );
            // Appended, the record stays legal.
            actions.push(answer["move"].clone());
            let audit = call(
                Operation::AuditHand,
                &json!({"profile": profile, "deal": deal, "actions": actions}),
            )
            .unwrap();
            assert_eq!(audit["legal"], true, "{audit}");
            decisions += 1;
        }
    }
    decisions
}

#[test]
fn every_move_is_listed_keeps_the_record_legal_and_sees_only_the_seats_cards() {
    let decisions = play_hands("standard", 6) + play_hands("eaai", 3);
    eprintln!("{decisions} decisions checked");
    assert!(decisions >= 150, "only {decisions} decisions");
}

#[test]
fn a_deal_given_by_its_seeds_gives_the_move_of_the_same_deal_as_cards() {
    let seed = "9a0b1c2d3e4f5061728394a5b6c7d8e9fa0b1c2d3e4f5061728394a5b6c7d8e9";
    let seeds = json!({"seeds": {"server_seed": seed, "client_seed": "table-1", "nonce": 3},
        "commitment": gin_rules::fair_deal::ServerSeed::from_hex(seed).unwrap().commitment()});
    let cards = call(
        Operation::DealFromSeeds,
        &json!({"server_seed": seed,
        "client_seed": "table-1", "nonce": 3}),
    )
    .unwrap()["deal"]
        .clone();
    for bot in BOTS {
        let bot = json!({"name": bot, "seed": 5});
        let a = call(
            Operation::MoveHand,
            &move_body("standard", &seeds, &[], "non_dealer", bot.clone()),
        );
        let b = call(
            Operation::MoveHand,
            &move_body("standard", &cards, &[], "non_dealer", bot),
        );
        assert_eq!(a.unwrap(), b.unwrap());
    }
}

fn problem(operation: Operation, body: &Value) -> Value {
    call(operation, body).expect_err("a problem")
}

fn assert_problem(found: &Value, status: u64, code: &str, pointer: &str) {
    assert_eq!(found["status"], status, "{found}");
    assert_eq!(found["code"], code, "{found}");
    assert_eq!(found["errors"][0]["pointer"], pointer, "{found}");
}

#[test]
fn every_refusal_of_a_hand_move_has_its_code_and_pointer() {
    let mut rng = StdRng::seed_from_u64(9);
    let deal = shuffled_deal(&mut rng);
    let simple = json!({"name": "simple"});
    // The dealer waits at the upcard offer.
    let waiting = move_body("standard", &deal, &[], "dealer", simple.clone());
    assert_problem(
        &problem(Operation::MoveHand, &waiting),
        422,
        "not_to_act",
        "/seat",
    );
    // A hand that is over: both passed, then a void (played to the end by
    // stock draws and the first discard).
    let mut actions: Vec<Value> = Vec::new();
    loop {
        let state = call(
            Operation::HandState,
            &json!({"deal": deal, "actions": actions}),
        )
        .unwrap();
        let listed = state["legal_actions"].as_array().unwrap();
        let Some(pick) = ["pass", "draw_stock", "discard"]
            .iter()
            .find_map(|kind| listed.iter().find(|a| a["kind"] == *kind))
        else {
            break;
        };
        actions.push(pick["move"].clone());
    }
    for seat in ["dealer", "non_dealer"] {
        let over = move_body("standard", &deal, &actions, seat, simple.clone());
        let found = problem(Operation::MoveHand, &over);
        assert_problem(&found, 422, "not_to_act", "/seat");
        assert!(
            found["detail"].as_str().unwrap().contains("over"),
            "{found}"
        );
    }
    // A violation: the dealer acts first; its code and pointer in errors[0].
    let wrong = [json!({"player": "dealer", "action": "pass"})];
    let found = problem(
        Operation::MoveHand,
        &move_body("standard", &deal, &wrong, "non_dealer", simple.clone()),
    );
    assert_problem(&found, 422, "upcard_offer_violated", "/actions/0/player");
    assert_eq!(found["errors"][0]["code"], "upcard_offer_violated");
    // Knobs: out of bounds, or not the bot's; an unknown bot; an unknown field.
    for (bot, pointer) in [
        (json!({"name": "strong", "samples": 0}), "/bot/samples"),
        (
            json!({"name": "strong", "samples": 1_000_000}),
            "/bot/samples",
        ),
        (json!({"name": "genius"}), "/bot/name"),
        (json!({"name": "simple", "seed": -1}), "/bot/seed"),
        // Past 2^53 - 1, the schema's maximum (a JSON client's exact integers).
        (json!({"name": "simple", "seed": 1_u64 << 53}), "/bot/seed"),
        (json!({"name": "simple", "depth": 3}), "/bot"),
        (json!({"seed": 3}), "/bot/name"),
    ] {
        let body = move_body("standard", &deal, &[], "non_dealer", bot.clone());
        let found = problem(Operation::MoveHand, &body);
        assert_problem(&found, 400, "invalid_body", pointer);
    }
    // A knob another bot reads is ignored: the answer names only the bot's own.
    let body = move_body(
        "standard",
        &deal,
        &[],
        "non_dealer",
        json!({"name": "simple", "samples": 8}),
    );
    let answered = call(Operation::MoveHand, &body).expect("an answer");
    assert_eq!(answered["bot"], json!({"name": "simple", "seed": 0}));
    // `seat` and `bot` are required.
    let mut body = move_body("standard", &deal, &[], "non_dealer", simple);
    body.as_object_mut().unwrap().remove("seat");
    assert_problem(
        &problem(Operation::MoveHand, &body),
        400,
        "invalid_body",
        "/seat",
    );
    body["seat"] = json!("non_dealer");
    body.as_object_mut().unwrap().remove("bot");
    assert_problem(
        &problem(Operation::MoveHand, &body),
        400,
        "invalid_body",
        "/bot",
    );
}

fn match_body(players: &[&str], hands: Value, seat: &str) -> Value {
    json!({"profile": "eaai", "players": players, "hands": hands, "seat": seat,
           "bot": {"name": "simple"}})
}

#[test]
fn a_match_move_is_the_players_listed_move_and_refused_between_hands() {
    let mut rng = StdRng::seed_from_u64(4);
    let deal = shuffled_deal(&mut rng);
    let hand = json!({"dealer": "Ann", "non_dealer": "Bob", "deal": deal, "actions": []});
    // Bob (the non-dealer) is offered the upcard; Ann waits.
    let body = match_body(&["Ann", "Bob"], json!([hand]), "Bob");
    let answer = call(Operation::MoveMatch, &body).unwrap();
    assert_eq!(answer["table"], 0);
    let mut asked = body.clone();
    asked.as_object_mut().unwrap().remove("bot");
    let state = call(Operation::MatchState, &asked).unwrap();
    let mut entry = answer.clone();
    entry.as_object_mut().unwrap().remove("bot");
    entry.as_object_mut().unwrap().remove("table");
    assert!(
        state["tables"][0]["legal_actions"]
            .as_array()
            .unwrap()
            .contains(&entry)
    );
    let ann = match_body(&["Ann", "Bob"], json!([hand]), "Ann");
    assert_problem(
        &problem(Operation::MoveMatch, &ann),
        422,
        "not_to_act",
        "/seat",
    );
    // Before any hand: the match is in `deal`.
    let empty = match_body(&["Ann", "Bob"], json!([]), "Ann");
    assert_problem(
        &problem(Operation::MoveMatch, &empty),
        422,
        "not_to_act",
        "/seat",
    );
    // Three players: Cy sits this hand out.
    let three = match_body(&["Ann", "Bob", "Cy"], json!([hand]), "Cy");
    let found = problem(Operation::MoveMatch, &three);
    assert_problem(&found, 422, "not_to_act", "/seat");
    assert!(
        found["detail"].as_str().unwrap().contains("sits"),
        "{found}"
    );
    // Not a player; a violation between hands.
    let eve = match_body(&["Ann", "Bob"], json!([hand]), "Eve");
    assert_problem(
        &problem(Operation::MoveMatch, &eve),
        422,
        "unknown_player",
        "/seat",
    );
    let mut record = Vec::new();
    let mut played = hand.clone();
    // The first hand played out by simple for both, then a second hand
    // dealt by the wrong player.
    for _ in 0..200 {
        let body = match_body(&["Ann", "Bob"], json!([played]), "Ann");
        let mut asked = body.clone();
        asked.as_object_mut().unwrap().remove("bot");
        asked.as_object_mut().unwrap().remove("seat");
        let state = call(Operation::MatchState, &asked).unwrap();
        let Some(name) = state["to_act"][0].as_str() else {
            break;
        };
        let answer = call(
            Operation::MoveMatch,
            &match_body(&["Ann", "Bob"], json!([played]), name),
        )
        .unwrap();
        played["actions"]
            .as_array_mut()
            .unwrap()
            .push(answer["move"].clone());
    }
    record.push(played);
    let audit = call(
        Operation::AuditMatch,
        &json!({"profile": "eaai", "players": ["Ann", "Bob"], "hands": record}),
    )
    .unwrap();
    assert_eq!(audit["legal"], true, "{audit}");
    let state = call(
        Operation::MatchState,
        &json!({"profile": "eaai", "players": ["Ann", "Bob"], "hands": record}),
    )
    .unwrap();
    let right = state["next_deal"]["dealer"].as_str().unwrap();
    let wrong = if right == "Ann" { "Bob" } else { "Ann" };
    record.push(json!({"dealer": wrong, "deal": shuffled_deal(&mut rng), "actions": []}));
    let found = problem(
        Operation::MoveMatch,
        &match_body(&["Ann", "Bob"], json!(record), "Ann"),
    );
    assert_problem(&found, 422, "wrong_dealer", "/hands/1/dealer");
    assert_eq!(found["errors"][0]["code"], "wrong_dealer");
}

/// `action` spoiled one way or another: another player, another card,
/// another kind, or a layoff out of turn.
fn spoiled(action: &Value, how: usize, rng: &mut StdRng) -> Value {
    let mut action = action.clone();
    let object = action.as_object_mut().unwrap();
    match how % 5 {
        0 => {
            let other = if object["player"] == "dealer" {
                "non_dealer"
            } else {
                "dealer"
            };
            object.insert("player".into(), json!(other));
        }
        1 => {
            let card = gin_rules::Card::deck().nth(rng.gen_range(0..52)).unwrap();
            for field in ["card", "discard"] {
                if object.contains_key(field) {
                    object.insert(field.into(), json!(card.to_string()));
                }
            }
        }
        2 => {
            object.retain(|key, _| key == "player");
            object.insert("action".into(), json!("pass"));
        }
        3 => {
            object.retain(|key, _| key == "player");
            object.insert("action".into(), json!("draw"));
            object.insert("from".into(), json!("stock"));
        }
        _ => {
            let card = object.get("card").cloned().unwrap_or(json!("AS"));
            object.retain(|key, _| key == "player");
            object.insert("action".into(), json!("discard"));
            object.insert("card".into(), card);
        }
    }
    action
}

#[test]
fn a_move_in_a_record_that_breaks_a_rule_answers_the_audits_violation_code_and_pointer() {
    // Hands played by simple, each with one action spoiled: whatever the
    // audit finds wrong, the move answers 422 with that violation's own code
    // and pointer, for either seat.
    let mut rng = StdRng::seed_from_u64(31);
    let mut codes = BTreeSet::new();
    for hand in 0..60 {
        let deal = shuffled_deal(&mut rng);
        let mut actions: Vec<Value> = Vec::new();
        for step in 0..40 {
            let state = call(
                Operation::HandState,
                &json!({"deal": deal, "actions": actions}),
            )
            .unwrap();
            let Some(seat) = state["to_act"].as_str() else {
                break;
            };
            let body = move_body("standard", &deal, &actions, seat, bot_for(1, step));
            actions.push(call(Operation::MoveHand, &body).unwrap()["move"].clone());
        }
        let at = rng.gen_range(0..actions.len());
        actions[at] = spoiled(&actions[at], hand, &mut rng);
        let audit = call(
            Operation::AuditHand,
            &json!({"deal": deal, "actions": actions}),
        )
        .unwrap();
        let Some(violation) = audit["violation"].as_object() else {
            continue;
        };
        for seat in ["dealer", "non_dealer"] {
            let body = move_body("standard", &deal, &actions, seat, bot_for(1, 0));
            let found = problem(Operation::MoveHand, &body);
            let code = violation["code"].as_str().unwrap();
            assert_problem(&found, 422, code, violation["pointer"].as_str().unwrap());
            assert_eq!(found["errors"][0]["code"], code, "{found}");
            assert_eq!(found["type"], format!("/problems/{code}"), "{found}");
        }
        codes.insert(violation["code"].as_str().unwrap().to_owned());
    }
    // The spoils reach eight rules (this seed), not one.
    assert!(codes.len() >= 8, "{codes:?}");
}

#[actix_web::test]
async fn the_routes_answer_as_the_operations_do() {
    let app = spawn_app().await;
    for (path, operation, body) in [
        (
            "/v1/hands/move",
            Operation::MoveHand,
            gin_contract::answers::hand_move::examples::discard(),
        ),
        (
            "/v1/matches/move",
            Operation::MoveMatch,
            gin_contract::answers::match_move::examples::two_play(),
        ),
    ] {
        let response = app.post_json(path, &body.to_string()).await;
        assert_eq!(response.status().as_u16(), 200, "{path}");
        let answer: Value = response.json().await.expect("JSON");
        assert_eq!(answer, call(operation, &body).unwrap());
        let mut waiting = body.clone();
        waiting["seat"] = json!(if path == "/v1/hands/move" {
            "dealer"
        } else {
            "Bob"
        });
        let response = app.post_json(path, &waiting.to_string()).await;
        assert_eq!(response.status().as_u16(), 422, "{path}");
        let found: Value = response.json().await.expect("JSON");
        assert_eq!(found["code"], "not_to_act");
    }
}

/// The guide's table of knobs states each knob's bounds and default as the
/// bots read them.
#[test]
fn the_bots_guide_states_every_knobs_bounds() {
    let guide = include_str!("../../../docs/BOTS.md");
    for knob in gin_rules::bots::KNOBS {
        let row = format!(
            "| `{}` | `{}` only: {}, {} to {}, default {} |",
            knob.name,
            knob.bot.name(),
            knob.meaning,
            knob.min,
            knob.max,
            knob.default
        );
        assert!(guide.contains(&row), "docs/BOTS.md lacks the row {row}");
    }
}
