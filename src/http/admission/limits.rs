//! The request ceilings as the server applies them: set by flags, taken by
//! handlers as an extractor, and written into the served OpenAPI document.
//! What each ceiling bounds, and the cost argued from it, is in
//! [`gin_contract::limits`].

use std::future::{Ready, ready};

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest};
use clap::Args;
use utoipa::openapi::schema::{ArrayItems, Schema};
use utoipa::openapi::{OpenApi, RefOr};

pub use gin_contract::limits::{
    DEFAULT_MAX_AUDIT_ACTIONS, DEFAULT_MAX_MATCH_HANDS, DEFAULT_MAX_MELDS, DEFAULT_MAX_NAME_LENGTH,
    MAX_CARDS, MAX_DECLARED_MELDS, RequestLimits,
};

/// The server's ceilings, as a handler takes them (`ServerLimits(limits):
/// ServerLimits`): the ones registered with `App::app_data`, or the defaults
/// in an app built without them (tests), so the extractor never fails.
#[derive(Debug, Clone, Copy)]
pub struct ServerLimits(pub RequestLimits);

impl FromRequest for ServerLimits {
    type Error = actix_web::Error;
    type Future = Ready<Result<ServerLimits, actix_web::Error>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(Ok(ServerLimits(
            request
                .app_data::<RequestLimits>()
                .copied()
                .unwrap_or_default(),
        )))
    }
}
/// The limits of one batch, set by flags (see the module docs of
/// [`crate::http::bulk::ndjson`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Args)]
pub struct BatchLimits {
    /// Longest line of a batch, in bytes (1024 to 16777216).
    #[arg(long = "batch-max-line-bytes", env = "GIN_REFEREE_BATCH_MAX_LINE_BYTES",
          value_name = "BYTES", default_value_t = 64 * 1024,
          value_parser = clap::value_parser!(u32).range(1024..=16_777_216))]
    pub line_bytes: u32,
    /// Most lines in one batch (1 to 100000000).
    #[arg(long = "batch-max-lines", env = "GIN_REFEREE_BATCH_MAX_LINES", value_name = "N",
          default_value_t = 10_000_000,
          value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub lines: u64,
    /// Seconds one batch may take from its first byte to its last answer
    /// (1 to 86400).
    #[arg(long = "batch-timeout", env = "GIN_REFEREE_BATCH_TIMEOUT", value_name = "SECONDS",
          default_value_t = 600,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub timeout_secs: u64,
}

impl Default for BatchLimits {
    fn default() -> Self {
        BatchLimits {
            line_bytes: 64 * 1024,
            lines: 10_000_000,
            timeout_secs: 600,
        }
    }
}

/// The ceilings in the OpenAPI document.
pub trait LimitsInOpenApi {
    fn apply_to_openapi(&self, api: &mut OpenApi, batch: &BatchLimits) -> Vec<String>;
}

impl LimitsInOpenApi for RequestLimits {
    /// Writes these ceilings into an OpenAPI document where the schema states
    /// them, so the served document tells clients what this server accepts
    /// (`maxItems` for arrays, `maxLength` for strings). Returns the places
    /// that were not found (a schema renamed or reshaped), which a test keeps
    /// empty.
    fn apply_to_openapi(&self, api: &mut OpenApi, batch: &BatchLimits) -> Vec<String> {
        let mut missing = Vec::new();
        for (pointer, keyword, max) in schema_places(self, batch) {
            let written = schema_at(api, &pointer).is_some_and(|schema| match (keyword, schema) {
                ("maxItems", Schema::Array(array)) => {
                    array.max_items = Some(max);
                    true
                }
                ("maxLength", Schema::Object(object)) => {
                    object.max_length = Some(max);
                    true
                }
                _ => false,
            });
            if !written {
                missing.push(format!("{pointer} ({keyword})"));
            }
        }
        missing
    }
}

