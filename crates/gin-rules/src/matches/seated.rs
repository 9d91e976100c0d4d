//! A hand between two of several players: the formats with more players than
//! seats at a table (three players, partnerships) record who sat at each hand.

use super::hand::{Won, play};
use super::{HandResult, MatchError, MatchHand, Players};
use crate::profile::Profile;

/// One hand of a match with more than two players: the two players at the
/// table and the hand itself.
///
/// For a hand with a knocker, `players` is `[knocker, defender]` and the hand's
/// own `knocker` must be the first; a void hand names its two players in any
/// order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatedHand {
    /// The two players at the table.
    pub players: [String; 2],
    /// The hand: counts, cards, or void.
    pub hand: MatchHand,
}

/// A seated hand as scored; players are indices into the match's list of
/// players (for a partnership: A1, A2, B1, B2 in the order the teams list
/// them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoredSeatedHand {
    /// The two players at the table, as recorded.
    pub players: [usize; 2],
    /// What the hand came to.
    pub result: HandResult,
}

impl ScoredSeatedHand {
    /// The loser of a won hand: the other player at the table.
    pub fn loser(&self) -> Option<usize> {
        let winner = self.result.winner?;
        self.players.iter().copied().find(|&p| p != winner)
    }
}

/// Finds each name of `names` among `all`; `index` names the hand for errors.
pub(super) fn seat(
    all: &[String],
    names: &[String; 2],
    index: usize,
) -> Result<[usize; 2], MatchError> {
    let find = |name: &String| {
        all.iter()
            .position(|n| n == name)
            .ok_or_else(|| MatchError::UnknownPlayer {
                hand: index,
                name: name.clone(),
            })
    };
    let seats = [find(&names[0])?, find(&names[1])?];
    if seats[0] == seats[1] {
        return Err(MatchError::SamePlayerTwice {
            hand: index,
            name: names[0].clone(),
        });
    }
    Ok(seats)
}

/// Scores a seated hand as an ordinary two-player hand.
pub(super) fn play_seated(
    profile: &Profile,
    all: &[String],
    hand: &SeatedHand,
    index: usize,
) -> Result<ScoredSeatedHand, MatchError> {
    let seats = seat(all, &hand.players, index)?;
    let [first, second] = hand.players.clone();
    let table = Players::new(first, second);
    let won: Option<Won> = play(profile, &table, index, &hand.hand)?;
    let Some(won) = won else {
        return Ok(ScoredSeatedHand {
            players: seats,
            result: HandResult::default(),
        });
    };
    if won.knocker.index() != 0 {
        // The table is [knocker, defender]: the hand's knocker must come first.
        return Err(MatchError::KnockerNotFirst { hand: index });
    }
    let [first_seat, second_seat] = seats;
    let at = |player: super::Player| match player {
        super::Player::First => first_seat,
        super::Player::Second => second_seat,
    };
    Ok(ScoredSeatedHand {
        players: seats,
        result: won.result(at),
    })
}

/// Names must tell the players apart: not blank, not equal.
pub(super) fn validate_names(names: &[String]) -> Result<(), MatchError> {
    for (index, name) in names.iter().enumerate() {
        if name.trim().is_empty() {
            return Err(MatchError::BlankPlayerName { index });
        }
        if names.iter().take(index).any(|earlier| earlier == name) {
            return Err(MatchError::DuplicatePlayerName { name: name.clone() });
        }
    }
    Ok(())
}

/// The flat shutout bonus of the formats with more than two players: the
/// profile's `shutout_bonus` under a flat-bonus rule, otherwise 100.
pub(super) fn flat_shutout_bonus(profile: &Profile) -> u64 {
    match profile.shutout() {
        crate::profile::ShutoutRule::FlatBonus => u64::from(profile.shutout_bonus()),
        _ => 100,
    }
}
