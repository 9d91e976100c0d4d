//! Scoring whole matches: running totals hand by hand, the end of a game at the
//! target, box, game and shutout bonuses, settlement, and Hollywood's three games
//! at once (`docs/RULES.md`, "Scoring a game").
//!
//! # Input
//!
//! Two players ([`Players`]), named by the caller (distinct, not blank), and the
//! hands in the order played, at most [`MAX_MATCH_HANDS`] of them. A hand is
//! given as the counts after layoffs ([`CountHand`]), as the full cards
//! ([`CardHand`], scored by [`score_hand`](crate::score_hand) exactly as a single hand is), or as a
//! void hand. Count hands go through [`settle`](crate::settle), the same function that scores
//! card hands once they are laid down, so a card hand and the counts it produces
//! score the same match (a property test checks it).
//!
//! # Which counts a hand can produce
//!
//! A count hand is refused (with the hand's index) when no deal could produce it:
//!
//! - the knocker's count is at most the hand's knock limit (the profile's, or the
//!   upcard's under Oklahoma): anything more is `knock_over_limit`;
//! - big gin needs a profile that plays it and a knocker count of 0;
//! - the defender's count after layoffs is at most [`MAX_DEFENDER_COUNT`] = 98.
//!   Argument: a hand containing a meld counts at most its 7 other cards, 70. A
//!   meldless hand holds at most two cards of each rank (three would be a set), so
//!   at most 8 of the 16 ten-point cards, and its other cards are at most 9 each:
//!   8 x 10 + 2 x 9 = 98. It is reached, for example, by
//!   `TS JS TH JH QD KD QC KC 9D 9C` (no three in a row in any suit, no three of
//!   a rank), and those 10 cards leave the knocker every card from ace to 8, so
//!   any knocker count within the limit can face it. Layoffs only lower a count.
//!   (A defender who *declares* fewer melds than they hold can count up to 100
//!   in a card hand; the count form describes the defender's count with their
//!   melds laid down, so it stops at 98.) Under a profile with jokers the
//!   bound is [`max_defender_count`]: a hand holding `k` jokers has `10 - k`
//!   naturals of at most 10 each and `k` jokers of at most `joker_deadwood`
//!   each, so it counts at most `10 (10 - k) + k joker_deadwood` (an upper
//!   bound, not the exact maximum: melds only lower it); the bound is the
//!   largest of that and 98 over the jokers the deck holds.
//! - under a profile whose knock limit or multiplier depends on the first upcard,
//!   the hand must carry it (`upcard_required`).
//!
//! # A game
//!
//! Only the winner of a hand scores, so only the winner can reach the target; the
//! game ends on the hand that takes a player's running total to the target or
//! beyond, and any hand recorded after that is refused (`game_over`). Void hands
//! score nothing and win no box, but are listed.
//!
//! The running total is the sum of the hand points, plus the box bonuses already
//! credited when the profile credits boxes as each hand is won
//! ([`BoxBonusTiming::EachHand`](crate::BoxBonusTiming::EachHand): they count toward the target). When the game
//! ends, each player's line ([`Tally`]) is completed: a box bonus per hand won
//! (both players), the game bonus to the winner, and the shutout bonus. In a
//! [`Tally`] `hand_points` is always the plain sum of the hand points scored and
//! every bonus is shown separately, so `total` is always the sum of its parts and
//! doubling schools show the doubled part as `shutout_bonus`:
//!
//! | [`ShutoutRule`](crate::ShutoutRule) | `shutout_bonus` |
//! |---|---|
//! | `DoubleHandPointsAndGameBonus` (`[S0]`) | hand points + game bonus |
//! | `DoubleTotal` (`[S4]`) | hand points + box bonus + game bonus |
//! | `FlatBonus` (`[S2]`, `[S3]`) | the profile's `shutout_bonus` |
//! | `DoubleGameBonus` (Pagat) | game bonus |
//!
//! A game is a shutout when the loser's hand points are 0
//! ([`ShutoutTest::ScoredNothing`](crate::ShutoutTest::ScoredNothing)) or when the loser won no hand
//! ([`ShutoutTest::WonNoHand`](crate::ShutoutTest::WonNoHand)). "Scored nothing" looks at hand points only, so the
//! test does not depend on when boxes are credited.
//!
//! # Settlement
//!
//! `scores` is what each player takes from a finished game:
//!
//! - [`Settlement::TotalsAndNet`](crate::Settlement::TotalsAndNet): both totals (`[S0]`: Mom 310, Dad 112);
//! - [`Settlement::WinnerScoresDifference`](crate::Settlement::WinnerScoresDifference) (`[S3]`): the winner scores their
//!   total minus the loser's, the loser 0 (Mom 88, Dad 0). `final` still shows
//!   both totals (190 and 102) with their parts.
//!
//! `net` is the winner's score minus the loser's: 198 in `[S0]`, 88 in `[S3]`.
//! It is the same number under both settlements for one game; it can be negative
//! in the rare game where the loser's many small wins earn more box bonus than the
//! winner's total (the referee reports it rather than hiding it).
//!
//! # An unfinished game
//!
//! When the hands stop before the target is reached, `complete` is false, `winner`,
//! `scores` and `net` are absent, and `final` shows what is on the score sheet so
//! far: hand points, hands won, the boxes already credited under `EachHand` (none
//! under `EndOfGame`, since they are added only at the end), no game or shutout
//! bonus; its `total` is the running total.
//!
//! # Hollywood
//!
//! `docs/RULES.md`, "Hollywood": "A player's first winning hand counts in game 1
//! only, the second in games 1 and 2, and every later one in all three games, as
//! long as they are open." Each player *enters* the games one at a time: every hand
//! a player wins first enters that player into the lowest-numbered open game they
//! have not yet entered (if any), then scores in every open game they have
//! entered. Without closed games this is the rule word for word (first win: game
//! 1; second: games 1 and 2; third and later: all three). The rule is silent when
//! a player's first win comes after game 1 has closed (a closed game takes no more
//! points); as in the Hoyle tradition ("a player who is shut out in the first
//! column makes his first entry in the second"), that win enters and scores in the
//! next open game. The opponent's entries do not matter: entry is per player.
//!
//! Each game keeps its own running totals, hands won, boxes, game bonus and
//! shutout (tested per game), and closes at the target; a hand after all three
//! games closed is `game_over`. The match's `final` is the field-by-field sum of
//! the three games' (a hand that scored in three games counts three times in
//! `hand_points` and `hands_won`, as it earns three boxes), and its `scores` sum
//! the games' scores ("sum of games"); the match winner is the player ahead on
//! that sum (none on a tie, `net` 0). A hand's running `totals` sum the three
//! games' running totals; [`ScoredMatchHand::game_totals`] has them game by game.