/// Where each ceiling sits in the OpenAPI document: the configurable ones,
/// then the fixed ones (every list of cards holds at most a deck, every
/// list of declared melds at most 17, a card's text at most 3 characters,
/// as in "10♠"). Lists over a fixed ceiling necessarily repeat a card or
/// hold a group that is no meld, so the rules refuse them (422) before
/// they cost anything; the schema states the bound so that clients and
/// generated code know it.
fn schema_places(
    limits: &RequestLimits,
    batch: &BatchLimits,
) -> Vec<(String, &'static str, usize)> {
    let mut places: Vec<(String, &str, usize)> = component_places(limits)
        .into_iter()
        .map(|(place, keyword, max)| (format!("{SCHEMAS}/{place}"), keyword, max))
        .collect();
    places.extend(declared_melds_places());
    let lines = batch_line_places(&places);
    places.extend(lines);
    places.extend(batch_body_places(batch));
    places
}

/// Where the document keeps its component schemas.
const SCHEMAS: &str = "/components/schemas";

/// The ceilings on component schemas, by place under [`SCHEMAS`], keyword
/// and value. A table of data (one row per ceiling), hence its length.
fn component_places(limits: &RequestLimits) -> [(&'static str, &'static str, usize); 37] {
    [
        (
            "MatchRequest/properties/players/items",
            "maxLength",
            limits.name_length,
        ),
        (
            "CountHand/properties/knocker",
            "maxLength",
            limits.name_length,
        ),
        (
            "CardHand/properties/knocker",
            "maxLength",
            limits.name_length,
        ),
        (
            "CountHand/properties/defender",
            "maxLength",
            limits.name_length,
        ),
        (
            "CardHand/properties/defender",
            "maxLength",
            limits.name_length,
        ),
        (
            "VoidHand/properties/players/items",
            "maxLength",
            limits.name_length,
        ),
        ("TeamSpec/properties/name", "maxLength", limits.name_length),
        (
            "TeamSpec/properties/players/items",
            "maxLength",
            limits.name_length,
        ),
        (
            "MatchRequest/properties/hands",
            "maxItems",
            limits.match_hands,
        ),
        (
            "MatchAuditRequest/properties/players/items",
            "maxLength",
            limits.name_length,
        ),
        (
            "MatchAuditRequest/properties/hands",
            "maxItems",
            limits.match_hands,
        ),
        (
            "MatchStateRequest/properties/players/items",
            "maxLength",
            limits.name_length,
        ),
        (
            "MatchStateRequest/properties/seat",
            "maxLength",
            limits.name_length,
        ),
        (
            "MatchStateRequest/properties/hands",
            "maxItems",
            limits.match_hands,
        ),
        (
            "HandRecord/properties/dealer",
            "maxLength",
            limits.name_length,
        ),
        (
            "HandRecord/properties/non_dealer",
            "maxLength",
            limits.name_length,
        ),
        (
            "HandRecord/properties/actions",
            "maxItems",
            limits.audit_actions,
        ),
        (
            "AuditRequest/properties/actions",
            "maxItems",
            limits.audit_actions,
        ),
        (
            "StateRequest/properties/actions",
            "maxItems",
            limits.audit_actions,
        ),
        (
            "HandMoveRequest/properties/actions",
            "maxItems",
            limits.audit_actions,
        ),
        (
            "MatchMoveRequest/properties/players/items",
            "maxLength",
            limits.name_length,
        ),
        (
            "MatchMoveRequest/properties/seat",
            "maxLength",
            limits.name_length,
        ),
        (
            "MatchMoveRequest/properties/hands",
            "maxItems",
            limits.match_hands,
        ),
        (
            "RatedResult/properties/players/items",
            "maxLength",
            limits.name_length,
        ),
        (
            "RatedResult/properties/winner",
            "maxLength",
            limits.name_length,
        ),
        (
            "RatedResult/properties/teams/items",
            "maxItems",
            gin_contract::answers::ratings::MAX_RESULT_PLAYERS,
        ),
        (
            "RatedResult/properties/teams/items/items",
            "maxLength",
            limits.name_length,
        ),
        ("ValidateRequest/properties/melds", "maxItems", limits.melds),
        (
            "ValidateRequest/properties/melds/items",
            "maxItems",
            MAX_CARDS,
        ),
        ("ValidateRequest/properties/hand", "maxItems", MAX_CARDS),
        ("Card", "maxLength", 3),
        ("HandCard", "maxLength", 3),
        ("Deal/properties/dealer", "maxItems", MAX_CARDS),
        ("Deal/properties/non_dealer", "maxItems", MAX_CARDS),
        ("Deal/properties/stock", "maxItems", MAX_CARDS),
        ("DefenderHand/properties/layoffs", "maxItems", MAX_CARDS),
        ("Action/oneOf/4/properties/layoffs", "maxItems", MAX_CARDS),
    ]
}

