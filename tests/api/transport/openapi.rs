//! The OpenAPI document: committed, current, and complete for every operation,
//! including the ones added after these tests were written.

use std::collections::BTreeSet;

use serde_json::Value;

const REGENERATE: &str = "cargo run -- openapi > openapi/openapi.json";

/// Operations that no client input can make fail: they document no 4xx
/// response because they have none (a wrong method is a different operation,
/// answered by the fallback and described in the document's introduction).
/// Operations that no client input can make fail: they take no body, no
/// parameters and have no state a client can get wrong.
const NO_CLIENT_ERRORS: &[&str] = &[
    "GET /healthz",
    "GET /readyz",
    "GET /metrics",
    "GET /v1/profiles",
    "GET /v1/keys",
    "GET /problems",
];

const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

fn document() -> Value {
    let json = gin_referee::routes::openapi_json().expect("the document serialises");
    serde_json::from_str(&json).expect("the document is JSON")
}

/// Every operation as ("METHOD /path", operation).
fn operations(doc: &Value) -> Vec<(String, Value)> {
    let mut found = Vec::new();
    let paths = doc["paths"].as_object().expect("paths object");
    for (path, item) in paths {
        for method in METHODS {
            if let Some(operation) = item.get(*method) {
                found.push((
                    format!("{} {path}", method.to_uppercase()),
                    operation.clone(),
                ));
            }
        }
    }
    found
}

fn has_example(media: &Value) -> bool {
    media.get("example").is_some()
        || media
            .get("examples")
            .and_then(Value::as_object)
            .is_some_and(|examples| !examples.is_empty())
}

#[test]
fn the_committed_document_is_current() {
    let generated = gin_referee::routes::openapi_json().expect("the document serialises");
    let committed =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json"))
            .unwrap_or_default();
    assert!(
        generated == committed,
        "openapi/openapi.json is stale: the routes or their documentation changed.\n\
         Regenerate it with `{REGENERATE}` and commit the result."
    );
}

#[test]
fn the_document_describes_the_service() {
    let doc = document();
    assert_eq!(doc["info"]["title"], "gin-referee");
    assert_eq!(doc["info"]["version"], env!("CARGO_PKG_VERSION"));
    let description = doc["info"]["description"].as_str().unwrap_or_default();
    assert!(description.contains("problem+json"));
    // Short, so that Swagger UI shows the operations on its first screen, and
    // naming every capability; the error table is a link away, not inline.
    assert!(description.len() < 2000, "{} characters", description.len());
    for capability in [
        "melds",
        "deadwood",
        "layoffs",
        "scores a",
        "three players",
        "partnerships",
        "jokers",
        "audits",
        "whole match",
        "/v1/deals",
        "receipts",
        "/batch",
        "(/problems)",
    ] {
        assert!(description.contains(capability), "{capability} not named");
    }
    // Every code is still in the document, for generators: in the `code` of
    // the problem schemas.
    let codes = format!(
        "{}{}",
        doc["components"]["schemas"]["Problem"]["properties"]["code"]["description"],
        doc["components"]["schemas"]["FieldError"]["properties"]["code"]["description"]
    );
    for code in gin_contract::error_codes::ErrorCode::ALL {
        assert!(
            codes.contains(&format!("`{}`", code.as_str())),
            "{} is not listed in the problem schemas",
            code.as_str()
        );
    }
    for path in ["/healthz", "/readyz", "/metrics"] {
        assert!(doc["paths"].get(path).is_some(), "{path} is documented");
    }
}

fn check_summaries_descriptions_and_tags(doc: &Value) {
    let declared: BTreeSet<&str> = doc["tags"]
        .as_array()
        .expect("tags")
        .iter()
        .filter_map(|tag| tag["name"].as_str())
        .collect();
    let mut operation_ids = BTreeSet::new();
    for (name, operation) in operations(doc) {
        for field in ["summary", "description", "operationId"] {
            assert!(
                operation[field]
                    .as_str()
                    .is_some_and(|s| !s.trim().is_empty()),
                "{name} has no {field}"
            );
        }
        assert!(
            operation_ids.insert(operation["operationId"].to_string()),
            "{name}: duplicate operationId"
        );
        let tags = operation["tags"].as_array().cloned().unwrap_or_default();
        assert!(!tags.is_empty(), "{name} has no tag");
        for tag in tags {
            let tag = tag.as_str().unwrap_or_default();
            assert!(
                declared.contains(tag),
                "{name}: tag {tag} is not declared in src/http/openapi.rs"
            );
        }
    }
}

fn check_client_errors(doc: &Value) {
    for (name, operation) in operations(doc) {
        if NO_CLIENT_ERRORS.contains(&name.as_str()) {
            continue;
        }
        let responses = operation["responses"].as_object().expect("responses");
        assert!(
            responses.keys().any(|status| status.starts_with('4')),
            "{name} documents no 4xx response"
        );
    }
}

