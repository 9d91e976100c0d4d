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

use gin_rules::{Breakdown, DefenderReply, HandScore, KnockerArrangement, Outcome, Side};

/// A scored hand.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ScoreResponse {
    pub outcome: Outcome,
    pub winner: Side,
    /// Points won by the winner.
    #[schema(example = 8)]
    pub points: u32,
    pub breakdown: Breakdown,
    pub knocker: KnockerArrangement,
    pub defender: DefenderReply,
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
            defender: score.showdown.defender,
            receipt: None,
        }
    }
}
