//! What the live referee of a match costs against the match audit of the
//! same record (issue 33: at most twice): a 10-hand two-player record whose
//! last hand stops after a draw (the costliest phase to list), read from
//! bytes, answered and written as the server does, for the referee's view,
//! a seat's and the public's (built from both seats' views).

// A benchmark's fixtures are built once up front: a failure there is a bug in
// the benchmark, reported at once.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::indexing_slicing)]

use criterion::{Criterion, criterion_group, criterion_main};
use gin_contract::answers::{match_audit, match_state};
use gin_contract::wire::live::move_json;
use gin_rules::{Action, Card, Deal, HandCard, LegalKind, Preset, Profile, StatePhase, hand_state};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use serde_json::{Value, json};

/// One hand played by bots that knock when they can; with `stop`, stopped
/// after that many actions in the discard phase (`None` if it ended first).
fn hand(profile: &Profile, rng: &mut StdRng, stop: Option<usize>) -> Option<Value> {
    let mut deck: Vec<HandCard> = Card::deck().map(HandCard::from).collect();
    deck.shuffle(rng);
    let deal = Deal {
        dealer: deck[0..10].to_vec(),
        non_dealer: deck[10..20].to_vec(),
        upcard: deck[20],
        stock: deck[21..].to_vec(),
    };
    let mut actions: Vec<Action> = Vec::new();
    loop {
        let now = hand_state(profile, &deal, &actions, None).expect("a state");
        if stop.is_some_and(|at| actions.len() >= at) && now.phase == StatePhase::Discard {
            break;
        }
        if now.phase == StatePhase::Over {
            if stop.is_some() {
                return None;
            }
            break;
        }
        let knock = now
            .legal_actions
            .iter()
            .find(|a| a.kind == LegalKind::Knock);
        let reply = now
            .legal_actions
            .iter()
            .find(|a| a.kind == LegalKind::BestReply);
        let pick = match (knock, reply, stop) {
            (Some(knock), _, None) => knock,
            (_, Some(reply), _) => reply,
            _ => {
                let others: Vec<_> = now
                    .legal_actions
                    .iter()
                    .filter(|a| !matches!(a.kind, LegalKind::Knock | LegalKind::BigGin))
                    .collect();
                others.choose(rng).copied()?
            }
        };
        actions.push(pick.action.clone());
    }
    let cards =
        |cards: &[HandCard]| -> Vec<String> { cards.iter().map(|c| c.to_string()).collect() };
    Some(json!({
        "deal": {"dealer": cards(&deal.dealer), "non_dealer": cards(&deal.non_dealer),
                 "upcard": deal.upcard.to_string(), "stock": cards(&deal.stock)},
        "actions": actions.iter().map(move_json).collect::<Vec<_>>(),
    }))
}

/// Nine hands over and a tenth in its discard phase after 20 actions, in a
/// game to 1000 (so that it does not end), the deal alternating.
pub fn ten_hands() -> Value {
    let profile = Preset::Standard.profile();
    let mut rng = StdRng::seed_from_u64(33);
    let mut hands = Vec::new();
    while hands.len() < 10 {
        let last = hands.len() == 9;
        let Some(mut played) = hand(&profile, &mut rng, last.then_some(20)) else {
            continue;
        };
        let dealer = if hands.len().is_multiple_of(2) {
            "Ann"
        } else {
            "Bob"
        };
        played["dealer"] = json!(dealer);
        hands.push(played);
    }
    json!({"profile": {"base": "standard", "target": 1000}, "players": ["Ann", "Bob"],
           "hands": hands})
}

fn bench(c: &mut Criterion) {
    let record = ten_hands();
    let body = |view: Option<(&str, Value)>| {
        let mut body = record.clone();
        if let Some((key, value)) = view {
            body[key] = value;
        }
        serde_json::to_vec(&body).unwrap()
    };
    let audit_body = body(None);
    let check: match_state::MatchStateRequest = serde_json::from_slice(&audit_body).unwrap();
    let answer = match_state::answer(&check).unwrap();
    assert_eq!(serde_json::to_value(&answer).unwrap()["phase"], "play");
    c.bench_function("match_state/audit_10_hands", |b| {
        b.iter(|| {
            let parsed: match_audit::MatchAuditRequest =
                serde_json::from_slice(&audit_body).unwrap();
            serde_json::to_vec(&match_audit::answer(&parsed).unwrap()).unwrap()
        })
    });
    for (name, view) in [
        ("referee", None),
        ("seat", Some(("seat", json!("Ann")))),
        ("spectator", Some(("spectator", json!(true)))),
    ] {
        let state_body = body(view);
        c.bench_function(&format!("match_state/state_10_hands_{name}"), |b| {
            b.iter(|| {
                let parsed: match_state::MatchStateRequest =
                    serde_json::from_slice(&state_body).unwrap();
                serde_json::to_vec(&match_state::answer(&parsed).unwrap()).unwrap()
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