fn check_body_examples(doc: &Value) {
    for (name, operation) in operations(doc) {
        if let Some(body) = operation.get("requestBody") {
            let content = body["content"].as_object().expect("request content");
            assert!(!content.is_empty(), "{name}: request body without content");
            for (media_type, media) in content {
                assert!(
                    has_example(media),
                    "{name}: request body {media_type} has no example"
                );
            }
        }
        let responses = operation["responses"].as_object().expect("responses");
        for (status, response) in responses {
            let Some(content) = response.get("content").and_then(Value::as_object) else {
                continue;
            };
            for (media_type, media) in content {
                assert!(
                    has_example(media),
                    "{name}: response {status} {media_type} has no example"
                );
            }
        }
    }
}

fn check_extractor_rejections(doc: &Value) {
    for (name, operation) in operations(doc) {
        if operation.get("requestBody").is_none() {
            continue;
        }
        for status in ["400", "413", "415"] {
            assert!(
                operation["responses"].get(status).is_some(),
                "{name} reads a body but does not document {status}: \
                 add `JsonBodyRejections` to its responses"
            );
        }
    }
}

fn check_problem_json_errors(doc: &Value) {
    for (name, operation) in operations(doc) {
        let responses = operation["responses"].as_object().expect("responses");
        for (status, response) in responses {
            if !(status.starts_with('4') || status.starts_with('5')) {
                continue;
            }
            let content = response["content"].as_object();
            let problem = content.and_then(|c| c.get("application/problem+json"));
            assert!(
                problem.is_some(),
                "{name}: response {status} is not application/problem+json"
            );
            assert_eq!(
                problem.map(|p| &p["schema"]["$ref"]),
                Some(&Value::from("#/components/schemas/Problem")),
                "{name}: response {status} does not use the Problem schema"
            );
        }
    }
}

fn check_references(doc: &Value) {
    fn walk<'a>(value: &'a Value, refs: &mut Vec<&'a str>) {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(target)) = map.get("$ref") {
                    refs.push(target);
                }
                map.values().for_each(|v| walk(v, refs));
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, refs)),
            _ => {}
        }
    }
    let mut refs = Vec::new();
    walk(doc, &mut refs);
    for target in refs {
        let pointer = target.strip_prefix('#').unwrap_or(target);
        assert!(doc.pointer(pointer).is_some(), "dangling $ref {target}");
    }
}

/// Every check, on one document.
fn check_all(doc: &Value) {
    check_summaries_descriptions_and_tags(doc);
    check_client_errors(doc);
    check_body_examples(doc);
    check_extractor_rejections(doc);
    check_problem_json_errors(doc);
    check_references(doc);
}

#[test]
fn every_operation_is_fully_documented() {
    let doc = document();
    for name in NO_CLIENT_ERRORS {
        assert!(
            operations(&doc).iter().any(|(n, _)| n == name),
            "{name} is listed as exempt but does not exist"
        );
    }
    check_all(&doc);
}

/// A resource written the documented way (see `src/routes/mod.rs`); it is here
/// so the recipe itself is checked before the first real resource uses it.
mod sample {
    use actix_web::{post, web};
    use gin_referee::http::json::ValidJson;
    use gin_referee::http::problem::{ErrorCode, HttpProblem, Problem};
    use serde::{Deserialize, Serialize};
    use utoipa::ToSchema;

    /// A hand to look at.
    #[derive(Debug, Deserialize, ToSchema)]
    #[serde(deny_unknown_fields)]
    pub struct SampleRequest {
        /// Ten or eleven cards.
        pub hand: Vec<String>,
    }

    /// What was found.
    #[derive(Debug, Serialize, ToSchema)]
    pub struct SampleResponse {
        /// Number of cards.
        pub cards: usize,
    }

    gin_contract::problem_responses!(
        /// What `POST /v1/sample` can answer besides 200.
        SampleErrors: [MalformedJson, InvalidBody, PayloadTooLarge, UnsupportedMediaType,
            UnsupportedContentEncoding, RequestTimeout, WrongCardCount]
    );

    /// Count the cards of a hand.
    #[utoipa::path(
        tag = "hands",
        summary = "Count cards",
        description = "Counts the cards of a hand; more than eleven is a 422.",
        request_body(content = SampleRequest, example = json!({"hand": ["7S", "7H"]})),
        responses(
            (status = 200, description = "The count.", body = SampleResponse,
             example = json!({"cards": 2})),
            SampleErrors,
        )
    )]
    #[post("/v1/sample")]
    pub async fn count(
        body: ValidJson<SampleRequest>,
    ) -> Result<web::Json<SampleResponse>, HttpProblem> {
        if body.hand.len() > 11 {
            return Err(HttpProblem(Problem::new(
                ErrorCode::WrongCardCount,
                format!("a hand has 10 or 11 cards, not {}", body.hand.len()),
            )));
        }
        Ok(web::Json(SampleResponse {
            cards: body.hand.len(),
        }))
    }
}

#[test]
fn a_resource_documented_the_recommended_way_passes_every_check() {
    use utoipa::OpenApi as _;
    use utoipa_actix_web::AppExt as _;

    let (_, api) = actix_web::App::new()
        .into_utoipa_app()
        .openapi(gin_referee::http::openapi::ApiDoc::openapi())
        .configure(gin_referee::routes::configure)
        .configure(|cfg| {
            cfg.service(sample::count);
        })
        .split_for_parts();
    let doc: Value = serde_json::to_value(&api).expect("the document is JSON");
    assert!(doc["paths"].get("/v1/sample").is_some());
    check_all(&doc);
}
