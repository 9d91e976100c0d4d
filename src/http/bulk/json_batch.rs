//! Bulk endpoints for generated clients: a JSON array in, a JSON array out.
//!
//! Client generators (openapi-python-client, openapi-typescript, ...) give no
//! typed call for an NDJSON body. So the five `POST /v1/{resource}/batch`
//! paths also take `Content-Type: application/json`: an array of line objects,
//! each exactly what an NDJSON line would be (a request of the single
//! endpoint, with an optional `id`), answered `application/json` with an array
//! of the same answer objects, in order: `{"line": n, "id"?, "result"}` or
//! `{"line": n, "id"?, "problem"}`, `line` being the item's place in the
//! array, from 1. Every item is answered by the same function as its NDJSON
//! line ([`super::ndjson::answer_line`]), so both media types give the same answers.
//!
//! # Limits and faults
//!
//! The body is read whole, as the JSON operations read theirs (gzip or
//! deflate allowed, within the body timeout), up to `--batch-json-body-limit`
//! (default 16 MiB; 1 KiB to 256 MiB), and checked whole before the first
//! answer, so every fault is the answer's own status, never a line:
//!
//! | fault                                          | status | code                  |
//! |------------------------------------------------|--------|-----------------------|
//! | body over the limit (declared, sent, decoded)  | 413    | `payload_too_large`   |
//! | not JSON                                       | 400    | `malformed_json`      |
//! | JSON, but not an array                         | 400    | `invalid_body`        |
//! | more items than `--batch-max-lines`            | 413    | `too_many_lines`      |
//! | an item longer than `--batch-max-line-bytes`   | 413    | `line_too_long`       |
//! | body not all sent in time                      | 408    | `request_timeout`     |
//! | no room in the memory budget within its wait   | 503    | `overloaded`          |
//!
//! An item that is not a valid request (not an object, a bad card) gets its
//! `problem` in its answer, as an NDJSON line would. `--batch-timeout` does
//! not apply: the body limit bounds the work (16 MiB is about 200,000
//! analyses, a fraction of a second), and the answer is written as it is
//! read, so a client that stops reading is left to the stall guard.
//!
//! # Memory
//!
//! The body (at most the limit) is held until its last answer is written;
//! items are found by reading the array again item by item, not indexed, and
//! answers are written in chunks of about 32 KiB as the client reads them.
//! One batch holds the limit plus a chunk, whatever its answers' total size
//! (an answer may be many times its request: all arrangements, an audit).
//! Concurrent JSON batches together stay within the memory budget
//! ([`crate::http::admission::budget`]): each reserves its body (declared, or the limit) and
//! its answer chunks before reading a byte, and waits for room, or is refused
//! with 503 `overloaded`. NDJSON stays the way to send more, streamed,
//! without a size limit.

use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::web::{self, Bytes};
use actix_web::{HttpRequest, HttpResponse};
use clap::Args;
use futures_core::Stream;
use serde::de::{Deserialize, Deserializer, SeqAccess, Visitor};
use serde_json::value::RawValue;
use utoipa::openapi::{OpenApi, RefOr};

use super::ndjson::{LineAnswer, Tally, answer_line};
use crate::http::admission::auth::Throttle;
use crate::http::admission::budget::{self, Reservation};
use crate::http::admission::drain::{DrainBound, answer_then_drain, closing_with_unread};
use crate::http::admission::limits::BatchLimits;
use crate::http::json::body::{self, Coding};
use crate::http::json::{BodyTimeout, content_coding, read_problem, too_slow};
use crate::http::problem::ProblemResponse;
use crate::http::problem::{ErrorCode, Problem};
use crate::monitoring::metrics::Metrics;

/// The media type of a JSON batch, in and out.
pub const JSON: &str = "application/json";
/// `--batch-json-body-limit`'s default: 16 MiB.
pub const DEFAULT_BODY_LIMIT: usize = 16 * 1024 * 1024;
/// Answers are handed to actix in chunks of about this size.
const OUT_CHUNK: usize = 32 * 1024;
/// The batch paths, which take a JSON array as well as NDJSON.
pub const PATHS: [&str; 5] = [
    "/v1/hands/analyze/batch",
    "/v1/hands/score/batch",
    "/v1/melds/validate/batch",
    "/v1/layoffs/batch",
    "/v1/hands/audit/batch",
];

