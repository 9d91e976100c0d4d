//! The bulk endpoints: `POST /v1/{resource}/batch`, one request of the
//! single endpoint per line.
//!
//! [`respond`] is their one entry: a batch is answered by its content type,
//! as a JSON array ([`json_batch`], `application/json`) or as NDJSON lines
//! streamed ([`ndjson`], the default), with the same line function either
//! way. Both answer from [`ndjson`]'s line engine ([`LineAnswer`],
//! [`ndjson::answer_line`]); this module is the only one that knows both.
//! Answers an NDJSON client has not read yet wait in [`spool`].

use actix_web::{HttpRequest, HttpResponse, web};

pub mod json_batch;
pub mod ndjson;
pub mod spool;

use ndjson::LineAnswer;

use crate::http::admission::auth::Throttle;
use crate::http::problem::HttpProblem;

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
