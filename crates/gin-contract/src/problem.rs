//! One error shape for every failure: RFC 9457 problem details, served as
//! `application/problem+json`.
//!
//! A [`Problem`] is what every operation answers instead of its result; each
//! transport renders it (the service as its response, the bulk lines as a
//! `problem` member, the Python module as an exception). Each problem
//! carries a stable snake_case `code` from the one table of codes
//! ([`ErrorCode`]; clients branch on it, the `detail` text is for people and may
//! change); its status, `title` and `type` follow from the code. The `type` is
//! `/problems/<code>`, a page this service serves.
//!
//! ```
//! use gin_contract::problem::{ErrorCode, Problem};
//!
//! let problem = Problem::new(ErrorCode::DuplicateCard, "7S appears twice in the hand")
//!     .with_error("/hand/4", ErrorCode::DuplicateCard, "7S also appears at /hand/1");
//! assert_eq!(problem.status.as_u16(), 422);
//! assert_eq!(problem.title(), "Duplicate card");
//! assert_eq!(problem.kind(), "/problems/duplicate_card");
//! ```

use std::borrow::Cow;
use std::fmt;

use http::StatusCode;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::Schema;

use utoipa::openapi::example::ExampleBuilder;
use utoipa::openapi::response::{Response, ResponseBuilder};
use utoipa::openapi::{ContentBuilder, Ref};
use utoipa::{PartialSchema, ToSchema};

/// Media type of every error body.
pub const PROBLEM_JSON: &str = "application/problem+json";

pub use crate::error_codes::ErrorCode;

/// An error on its way to the client; serialised as a [`ProblemDocument`].
///
/// `type` and `title` are not stored: both follow from `code`, and leaving them
/// out keeps `Result<T, Problem>` small enough to return from any function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// HTTP status of the response.
    pub status: StatusCode,
    /// Stable snake_case identifier of the problem type; the status, `type`
    /// and `title` follow from it.
    pub code: ErrorCode,
    /// What went wrong with this request, for people.
    pub detail: String,
    /// URI reference of this occurrence.
    pub instance: Option<String>,
    /// The offending parts of the input.
    pub errors: Vec<FieldError>,
    /// Seconds after which the request may be sent again (`Retry-After`), for
    /// a refusal that passes; not part of the JSON document.
    pub retry_after: Option<std::num::NonZeroU32>,
}

// The wire form of a `Problem`, documented as the schema `Problem`; clients and
// tests read error bodies into it.
/// An RFC 9457 problem document: the body of every error response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "type": "/problems/invalid_body",
    "title": "Invalid body",
    "status": 400,
    "detail": "the body does not match the request schema at /knocker/hand/3: invalid card \"1X\"",
    "code": "invalid_body",
    "errors": [{"pointer": "/knocker/hand/3", "code": "invalid_value", "message": "invalid card \"1X\""}]
}))]
pub struct ProblemDocument {
    /// URI reference identifying the problem type: `/problems/<code>`, where
    /// this service describes the code (resolve it against the request's URL).
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
    /// A problem with the given `code` (which sets its status) and human `detail`.
    pub fn new(code: ErrorCode, detail: impl Into<String>) -> Self {
        Problem {
            status: code.status(),
            code,
            detail: detail.into(),
            instance: None,
            errors: Vec::new(),
            retry_after: None,
        }
    }

    /// Says the request may be sent again after `seconds` (`Retry-After`).
    pub fn with_retry_after(mut self, seconds: std::num::NonZeroU32) -> Self {
        self.retry_after = Some(seconds);
        self
    }

    /// A problem from a code of the rules library (see [`ErrorCode::of`]).
    pub fn rules(code: &str, detail: impl Into<String>) -> Self {
        Self::new(ErrorCode::of(code), detail)
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
            ErrorCode::InternalError,
            "the server failed to handle this request; the cause has been logged",
        )
    }

    /// Adds one offending input location; chain it for several.
    pub fn with_error(
        mut self,
        pointer: impl Into<String>,
        code: ErrorCode,
        message: impl Into<String>,
    ) -> Self {
        self.errors.push(FieldError {
            pointer: pointer.into(),
            code: code.as_str().to_owned(),
            message: message.into(),
        });
        self
    }

    /// Sets the `instance` URI reference (typically the request path).
    pub fn with_instance(mut self, instance: impl Into<String>) -> Self {
        self.instance = Some(instance.into());
        self
    }

    /// The `type` URI reference: `/problems/<code>`, served by this service.
    pub fn kind(&self) -> String {
        self.code.type_uri()
    }

    /// The `title`, the code's own, so it never varies between occurrences.
    pub fn title(&self) -> &'static str {
        self.code.title()
    }

    /// The wire form.
    pub fn to_document(&self) -> ProblemDocument {
        ProblemDocument {
            kind: self.kind(),
            title: self.title().to_owned(),
            status: self.status.as_u16(),
            detail: self.detail.clone(),
            code: self.code.as_str().to_owned(),
            instance: self.instance.clone(),
            errors: self.errors.clone(),
        }
    }

    /// The serialised body.
    pub fn body(&self) -> Vec<u8> {
        // Serialising a struct of strings cannot fail; the fallback keeps the
        // promise of a problem body even so.
        serde_json::to_vec(&self.to_document()).unwrap_or_else(|_| {
            br#"{"type":"/problems/internal_error","title":"Internal error","status":500,"detail":"the error could not be serialised","code":"internal_error"}"#.to_vec()
        })
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}: {}", self.status, self.code.as_str(), self.detail)
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

