//! Problems as HTTP answers: `application/problem+json` with the problem's
//! status, `nosniff`, and the code in the response's extensions for the
//! metrics.
//!
//! The problem itself, its document and the one table of codes are the
//! contract's ([`gin_contract::problem`]); this module renders them. A handler
//! returns `Result<_, HttpProblem>` and uses `?` on anything that answers a
//! [`Problem`].

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::{HttpResponse, HttpResponseBuilder, ResponseError};

pub use gin_contract::problem::{
    ErrorChain, ErrorCode, FieldError, PROBLEM_JSON, Problem, ProblemDocument, error_responses,
};

/// `X-Content-Type-Options`, sent with every response: browsers must take the
/// `Content-Type` as given rather than sniff one (a problem body echoes input,
/// which must never be run as HTML or script).
pub const X_CONTENT_TYPE_OPTIONS: HeaderName = HeaderName::from_static("x-content-type-options");
pub const NOSNIFF: HeaderValue = HeaderValue::from_static("nosniff");

/// A problem as a handler's error: actix renders it with [`ProblemResponse`].
#[derive(Debug)]
pub struct HttpProblem(pub Problem);

impl From<Problem> for HttpProblem {
    fn from(problem: Problem) -> Self {
        HttpProblem(problem)
    }
}

impl std::fmt::Display for HttpProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl ResponseError for HttpProblem {
    fn status_code(&self) -> StatusCode {
        self.0.status
    }

    fn error_response(&self) -> HttpResponse {
        self.0.to_response()
    }
}

/// Rendering a [`Problem`] as a response.
pub trait ProblemResponse {
    /// A response builder with the status and content type set, for callers
    /// that need extra headers (405 adds `Allow`); finish it with
    /// [`Problem::body`].
    fn response_builder(&self) -> HttpResponseBuilder;

    /// The complete response.
    fn to_response(&self) -> HttpResponse;
}

impl ProblemResponse for Problem {
    fn response_builder(&self) -> HttpResponseBuilder {
        let mut builder = HttpResponse::build(self.status);
        builder
            .insert_header((header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON)))
            .insert_header((X_CONTENT_TYPE_OPTIONS, NOSNIFF));
        if let Some(seconds) = self.retry_after {
            // RFC 9110 §10.2.3: when the refused request may be sent again.
            builder.insert_header((header::RETRY_AFTER, seconds.get()));
        }
        // The code rides along in the response's extensions, for the metrics.
        builder.extensions_mut().insert(self.code);
        builder
    }

    fn to_response(&self) -> HttpResponse {
        self.response_builder().body(self.body())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::body::MessageBody;

    #[test]
    fn the_response_is_problem_json_with_the_problem_status() {
        let response =
            HttpProblem(Problem::new(ErrorCode::DuplicateCard, "7S twice")).error_response();
        assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            response
                .headers()
                .get(header::CONTENT_TYPE)
                .map(|v| v.as_bytes()),
            Some(PROBLEM_JSON.as_bytes())
        );
        assert_eq!(
            response
                .headers()
                .get(X_CONTENT_TYPE_OPTIONS)
                .map(|v| v.as_bytes()),
            Some(&b"nosniff"[..])
        );
        let body = response.into_body().try_into_bytes().expect("sized body");
        let back: ProblemDocument = serde_json::from_slice(&body).expect("problem json");
        assert_eq!(back.code, "duplicate_card");
    }

    #[test]
    fn retry_after_is_a_header_only_when_set() {
        let plain = Problem::new(ErrorCode::Overloaded, "busy").to_response();
        assert!(plain.headers().get(header::RETRY_AFTER).is_none());
        let seconds = std::num::NonZeroU32::new(3).expect("not zero");
        let response = Problem::new(ErrorCode::Overloaded, "busy")
            .with_retry_after(seconds)
            .to_response();
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(
            response
                .headers()
                .get(header::RETRY_AFTER)
                .map(|v| v.as_bytes()),
            Some(&b"3"[..])
        );
        let body = response.into_body().try_into_bytes().expect("sized body");
        let back: serde_json::Value = serde_json::from_slice(&body).expect("problem json");
        assert!(back.get("retry_after").is_none(), "not in the document");
    }
}
