//! `POST /v1/matches/state`, the live referee of a whole match, as a client
//! sees it: whole matches of every format played through the state alone,
//! the no-leak property over every view, and the refusal of a hand seated
//! against the rules.
//!
//! A play-out keeps a match's record and asks the referee's state (no
//! `seat`) what may be done: in `deal` it deals a shuffled deck (or a deal
//! from seeds) to the players `next_deal` names; in `play` each bot takes a
//! listed move (a knock whenever one is listed, one of the listed replies at
//! random in the reply, else a random move), so that every match ends. A
//! last hand stopped at its knock is in play, its table in `reply`: the bots
//! are asked for every reply (counted). At every step:
//!
//! - **No leak** (every player's view and the public's, read as bytes): what
//!   a viewer may know is tracked here from the transcript, independently of
//!   the service (its own cards at its own table, the pile, the cards taken
//!   from the pile and still held, the knocker's cards once laid down, both
//!   hands once a knock is scored); no other card of a table in play (its
//!   stock, the unseen hands) may appear, quoted or inside a message, nor
//!   the server seed of a seeded match. One illegal action further (a stock
//!   card discarded) checks the violation messages too.
//! - **Legality by construction**: every listed move appended keeps the
//!   record legal for `/v1/matches/audit`; in `deal`, a hand seated as
//!   `next_deal` says is accepted and one seated otherwise is refused with
//!   the audit's code (`wrong_dealer`, `rotation_broken`, `pairing_broken`).
//! - **The reply**: a table in `reply` lists what `/v1/hands/state` lists
//!   for the same hand.
//! - **The score**: once `over`, `score` is `/v1/matches/audit`'s `match` for
//!   the record and `/v1/matches/score`'s answer for the hands as counts.

use std::collections::BTreeSet;

use gin_contract::referee::{Operation, Referee};
use gin_rules::fair_deal::{ServerSeed, deal_with_jokers};
use gin_rules::{Card, Preset, min_deadwood, parse_hand};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};

use crate::support::spawn_app;

const SERVER_SEED: &str = "9a0b1c2d3e4f5061728394a5b6c7d8e9fa0b1c2d3e4f5061728394a5b6c7d8e9";

fn call(operation: Operation, body: &Value) -> Result<Value, Value> {
    Referee::new()
        .answer(operation, body.to_string().as_bytes())
        .map(|bytes| serde_json::from_slice(&bytes).expect("JSON"))
        .map_err(|problem| serde_json::to_value(problem).expect("a problem"))
}

fn state(body: &Value) -> (Value, String) {
    let answer = call(Operation::MatchState, body).unwrap_or_else(|p| panic!("{p}: {body}"));
    let text = answer.to_string();
    (answer, text)
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

/// The card a melded joker stands for is named beside the meld and tells
/// nothing of where that card is: those names are left out of the check.
fn without_stands_for(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(key, _)| *key != "jokers" && *key != "stands_for")
                .map(|(key, value)| (key.clone(), without_stands_for(value)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_stands_for).collect()),
        other => other.clone(),
    }
}

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

/// One match format to play.
#[derive(Clone, Copy, Debug)]
enum Format {
    Two,
    Three,
    Teams,
}

struct Game {
    format: Format,
    profile: Value,
    seeded: bool,
    jokers: usize,
}

impl Game {
    fn roster(&self) -> Value {
        match self.format {
            Format::Two => json!({"players": ["Ann", "Bob"]}),
            Format::Three => json!({"players": ["Ann", "Bob", "Cy"]}),
            Format::Teams => json!({"teams": [
                {"name": "North-South", "players": ["Ann", "Cy"]},
                {"name": "East-West", "players": ["Bob", "Dee"]},
            ]}),
        }
    }

