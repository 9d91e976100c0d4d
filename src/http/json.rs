//! `ValidJson<T>`: the JSON body extractor every resource handler uses.
//!
//! It differs from `actix_web::web::Json` in what a client sees when the body is
//! wrong: every failure is a [`Problem`] with a stable code, and shape errors
//! carry a JSON Pointer to the offending value (`/knocker/hand/3`), found by
//! deserialising through `serde_path_to_error`.
//!
//! | failure                                             | status | code                           | connection |
//! |-----------------------------------------------------|--------|--------------------------------|------------|
//! | `Content-Type` present but not JSON                 | 415    | `unsupported_media_type`       | closed     |
//! | `Content-Encoding` not one of gzip, deflate         | 415    | `unsupported_content_encoding` | closed     |
//! | body over the limit (declared, sent, or decoded)    | 413    | `payload_too_large`            | closed     |
//! | decoded past 100x its encoded size (after 64 KiB)   | 413    | `payload_too_large`            | closed     |
//! | no room in the memory budget within its wait        | 503    | `overloaded`                   | drained    |
//! | declared length larger than the whole memory budget | 413    | `payload_too_large`            | drained    |
//! | body not all sent within the time limit             | 408    | `request_timeout`              | closed     |
//! | body cut short, or its gzip/deflate data corrupt    | 400    | `malformed_json`               | closed     |
//! | not JSON (syntax, empty, trailing bytes)            | 400    | `malformed_json`               | kept       |
//! | JSON, wrong shape or unparseable value              | 400    | `invalid_body`                 | kept       |
//!
//! Before the first byte is read, the body's room is reserved in the
//! process's memory budget ([`super::budget`]): its declared length, or the
//! limit when it declares none or is encoded. The reservation stays with the
//! request and then with its answer until the answer is written.
//!
//! A request *without* `Content-Type` is read as JSON: curl users and quick
//! scripts often omit it, and the body decides anyway. `application/json` and any
//! `application/*+json` are accepted, whatever their parameters. How encoded
//! bodies are read, and what that may cost, is in [`body`].
//!
//! **A refusal before the whole body is read ends the connection.** The answer
//! says `Connection: close`, the server reads and discards what the client
//! still sends for `--client-disconnect-timeout` (so the client reads the
//! answer rather than a reset), then closes. Without this, actix-http would
//! keep reading the rest of a chunked body to reuse the connection, with no
//! time limit: a client that stopped sending held the connection for ever.
//! The unread payload travels with the answer ([`BodyRejection`]): while it
//! is alive, actix-http sees a body the handler did not finish and closes.
//! A refusal by the memory budget ("drained" above) goes further: after its
//! answer the body is read to its end and dropped, within the body's limit
//! and time, so that a client still sending a large body reads its 503 rather
//! than a reset ([`super::drain`]); then the connection closes.
//!
//! **Numbers.** JSON Schema's `integer` includes `3.0` and `3e2`, so integers
//! spelt so are accepted as the integers they are (decided on the decimal
//! text, see `json/numbers.rs`); any other number where an integer belongs (`0.5`,
//! `1e-400`, `1e30`) is `invalid_body` with its pointer, and so is a number
//! beyond the range of a double (`1e400`), which serde_json would otherwise
//! report as a syntax error.
//!
//! utoipa cannot see through this type, so each operation declares its body with
//! `request_body(content = T, example = ...)` and lists the codes this type
//! answers with (`malformed_json`, `invalid_body`, `payload_too_large`,
//! `unsupported_media_type`, `unsupported_content_encoding`,
//! `request_timeout`) in its [`problem_responses!`](gin_contract::problem_responses).

use std::cell::RefCell;
use std::fmt;
use std::future::Future;
use std::ops::{Deref, DerefMut};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::body::{BodySize, BoxBody, MessageBody};
use actix_web::dev::Payload;
use actix_web::error::{JsonPayloadError, PathError, PayloadError};
use actix_web::http::StatusCode;
use actix_web::http::header;
use actix_web::web::Bytes;
use actix_web::{
    FromRequest, HttpMessage, HttpRequest, HttpResponse, HttpResponseBuilder, ResponseError, web,
};
use serde::de::DeserializeOwned;

