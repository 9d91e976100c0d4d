//! Playing a dealt hand out, to value knocking now against playing on.
//!
//! A dealt world (module `deals`) fixes the opponent's hand and the stock's
//! order; from there both players play the quick policy every Monte Carlo
//! player of this game rolls out with: take the pile's top when it lowers
//! the count, discard the card whose loss leaves the least count, knock at
//! the first chance, each at its own count (the seat's own play-out knocks
//! for gin only: module `knock` says why). The rollout answers one
//! question: what a hand is worth to the seat, in points, if it does not
//! knock now. It is never the seat's own play; a move is still chosen by
//! the search. Natural cards only.

use crate::audit::STOCK_RESERVE;
use crate::card::{Card, CardSet};
use crate::deadwood::natural::{
    best_arrangement, least_discards, least_discards_among, min_deadwood,
};
use crate::layoff::best_reply;
use crate::meld::Meld;
use crate::profile::{JokerRules, Profile};

/// The most turns a rollout plays before it calls the hand dead. Two quick
/// players can pass cards through the pile only while each take lowers the
/// taker's count, so a hand ends long before; the cap is a guard.
const MOST_TURNS: usize = 200;

/// The counts at which each player of a rollout knocks.
#[derive(Debug, Clone, Copy)]
pub(super) struct KnockAt {
    /// The seat's own, in the hand played out.
    pub(super) mine: u32,
    /// The opponent's.
    pub(super) theirs: u32,
}

impl KnockAt {
    /// The seat building on for gin, the opponent knocking at its first
    /// chance under `limit`: the plan every play-out of `strong` weighs
    /// (module `knock` says why).
    pub(super) const fn building_for_gin(limit: u32) -> KnockAt {
        KnockAt {
            mine: 0,
            theirs: limit,
        }
    }
}

/// The points of a knock (`knocker`'s ten cards against `defender`'s ten)
/// to the knocker: positive when it wins, negative when it is undercut.
pub(super) fn knock_points(knocker: CardSet, defender: CardSet, profile: &Profile) -> i32 {
    let count = min_deadwood(knocker);
    let signed = |points: u32| i32::try_from(points).unwrap_or(i32::MAX);
    if count == 0 {
        let theirs = if profile.layoffs_on_gin() {
            after_layoff(defender, &best_arrangement(knocker).melds)
        } else {
            min_deadwood(defender)
        };
        return signed(profile.gin_bonus() + theirs);
    }
    let theirs = after_layoff(defender, &best_arrangement(knocker).melds);
    let undercut = theirs < count || (theirs == count && profile.tie_is_undercut());
    if undercut {
        -signed(profile.undercut_bonus() + (count - theirs))
    } else {
        signed(theirs - count)
    }
}

/// The points, to the player holding `mine`, of playing the hand out from
/// here: `mine` has just discarded `top`, the opponent holds `theirs` and
/// draws next from `stock` (top last) or takes `top`. Each knocks at the
/// first count of at most its `knock_at`; a hand that reaches the stock's reserve
/// is dead (0 points).
pub(super) fn play_on(
    mine: CardSet,
    theirs: CardSet,
    stock: &[Card],
    top: Card,
    knock_at: KnockAt,
    profile: &Profile,
) -> i32 {
    // The player to play and the other, with the counts they knock at;
    // the opponent plays first.
    let (mut hand, mut other) = (theirs, mine);
    let (mut knocks_at, mut other_knocks_at) = (knock_at.theirs, knock_at.mine);
    let mut mine_to_play = false;
    // The stock as a shrinking slice: a play-out draws, it never shuffles.
    let mut stock = stock;
    let mut top = top;
    for _ in 0..MOST_TURNS {
        let with_top = hand.union(CardSet::single(top));
        let taken = least_discard(with_top, Some(top)).map_or(u32::MAX, |(_, count)| count);
        let eleven = if taken < min_deadwood(hand) {
            with_top
        } else if stock.len() <= STOCK_RESERVE {
            return 0;
        } else {
            let Some((&card, rest)) = stock.split_last() else {
                return 0;
            };
            stock = rest;
            hand.union(CardSet::single(card))
        };
        let kept_top = (eleven == with_top).then_some(top);
        let Some((discard, count)) = least_discard(eleven, kept_top) else {
            return 0;
        };
        let ten = eleven.difference(CardSet::single(discard));
        if count <= knocks_at {
            let points = knock_points(ten, other, profile);
            return if mine_to_play { points } else { -points };
        }
        (hand, other) = (other, ten);
        (knocks_at, other_knocks_at) = (other_knocks_at, knocks_at);
        mine_to_play = !mine_to_play;
        top = discard;
    }
    0
}

