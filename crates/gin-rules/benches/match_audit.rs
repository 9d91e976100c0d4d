//! The match audit's cost: a 20-hand match replayed and scored
//! (`gin_rules::audit_match`), with short hands (a knock after the upcard offer
//! and one draw, then the defender's layoffs) and with the longest hands (both
//! players draw and throw back until the stock runs out: 60 actions, void).
//! The target is raised so that all 20 hands stay in the game.

// A benchmark's fixtures are built once up front: a failure there is a bug in
// the benchmark, reported at once.
#![allow(clippy::expect_used)]

use criterion::{Criterion, criterion_group, criterion_main};
use gin_rules::{
    Action, Card, Deal, HandCard, Move, Players, ProfileOverrides, RecordedHand, RecordedLayoff,
    Seat, Source, audit_match, cards,
};

fn list(text: &str) -> Vec<HandCard> {
    cards(text)
        .expect("cards")
        .iter()
        .map(HandCard::from)
        .collect()
}

fn deal() -> Deal {
    let stock: Vec<HandCard> = "2H 5S 6S 9S JS QS KS AH 3H 8H TH JH AD 2D 3D 4D 5D 6D 7D 8D TD QD KD AC 5C 6C 7C 8C TC JC QC"
        .split(' ')
        .map(|c| c.parse().expect("card"))
        .collect();
    Deal {
        dealer: list("7S 8S TS JD QH KH 3C 4C 7H 4S"),
        non_dealer: list("AS 2S 3S 4H 5H 6H 9C 9D 9H KC"),
        upcard: "2C".parse().expect("card"),
        stock,
    }
}

fn act(player: Seat, play: Move) -> Action {
    Action { player, play }
}

fn knock_hand(dealer: &str) -> RecordedHand {
    let card = |c: &str| c.parse::<Card>().expect("card");
    let actions = vec![
        act(Seat::NonDealer, Move::Pass),
        act(Seat::Dealer, Move::Pass),
        act(
            Seat::NonDealer,
            Move::Draw {
                from: Source::Stock,
                card: Some(card("2H").into()),
            },
        ),
        act(
            Seat::NonDealer,
            Move::Knock {
                discard: Some(card("KC").into()),
                melds: Some(vec![list("AS 2S 3S"), list("4H 5H 6H"), list("9C 9D 9H")]),
                jokers: Default::default(),
            },
        ),
        act(
            Seat::Dealer,
            Move::LayOff {
                melds: None,
                jokers: Default::default(),
                layoffs: Some(vec![
                    RecordedLayoff {
                        card: card("7H").into(),
                        stands_for: None,
                        meld: Some(1),
                        onto: None,
                    },
                    RecordedLayoff {
                        card: card("4S").into(),
                        stands_for: None,
                        meld: Some(0),
                        onto: None,
                    },
                ]),
            },
        ),
    ];
    RecordedHand {
        dealer: dealer.into(),
        non_dealer: None,
        deal: deal(),
        seeds: None,
        actions,
    }
}

fn void_hand(dealer: &str) -> RecordedHand {
    let deal = deal();
    let mut actions = vec![
        act(Seat::NonDealer, Move::Pass),
        act(Seat::Dealer, Move::Pass),
    ];
    for (turn, &card) in deal.stock.iter().take(29).enumerate() {
        let seat = if turn.is_multiple_of(2) {
            Seat::NonDealer
        } else {
            Seat::Dealer
        };
        actions.push(act(
            seat,
            Move::Draw {
                from: Source::Stock,
                card: Some(card),
            },
        ));
        actions.push(act(seat, Move::Discard { card }));
    }
    RecordedHand {
        dealer: dealer.into(),
        non_dealer: None,
        deal,
        seeds: None,
        actions,
    }
}

fn bench(c: &mut Criterion) {
    let profile = serde_json::from_str::<ProfileOverrides>(r#"{"target": 10000}"#)
        .expect("overrides")
        .resolve()
        .expect("profile");
    let players = Players::new("Ann".to_string(), "Bob".to_string());
    let dealers = |i: usize| if i.is_multiple_of(2) { "Ann" } else { "Bob" };
    let knocks: Vec<RecordedHand> = (0..20).map(|i| knock_hand(dealers(i))).collect();
    let voids: Vec<RecordedHand> = (0..20).map(|i| void_hand(dealers(i))).collect();
    for (name, hands) in [("20_knocks", &knocks), ("20_void_hands_60_actions", &voids)] {
        let audit = audit_match(&profile, &players, hands).expect("audit");
        assert!(audit.is_legal(), "{:?}", audit.violation);
        assert_eq!(audit.score.hands.len(), 20);
        c.bench_function(&format!("match_audit/{name}"), |b| {
            b.iter(|| audit_match(&profile, &players, std::hint::black_box(hands)))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