    fn players(&self) -> Vec<&'static str> {
        match self.format {
            Format::Two => vec!["Ann", "Bob"],
            Format::Three => vec!["Ann", "Bob", "Cy"],
            Format::Teams => vec!["Ann", "Cy", "Bob", "Dee"],
        }
    }

    fn body(&self, hands: &[Value]) -> Value {
        let mut body = self.roster();
        body["profile"] = self.profile.clone();
        body["hands"] = json!(hands);
        body
    }

    /// A deal: shuffled cards, or seeds with `nonce`.
    fn deal(&self, rng: &mut StdRng, nonce: u64) -> Value {
        if self.seeded {
            let seed = ServerSeed::from_hex(SERVER_SEED).expect("a seed");
            return json!({
                "seeds": {"server_seed": SERVER_SEED, "client_seed": "club-night", "nonce": nonce},
                "commitment": seed.commitment(),
            });
        }
        let mut deck: Vec<String> = Card::deck().map(|c| c.to_string()).collect();
        deck.extend(
            ["X1", "X2"]
                .iter()
                .take(self.jokers)
                .map(|j| (*j).to_owned()),
        );
        deck.shuffle(rng);
        json!({"dealer": deck[0..10], "non_dealer": deck[10..20], "upcard": deck[20],
               "stock": deck[21..]})
    }

    /// The next hand (deal) seated as `next` says, or as the rules fix the
    /// first; with `wrong`, seated against them.
    fn seat(&self, next: &Value, count: usize, rng: &mut StdRng, wrong: bool) -> Vec<[String; 2]> {
        let pair = |a: &Value, b: &Value| {
            [
                a.as_str().unwrap().to_owned(),
                b.as_str().unwrap().to_owned(),
            ]
        };
        let shuffled = |mut p: [String; 2], rng: &mut StdRng| {
            if rng.gen_bool(0.5) {
                p.swap(0, 1);
            }
            p
        };
        match self.format {
            Format::Two if next.is_null() => vec![shuffled(["Ann".into(), "Bob".into()], rng)],
            Format::Two if wrong => vec![pair(&next["non_dealer"], &next["dealer"])],
            Format::Two => vec![pair(&next["dealer"], &next["non_dealer"])],
            Format::Three if next.is_null() => {
                let mut all = ["Ann", "Bob", "Cy"];
                all.shuffle(rng);
                vec![[all[0].into(), all[1].into()]]
            }
            Format::Three if wrong => {
                vec![shuffled(pair(&next["players"][0], &next["sits_out"]), rng)]
            }
            Format::Three => vec![shuffled(
                pair(&next["players"][0], &next["players"][1]),
                rng,
            )],
            Format::Teams => {
                // The pairings of the deal's position (A1, A2, B1, B2 =
                // Ann, Cy, Bob, Dee), or of the other parity when wrong.
                let even = count.is_multiple_of(2) != wrong;
                let tables = if even {
                    [["Ann", "Bob"], ["Cy", "Dee"]]
                } else {
                    [["Ann", "Dee"], ["Cy", "Bob"]]
                };
                if !next.is_null() && !wrong {
                    let listed: Vec<BTreeSet<String>> = next["tables"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|t| names(&t["players"]))
                        .collect();
                    let ours: Vec<BTreeSet<String>> = tables
                        .iter()
                        .map(|t| t.iter().map(|n| (*n).to_owned()).collect())
                        .collect();
                    assert_eq!(listed, ours, "next_deal's pairings");
                }
                let mut seated: Vec<[String; 2]> = tables
                    .iter()
                    .map(|[a, b]| shuffled([(*a).into(), (*b).into()], rng))
                    .collect();
                seated.shuffle(rng);
                seated
            }
        }
    }

    fn hand(&self, seats: &[[String; 2]], rng: &mut StdRng, nonce: &mut u64) -> Value {
        let mut tables = seats.iter().map(|[dealer, non_dealer]| {
            *nonce += rng.gen_range(1..3);
            json!({"dealer": dealer, "non_dealer": non_dealer, "deal": self.deal(rng, *nonce),
                   "actions": []})
        });
        match self.format {
            Format::Teams => json!({"tables": tables.collect::<Vec<_>>()}),
            _ => tables.next().unwrap(),
        }
    }
}

/// The record's table at `table` of the last hand.
fn last_table(hands: &mut [Value], table: usize) -> &mut Value {
    let last = hands.last_mut().unwrap();
    if last.get("tables").is_some() {
        &mut last["tables"][table]
    } else {
        last
    }
}

