//! A scored knock on the wire, shared by `/v1/hands/score` and
//! `/v1/hands/audit` (whose `result` is exactly what the score operation
//! answers for the final hands).
//!
//! The sides as laid down go on the wire as [`HandArrangement`] and
//! [`HandReply`] (a joker written in its meld and named in `jokers`); the
//! scored hand puts the settlement's fields and both sides side by side.

use serde::Serialize;
use utoipa::ToSchema;

use super::jokers::{HandArrangement, HandReply};
use gin_rules::{Arrangement, Breakdown, HandScore, Outcome, Side};

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
    pub knocker: Arrangement,
    /// The defender's melds, layoffs, deadwood cards and count.
    pub defender: HandReply,
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
            knocker: score.showdown.knocker,
            defender: HandReply::from(score.showdown.defender),
            receipt: None,
        }
    }
}
