//! One error shape for every failure: RFC 9457 problem details, served as
//! `application/problem+json`.
//!
//! A [`Problem`] is an actix [`ResponseError`], so a handler returns
//! `Result<Json<T>, Problem>` and the error becomes the response. Each problem
//! carries a stable snake_case `code` (clients branch on it; the `detail` text is
//! for people and may change) and a `type` URI derived from it:
//! `https://gin-referee.dev/problems/<code>`. The `title` is derived from the code
//! too, so it never varies between occurrences, as RFC 9457 asks.
//!
//! Codes produced by the HTTP machinery itself are in [`code`]; resource modules
//! add their domain codes with [`Problem::unprocessable`] and friends.
//!
//! ```
//! use gin_referee::api::problem::Problem;
//!
//! let problem = Problem::unprocessable("duplicate_card", "7S appears twice in the hand")
//!     .with_error("/hand/4", "duplicate_card", "7S also appears at /hand/1");
//! assert_eq!(problem.status.as_u16(), 422);
//! assert_eq!(problem.title(), "Duplicate card");
//! assert_eq!(problem.kind(), "https://gin-referee.dev/problems/duplicate_card");
//! ```

use std::borrow::Cow;
use std::fmt;

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::{HttpResponse, HttpResponseBuilder, ResponseError};
use serde::{Deserialize, Serialize};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::Schema;
use utoipa::{IntoResponses, PartialSchema, ToSchema};

/// Media type of every error body.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// `X-Content-Type-Options`, sent with every response: browsers must take the
/// `Content-Type` as given rather than sniff one (a problem body echoes input,
/// which must never be run as HTML or script).
pub const X_CONTENT_TYPE_OPTIONS: HeaderName = HeaderName::from_static("x-content-type-options");
pub const NOSNIFF: HeaderValue = HeaderValue::from_static("nosniff");

/// Prefix of every problem `type` URI; the code follows it.
pub const TYPE_PREFIX: &str = "https://gin-referee.dev/problems/";

/// Stable codes produced by the HTTP layer (extractors, routing, the safety net).
pub mod code {
    /// The body is not JSON at all (syntax error, empty body, trailing garbage).
    pub const MALFORMED_JSON: &str = "malformed_json";
    /// The body is JSON but not the documented shape: missing or unknown field,
    /// wrong type, unparseable value such as the card `"1X"`.
    pub const INVALID_BODY: &str = "invalid_body";
    /// A body sent with a non-JSON `Content-Type`.
    pub const UNSUPPORTED_MEDIA_TYPE: &str = "unsupported_media_type";
    /// A body sent in a `Content-Encoding` other than one of gzip or deflate;
    /// the answer's `Accept-Encoding` lists the supported ones.
    pub const UNSUPPORTED_CONTENT_ENCODING: &str = "unsupported_content_encoding";
    /// A request that is not HTTP/1.1 at all (a garbage request line, both
    /// `Content-Length` and `Transfer-Encoding`, two lengths, ...).
    pub const MALFORMED_REQUEST: &str = "malformed_request";
    /// A request head over 128 KiB or with more than 96 header fields.
    pub const REQUEST_HEAD_TOO_LARGE: &str = "request_head_too_large";
    /// The body is larger than the configured limit.
    pub const PAYLOAD_TOO_LARGE: &str = "payload_too_large";
    /// No resource at this path.
    pub const NOT_FOUND: &str = "not_found";
    /// The path exists but not with this method; `Allow` lists the methods.
    pub const METHOD_NOT_ALLOWED: &str = "method_not_allowed";
    /// The client was too slow sending its request.
    pub const REQUEST_TIMEOUT: &str = "request_timeout";
    /// A request the HTTP layer refused for a reason without a more specific code.
    pub const BAD_REQUEST: &str = "bad_request";
    /// A bug on our side; the cause is logged, never sent.
    pub const INTERNAL_ERROR: &str = "internal_error";
}

/// An error on its way to the client; serialised as a [`ProblemDocument`].
///
/// `type` and `title` are not stored: both follow from `code`, and leaving them
/// out keeps `Result<T, Problem>` small enough to return from any function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// HTTP status of the response.
    pub status: StatusCode,
    /// Stable snake_case identifier of the problem type.
    pub code: Cow<'static, str>,
    /// What went wrong with this request, for people.
    pub detail: String,
    /// URI reference of this occurrence.
    pub instance: Option<String>,
    /// The offending parts of the input.
    pub errors: Vec<FieldError>,
}

