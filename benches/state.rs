//! What the live referee costs against the audit of the same transcript: a
//! 60-action hand that stops after a draw (the costliest phase to list:
//! eleven discards, the knocks, each least count), read from bytes, answered
//! and written, as the server does (issue 27: at most twice the audit).

// A benchmark's fixtures are built once up front: a failure there is a bug in
// the benchmark, reported at once.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::indexing_slicing)]

use criterion::{Criterion, criterion_group, criterion_main};
use gin_contract::answers::{audit, state};
use gin_contract::wire::live::move_json;
use gin_rules::{Card, Deal, HandCard, LegalKind, Profile, StatePhase, hand_state};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};

/// A deal and 60 legal actions ending in the discard phase, no knock: the
/// play-out takes from the pile often, so that the stock lasts.
pub fn sixty_actions() -> Value {
    let profile = Profile::default();
    for seed in 0.. {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut deck: Vec<HandCard> = Card::deck().map(HandCard::from).collect();
        deck.shuffle(&mut rng);
        let deal = Deal {
            dealer: deck[0..10].to_vec(),
            non_dealer: deck[10..20].to_vec(),
            upcard: deck[20],
            stock: deck[21..].to_vec(),
        };
        let mut actions = Vec::new();
        loop {
            let now = hand_state(&profile, &deal, &actions, None).expect("a state");
            if actions.len() == 60 {
                if now.phase == StatePhase::Discard {
                    let cards = |cards: &[HandCard]| -> Vec<String> {
                        cards.iter().map(|c| c.to_string()).collect()
                    };
                    let moves: Vec<Value> = actions.iter().map(move_json).collect();
                    return json!({"deal": {"dealer": cards(&deal.dealer), "non_dealer": cards(&deal.non_dealer),
                        "upcard": deal.upcard.to_string(), "stock": cards(&deal.stock)}, "actions": moves});
                }
                break;
            }
            let listed: Vec<_> = now
                .legal_actions
                .iter()
                .filter(|a| !matches!(a.kind, LegalKind::Knock | LegalKind::BigGin))
                .collect();
            let take = listed.iter().find(|a| a.kind == LegalKind::TakeDiscard);
            let pick = match take {
                Some(take) if rng.gen_bool(0.6) => *take,
                _ => match listed.choose(&mut rng) {
                    Some(pick) => *pick,
                    None => break,
                },
            };
            actions.push(pick.action.clone());
        }
    }
    unreachable!()
}

fn bench(c: &mut Criterion) {
    let request = sixty_actions();
    let audit_body = serde_json::to_vec(&request).unwrap();
    let mut seated = request.clone();
    seated["seat"] = json!("non_dealer");
    let state_body = serde_json::to_vec(&request).unwrap();
    let seated_body = serde_json::to_vec(&seated).unwrap();
    c.bench_function("state/audit_60_actions", |b| {
        b.iter(|| {
            let parsed: audit::AuditRequest = serde_json::from_slice(&audit_body).unwrap();
            serde_json::to_vec(&audit::answer(parsed).unwrap()).unwrap()
        })
    });
    c.bench_function("state/state_60_actions", |b| {
        b.iter(|| {
            let parsed: state::StateRequest = serde_json::from_slice(&state_body).unwrap();
            serde_json::to_vec(&state::answer(parsed).unwrap()).unwrap()
        })
    });
    c.bench_function("state/state_60_actions_seat", |b| {
        b.iter(|| {
            let parsed: state::StateRequest = serde_json::from_slice(&seated_body).unwrap();
            serde_json::to_vec(&state::answer(parsed).unwrap()).unwrap()
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
