//! Scoring whole matches: running totals hand by hand, the end of a game at the
//! target, box, game and shutout bonuses, settlement, and Hollywood's three games
//! at once (`RULES.md`, "Scoring a game").
//!
//! # Input
//!
//! Two players, named by the caller (distinct, not blank), and the hands in the
//! order played. A hand is given as the counts after layoffs ([`CountHand`]), as
//! the full cards ([`CardHand`], scored by [`score_hand`] exactly as a single hand
//! is), or as a void hand. Count hands go through [`settle`], the same function
//! that scores card hands once they are laid down, so a card hand and the counts it
//! produces score the same match (a property test checks it).
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
//!   melds laid down, so it stops at 98.)
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
//! ([`BoxBonusTiming::EachHand`]: they count toward the target). When the game
//! ends, each player's line ([`Tally`]) is completed: a box bonus per hand won
//! (both players), the game bonus to the winner, and the shutout bonus. In a
//! [`Tally`] `hand_points` is always the plain sum of the hand points scored and
//! every bonus is shown separately, so `total` is always the sum of its parts and
//! doubling schools show the doubled part as `shutout_bonus`:
//!
//! | [`ShutoutRule`] | `shutout_bonus` |
//! |---|---|
//! | `DoubleHandPointsAndGameBonus` (seed 000) | hand points + game bonus |
//! | `DoubleTotal` (seed 004) | hand points + box bonus + game bonus |
//! | `FlatBonus` (seeds 002, 003) | the profile's `shutout_bonus` |
//! | `DoubleGameBonus` (Pagat) | game bonus |
//!
//! A game is a shutout when the loser's hand points are 0
//! ([`ShutoutTest::ScoredNothing`]) or when the loser won no hand
//! ([`ShutoutTest::WonNoHand`]). "Scored nothing" looks at hand points only, so the
//! test does not depend on when boxes are credited.
//!
//! # Settlement
//!
//! `scores` is what each player takes from a finished game:
//!
//! - [`Settlement::TotalsAndNet`]: both totals (seed 000: Mom 310, Dad 112);
//! - [`Settlement::WinnerScoresDifference`] (seed 003): the winner scores their
//!   total minus the loser's, the loser 0 (Mom 88, Dad 0). `final` still shows
//!   both totals (190 and 102) with their parts.
//!
//! `net` is the winner's score minus the loser's: 198 in seed 000, 88 in seed 003.
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
//! `RULES.md`: "A player's first hand win scores in game 1, the second in games 1
//! and 2, the third and later in all open games; each game closes at the target
//! with its own bonuses." Each player *enters* the games one at a time: every hand
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

use super::card::Card;
use super::profile::{BoxBonusTiming, Profile, ProfileError, Settlement, ShutoutRule, ShutoutTest};
use super::score::{
    Breakdown, DefenderHand, HandError, KnockerHand, Outcome, Side, score_hand, settle,
};

/// The largest count a defender can hold after layoffs (argued in the module docs).
pub const MAX_DEFENDER_COUNT: u32 = 98;

/// One hand of a match, as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatchHand {
    /// The counts after layoffs.
    Counts(CountHand),
    /// The full hands, scored as a single hand is.
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
    pub knocker_hand: KnockerHand,
    pub defender_hand: DefenderHand,
    pub upcard: Option<Card>,
}

/// One player's line on the score sheet of a game (or the sum over Hollywood's
/// games). Invariant: `total` is the sum of the other point fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tally {
    /// The plain sum of the hand points scored (never doubled here).
    pub hand_points: u64,
    pub hands_won: u64,
    pub box_bonus: u64,
    pub game_bonus: u64,
    pub shutout_bonus: u64,
    pub total: u64,
}

impl Tally {
    fn add(self, other: Tally) -> Tally {
        Tally {
            hand_points: self.hand_points + other.hand_points,
            hands_won: self.hands_won + other.hands_won,
            box_bonus: self.box_bonus + other.box_bonus,
            game_bonus: self.game_bonus + other.game_bonus,
            shutout_bonus: self.shutout_bonus + other.shutout_bonus,
            total: self.total + other.total,
        }
    }
}

/// One hand of the match as scored. Players are indices into the match's players.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoredMatchHand {
    /// `None` for a void hand.
    pub knocker: Option<usize>,
    /// `None` for a void hand.
    pub winner: Option<usize>,
    /// `None` for a void hand.
    pub outcome: Option<Outcome>,
    /// The hand's points (0 for a void hand), entered once in each game of
    /// `scored_in`.
    pub points: u32,
    /// The counts after layoffs (`None` for a void hand).
    pub knocker_deadwood: Option<u32>,
    pub defender_deadwood: Option<u32>,
    pub breakdown: Option<Breakdown>,
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
    pub winner: Option<usize>,
    /// The index of the hand that reached the target.
    pub ended_at: Option<usize>,
    /// The loser was shut out (per the profile's test).
    pub shutout: bool,
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
    pub players: [String; 2],
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

/// Why a count hand cannot have happened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CountError {
    #[error(transparent)]
    Profile(#[from] ProfileError),
    #[error("the knocker's count is {deadwood}, over the knock limit of {limit}")]
    KnockOverLimit { deadwood: u32, limit: u32 },
    #[error("big gin is not played under this profile (set big_gin_bonus to play it)")]
    BigGinNotPlayed,
    #[error("a big gin melds all 11 cards, so the knocker's count must be 0, not {deadwood}")]
    BigGinWithDeadwood { deadwood: u32 },
    #[error("no hand counts {deadwood} after layoffs: a defender's 10 cards count at most {max}")]
    ImpossibleDefenderCount { deadwood: u32, max: u32 },
}

impl CountError {
    /// Stable machine-readable code.
    pub const fn code(&self) -> &'static str {
        match self {
            CountError::Profile(e) => e.code(),
            CountError::KnockOverLimit { .. } => "knock_over_limit",
            CountError::BigGinNotPlayed => "big_gin_not_allowed",
            CountError::BigGinWithDeadwood { .. } => "big_gin_with_deadwood",
            CountError::ImpossibleDefenderCount { .. } => "impossible_count",
        }
    }

    /// The [`CountHand`] field at fault.
    pub const fn field(&self) -> &'static str {
        match self {
            CountError::Profile(_) => "upcard",
            CountError::KnockOverLimit { .. } | CountError::BigGinWithDeadwood { .. } => {
                "knocker_deadwood"
            }
            CountError::BigGinNotPlayed => "big_gin",
            CountError::ImpossibleDefenderCount { .. } => "defender_deadwood",
        }
    }
}