/// What the public knows at a table: the cards taken from the pile and still
/// held, per seat, from the transcript.
fn taken(upcard: &str, actions: &[Value]) -> [BTreeSet<String>; 2] {
    let mut pile = vec![upcard.to_owned()];
    let mut held: [BTreeSet<String>; 2] = Default::default();
    for action in actions {
        let seat = usize::from(action["player"] == "non_dealer");
        match action["action"].as_str() {
            Some("draw") if action["from"] == "discard_pile" => {
                if let Some(card) = pile.pop() {
                    held[seat].insert(card);
                }
            }
            Some("discard") | Some("knock") => {
                let card = action["card"].as_str().or(action["discard"].as_str());
                if let Some(card) = card {
                    held[seat].remove(card);
                    pile.push(card.to_owned());
                }
            }
            _ => {}
        }
    }
    held
}

/// Each table's cards a viewer cannot know (`seat`: a player, or `None`
/// for the public), tracked from the referee's tables and the transcripts.
fn unknowable(
    game: &Game,
    body: &Value,
    referee: &Value,
    seat: Option<&str>,
) -> Vec<BTreeSet<String>> {
    let mut hands = body["hands"].as_array().unwrap().clone();
    let tables = referee["tables"].as_array().unwrap();
    tables
        .iter()
        .enumerate()
        .map(|(index, table)| {
            let view = &table["view"];
            let mut hidden = names(&view["stock"]);
            let actions = view["log"].as_array().unwrap().clone();
            let held = taken(&upcard(game, last_table(&mut hands, index)), &actions);
            let knocker = table["laid_down"]["knocker"].as_str();
            let scored = table["result"]["points"].is_number();
            for (slot, side) in ["dealer", "non_dealer"].iter().enumerate() {
                let own = seat == table[*side].as_str();
                if !(own || scored || knocker == Some(*side)) {
                    hidden.extend(names(&view[*side]).difference(&held[slot]).cloned());
                }
            }
            hidden
        })
        .collect()
}

/// No hidden card of a table in that table's part of `answer`, nor in the
/// rest of it (a violation's message: its table's); no server seed.
fn assert_hides(answer: &Value, hidden: &[BTreeSet<String>], viewer: &Value) {
    let mut rest = without_stands_for(answer);
    let tables = rest["tables"].take();
    for (index, table) in tables.as_array().unwrap().iter().enumerate() {
        let text = table.to_string();
        for card in &hidden[index] {
            assert!(!mentions(&text, card), "{viewer} sees {card}: {text}");
        }
    }
    let text = rest.to_string();
    let at = rest["violation"]["table"].as_u64().unwrap_or(0) as usize;
    for card in hidden.get(at).into_iter().flatten() {
        assert!(!mentions(&text, card), "{viewer} sees {card} in: {text}");
    }
    let all = answer.to_string();
    assert!(!all.contains(SERVER_SEED), "{viewer} sees the server seed");
}

/// Checks every view of the match at `body` against the referee's tables
/// (and, for one viewer a step in turn, the state one illegal action
/// further); returns the number of views read.
fn no_leak(game: &Game, body: &Value, referee: &Value, step: usize) -> usize {
    let mut viewers: Vec<Value> = game.players().iter().map(|p| json!({"seat": p})).collect();
    viewers.push(json!({"spectator": true}));
    let count = viewers.len();
    let mut views = 0;
    for (index, viewer) in viewers.into_iter().enumerate() {
        let seat = viewer["seat"].as_str();
        let hidden = unknowable(game, body, referee, seat);
        let mut asked = body.clone();
        for (key, value) in viewer.as_object().unwrap() {
            asked[key] = value.clone();
        }
        let (answer, _) = state(&asked);
        assert_hides(&answer, &hidden, &viewer);
        for table in answer["tables"].as_array().unwrap() {
            let at_table = seat.is_some_and(|s| table["dealer"] == s || table["non_dealer"] == s);
            if !at_table {
                assert!(table.get("legal_actions").is_none() && table.get("layable").is_none());
            }
        }
        views += 1;
        // One illegal action further: a stock card discarded by a seat.
        if index == step % count
            && let Some(table) = referee["tables"].as_array().unwrap().first()
            && let Some(card) = names(&table["view"]["stock"]).into_iter().next()
        {
            let mut illegal = asked.clone();
            let hands = illegal["hands"].as_array_mut().unwrap();
            last_table(hands, 0)["actions"]
                .as_array_mut()
                .unwrap()
                .push(json!({"player": "dealer", "action": "discard", "card": card}));
            let (answer, _) = state(&illegal);
            assert_eq!(answer["legal"], false);
            assert_hides(&answer, &hidden, &viewer);
            views += 1;
        }
    }
    views
}

