//! The bulk endpoints' one entry: a batch is answered by its content type,
//! as a JSON array ([`super::json_batch`], `application/json`) or as NDJSON
//! lines streamed ([`super::ndjson`], the default), with the same line
//! function either way. Both answer from [`super::ndjson`]'s line engine
//! ([`LineAnswer`], [`super::ndjson::answer_line`]); this module is the only
//! one that knows both.

use actix_web::{HttpRequest, HttpResponse, web};

use super::auth::Throttle;
use super::json_batch;
use super::ndjson::{self, LineAnswer};
use super::problem::HttpProblem;

/// Answers a batch (see the module docs). `operation` names the single
/// endpoint for the metrics.
pub async fn respond<A: LineAnswer + Unpin + 'static>(
    request: HttpRequest,
    payload: web::Payload,
    operation: &'static str,
    answer: A,
) -> Result<HttpResponse, HttpProblem> {
    // The key's pace, one token a line, and its concurrency slot, held by
    // the answer stream until the last answer is written.
    let throttle = Throttle::of(&request);
    if json_batch::is_json(&request) {
        let payload = payload.into_inner();
        return Ok(json_batch::respond(request, payload, operation, answer, throttle).await?);
    }
    // A refused NDJSON batch is drained up to the JSON array's limit: the
    // most a client may send as one body before it reads (one that sends
    // more NDJSON than that before reading should read as it sends).
    let drain_limit = json_batch::body_limit(&request);
    Ok(ndjson::stream(request, payload, operation, answer, throttle, drain_limit).await?)
}
