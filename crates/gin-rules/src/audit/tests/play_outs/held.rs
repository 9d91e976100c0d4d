//! A hand held between calls ([`LiveHand`]) against the replay: at every
//! step of random play-outs (every preset's kind, jokers, the 50th-card
//! rule) its state equals `hand_state` of its deal and actions for every
//! seat; illegal actions are refused with the audit's own violation and
//! leave it unchanged; a resampled copy shows the seat what it saw.

use rand::seq::SliceRandom;

use super::*;
use crate::audit::{LiveHand, Refusal};

/// Moves tried at each step, most of them illegal there.
fn candidates(hand: &LiveHand, player: Seat) -> Vec<Action> {
    let state = hand.state(None);
    let mut plays = vec![
        Move::Pass,
        Move::Draw {
            from: Source::Stock,
            card: None,
        },
        Move::Draw {
            from: Source::DiscardPile,
            card: None,
        },
        Move::LayOff {
            melds: None,
            jokers: StandsFor::default(),
            layoffs: None,
        },
    ];
    if let View::Referee {
        dealer, non_dealer, ..
    } = state.view
    {
        for card in dealer.cards().take(2).chain(non_dealer.cards().take(2)) {
            plays.push(Move::Discard { card });
            plays.push(Move::Knock {
                discard: Some(card),
                melds: None,
                jokers: StandsFor::default(),
            });
        }
    }
    [player, player.other()]
        .into_iter()
        .flat_map(|player| {
            plays.iter().map(move |play| Action {
                player,
                play: play.clone(),
            })
        })
        .collect()
}

fn check_game(game: &PlayOut, rng: &mut StdRng) -> (usize, usize) {
    let mut hand = LiveHand::new(game.profile.clone(), game.deal.clone()).unwrap();
    let (mut states, mut refused) = (0, 0);
    for (index, action) in game.actions.iter().enumerate() {
        let so_far = &game.actions[..index];
        for seat in [None, Some(Seat::Dealer), Some(Seat::NonDealer)] {
            let replayed = hand_state(&game.profile, &game.deal, so_far, seat).unwrap();
            assert_eq!(hand.state(seat), replayed, "action {index}");
            states += 1;
        }
        for wrong in candidates(&hand, action.player) {
            let mut longer = so_far.to_vec();
            longer.push(wrong.clone());
            let Ok(audit) = audit_hand(&game.profile, &game.deal, &longer) else {
                continue;
            };
            let Some(violation) = audit.violation else {
                continue;
            };
            let before = hand.state(None);
            assert_eq!(hand.apply(wrong), Err(Refusal::Illegal(violation)));
            assert_eq!(hand.state(None), before);
            assert_eq!(hand.actions(), so_far);
            refused += 1;
        }
        if rng.gen_bool(0.1) {
            check_resample(&hand, rng);
        }
        hand.apply(action.clone()).unwrap();
    }
    for seat in [None, Some(Seat::Dealer), Some(Seat::NonDealer)] {
        let replayed = hand_state(&game.profile, &game.deal, &game.actions, seat).unwrap();
        assert_eq!(hand.state(seat), replayed);
    }
    (states, refused)
}

/// A resampled copy: the seat's state unchanged, the hidden cards the same
/// set, the copy's own record replaying to its state.
fn check_resample(hand: &LiveHand, rng: &mut StdRng) {
    let seat = if rng.gen_bool(0.5) {
        Seat::Dealer
    } else {
        Seat::NonDealer
    };
    let mut order: Vec<HandCard> = Card::deck().map(HandCard::from).collect();
    order.extend(Joker::ALL.map(HandCard::Joker));
    order.shuffle(rng);
    let copy = hand.resample(seat, &order).unwrap();
    assert_eq!(copy.state(Some(seat)), hand.state(Some(seat)));
    let mut hidden = copy.hidden_from(seat);
    hidden.sort_by_key(|card| card.to_string());
    let mut before = hand.hidden_from(seat);
    before.sort_by_key(|card| card.to_string());
    assert_eq!(hidden, before);
    let replayed = hand_state(copy.profile(), copy.deal(), copy.actions(), None).unwrap();
    assert_eq!(copy.state(None), replayed);
}

#[test]
fn a_held_hand_answers_what_the_replay_answers_at_every_step() {
    let mut rng = StdRng::seed_from_u64(36);
    let (mut games, mut states, mut refused) = (0, 0, 0);
    let games_played = play_outs().step_by(3).chain(joker_play_outs().step_by(4));
    for game in games_played {
        let (s, r) = check_game(&game, &mut rng);
        games += 1;
        states += s;
        refused += r;
    }
    assert!(
        games >= 100 && states > 10_000 && refused > 10_000,
        "{games} {states} {refused}"
    );
}

#[test]
fn a_resampled_hand_moves_the_cards_the_seat_cannot_know() {
    let game = play_out(3, &Profile::default());
    let mut hand = LiveHand::new(game.profile.clone(), game.deal.clone()).unwrap();
    for action in game.actions.iter().take(4) {
        hand.apply(action.clone()).unwrap();
    }
    let mut order: Vec<HandCard> = Card::deck().map(HandCard::from).collect();
    order.reverse();
    let copy = hand.resample(Seat::Dealer, &order).unwrap();
    assert_eq!(
        copy.state(Some(Seat::Dealer)),
        hand.state(Some(Seat::Dealer))
    );
    assert_ne!(copy.state(None), hand.state(None));
    assert_ne!(copy.deal().non_dealer, hand.deal().non_dealer);
}