/// The upcard of a recorded table: dealt, or derived from its seeds.
fn upcard(game: &Game, table: &Value) -> String {
    let deal = &table["deal"];
    if let Some(card) = deal["upcard"].as_str() {
        return card.to_owned();
    }
    let seeds = &deal["seeds"];
    let seed = ServerSeed::from_hex(seeds["server_seed"].as_str().unwrap()).unwrap();
    let jokers = u8::try_from(game.jokers).unwrap();
    let dealt = deal_with_jokers(
        &seed,
        seeds["client_seed"].as_str().unwrap(),
        seeds["nonce"].as_u64().unwrap(),
        jokers,
    )
    .unwrap();
    dealt.upcard.to_string()
}

/// The upcard as the scorer reads it: a joker turned up has no rank and no
/// suit and counts as a face card that is not a spade (the rules' reading),
/// so the scorer, which takes a natural card, is given one such.
fn scoring_upcard(card: String) -> String {
    match card.as_str() {
        "X1" | "X2" => "KH".to_owned(),
        _ => card,
    }
}

/// The counts of every scored hand, as `/v1/matches/score` takes them.
fn count_hands(game: &Game, record: &[Value], audit: &Value) -> Vec<Value> {
    let one = |table: &Value, audited: &Value| -> Value {
        let players = [table["dealer"].clone(), table["non_dealer"].clone()];
        let result = &audited["result"];
        if result["void"] == true {
            return match game.format {
                Format::Two => json!({"void": true}),
                _ => json!({"void": true, "players": players}),
            };
        }
        let knock = table["actions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["action"] == "knock")
            .unwrap();
        let knocker = usize::from(knock["player"] == "non_dealer");
        let mut hand = json!({
            "knocker": players[knocker],
            "knocker_deadwood": result["knocker"]["deadwood"],
            "defender_deadwood": result["defender"]["deadwood"],
            "upcard": scoring_upcard(upcard(game, table)),
        });
        if knock.get("discard").is_none() {
            hand["big_gin"] = json!(true);
        }
        if !matches!(game.format, Format::Two) {
            hand["defender"] = players[1 - knocker].clone();
        }
        hand
    };
    record
        .iter()
        .zip(audit["hands"].as_array().unwrap())
        .map(|(hand, audited)| match hand.get("tables") {
            Some(tables) => json!({"tables": [
                one(&tables[0], &audited["tables"][0]),
                one(&tables[1], &audited["tables"][1]),
            ]}),
            None => one(hand, audited),
        })
        .collect()
}

fn without_receipt(mut value: Value) -> Value {
    if let Some(map) = value.as_object_mut() {
        map.remove("receipt");
    }
    value
}

/// The discard that leaves the least deadwood (a bot that plays to knock,
/// so that hands end by a knock more often than by the stock).
fn best_discard<'a>(game: &Game, table: &Value, listed: &'a [Value]) -> Option<&'a Value> {
    let profile = if game.jokers > 0 {
        Preset::Jokers.profile()
    } else {
        Preset::Standard.profile()
    };
    let player = listed.first()?["move"]["player"].as_str()?;
    let held = names(&table["view"][player]);
    listed
        .iter()
        .filter(|a| a["kind"] == "discard")
        .min_by_key(|a| {
            let kept: Vec<&str> = held
                .iter()
                .map(String::as_str)
                .filter(|c| Some(*c) != a["move"]["card"].as_str())
                .collect();
            let hand = parse_hand(&kept.join(" ")).expect("a hand");
            min_deadwood(hand, &profile.joker_rules())
        })
}

/// What one match played through the state counted.
#[derive(Default)]
struct Played {
    hands: usize,
    views: usize,
    /// Tables the state put in `reply`, and the replies appended to them.
    replies_listed: usize,
    replies_appended: usize,
    /// The final score equal to `/v1/matches/audit`'s (1 once over).
    finals_equal: usize,
}

