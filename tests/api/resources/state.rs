//! `POST /v1/hands/state`, the live referee, as a client sees it: a hand
//! walked through its phases over HTTP, the no-leak property on the answer's
//! bytes over random play-outs for both seats, and OpenSpiel's ids.
//!
//! The no-leak property: a play-out is driven by the referee's own listing
//! (the answer without `seat`), and at every step both seats' answers are
//! read as bytes. What a seat may know is tracked here independently of the
//! service: its cards, the pile, the cards the opponent took from the pile
//! and still holds, the knocker's cards once laid down, both hands once a
//! knock ends the hand. No other card (the stock's, the opponent's unseen
//! ones) may appear in the bytes, quoted or inside a message; and a waiting
//! seat is listed nothing. (The card a melded joker stands for is named
//! beside the meld, and tells nothing of where that card is: those names
//! alone are left out of the check, [`without_stands_for`].) Each step also asks for a state one illegal action
//! further (a discard of a stock card), so that violation messages are
//! checked too.

use std::collections::BTreeSet;

use gin_contract::answers::state::{StateRequest, answer, examples};
use gin_rules::{Card, HandCard, Preset};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};

use crate::support::{TestApp, spawn_app};

const PATH: &str = "/v1/hands/state";

async fn state(app: &TestApp, body: &Value) -> Value {
    let response = app.post_json(PATH, &body.to_string()).await;
    assert_eq!(response.status().as_u16(), 200);
    response.json().await.expect("a JSON state")
}

fn ask(body: &Value) -> (Value, String) {
    let request: StateRequest = serde_json::from_value(body.clone()).expect("a state request");
    let answer = answer(request).expect("answered");
    let text = serde_json::to_string(&answer).expect("serialised");
    let value: Value = serde_json::from_str(&text).expect("json");
    let mut checked = value.clone();
    without_stands_for(&mut checked);
    (value, checked.to_string())
}

/// The answer without the cards melded jokers stand for (`jokers` maps,
/// `stands_for`): a joker in a meld laid down shows which card it stands
/// for (`["6S", "X2", "8S"]` is 6-7-8 of spades), wherever that card is, so
/// naming it tells nothing of who holds it. Every other byte is checked.
fn without_stands_for(value: &mut Value) {
    match value {
        Value::Object(object) => {
            object.remove("stands_for");
            object.remove("jokers");
            object.values_mut().for_each(without_stands_for);
        }
        Value::Array(items) => items.iter_mut().for_each(without_stands_for),
        _ => {}
    }
}

