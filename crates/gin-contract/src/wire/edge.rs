//! The one place a request's format (its `players` or `teams`) meets the rules
//! crate's match code, which is written once, generic over the format.
//!
//! Each match operation (score, audit, state, move) is a [`FormatOperation`]:
//! one body generic over [`WireFormat`], run by [`dispatch`], the only `match`
//! on the roster. What differs between formats on the wire (the shape a hand
//! takes in each request, the answer's shape, whose totals a player's bot
//! sees) is [`WireFormat`]'s, implemented here for the three formats. A new
//! format is a [`Roster`] variant, one arm of [`dispatch`], its answer's shape
//! ([`MatchAnswer`]) and its `WireFormat`.

use gin_rules::{
    LiveFormat, LiveTable, MatchHand, MatchScore, PartnershipDeal, PartnershipScore, Players,
    Profile, SeatedHand, Tally, Team, ThreeScore,
};

use crate::problem::Problem;
use crate::wire::formats::{
    MatchAnswer, PartnershipMatchResponse, Roster, TeamSpec, ThreePlayerMatchResponse, wrong_shape,
};
use crate::wire::match_record::{MatchRecord, RoundRecord, one_table, two_tables};
use crate::wire::score_sheet::MatchResponse;

/// A hand of `/v1/matches/score` as recorded, before the match's format is
/// known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordedHand {
    /// A two-player hand: `knocker` only (or `{"void": true}`).
    Plain(MatchHand),
    /// A hand naming both its players: `knocker` and `defender`, or a void hand
    /// with `players`.
    Seated(SeatedHand),
    /// A partnership deal: two tables, each of which must name both its
    /// players (checked with the match's format, as a rule: 422).
    Deal(Box<[RecordedHand; 2]>),
}

const TWO_PLAYER_HAND: &str = "a two-player hand names only its `knocker` (`defender`, \
    `players` and `tables` belong to three-player and partnership play)";
const SEATED_HAND: &str = "a hand of three-player or partnership play names its `knocker` and \
    `defender` (a void hand: `{\"void\": true, \"players\": [a, b]}`)";
const DEAL: &str = "a partnership hand is a deal: `{\"tables\": [hand, hand]}`";

/// A match format as the contract reads and answers it, on top of what the
/// rules crate's traits give.
pub trait WireFormat: LiveFormat + Sized {
    /// Hand `index` of a score request, in this format's shape (or the 422
    /// naming the shape it takes).
    fn score_hand(index: usize, hand: &RecordedHand) -> Result<Self::Hand, Problem>;

    /// Round `index` of a match record (audit, state, move), in this
    /// format's shape, its deals read with `jokers` in the deck.
    fn record_deal(index: usize, round: &RoundRecord, jokers: u8) -> Result<Self::Deal, Problem>;

    /// The scored match in this format's answer shape.
    fn answer(&self, score: &Self::Score, profile: &Profile) -> MatchAnswer;

    /// The score lines of `seat`'s side and of its opponent at `tables` (the
    /// hand in play), for a bot that plays to the score.
    fn sides<'s>(
        &self,
        score: &'s Self::Score,
        tables: &[LiveTable],
        seat: &str,
    ) -> Option<(&'s [Tally], usize, usize)>;

    /// Every hand of a score request, in order; the first misshapen one is
    /// the answer.
    fn score_hands(hands: &[RecordedHand]) -> Result<Vec<Self::Hand>, Problem> {
        hands
            .iter()
            .enumerate()
            .map(|(index, hand)| Self::score_hand(index, hand))
            .collect()
    }

    /// Every round of a match record, in order; the first misshapen one is
    /// the answer.
    fn record_deals(record: &MatchRecord<'_>, jokers: u8) -> Result<Vec<Self::Deal>, Problem> {
        record
            .hands
            .iter()
            .enumerate()
            .map(|(index, round)| Self::record_deal(index, round, jokers))
            .collect()
    }
}

/// One match operation, written once for every format.
pub trait FormatOperation {
    type Output;

    /// The operation for the match's players (or teams), `format`.
    fn run<F: WireFormat>(self, format: F) -> Result<Self::Output, Problem>;
}