use crate::card::Card;
use crate::profile::Profile;
use crate::score::{Breakdown, DefenderHand, HandError, KnockerHand, Outcome};

mod hand;
mod hollywood;
mod partnership;
mod players;
mod seated;
mod settlement;
mod tally;
#[cfg(test)]
mod tests;
mod three;
mod two;

pub use hand::{CountError, MAX_DEFENDER_COUNT, max_defender_count};
pub use partnership::{
    PartnershipDeal, PartnershipScore, PartnershipTally, ScoredDeal, Team, partnership_pairings,
};
pub use players::{Player, Players};
pub use seated::{ScoredSeatedHand, SeatedHand};
pub use three::{ThreeScore, ThreeTally};
// The three-player rotation, for the live match state (never written a second time).
pub(crate) use three::next_pair as three_next_pair;

pub use tally::Tally;
pub use two::MatchTally;

/// The most hands [`score_match`] takes. A real match has dozens (a game to 100
/// rarely needs more than ten hands); the cap bounds every total (see [`Tally`]).
pub const MAX_MATCH_HANDS: usize = 10_000;

/// One hand of a match, as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatchHand {
    /// The counts after layoffs.
    Counts(CountHand),
    /// The full hands, jokers among them under a profile with jokers, scored
    /// as [`score_hand`](crate::score_hand) scores a single hand.
    Cards(CardHand),
    /// No knock before the stock ran out: no points, no box.
    Void,
}

