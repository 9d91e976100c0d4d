//! Information: a bot's move is a function of what its seat may know. At
//! each decision of many seeded hands, the hand is dealt again for the seat
//! to act ([`LiveHand::resample`]: the opponent's unseen cards and the stock
//! permuted) and every bot, with the same seed, must see the same view and
//! play the same move.

use gin_rules::bots::{BotName, BotSpec, SeatView, choose};
use gin_rules::{Card, HandCard, Preset, Seat};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use super::common::{deal, every_bot, play};

#[test]
fn every_bot_plays_the_same_move_when_only_what_its_seat_cannot_know_differs() {
    let mut checked = [0usize; 3];
    let mut differing_hands = 0;
    for preset in [Preset::Standard, Preset::Tournament, Preset::Jokers] {
        let profile = preset.profile();
        for seed in 0..4 {
            let bots = [
                BotSpec::new(BotName::Strong, seed),
                BotSpec::new(BotName::Simple, seed),
            ];
            let mut shuffler = StdRng::seed_from_u64(seed ^ 0xdead);
            play(&profile, deal(seed), bots, 400, |hand, view, _| {
                let seat = view.seat();
                let mut order: Vec<HandCard> = Card::deck().map(HandCard::from).collect();
                order.shuffle(&mut shuffler);
                let other = hand.resample(seat, &order).unwrap();
                if other.view(Some(seat.other())) != hand.view(Some(seat.other())) {
                    differing_hands += 1;
                }
                let again = SeatView::of_live(&other, seat).unwrap();
                assert_eq!(&again, view, "the view of {seat:?} changed");
                for (slot, bot) in every_bot(seed * 7 + 1).enumerate() {
                    let first = choose(&bot, view).unwrap();
                    let second = choose(&bot, &again).unwrap();
                    assert_eq!(first, second, "{:?} at {seat:?}", bot.name);
                    checked[slot] += 1;
                }
            });
        }
    }
    // Hundreds of decision points for each bot, most of them with an
    // opponent's hand that really differs.
    assert!(checked.iter().all(|&count| count >= 200), "{checked:?}");
    assert!(differing_hands >= 150, "{differing_hands}");
    println!(
        "information: decision points per bot {checked:?}, opponent hands that differed {differing_hands}"
    );
}

#[test]
fn a_view_holds_none_of_the_cards_its_seat_cannot_know() {
    let profile = Preset::Standard.profile();
    let bots = [
        BotSpec::new(BotName::Simple, 1),
        BotSpec::new(BotName::Simple, 2),
    ];
    play(&profile, deal(5), bots, 400, |hand, view, _| {
        let hidden = hand.hidden_from(view.seat());
        let shown: Vec<HandCard> = view
            .hand()
            .cards()
            .chain(view.opponent_known().cards())
            .chain(view.discard_pile().iter().copied())
            .collect();
        assert!(shown.iter().all(|card| !hidden.contains(card)));
        let seen = view.seen();
        assert!(hidden.iter().all(|card| match card {
            HandCard::Natural(card) => !seen.contains(*card) && view.unseen().contains(*card),
            HandCard::Joker(_) => true,
        }));
        let _ = Seat::Dealer;
    });
}
