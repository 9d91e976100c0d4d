//! The pictures in the OpenAPI document: the 200 answer of each operation
//! that draws one lists `image/svg+xml` and `text/html` beside
//! `application/json`, with the rule that chooses between them. The examples
//! are drawn when the document is made, by the contract's operations and this
//! module's templates, from the README's match, the match audit's example
//! with a wrong dealer and the hand audit's with an illegal discard.

use utoipa::openapi::content::ContentBuilder;
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::{OpenApi, RefOr};

use gin_contract::json::from_slice;
use gin_contract::limits::RequestLimits;
use gin_contract::wire::receipt::Keys;
use serde_json::{Value, json};

use super::replay::HandRecord;
use super::{Drawing, Picture};
use crate::http::accept::PICTURE_ROUTES;

const NEGOTIATION: &str = "\n\nWith `Accept: image/svg+xml` the answer is its picture (a score \
sheet, or for a hand its replay) as one standalone SVG; with `Accept: text/html` a printable \
page holding the SVG and the same figures as HTML tables. A picture is answered only when \
`Accept` names its media type with a q-value above 0 and above `application/json`'s and names no \
wildcard (`*/*`, `*`, `image/*`, `text/*`): a client that accepts anything gets JSON. Nothing \
acceptable is 406 `not_acceptable`; errors are `application/problem+json` whatever the \
`Accept`. See docs/PICTURES.md.";

fn text_content(description: &str, example: Option<String>) -> utoipa::openapi::content::Content {
    let schema = ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(description));
    ContentBuilder::new()
        .schema(Some(schema))
        .example(example.map(Value::String))
        .build()
}

/// The README's match example: two players, a knock, a void hand, a gin.
pub fn readme_match() -> Value {
    json!({
        "players": ["Mom", "Dad"],
        "hands": [
            {"knocker": "Mom", "knocker_deadwood": 5, "defender_deadwood": 15},
            {"void": true},
            {"knocker": "Dad", "knocker_deadwood": 0, "defender_deadwood": 31}
        ]
    })
}

/// The SVG and the page of `path`'s example, drawn as the service draws them:
/// the README's match, the match audit's example with a wrong dealer, the
/// hand audit's with an illegal discard (no key: unsigned).
fn drawn_examples(path: &str) -> Option<(String, String)> {
    use gin_contract::answers::{audit, match_audit, matches};
    let (limits, keys) = (RequestLimits::default(), Keys::none());
    let draw = |picture| Drawing::of(picture).ok().map(|d| (d.svg(), d.page()));
    match path {
        "/v1/matches/score" => {
            let body = readme_match().to_string().into_bytes();
            let answer = matches::respond(from_slice(&body).ok()?, &body, &limits, &keys).ok()?;
            draw(Picture::MatchScore(&answer))
        }
        "/v1/matches/audit" => {
            let body = match_audit::examples::wrong_dealer()
                .to_string()
                .into_bytes();
            let request = from_slice(&body).ok()?;
            let answer = match_audit::respond(&request, &body, &limits, &keys).ok()?;
            draw(Picture::MatchAudit(&answer))
        }
        "/v1/hands/audit" => {
            let body = audit::examples::illegal_discard().to_string().into_bytes();
            let request: audit::AuditRequest = from_slice(&body).ok()?;
            let record = HandRecord::of(&request);
            let answer = audit::verdict(request, &body, &limits, &keys).ok()?;
            draw(Picture::HandAudit(&answer, &record))
        }
        _ => None,
    }
}

/// Adds the picture media types to the three operations that draw one.
pub fn document(api: &mut OpenApi) {
    for path in PICTURE_ROUTES {
        let path: &str = path;
        let Some(operation) = crate::http::openapi::post_operation(api, path) else {
            continue;
        };
        let sheet = path.starts_with("/v1/matches/");
        let (svg, page) = if sheet {
            (
                "The match's score sheet: a standalone SVG document.",
                "A printable HTML page holding the score sheet and its figures as tables.",
            )
        } else {
            (
                "The hand replayed: a standalone SVG document.",
                "A printable HTML page holding the replay and its actions as a table.",
            )
        };
        let (svg_example, page_example) = drawn_examples(path).unzip();
        if let Some(RefOr::T(ok)) = operation.responses.responses.get_mut("200") {
            ok.content.insert(
                "image/svg+xml".to_owned(),
                RefOr::T(text_content(svg, svg_example)),
            );
            ok.content.insert(
                "text/html".to_owned(),
                RefOr::T(text_content(page, page_example)),
            );
        }
        if let Some(description) = operation.description.as_mut() {
            description.push_str(NEGOTIATION);
        }
    }
}
