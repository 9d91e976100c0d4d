//! A seat's view kept up to date beside a held hand equals the view built
//! again from the hand, at every decision, for both seats; and the bots play
//! the same moves on it.

use gin_rules::bots::{BotName, BotSpec, HeldView, SeatView, choose_for, choose_held};
use gin_rules::selfplay::seeded_deal;
use gin_rules::{LiveHand, Preset, Profile, Seat};

use super::common::seated;

fn profiles() -> Vec<Profile> {
    [
        Preset::Standard,
        Preset::Oklahoma,
        Preset::Straight,
        Preset::Tournament,
        Preset::Jokers,
    ]
    .into_iter()
    .map(|preset| preset.profile())
    .collect()
}

/// Plays one hand with `bots` (dealer, non-dealer), each seat's move chosen
/// on its held view; at every decision both held views are checked against
/// [`SeatView::of_live`] and the mover's move against [`choose_for`]'s.
/// Answers the decisions checked.
fn play_checked(profile: &Profile, seed: u64, bots: [BotSpec; 2]) -> usize {
    let deal = seeded_deal(seed, profile.jokers()).unwrap();
    let mut live = LiveHand::new(profile.clone(), deal).unwrap();
    let mut held = [
        HeldView::new(&live, Seat::Dealer).unwrap(),
        HeldView::new(&live, Seat::NonDealer).unwrap(),
    ];
    let mut decisions = 0;
    for _ in 0..2000 {
        for view in &mut held {
            let seat = view.seat();
            // One seat lent the listing, the other given it.
            let kept = if seat == Seat::Dealer {
                view.sync(&live).unwrap().clone()
            } else {
                let (phase, to_act, legal) = live.now();
                view.sync_owned(&live, phase, to_act, legal)
                    .unwrap()
                    .clone()
            };
            assert_eq!(
                kept,
                SeatView::of_live(&live, seat).unwrap(),
                "{} seed {seed}, {seat} after {} actions",
                profile.name(),
                live.actions().len()
            );
        }
        let (_, to_act, _) = live.now();
        let Some(seat) = to_act else { break };
        let bot = seated(bots, seat);
        let index = usize::from(seat == Seat::NonDealer);
        let chosen = choose_held(&mut held[index], &live, &bot).unwrap();
        assert_eq!(chosen, choose_for(&live, seat, &bot).unwrap());
        live.apply(chosen.action).unwrap();
        decisions += 1;
    }
    assert!(live.now().1.is_none(), "the hand ended");
    decisions
}

#[test]
fn a_held_view_equals_the_rebuilt_view_at_every_decision_of_many_hands() {
    let mut decisions = 0;
    for profile in profiles() {
        for seed in 0..40 {
            let pairs = [
                [BotName::Simple, BotName::Simple],
                [BotName::Random, BotName::Simple],
                [BotName::Simple, BotName::Random],
            ];
            let [dealer, non_dealer] = pairs[seed as usize % pairs.len()];
            let bots = [
                BotSpec::new(dealer, seed),
                BotSpec::new(non_dealer, seed + 1),
            ];
            decisions += play_checked(&profile, seed, bots);
        }
    }
    assert!(decisions > 5000, "{decisions}");
}

#[test]
fn strong_plays_the_same_moves_on_a_held_view() {
    let mut strong = BotSpec::new(BotName::Strong, 5);
    strong.knobs.samples = Some(4);
    for seed in 0..4 {
        play_checked(
            &Preset::Standard.profile(),
            seed,
            [strong, BotSpec::new(BotName::Simple, seed)],
        );
    }
}

#[test]
fn a_held_view_given_another_hand_with_fewer_actions_is_built_again() {
    let profile = Preset::Standard.profile();
    let mut first = LiveHand::new(profile.clone(), seeded_deal(1, 0).unwrap()).unwrap();
    let mut held = HeldView::new(&first, Seat::NonDealer).unwrap();
    for _ in 0..6 {
        let (_, to_act, _) = first.now();
        let seat = to_act.unwrap();
        let chosen = choose_for(&first, seat, &BotSpec::new(BotName::Simple, 0)).unwrap();
        first.apply(chosen.action).unwrap();
        held.sync(&first).unwrap();
    }
    let second = LiveHand::new(profile, seeded_deal(2, 0).unwrap()).unwrap();
    let kept = held.sync(&second).unwrap().clone();
    assert_eq!(kept, SeatView::of_live(&second, Seat::NonDealer).unwrap());
}