/// A hand given as the counts after layoffs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountHand {
    /// The knocking player's name.
    pub knocker: String,
    /// 0 is gin.
    pub knocker_deadwood: u32,
    /// The defender's count after layoffs.
    pub defender_deadwood: u32,
    /// All 11 cards melded (only under a profile with a big gin bonus).
    pub big_gin: bool,
    /// The first upcard: sets the knock limit and the multiplier when the profile
    /// depends on it.
    pub upcard: Option<Card>,
}

/// A hand given as the cards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardHand {
    /// The knocking player's name.
    pub knocker: String,
    /// The knocker's cards, and melds if declared.
    pub knocker_hand: KnockerHand,
    /// The defender's cards, and melds and layoffs if declared.
    pub defender_hand: DefenderHand,
    /// The first upcard, needed when the profile depends on it.
    pub upcard: Option<Card>,
}

/// What a hand came to, in every format and wherever a scored hand
/// appears. Players are indices into the match's players (for a
/// partnership: A1, A2, B1, B2 in the order the teams list them); a void
/// hand is the default: no knocker, winner, outcome, counts or breakdown,
/// and no points.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HandResult {
    /// The knocking player (`None` for a void hand).
    pub knocker: Option<usize>,
    /// The player who scored the hand (`None` for a void hand).
    pub winner: Option<usize>,
    /// How the hand ended (`None` for a void hand).
    pub outcome: Option<Outcome>,
    /// The hand's points (0 for a void hand).
    pub points: u32,
    /// The knocker's count (`None` for a void hand).
    pub knocker_deadwood: Option<u32>,
    /// The defender's count after layoffs (`None` for a void hand).
    pub defender_deadwood: Option<u32>,
    /// Where the points came from (`None` for a void hand).
    pub breakdown: Option<Breakdown>,
}

/// One hand of the match as scored. Players are indices into the match's players.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoredMatchHand {
    /// What the hand came to; its points are entered once in each game of
    /// `scored_in`.
    pub result: HandResult,
    /// The games (0-based) the points entered: `[0]` for a won hand of a single
    /// game; any subset of `0..3` in Hollywood; empty for a void hand.
    pub scored_in: Vec<usize>,
    /// Running totals after this hand (summed over the games in Hollywood).
    pub totals: [u64; 2],
    /// Running totals after this hand, game by game.
    pub game_totals: Vec<[u64; 2]>,
}

/// One game: its own totals, bonuses and end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameScore {
    /// A player reached the target.
    pub complete: bool,
    /// The player who reached the target (`None` until then).
    pub winner: Option<usize>,
    /// The index of the hand that reached the target.
    pub ended_at: Option<usize>,
    /// The loser was shut out (per the profile's test).
    pub shutout: bool,
    /// Each player's line on the score sheet.
    pub final_tally: [Tally; 2],
    /// What each player takes from the game under the profile's settlement
    /// (`None` until the game is complete).
    pub scores: Option<[i64; 2]>,
    /// The winner's score minus the loser's (`None` until complete).
    pub net: Option<i64>,
}

/// A whole match scored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchScore {
    /// The players' names; results refer to them by index.
    pub players: [String; 2],
    /// Each hand as scored, in the order given.
    pub hands: Vec<ScoredMatchHand>,
    /// One game, or three in Hollywood.
    pub games: Vec<GameScore>,
    /// Every game is complete.
    pub complete: bool,
    /// The game's winner; in Hollywood the player ahead on the summed scores
    /// (`None` on a tie or before the end).
    pub winner: Option<usize>,
    /// The sum of the games' tallies.
    pub final_tally: [Tally; 2],
    /// The sum of the games' scores (`None` until complete).
    pub scores: Option<[i64; 2]>,
    /// The winner's score minus the loser's (`None` until complete; 0 on a
    /// Hollywood tie).
    pub net: Option<i64>,
}