/// Why a match cannot be scored. Hand indices are 0-based positions in the list.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    #[error("a match has exactly 2 players, not {found}")]
    PlayerCount { found: usize },
    #[error("players[{index}] has a blank name")]
    BlankPlayerName { index: usize },
    #[error("both players are named \"{name}\"; names must differ")]
    DuplicatePlayerName { name: String },
    #[error("hands[{hand}]: the knocker \"{name}\" is not one of the players")]
    UnknownPlayer { hand: usize, name: String },
    #[error(
        "hands[{hand}] was recorded after the {what} ended at hands[{ended_at}]",
        what = if *hollywood { "last of the three Hollywood games" } else { "game" }
    )]
    GameOver {
        hand: usize,
        ended_at: usize,
        hollywood: bool,
    },
    #[error("hands[{hand}]: {error}")]
    Count { hand: usize, error: CountError },
    #[error("hands[{hand}]: {error}")]
    Cards { hand: usize, error: HandError },
}

impl MatchError {
    /// Stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            MatchError::PlayerCount { .. } => "wrong_player_count",
            MatchError::BlankPlayerName { .. } => "blank_player_name",
            MatchError::DuplicatePlayerName { .. } => "duplicate_player_name",
            MatchError::UnknownPlayer { .. } => "unknown_player",
            MatchError::GameOver { .. } => "game_over",
            MatchError::Count { error, .. } => error.code(),
            MatchError::Cards { error, .. } => error.code(),
        }
    }

    /// The index of the hand at fault, if a hand is.
    pub const fn hand(&self) -> Option<usize> {
        match self {
            MatchError::UnknownPlayer { hand, .. }
            | MatchError::GameOver { hand, .. }
            | MatchError::Count { hand, .. }
            | MatchError::Cards { hand, .. } => Some(*hand),
            MatchError::PlayerCount { .. }
            | MatchError::BlankPlayerName { .. }
            | MatchError::DuplicatePlayerName { .. } => None,
        }
    }
}

/// A hand that was won: by whom, how, and for how much.
struct Won {
    knocker: usize,
    winner: usize,
    knocker_deadwood: u32,
    defender_deadwood: u32,
    outcome: Outcome,
    points: u32,
    breakdown: Breakdown,
}

/// Checks a count hand against what a deal can produce, then settles it.
fn settle_counts(profile: &Profile, hand: &CountHand) -> Result<super::HandSettlement, CountError> {
    let limit = profile.knock_limit_for(hand.upcard)?;
    let multiplier = profile.multiplier_for(hand.upcard)?;
    if hand.big_gin {
        if profile.big_gin_bonus.is_none() {
            return Err(CountError::BigGinNotPlayed);
        }
        if hand.knocker_deadwood != 0 {
            return Err(CountError::BigGinWithDeadwood {
                deadwood: hand.knocker_deadwood,
            });
        }
    }
    if hand.knocker_deadwood > limit {
        return Err(CountError::KnockOverLimit {
            deadwood: hand.knocker_deadwood,
            limit,
        });
    }
    if hand.defender_deadwood > MAX_DEFENDER_COUNT {
        return Err(CountError::ImpossibleDefenderCount {
            deadwood: hand.defender_deadwood,
            max: MAX_DEFENDER_COUNT,
        });
    }
    Ok(settle(
        profile,
        multiplier,
        hand.knocker_deadwood,
        hand.defender_deadwood,
        hand.big_gin,
    ))
}

fn validate_players(players: &[String]) -> Result<[String; 2], MatchError> {
    let [first, second] = players else {
        return Err(MatchError::PlayerCount {
            found: players.len(),
        });
    };
    for (index, name) in players.iter().enumerate() {
        if name.trim().is_empty() {
            return Err(MatchError::BlankPlayerName { index });
        }
    }
    if first == second {
        return Err(MatchError::DuplicatePlayerName {
            name: first.clone(),
        });
    }
    Ok([first.clone(), second.clone()])
}

/// Scores one hand: `None` for a void hand.
fn play(
    profile: &Profile,
    players: &[String; 2],
    index: usize,
    hand: &MatchHand,
) -> Result<Option<Won>, MatchError> {
    let player = |name: &String| {
        players
            .iter()
            .position(|p| p == name)
            .ok_or_else(|| MatchError::UnknownPlayer {
                hand: index,
                name: name.clone(),
            })
    };
    let (knocker, settlement, knocker_deadwood, defender_deadwood) = match hand {
        MatchHand::Void => return Ok(None),
        MatchHand::Counts(counts) => {
            let knocker = player(&counts.knocker)?;
            let settlement = settle_counts(profile, counts)
                .map_err(|error| MatchError::Count { hand: index, error })?;
            (
                knocker,
                settlement,
                counts.knocker_deadwood,
                counts.defender_deadwood,
            )
        }
        MatchHand::Cards(cards) => {
            let knocker = player(&cards.knocker)?;
            let score = score_hand(
                profile,
                cards.upcard,
                &cards.knocker_hand,
                &cards.defender_hand,
            )
            .map_err(|error| MatchError::Cards { hand: index, error })?;
            (
                knocker,
                score.settlement,
                score.showdown.knocker.deadwood,
                score.showdown.defender.deadwood,
            )
        }
    };
    let winner = match settlement.winner {
        Side::Knocker => knocker,
        Side::Defender => 1 - knocker,
    };
    Ok(Some(Won {
        knocker,
        winner,
        knocker_deadwood,
        defender_deadwood,
        outcome: settlement.outcome,
        points: settlement.points,
        breakdown: settlement.breakdown,
    }))
}

/// A game in progress.
#[derive(Debug, Clone, Copy, Default)]
struct OpenGame {
    /// Hand points plus the boxes credited so far (under `EachHand`).
    running: [u64; 2],
    hand_points: [u64; 2],
    hands_won: [u64; 2],
    /// The winner and the hand that reached the target.
    ended: Option<(usize, usize)>,
}

impl OpenGame {
    fn credit(&mut self, profile: &Profile, player: usize, points: u32, hand: usize) {
        let boxed = match profile.box_bonus_timing {
            BoxBonusTiming::EachHand => u64::from(profile.box_bonus),
            BoxBonusTiming::EndOfGame => 0,
        };
        self.hand_points[player] += u64::from(points);
        self.hands_won[player] += 1;
        self.running[player] += u64::from(points) + boxed;
        if self.running[player] >= u64::from(profile.target) {
            self.ended = Some((player, hand));
        }
    }