/// The discard of `eleven` that leaves the least count (the higher card on
/// a tie, as it counts more if kept), never `kept`, with that count.
pub(super) fn least_discard(eleven: CardSet, kept: Option<Card>) -> Option<(Card, u32)> {
    let (mut least, mut best) = least_discards(eleven);
    if let Some(kept) = kept {
        best.remove(kept);
        if best.is_empty() {
            // Only the kept card reaches the least count: the next best of
            // the rest.
            (least, best) = least_discards_among(eleven, eleven.difference(CardSet::single(kept)));
        }
    }
    highest(best).map(|card| (card, least))
}

/// The card of `cards` that counts most (the first of them on a tie).
fn highest(cards: CardSet) -> Option<Card> {
    cards
        .iter()
        .fold(None, |held: Option<Card>, card| match held {
            Some(held) if card.rank().value() <= held.rank().value() => Some(held),
            _ => Some(card),
        })
}

/// The defender's count after laying off the most it can on `melds` (the
/// defender's best reply).
fn after_layoff(defender: CardSet, melds: &[Meld]) -> u32 {
    best_reply(melds, defender, &JokerRules::NONE, true).deadwood()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::cards;
    use crate::profile::Preset;

    fn set(text: &str) -> CardSet {
        cards(text).unwrap()
    }

    fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    const QUICK: KnockAt = KnockAt {
        mine: 10,
        theirs: 10,
    };

    /// No meld and nothing that lays off on the knockers below: 78 points.
    const SPREAD: &str = "KD QC JH TD 9C 8H 5C 4D 3C 9D";

    #[test]
    fn a_knock_wins_the_difference_of_the_counts() {
        let knocker = set("AS 2S 3S 4H 5H 6H 7D 7C 7S 2C");
        let profile = Preset::Eaai.profile();
        assert_eq!(knock_points(knocker, set(SPREAD), &profile), 78 - 2);
    }

    #[test]
    fn a_defender_who_lays_off_below_the_knock_undercuts_it() {
        // 4S, 5S and 6S go onto A-2-3 of spades, card by card; AC is left.
        let knocker = set("AS 2S 3S 4H 5H 6H 7D 7C 7S 2C");
        let defender = set("8H 9H TH JC QC KC 4S 5S 6S AC");
        let profile = Preset::Eaai.profile();
        assert_eq!(knock_points(knocker, defender, &profile), -(25 + 1));
    }

    #[test]
    fn a_gin_wins_its_bonus_and_the_count_without_layoffs() {
        let knocker = set("AS 2S 3S 4H 5H 6H 7D 7C 7S 7H");
        let profile = Preset::Eaai.profile();
        assert_eq!(knock_points(knocker, set(SPREAD), &profile), 25 + 78);
    }

    #[test]
    fn an_opponent_who_can_knock_on_the_discard_takes_it_and_knocks() {
        // TH makes 8-9-10 of hearts; 3C goes and 2C is left: a knock on 2
        // against 57 points that lay nothing off.
        let mine = set("AS 3S 5S 7S 9S JS KS 2H 4H 6H");
        let theirs = set("8H 9H JC QC KC 4D 5D 6D 2C 3C");
        let stock = [card("QH"), card("QS"), card("KH")];
        let top = card("TH");
        let profile = Preset::Eaai.profile();
        assert_eq!(
            play_on(mine, theirs, &stock, top, QUICK, &profile),
            -(57 - 2)
        );
    }

    #[test]
    fn a_hand_that_reaches_the_stock_reserve_is_dead() {
        // Neither takes the other's discard nor reaches ten: the two cards
        // of the stock are its reserve, so the opponent may not draw.
        let mine = set("AS 3S 5S 7S 9S JS KS 2H 4H 6H");
        let theirs = set(SPREAD);
        let stock = [card("QH"), card("QS")];
        let top = card("2D");
        let profile = Preset::Eaai.profile();
        assert_eq!(play_on(mine, theirs, &stock, top, QUICK, &profile), 0);
    }
}