// The wire form of a `Problem`, documented as the schema `Problem`; clients and
// tests read error bodies into it.
/// An RFC 9457 problem document: the body of every error response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "type": "https://gin-referee.dev/problems/invalid_body",
    "title": "Invalid body",
    "status": 400,
    "detail": "the body does not match the request schema at /knocker/hand/3: invalid card \"1X\"",
    "code": "invalid_body",
    "errors": [{"pointer": "/knocker/hand/3", "code": "invalid_value", "message": "invalid card \"1X\""}]
}))]
pub struct ProblemDocument {
    /// URI identifying the problem type: `https://gin-referee.dev/problems/<code>`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Short summary of the problem type; the same for every occurrence of a code.
    pub title: String,
    /// HTTP status code of this response.
    pub status: u16,
    /// What went wrong with this request, for people (the wording may change).
    pub detail: String,
    /// Stable snake_case identifier of the problem type: branch on this.
    pub code: String,
    /// URI reference of this occurrence (the request path, where it helps).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub instance: Option<String>,
    /// The offending parts of the input, each with a JSON Pointer into the body.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<FieldError>,
}

/// One offending part of the input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FieldError {
    /// RFC 6901 JSON Pointer into the request body (`""` is the whole body).
    #[schema(example = "/knocker/hand/3")]
    pub pointer: String,
    /// Stable snake_case code of this fault.
    #[schema(example = "invalid_value")]
    pub code: String,
    /// What is wrong there, for people.
    #[schema(example = "invalid card \"1X\"")]
    pub message: String,
}

impl Problem {
    /// A problem with the given status, stable `code` and human `detail`.
    pub fn new(
        status: StatusCode,
        code: impl Into<Cow<'static, str>>,
        detail: impl Into<String>,
    ) -> Self {
        Problem {
            status,
            code: code.into(),
            detail: detail.into(),
            instance: None,
            errors: Vec::new(),
        }
    }

    /// 400: the request cannot be read (shape, syntax).
    pub fn bad_request(code: impl Into<Cow<'static, str>>, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, detail)
    }

    /// 404: no such resource (unknown path, unknown profile name, ...).
    pub fn not_found(code: impl Into<Cow<'static, str>>, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, code, detail)
    }

    /// 422: well-formed, but impossible or illegal under the rules.
    pub fn unprocessable(code: impl Into<Cow<'static, str>>, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, code, detail)
    }

    /// 500 for a bug: logs `cause` with its whole `source()` chain and returns a
    /// generic problem that reveals nothing about it.
    pub fn internal(cause: &(dyn std::error::Error + 'static)) -> Self {
        tracing::error!(error = %ErrorChain(cause), "internal error");
        Self::internal_unlogged()
    }

    /// The generic 500 body, for callers that have already logged the cause.
    pub fn internal_unlogged() -> Self {
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            code::INTERNAL_ERROR,
            "the server failed to handle this request; the cause has been logged",
        )
    }

    /// Adds one offending input location; chain it for several.
    pub fn with_error(
        mut self,
        pointer: impl Into<String>,
        code: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        self.errors.push(FieldError {
            pointer: pointer.into(),
            code: code.into(),
            message: message.into(),
        });
        self
    }

    /// Sets the `instance` URI reference (typically the request path).
    pub fn with_instance(mut self, instance: impl Into<String>) -> Self {
        self.instance = Some(instance.into());
        self
    }

    /// The `type` URI: `https://gin-referee.dev/problems/<code>`.
    pub fn kind(&self) -> String {
        format!("{TYPE_PREFIX}{}", self.code)
    }

    /// The `title`, derived from the code so it never varies between occurrences.
    pub fn title(&self) -> String {
        title_of(&self.code)
    }

    /// The wire form.
    pub fn to_document(&self) -> ProblemDocument {
        ProblemDocument {
            kind: self.kind(),
            title: self.title(),
            status: self.status.as_u16(),
            detail: self.detail.clone(),
            code: self.code.clone().into_owned(),
            instance: self.instance.clone(),
            errors: self.errors.clone(),
        }
    }