/// The body limit of a JSON batch (a flag).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Args)]
pub struct JsonBatchLimit {
    /// Largest body of a bulk request sent as a JSON array
    /// (`Content-Type: application/json`), in bytes (1024 to 268435456).
    #[arg(long = "batch-json-body-limit", env = "GIN_REFEREE_BATCH_JSON_BODY_LIMIT",
          value_name = "BYTES", default_value_t = DEFAULT_BODY_LIMIT,
          value_parser = parse_limit)]
    pub bytes: usize,
}

impl Default for JsonBatchLimit {
    fn default() -> Self {
        JsonBatchLimit {
            bytes: DEFAULT_BODY_LIMIT,
        }
    }
}

fn parse_limit(value: &str) -> Result<usize, String> {
    let bytes: usize = value
        .parse()
        .map_err(|_| "expected a number of bytes".to_owned())?;
    if !(1024..=256 * 1024 * 1024).contains(&bytes) {
        return Err(format!("{bytes} is not in 1024..=268435456 bytes"));
    }
    Ok(bytes)
}

/// Whether a batch request is a JSON array (`Content-Type: application/json`).
pub fn is_json(request: &HttpRequest) -> bool {
    request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|media| media.trim().eq_ignore_ascii_case(JSON))
}

/// Answers a JSON batch (see the module docs). `operation` names the single
/// endpoint for the metrics.
pub async fn respond<A: LineAnswer + Unpin + 'static>(
    request: HttpRequest,
    mut payload: Payload,
    operation: &'static str,
    answer: A,
    throttle: Option<Throttle>,
) -> Result<HttpResponse, Problem> {
    let limit = body_limit(&request);
    let batch = request
        .app_data::<BatchLimits>()
        .copied()
        .unwrap_or_default();
    let reservation = match budget::reserve(budget::of(&request), held(&request, limit)).await {
        Ok(reservation) => reservation,
        Err(problem) => {
            let drain = DrainBound::of(&request, limit, body_timeout(&request));
            let refusal = problem.response_builder();
            return Ok(answer_then_drain(refusal, problem.body(), payload, drain));
        }
    };
    let body = match read(&request, &mut payload, limit).await {
        Ok(body) => body,
        Err(problem) => return Ok(refuse_unread(&problem, payload)),
    };
    let items = check(&body, &batch)?;
    let metrics = request.app_data::<web::Data<Metrics>>().cloned();
    let answers = Answers {
        body: Bytes::from(body),
        at: 0,
        line: 0,
        items,
        answer,
        out: Vec::with_capacity(OUT_CHUNK + 4096),
        scratch: Vec::new(),
        tally: Tally::default(),
        operation,
        metrics,
        done: false,
        throttle,
        _memory: reservation,
    };
    Ok(HttpResponse::Ok().content_type(JSON).streaming(answers))
}

/// What a batch holds in the memory budget: its body (the declared length
/// of a body sent as is, else the limit it may inflate to; none for a body
/// declared over the limit, refused unread) and the answer chunks.
fn held(request: &HttpRequest, limit: usize) -> usize {
    let identity = matches!(
        Coding::from_headers(request.headers()),
        Ok(Coding::Identity)
    );
    let body = match declared_length(request) {
        Some(length) if length > limit as u64 => return 0,
        Some(length) if identity => usize::try_from(length).unwrap_or(limit),
        _ => limit,
    };
    body + budget::STREAM_STATE
}

fn declared_length(request: &HttpRequest) -> Option<u64> {
    request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok())
}

/// `--batch-json-body-limit`, as the server registered it.
pub fn body_limit(request: &HttpRequest) -> usize {
    request
        .app_data::<JsonBatchLimit>()
        .copied()
        .unwrap_or_default()
        .bytes
}