/// Why a match cannot be scored. Hand indices are 0-based positions in the list.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    /// More hands than [`MAX_MATCH_HANDS`].
    #[error("a match has at most {max} hands, not {found}")]
    TooManyHands {
        /// The number of hands given.
        found: usize,
        /// [`MAX_MATCH_HANDS`].
        max: usize,
    },
    /// A player's name is empty or only spaces.
    #[error("players[{index}] has a blank name")]
    BlankPlayerName {
        /// The player's position in the list.
        index: usize,
    },
    /// Both players have the same name.
    #[error("both players are named \"{name}\"; names must differ")]
    DuplicatePlayerName {
        /// The name.
        name: String,
    },
    /// A hand's knocker is not one of the players.
    #[error("hands[{hand}]: the knocker \"{name}\" is not one of the players")]
    UnknownPlayer {
        /// The hand's index.
        hand: usize,
        /// The name given.
        name: String,
    },
    /// A hand recorded after the game (every Hollywood game) ended.
    #[error(
        "hands[{hand}] was recorded after the {what} ended at hands[{ended_at}]",
        what = if *hollywood { "last of the three Hollywood games" } else { "game" }
    )]
    GameOver {
        /// The hand's index.
        hand: usize,
        /// The index of the hand that ended the (last) game.
        ended_at: usize,
        /// Whether the match is Hollywood (for the message).
        hollywood: bool,
    },
    /// A count hand no deal could produce.
    #[error("hands[{hand}]: {error}")]
    Count {
        /// The hand's index.
        hand: usize,
        /// Why.
        error: CountError,
    },
    /// A card hand that cannot be scored.
    #[error("hands[{hand}]: {error}")]
    Cards {
        /// The hand's index.
        hand: usize,
        /// Why.
        error: HandError,
    },
    /// A hand naming the same player as knocker and defender.
    #[error("hands[{hand}]: \"{name}\" cannot play against themselves")]
    SamePlayerTwice {
        /// The hand's index.
        hand: usize,
        /// The name.
        name: String,
    },
    /// A seated hand whose `knocker` is not the first of its two players.
    #[error("hands[{hand}]: the knocker must be the first of the hand's two players")]
    KnockerNotFirst {
        /// The hand's index.
        hand: usize,
    },
    /// Three players: a hand whose players break the rotation.
    #[error(
        "hands[{hand}]: the rotation gives this hand to {} and {} (the loser of a hand sits out, the winner meets the player who sat out; after a void hand the same two play again)",
        expected[0], expected[1]
    )]
    RotationBroken {
        /// The hand's index.
        hand: usize,
        /// The two players the rotation seats at this hand.
        expected: [String; 2],
    },
    /// Partnership: a deal whose tables break the alternation of opponents.
    #[error(
        "hands[{deal}]: this deal pairs {} with {} and {} with {} (partners alternate opponents deal by deal)",
        expected[0][0], expected[0][1], expected[1][0], expected[1][1]
    )]
    PairingBroken {
        /// The deal's index.
        deal: usize,
        /// The two pairings the deal must seat.
        expected: [[String; 2]; 2],
    },
    /// Hollywood scoring with more than two players.
    #[error(
        "Hollywood scoring is not defined for {format}: no source describes it; use a profile without hollywood"
    )]
    HollywoodNotDefined {
        /// The format: "three players" or "partnership".
        format: &'static str,
    },
    /// A team without a name.
    #[error("a team has a blank name")]
    BlankTeamName,
    /// Partnership: an error in one table of a deal.
    #[error("hands[{deal}].tables[{table}]: {error}")]
    AtTable {
        /// The deal's index.
        deal: usize,
        /// The table's index in the deal (0 or 1).
        table: usize,
        /// The error, its hand index being the deal's.
        error: Box<MatchError>,
    },
}

impl MatchError {
    /// The error placed at one table of a partnership deal.
    pub fn at_table(deal: usize, table: usize, error: MatchError) -> MatchError {
        MatchError::AtTable {
            deal,
            table,
            error: Box::new(error),
        }
    }

