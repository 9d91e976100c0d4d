//! One entry for every operation: a JSON body in, the JSON answer or a
//! [`Problem`] out. The Python module calls this; the service's routes call
//! the same functions of [`crate::answers`] after their own reading of the
//! body, so both answer the same bytes.
//!
//! A body is first held to the service's default limits (64 KiB, 1 MiB for a
//! match audit: `payload_too_large`), then read ([`crate::json::from_slice`]:
//! `malformed_json`, `invalid_body` with pointers), then answered. What that
//! can cost is argued in [`crate::limits`].

use std::sync::Arc;

use serde::Serialize;

use crate::answers::{
    audit, deals, hand_move, hands, layoffs, match_audit, match_move, match_state, matches, melds,
    ratings, state,
};
use crate::json::{from_slice, too_large};
use crate::limits::{DEFAULT_BODY_LIMIT, DEFAULT_MATCH_AUDIT_BODY_LIMIT, RequestLimits};
use crate::problem::Problem;
use crate::receipts::{KeyError, KeyRing};
use crate::wire::receipt::Keys;

/// The operations that answer a JSON body, by their OpenAPI `operationId`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operation {
    AnalyzeHand,
    ValidateMelds,
    Layoffs,
    ScoreHand,
    ScoreMatch,
    AuditHand,
    AuditMatch,
    HandState,
    MatchState,
    DealFromSeeds,
    RatePlayers,
    MoveHand,
    MoveMatch,
}

impl Operation {
    /// Every operation, in the order of the API's resources.
    pub const ALL: [Operation; 13] = [
        Operation::AnalyzeHand,
        Operation::ValidateMelds,
        Operation::Layoffs,
        Operation::ScoreHand,
        Operation::ScoreMatch,
        Operation::AuditHand,
        Operation::AuditMatch,
        Operation::HandState,
        Operation::MatchState,
        Operation::DealFromSeeds,
        Operation::RatePlayers,
        Operation::MoveHand,
        Operation::MoveMatch,
    ];

    /// The OpenAPI `operationId` of the single endpoint.
    pub const fn operation_id(self) -> &'static str {
        match self {
            Operation::AnalyzeHand => "analyze_hand",
            Operation::ValidateMelds => "validate_melds",
            Operation::Layoffs => "layoffs",
            Operation::ScoreHand => "score_hand",
            Operation::ScoreMatch => "score_match",
            Operation::AuditHand => "audit_hand",
            Operation::AuditMatch => "audit_match",
            Operation::HandState => "hand_state",
            Operation::MatchState => "match_state",
            Operation::DealFromSeeds => "deal_from_seeds",
            Operation::RatePlayers => "rate_players",
            Operation::MoveHand => "move_hand",
            Operation::MoveMatch => "move_match",
        }
    }

    /// The operation with that `operationId`.
    pub fn from_operation_id(id: &str) -> Option<Operation> {
        Operation::ALL
            .into_iter()
            .find(|operation| operation.operation_id() == id)
    }

    /// The largest body the service reads for this operation by default.
    pub const fn body_limit(self) -> usize {
        match self {
            Operation::AuditMatch | Operation::MatchState | Operation::MoveMatch => {
                DEFAULT_MATCH_AUDIT_BODY_LIMIT
            }
            _ => DEFAULT_BODY_LIMIT,
        }
    }
}

/// What answers need besides the body: the request ceilings and the key
/// receipts are signed with.
#[derive(Debug, Clone, Default)]
pub struct Referee {
    limits: RequestLimits,
    keys: Keys,
}

impl Referee {
    /// The service's default ceilings, and no signing key: a request for a
    /// receipt is refused (`signing_key_required`) and the match audit goes
    /// unsigned.
    pub fn new() -> Referee {
        Referee::default()
    }

    /// Signs receipts with the Ed25519 private key in `pem` (PKCS#8), as the
    /// service does with `--signing-key`.
    pub fn with_signing_key_pem(self, pem: &str) -> Result<Referee, KeyError> {
        let ring = KeyRing::from_pem(pem)?;
        Ok(Referee {
            keys: Keys::new(Arc::new(ring)),
            ..self
        })
    }

    /// Other request ceilings (as a server's flags would set them).
    pub fn with_limits(self, limits: RequestLimits) -> Referee {
        Referee { limits, ..self }
    }

    /// The keys receipts are signed with.
    pub fn keys(&self) -> &Keys {
        &self.keys
    }

    /// Answers `body` (a JSON request of `operation`) with the JSON of the
    /// 200 answer, or the problem the service would answer.
    pub fn answer(&self, operation: Operation, body: &[u8]) -> Result<Vec<u8>, Problem> {
        if body.len() > operation.body_limit() {
            return Err(too_large(operation.body_limit()));
        }
        let (limits, keys) = (&self.limits, &self.keys);
        match operation {
            Operation::AnalyzeHand => json(hands::analysis(from_slice(body)?)),
            Operation::ValidateMelds => json(melds::validation(from_slice(body)?, limits)),
            Operation::Layoffs => json(layoffs::optimal_layoffs(from_slice(body)?)),
            Operation::ScoreHand => json(hands::scored(from_slice(body)?, body, keys)),
            Operation::ScoreMatch => json(matches::respond(from_slice(body)?, body, limits, keys)),
            Operation::AuditHand => json(audit::verdict(from_slice(body)?, body, limits, keys)),
            Operation::AuditMatch => {
                json(match_audit::respond(&from_slice(body)?, body, limits, keys))
            }
            Operation::HandState => json(state::respond(from_slice(body)?, limits)),
            Operation::MatchState => json(match_state::respond(&from_slice(body)?, limits)),
            Operation::DealFromSeeds => json(deals::answer(&from_slice(body)?)),
            Operation::RatePlayers => json(ratings::rate(&from_slice(body)?, limits)),
            Operation::MoveHand => json(hand_move::respond(from_slice(body)?, limits)),
            Operation::MoveMatch => json(match_move::respond(&from_slice(body)?, limits)),
        }
    }
}

/// The answer's JSON, as the service writes it (serde_json, compact).
fn json<T: Serialize>(answer: Result<T, Problem>) -> Result<Vec<u8>, Problem> {
    serde_json::to_vec(&answer?).map_err(|e| Problem::internal(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operation_is_found_by_its_id() {
        for operation in Operation::ALL {
            assert_eq!(
                Operation::from_operation_id(operation.operation_id()),
                Some(operation)
            );
        }
        assert_eq!(Operation::from_operation_id("analyze_hands"), None);
    }

    #[test]
    fn a_body_over_the_limit_is_refused_before_it_is_read() {
        let body = vec![b' '; DEFAULT_BODY_LIMIT + 1];
        let problem = Referee::new()
            .answer(Operation::AnalyzeHand, &body)
            .unwrap_err();
        assert_eq!(problem.code.as_str(), "payload_too_large");
        // The match audit takes more.
        let problem = Referee::new()
            .answer(Operation::AuditMatch, &body)
            .unwrap_err();
        assert_eq!(problem.code.as_str(), "malformed_json");
    }

    #[test]
    fn a_receipt_needs_a_key() {
        let body = br#"{"knocker": {"hand": ["2S","3S","4S","5S","6S","7S","8S","9S","TS","JS"]},
            "defender": {"hand": ["2H","3H","4H","5H","6H","7H","8H","9H","TH","JH"]}, "receipt": true}"#;
        let problem = Referee::new()
            .answer(Operation::ScoreHand, body)
            .unwrap_err();
        assert_eq!(problem.code.as_str(), "signing_key_required");
    }
}