fn body_timeout(request: &HttpRequest) -> Option<std::time::Duration> {
    request
        .app_data::<BodyTimeout>()
        .and_then(|timeout| timeout.0)
}

/// Reads the whole body within `limit` bytes and the body timeout.
async fn read(
    request: &HttpRequest,
    payload: &mut Payload,
    limit: usize,
) -> Result<Vec<u8>, Problem> {
    let declared = declared_length(request);
    if declared.is_some_and(|length| length > limit as u64) {
        return Err(too_large(limit));
    }
    let coding = content_coding(request)?;
    let expected = declared.and_then(|length| usize::try_from(length).ok());
    let read = body::read(payload, coding, limit, expected);
    let deadline = body_timeout(request);
    let read = match deadline {
        Some(deadline) => actix_web::rt::time::timeout(deadline, read)
            .await
            .map_err(|_elapsed| too_slow(deadline))?,
        None => read.await,
    };
    read.map_err(|error| read_problem(error, || too_large(limit)))
}

fn too_large(limit: usize) -> Problem {
    Problem::new(
        ErrorCode::PayloadTooLarge,
        format!(
            "the body is larger than the limit of {limit} bytes (--batch-json-body-limit); \
             send more lines as NDJSON (application/x-ndjson), which has no size limit"
        ),
    )
}

/// A refusal before the whole body was read: the connection closes after it,
/// the unread body kept alive until then so that actix-http does not go on
/// reading it (as `json::BodyRejection` does for the JSON operations).
fn refuse_unread(problem: &Problem, unread: Payload) -> HttpResponse {
    closing_with_unread(problem.response_builder(), problem.body(), unread)
}

/// Checks the whole body before the first answer: a JSON array, within the
/// line limits. Returns the number of items.
fn check(body: &[u8], limits: &BatchLimits) -> Result<u64, Problem> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(Problem::new(
            ErrorCode::MalformedJson,
            "the body is empty; expected a JSON array of request lines",
        ));
    }
    let mut deserializer = serde_json::Deserializer::from_slice(body);
    let shape = Shape {
        limits,
        items: 0,
        fault: None,
    };
    let read = deserializer
        .deserialize_seq(shape)
        .and_then(|shape| deserializer.end().map(|()| shape));
    match read {
        Ok(Ok(items)) => Ok(items),
        Ok(Err(problem)) => Err(problem),
        // A shape fault is reported before a syntax fault further on: only a
        // body that is JSON throughout is `invalid_body`.
        Err(error) if error.is_data() && is_json_at_all(body) => Err(Problem::new(
            ErrorCode::InvalidBody,
            format!("a JSON batch is an array of request lines: {error}"),
        )
        .with_error(
            "",
            ErrorCode::InvalidType,
            "expected an array of request lines",
        )),
        Err(error) => {
            let syntax = serde_json::from_slice::<serde::de::IgnoredAny>(body).err();
            Err(Problem::new(
                ErrorCode::MalformedJson,
                format!("the body is not valid JSON: {}", syntax.unwrap_or(error)),
            ))
        }
    }
}

fn is_json_at_all(body: &[u8]) -> bool {
    serde_json::from_slice::<serde::de::IgnoredAny>(body).is_ok()
}

/// Reads the array's items as raw text, counting them and checking each
/// against the line limits; a fault stops the reading (the rest is skipped).
struct Shape<'l> {
    limits: &'l BatchLimits,
    items: u64,
    fault: Option<Problem>,
}

impl<'de> Visitor<'de> for Shape<'_> {
    type Value = Result<u64, Problem>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of request lines")
    }

    fn visit_seq<S: SeqAccess<'de>>(mut self, mut seq: S) -> Result<Self::Value, S::Error> {
        while let Some(item) = seq.next_element::<&'de RawValue>()? {
            self.items += 1;
            if self.fault.is_some() {
                continue;
            }
            if self.items > self.limits.lines {
                self.fault = Some(Problem::new(
                    ErrorCode::TooManyLines,
                    format!("a batch has at most {} lines", self.limits.lines),
                ));
            } else if item.get().len() > self.limits.line_bytes as usize {
                self.fault = Some(Problem::new(
                    ErrorCode::LineTooLong,
                    format!(
                        "item {} is longer than {} bytes (--batch-max-line-bytes)",
                        self.items, self.limits.line_bytes
                    ),
                ));
            }
        }
        Ok(match self.fault {
            Some(problem) => Err(problem),
            None => Ok(self.items),
        })
    }
}

