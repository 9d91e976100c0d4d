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
//! | body not all sent within the time limit             | 408    | `request_timeout`              | closed     |
//! | body cut short, or its gzip/deflate data corrupt    | 400    | `malformed_json`               | closed     |
//! | not JSON (syntax, empty, trailing bytes)            | 400    | `malformed_json`               | kept       |
//! | JSON, wrong shape or unparseable value              | 400    | `invalid_body`                 | kept       |
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
//! `request_timeout`) in its [`problem_responses!`](crate::problem_responses).

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
use serde_path_to_error::Segment;

use super::problem::{ErrorCode, Problem};

pub mod body;
mod numbers;

use body::{Coding, ReadError, UnsupportedCoding};

/// Reads an optional request field that the schema says is not nullable:
/// absent is `None` (with `#[serde(default)]`), and `null` is refused like any
/// other value of the wrong type.
pub fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}

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

impl<T: DeserializeOwned + 'static> FromRequest for ValidJson<T> {
    type Error = BodyRejection;
    type Future = Pin<Box<dyn Future<Output = Result<Self, BodyRejection>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let own_limit = req
            .app_data::<RouteBodyLimits>()
            .and_then(|routes| routes.for_path(req.path()));
        let limit = own_limit.unwrap_or_else(|| {
            req.app_data::<BodyLimit>()
                .map_or(DEFAULT_BODY_LIMIT, |limit| limit.0)
        });
        // Checked before reading so that a refused body is never read at all.
        let coding = check_content_type(req)
            .and_then(|()| check_declared_length(req, limit))
            .and_then(|declared| Ok((content_coding(req)?, declared)));
        let deadline = req.app_data::<BodyTimeout>().and_then(|timeout| timeout.0);
        let mut payload = payload.take();
        Box::pin(async move {
            let (coding, declared) = match coding {
                Ok(found) => found,
                Err(problem) => return Err(BodyRejection::unread(problem, payload)),
            };
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
}

impl BodyRejection {
    /// The body was read whole: the connection can serve the next request.
    fn read(problem: Problem) -> Self {
        BodyRejection {
            problem,
            unread: RefCell::new(None),
        }
    }

    /// Refused before the end of the body: the connection ends with the answer.
    fn unread(problem: Problem, payload: Payload) -> Self {
        BodyRejection {
            problem,
            unread: RefCell::new(Some(payload)),
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
        closing_with_unread(response, self.problem.body(), unread)
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

/// Deserialises a whole JSON document, mapping every failure to a [`Problem`].
pub fn from_slice<T: DeserializeOwned>(body: &[u8]) -> Result<T, Problem> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(Problem::new(
            ErrorCode::MalformedJson,
            "the body is empty; expected a JSON document",
        ));
    }
    // Integers spelt `3.0` or `3e2` are respelt `3` and `300` for serde. Only
    // bodies with a `.` or an exponent are scanned, so the common case pays
    // nothing.
    let respelt = may_spell_integers_as_floats(body)
        .then(|| numbers::respell_integers(body))
        .flatten();
    let body = respelt.as_deref().unwrap_or(body);
    // The common case, a valid body, is read once without tracking the path
    // (serde_path_to_error allocates a String per object key it passes). Only a
    // body that fails is read again, with the path tracker, to point at the
    // fault: deserialisation is deterministic, so the second pass fails alike.
    let mut deserializer = serde_json::Deserializer::from_slice(body);
    if let Ok(value) = T::deserialize(&mut deserializer)
        && deserializer.end().is_ok()
        && !is_array(body)
    {
        return Ok(value);
    }
    from_slice_tracked(body)
}

/// Whether the document is an array. Every request is an object, but serde
/// also reads a struct from an array of its fields in order (`[[], []]` as
/// `{"melds": [], "hand": []}`), which no schema allows.
fn is_array(body: &[u8]) -> bool {
    body.iter().find(|byte| !byte.is_ascii_whitespace()) == Some(&b'[')
}

/// [`from_slice`]'s typed pass with the path tracked, for the pointer of a fault.
pub fn from_slice_tracked<T: DeserializeOwned>(body: &[u8]) -> Result<T, Problem> {
    let mut deserializer = serde_json::Deserializer::from_slice(body);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|err| {
        let problem = syntax_error_first(body, err);
        unknown_base_preset(body, &problem).unwrap_or(problem)
    })?;
    // Trailing bytes after the document (`{} {}`) mean the client sent something
    // other than what it thinks it sent.
    deserializer.end().map_err(|err| json_error(&err, None))?;
    if is_array(body) {
        return Err(shape_error(
            "invalid type: an array, expected an object".to_owned(),
            String::new(),
        ));
    }
    Ok(value)
}

/// Whether the body may hold a number with a fraction or an exponent: a `.`,
/// or an `e`/`E` right after a digit. Strings can trip it too; that only costs
/// the slower, equally correct path.
pub fn may_spell_integers_as_floats(body: &[u8]) -> bool {
    // memchr finds the few candidate bytes; most bodies (card lists, names)
    // have a `.` nowhere and an `e` only inside words.
    memchr::memchr3_iter(b'.', b'e', b'E', body).any(|at| {
        let byte = body.get(at).copied();
        let before = at.checked_sub(1).and_then(|i| body.get(i));
        byte == Some(b'.') || before.is_some_and(u8::is_ascii_digit)
    })
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

fn too_large(limit: usize) -> Problem {
    Problem::new(
        ErrorCode::PayloadTooLarge,
        format!("the body is larger than the limit of {limit} bytes"),
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

/// Whether the body is JSON at all decides between `malformed_json` and
/// `invalid_body`, and the typed pass alone cannot tell: it reads the body as a
/// stream and stops at the first fault. A shape fault early in a body that is
/// not JSON further on (cut short, a broken string) must not become
/// `invalid_body` with a pointer into a document that does not exist; and
/// serde_json reports some shape faults in valid JSON as syntax errors (`null`
/// or a number where an enum's string belongs: "expected value"), which must
/// not become `malformed_json`. So on the error path only, the whole body is
/// parsed once more to decide. Both cases were found by the body fuzzer
/// (`tests/api/fuzz.rs`).
///
/// A number beyond the range of a double (`1e400`) is valid JSON, but
/// serde_json calls it a syntax error: such a body counts as JSON when it
/// parses with those numbers replaced, and the number is then an invalid
/// value at its pointer.
fn syntax_error_first(body: &[u8], err: serde_path_to_error::Error<serde_json::Error>) -> Problem {
    if let Err(syntax) = serde_json::from_slice::<serde_json::Value>(body) {
        let json_but_for_range = is_out_of_range(&syntax)
            && numbers::zero_out_of_range(body)
                .is_some_and(|zeroed| serde_json::from_slice::<serde_json::Value>(&zeroed).is_ok());
        if !json_but_for_range {
            return json_error(&syntax, None);
        }
    }
    let pointer = json_pointer(err.path());
    if is_out_of_range(err.inner()) {
        let message = "invalid value: a number beyond the range of a double (about 1.8e308)";
        return shape_error(message.to_owned(), pointer);
    }
    if !err.inner().is_data() {
        let message = format!(
            "invalid type: expected one of the documented values ({})",
            without_position(err.inner())
        );
        return shape_error(message, pointer);
    }
    path_error(err)
}

/// serde_json's error for a number it cannot hold in a double.
fn is_out_of_range(err: &serde_json::Error) -> bool {
    !err.is_data() && err.to_string().starts_with("number out of range")
}

fn path_error(err: serde_path_to_error::Error<serde_json::Error>) -> Problem {
    let pointer = json_pointer(err.path());
    json_error(err.inner(), Some(pointer))
}

/// `{"profile": {"base": "okla"}}` names a preset that does not exist, just as
/// `{"profile": "okla"}` does: the same 400 `unknown_profile`, pointing at the
/// name, rather than serde's `unknown variant` for the enum it reads `base` into.
/// Only a string there is a name (serde words an object alike).
fn unknown_base_preset(body: &[u8], problem: &Problem) -> Option<Problem> {
    let fault = problem.errors.first()?;
    if fault.pointer != "/profile/base" || fault.code != "unknown_variant" {
        return None;
    }
    let document: serde_json::Value = serde_json::from_slice(body).ok()?;
    let name = document.pointer("/profile/base")?.as_str()?;
    let error = gin_rules::ProfileError::UnknownPreset(name.to_owned());
    let detail = error.to_string();
    Some(Problem::new(ErrorCode::UnknownProfile, &detail).with_error(
        "/profile/base",
        ErrorCode::UnknownProfile,
        detail,
    ))
}

/// Maps a serde_json error: syntax problems are `malformed_json`, shape problems
/// `invalid_body` with a pointer (when the path is known).
fn json_error(err: &serde_json::Error, pointer: Option<String>) -> Problem {
    let message = name_non_integers(without_position(err));
    if !err.is_data() {
        return Problem::new(
            ErrorCode::MalformedJson,
            format!("the body is not valid JSON: {err}"),
        );
    }
    shape_error(message, pointer.unwrap_or_default())
}

/// `invalid_body`, with the fault classified from serde's message.
fn shape_error(message: String, pointer: String) -> Problem {
    let (fault, pointer) = classify(&message, pointer);
    let location = if pointer.is_empty() {
        String::new()
    } else {
        format!(" at {pointer}")
    };
    Problem::new(
        ErrorCode::InvalidBody,
        format!("the body does not match the request schema{location}: {message}"),
    )
    .with_error(pointer, fault, message)
}

/// serde reports a number that is not an integer where one belongs by the
/// double it read, which misleads: `1e-400` reads as `0`. Say what is wrong
/// with it instead of showing that double.
fn name_non_integers(message: String) -> String {
    match message
        .strip_prefix("invalid type: floating point `")
        .and_then(|rest| rest.split_once('`'))
    {
        Some((_double, expected)) => {
            format!("invalid type: a number with a fraction, or too large for an integer{expected}")
        }
        None => message,
    }
}

/// serde_json appends " at line L column C"; in `errors[]` the pointer says where.
fn without_position(err: &serde_json::Error) -> String {
    let text = err.to_string();
    let suffix = format!(" at line {} column {}", err.line(), err.column());
    match text.strip_suffix(&suffix) {
        Some(message) => message.to_owned(),
        None => text,
    }
}

/// A stable code for one shape fault. serde's derive produces these fixed
/// message openings (`serde::de::Error`'s provided methods); anything else comes
/// from a type's own parser (a card, a profile name) and is an invalid value.
/// A missing field is reported on the missing member itself, not its parent.
fn classify(message: &str, pointer: String) -> (ErrorCode, String) {
    if let Some(rest) = message.strip_prefix("missing field `") {
        let field = rest.split('`').next().unwrap_or_default();
        return (
            ErrorCode::MissingField,
            format!("{pointer}/{}", escape_token(field)),
        );
    }
    let fault = [
        ("unknown field", ErrorCode::UnknownField),
        ("invalid type", ErrorCode::InvalidType),
        ("invalid length", ErrorCode::InvalidLength),
        ("unknown variant", ErrorCode::UnknownVariant),
        ("duplicate field", ErrorCode::DuplicateField),
    ]
    .iter()
    .find(|(opening, _)| message.starts_with(opening))
    .map_or(ErrorCode::InvalidValue, |(_, fault)| *fault);
    (fault, pointer)
}

/// RFC 6901 pointer from the deserialiser's path. The path stops being known at
/// an `Unknown` segment (inside untagged enums, flattened structs), so the
/// pointer stops there too: it still names the closest enclosing value.
fn json_pointer(path: &serde_path_to_error::Path) -> String {
    let mut pointer = String::new();
    for segment in path.iter() {
        pointer.push('/');
        match segment {
            Segment::Seq { index } => pointer.push_str(&index.to_string()),
            Segment::Map { key } => pointer.push_str(&escape_token(key)),
            Segment::Enum { variant } => pointer.push_str(&escape_token(variant)),
            Segment::Unknown => {
                pointer.pop();
                break;
            }
        }
    }
    pointer
}

fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// `web::Json` is not meant to be used (use [`ValidJson`]), but if it is, its
/// failures still come out as problems.
pub fn json_config(limit: usize) -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(limit)
        .error_handler(move |err, _req| {
            match err {
                JsonPayloadError::OverflowKnownLength { limit, .. }
                | JsonPayloadError::Overflow { limit } => too_large(limit),
                JsonPayloadError::ContentType => unsupported_media_type("a non-JSON type"),
                JsonPayloadError::Deserialize(err) => json_error(&err, None),
                JsonPayloadError::Payload(PayloadError::Overflow) => too_large(limit),
                other => unreadable(&other),
            }
            .into()
        })
}

/// A path segment that does not parse into the handler's type names no
/// resource: 404, like any other path that matches nothing.
pub fn path_config() -> web::PathConfig {
    web::PathConfig::default().error_handler(|err: PathError, req| {
        Problem::new(
            ErrorCode::NotFound,
            format!("no resource at {}: {err}", req.path()),
        )
        .with_instance(req.path())
        .into()
    })
}

#[cfg(test)]
mod tests;