/// A table in `reply` lists exactly what `/v1/hands/state` lists for the
/// same hand (the referee's view).
fn assert_reply_as_hand_state(game: &Game, record: &Value, table: &Value) {
    let body = json!({"profile": game.profile, "deal": record["deal"],
                      "actions": record["actions"]});
    let alone = call(Operation::HandState, &body).expect("a hand state");
    assert_eq!(alone["phase"], "reply", "{alone}");
    assert_eq!(alone["legal_actions"], table["legal_actions"]);
    assert_eq!(alone["layable"], table["layable"]);
    assert_eq!(alone["laid_down"], table["laid_down"]);
}

/// Plays one whole match through the state alone.
fn play_match(game: &Game, seed: u64, leaks: bool) -> Played {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut hands: Vec<Value> = Vec::new();
    let mut nonce = rng.gen_range(0..5);
    let mut played = Played::default();
    let started = std::time::Instant::now();
    for step in 0..20_000 {
        let body = game.body(&hands);
        let (referee, _) = state(&body);
        assert_eq!(referee["legal"], true, "{referee}");
        if referee["phase"] != "play" {
            // Every hand ended: the record is the audit's, and so is the score.
            let audit = call(Operation::AuditMatch, &body).expect("an audit");
            assert_eq!(audit["legal"], true, "{audit}");
            assert_eq!(without_receipt(audit["match"].clone()), referee["score"]);
        }
        if leaks {
            played.views += no_leak(game, &body, &referee, step);
        }
        match referee["phase"].as_str() {
            Some("over") => {
                let audit = call(Operation::AuditMatch, &body).expect("an audit");
                let mut scored = game.roster();
                scored["profile"] = game.profile.clone();
                scored["hands"] = json!(count_hands(game, &hands, &audit));
                let score = call(Operation::ScoreMatch, &scored).expect("a score");
                assert_eq!(referee["score"], score, "the scorer, from counts");
                assert!(referee["score"]["complete"] == true);
                assert_eq!(without_receipt(audit["match"].clone()), referee["score"]);
                played.finals_equal += 1;
                played.hands = hands.len();
                eprintln!(
                    "{:?} {}: {} hands, {step} steps, {} views, {} replies, {:?}",
                    game.format,
                    game.profile,
                    hands.len(),
                    played.views,
                    played.replies_appended,
                    started.elapsed()
                );
                return played;
            }
            Some("deal") => {
                let next = &referee["next_deal"];
                assert_eq!(next.is_null(), hands.is_empty(), "{referee}");
                if game.seeded && !hands.is_empty() {
                    assert_eq!(next["client_seed"], "club-night");
                    assert_eq!(next["nonce"], nonce + 1);
                }
                if !hands.is_empty() {
                    let wrong = game.seat(next, hands.len(), &mut rng, true);
                    let mut refused = hands.clone();
                    let mut spare = nonce;
                    refused.push(game.hand(&wrong, &mut rng, &mut spare));
                    let (answer, _) = state(&game.body(&refused));
                    let code = match game.format {
                        Format::Two => "wrong_dealer",
                        Format::Three => "rotation_broken",
                        Format::Teams => "pairing_broken",
                    };
                    assert_eq!(answer["violation"]["code"], code, "{answer}");
                    assert_eq!(answer["to_act"], json!([]));
                }
                let seats = game.seat(next, hands.len(), &mut rng, false);
                hands.push(game.hand(&seats, &mut rng, &mut nonce));
            }
            _ => {
                let tables = referee["tables"].as_array().unwrap();
                assert_eq!(
                    referee["to_act"].as_array().unwrap().len(),
                    tables.iter().filter(|t| !t["to_act"].is_null()).count()
                );
                for (index, table) in tables.iter().enumerate() {
                    let listed = table["legal_actions"].as_array().unwrap();
                    if listed.is_empty() {
                        continue;
                    }
                    let knocks: Vec<&Value> = listed
                        .iter()
                        .filter(|a| a["kind"] == "knock" || a["kind"] == "big_gin")
                        .collect();
                    let replies: Vec<&Value> = listed
                        .iter()
                        .filter(|a| a["kind"] == "best_reply" || a["kind"] == "no_layoffs")
                        .collect();
                    if table["phase"] == "reply" {
                        assert!(!replies.is_empty(), "{table}");
                        assert_reply_as_hand_state(game, last_table(&mut hands, index), table);
                        played.replies_listed += 1;
                    }
                    let pick = if let Some(knock) = knocks.choose(&mut rng) {
                        knock
                    } else if let Some(reply) = replies.choose(&mut rng) {
                        played.replies_appended += 1;
                        reply
                    } else if let Some(keep) = best_discard(game, table, listed) {
                        keep
                    } else {
                        listed.choose(&mut rng).unwrap()
                    };
                    last_table(&mut hands, index)["actions"]
                        .as_array_mut()
                        .unwrap()
                        .push(pick["move"].clone());
                }
            }
        }
    }
    panic!("the match did not end");
}