/// The next item of the array from `at` (just after `[` or a `,`), and where
/// the reading goes on; `None` at the `]`. The body was checked whole, so any
/// other outcome is a bug, which ends the answer.
fn next_item(body: &[u8], at: usize) -> Option<(&[u8], usize)> {
    let rest = body.get(at..)?;
    let mut deserializer = serde_json::Deserializer::from_slice(rest);
    let item = <&RawValue>::deserialize(&mut deserializer).ok()?;
    let text = item.get().as_bytes();
    let start = (text.as_ptr() as usize).checked_sub(rest.as_ptr() as usize)?;
    let end = at + start + text.len();
    let after = body.get(end..)?;
    let separator = after.iter().position(|byte| !byte.is_ascii_whitespace())?;
    Some((text, end + separator + 1))
}

/// The answer array, written as the client reads it.
struct Answers<A> {
    body: Bytes,
    /// Where the next item begins (0: before the `[`).
    at: usize,
    line: u64,
    items: u64,
    answer: A,
    out: Vec<u8>,
    scratch: Vec<u8>,
    tally: Tally,
    operation: &'static str,
    metrics: Option<web::Data<Metrics>>,
    done: bool,
    /// The API key's pace, one token an item (see [`Throttle`]).
    throttle: Option<Throttle>,
    /// The batch's share of the memory budget, given back with the answer.
    _memory: Option<Reservation>,
}

impl<A: LineAnswer + Unpin> Answers<A> {
    fn fill(&mut self, cx: &mut Context<'_>) {
        if self.at == 0 {
            self.out.push(b'[');
            self.at = self
                .body
                .iter()
                .position(|&byte| byte == b'[')
                .map_or(self.body.len(), |at| at + 1);
        }
        while self.out.len() < OUT_CHUNK && self.line < self.items {
            if let Some(throttle) = &mut self.throttle
                && throttle.poll_line(cx).is_pending()
            {
                return;
            }
            let Some((item, next)) = next_item(&self.body, self.at) else {
                tracing::error!(
                    line = self.line + 1,
                    "a checked JSON batch could not be read again"
                );
                self.line = self.items;
                break;
            };
            self.line += 1;
            if self.line > 1 {
                self.out.push(b',');
            }
            answer_line(
                &self.answer,
                self.line,
                item,
                &mut self.scratch,
                &mut self.out,
                &mut self.tally,
            );
            self.at = next;
        }
        if self.line >= self.items {
            self.out.extend_from_slice(b"]\n");
            self.done = true;
            if let Some(metrics) = &self.metrics {
                metrics.count_batch_items(self.operation, self.tally.results, self.tally.problems);
            }
        }
    }
}

impl<A: LineAnswer + Unpin> Stream for Answers<A> {
    type Item = Result<Bytes, std::convert::Infallible>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.done {
            return Poll::Ready(None);
        }
        this.fill(cx);
        if this.out.is_empty() {
            // Held back by the key's pace; woken when a token is due.
            return Poll::Pending;
        }
        let next = Vec::with_capacity(OUT_CHUNK + 4096);
        Poll::Ready(Some(Ok(Bytes::from(std::mem::replace(
            &mut this.out,
            next,
        )))))
    }
}

