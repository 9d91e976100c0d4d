//! `POST /v1/melds/validate`: is each group of cards a meld, and do the melds fit
//! together (and into a hand)?

use crate::rule_errors::RuleError;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::limits::{MAX_CARDS, RequestLimits, check_items};
use crate::problem::Problem;
use crate::wire::cards::distinct_hand;
use gin_rules::{ArrangementProblem, Card, CardSet, MeldKind, MeldProblem, check_arrangement};

/// Melds to check, optionally against a hand.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"melds": [["7S", "7H", "7D"], ["3C", "4C", "5C", "6C"]], "hand": ["7S", "7H", "7D", "3C", "4C", "5C", "6C", "KD", "QH", "2S"]}))]
pub struct ValidateRequest {
    /// The declared melds, each a list of cards.
    pub melds: Vec<Vec<Card>>,
    /// A hand the melds must come from (any number of distinct cards). With it the
    /// response also reports the deadwood the melds leave.
    pub hand: Option<Vec<Card>>,
}

// The rules' `MeldVerdict` holds the meld itself; the wire says whether there
// is one and of which kind, hence this type of its own.
/// The verdict on one declared meld.
#[derive(Debug, Serialize, ToSchema)]
pub struct MeldVerdict {
    /// The cards as declared, in canonical notation.
    pub cards: Vec<Card>,
    pub valid: bool,
    /// `set` or `run` when valid, else null.
    pub kind: Option<MeldKind>,
    pub problems: Vec<MeldProblem>,
}

impl From<gin_rules::MeldVerdict> for MeldVerdict {
    fn from(verdict: gin_rules::MeldVerdict) -> MeldVerdict {
        MeldVerdict {
            cards: verdict.cards,
            valid: verdict.meld.is_some(),
            kind: verdict.meld.map(|meld| meld.kind()),
            problems: verdict.problems,
        }
    }
}

// One shape for both faults of the rules' `ArrangementProblem` (an enum tagged
// by code), with the message, hence this type of its own.
/// A fault across melds: a card in two melds, or a meld card not in the hand.
#[derive(Debug, Serialize, ToSchema)]
pub struct CrossMeldProblem {
    /// `card_in_two_melds` or `card_not_in_hand`.
    #[schema(example = "card_in_two_melds")]
    pub code: &'static str,
    #[schema(example = "7S is in meld 0 and meld 1; a card belongs to at most one meld")]
    pub message: String,
    pub card: Card,
    /// Indexes of the melds involved.
    pub melds: Vec<usize>,
}

impl From<&ArrangementProblem> for CrossMeldProblem {
    fn from(problem: &ArrangementProblem) -> CrossMeldProblem {
        let (card, melds) = match problem {
            ArrangementProblem::CardInTwoMelds { card, melds } => (*card, melds.to_vec()),
            ArrangementProblem::CardNotInHand { card, meld } => (*card, vec![*meld]),
        };
        CrossMeldProblem {
            code: problem.error_code().as_str(),
            message: problem.message(),
            card,
            melds,
        }
    }
}

/// The verdict on the declared melds.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "valid": true,
    "melds": [
        {"cards": ["7S", "7H", "7D"], "valid": true, "kind": "set", "problems": []},
        {"cards": ["3C", "4C", "5C", "6C"], "valid": true, "kind": "run", "problems": []}
    ],
    "problems": [],
    "deadwood_cards": ["2S", "QH", "KD"],
    "deadwood": 22
}))]
pub struct ValidateResponse {
    /// Every meld is legal and the melds fit together (and into the hand).
    pub valid: bool,
    pub melds: Vec<MeldVerdict>,
    pub problems: Vec<CrossMeldProblem>,
    /// With `hand`: the hand's cards in no declared meld.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<Card>>)]
    pub deadwood_cards: Option<CardSet>,
    /// With `hand`: the count of those cards.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deadwood: Option<u32>,
}

/// The verdict on one request, without HTTP (the single and the batch endpoint).
pub fn validation(
    request: ValidateRequest,
    limits: &RequestLimits,
) -> Result<ValidateResponse, Problem> {
    // Each verdict echoes its meld's cards and a cross-meld problem names the
    // melds sharing a card: these two ceilings bound the answer (see `limits`).
    check_items("/melds", "melds", request.melds.len(), limits.melds)?;
    for (index, meld) in request.melds.iter().enumerate() {
        check_items(&format!("/melds/{index}"), "cards", meld.len(), MAX_CARDS)?;
    }
    let hand = match &request.hand {
        None => None,
        Some(cards) => Some(distinct_hand(cards, "/hand")?),
    };
    let report = check_arrangement(&request.melds, hand);
    Ok(ValidateResponse {
        valid: report.is_valid(),
        problems: report.problems.iter().map(CrossMeldProblem::from).collect(),
        deadwood_cards: report.deadwood.map(|(cards, _)| cards),
        deadwood: report.deadwood.map(|(_, count)| count),
        melds: report.melds.into_iter().map(MeldVerdict::from).collect(),
    })
}
