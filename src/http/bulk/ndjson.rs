//! Bulk endpoints: NDJSON in, NDJSON out, streamed.
//!
//! `POST /v1/{resource}/batch` takes one request of the single endpoint per
//! line and answers one line per request line, in order:
//! `{"line": 3, "id": ..., "result": {...}}` with the single endpoint's answer,
//! or `{"line": 7, "problem": {...}}` with its problem document (pointers
//! relative to the line). A bad line never stops the rest. Blank lines are
//! skipped (no answer) but counted, so `line` is always the line's number in
//! the body, from 1.
//!
//! # Streaming and memory
//!
//! The body is read as it arrives and answers are written as they are ready.
//! What is held per batch here is one body chunk, at most one line
//! (`--batch-max-line-bytes`) and one chunk of answers: memory does not grow
//! with the body. The answer stream is polled by a task of its own, so that a
//! client that sends its whole body before it reads still gets every answer:
//! answers not yet read wait in [`super::spool`] (a little memory, then an
//! unlinked file), and past the spool's limits the server stops reading the
//! body until the client reads. A client that neither sends nor reads for
//! `--stall-timeout` is cut off.
//!
//! What a batch holds (its line, answer chunks and the spool's memory part)
//! is reserved in the process's memory budget before the first byte is
//! read ([`crate::http::admission::budget`]); without room within the wait, the batch is
//! answered 503 `overloaded`, unread, and the connection closes.
//!
//! A batch sent as `application/json` (a JSON array of lines) is answered
//! with the same line function by the JSON batch instead ([`super`]
//! chooses).
//!
//! # Framing
//!
//! Only `Content-Type: application/x-ndjson`, without a content coding (415
//! otherwise; `application/json` is a JSON array, see above). A line over `--batch-max-line-bytes`, more than
//! `--batch-max-lines` lines, or a batch running past `--batch-timeout` ends the
//! batch: when nothing has been answered yet, with that problem as the HTTP
//! answer (413, 413, 408); afterwards, with a last line `{"problem": {...}}`
//! that has no `line`, after which the stream ends.
//!
//! # Ids
//!
//! A line may carry `"id"` (any JSON value) beside the request's fields; it is
//! echoed on the answer and taken out before the request is read (the single
//! endpoints refuse unknown fields). Lines without `"id"` are read as they are.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use actix_web::http::header;
use actix_web::web::{Bytes, BytesMut};
use actix_web::{HttpRequest, HttpResponse, web};
use futures_core::Stream;

use crate::http::admission::auth::Throttle;
use crate::http::admission::budget;
use crate::http::admission::drain::{DrainBound, answer_then_drain};
use crate::http::admission::limits::BatchLimits;
use crate::http::json::BodyTimeout;
use crate::http::problem::{ErrorCode, Problem, ProblemResponse};
use crate::monitoring::metrics::Metrics;
pub use gin_contract::lines::{LineAnswer, Tally, answer_line};

/// The media type of a batch, in and out.
pub const NDJSON: &str = "application/x-ndjson";
/// Answers are handed to actix in chunks of about this size.
const OUT_CHUNK: usize = 32 * 1024;

/// Checks a batch request's framing headers: NDJSON, no content coding.
fn check_headers(request: &HttpRequest) -> Result<(), Problem> {
    let media = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or_default()
                .trim()
                .to_ascii_lowercase()
        });
    if media.as_deref() != Some(NDJSON) {
        return Err(Problem::new(
            ErrorCode::UnsupportedMediaType,
            format!(
                "a batch is sent as `Content-Type: {NDJSON}`, one request per line, \
                 or as `application/json`, an array of requests"
            ),
        ));
    }
    let coded = request
        .headers()
        .get(header::CONTENT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| !v.trim().eq_ignore_ascii_case("identity"));
    if coded {
        return Err(Problem::new(
            ErrorCode::UnsupportedContentEncoding,
            "a batch is read as it arrives, without a content coding",
        ));
    }
    Ok(())
}

