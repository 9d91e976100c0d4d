//! The knock below gin: knock now when, over the dealt worlds, knocking
//! wins more points than playing on (see the parent's docs).

use super::super::SeatView;
use super::deals::HiddenDeal;
use super::gate::Worth;
use super::rollout::{KnockAt, knock_points, play_on};
use crate::audit::{LegalKind, Move};
use crate::card::{Card, CardSet};
use crate::profile::Profile;

/// The listed knock to play now, if any: the knock of least count when its
/// worth (points, or in a match the chance of winning it: [`Worth`]),
/// summed over `deals`, exceeds that of discarding the same card and
/// playing the hand out (module `rollout`), the seat's own play-out
/// knocking for gin only and the opponent's at its first chance.
///
/// The play-out compares plans: knocking now against building on for gin,
/// while the opponent may knock first or take the discard. Were the seat's
/// own play-out to knock at its first chance too, playing on would mostly
/// mean knocking a turn later, and the knock would be taken whenever it
/// wins at all. Hands with a joker knock for gin only: the dealt worlds
/// hold natural cards.
pub(super) fn choose(view: &SeatView, deals: &[HiddenDeal], worth: Worth) -> Option<usize> {
    if deals.is_empty() {
        return None;
    }
    let (index, discard) = view
        .legal_actions()
        .iter()
        .enumerate()
        .filter(|(_, action)| action.kind == LegalKind::Knock)
        .filter_map(|(index, action)| match action.action.play {
            Move::Knock {
                discard: Some(card),
                ..
            } => Some((index, action.deadwood?, card)),
            _ => None,
        })
        .min_by_key(|&(_, count, _)| count)
        .map(|(index, _, card)| (index, card))?;
    let discard = discard.natural()?;
    let ten = view
        .hand()
        .joker_free()?
        .difference(CardSet::single(discard));
    let profile = view.profile();
    let limit = profile.knock_limit_for(view.upcard().natural()).ok()?;
    beats_playing_on(ten, discard, deals, limit, profile, worth).then_some(index)
}

/// Whether knocking with `ten` (having discarded `discard`) is worth more
/// over `deals` than playing on (see [`choose`]).
fn beats_playing_on(
    ten: CardSet,
    discard: Card,
    deals: &[HiddenDeal],
    limit: u32,
    profile: &Profile,
    worth: Worth,
) -> bool {
    let knock_at = KnockAt::building_for_gin(limit);
    let (mut knock, mut on) = (0.0, 0.0);
    for deal in deals {
        knock += worth.of(knock_points(ten, deal.opponent, profile));
        on += worth.of(play_on(
            ten,
            deal.opponent,
            &deal.stock,
            discard,
            knock_at,
            profile,
        ));
    }
    knock > on
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::cards;
    use crate::profile::Preset;

    fn deal(opponent: &str, stock: &str) -> HiddenDeal {
        HiddenDeal {
            opponent: cards(opponent).unwrap(),
            stock: cards(stock).unwrap().iter().collect(),
        }
    }

    /// A knock on 2 (2C left) that lays nothing off for the deals below.
    const KNOCKER: &str = "AS 2S 3S 4H 5H 6H 7D 7C 7S 2C";

    #[test]
    fn a_knock_that_wins_big_against_a_hand_far_from_knocking_is_taken() {
        // The opponent holds 78 points and no meld: the knock wins 76 now,
        // and played on the opponent's hand only gets better.
        let deals = [deal("KD QC JH TD 9C 8H 5C 4D 3C 9D", "KS QS JS TS 9S 8S")];
        let profile = Preset::Eaai.profile();
        let discard = "8D".parse().unwrap();
        assert!(beats_playing_on(
            cards(KNOCKER).unwrap(),
            discard,
            &deals,
            10,
            &profile,
            Worth::Points
        ));
    }

    #[test]
    fn a_knock_the_opponent_undercuts_is_not_taken() {
        // The opponent holds 4-5-6 of spades, 8-9-10 of hearts and J-Q-K
        // of clubs with AC: the knock on 2 is undercut (25 and 1). Played
        // on, it draws and knocks on 1 at once, which costs 1.
        let deals = [deal("8H 9H TH JC QC KC 4S 5S 6S AC", "KS QS JS TS")];
        let profile = Preset::Eaai.profile();
        let discard = "8D".parse().unwrap();
        assert!(!beats_playing_on(
            cards(KNOCKER).unwrap(),
            discard,
            &deals,
            10,
            &profile,
            Worth::Points
        ));
    }
}
