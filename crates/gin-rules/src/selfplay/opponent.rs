//! One learner against a bot: each row's hand is played by the learner's
//! ids for its seat and by a bot of [`crate::bots`] for the other, both
//! through the same [`IdHand`] (the bot's listed action applied as any
//! action is, and after a knock the learner's best reply, as after a knock
//! by ids).
//!
//! The learner's seat is the one given, or drawn per deal from the deal's
//! int (SplitMix64 of it: even the non-dealer, odd the dealer); the bot's
//! seed is that draw too, so a row's hands replay exactly. A hand that ends
//! before the learner's first decision (the bot takes the upcard and goes
//! gin) is dealt again unseen, as the next deal of that row.

use crate::audit::{Refusal, Seat};
use crate::bots::{BotError, BotSpec, HeldView, choose};

use super::error::BatchError;
use super::ids::IdHand;

/// Deals dealt again unseen in a row before a batch gives up: a hand ends
/// before the learner acts only when the bot goes out in its first turn.
pub(super) const MAX_UNSEEN: u64 = 64;

/// The bot and the learner's seat (`None`: drawn per deal).
#[derive(Debug, Clone, Copy)]
pub struct Opponent {
    /// The bot; its seed is replaced per deal (see the module docs).
    pub bot: BotSpec,
    /// The learner's seat, or `None` to draw it per deal.
    pub learner: Option<Seat>,
}

/// SplitMix64: a well-mixed 64-bit value of an int.
fn mix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Opponent {
    /// The learner's seat and the bot for the deal drawn from `seed`.
    pub(super) fn for_deal(&self, seed: u64) -> (Seat, BotSpec) {
        let drawn = mix(seed);
        let learner = self.learner.unwrap_or(if drawn & 1 == 0 {
            Seat::NonDealer
        } else {
            Seat::Dealer
        });
        let mut bot = self.bot;
        bot.seed = drawn;
        (learner, bot)
    }
}

/// Plays the bot's turns until the learner is to act or the hand is over,
/// each on the bot's view held beside the hand (`held`: built at the bot's
/// first turn of a deal, `None` after a deal; see [`HeldView`]).
pub(super) fn bot_turns(
    hand: &mut IdHand,
    learner: Seat,
    bot: &BotSpec,
    held: &mut Option<HeldView>,
) -> Result<(), BatchError> {
    let failed = |error: BotError| BatchError::Bot(error.to_string());
    loop {
        let (phase, to_act, legal) = hand.take_listing();
        let seat = match to_act {
            Some(seat) if seat != learner => seat,
            _ => {
                hand.put_listing((phase, to_act, legal));
                break;
            }
        };
        let live = hand.live();
        let view = match held {
            Some(view) if view.seat() == seat => view,
            _ => held.insert(HeldView::new(live, seat).map_err(failed)?),
        };
        let view = view
            .sync_owned(live, phase, to_act, legal)
            .map_err(failed)?;
        let index = choose(bot, view).map_err(failed)?;
        let chosen = view
            .legal_actions()
            .get(index)
            .map(|legal| legal.action.clone())
            .ok_or_else(|| failed(BotError::NotToAct { seat }))?;
        hand.apply(chosen).map_err(refused)?;
        // After the bot's knock: the learner's best reply, as after a knock
        // by ids (nothing otherwise).
        hand.best_reply().map_err(refused)?;
    }
    Ok(())
}

fn refused(refusal: Refusal) -> BatchError {
    BatchError::Bot(format!("the referee refused a listed action: {refusal}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::{Deal, LiveHand};
    use crate::bots::BotName;
    use crate::hand::HandCard;
    use crate::profile::Preset;

    fn cards(text: &str) -> Vec<HandCard> {
        text.split(' ').map(|c| c.parse().expect("card")).collect()
    }

    #[test]
    fn a_bot_that_goes_gin_before_the_learner_acts_ends_the_hand_with_the_reply_played() {
        // The non-dealer's 4S run wants the upcard 4S: simple takes it,
        // throws KC and knocks with nothing left, before the dealer acts.
        let deal = Deal {
            dealer: cards("7S 8S TS JD QH KH 3C 4C 7H 2C"),
            non_dealer: cards("AS 2S 3S 4H 5H 6H 9C 9D 9H KC"),
            upcard: "4S".parse().expect("card"),
            stock: cards(
                "2H 5S 6S 9S JS QS KS AH 3H 8H TH JH AD 2D 3D 4D 5D 6D 7D 8D TD QD KD AC 5C 6C \
                 7C 8C TC JC QC",
            ),
        };
        let live = LiveHand::new(Preset::Standard.profile(), deal).expect("deal");
        let mut hand = IdHand::new(live);
        let bot = BotSpec::new(BotName::Simple, 0);
        bot_turns(&mut hand, Seat::Dealer, &bot, &mut None).expect("bot");
        assert_eq!(hand.to_act(), None);
        let (winner, points) = hand.outcome().expect("over");
        assert_eq!(winner, Some(Seat::NonDealer));
        assert!(points > 0);
    }

    #[test]
    fn a_drawn_seat_and_the_bots_seed_follow_the_deals_int_alone() {
        let opponent = Opponent {
            bot: BotSpec::new(BotName::Random, 0),
            learner: None,
        };
        let seats: Vec<Seat> = (0..64).map(|seed| opponent.for_deal(seed).0).collect();
        assert!(seats.contains(&Seat::Dealer) && seats.contains(&Seat::NonDealer));
        assert_eq!(opponent.for_deal(7), opponent.for_deal(7));
        let fixed = Opponent {
            learner: Some(Seat::Dealer),
            ..opponent
        };
        assert!((0..64).all(|seed| fixed.for_deal(seed).0 == Seat::Dealer));
    }
}