/// Streams the answers of an NDJSON batch (see the module docs). `operation`
/// names the single endpoint for the metrics. The routes reach it through
/// [`super::respond`], which sends a JSON array elsewhere. A batch the
/// memory budget refuses is answered, then up to `drain_limit` bytes of its
/// body are read and dropped ([`crate::http::admission::drain`]).
pub async fn stream<A: LineAnswer + Unpin + 'static>(
    request: HttpRequest,
    payload: web::Payload,
    operation: &'static str,
    answer: A,
    throttle: Option<Throttle>,
    drain_limit: usize,
) -> Result<HttpResponse, Problem> {
    check_headers(&request)?;
    let limits = request
        .app_data::<BatchLimits>()
        .copied()
        .unwrap_or_default();
    let held = held(&limits);
    let reservation = match budget::reserve(budget::of(&request), held).await {
        Ok(reservation) => reservation,
        Err(problem) => {
            let within = request
                .app_data::<BodyTimeout>()
                .and_then(|timeout| timeout.0);
            let drain = DrainBound::of(&request, drain_limit, within);
            let refusal = problem.response_builder();
            return Ok(answer_then_drain(
                refusal,
                problem.body(),
                payload.into_inner(),
                drain,
            ));
        }
    };
    let metrics = request.app_data::<web::Data<Metrics>>().cloned();
    let mut lines = Lines::new(payload.into_inner(), answer, limits, operation, metrics);
    lines.throttle = throttle;
    // The first answer (or the first framing fault) before the status is
    // chosen: a batch refused at once gets a real HTTP status.
    let first = std::future::poll_fn(|cx| Pin::new(&mut lines).poll_next(cx)).await;
    let first = match first {
        Some(Err(problem)) => return Err(problem),
        Some(Ok(chunk)) => Some(chunk),
        None => None,
    };
    let body = Chain {
        head: Some(first),
        tail: lines,
    };
    // Answered whatever the client reads (see `spool`).
    let spool = request
        .app_data::<web::Data<super::spool::Spool>>()
        .cloned();
    Ok(HttpResponse::Ok()
        .content_type(NDJSON)
        .streaming(super::spool::spooled(body, spool, reservation)))
}

/// What one NDJSON batch holds in the memory budget, whatever its body: the
/// unfinished line (at most the line limit, plus the chunk it came in),
/// its answer chunks, and the spool's memory part.
fn held(limits: &BatchLimits) -> usize {
    let read_chunk = 64 * 1024;
    limits.line_bytes as usize + read_chunk + budget::STREAM_STATE + super::spool::MEMORY_HELD
}

/// The line reader and answer writer of one batch.
pub struct Lines<A: LineAnswer + Unpin> {
    payload: actix_web::dev::Payload,
    answer: A,
    limits: BatchLimits,
    operation: &'static str,
    metrics: Option<web::Data<Metrics>>,
    pending: BytesMut,
    /// Where the search for the next newline resumes in `pending`.
    scanned: usize,
    out: Vec<u8>,
    scratch: Vec<u8>,
    line: u64,
    tally: Tally,
    started: Instant,
    eof: bool,
    done: bool,
    answered: bool,
    /// The API key's pace: no line is read before the key's bucket has a
    /// token for it (back-pressure on the body, never a 429 mid-stream).
    throttle: Option<Throttle>,
    /// Whether the last poll stopped for the throttle.
    held: bool,
}

impl<A: LineAnswer + Unpin> Lines<A> {
    fn new(
        payload: actix_web::dev::Payload,
        answer: A,
        limits: BatchLimits,
        operation: &'static str,
        metrics: Option<web::Data<Metrics>>,
    ) -> Self {
        Lines {
            payload,
            answer,
            limits,
            operation,
            metrics,
            pending: BytesMut::new(),
            scanned: 0,
            out: Vec::with_capacity(OUT_CHUNK + 4096),
            scratch: Vec::new(),
            line: 0,
            tally: Tally::default(),
            started: Instant::now(),
            eof: false,
            done: false,
            answered: false,
            throttle: None,
            held: false,
        }
    }

    /// Whether the next line may be answered now (see [`Throttle`]); when
    /// not, the batch is woken when it may.
    fn may_answer(&mut self, cx: &mut Context<'_>) -> bool {
        let ready = match &mut self.throttle {
            Some(throttle) => throttle.poll_line(cx).is_ready(),
            None => true,
        };
        self.held = !ready;
        ready
    }

    /// Answers the complete lines in `pending`, until the output chunk is full.
    /// Lines are answered from slices of the buffer, which is cut once at the
    /// end (cutting it per line would cost two atomic operations a line).
    fn answer_pending(&mut self, cx: &mut Context<'_>) -> Result<(), Problem> {
        let pending = std::mem::take(&mut self.pending);
        let mut consumed = 0;
        let mut result = Ok(());
        while self.out.len() < OUT_CHUNK {
            let search_from = self.scanned.max(consumed);
            let Some(offset) =
                memchr::memchr(b'\n', pending.get(search_from..).unwrap_or_default())
            else {
                self.scanned = pending.len();
                break;
            };
            if !self.may_answer(cx) {
                break;
            }
            let end = search_from + offset;
            let line = pending.get(consumed..end).unwrap_or_default();
            consumed = end + 1;
            self.scanned = consumed;
            if let Err(problem) = self.next_line(line) {
                result = Err(problem);
                break;
            }
        }
        self.pending = pending;
        if consumed > 0 {
            let _ = self.pending.split_to(consumed.min(self.pending.len()));
            self.scanned = self.scanned.saturating_sub(consumed);
        }
        result
    }