    fn finish(&self, profile: &Profile) -> GameScore {
        let box_bonus = u64::from(profile.box_bonus);
        let Some((winner, ended_at)) = self.ended else {
            let credited = match profile.box_bonus_timing {
                BoxBonusTiming::EachHand => box_bonus,
                BoxBonusTiming::EndOfGame => 0,
            };
            let tally = |p: usize| Tally {
                hand_points: self.hand_points[p],
                hands_won: self.hands_won[p],
                box_bonus: self.hands_won[p] * credited,
                total: self.running[p],
                ..Tally::default()
            };
            return GameScore {
                complete: false,
                winner: None,
                ended_at: None,
                shutout: false,
                final_tally: [tally(0), tally(1)],
                scores: None,
                net: None,
            };
        };
        let loser = 1 - winner;
        let shutout = match profile.shutout_test {
            ShutoutTest::ScoredNothing => self.hand_points[loser] == 0,
            ShutoutTest::WonNoHand => self.hands_won[loser] == 0,
        };
        let mut final_tally = [0, 1].map(|p| Tally {
            hand_points: self.hand_points[p],
            hands_won: self.hands_won[p],
            box_bonus: self.hands_won[p] * box_bonus,
            game_bonus: if p == winner {
                u64::from(profile.game_bonus)
            } else {
                0
            },
            ..Tally::default()
        });
        let w = &mut final_tally[winner];
        if shutout {
            w.shutout_bonus = match profile.shutout {
                ShutoutRule::DoubleHandPointsAndGameBonus => w.hand_points + w.game_bonus,
                ShutoutRule::DoubleTotal => w.hand_points + w.box_bonus + w.game_bonus,
                ShutoutRule::FlatBonus => u64::from(profile.shutout_bonus),
                ShutoutRule::DoubleGameBonus => w.game_bonus,
            };
        }
        for t in &mut final_tally {
            t.total = t.hand_points + t.box_bonus + t.game_bonus + t.shutout_bonus;
        }
        let totals = final_tally.map(|t| signed(t.total));
        let scores = match profile.settlement {
            Settlement::TotalsAndNet => totals,
            Settlement::WinnerScoresDifference => {
                let mut scores = [0; 2];
                scores[winner] = totals[winner] - totals[loser];
                scores
            }
        };
        GameScore {
            complete: true,
            winner: Some(winner),
            ended_at: Some(ended_at),
            shutout,
            final_tally,
            scores: Some(scores),
            net: Some(scores[winner] - scores[loser]),
        }
    }
}

/// Totals stay far below `i64::MAX`: every parameter is capped at
/// [`super::MAX_POINTS_PARAMETER`] and a hand scores at most a few thousand times
/// that; saturate rather than wrap all the same.
fn signed(points: u64) -> i64 {
    i64::try_from(points).unwrap_or(i64::MAX)
}

