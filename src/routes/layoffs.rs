//! `POST /v1/layoffs`: the knocker's arrangement and the defender's best reply.
//!
//! The handlers only: each reads its body with the transport's extractor and
//! answers with the operation of `gin_contract::answers::layoffs`, which the
//! `batch` command and the Python module call too.

use actix_web::{HttpRequest, HttpResponse, post, web};

use super::ServiceConfig;
use crate::http::bulk;
use crate::http::bulk::ndjson::{batch_line_schema, request_line_schema};
use crate::http::json::ValidJson;
use crate::http::problem::HttpProblem;
use gin_contract::answers::layoffs::*;
use gin_contract::json::from_slice;

gin_contract::problem_responses!(
    /// The error answers of `/v1/layoffs`.
    LayoffsErrors: [MalformedJson, InvalidBody, PayloadTooLarge, Overloaded, UnsupportedMediaType, UnsupportedContentEncoding, RequestTimeout, UnknownProfile, InvalidProfile, InvalidProfileCombination, DuplicateCard, WrongCardCount, KnockOverLimit, InvalidMelds, NotBigGin, BigGinNotAllowed, UpcardRequired, JokerNotInDeck]
);
/// Computes the optimal layoffs.
#[utoipa::path(
    tag = "layoffs",
    summary = "Compute the defender's optimal layoffs",
    description = "Lays the knocker's melds down (as declared, checked; or the arrangement best \
        for the knocker) and computes the defender's best reply: its own melds and its layoffs \
        chosen together to leave the least deadwood. Runs take chained layoffs at both ends, a \
        3-card set takes its fourth card, a 4-card set nothing; nothing is laid off on gin \
        unless the profile allows it. Layoffs are listed in a legal playing order.",
    request_body(content = LayoffsRequest, example = json!({
        "knocker": {"hand": ["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "AH"]},
        "defender": {"hand": ["6H", "2H", "JS", "JH", "JD", "7S", "7H", "7C", "4D", "5S"]}
    })),
    responses(
        (status = 200, description = "The knocker's melds and the defender's reply.", body = LayoffsResponse, example = json!({
            "knocker": {"melds": [["3H", "4H", "5H"], ["3C", "4C", "5C"], ["9S", "9H", "9D"]], "deadwood_cards": ["AH"], "deadwood": 1},
            "defender": {"melds": [["7S", "7H", "7C"], ["JS", "JH", "JD"]], "layoffs": [{"card": "2H", "meld": 0}, {"card": "6H", "meld": 0}],
                "deadwood_cards": ["5S", "4D"], "deadwood": 9}
        })),
        LayoffsErrors,
    )
)]
#[post("/v1/layoffs")]
pub async fn layoffs(
    body: ValidJson<LayoffsRequest>,
) -> Result<web::Json<LayoffsResponse>, HttpProblem> {
    Ok(web::Json(optimal_layoffs(body.into_inner())?))
}
gin_contract::problem_responses!(
    /// The error answers of `/v1/layoffs/batch`.
    LayoffsBatchErrors: [MalformedRequest, BatchTimeout, LineTooLong, UnsupportedMediaType, UnsupportedContentEncoding, MalformedJson, InvalidBody, PayloadTooLarge, Overloaded, TooManyLines, RequestTimeout]
);
/// The layoffs of many knocks.
#[utoipa::path(
    tag = "layoffs",
    summary = "Optimal layoffs of many knocks (NDJSON)",
    description = "The bulk form of `POST /v1/layoffs`: one `LayoffsRequest` per line \
(NDJSON, `application/x-ndjson`), optionally with an `id`; one `LayoffsBatchLine` per request \
line in the same order, streamed (`result` or `problem`; see `POST /v1/hands/analyze/batch` for \
the framing).",
    request_body(content = Vec<LayoffsRequestLine>, content_type = "application/x-ndjson",
        description = "NDJSON: one `LayoffsRequest` per line (each item of the schema is a line).",
        example = json!("{\"knocker\": {\"hand\": [\"3H\", \"4H\", \"5H\", \"9S\", \"9H\", \"9D\", \"3C\", \"4C\", \"5C\", \"AH\"]}, \"defender\": {\"hand\": [\"6H\", \"2H\", \"JS\", \"JH\", \"JD\", \"7S\", \"7H\", \"7C\", \"4D\", \"5S\"]}}\n")),
    responses(
        (status = 200, description = "NDJSON: one `LayoffsBatchLine` per request line (each item of the schema is a line).",
         content_type = "application/x-ndjson", body = Vec<LayoffsBatchLine>,
         example = json!("{\"line\":1,\"result\":{\"knocker\":{\"melds\":[[\"3H\",\"4H\",\"5H\"],[\"3C\",\"4C\",\"5C\"],[\"9S\",\"9H\",\"9D\"]],\"deadwood_cards\":[\"AH\"],\"deadwood\":1},\"defender\":{\"melds\":[[\"7S\",\"7H\",\"7C\"],[\"JS\",\"JH\",\"JD\"]],\"layoffs\":[{\"card\":\"2H\",\"meld\":0},{\"card\":\"6H\",\"meld\":0}],\"deadwood_cards\":[\"5S\",\"4D\"],\"deadwood\":9}}}\n")),
        LayoffsBatchErrors,
    )
)]
#[post("/v1/layoffs/batch")]
pub async fn layoffs_batch(
    request: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, HttpProblem> {
    bulk::respond(request, payload, "layoffs", |line: &[u8]| {
        optimal_layoffs(from_slice(line)?)
    })
    .await
}
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(layoffs).service(layoffs_batch);
}

batch_line_schema!(LayoffsBatchLine, LayoffsResponse);
request_line_schema!(LayoffsRequestLine, LayoffsRequest);