fn games() -> Vec<(&'static str, Game)> {
    let game = |format, profile: Value, seeded, jokers| Game {
        format,
        profile,
        seeded,
        jokers,
    };
    // Short games (the targets lowered) keep the debug build's run short;
    // the presets' other rules are as they play.
    let to = |base: &str, target: u32| json!({"base": base, "target": target});
    vec![
        (
            "two, standard",
            game(Format::Two, to("standard", 60), false, 0),
        ),
        (
            "two, oklahoma, winner deals",
            game(
                Format::Two,
                json!({"base": "oklahoma", "target": 60, "next_dealer": "winner"}),
                false,
                0,
            ),
        ),
        (
            "two, tournament, seeded",
            game(Format::Two, to("tournament", 60), true, 0),
        ),
        (
            "two, hollywood",
            game(Format::Two, to("hollywood", 30), false, 0),
        ),
        ("two, jokers", game(Format::Two, to("jokers", 60), false, 2)),
        ("two, eaai", game(Format::Two, to("eaai", 60), false, 0)),
        (
            "three, standard",
            game(Format::Three, to("standard", 60), false, 0),
        ),
        (
            "three, schneider, seeded",
            game(Format::Three, to("schneider", 60), true, 0),
        ),
        (
            "partnership",
            game(Format::Teams, to("partnership", 60), false, 0),
        ),
        (
            "partnership, pagat, seeded",
            game(Format::Teams, to("pagat", 60), true, 0),
        ),
    ]
}

/// Whole matches of every format played through the state alone: legal at
/// every step, the final score the audit's and the scorer's, and the hands
/// seated against the rules refused.
#[test]
fn whole_matches_play_through_the_state_alone() {
    let (mut matches, mut total, mut formats) = (0, Played::default(), 0);
    for (name, game) in games() {
        formats += 1;
        for seed in 0..2 {
            let played = play_match(&game, seed, false);
            assert!(played.hands > 0, "{name}");
            assert!(played.replies_listed > 0, "{name}: no reply was asked for");
            assert_eq!(played.replies_appended, played.replies_listed, "{name}");
            matches += 1;
            total.hands += played.hands;
            total.replies_listed += played.replies_listed;
            total.replies_appended += played.replies_appended;
            total.finals_equal += played.finals_equal;
        }
    }
    assert_eq!(total.finals_equal, matches);
    eprintln!(
        "{matches} matches of {formats} formats, {} hands, {} replies listed, {} appended, \
         {} finals equal to the audit's",
        total.hands, total.replies_listed, total.replies_appended, total.finals_equal
    );
}

/// No card or seed a viewer cannot know is in any view of any step.
#[test]
fn no_view_shows_a_card_or_seed_it_cannot_know() {
    let (mut matches, mut views) = (0, 0);
    for (_, game) in games() {
        views += play_match(&game, 7, true).views;
        matches += 1;
    }
    eprintln!("{matches} matches, {views} views checked");
}

#[actix_web::test]
async fn the_route_answers_as_the_contract_does() {
    let app = spawn_app().await;
    let body = gin_contract::answers::match_state::examples::two_play();
    let response = app.post_json("/v1/matches/state", &body.to_string()).await;
    assert_eq!(response.status().as_u16(), 200);
    let answer: Value = response.json().await.expect("JSON");
    assert_eq!(answer, state(&body).0);
    let unknown = json!({"players": ["Ann", "Bob"], "hands": [], "seat": "Cy"});
    let response = app
        .post_json("/v1/matches/state", &unknown.to_string())
        .await;
    assert_eq!(response.status().as_u16(), 422);
    let problem: Value = response.json().await.expect("JSON");
    assert_eq!(problem["code"], "unknown_player");
    assert_eq!(problem["errors"][0]["pointer"], "/seat");
}
