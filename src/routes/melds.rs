//! `POST /v1/melds/validate`: is each group of cards a meld, and do the melds fit
//! together (and into a hand)?
//!
//! The handlers only: each reads its body with the transport's extractor and
//! answers with the operation of `gin_contract::answers::melds`, which the
//! `batch` command and the Python module call too.

use actix_web::{HttpRequest, HttpResponse, post, web};

use super::ServiceConfig;
use crate::http::admission::limits::ServerLimits;
use crate::http::bulk;
use crate::http::bulk::ndjson::{batch_line_schema, request_line_schema};
use crate::http::json::ValidJson;
use crate::http::problem::HttpProblem;
use gin_contract::answers::melds::*;
use gin_contract::json::from_slice;

gin_contract::problem_responses!(
    /// The error answers of `/v1/melds/validate`.
    ValidateErrors: [MalformedJson, InvalidBody, PayloadTooLarge, Overloaded, UnsupportedMediaType, UnsupportedContentEncoding, RequestTimeout, DuplicateCard]
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
    ServerLimits(limits): ServerLimits,
) -> Result<web::Json<ValidateResponse>, HttpProblem> {
    Ok(web::Json(validation(body.into_inner(), &limits)?))
}
gin_contract::problem_responses!(
    /// The error answers of `/v1/melds/validate/batch`.
    ValidateBatchErrors: [MalformedRequest, BatchTimeout, LineTooLong, UnsupportedMediaType, UnsupportedContentEncoding, MalformedJson, InvalidBody, PayloadTooLarge, Overloaded, TooManyLines, RequestTimeout]
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
    ServerLimits(limits): ServerLimits,
) -> Result<HttpResponse, HttpProblem> {
    bulk::respond(request, payload, "validate_melds", move |line: &[u8]| {
        validation(from_slice(line)?, &limits)
    })
    .await
}
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(validate_melds).service(validate_melds_batch);
}

batch_line_schema!(ValidateBatchLine, ValidateResponse);
request_line_schema!(ValidateRequestLine, ValidateRequest);
