//! At every decision of many seeded hands, each bot's move is listed, and
//! the record it makes audits legal.

use gin_rules::bots::{BotName, BotSpec, choose_for};
use gin_rules::{Preset, Profile, Seat, audit_hand};

use super::common::{deal, every_bot, play};

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

#[test]
fn every_bot_plays_only_listed_moves_and_its_hands_audit_legal() {
    let mut decisions = 0;
    for profile in profiles() {
        for seed in 0..12 {
            for bot in every_bot(seed) {
                let opponent = BotSpec::new(BotName::Simple, seed + 1);
                let hand = play(
                    &profile,
                    deal(seed),
                    [bot, opponent],
                    2000,
                    |_, view, index| {
                        assert!(index < view.legal_actions().len());
                        decisions += 1;
                    },
                );
                let audit = audit_hand(&profile, hand.deal(), hand.actions()).unwrap();
                assert!(audit.is_legal(), "{:?}", audit.violation);
            }
        }
    }
    assert!(decisions > 1000, "{decisions}");
}

#[test]
fn a_seat_that_is_not_to_act_gets_not_to_act() {
    let hand = gin_rules::LiveHand::new(Profile::default(), deal(3)).unwrap();
    let spec = BotSpec::new(BotName::Random, 0);
    let error = choose_for(&hand, Seat::Dealer, &spec).unwrap_err();
    assert!(matches!(
        error,
        gin_rules::bots::BotError::NotToAct { seat: Seat::Dealer }
    ));
    assert!(choose_for(&hand, Seat::NonDealer, &spec).is_ok());
}
