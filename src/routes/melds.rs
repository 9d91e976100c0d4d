//! `POST /v1/melds/validate`: is each group of cards a meld, and do the melds fit
//! together (and into a hand)?

use actix_web::{HttpRequest, HttpResponse, post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::ServiceConfig;
use crate::http::bulk;
use crate::http::json::{ValidJson, from_slice};
use crate::http::limits::{MAX_CARDS, RequestLimits, check_items};
use crate::http::ndjson::{batch_line_schema, request_line_schema};
use crate::http::problem::Problem;
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
            code: problem.code(),
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

crate::problem_responses!(
    /// The error answers of `/v1/melds/validate`.
    ValidateErrors: [MalformedJson, InvalidBody, PayloadTooLarge, UnsupportedMediaType, UnsupportedContentEncoding, RequestTimeout, DuplicateCard]
);

/// Checks melds.
#[utoipa::path(
    tag = "melds",
    summary = "Validate melds",
    description = "Checks each group of cards (a set is 3-4 cards of one rank, a run 3+ \
        consecutive cards of one suit, ace low, no wrap) and the groups together: no card in \
        two melds and, with `hand`, every card from the hand. Answers 200 with the verdict \
        whether or not the melds are valid; each fault has a stable code. 422 only when the \
        question itself is impossible (a hand with a repeated card).",
    request_body(content = ValidateRequest, example = json!({"melds": [["7S", "7H", "7D"], ["QH", "KH", "AH"]]})),
    responses(
        (status = 200, description = "The verdict.", body = ValidateResponse, example = json!({
            "valid": false,
            "melds": [
                {"cards": ["7S", "7H", "7D"], "valid": true, "kind": "set", "problems": []},
                {"cards": ["QH", "KH", "AH"], "valid": false, "kind": null, "problems": [
                    {"code": "wrap_around", "message": "the ace is low: a run cannot go from the king round to the ace"}]}
            ],
            "problems": []
        })),
        ValidateErrors,
    )
)]
#[post("/v1/melds/validate")]
pub async fn validate_melds(
    body: ValidJson<ValidateRequest>,
    limits: RequestLimits,
) -> Result<web::Json<ValidateResponse>, Problem> {
    validation(body.into_inner(), &limits).map(web::Json)
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

batch_line_schema!(ValidateBatchLine, ValidateResponse);
request_line_schema!(ValidateRequestLine, ValidateRequest);

crate::problem_responses!(
    /// The error answers of `/v1/melds/validate/batch`.
    ValidateBatchErrors: [MalformedRequest, BatchTimeout, LineTooLong, UnsupportedMediaType, UnsupportedContentEncoding, MalformedJson, InvalidBody, PayloadTooLarge, TooManyLines, RequestTimeout]
);

/// Validates many sets of melds.
#[utoipa::path(
    tag = "melds",
    summary = "Validate many sets of melds (NDJSON)",
    description = "The bulk form of `POST /v1/melds/validate`: one `ValidateRequest` per line \
(NDJSON, `application/x-ndjson`), optionally with an `id`; one `ValidateBatchLine` per request \
line in the same order, streamed (`result` or `problem`; see `POST /v1/hands/analyze/batch` for \
the framing).",
    request_body(content = Vec<ValidateRequestLine>, content_type = "application/x-ndjson",
        description = "NDJSON: one `ValidateRequest` per line (each item of the schema is a line).",
        example = json!("{\"id\": 7, \"melds\": [[\"7S\", \"7H\", \"7D\"]]}\n")),
    responses(
        (status = 200, description = "NDJSON: one `ValidateBatchLine` per request line (each item of the schema is a line).",
         content_type = "application/x-ndjson", body = Vec<ValidateBatchLine>,
         example = json!("{\"line\":1,\"id\":7,\"result\":{\"valid\":true,\"melds\":[{\"cards\":[\"7S\",\"7H\",\"7D\"],\"valid\":true,\"kind\":\"set\",\"problems\":[]}],\"problems\":[]}}\n")),
        ValidateBatchErrors,
    )
)]
#[post("/v1/melds/validate/batch")]
pub async fn validate_melds_batch(
    request: HttpRequest,
    payload: web::Payload,
    limits: RequestLimits,
) -> Result<HttpResponse, Problem> {
    bulk::respond(request, payload, "validate_melds", move |line: &[u8]| {
        validation(from_slice(line)?, &limits)
    })
    .await
}

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(validate_melds).service(validate_melds_batch);
}
