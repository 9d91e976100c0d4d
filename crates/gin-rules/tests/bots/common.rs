//! Seeded deals and self-play for the bots' tests.

use gin_rules::bots::{BotName, BotSpec, SeatView, choose};
use gin_rules::{Card, Deal, HandCard, LiveHand, Profile, Seat};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

/// A deal shuffled from `seed`.
pub fn deal(seed: u64) -> Deal {
    let mut deck: Vec<HandCard> = Card::deck().map(HandCard::from).collect();
    deck.shuffle(&mut StdRng::seed_from_u64(seed));
    Deal {
        dealer: deck[0..10].to_vec(),
        non_dealer: deck[10..20].to_vec(),
        upcard: deck[20],
        stock: deck[21..].to_vec(),
    }
}

/// The bot seated at `seat`.
pub fn seated(bots: [BotSpec; 2], seat: Seat) -> BotSpec {
    match seat {
        Seat::Dealer => bots[0],
        Seat::NonDealer => bots[1],
    }
}

/// Plays a hand to its end (at most `limit` decisions) with `bots` (dealer,
/// non-dealer), calling `visit` with the hand and the view before each move
/// and the index chosen.
pub fn play(
    profile: &Profile,
    deal: Deal,
    bots: [BotSpec; 2],
    limit: usize,
    mut visit: impl FnMut(&LiveHand, &SeatView, usize),
) -> LiveHand {
    let mut hand = LiveHand::new(profile.clone(), deal).unwrap();
    for _ in 0..limit {
        let (_, to_act, _) = hand.now();
        let Some(seat) = to_act else { break };
        let view = SeatView::of_live(&hand, seat).unwrap();
        let index = choose(&seated(bots, seat), &view).unwrap();
        visit(&hand, &view, index);
        let action = view.legal_actions()[index].action.clone();
        hand.apply(action).unwrap();
    }
    hand
}

/// Every bot with `seed`.
pub fn every_bot(seed: u64) -> impl Iterator<Item = BotSpec> {
    BotName::ALL
        .into_iter()
        .map(move |name| BotSpec::new(name, seed))
}