    fn next_line(&mut self, bytes: &[u8]) -> Result<(), Problem> {
        self.line += 1;
        if self.line > self.limits.lines {
            return Err(Problem::new(
                ErrorCode::TooManyLines,
                format!("a batch has at most {} lines", self.limits.lines),
            ));
        }
        if bytes.len() > self.limits.line_bytes as usize {
            return Err(line_too_long(self.line, self.limits.line_bytes));
        }
        answer_line(
            &self.answer,
            self.line,
            bytes,
            &mut self.scratch,
            &mut self.out,
            &mut self.tally,
        );
        Ok(())
    }

    fn check_deadline(&self) -> Result<(), Problem> {
        let limit = Duration::from_secs(self.limits.timeout_secs);
        if self.started.elapsed() > limit {
            return Err(timed_out(self.limits.timeout_secs, self.line));
        }
        Ok(())
    }

    /// Ends the batch with a framing fault: the problem itself before any
    /// answer, a last `{"problem": ...}` line after.
    fn fault(&mut self, problem: Problem) -> Poll<Option<Result<Bytes, Problem>>> {
        self.done = true;
        self.record();
        if !self.answered && self.out.is_empty() {
            return Poll::Ready(Some(Err(problem)));
        }
        self.out.extend_from_slice(b"{\"problem\":");
        let _ = serde_json::to_writer(&mut self.out, &problem.to_document());
        self.out.extend_from_slice(b"}\n");
        Poll::Ready(Some(Ok(self.flush())))
    }

    /// Hands the answers written so far to actix, without copying them.
    fn flush(&mut self) -> Bytes {
        self.answered = true;
        let next = Vec::with_capacity(OUT_CHUNK + 4096);
        Bytes::from(std::mem::replace(&mut self.out, next))
    }

    /// Adds this batch's answers to the metrics (once, at the end).
    fn record(&mut self) {
        if let Some(metrics) = &self.metrics {
            metrics.count_batch_items(self.operation, self.tally.results, self.tally.problems);
        }
        self.tally = Tally::default();
    }

    fn poll_lines(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<Bytes, Problem>>> {
        use futures_core::Stream as _;
        loop {
            if self.done {
                return Poll::Ready(None);
            }
            if let Err(problem) = self.check_deadline().and_then(|()| self.answer_pending(cx)) {
                return self.fault(problem);
            }
            if self.out.len() >= OUT_CHUNK {
                return Poll::Ready(Some(Ok(self.flush())));
            }
            if self.held {
                // Nothing more is read until the key's pace allows a line.
                return match self.out.is_empty() {
                    true => Poll::Pending,
                    false => Poll::Ready(Some(Ok(self.flush()))),
                };
            }
            if self.eof {
                // A last line without a newline.
                if !self.pending.is_empty() {
                    if !self.may_answer(cx) {
                        return match self.out.is_empty() {
                            true => Poll::Pending,
                            false => Poll::Ready(Some(Ok(self.flush()))),
                        };
                    }
                    let last = self.pending.split();
                    if let Err(problem) = self.next_line(&last) {
                        return self.fault(problem);
                    }
                }
                self.done = true;
                self.record();
                return match self.out.is_empty() {
                    true => Poll::Ready(None),
                    false => Poll::Ready(Some(Ok(self.flush()))),
                };
            }
            match Pin::new(&mut self.payload).poll_next(cx) {
                Poll::Ready(Some(Ok(chunk))) => {
                    self.pending.extend_from_slice(&chunk);
                    // Only the unfinished line can be over the limit here:
                    // complete ones are checked as they are answered.
                    let unfinished = self.pending.len() - self.scanned.min(self.pending.len());
                    if unfinished > self.limits.line_bytes as usize
                        && memchr::memchr(b'\n', &chunk).is_none()
                    {
                        return self.fault(line_too_long(self.line + 1, self.limits.line_bytes));
                    }
                }
                Poll::Ready(Some(Err(error))) => {
                    self.done = true;
                    self.record();
                    return Poll::Ready(Some(Err(unreadable(&error.to_string()))));
                }
                Poll::Ready(None) => self.eof = true,
                Poll::Pending => {
                    // Hand over what is answered before waiting for input.
                    if !self.out.is_empty() {
                        return Poll::Ready(Some(Ok(self.flush())));
                    }
                    return Poll::Pending;
                }
            }
        }
    }
}

fn unreadable(why: &str) -> Problem {
    Problem::new(
        ErrorCode::MalformedRequest,
        format!("the body could not be read: {why}"),
    )
}

fn timed_out(limit_secs: u64, line: u64) -> Problem {
    Problem::new(
        ErrorCode::BatchTimeout,
        format!(
            "a batch must be answered within {limit_secs} s (--batch-timeout); lines after {line} were not read"
        ),
    )
}

fn line_too_long(line: u64, limit: u32) -> Problem {
    Problem::new(
        ErrorCode::LineTooLong,
        format!("line {line} is longer than {limit} bytes (--batch-max-line-bytes)"),
    )
}

impl<A: LineAnswer + Unpin> Stream for Lines<A> {
    type Item = Result<Bytes, Problem>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.get_mut().poll_lines(cx)
    }
}