/// Documents the JSON form of every batch path: its request body and its 200
/// answer gain an `application/json` entry with the NDJSON entry's schema (an
/// array of lines, `maxItems` included) and its example read as an array.
pub fn document(api: &mut OpenApi) {
    for path in PATHS {
        let Some(operation) = crate::http::openapi::post_operation(api, path) else {
            continue;
        };
        if let Some(RefOr::T(body)) = operation.request_body.as_mut()
            && let Some(content) = as_json(body.content.get(super::ndjson::NDJSON))
        {
            body.content.insert(JSON.to_owned(), content);
        }
        if let Some(RefOr::T(ok)) = operation.responses.responses.get_mut("200")
            && let Some(content) = as_json(ok.content.get(super::ndjson::NDJSON))
        {
            ok.description.push_str(
                " As `application/json`: one array of the same answer objects, in order.",
            );
            ok.content.insert(JSON.to_owned(), content);
        }
        if let Some(description) = operation.description.as_mut() {
            description.push_str(
                "\n\nThe body may also be `application/json`: an array of the same request \
objects (each as an NDJSON line would be), up to `--batch-json-body-limit` bytes (16 MiB by \
default), answered `application/json` with one array of the same answer objects, in order, \
`line` being the item's place in the array; for clients that generate their calls from this \
document. A client that sends its whole NDJSON body before it reads gets every answer too: \
answers not yet read wait in a spool (`--batch-spool-dir`, `--batch-spool-limit`), and a \
spool that fails ends the stream with a last line `{\"problem\": ...}` of code `spool_failed`.",
            );
        }
    }
}

/// An NDJSON content entry as its JSON twin: the same schema, the example's
/// lines as an array.
fn as_json(
    ndjson: Option<&RefOr<utoipa::openapi::content::Content>>,
) -> Option<RefOr<utoipa::openapi::content::Content>> {
    let RefOr::T(ndjson) = ndjson? else {
        return None;
    };
    let mut content = ndjson.clone();
    if let Some(serde_json::Value::String(lines)) = &content.example {
        let items: Vec<serde_json::Value> = lines
            .lines()
            .filter(|line| !line.trim().is_empty())
            .filter_map(|line| serde_json::from_str(line).ok())
            .collect();
        content.example = Some(serde_json::Value::Array(items));
    }
    Some(RefOr::T(content))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> BatchLimits {
        BatchLimits {
            line_bytes: 1024,
            lines: 3,
            timeout_secs: 60,
        }
    }

    #[test]
    fn items_are_found_again_one_by_one_whatever_the_spacing() {
        let body = br#" [ {"a": [1, 2]} ,"x", 3 ,{"b":{}}]"#;
        assert_eq!(
            check(body, &limits()).map_err(|p| p.code),
            Err(ErrorCode::TooManyLines)
        );
        let mut at = body.iter().position(|&b| b == b'[').unwrap() + 1;
        let mut items = Vec::new();
        while let Some((item, next)) = next_item(body, at) {
            items.push(String::from_utf8_lossy(item).into_owned());
            at = next;
            if body[..at].ends_with(b"]") {
                break;
            }
        }
        assert_eq!(items, [r#"{"a": [1, 2]}"#, r#""x""#, "3", r#"{"b":{}}"#]);
    }

    #[test]
    fn a_body_that_is_not_an_array_of_lines_is_refused_whole() {
        let code = |body: &[u8]| check(body, &limits()).map_err(|p| p.code);
        assert_eq!(code(b"[]"), Ok(0));
        assert_eq!(code(b"[{}, 1]"), Ok(2));
        assert_eq!(code(b"  "), Err(ErrorCode::MalformedJson));
        assert_eq!(code(b"[{}"), Err(ErrorCode::MalformedJson));
        assert_eq!(code(b"[{}] x"), Err(ErrorCode::MalformedJson));
        assert_eq!(code(b"{"), Err(ErrorCode::MalformedJson));
        assert_eq!(code(br#"{"a": 1"#), Err(ErrorCode::MalformedJson));
        assert_eq!(code(br#"{"hand": []}"#), Err(ErrorCode::InvalidBody));
        assert_eq!(code(b"7"), Err(ErrorCode::InvalidBody));
        let long = format!("[{{\"id\": \"{}\"}}]", "x".repeat(1100));
        assert_eq!(code(long.as_bytes()), Err(ErrorCode::LineTooLong));
    }
}