/// Scores a match hand by hand (see the module docs for every rule applied).
///
/// ```
/// use gin_rules::{score_match, CountHand, MatchHand, Preset};
/// let knock = |knocker: &str, knocker_deadwood, defender_deadwood| {
///     MatchHand::Counts(CountHand {
///         knocker: knocker.into(),
///         knocker_deadwood,
///         defender_deadwood,
///         big_gin: false,
///         upcard: None,
///     })
/// };
/// // Seed 000: Mom 310, Dad 112, net 198.
/// let hands = [
///     knock("Mom", 5, 15), knock("Mom", 0, 6), knock("Mom", 4, 2),
///     knock("Mom", 10, 43), knock("Dad", 0, 10), knock("Mom", 0, 11),
/// ];
/// let players = ["Mom".to_string(), "Dad".to_string()];
/// let score = score_match(&Preset::Standard.profile(), &players, &hands).unwrap();
/// assert_eq!(score.final_tally.map(|t| t.total), [310, 112]);
/// assert_eq!((score.winner, score.net), (Some(0), Some(198)));
/// ```
pub fn score_match(
    profile: &Profile,
    players: &[String],
    hands: &[MatchHand],
) -> Result<MatchScore, MatchError> {
    let players = validate_players(players)?;
    let game_count = profile.games();
    let mut games = vec![OpenGame::default(); game_count];
    // Per player, which games they have entered (Hollywood; one game: game 0).
    let mut entered = [[false; 3]; 2];
    let mut scored = Vec::with_capacity(hands.len());

    for (index, hand) in hands.iter().enumerate() {
        if let Some(ended_at) = games
            .iter()
            .map(|g| g.ended.map(|(_, at)| at))
            .collect::<Option<Vec<_>>>()
            .and_then(|ends| ends.into_iter().max())
        {
            return Err(MatchError::GameOver {
                hand: index,
                ended_at,
                hollywood: game_count > 1,
            });
        }
        let won = play(profile, &players, index, hand)?;
        let mut scored_in = Vec::new();
        if let Some(won) = &won {
            let open = |g: &OpenGame| g.ended.is_none();
            let player = won.winner;
            if let Some(next) = (0..game_count).find(|&g| open(&games[g]) && !entered[player][g]) {
                entered[player][next] = true;
            }
            for g in 0..game_count {
                if open(&games[g]) && entered[player][g] {
                    games[g].credit(profile, player, won.points, index);
                    scored_in.push(g);
                }
            }
        }
        let game_totals: Vec<[u64; 2]> = games.iter().map(|g| g.running).collect();
        let totals = game_totals
            .iter()
            .fold([0, 0], |acc, t| [acc[0] + t[0], acc[1] + t[1]]);
        scored.push(ScoredMatchHand {
            knocker: won.as_ref().map(|w| w.knocker),
            winner: won.as_ref().map(|w| w.winner),
            outcome: won.as_ref().map(|w| w.outcome),
            points: won.as_ref().map_or(0, |w| w.points),
            knocker_deadwood: won.as_ref().map(|w| w.knocker_deadwood),
            defender_deadwood: won.as_ref().map(|w| w.defender_deadwood),
            breakdown: won.as_ref().map(|w| w.breakdown),
            scored_in,
            totals,
            game_totals,
        });
    }

    let games: Vec<GameScore> = games.iter().map(|g| g.finish(profile)).collect();
    let complete = games.iter().all(|g| g.complete);
    let final_tally = games.iter().fold([Tally::default(); 2], |acc, g| {
        [acc[0].add(g.final_tally[0]), acc[1].add(g.final_tally[1])]
    });
    let (winner, scores, net) = match games.as_slice() {
        [single] => (single.winner, single.scores, single.net),
        _ if complete => {
            let scores = games.iter().fold([0i64; 2], |acc, g| {
                let s = g.scores.unwrap_or_default();
                [acc[0] + s[0], acc[1] + s[1]]
            });
            let winner = match scores[0].cmp(&scores[1]) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal => None,
            };
            (winner, Some(scores), Some((scores[0] - scores[1]).abs()))
        }
        _ => (None, None, None),
    };
    Ok(MatchScore {
        players,
        hands: scored,
        games,
        complete,
        winner,
        final_tally,
        scores,
        net,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::cards;
    use crate::profile::{Preset, ProfileOverrides};

    fn players() -> Vec<String> {
        vec!["Mom".into(), "Dad".into()]
    }

    fn knock(knocker: &str, knocker_deadwood: u32, defender_deadwood: u32) -> MatchHand {
        MatchHand::Counts(CountHand {
            knocker: knocker.into(),
            knocker_deadwood,
            defender_deadwood,
            big_gin: false,
            upcard: None,
        })
    }

    fn with_upcard(hand: MatchHand, upcard: &str) -> MatchHand {
        match hand {
            MatchHand::Counts(c) => MatchHand::Counts(CountHand {
                upcard: Some(upcard.parse().unwrap()),
                ..c
            }),
            other => other,
        }
    }

    fn profile(json: &str) -> Profile {
        serde_json::from_str::<ProfileOverrides>(json)
            .unwrap()
            .resolve()
            .unwrap()
    }

    /// Seed 000's six hands, as counts after layoffs.
    fn seed_000_hands() -> Vec<MatchHand> {
        vec![
            knock("Mom", 5, 15),
            knock("Mom", 0, 6),
            knock("Mom", 4, 2),
            knock("Mom", 10, 43),
            knock("Dad", 0, 10),
            knock("Mom", 0, 11),
        ]
    }

    fn score(profile: &Profile, hands: &[MatchHand]) -> MatchScore {
        score_match(profile, &players(), hands).unwrap()
    }

    fn error(profile: &Profile, hands: &[MatchHand]) -> MatchError {
        score_match(profile, &players(), hands).unwrap_err()
    }

    fn tally(
        hand_points: u64,
        hands_won: u64,
        box_bonus: u64,
        game_bonus: u64,
        shutout_bonus: u64,
    ) -> Tally {
        Tally {
            hand_points,
            hands_won,
            box_bonus,
            game_bonus,
            shutout_bonus,
            total: hand_points + box_bonus + game_bonus + shutout_bonus,
        }
    }

    #[test]
    fn seed_000_walkthrough_mom_310_dad_112_net_198() {
        let s = score(&Preset::Standard.profile(), &seed_000_hands());
        let points: Vec<u32> = s.hands.iter().map(|h| h.points).collect();
        assert_eq!(points, [10, 31, 27, 33, 35, 36]);
        let winners: Vec<Option<usize>> = s.hands.iter().map(|h| h.winner).collect();
        assert_eq!(
            winners,
            [Some(0), Some(0), Some(1), Some(0), Some(1), Some(0)]
        );
        assert_eq!(s.hands[2].outcome, Some(Outcome::Undercut));
        let totals: Vec<[u64; 2]> = s.hands.iter().map(|h| h.totals).collect();
        assert_eq!(
            totals,
            [[10, 0], [41, 0], [41, 27], [74, 27], [74, 62], [110, 62]]
        );
        assert!(s.complete);
        assert_eq!(s.winner, Some(0));
        assert_eq!(
            s.final_tally,
            [tally(110, 4, 100, 100, 0), tally(62, 2, 50, 0, 0)]
        );
        assert_eq!(s.final_tally.map(|t| t.total), [310, 112]);
        assert_eq!((s.scores, s.net), (Some([310, 112]), Some(198)));
        assert!(!s.games[0].shutout);
        assert_eq!(s.games[0].ended_at, Some(5));
    }

    #[test]
    fn seed_003_schneider_mom_190_dad_102_and_mom_scores_the_difference_88() {
        let s = score(&Preset::Schneider.profile(), &seed_000_hands());
        assert_eq!(
            s.final_tally,
            [tally(110, 4, 80, 0, 0), tally(62, 2, 40, 0, 0)]
        );
        assert_eq!(s.final_tally.map(|t| t.total), [190, 102]);
        assert_eq!(
            (s.winner, s.scores, s.net),
            (Some(0), Some([88, 0]), Some(88))
        );
    }

    /// Mom gins twice (75, then 55 under 25-point gins) and Dad never scores.
    fn shutout_hands() -> Vec<MatchHand> {
        vec![knock("Mom", 0, 50), knock("Mom", 0, 30)]
    }

    #[test]
    fn shutout_seed_000_doubles_hand_points_and_game_bonus_but_not_boxes() {
        for test in ["scored_nothing", "won_no_hand"] {
            let p = profile(&format!(r#"{{"shutout_test": "{test}"}}"#));
            let s = score(&p, &shutout_hands());
            assert!(s.games[0].shutout);
            assert_eq!(s.final_tally[0], tally(130, 2, 50, 100, 230));
            assert_eq!(s.final_tally[0].total, 2 * 130 + 50 + 2 * 100);
            assert_eq!(s.final_tally[1], Tally::default());
            assert_eq!(s.net, Some(510));
        }
    }

    #[test]
    fn shutout_seed_004_doubles_the_whole_score() {
        for test in ["scored_nothing", "won_no_hand"] {
            let p = profile(&format!(
                r#"{{"shutout": "double_total", "shutout_test": "{test}"}}"#
            ));
            let s = score(&p, &shutout_hands());
            assert_eq!(s.final_tally[0], tally(130, 2, 50, 100, 280));
            assert_eq!(s.final_tally[0].total, 2 * (130 + 50 + 100));
        }
    }

    #[test]
    fn shutout_flat_bonus_adds_100_under_schneider_and_open_gin() {
        for test in ["scored_nothing", "won_no_hand"] {
            let p = profile(&format!(
                r#"{{"base": "schneider", "shutout_test": "{test}"}}"#
            ));
            let s = score(&p, &shutout_hands());
            assert_eq!(s.final_tally[0], tally(130, 2, 40, 0, 100));
            assert_eq!((s.scores, s.net), (Some([270, 0]), Some(270)));
        }
        for test in ["scored_nothing", "won_no_hand"] {
            let p = profile(&format!(
                r#"{{"base": "open-gin", "shutout_test": "{test}"}}"#
            ));
            let s = score(&p, &shutout_hands());
            // Gin scores 20 + count here: 70 + 50.
            assert_eq!(s.final_tally[0], tally(120, 2, 40, 100, 100));
        }
    }

    #[test]
    fn shutout_pagat_doubles_the_game_bonus_to_200() {
        for test in ["scored_nothing", "won_no_hand"] {
            let p = profile(&format!(r#"{{"base": "pagat", "shutout_test": "{test}"}}"#));
            let s = score(&p, &shutout_hands());
            assert_eq!(s.final_tally[0], tally(120, 2, 40, 100, 100));
            assert_eq!(
                s.final_tally[0].game_bonus + s.final_tally[0].shutout_bonus,
                200
            );
        }
    }

    #[test]
    fn the_two_shutout_tests_differ_on_a_hand_won_for_nothing() {
        // With ties going to the knocker for 0, Dad wins a hand but scores nothing.
        let hands = [knock("Dad", 5, 5), knock("Mom", 0, 50), knock("Mom", 0, 30)];
        let scored_nothing = score(&profile(r#"{"tie_is_undercut": false}"#), &hands);
        assert_eq!(scored_nothing.hands[0].winner, Some(1));
        assert!(scored_nothing.games[0].shutout);
        assert_eq!(scored_nothing.final_tally[1], tally(0, 1, 25, 0, 0));
        let won_no_hand = score(
            &profile(r#"{"tie_is_undercut": false, "shutout_test": "won_no_hand"}"#),
            &hands,
        );
        assert!(!won_no_hand.games[0].shutout);
        assert_eq!(won_no_hand.final_tally[0].shutout_bonus, 0);
    }

    #[test]
    fn no_shutout_when_the_loser_scored() {
        for preset in [
            Preset::Standard,
            Preset::Pagat,
            Preset::Schneider,
            Preset::OpenGin,
        ] {
            let s = score(&preset.profile(), &seed_000_hands());
            assert!(!s.games[0].shutout, "{preset}");
            assert_eq!(s.final_tally[0].shutout_bonus, 0);
        }
    }

    #[test]
    fn boxes_credited_as_each_hand_is_won_count_toward_the_target() {
        let p = profile(r#"{"box_bonus_timing": "each_hand"}"#);
        let hands = seed_000_hands();
        // 10+25, 31+25, (Dad 27+25), 33+25: Mom reaches 149 on the fourth hand.
        let s = score(&p, &hands[..4]);
        let totals: Vec<[u64; 2]> = s.hands.iter().map(|h| h.totals).collect();
        assert_eq!(totals, [[35, 0], [91, 0], [91, 52], [149, 52]]);
        assert_eq!(
            s.final_tally,
            [tally(74, 3, 75, 100, 0), tally(27, 1, 25, 0, 0)]
        );
        assert_eq!(s.net, Some(249 - 52));
        assert_eq!(
            error(&p, &hands),
            MatchError::GameOver {
                hand: 4,
                ended_at: 3,
                hollywood: false
            }
        );
    }

    #[test]
    fn a_hand_after_the_game_ended_is_refused() {
        let mut hands = seed_000_hands();
        hands.push(MatchHand::Void);
        let err = error(&Preset::Standard.profile(), &hands);
        assert_eq!(err.code(), "game_over");
        assert_eq!(err.hand(), Some(6));
        assert_eq!(
            err.to_string(),
            "hands[6] was recorded after the game ended at hands[5]"
        );
    }

    #[test]
    fn an_unfinished_game_reports_the_score_sheet_so_far() {
        let hands = &seed_000_hands()[..3];
        let s = score(&Preset::Standard.profile(), hands);
        assert!(!s.complete);
        assert_eq!((s.winner, s.scores, s.net), (None, None, None));
        assert_eq!(
            s.final_tally,
            [tally(41, 2, 0, 0, 0), tally(27, 1, 0, 0, 0)]
        );
        let each_hand = score(&profile(r#"{"box_bonus_timing": "each_hand"}"#), hands);
        assert_eq!(
            each_hand.final_tally,
            [tally(41, 2, 50, 0, 0), tally(27, 1, 25, 0, 0)]
        );
        assert_eq!(each_hand.final_tally[0].total, each_hand.hands[2].totals[0]);
        let empty = score(&Preset::Standard.profile(), &[]);
        assert!(!empty.complete && empty.hands.is_empty());
    }

    #[test]
    fn void_hands_score_nothing_win_no_box_and_are_listed() {
        let mut hands = seed_000_hands();
        hands.insert(2, MatchHand::Void);
        let s = score(&Preset::Standard.profile(), &hands);
        assert_eq!(s.hands.len(), 7);
        let void = &s.hands[2];
        assert_eq!(
            (void.winner, void.knocker, void.outcome, void.points),
            (None, None, None, 0)
        );
        assert!(void.scored_in.is_empty());
        assert_eq!(void.totals, [41, 0]);
        assert_eq!(s.final_tally.map(|t| t.total), [310, 112]);
    }

    #[test]
    fn counts_over_the_knock_limit_are_refused_with_the_hand_index() {
        let err = error(
            &Preset::Standard.profile(),
            &[knock("Mom", 5, 15), knock("Dad", 11, 40)],
        );
        assert_eq!(
            err,
            MatchError::Count {
                hand: 1,
                error: CountError::KnockOverLimit {
                    deadwood: 11,
                    limit: 10
                }
            }
        );
        assert_eq!(err.code(), "knock_over_limit");
        let straight = error(&Preset::Straight.profile(), &[knock("Mom", 1, 15)]);
        assert_eq!(straight.code(), "knock_over_limit");
    }

    #[test]
    fn oklahoma_takes_the_limit_and_the_doubling_from_each_hands_upcard() {
        let p = Preset::Oklahoma.profile();
        let s = score(
            &p,
            &[
                with_upcard(knock("Mom", 7, 20), "7D"),
                with_upcard(knock("Dad", 3, 20), "4S"),
                with_upcard(knock("Mom", 0, 20), "AH"),
            ],
        );
        let points: Vec<u32> = s.hands.iter().map(|h| h.points).collect();
        assert_eq!(points, [13, 34, 45]);
        assert_eq!(s.hands[1].breakdown.map(|b| b.multiplier), Some(2));
        let over = error(&p, &[with_upcard(knock("Mom", 8, 20), "7D")]);
        assert_eq!(
            over,
            MatchError::Count {
                hand: 0,
                error: CountError::KnockOverLimit {
                    deadwood: 8,
                    limit: 7
                }
            }
        );
        let ace = error(&p, &[with_upcard(knock("Mom", 1, 20), "AD")]);
        assert_eq!(ace.code(), "knock_over_limit");
        let missing = error(&p, &[knock("Mom", 1, 20)]);
        assert_eq!(missing.code(), "upcard_required");
        assert!(matches!(missing, MatchError::Count { error, .. } if error.field() == "upcard"));
    }

    #[test]
    fn a_defender_count_above_98_is_impossible_and_98_is_not() {
        let best = cards("TS JS TH JH QD KD QC KC 9D 9C").unwrap();
        assert_eq!(crate::min_deadwood(best), MAX_DEFENDER_COUNT);
        let p = Preset::Standard.profile();
        assert_eq!(score(&p, &[knock("Mom", 10, 98)]).hands[0].points, 88);
        let err = error(&p, &[knock("Mom", 10, 99)]);
        assert_eq!(err.code(), "impossible_count");
        assert!(
            matches!(err, MatchError::Count { error, .. } if error.field() == "defender_deadwood")
        );
    }

    #[test]
    fn big_gin_counts_need_the_profile_and_no_deadwood() {
        let big = |knocker_deadwood| {
            MatchHand::Counts(CountHand {
                knocker: "Dad".into(),
                knocker_deadwood,
                defender_deadwood: 12,
                big_gin: true,
                upcard: None,
            })
        };
        assert_eq!(
            error(&Preset::Standard.profile(), &[big(0)]).code(),
            "big_gin_not_allowed"
        );
        let p = profile(r#"{"big_gin_bonus": 31}"#);
        assert_eq!(error(&p, &[big(3)]).code(), "big_gin_with_deadwood");
        let s = score(&p, &[big(0)]);
        assert_eq!(
            (s.hands[0].outcome, s.hands[0].winner, s.hands[0].points),
            (Some(Outcome::BigGin), Some(1), 43)
        );
    }

    #[test]
    fn players_are_two_distinct_names() {
        let p = Preset::Standard.profile();
        let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let code = |list: &[&str]| score_match(&p, &names(list), &[]).unwrap_err().code();
        assert_eq!(code(&["Mom"]), "wrong_player_count");
        assert_eq!(code(&["Mom", "Dad", "Kid"]), "wrong_player_count");
        assert_eq!(code(&["Mom", " "]), "blank_player_name");
        assert_eq!(code(&["Mom", "Mom"]), "duplicate_player_name");
        let unknown = score_match(&p, &names(&["Mom", "Dad"]), &[knock("Kid", 1, 5)]);
        assert_eq!(
            unknown.unwrap_err(),
            MatchError::UnknownPlayer {
                hand: 0,
                name: "Kid".into()
            }
        );
    }

    #[test]
    fn card_hands_are_scored_as_a_single_hand_is() {
        let hand = |text: &str| cards(text).unwrap().to_vec();
        // Seed 004: Elder knocks 1, Younger lays off 6H and 2H and counts 9.
        let seed_004 = MatchHand::Cards(CardHand {
            knocker: "Dad".into(),
            knocker_hand: KnockerHand {
                hand: hand("3H 4H 5H 9S 9H 9D 3C 4C 5C AH"),
                melds: None,
            },
            defender_hand: DefenderHand {
                hand: hand("6H 2H JS JH JD 7S 7H 7C 4D 5S"),
                ..DefenderHand::default()
            },
            upcard: None,
        });
        let s = score(&Preset::Standard.profile(), std::slice::from_ref(&seed_004));
        let h = &s.hands[0];
        assert_eq!(
            (h.winner, h.points, h.knocker_deadwood, h.defender_deadwood),
            (Some(1), 8, Some(1), Some(9))
        );
        let err = error(&Preset::Straight.profile(), &[knock("Mom", 0, 5), seed_004]);
        assert_eq!(err.code(), "knock_over_limit");
        assert!(matches!(err, MatchError::Cards { hand: 1, .. }));
    }

    #[test]
    fn hollywood_hand_by_hand() {
        let p = Preset::Hollywood.profile();
        let hands = [
            knock("Mom", 0, 5),  // 30: Mom's 1st win, game 1
            knock("Dad", 5, 25), // 20: Dad's 1st win, game 1
            knock("Mom", 2, 42), // 40: Mom's 2nd, games 1-2
            knock("Mom", 0, 10), // 35: Mom's 3rd, games 1-3; game 1 closes at 105
            knock("Dad", 3, 33), // 30: Dad's 2nd, game 2 only (game 1 closed)
            knock("Mom", 0, 25), // 50: games 2-3; game 2 closes at 125
            knock("Dad", 5, 20), // 15: Dad's 3rd, enters game 3
            knock("Dad", 0, 75), // 100: Dad closes game 3 at 115
        ];
        let s = score(&p, &hands);
        let scored_in: Vec<Vec<usize>> = s.hands.iter().map(|h| h.scored_in.clone()).collect();
        assert_eq!(
            scored_in,
            [
                vec![0],
                vec![0],
                vec![0, 1],
                vec![0, 1, 2],
                vec![1],
                vec![1, 2],
                vec![2],
                vec![2]
            ]
        );
        let by_game: Vec<Vec<[u64; 2]>> = s.hands.iter().map(|h| h.game_totals.clone()).collect();
        assert_eq!(
            by_game,
            [
                vec![[30, 0], [0, 0], [0, 0]],
                vec![[30, 20], [0, 0], [0, 0]],
                vec![[70, 20], [40, 0], [0, 0]],
                vec![[105, 20], [75, 0], [35, 0]],
                vec![[105, 20], [75, 30], [35, 0]],
                vec![[105, 20], [125, 30], [85, 0]],
                vec![[105, 20], [125, 30], [85, 15]],
                vec![[105, 20], [125, 30], [85, 115]],
            ]
        );
        assert_eq!(s.hands[5].totals, [105 + 125 + 85, 20 + 30]);
        let ends: Vec<_> = s.games.iter().map(|g| (g.winner, g.ended_at)).collect();
        assert_eq!(
            ends,
            [(Some(0), Some(3)), (Some(0), Some(5)), (Some(1), Some(7))]
        );
        let finals: Vec<[Tally; 2]> = s.games.iter().map(|g| g.final_tally).collect();
        assert_eq!(
            finals,
            [
                [tally(105, 3, 75, 100, 0), tally(20, 1, 25, 0, 0)],
                [tally(125, 3, 75, 100, 0), tally(30, 1, 25, 0, 0)],
                [tally(85, 2, 50, 0, 0), tally(115, 2, 50, 100, 0)],
            ]
        );
        let nets: Vec<Option<i64>> = s.games.iter().map(|g| g.net).collect();
        assert_eq!(nets, [Some(235), Some(245), Some(130)]);
        assert!(s.complete);
        assert_eq!(
            s.final_tally,
            [tally(315, 8, 200, 200, 0), tally(165, 4, 100, 100, 0)]
        );
        assert_eq!(s.final_tally.map(|t| t.total), [715, 365]);
        assert_eq!(
            (s.winner, s.scores, s.net),
            (Some(0), Some([715, 365]), Some(350))
        );

        let mut more = hands.to_vec();
        more.push(knock("Mom", 1, 9));
        let err = error(&p, &more);
        assert_eq!(
            err,
            MatchError::GameOver {
                hand: 8,
                ended_at: 7,
                hollywood: true
            }
        );
        assert_eq!(
            err.to_string(),
            "hands[8] was recorded after the last of the three Hollywood games ended at hands[7]"
        );
        // Mid-match: games 1 and 2 over, game 3 open.
        let partial = score(&p, &hands[..6]);
        assert!(!partial.complete);
        assert!(partial.games[0].complete && partial.games[1].complete);
        assert!(!partial.games[2].complete);
        assert_eq!((partial.winner, partial.net), (None, None));
        assert_eq!(partial.games[2].final_tally[0], tally(85, 2, 0, 0, 0));
    }

    #[test]
    fn hollywood_a_player_shut_out_of_game_1_makes_his_first_entry_in_game_2() {
        let p = Preset::Hollywood.profile();
        let hands = [
            knock("Mom", 0, 50), // 75 in game 1
            knock("Mom", 0, 40), // 65 in games 1-2: game 1 closes at 140
            knock("Dad", 2, 12), // Dad's first win: game 1 is closed, so game 2
        ];
        let s = score(&p, &hands);
        assert_eq!(s.hands[2].scored_in, [1]);
        assert_eq!(s.hands[2].game_totals, [[140, 0], [65, 10], [0, 0]]);
        let game_1 = &s.games[0];
        assert!(game_1.shutout);
        assert_eq!(game_1.final_tally[0], tally(140, 2, 50, 100, 240));
        assert_eq!(game_1.net, Some(530));
    }

    #[test]
    fn hollywood_with_the_winner_scoring_the_difference_sums_the_games() {
        let p = profile(r#"{"base": "schneider", "hollywood": true, "target": 50}"#);
        let hands = [
            knock("Mom", 0, 30), // 55: game 1 closes, Mom 55 to 0, shutout
            knock("Dad", 0, 30), // Dad enters game 2: 55, closes it
            knock("Dad", 0, 30), // Dad enters game 3: 55, closes it
        ];
        let s = score(&p, &hands);
        assert!(s.complete);
        let scores: Vec<Option<[i64; 2]>> = s.games.iter().map(|g| g.scores).collect();
        // Game 1: 55 + 20 box + 100 shutout; games 2 and 3: Dad 55 + 20 + 100.
        assert_eq!(scores, [Some([175, 0]), Some([0, 175]), Some([0, 175])]);
        assert_eq!(
            (s.winner, s.scores, s.net),
            (Some(1), Some([175, 350]), Some(175))
        );
    }
}

#[cfg(test)]
mod properties {
    //! Property tests: totals are the sum of their parts, and a card hand scores
    //! the same match as the counts it produces.

    use proptest::prelude::*;
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::card::{CardSet, Rank, Suit};
    use crate::deadwood::min_deadwood;
    use crate::profile::{Preset, ProfileOverrides};

    fn names() -> Vec<String> {
        vec!["Ann".into(), "Bob".into()]
    }

    fn deck() -> Vec<Card> {
        Card::deck().collect()
    }

    /// Any profile: every preset, with the match parameters varied.
    fn any_profile() -> impl Strategy<Value = Profile> {
        (
            prop::sample::select(Preset::ALL.to_vec()),
            prop::sample::select(vec![BoxBonusTiming::EndOfGame, BoxBonusTiming::EachHand]),
            prop::sample::select(vec![
                ShutoutRule::DoubleHandPointsAndGameBonus,
                ShutoutRule::DoubleTotal,
                ShutoutRule::FlatBonus,
                ShutoutRule::DoubleGameBonus,
            ]),
            prop::sample::select(vec![ShutoutTest::ScoredNothing, ShutoutTest::WonNoHand]),
            prop::sample::select(vec![
                Settlement::TotalsAndNet,
                Settlement::WinnerScoresDifference,
            ]),
            any::<bool>(),
            any::<bool>(),
            30u32..=160,
            prop::option::of(0u32..=60),
        )
            .prop_map(
                |(base, timing, shutout, test, settlement, hollywood, ties, target, big_gin)| {
                    ProfileOverrides {
                        base: Some(base),
                        box_bonus_timing: Some(timing),
                        shutout: Some(shutout),
                        shutout_bonus: (shutout == ShutoutRule::FlatBonus).then_some(100),
                        shutout_test: Some(test),
                        settlement: Some(settlement),
                        hollywood: Some(hollywood),
                        tie_is_undercut: Some(ties),
                        target: Some(target),
                        big_gin_bonus: Some(big_gin),
                        ..ProfileOverrides::default()
                    }
                    .resolve()
                    .expect("every generated profile is valid")
                },
            )
    }

    /// Raw material for a count hand; [`count_hand`] fits it to the profile.
    type RawHand = (u8, usize, u32, u32, usize, bool);

    fn raw_hands() -> impl Strategy<Value = Vec<RawHand>> {
        prop::collection::vec(
            (
                0u8..10,
                0usize..2,
                0u32..=10,
                0u32..=98,
                0usize..52,
                any::<bool>(),
            ),
            0..30,
        )
    }

    fn count_hand(profile: &Profile, raw: RawHand) -> MatchHand {
        let (kind, knocker, knocker_deadwood, defender_deadwood, upcard, big_gin) = raw;
        if kind == 0 {
            return MatchHand::Void;
        }
        let upcard = deck()[upcard];
        let limit = profile.knock_limit_for(Some(upcard)).unwrap_or(10);
        let big_gin = big_gin && kind == 1 && profile.big_gin_bonus.is_some();
        MatchHand::Counts(CountHand {
            knocker: names()[knocker].clone(),
            knocker_deadwood: if big_gin {
                0
            } else {
                knocker_deadwood % (limit + 1)
            },
            defender_deadwood,
            big_gin,
            upcard: Some(upcard),
        })
    }

    /// Scores the hands, dropping those after the match ended.
    fn score_until_over(profile: &Profile, mut hands: Vec<MatchHand>) -> (MatchScore, bool) {
        match score_match(profile, &names(), &hands) {
            Ok(score) => (score, false),
            Err(MatchError::GameOver { hand, .. }) => {
                hands.truncate(hand);
                (score_match(profile, &names(), &hands).unwrap(), true)
            }
            Err(other) => panic!("generated hands are legal: {other}"),
        }
    }

    fn parts(t: &Tally) -> u64 {
        t.hand_points + t.box_bonus + t.game_bonus + t.shutout_bonus
    }

    /// A random meld of cards still in `free`, if the draw finds one.
    fn random_meld(rng: &mut StdRng, free: CardSet) -> Option<CardSet> {
        let card = |rank: u8, suit: Suit| Card::new(Rank::new(rank).unwrap(), suit);
        let mut meld = CardSet::EMPTY;
        if rng.gen_bool(0.5) {
            let rank = rng.gen_range(1..=13);
            let mut suits = Suit::ALL;
            suits.shuffle(rng);
            for &suit in &suits[..rng.gen_range(3..=4)] {
                meld.insert(card(rank, suit));
            }
        } else {
            let suit = Suit::ALL[rng.gen_range(0..4)];
            let start = rng.gen_range(1..=11);
            let len = rng.gen_range(3..=5).min(14 - start);
            for rank in start..start + len {
                meld.insert(card(rank, suit));
            }
        }
        meld.is_subset(free).then_some(meld)
    }

    /// A random legal knock under `profile`: the upcard, the knocker's kept cards
    /// (10, or 11 for a big gin) with deadwood within the upcard's limit, and the
    /// defender's 10, all distinct. Melds are planted so knocks are common.
    fn random_deal(rng: &mut StdRng, profile: &Profile) -> (Card, KnockerHand, DefenderHand) {
        loop {
            let mut deck = deck();
            deck.shuffle(rng);
            let upcard = deck[0];
            let Ok(limit) = profile.knock_limit_for(Some(upcard)) else {
                continue;
            };
            let big_gin = profile.big_gin_bonus.is_some() && rng.gen_bool(0.1);
            let size = if big_gin { 11 } else { 10 };
            let mut free = CardSet::from_distinct(deck[1..].iter().copied()).unwrap();
            let mut knocker = CardSet::EMPTY;
            for _ in 0..rng.gen_range(1..=3) {
                if let Some(meld) = random_meld(rng, free)
                    && knocker.len() + meld.len() <= size
                {
                    knocker = knocker.union(meld);
                    free = free.difference(meld);
                }
            }
            for &card in &deck[1..] {
                if knocker.len() < size && free.contains(card) {
                    knocker.insert(card);
                    free.remove(card);
                }
            }
            let deadwood = min_deadwood(knocker);
            if (big_gin && crate::analyze_drawn_hand(knocker).big_gin)
                || (!big_gin && deadwood <= limit)
            {
                // Planted melds in the defender's hand too, so undercuts happen.
                let mut defender = CardSet::EMPTY;
                for _ in 0..rng.gen_range(1..=3) {
                    if let Some(meld) = random_meld(rng, free)
                        && defender.len() + meld.len() <= 10
                    {
                        defender = defender.union(meld);
                        free = free.difference(meld);
                    }
                }
                for &card in &deck[1..] {
                    if defender.len() < 10 && free.contains(card) {
                        defender.insert(card);
                        free.remove(card);
                    }
                }
                let defender = defender.to_vec();
                return (
                    upcard,
                    KnockerHand {
                        hand: knocker.to_vec(),
                        melds: None,
                    },
                    DefenderHand {
                        hand: defender,
                        ..DefenderHand::default()
                    },
                );
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn totals_are_the_sum_of_their_parts(profile in any_profile(), raw in raw_hands()) {
            let hands: Vec<MatchHand> = raw.into_iter().map(|r| count_hand(&profile, r)).collect();
            let (s, cut_short) = score_until_over(&profile, hands);
            let target = u64::from(profile.target);
            prop_assert_eq!(s.games.len(), profile.games());
            if cut_short {
                prop_assert!(s.complete);
            }
            prop_assert_eq!(s.complete, s.games.iter().all(|g| g.complete));
            for h in &s.hands {
                let summed = h.game_totals.iter().fold([0, 0], |a, t| [a[0] + t[0], a[1] + t[1]]);
                prop_assert_eq!(h.totals, summed);
                prop_assert_eq!(h.winner.is_none(), h.scored_in.is_empty() && h.points == 0 && h.outcome.is_none());
            }
            for (g, game) in s.games.iter().enumerate() {
                for p in 0..2 {
                    let t = &game.final_tally[p];
                    prop_assert_eq!(t.total, parts(t));
                    let won: Vec<&ScoredMatchHand> = s.hands.iter()
                        .filter(|h| h.winner == Some(p) && h.scored_in.contains(&g))
                        .collect();
                    prop_assert_eq!(t.hand_points, won.iter().map(|h| u64::from(h.points)).sum::<u64>());
                    prop_assert_eq!(t.hands_won, won.len() as u64);
                }
                let running = |at: usize| s.hands[at].game_totals[g];
                match (game.winner, game.ended_at) {
                    (Some(w), Some(end)) => {
                        prop_assert!(game.complete);
                        prop_assert!(running(end)[w] >= target);
                        if end > 0 {
                            prop_assert!(running(end - 1).iter().all(|&t| t < target));
                        }
                        for p in 0..2 {
                            let t = &game.final_tally[p];
                            prop_assert_eq!(t.box_bonus, t.hands_won * u64::from(profile.box_bonus));
                            prop_assert_eq!(t.game_bonus, if p == w { u64::from(profile.game_bonus) } else { 0 });
                        }
                        prop_assert_eq!(game.final_tally[1 - w].shutout_bonus, 0);
                        let scores = game.scores.unwrap();
                        prop_assert_eq!(game.net, Some(scores[w] - scores[1 - w]));
                    }
                    _ => {
                        prop_assert!(!game.complete && game.scores.is_none() && game.net.is_none());
                        let last = s.hands.last().map_or([0, 0], |h| h.game_totals[g]);
                        prop_assert!(last.iter().all(|&t| t < target));
                        prop_assert_eq!(game.final_tally.map(|t| t.total), last);
                    }
                }
            }
            let summed = s.games.iter().fold([Tally::default(); 2], |a, g| {
                [a[0].add(g.final_tally[0]), a[1].add(g.final_tally[1])]
            });
            prop_assert_eq!(s.final_tally, summed);
            prop_assert_eq!(s.complete, s.net.is_some());
            if let (Some(w), Some(scores)) = (s.winner, s.scores) {
                prop_assert_eq!(s.net, Some(scores[w] - scores[1 - w]));
            }
        }

        #[test]
        fn no_ten_card_hand_counts_more_than_98(seed in any::<u64>()) {
            let mut deck = deck();
            deck.shuffle(&mut StdRng::seed_from_u64(seed));
            let hand = CardSet::from_distinct(deck[..10].iter().copied()).unwrap();
            prop_assert!(min_deadwood(hand) <= MAX_DEFENDER_COUNT);
        }
    }

    proptest! {
        // Each case solves up to a dozen showdowns: fewer cases keep it quick in debug.
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn cards_and_the_counts_they_produce_score_the_same_match(
            profile in any_profile(),
            seed in any::<u64>(),
            length in 1usize..12,
        ) {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut as_cards = Vec::new();
            let mut as_counts = Vec::new();
            for _ in 0..length {
                if rng.gen_bool(0.1) {
                    as_cards.push(MatchHand::Void);
                    as_counts.push(MatchHand::Void);
                    continue;
                }
                let knocker = names()[rng.gen_range(0..2)].clone();
                let (upcard, knocker_hand, defender_hand) = random_deal(&mut rng, &profile);
                let score = score_hand(&profile, Some(upcard), &knocker_hand, &defender_hand)
                    .expect("a generated deal is a legal knock");
                as_counts.push(MatchHand::Counts(CountHand {
                    knocker: knocker.clone(),
                    knocker_deadwood: score.showdown.knocker.deadwood,
                    defender_deadwood: score.showdown.defender.deadwood,
                    big_gin: score.showdown.big_gin,
                    upcard: Some(upcard),
                }));
                as_cards.push(MatchHand::Cards(CardHand {
                    knocker,
                    knocker_hand,
                    defender_hand,
                    upcard: Some(upcard),
                }));
            }
            let from_cards = score_match(&profile, &names(), &as_cards);
            let from_counts = score_match(&profile, &names(), &as_counts);
            let legal = matches!(&from_cards, Ok(_) | Err(MatchError::GameOver { .. }));
            prop_assert!(legal, "{:?}", from_cards);
            prop_assert_eq!(from_cards, from_counts);
        }
    }
}