/// The first chunk, answered before the response started, then the rest.
struct Chain<A: LineAnswer + Unpin> {
    head: Option<Option<Bytes>>,
    tail: Lines<A>,
}

impl<A: LineAnswer + Unpin> Stream for Chain<A> {
    type Item = Result<Bytes, actix_web::Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        match this.head.take() {
            Some(Some(chunk)) => return Poll::Ready(Some(Ok(chunk))),
            // The first poll ended the batch without any answer (an empty body).
            Some(None) => return Poll::Ready(None),
            None => {}
        }
        match Pin::new(&mut this.tail).poll_next(cx) {
            Poll::Ready(Some(Ok(chunk))) => Poll::Ready(Some(Ok(chunk))),
            // A fault after answers started is written as a last line by
            // `Lines::fault`; an unreadable body ends the stream.
            Poll::Ready(Some(Err(_)) | None) => Poll::Ready(None),
            Poll::Pending => Poll::Pending,
        }
    }
}

/// One answer line of a batch, for the OpenAPI document: `line`, the echoed
/// `id`, and `result` (the single endpoint's answer, `$answer`) or `problem`.
macro_rules! batch_line_schema {
    ($name:ident, $answer:ty) => {
        #[doc = "One answer line of a batch: the request line's number, its `id` if it had one, and the single endpoint's `result` or its `problem`."]
        #[derive(utoipa::ToSchema)]
        #[allow(dead_code)] // A schema only: lines are written by `ndjson::answer_line`.
        pub struct $name {
            /// The request line's number in the body, from 1.
            #[schema(example = 1)]
            line: u64,
            /// The request line's `id`, when it had one.
            #[schema(schema_with = crate::http::openapi::any_json)]
            id: Option<serde_json::Value>,
            /// The single endpoint's answer.
            #[schema(nullable = false)]
            result: Option<$answer>,
            /// The single endpoint's problem, pointers relative to the line.
            #[schema(nullable = false)]
            problem: Option<crate::http::problem::Problem>,
        }
    };
}
pub(crate) use batch_line_schema;

/// One request line of a batch, for the OpenAPI document: the single
/// endpoint's request (`$request`, closed as it is) with an optional `id`,
/// which the batch takes out before the request is read and echoes on the
/// answer.
macro_rules! request_line_schema {
    ($name:ident, $request:ty) => {
        #[doc = concat!("One request line of a batch: a `", stringify!($request), "` with an optional `id`.")]
        pub struct $name;
        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                use utoipa::openapi::RefOr;
                use utoipa::openapi::schema::Schema;
                let mut schema = <$request as utoipa::PartialSchema>::schema();
                if let RefOr::T(Schema::Object(object)) = &mut schema {
                    let mut id = crate::http::openapi::any_json();
                    id.description = Some(
                        "Any JSON value, echoed on this line's answer (and taken out before \
                         the request is read)."
                            .to_owned(),
                    );
                    object.properties.insert("id".to_owned(), id.into());
                    object.description = Some(format!(
                        "One request line of a batch: a `{}`, optionally with an `id`.",
                        stringify!($request)
                    ));
                    object.example = None;
                    object.examples = Vec::new();
                }
                schema
            }
        }
        impl utoipa::ToSchema for $name {
            fn name() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed(stringify!($name))
            }
            fn schemas(
                schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>,
            ) {
                <$request as utoipa::ToSchema>::schemas(schemas);
            }
        }
    };
}
pub(crate) use request_line_schema;

/// Examples of the batch problems, built by the constructors the server uses.
pub mod examples {
    use serde_json::Value;

    use super::{BatchLimits, check_headers, line_too_long};

    pub fn line_too_long_example() -> Value {
        serde_json::to_value(line_too_long(1, BatchLimits::default().line_bytes))
            .unwrap_or(Value::Null)
    }

    pub fn unreadable() -> Value {
        serde_json::to_value(super::unreadable("the client closed the connection"))
            .unwrap_or(Value::Null)
    }

    pub fn timeout() -> Value {
        serde_json::to_value(super::timed_out(BatchLimits::default().timeout_secs, 0))
            .unwrap_or(Value::Null)
    }

    pub fn not_ndjson() -> Value {
        let request = actix_web::test::TestRequest::default()
            .insert_header(("content-type", "application/json"))
            .to_http_request();
        serde_json::to_value(check_headers(&request).err()).unwrap_or(Value::Null)
    }
}