    /// A response builder with the status and content type set, for callers that
    /// need extra headers (405 adds `Allow`); finish it with [`Problem::body`].
    pub fn response_builder(&self) -> HttpResponseBuilder {
        let mut builder = HttpResponse::build(self.status);
        builder
            .insert_header((header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON)))
            .insert_header((X_CONTENT_TYPE_OPTIONS, NOSNIFF));
        builder
    }

    /// The serialised body.
    pub fn body(&self) -> Vec<u8> {
        // Serialising a struct of strings cannot fail; the fallback keeps the
        // promise of a problem body even so.
        serde_json::to_vec(&self.to_document()).unwrap_or_else(|_| {
            br#"{"type":"https://gin-referee.dev/problems/internal_error","title":"Internal error","status":500,"detail":"the error could not be serialised","code":"internal_error"}"#.to_vec()
        })
    }

    /// The complete response.
    pub fn to_response(&self) -> HttpResponse {
        self.response_builder().body(self.body())
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}: {}", self.status, self.code, self.detail)
    }
}

impl std::error::Error for Problem {}

impl Serialize for Problem {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_document().serialize(serializer)
    }
}

impl PartialSchema for Problem {
    fn schema() -> RefOr<Schema> {
        ProblemDocument::schema()
    }
}

/// `body = Problem` in `#[utoipa::path]` documents the wire form under the
/// schema name `Problem`.
impl ToSchema for Problem {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Problem")
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((FieldError::name().into_owned(), FieldError::schema()));
        <FieldError as ToSchema>::schemas(schemas);
    }
}

impl ResponseError for Problem {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        self.to_response()
    }
}

/// A stable title from a code: `duplicate_card` -> `Duplicate card`,
/// `malformed_json` -> `Malformed JSON`.
fn title_of(code: &str) -> String {
    let words = code
        .split('_')
        .filter(|w| !w.is_empty())
        .enumerate()
        .map(|(i, word)| match word {
            "json" => "JSON".to_owned(),
            _ if i == 0 => {
                let mut chars = word.chars();
                chars.next().map_or_else(String::new, |first| {
                    first.to_uppercase().chain(chars).collect()
                })
            }
            _ => word.to_owned(),
        });
    words.collect::<Vec<_>>().join(" ")
}

/// Formats an error followed by each of its sources: `a: b: c`.
pub struct ErrorChain<'a>(pub &'a (dyn std::error::Error + 'static));

impl fmt::Display for ErrorChain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)?;
        let mut source = self.0.source();
        while let Some(cause) = source {
            write!(f, ": {cause}")?;
            source = cause.source();
        }
        Ok(())
    }
}

/// Examples shared by the OpenAPI documentation and tests: each one is built by
/// the same constructors the server uses, so the documentation cannot drift.
pub mod examples {
    use super::*;
    use serde_json::Value;

    fn value(problem: Problem) -> Value {
        serde_json::to_value(problem).unwrap_or(Value::Null)
    }

    pub fn malformed_json() -> Value {
        value(Problem::bad_request(
            code::MALFORMED_JSON,
            "the body is not valid JSON: expected `,` or `}` at line 1 column 18",
        ))
    }

    pub fn invalid_body() -> Value {
        value(
            Problem::bad_request(
                code::INVALID_BODY,
                "the body does not match the request schema: invalid card \"1X\"",
            )
            .with_error("/hand/3", "invalid_value", "invalid card \"1X\""),
        )
    }

    pub fn payload_too_large() -> Value {
        value(Problem::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            code::PAYLOAD_TOO_LARGE,
            "the body is larger than the limit of 65536 bytes",
        ))
    }

    pub fn unsupported_media_type() -> Value {
        value(Problem::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            code::UNSUPPORTED_MEDIA_TYPE,
            "expected Content-Type application/json, got text/plain",
        ))
    }

    pub fn unsupported_content_encoding() -> Value {
        value(Problem::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            code::UNSUPPORTED_CONTENT_ENCODING,
            "Content-Encoding br is not supported: send the body as is, \
             or in one of gzip, deflate (one coding, not stacked)",
        ))
    }

    pub fn not_found() -> Value {
        value(
            Problem::not_found(code::NOT_FOUND, "no resource at /v1/nothing-here")
                .with_instance("/v1/nothing-here"),
        )
    }
}

