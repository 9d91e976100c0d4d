//! A scored knock on the wire, shared by `/v1/hands/score` and
//! `/v1/hands/audit` (whose `result` is exactly what the score operation
//! answers for the final hands).
//!
//! The pieces of a knock go on the wire as the rules types themselves: the
//! hands as sent ([`KnockerHand`], [`DefenderHand`], [`Layoff`]) and the sides as
//! laid down ([`KnockerArrangement`], [`DefenderReply`]). Only the scored hand
//! has a shape of its own: the settlement's fields and both sides, side by side.
//!
//! [`KnockerHand`]: gin_rules::KnockerHand
//! [`DefenderHand`]: gin_rules::DefenderHand
//! [`Layoff`]: gin_rules::Layoff

use serde::Serialize;
use utoipa::ToSchema;

use super::jokers::{HandArrangement, HandReply};
use gin_rules::{
    Breakdown, DefenderReply, HandScore, KnockerArrangement, Outcome, Side, WildHandScore,
    WildShowdown,
};

/// The knocker's side as laid down: the joker-free arrangement, or one holding
/// jokers (documented as [`HandArrangement`], of which the joker-free form is
/// the case without `jokers`).
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum KnockerSide {
    Natural(KnockerArrangement),
    Wild(HandArrangement),
}

/// The defender's side as laid down, likewise (documented as [`HandReply`]).
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum DefenderSide {
    Natural(DefenderReply),
    Wild(HandReply),
}

/// Both sides of a knock with jokers, on the wire.
pub fn wild_sides(showdown: &WildShowdown) -> (KnockerSide, DefenderSide) {
    (
        KnockerSide::Wild(HandArrangement::from(&showdown.knocker)),
        DefenderSide::Wild(HandReply::from(&showdown.defender)),
    )
}

/// A scored hand.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ScoreResponse {
    pub outcome: Outcome,
    pub winner: Side,
    /// Points won by the winner.
    #[schema(example = 8)]
    pub points: u32,
    pub breakdown: Breakdown,
    /// The knocker's melds, deadwood cards and count; with jokers, a joker
    /// stands in a meld in the place of the card it stands for, named in
    /// `jokers`.
    #[schema(value_type = HandArrangement)]
    pub knocker: KnockerSide,
    /// The defender's melds, layoffs, deadwood cards and count.
    #[schema(value_type = HandReply)]
    pub defender: DefenderSide,
    /// A signed receipt (compact JWS, see `GET /v1/keys`), when the request
    /// asked for one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub receipt: Option<String>,
}

impl From<HandScore> for ScoreResponse {
    fn from(score: HandScore) -> ScoreResponse {
        let settlement = score.settlement;
        ScoreResponse {
            outcome: settlement.outcome,
            winner: settlement.winner,
            points: settlement.points,
            breakdown: settlement.breakdown,
            knocker: KnockerSide::Natural(score.showdown.knocker),
            defender: DefenderSide::Natural(score.showdown.defender),
            receipt: None,
        }
    }
}

impl From<WildHandScore> for ScoreResponse {
    fn from(score: WildHandScore) -> ScoreResponse {
        let settlement = score.settlement;
        let (knocker, defender) = wild_sides(&score.showdown);
        ScoreResponse {
            outcome: settlement.outcome,
            winner: settlement.winner,
            points: settlement.points,
            breakdown: settlement.breakdown,
            knocker,
            defender,
            receipt: None,
        }
    }
}