#[tokio::test]
async fn a_hand_walks_through_its_phases_and_each_move_is_appended_as_it_is() {
    let app = spawn_app().await;
    let offer = state(&app, &examples::upcard_offer()).await;
    assert_eq!(
        (&offer["phase"], &offer["to_act"]),
        (&json!("upcard_offer"), &json!("non_dealer"))
    );
    let ids: Vec<&Value> = offer["legal_actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| &a["openspiel_action"])
        .collect();
    assert_eq!(ids, [&json!(54), &json!(52)]);
    // The dealer waits: no options, and none of the non-dealer's cards.
    let mut waiting = examples::upcard_offer();
    waiting["seat"] = json!("dealer");
    let waiting = state(&app, &waiting).await;
    assert_eq!(waiting["legal_actions"], json!([]));
    assert!(!waiting.to_string().contains("\"KC\""));
    // Append the listed moves one by one; the audit agrees at every step.
    let mut body = examples::upcard_offer();
    let mut phases = Vec::new();
    for _ in 0..6 {
        // Who acts: the referee's answer (no seat); then that seat's own.
        body.as_object_mut().unwrap().remove("seat");
        let to_act = state(&app, &body).await["to_act"].clone();
        if !to_act.is_null() {
            body["seat"] = to_act;
        }
        let answer = state(&app, &body).await;
        phases.push(answer["phase"].as_str().unwrap().to_owned());
        let audit = app
            .post_json(
                "/v1/hands/audit",
                &json!({"deal": body["deal"], "actions": body["actions"]}).to_string(),
            )
            .await;
        let audit: Value = audit.json().await.unwrap();
        assert_eq!(audit["legal"], true);
        if answer["phase"] == "over" {
            assert_eq!(answer["result"]["points"], audit["result"]["points"]);
            break;
        }
        let actions = answer["legal_actions"].as_array().unwrap();
        // Pass the upcard, draw, knock with the least deadwood, reply best.
        let pick = actions
            .iter()
            .find(|a| a["kind"] == "pass")
            .or_else(|| {
                actions
                    .iter()
                    .filter(|a| a["kind"] == "knock")
                    .min_by_key(|a| a["deadwood"].as_u64())
            })
            .or_else(|| actions.iter().find(|a| a["kind"] == "best_reply"))
            .unwrap_or(&actions[0]);
        body["actions"]
            .as_array_mut()
            .unwrap()
            .push(pick["move"].clone());
    }
    assert_eq!(
        phases,
        [
            "upcard_offer",
            "upcard_offer",
            "draw",
            "discard",
            "reply",
            "over"
        ]
    );
}

#[tokio::test]
async fn an_illegal_transcript_has_no_state_past_its_violation() {
    let app = spawn_app().await;
    let body = json!({
        "deal": gin_contract::wire::transcript::examples::deal(),
        "actions": [{"player": "dealer", "action": "pass"}],
        "seat": "dealer",
    });
    let answer = state(&app, &body).await;
    assert_eq!(answer["legal"], false);
    assert_eq!(answer["violation"]["code"], "upcard_offer_violated");
    assert_eq!(
        (&answer["to_act"], &answer["legal_actions"]),
        (&Value::Null, &json!([]))
    );
}

/// Card names in canonical notation, for the byte checks.
fn names(cards: &Value) -> BTreeSet<String> {
    cards
        .as_array()
        .map(|all| {
            all.iter()
                .filter_map(|c| c.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// Whether `card` appears in `text` as a token (not inside a longer word).
fn mentions(text: &str, card: &str) -> bool {
    text.match_indices(card).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + card.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphanumeric())
            && !after.is_some_and(|c| c.is_ascii_alphanumeric())
    })
}

/// One play-out; returns the number of seat answers checked.
fn no_leak_play_out(profile: &str, seed: u64) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    let jokers = if profile == "jokers" { 2 } else { 0 };
    let mut deck: Vec<String> = Card::deck().map(|c| c.to_string()).collect();
    deck.extend(["X1", "X2"].iter().take(jokers).map(|j| (*j).to_owned()));
    deck.shuffle(&mut rng);
    let deal = json!({
        "dealer": deck[0..10], "non_dealer": deck[10..20], "upcard": deck[20], "stock": deck[21..],
    });
    let mut actions: Vec<Value> = Vec::new();
    // The cards each seat took from the pile and still holds.
    let mut taken: [BTreeSet<String>; 2] = Default::default();
    let slot = |seat: &str| usize::from(seat == "non_dealer");
    let mut checked = 0;
    loop {
        let body = json!({"profile": profile, "deal": deal, "actions": actions});
        let (referee, _) = ask(&body);
        let view = &referee["view"];
        let knocker = referee["laid_down"]["knocker"].as_str().map(str::to_owned);
        let scored = referee["result"]["points"].is_number();
        for seat in ["dealer", "non_dealer"] {
            let other = if seat == "dealer" {
                "non_dealer"
            } else {
                "dealer"
            };
            let mut unknowable: BTreeSet<String> = names(&view["stock"]);
            let opponent_shown = scored || knocker.as_deref() == Some(other);
            if !opponent_shown {
                unknowable.extend(names(&view[other]).difference(&taken[slot(other)]).cloned());
            }
            let mut asked = body.clone();
            asked["seat"] = json!(seat);
            asked["openspiel"] = json!(rng.gen_bool(0.5));
            let (answer, text) = ask(&asked);
            for card in &unknowable {
                assert!(!mentions(&text, card), "{seat} sees {card}: {text}");
            }
            if referee["to_act"] != json!(seat) {
                assert_eq!(answer["legal_actions"], json!([]), "{seat} waits: {text}");
            } else {
                // The seat's own listing is the referee's (ids aside).
                let moves = |answer: &Value| -> Vec<Value> {
                    answer["legal_actions"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|a| a["move"].clone())
                        .collect()
                };
                assert_eq!(moves(&answer), moves(&referee));
            }
            // One illegal action further: the violation's message too.
            if let Some(card) = names(&view["stock"]).into_iter().next() {
                let mut illegal = asked.clone();
                illegal["actions"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({"player": other, "action": "discard", "card": card}));
                let (answer, text) = ask(&illegal);
                assert_eq!(answer["legal"], false);
                for card in &unknowable {
                    assert!(!mentions(&text, card), "{seat} sees {card} in: {text}");
                }
            }
            checked += 1;
        }
        if referee["phase"] == "over" {
            return checked;
        }
        let listed = referee["legal_actions"].as_array().unwrap();
        let knocks: Vec<&Value> = listed.iter().filter(|a| a["kind"] == "knock").collect();
        let pick = if !knocks.is_empty() && rng.gen_bool(0.2) {
            knocks[rng.gen_range(0..knocks.len())]
        } else {
            let others: Vec<&Value> = listed
                .iter()
                .filter(|a| a["kind"] != "knock" && a["kind"] != "big_gin")
                .collect();
            others.choose(&mut rng).copied().unwrap_or(&listed[0])
        };
        let play = pick["move"].clone();
        let player = play["player"].as_str().unwrap().to_owned();
        match (play["action"].as_str(), play["from"].as_str()) {
            (Some("draw"), Some("discard_pile")) => {
                taken[slot(&player)].insert(view["discard_pile"][0].as_str().unwrap().to_owned());
            }
            (Some("discard"), _) => {
                taken[slot(&player)].remove(play["card"].as_str().unwrap());
            }
            (Some("knock"), _) => {
                if let Some(card) = play["discard"].as_str() {
                    taken[slot(&player)].remove(card);
                }
            }
            _ => {}
        }
        actions.push(play);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// No card a seat cannot know is in its answer's bytes, in any phase,
    /// whoever is to act.
    #[test]
    fn a_seat_sees_no_card_it_cannot_know(which in 0usize..4, seed in any::<u64>()) {
        let profile = ["standard", "tournament", "jokers", "oklahoma"][which];
        no_leak_play_out(profile, seed);
    }
}

#[test]
fn the_openspiel_ids_are_openspiel_s() {
    // Every card: suits s, c, d, h; ranks A..K as 0..12.
    let suits = ['S', 'C', 'D', 'H'];
    let ranks = "A23456789TJQK";
    for (s, suit) in suits.iter().enumerate() {
        for (r, rank) in ranks.chars().enumerate() {
            let card: HandCard = format!("{rank}{suit}").parse().unwrap();
            assert_eq!(card.openspiel_id(), Some((s * 13 + r) as u32), "{card}");
        }
    }
    assert_eq!("X1".parse::<HandCard>().unwrap().openspiel_id(), None);
    // 52 take, 54 pass (the upcard offer); 53 draw; a knock is [55, card].
    let (offer, _) = ask(&examples::upcard_offer());
    let ids: Vec<&Value> = offer["legal_actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| &a["openspiel_action"])
        .collect();
    assert_eq!(ids, [&json!(54), &json!(52)]);
    let mut draw = examples::draw();
    draw["openspiel"] = json!(true);
    let (draw, _) = ask(&draw);
    assert_eq!(draw["legal_actions"][0]["openspiel_action"], 53);
    let (discard, _) = ask(&examples::discard());
    for entry in discard["legal_actions"].as_array().unwrap() {
        let card = entry["move"]["card"]
            .as_str()
            .or(entry["move"]["discard"].as_str())
            .unwrap();
        let id = card.parse::<HandCard>().unwrap().openspiel_id().unwrap();
        match entry["kind"].as_str().unwrap() {
            "discard" => assert_eq!(entry["openspiel_action"], id),
            "knock" => {
                assert_eq!(entry["openspiel_actions"], json!([55, id]));
                assert!(entry.get("openspiel_action").is_none());
            }
            other => panic!("{other}"),
        }
    }
    // The 50th-card take is 55: find a tournament play-out that reaches an
    // offer where a knock can follow.
    let offer = (0..400)
        .find_map(fiftieth_offer_with_take)
        .expect("an offer with a take");
    let take = offer["legal_actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "take_discard")
        .unwrap();
    assert_eq!(take["openspiel_action"], 55);
    let pass = offer["legal_actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "pass")
        .unwrap();
    assert_eq!(pass["openspiel_action"], 54);
}

/// A tournament hand played without knocking until the 50th-card offer; the
/// answer there if it lists a take.
fn fiftieth_offer_with_take(seed: u64) -> Option<Value> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut deck: Vec<String> = Card::deck().map(|c| c.to_string()).collect();
    deck.shuffle(&mut rng);
    let deal = json!({
        "dealer": deck[0..10], "non_dealer": deck[10..20], "upcard": deck[20], "stock": deck[21..],
    });
    let mut actions: Vec<Value> = Vec::new();
    loop {
        let body = json!({"profile": Preset::Tournament.name(), "deal": deal, "actions": actions, "openspiel": true});
        let (answer, _) = ask(&body);
        match answer["phase"].as_str()? {
            "over" | "reply" => return None,
            "last_discard_offer" => {
                let listed = answer["legal_actions"].as_array()?;
                return listed
                    .iter()
                    .any(|a| a["kind"] == "take_discard")
                    .then_some(answer.clone());
            }
            _ => {}
        }
        let listed: Vec<&Value> = answer["legal_actions"]
            .as_array()?
            .iter()
            .filter(|a| a["kind"] != "knock" && a["kind"] != "big_gin")
            .collect();
        actions.push(listed.choose(&mut rng)?["move"].clone());
    }
}