/// The failures of [`ValidJson`](super::json::ValidJson), for `#[utoipa::path]`:
/// list it in `responses(...)` of every operation that reads a JSON body.
#[derive(IntoResponses)]
#[allow(dead_code, reason = "only the type is used, to document responses")]
pub enum JsonBodyRejections {
    /// The body is not JSON (`malformed_json`) or not the documented shape
    /// (`invalid_body`, with a JSON Pointer per fault in `errors`).
    #[response(
        status = 400,
        content_type = "application/problem+json",
        examples(
            ("malformed_json" = (summary = "The body is not JSON", value = json!(examples::malformed_json()))),
            ("invalid_body" = (summary = "An unparseable card", value = json!(examples::invalid_body()))),
        )
    )]
    BadRequest(Problem),
    /// The body is larger than the configured limit, as sent or once
    /// decoded (`payload_too_large`). The connection is closed after this answer.
    #[response(
        status = 413,
        content_type = "application/problem+json",
        example = json!(examples::payload_too_large())
    )]
    PayloadTooLarge(Problem),
    /// The body was sent with a non-JSON `Content-Type` (`unsupported_media_type`;
    /// a request without `Content-Type` is read as JSON), or in a
    /// `Content-Encoding` other than one of gzip and deflate
    /// (`unsupported_content_encoding`, with `Accept-Encoding` naming those).
    /// The connection is closed after this answer.
    #[response(
        status = 415,
        content_type = "application/problem+json",
        examples(
            ("unsupported_media_type" = (summary = "A body that is not JSON", value = json!(examples::unsupported_media_type()))),
            ("unsupported_content_encoding" = (summary = "A body in an unsupported coding", value = json!(examples::unsupported_content_encoding()))),
        )
    )]
    UnsupportedMediaType(Problem),
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::body::MessageBody;

    #[test]
    fn the_title_is_derived_from_the_code() {
        assert_eq!(title_of("malformed_json"), "Malformed JSON");
        assert_eq!(title_of("not_found"), "Not found");
        assert_eq!(title_of(""), "");
    }

    #[test]
    fn a_problem_serialises_with_the_rfc_9457_member_names() {
        let problem = Problem::bad_request(code::INVALID_BODY, "bad card")
            .with_error("/hand/0", "invalid_value", "invalid card")
            .with_instance("/v1/hands/analyze");
        let json = serde_json::to_value(&problem).expect("serialises");
        assert_eq!(
            json,
            serde_json::json!({
                "type": "https://gin-referee.dev/problems/invalid_body",
                "title": "Invalid body",
                "status": 400,
                "detail": "bad card",
                "code": "invalid_body",
                "instance": "/v1/hands/analyze",
                "errors": [{"pointer": "/hand/0", "code": "invalid_value", "message": "invalid card"}]
            })
        );
    }

    #[test]
    fn empty_optional_members_are_left_out() {
        let json = serde_json::to_value(Problem::not_found(code::NOT_FOUND, "x")).expect("json");
        assert!(json.get("instance").is_none());
        assert!(json.get("errors").is_none());
    }

    #[test]
    fn the_response_is_problem_json_with_the_problem_status() {
        let response = Problem::unprocessable("duplicate_card", "7S twice").error_response();
        assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            response
                .headers()
                .get(header::CONTENT_TYPE)
                .map(|v| v.as_bytes()),
            Some(PROBLEM_JSON.as_bytes())
        );
        let body = response.into_body().try_into_bytes().expect("sized body");
        let back: ProblemDocument = serde_json::from_slice(&body).expect("problem json");
        assert_eq!(back.code, "duplicate_card");
    }

    #[test]
    fn the_internal_problem_hides_its_cause() {
        let cause = std::io::Error::other("database password is hunter2");
        let problem = Problem::internal(&cause);
        assert_eq!(problem.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(problem.code, code::INTERNAL_ERROR);
        assert!(!problem.detail.contains("hunter2"));
    }

    #[test]
    fn the_error_chain_lists_every_source() {
        #[derive(Debug, thiserror::Error)]
        #[error("outer")]
        struct Outer(#[source] std::io::Error);
        let err = Outer(std::io::Error::other("inner"));
        assert_eq!(ErrorChain(&err).to_string(), "outer: inner");
    }
}