/// Every list of declared melds: at most [`MAX_DECLARED_MELDS`] melds of at
/// most a deck each.
fn declared_melds_places() -> impl Iterator<Item = (String, &'static str, usize)> {
    [
        "KnockerHand/properties/melds",
        "DefenderHand/properties/melds",
        "Action/oneOf/3/properties/melds",
        "Action/oneOf/4/properties/melds",
    ]
    .into_iter()
    .flat_map(|melds| {
        [
            (format!("{SCHEMAS}/{melds}"), "maxItems", MAX_DECLARED_MELDS),
            (format!("{SCHEMAS}/{melds}/items"), "maxItems", MAX_CARDS),
        ]
    })
}

/// A batch's request lines (`AuditRequestLine`, ...) are the single
/// requests with an `id`: the same ceilings as `places`, checked by the same
/// code.
fn batch_line_places(
    places: &[(String, &'static str, usize)],
) -> Vec<(String, &'static str, usize)> {
    places
        .iter()
        .filter_map(|(place, keyword, max)| {
            ["AuditRequest/", "ValidateRequest/"]
                .iter()
                .find_map(|request| {
                    let rest = place.strip_prefix(&format!("{SCHEMAS}/{request}"))?;
                    let line = request.replace("Request/", "RequestLine/");
                    Some((format!("{SCHEMAS}/{line}{rest}"), *keyword, *max))
                })
        })
        .collect()
}

/// A batch body is documented as an array of its lines: at most the
/// configured number of lines per NDJSON batch route.
fn batch_body_places(batch: &BatchLimits) -> impl Iterator<Item = (String, &'static str, usize)> {
    let lines = usize::try_from(batch.lines).unwrap_or(usize::MAX);
    [
        "/v1/hands/analyze/batch",
        "/v1/hands/score/batch",
        "/v1/melds/validate/batch",
        "/v1/layoffs/batch",
        "/v1/hands/audit/batch",
    ]
    .into_iter()
    .map(move |route| {
        let path = route.replace('/', "~1");
        (
            format!("/paths/{path}/post/requestBody/content/application~1x-ndjson/schema"),
            "maxItems",
            lines,
        )
    })
}

/// The schema at a JSON Pointer of the document, written the way
/// [`RequestLimits::schema_places`] writes them: a component schema
/// (`/components/schemas/NAME`) or an operation's request body
/// (`/paths/PATH/post/requestBody/content/TYPE/schema`, `~1` for `/`), then
/// `properties/NAME`, `items` and `oneOf/N` steps through inline schemas.
/// (The document is patched as utoipa's own types: an OpenAPI document read
/// back from JSON could not hold a schema without a `type`, such as
/// [`any_json`](super::openapi::any_json)'s.)
fn schema_at<'a>(api: &'a mut OpenApi, pointer: &str) -> Option<&'a mut Schema> {
    let unescape = |step: &str| step.replace("~1", "/").replace("~0", "~");
    let mut steps = pointer.strip_prefix('/')?.split('/');
    let mut schema = match (steps.next()?, steps.next()?) {
        ("components", "schemas") => {
            let name = unescape(steps.next()?);
            api.components.as_mut()?.schemas.get_mut(&name)?
        }
        ("paths", path) => {
            let item = api.paths.paths.get_mut(&unescape(path))?;
            let operation = match steps.next()? {
                "post" => item.post.as_mut()?,
                _ => return None,
            };
            let RefOr::T(body) = operation.request_body.as_mut()? else {
                return None;
            };
            if (steps.next()?, steps.next()?) != ("requestBody", "content") {
                return None;
            }
            let RefOr::T(content) = body.content.get_mut(&unescape(steps.next()?))? else {
                return None;
            };
            if steps.next()? != "schema" {
                return None;
            }
            content.schema.as_mut()?
        }
        _ => return None,
    };
    loop {
        let RefOr::T(inner) = schema else {
            return None;
        };
        schema = match (steps.next(), inner) {
            (None, inner) => return Some(inner),
            (Some("properties"), Schema::Object(object)) => {
                object.properties.get_mut(&unescape(steps.next()?))?
            }
            (Some("items"), Schema::Array(array)) => match &mut array.items {
                ArrayItems::RefOrSchema(items) => items.as_mut(),
                ArrayItems::False => return None,
            },
            (Some("oneOf"), Schema::OneOf(one_of)) => {
                one_of.items.get_mut(steps.next()?.parse::<usize>().ok()?)?
            }
            _ => return None,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn every_ceiling_lands_in_the_generated_document() {
        let limits = RequestLimits {
            name_length: 7,
            match_hands: 8,
            audit_actions: 9,
            melds: 10,
        };
        let batch = BatchLimits {
            lines: 11,
            ..BatchLimits::default()
        };
        let document = serde_json::to_value(crate::routes::openapi_for(&limits, &batch)).unwrap();
        for (pointer, keyword, max) in schema_places(&limits, &batch) {
            let schema = document.pointer(&pointer).unwrap_or_else(|| {
                panic!("{pointer} is not in the document: a schema was renamed")
            });
            assert_eq!(schema[keyword], max, "{pointer}");
        }
        let mut api = crate::routes::openapi();
        assert_eq!(
            limits.apply_to_openapi(&mut api, &batch),
            Vec::<String>::new()
        );
    }

    /// Every array and string a request can carry, through `$ref`s, has its
    /// `maxItems` or `maxLength` (a string may instead be an `enum`/`const`).
    #[test]
    fn every_request_array_and_string_is_bounded() {
        fn walk(
            schema: &Value,
            at: &str,
            document: &Value,
            seen: &mut Vec<String>,
            out: &mut Vec<String>,
        ) {
            if let Some(reference) = schema["$ref"].as_str() {
                if !seen.iter().any(|s| s == reference) {
                    seen.push(reference.to_owned());
                    let target = reference
                        .strip_prefix('#')
                        .and_then(|p| document.pointer(p));
                    walk(
                        target.unwrap_or(&Value::Null),
                        reference,
                        document,
                        seen,
                        out,
                    );
                }
                return;
            }
            let types: Vec<&str> = match &schema["type"] {
                Value::String(t) => vec![t.as_str()],
                Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            if types.contains(&"array") && schema.get("maxItems").is_none() {
                out.push(format!("{at}: an array without maxItems"));
            }
            let fixed = schema.get("enum").is_some() || schema.get("const").is_some();
            if types.contains(&"string") && schema.get("maxLength").is_none() && !fixed {
                out.push(format!("{at}: a string without maxLength"));
            }
            if let Some(properties) = schema["properties"].as_object() {
                for (name, property) in properties {
                    walk(
                        property,
                        &format!("{at}/properties/{name}"),
                        document,
                        seen,
                        out,
                    );
                }
            }
            for key in ["items", "additionalProperties"] {
                if schema[key].is_object() {
                    walk(&schema[key], &format!("{at}/{key}"), document, seen, out);
                }
            }
            for key in ["oneOf", "anyOf", "allOf"] {
                for (index, branch) in schema[key].as_array().into_iter().flatten().enumerate() {
                    walk(branch, &format!("{at}/{key}/{index}"), document, seen, out);
                }
            }
        }
        let document = serde_json::to_value(crate::routes::openapi()).unwrap();
        let (mut seen, mut unbounded, mut bodies) = (Vec::new(), Vec::new(), 0);
        for (path, item) in document["paths"].as_object().into_iter().flatten() {
            for (method, operation) in item.as_object().into_iter().flatten() {
                let content = &operation["requestBody"]["content"];
                for (media, body) in content.as_object().into_iter().flatten() {
                    bodies += 1;
                    let at = format!("{method} {path} {media}");
                    walk(&body["schema"], &at, &document, &mut seen, &mut unbounded);
                }
            }
        }
        assert!(bodies >= 12, "{bodies} request bodies found");
        assert!(unbounded.is_empty(), "{unbounded:#?}");
    }
}