impl ErrorCode {
    /// The example occurrence of this code (see [`ErrorCode::example`]), as a
    /// problem built the way the server builds one.
    pub fn example_problem(self) -> Problem {
        let example = self.example();
        let problem = Problem::new(self, example.detail);
        match example.error {
            Some((pointer, field)) => problem.with_error(pointer, field, example.detail),
            None => problem,
        }
    }
}

/// The documented error responses of an operation that can answer `codes`:
/// one response per status, `application/problem+json` with the `Problem`
/// schema, a description naming each code, and one example per code, keyed by
/// the code. Used through [`problem_responses!`](crate::problem_responses).
pub fn error_responses(codes: &[ErrorCode]) -> BTreeMap<String, RefOr<Response>> {
    let mut by_status: BTreeMap<u16, Vec<ErrorCode>> = BTreeMap::new();
    for code in codes {
        by_status
            .entry(code.status().as_u16())
            .or_default()
            .push(*code);
    }
    by_status
        .into_iter()
        .map(|(status, codes)| {
            let description = codes
                .iter()
                .map(|code| format!("- `{}`: {}", code.as_str(), code.description()))
                .collect::<Vec<_>>()
                .join("\n");
            let examples = codes.iter().map(|code| {
                let value = serde_json::to_value(code.example_problem()).unwrap_or_default();
                (
                    code.as_str(),
                    ExampleBuilder::new()
                        .summary(code.title())
                        .value(Some(value))
                        .build(),
                )
            });
            let content = ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("Problem")))
                .examples_from_iter(examples)
                .build();
            let response = ResponseBuilder::new()
                .description(description)
                .content(PROBLEM_JSON, content)
                .build();
            (status.to_string(), RefOr::T(response))
        })
        .collect()
}

/// Declares the error responses of one operation, for `responses(...)` of its
/// `#[utoipa::path]`: a unit type whose `CODES` are every code the operation
/// can answer with, documented by [`error_responses`]. A test posts a request
/// for each listed code and checks the codes answered are listed.
///
/// ```ignore
/// problem_responses!(AnalyzeErrors: [MalformedJson, InvalidBody, DuplicateCard]);
/// ```
#[macro_export]
macro_rules! problem_responses {
    ($(#[$meta:meta])* $name:ident: [$($code:ident),+ $(,)?]) => {
        $(#[$meta])*
        pub struct $name;

        impl $name {
            /// Every code this operation can answer with.
            pub const CODES: &'static [$crate::error_codes::ErrorCode] =
                &[$($crate::error_codes::ErrorCode::$code),+];
        }

        impl utoipa::IntoResponses for $name {
            fn responses() -> std::collections::BTreeMap<
                String,
                utoipa::openapi::RefOr<utoipa::openapi::response::Response>,
            > {
                $crate::problem::error_responses(Self::CODES)
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_title_and_type_come_from_the_code() {
        let problem = Problem::new(ErrorCode::MalformedJson, "x");
        assert_eq!(problem.status, StatusCode::BAD_REQUEST);
        assert_eq!(problem.title(), "Malformed JSON");
        assert_eq!(problem.kind(), "/problems/malformed_json");
    }

    #[test]
    fn the_documented_responses_group_codes_by_status_with_an_example_each() {
        let responses = error_responses(&[
            ErrorCode::MalformedJson,
            ErrorCode::InvalidBody,
            ErrorCode::DuplicateCard,
        ]);
        assert_eq!(responses.keys().collect::<Vec<_>>(), ["400", "422"]);
        let json = serde_json::to_value(&responses["400"]).expect("json");
        let examples = &json["content"][PROBLEM_JSON]["examples"];
        assert_eq!(examples["invalid_body"]["value"]["code"], "invalid_body");
        assert_eq!(
            examples["invalid_body"]["value"]["errors"][0]["code"],
            "invalid_value"
        );
        assert!(examples.get("duplicate_card").is_none());
    }

    #[test]
    fn a_problem_serialises_with_the_rfc_9457_member_names() {
        let problem = Problem::new(ErrorCode::InvalidBody, "bad card")
            .with_error("/hand/0", ErrorCode::InvalidValue, "invalid card")
            .with_instance("/v1/hands/analyze");
        let json = serde_json::to_value(&problem).expect("serialises");
        assert_eq!(
            json,
            serde_json::json!({
                "type": "/problems/invalid_body",
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
        let json = serde_json::to_value(Problem::new(ErrorCode::NotFound, "x")).expect("json");
        assert!(json.get("instance").is_none());
        assert!(json.get("errors").is_none());
    }

    #[test]
    fn the_internal_problem_hides_its_cause() {
        let cause = std::io::Error::other("database password is hunter2");
        let problem = Problem::internal(&cause);
        assert_eq!(problem.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(problem.code, ErrorCode::InternalError);
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