use super::accept::{self, Offers};
use super::budget;
use super::drain::{DrainBound, answer_then_drain};
use super::problem::{ErrorCode, Problem};
use super::problem::{HttpProblem, ProblemResponse};
use gin_contract::json::{from_slice, json_error, too_large};

pub mod body;

use body::{Coding, ReadError, UnsupportedCoding};

/// Default request-body limit, 64 KiB: the largest legal request (a whole hand
/// transcript for `/v1/hands/audit`) is a few KiB, so this leaves ample room.
/// Also the limit of a body read where the server registered none.
pub const DEFAULT_BODY_LIMIT: usize = 64 * 1024;

/// The request-body limit in bytes, registered as app data by the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyLimit(pub usize);

/// Routes with a body limit of their own (a whole match's record is larger
/// than any other request), by path, registered as app data. Only routes
/// without path parameters: the request's path is compared as it is, which
/// costs nothing, where the matched pattern would be a new string per request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RouteBodyLimits(pub Vec<(&'static str, usize)>);

impl RouteBodyLimits {
    fn for_path(&self, path: &str) -> Option<usize> {
        self.0
            .iter()
            .find(|(route, _)| *route == path)
            .map(|&(_, limit)| limit)
    }
}

/// How long a client has to send the whole body once the handler starts
/// reading it (`None`: no limit), registered as app data by the server.
///
/// actix-http's `client_request_timeout` covers the request head only: a client
/// that sends its headers and then stalls or dribbles the body would otherwise
/// hold a connection and a pending request for ever.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyTimeout(pub Option<Duration>);

/// A JSON request body, deserialised into `T` or rejected with a [`Problem`].
///
/// Give `T` `#[serde(deny_unknown_fields)]` so that misspelt fields are reported
/// rather than silently ignored. The body as received (after any content
/// coding) is kept for a signed receipt, which digests it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidJson<T>(pub T, Vec<u8>);

impl<T> ValidJson<T> {
    pub fn into_inner(self) -> T {
        self.0
    }

    /// The value and the body it was read from.
    pub fn into_parts(self) -> (T, Vec<u8>) {
        (self.0, self.1)
    }
}

impl<T> Deref for ValidJson<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> DerefMut for ValidJson<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

/// 406 before the body is read when the request's `Accept` takes nothing the
/// operation answers (JSON, and for the picture routes an SVG or a page too).
fn acceptable(req: &HttpRequest) -> Result<(), Problem> {
    let offers = if accept::PICTURE_ROUTES.contains(&req.path()) {
        Offers::JsonAndPictures
    } else {
        Offers::JsonOnly
    };
    accept::negotiate(req.headers(), offers).map(|_| ())
}

/// The body limit of a JSON request to `req`'s route: the route's own
/// (the match audit's), else the server's `--body-limit`.
pub(crate) fn body_limit(req: &HttpRequest) -> usize {
    let own_limit = req
        .app_data::<RouteBodyLimits>()
        .and_then(|routes| routes.for_path(req.path()));
    own_limit.unwrap_or_else(|| {
        req.app_data::<BodyLimit>()
            .map_or(DEFAULT_BODY_LIMIT, |limit| limit.0)
    })
}

impl<T: DeserializeOwned + 'static> FromRequest for ValidJson<T> {
    type Error = BodyRejection;
    type Future = Pin<Box<dyn Future<Output = Result<Self, BodyRejection>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let limit = body_limit(req);
        // Checked before reading so that a refused body is never read at all.
        let coding = check_content_type(req)
            .and_then(|()| acceptable(req))
            .and_then(|()| check_declared_length(req, limit))
            .and_then(|declared| Ok((content_coding(req)?, declared)));
        let deadline = req.app_data::<BodyTimeout>().and_then(|timeout| timeout.0);
        let mut payload = payload.take();
        let (request, memory) = (req.clone(), budget::of(req));
        Box::pin(async move {
            let (coding, declared) = match coding {
                Ok(found) => found,
                Err(problem) => return Err(BodyRejection::unread(problem, payload)),
            };
            // Room for the body before its first byte is read (an encoded
            // body may inflate up to the limit).
            let held = match coding {
                Coding::Identity => declared.unwrap_or(limit),
                Coding::Gzip | Coding::Deflate => limit,
            };
            let reservation = match budget::reserve(memory, held).await {
                Ok(reservation) => reservation,
                Err(problem) => {
                    let drain = DrainBound::of(&request, limit, deadline);
                    return Err(BodyRejection::drained(problem, payload, drain));
                }
            };
            budget::keep_with_request(&request, reservation);
            let read = body::read(&mut payload, coding, limit, declared);
            let read = match deadline {
                Some(deadline) => match actix_web::rt::time::timeout(deadline, read).await {
                    Ok(read) => read.map_err(|err| read_problem(err, limit)),
                    Err(_elapsed) => Err(too_slow(deadline)),
                },
                None => read.await.map_err(|err| read_problem(err, limit)),
            };
            match read {
                Ok(body) => from_slice(&body)
                    .map(|value| ValidJson(value, body))
                    .map_err(BodyRejection::read),
                Err(problem) => Err(BodyRejection::unread(problem, payload)),
            }
        })
    }
}

