//! `GET /problems` and `GET /problems/{code}`: the error table, served where
//! each problem's `type` points.
//!
//! A browser following a `type` gets a small HTML page; a client sending
//! `Accept: application/json` gets the same row as JSON. Both come from
//! [`ErrorCode`], the one table of codes.

use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, get, web};
use serde::Serialize;
use utoipa::ToSchema;

use super::ServiceConfig;
use crate::http::problem::HttpProblem;
use crate::http::problem::Problem;
use gin_contract::error_codes::{ErrorCode, Scope};

/// One row of the error table.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "code": "duplicate_card", "status": 422, "title": "Duplicate card", "scope": "problem",
    "type": "/problems/duplicate_card",
    "description": "The same card appears twice where each card must be distinct: in one hand, in both hands, in a deal, or in a meld."
}))]
pub struct ErrorCodeDescription {
    /// The code, as in a problem's `code` or `errors[].code`.
    pub code: &'static str,
    /// The HTTP status of a problem with this code (for a field code: of the
    /// problem it appears in).
    pub status: u16,
    /// The problem `title`.
    pub title: &'static str,
    /// `problem`: the code of a problem; `field`: only in `errors[].code`.
    pub scope: CodeScope,
    /// The problem `type` of this code: this page.
    #[serde(rename = "type")]
    pub kind: String,
    /// What the code means and what to do about it.
    pub description: String,
}

/// Where a code appears.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CodeScope {
    /// A problem's own `code`.
    Problem,
    /// Only in `errors[].code`.
    Field,
}

impl From<ErrorCode> for ErrorCodeDescription {
    fn from(code: ErrorCode) -> Self {
        ErrorCodeDescription {
            code: code.as_str(),
            status: code.status().as_u16(),
            title: code.title(),
            scope: match code.scope() {
                Scope::Problem => CodeScope::Problem,
                Scope::Field => CodeScope::Field,
            },
            kind: code.type_uri(),
            description: code.description(),
        }
    }
}

/// Lists every error code.
#[utoipa::path(
    tag = "errors",
    summary = "List every error code",
    description = "The table every problem's `code` and `errors[].code` come from, with each \
        code's status, title and meaning. A problem's `type` is `/problems/{code}`.",
    responses(
        (status = 200, description = "Every code, in table order.", body = Vec<ErrorCodeDescription>,
         example = json!([{
            "code": "malformed_json", "status": 400, "title": "Malformed JSON", "scope": "problem",
            "type": "/problems/malformed_json",
            "description": "The body is not JSON at all: a syntax error, an empty body, or something after the value. `detail` says where the parser stopped."}])),
    )
)]
#[get("/problems")]
pub async fn list_error_codes() -> web::Json<Vec<ErrorCodeDescription>> {
    web::Json(ErrorCode::ALL.iter().copied().map(Into::into).collect())
}

gin_contract::problem_responses!(
    /// The error answers of `GET /problems/{code}`.
    ErrorCodeErrors: [NotFound]
);

/// Describes one error code.
#[utoipa::path(
    tag = "errors",
    summary = "Describe one error code",
    description = "The page a problem's `type` points at: HTML for a browser, or the table's \
        row as JSON when the request sends `Accept: application/json`.",
    params(("code" = String, Path, description = "An error code.", example = "duplicate_card")),
    responses(
        (status = 200, description = "The code's row.", content(
            (ErrorCodeDescription = "application/json", example = json!({
                "code": "wrap_around", "status": 422, "title": "Wrap around", "scope": "field",
                "type": "/problems/wrap_around",
                "description": "A run that would need the king followed by the ace: the ace is low only."})),
            (String = "text/html", example = json!("<!doctype html>\n<html lang=\"en\">...<h1>Wrap around</h1>...</html>\n")),
        )),
        ErrorCodeErrors,
    )
)]
#[get("/problems/{code}")]
pub async fn describe_error_code(
    request: HttpRequest,
    code: web::Path<String>,
) -> Result<HttpResponse, HttpProblem> {
    let Some(code) = ErrorCode::from_name(&code) else {
        return Err(HttpProblem(
            Problem::new(
                ErrorCode::NotFound,
                format!(
                    "no error code {:?}; GET /problems lists them",
                    code.as_str()
                ),
            )
            .with_instance(request.path().to_owned()),
        ));
    };
    if wants_json(&request) {
        return Ok(HttpResponse::Ok().json(ErrorCodeDescription::from(code)));
    }
    Ok(HttpResponse::Ok()
        .insert_header((
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        ))
        .body(page(code)))
}

/// JSON when the client names a JSON type in `Accept` (and no HTML before it).
fn wants_json(request: &HttpRequest) -> bool {
    let Some(accept) = request
        .headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let json = accept.find("json");
    let html = accept.find("text/html");
    match (json, html) {
        (Some(json), Some(html)) => json < html,
        (Some(_), None) => true,
        _ => false,
    }
}

/// The HTML page of one code: its title, status and description, and the way
/// back to the whole table.
fn page(code: ErrorCode) -> String {
    let place = match code.scope() {
        Scope::Problem => "a problem's <code>code</code>",
        Scope::Field => "<code>errors[].code</code> inside a problem",
    };
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>{title} ({code}) - gin-referee</title></head><body>\n\
         <h1>{title}</h1>\n\
         <p><code>{code}</code>: HTTP {status}, in {place}.</p>\n\
         <p>{description}</p>\n\
         <p><a href=\"/problems\">Every error code</a> (JSON) and the \
         <a href=\"/docs/\">API documentation</a>.</p>\n</body></html>\n",
        title = escape(code.title()),
        code = code.as_str(),
        status = code.status().as_u16(),
        description = with_code_spans(&escape(&code.description())),
    )
}

/// `a` `b` -> `a` <code>b</code>: the descriptions mark names with backticks.
fn with_code_spans(text: &str) -> String {
    let mut html = String::with_capacity(text.len() + 32);
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 {
            html.push_str("<code>");
            html.push_str(part);
            html.push_str("</code>");
        } else {
            html.push_str(part);
        }
    }
    html
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(list_error_codes).service(describe_error_code);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_escapes_and_marks_code_spans() {
        let html = page(ErrorCode::InvalidBody);
        assert!(html.contains("<h1>Invalid body</h1>"));
        assert!(html.contains("<code>missing_field</code>"));
        assert!(html.contains("HTTP 400"));
        assert!(!html.contains('`'));
    }

    #[test]
    fn a_json_type_before_html_asks_for_json() {
        let request = |accept: &str| {
            actix_web::test::TestRequest::default()
                .insert_header((header::ACCEPT, accept))
                .to_http_request()
        };
        assert!(wants_json(&request("application/json")));
        assert!(wants_json(&request("application/problem+json, text/html")));
        assert!(!wants_json(&request("text/html,application/json;q=0.9")));
        assert!(!wants_json(&request("*/*")));
    }
}