/// Reads the roster (`players` or `teams`; its faults are the answer before
/// anything else is read) and runs `operation` with its format.
pub fn dispatch<O: FormatOperation>(
    players: Option<&[String]>,
    teams: Option<&[TeamSpec]>,
    operation: O,
) -> Result<O::Output, Problem> {
    match Roster::of(players, teams)? {
        Roster::Two(players) => operation.run(players),
        Roster::Three(players) => operation.run(players),
        Roster::Teams(teams) => operation.run(teams),
    }
}

/// A hand that names both its players, or the 422 saying it must.
fn seated(hand: &RecordedHand, pointer: String) -> Result<SeatedHand, Problem> {
    match hand {
        RecordedHand::Seated(seated) => Ok(seated.clone()),
        _ => Err(wrong_shape(pointer, SEATED_HAND)),
    }
}

impl WireFormat for Players<String> {
    fn score_hand(index: usize, hand: &RecordedHand) -> Result<MatchHand, Problem> {
        match hand {
            RecordedHand::Plain(hand) => Ok(hand.clone()),
            _ => Err(wrong_shape(format!("/hands/{index}"), TWO_PLAYER_HAND)),
        }
    }

    fn record_deal(index: usize, round: &RoundRecord, jokers: u8) -> Result<Self::Deal, Problem> {
        one_table(index, round, jokers)
    }

    fn answer(&self, score: &MatchScore, profile: &Profile) -> MatchAnswer {
        MatchAnswer::TwoPlayers(MatchResponse::new(score, profile.hollywood()))
    }

    fn sides<'s>(
        &self,
        score: &'s MatchScore,
        _: &[LiveTable],
        seat: &str,
    ) -> Option<(&'s [Tally], usize, usize)> {
        let own = usize::from(score.players.get(1).is_some_and(|n| n == seat));
        Some((&score.final_tally, own, 1 - own))
    }
}

impl WireFormat for [String; 3] {
    fn score_hand(index: usize, hand: &RecordedHand) -> Result<SeatedHand, Problem> {
        seated(hand, format!("/hands/{index}"))
    }

    fn record_deal(index: usize, round: &RoundRecord, jokers: u8) -> Result<Self::Deal, Problem> {
        one_table(index, round, jokers)
    }

    fn answer(&self, score: &ThreeScore, _: &Profile) -> MatchAnswer {
        MatchAnswer::ThreePlayers(ThreePlayerMatchResponse::new(score))
    }

    /// The opponent is the other player at the table in play.
    fn sides<'s>(
        &self,
        score: &'s ThreeScore,
        tables: &[LiveTable],
        seat: &str,
    ) -> Option<(&'s [Tally], usize, usize)> {
        let at = |who: &str| self.iter().position(|p| p == who);
        let opponent = tables.first().and_then(|t| {
            at(if t.dealer == seat {
                &t.non_dealer
            } else {
                &t.dealer
            })
        });
        Some((&score.final_tally, at(seat)?, opponent?))
    }
}

impl WireFormat for [Team; 2] {
    fn score_hand(index: usize, hand: &RecordedHand) -> Result<PartnershipDeal, Problem> {
        match hand {
            RecordedHand::Deal(tables) => {
                let [one, two] = &**tables;
                Ok(PartnershipDeal {
                    tables: [
                        seated(one, format!("/hands/{index}/tables/0"))?,
                        seated(two, format!("/hands/{index}/tables/1"))?,
                    ],
                })
            }
            _ => Err(wrong_shape(format!("/hands/{index}"), DEAL)),
        }
    }

    fn record_deal(index: usize, round: &RoundRecord, jokers: u8) -> Result<Self::Deal, Problem> {
        two_tables(index, round, jokers)
    }

    fn answer(&self, score: &PartnershipScore, _: &Profile) -> MatchAnswer {
        MatchAnswer::Partnership(PartnershipMatchResponse::new(
            score,
            &Team::seat_order(self),
        ))
    }

    fn sides<'s>(
        &self,
        score: &'s PartnershipScore,
        _: &[LiveTable],
        seat: &str,
    ) -> Option<(&'s [Tally], usize, usize)> {
        let own = usize::from(
            self.get(1)
                .is_some_and(|t| t.players.iter().any(|p| p == seat)),
        );
        Some((&score.final_tally, own, 1 - own))
    }
}