/// Why [`ValidJson`] refused a request: the problem, and the part of the body
/// it did not read, if any. Its response carries the unread payload until the
/// answer is written, which makes actix-http close the connection then
/// (see the module docs).
pub struct BodyRejection {
    problem: Problem,
    /// Taken when the response is made (once: the error is rendered once).
    unread: RefCell<Option<Payload>>,
    /// Read and dropped after the answer (a refusal by the memory budget).
    drain: Option<DrainBound>,
}

impl BodyRejection {
    /// The body was read whole: the connection can serve the next request.
    fn read(problem: Problem) -> Self {
        BodyRejection {
            problem,
            unread: RefCell::new(None),
            drain: None,
        }
    }

    /// Refused before the end of the body: the connection ends with the answer.
    fn unread(problem: Problem, payload: Payload) -> Self {
        BodyRejection {
            problem,
            unread: RefCell::new(Some(payload)),
            drain: None,
        }
    }

    /// Refused before any of the body was read, for want of memory: the
    /// answer, then the body read and dropped within `drain` (see
    /// [`super::drain`]), then the connection ends.
    fn drained(problem: Problem, payload: Payload, drain: DrainBound) -> Self {
        BodyRejection {
            problem,
            unread: RefCell::new(Some(payload)),
            drain: Some(drain),
        }
    }

    pub fn problem(&self) -> &Problem {
        &self.problem
    }
}

impl fmt::Debug for BodyRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BodyRejection")
            .field("problem", &self.problem)
            .field("unread", &self.unread.borrow().is_some())
            .finish()
    }
}

impl fmt::Display for BodyRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.problem, f)
    }
}

impl ResponseError for BodyRejection {
    fn status_code(&self) -> StatusCode {
        self.problem.status
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = self.problem.response_builder();
        if self.problem.code == ErrorCode::UnsupportedContentEncoding {
            // RFC 9110 §12.5.3: what the server would have accepted.
            response.insert_header((header::ACCEPT_ENCODING, body::SUPPORTED_CODINGS));
        }
        let Some(unread) = self.unread.borrow_mut().take() else {
            return response.body(self.problem.body());
        };
        match self.drain {
            Some(drain) => answer_then_drain(response, self.problem.body(), unread, drain),
            None => closing_with_unread(response, self.problem.body(), unread),
        }
    }
}

/// `answer`, after which the connection closes, the request's unread payload
/// kept alive until the answer is written (see [`WithUnreadBody`]): the way
/// to refuse a body that has not been read to its end.
pub(crate) fn closing_with_unread(
    mut response: HttpResponseBuilder,
    answer: impl Into<Bytes>,
    unread: Payload,
) -> HttpResponse {
    response.force_close();
    response.body(BoxBody::new(WithUnreadBody {
        answer: Some(answer.into()),
        _unread: unread,
    }))
}

/// An answer body that keeps the request's unread payload alive until the
/// answer has been written. actix-http decides whether to close a connection
/// when it finishes writing an answer: a request payload neither finished nor
/// dropped means "close"; a dropped one, of a chunked body, means "read the
/// rest first" (with no time limit).
struct WithUnreadBody {
    answer: Option<Bytes>,
    _unread: Payload,
}

impl MessageBody for WithUnreadBody {
    type Error = std::convert::Infallible;

    fn size(&self) -> BodySize {
        BodySize::Sized(self.answer.as_ref().map_or(0, |answer| answer.len() as u64))
    }