    /// The index of the hand at fault, if a hand is.
    pub const fn hand(&self) -> Option<usize> {
        match self {
            MatchError::UnknownPlayer { hand, .. }
            | MatchError::GameOver { hand, .. }
            | MatchError::Count { hand, .. }
            | MatchError::Cards { hand, .. }
            | MatchError::SamePlayerTwice { hand, .. }
            | MatchError::KnockerNotFirst { hand }
            | MatchError::RotationBroken { hand, .. } => Some(*hand),
            MatchError::PairingBroken { deal, .. } | MatchError::AtTable { deal, .. } => {
                Some(*deal)
            }
            MatchError::TooManyHands { .. }
            | MatchError::BlankPlayerName { .. }
            | MatchError::DuplicatePlayerName { .. }
            | MatchError::HollywoodNotDefined { .. }
            | MatchError::BlankTeamName => None,
        }
    }
}

/// A match format, named by who sits: two players ([`Players`]), three
/// players (`[String; 3]`) or two teams (`[Team; 2]`). The format gives the
/// shape of a hand it records and its tally; [`score_match`], the match audit
/// and the live match state are written once over it.
pub trait MatchFormat {
    /// A hand (a deal, in a partnership) as the format records it.
    type Hand;
    /// The format's score.
    type Score;
    /// The format's tally, fed one hand at a time.
    type Tally<'p>: FormatTally<Hand = Self::Hand, Score = Self::Score>;
    /// An empty tally of a match between these seats under `profile`, or why
    /// they cannot play it (a blank or repeated name, Hollywood where it is
    /// not defined).
    fn tally<'p>(&self, profile: &'p Profile) -> Result<Self::Tally<'p>, MatchError>;
}

/// A format's tally as the scorer and the match audit drive it: whether the
/// next hand would be taken, the hand recorded, the score.
pub trait FormatTally {
    /// A hand (a deal, in a partnership) as the format records it.
    type Hand;
    /// The format's score.
    type Score;
    /// Room for `more` hands to come (the whole-match scorer knows how many).
    fn reserve(&mut self, more: usize);
    /// Whether the next hand would be recorded; nothing changes.
    fn admits(&self, hand: &Self::Hand) -> Result<(), MatchError>;
    /// Records the next hand (nothing changes when it is refused).
    fn record(&mut self, hand: &Self::Hand) -> Result<(), MatchError>;
    /// The score of the hands recorded.
    fn into_score(self) -> Self::Score;
}

/// Scores a match hand by hand, in any format (see the module docs for every
/// rule applied): the seats name the format.
///
/// ```
/// use gin_rules::{score_match, CountHand, MatchHand, Players, Preset};
/// let knock = |knocker: &str, knocker_deadwood, defender_deadwood| {
///     MatchHand::Counts(CountHand {
///         knocker: knocker.into(),
///         knocker_deadwood,
///         defender_deadwood,
///         big_gin: false,
///         upcard: None,
///     })
/// };
/// // [S0]: Mom 310, Dad 112, net 198.
/// let hands = [
///     knock("Mom", 5, 15), knock("Mom", 0, 6), knock("Mom", 4, 2),
///     knock("Mom", 10, 43), knock("Dad", 0, 10), knock("Mom", 0, 11),
/// ];
/// let players = Players::new("Mom".to_string(), "Dad".to_string());
/// let score = score_match(&Preset::Standard.profile(), &players, &hands).unwrap();
/// assert_eq!(score.final_tally.map(|t| t.total), [310, 112]);
/// assert_eq!((score.winner, score.net), (Some(0), Some(198)));
/// ```
pub fn score_match<F: MatchFormat + ?Sized>(
    profile: &Profile,
    seats: &F,
    hands: &[F::Hand],
) -> Result<F::Score, MatchError> {
    tally::within_max_hands(hands.len())?;
    let mut tally = seats.tally(profile)?;
    tally.reserve(hands.len());
    for hand in hands {
        tally.record(hand)?;
    }
    Ok(tally.into_score())
}
