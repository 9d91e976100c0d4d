//! The time of one bot move, per bot, on decisions met in play.
//!
//! ```text
//! cargo bench -p gin-rules --bench bots
//! ```
//!
//! The views are collected once from seeded hands of `strong` against
//! `simple` under `standard` (the `eaai` preset's hand rules): every
//! decision with more than one listed action, the upcard offers, draws and
//! discards in the proportions play meets them. Each bot is then timed
//! deciding them, one decision an iteration, cycling through the views, so
//! criterion's time is the mean of a move over that mix; a group per
//! decision kind shows where `strong` spends. The per-decision median and
//! 99th percentile over whole matches are the strength benchmark's
//! (`examples/bot_strength.rs`), printed beside its table.

use std::hint::black_box;
use std::time::Duration;

use criterion::Criterion;
use gin_rules::bots::{BotName, BotSpec, SeatView, choose};
use gin_rules::{Card, Deal, HandCard, LiveHand, Preset, Seat, StatePhase};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

const HANDS: u64 = 24;

fn deal(seed: u64) -> Option<Deal> {
    let mut deck: Vec<HandCard> = Card::deck().map(HandCard::from).collect();
    deck.shuffle(&mut StdRng::seed_from_u64(seed));
    let mut cards = deck.into_iter();
    Some(Deal {
        dealer: cards.by_ref().take(10).collect(),
        non_dealer: cards.by_ref().take(10).collect(),
        upcard: cards.next()?,
        stock: cards.collect(),
    })
}

/// Every decision with a choice met in `HANDS` seeded hands.
fn views() -> Vec<SeatView> {
    let profile = Preset::Standard.profile();
    let mut views = Vec::new();
    for seed in 0..HANDS {
        let Some(deal) = deal(seed) else { continue };
        let Ok(mut hand) = LiveHand::new(profile.clone(), deal) else {
            continue;
        };
        for _ in 0..400 {
            let Some(seat) = hand.now().1 else { break };
            let Ok(view) = SeatView::of_live(&hand, seat) else {
                break;
            };
            let bot = match seat {
                Seat::Dealer => BotName::Strong,
                Seat::NonDealer => BotName::Simple,
            };
            let Ok(index) = choose(&BotSpec::new(bot, seed), &view) else {
                break;
            };
            let Some(action) = view.legal_actions().get(index).cloned() else {
                break;
            };
            if view.legal_actions().len() > 1 {
                views.push(view);
            }
            if hand.apply(action.action).is_err() {
                break;
            }
        }
    }
    views
}

fn bench(c: &mut Criterion) {
    let views = views();
    for (label, phases) in [
        ("all", None),
        ("draw", Some([StatePhase::Draw, StatePhase::UpcardOffer])),
        ("discard", Some([StatePhase::Discard, StatePhase::Discard])),
    ] {
        let chosen: Vec<&SeatView> = views
            .iter()
            .filter(|view| phases.is_none_or(|phases| phases.contains(&view.phase())))
            .collect();
        let mut group = c.benchmark_group(format!("bot move ({label}, {} views)", chosen.len()));
        group.measurement_time(Duration::from_secs(4));
        for name in BotName::ALL {
            let spec = BotSpec::new(name, 7);
            let mut next = chosen.iter().cycle();
            group.bench_function(name.name(), |b| {
                b.iter(|| next.next().map(|view| choose(&spec, black_box(view))))
            });
        }
        group.finish();
    }
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    bench(&mut criterion);
    criterion.final_summary();
}