    fn poll_next(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Bytes, Self::Error>>> {
        Poll::Ready(self.answer.take().map(Ok))
    }
}

fn check_content_type(req: &HttpRequest) -> Result<(), Problem> {
    let Some(value) = req.headers().get(header::CONTENT_TYPE) else {
        return Ok(());
    };
    // What nearly every client sends, accepted without parsing a media type.
    if value.as_bytes().eq_ignore_ascii_case(b"application/json") {
        return Ok(());
    }
    let raw = value.to_str().unwrap_or("(unreadable)");
    match req.mime_type() {
        Ok(Some(mime))
            if mime.type_() == "application"
                && (mime.subtype() == "json" || mime.suffix().is_some_and(|s| s == "json")) =>
        {
            Ok(())
        }
        _ => Err(unsupported_media_type(raw)),
    }
}

/// The declared length (within the limit), or 413 when it is over the limit.
fn check_declared_length(req: &HttpRequest, limit: usize) -> Result<Option<usize>, Problem> {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    match declared {
        Some(length) if length > limit as u64 => Err(too_large(limit)),
        Some(length) => Ok(usize::try_from(length).ok()),
        None => Ok(None),
    }
}

fn content_coding(req: &HttpRequest) -> Result<Coding, Problem> {
    Coding::from_headers(req.headers()).map_err(|UnsupportedCoding(named)| {
        Problem::new(
            ErrorCode::UnsupportedContentEncoding,
            format!(
                "Content-Encoding {named} is not supported: send the body as is, \
                 or in one of {} (one coding, not stacked)",
                body::SUPPORTED_CODINGS
            ),
        )
    })
}

fn unsupported_media_type(content_type: &str) -> Problem {
    // `curl -d` sends this type unless told otherwise: say how to fix it.
    let hint = if content_type.starts_with("application/x-www-form-urlencoded") {
        " (with curl, add -H 'content-type: application/json')"
    } else {
        ""
    };
    Problem::new(
        ErrorCode::UnsupportedMediaType,
        format!("expected Content-Type application/json, got {content_type}{hint}"),
    )
}

/// The body did not arrive in time. The connection is closed after this
/// answer (see the module docs).
fn too_slow(deadline: Duration) -> Problem {
    Problem::new(
        ErrorCode::RequestTimeout,
        format!("the body did not arrive within {} ms", deadline.as_millis()),
    )
}

/// The body stream failed: the client went away mid-body, or sent a compressed
/// body that does not decompress. Either way it did not send JSON.
fn unreadable(err: &(dyn std::error::Error + 'static)) -> Problem {
    Problem::new(
        ErrorCode::MalformedJson,
        format!("the body could not be read: {err}"),
    )
}

fn read_problem(err: ReadError, limit: usize) -> Problem {
    match err {
        ReadError::TooLarge => too_large(limit),
        ReadError::TooInflated { encoded } => Problem::new(
            ErrorCode::PayloadTooLarge,
            format!(
                "the body inflates to more than {} times its {encoded} encoded bytes",
                body::MAX_INFLATION_RATIO
            ),
        ),
        ReadError::Corrupt(err) => Problem::new(
            ErrorCode::MalformedJson,
            format!("the body could not be decoded: {err}"),
        ),
        ReadError::Payload(err) => unreadable(&err),
    }
}

/// `web::Json` is not meant to be used (use [`ValidJson`]), but if it is, its
/// failures still come out as problems.
pub fn json_config(limit: usize) -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(limit)
        .error_handler(move |err, _req| {
            HttpProblem(match err {
                JsonPayloadError::OverflowKnownLength { limit, .. }
                | JsonPayloadError::Overflow { limit } => too_large(limit),
                JsonPayloadError::ContentType => unsupported_media_type("a non-JSON type"),
                JsonPayloadError::Deserialize(err) => json_error(&err, None),
                JsonPayloadError::Payload(PayloadError::Overflow) => too_large(limit),
                other => unreadable(&other),
            })
            .into()
        })
}

/// A path segment that does not parse into the handler's type names no
/// resource: 404, like any other path that matches nothing.
pub fn path_config() -> web::PathConfig {
    web::PathConfig::default().error_handler(|err: PathError, req| {
        HttpProblem(
            Problem::new(
                ErrorCode::NotFound,
                format!("no resource at {}: {err}", req.path()),
            )
            .with_instance(req.path()),
        )
        .into()
    })
}
