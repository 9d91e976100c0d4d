//! Ceilings on what one request may ask for, and the cost model they buy.
//!
//! The body limit (`--body-limit`, 64 KiB) bounds what a request costs to *read*;
//! it does not bound what it costs to *answer*: before these ceilings a 64 KiB
//! `/v1/matches/score` with two 16,000-character names and 2,391 void hands
//! answered 306.7 MB (4,676x its size), because every hand's result repeats the
//! names. Every list and string a request carries therefore has a ceiling, in the
//! schema (`maxItems`, `maxLength`) and checked by the handler:
//!
//! | ceiling                                    | default | flag                  | range      |
//! |--------------------------------------------|--------:|-----------------------|------------|
//! | characters in a player name                |      40 | `--max-name-length`   | 1..=1024   |
//! | hands in `/v1/matches/score`               |     500 | `--max-match-hands`   | 1..=10000  |
//! | actions in `/v1/hands/audit`               |     256 | `--max-audit-actions` | 1..=100000 |
//! | melds in `/v1/melds/validate`              |      64 | `--max-melds`         | 1..=10000  |
//! | cards in any card list                     |      52 | (fixed: a deck)       |            |
//! | melds declared for one hand                |      17 | (fixed: 52 / 3)       |            |
//!
//! A request over a ceiling is a 400 `invalid_body` whose error points at the
//! list or string (`/hands`, `/players/0`) with the code `too_many_items` or
//! `too_long`. The document served at `/api-docs/openapi.json` states the
//! ceilings the server runs with; the committed one, the defaults.
//!
//! # What a request within the limits can cost
//!
//! Figures for the defaults; `scripts/cost.py` measures them (BENCHMARKS.md,
//! "Limits and what a request can cost"). "Answer" is the largest body, "work"
//! the most the referee does.
//!
//! - `/v1/hands/analyze`: at most 11 cards, so at most 11 discards, each with one
//!   arrangement, or every optimal arrangement of 10 cards (at most a few dozen:
//!   the set choices of at most three ranks). Answer about 2 KB; work a few
//!   microseconds.
//! - `/v1/layoffs`, `/v1/hands/score`: two hands of 10-11 cards; the knocker's
//!   arrangements are enumerated once (same bound), the defender's best reply is
//!   a search over at most 10 cards. Answer under 2 KB; microseconds.
//! - `/v1/melds/validate`: at most 64 melds of at most 52 cards. Each verdict
//!   echoes its meld's cards and at most one problem per rule broken; a
//!   cross-meld problem names one card and the melds holding it. Measured worst:
//!   64 one-card melds answer 37x their size (17 KB); 64 whole decks 23x
//!   (459 KB). Work linear in the cards.
//! - `/v1/matches/score`: at most 500 hands. Each result carries the winner's
//!   name, the running totals (two names) and, under Hollywood, three games'
//!   running totals: at most 8 names per hand. A name of 40 characters is at most
//!   160 bytes of UTF-8, which is why the name ceiling is 40 and not 64: with 64
//!   four-byte characters a 14-byte `{"void":true}` would answer about 2.2 KB,
//!   over 128x. Measured worst (500 void hands, 40 four-byte characters per name,
//!   Hollywood): 746 KB from 7.4 KB, 101x. Each card hand costs one scoring
//!   (microseconds): a whole request stays under 10 ms of CPU.
//! - `/v1/hands/audit`: at most 256 actions replayed, each in constant time but
//!   the knock (one scoring); the answer is one hand's score and at most one
//!   violation, under 2 KB.
//!
//! Raising a ceiling raises these figures in proportion; the body limit still
//! caps the input, so e.g. `--max-match-hands 10000` lets a 64 KiB body of
//! about 4,600 void hands through (about 3.7 MB answered under Hollywood with
//! one-letter names).

use std::future::{Ready, ready};

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest};
use clap::Args;
use gin_rules::MAX_MATCH_HANDS;
use utoipa::openapi::schema::{ArrayItems, Schema};
use utoipa::openapi::{OpenApi, RefOr};

use super::ndjson::BatchLimits;
use super::problem::{ErrorCode, Problem};

/// Default longest player name, in characters.
pub const DEFAULT_MAX_NAME_LENGTH: usize = 40;
/// Default most hands in one `/v1/matches/score` request. A match to 100 points
/// rarely takes 30 hands and a Hollywood match rarely 80; 500 leaves room for
/// long matches with many void hands.
pub const DEFAULT_MAX_MATCH_HANDS: usize = 500;
/// Default most actions in one `/v1/hands/audit` transcript. A hand drawn to the
/// end of the stock takes about 70 actions; taking from the discard pile does not
/// shorten the stock, so a legal hand can be longer, rarely past 100.
pub const DEFAULT_MAX_AUDIT_ACTIONS: usize = 256;
/// Default most melds in one `/v1/melds/validate` request: a deck holds at most
/// 17 disjoint melds, so 64 leaves room for checking candidate melds that overlap.
pub const DEFAULT_MAX_MELDS: usize = 64;
/// Most cards in any card list (a deck: a longer list must repeat a card),
/// and most melds declared for one hand (17 disjoint melds of three use 51
/// cards); the rules library refuses longer lists while reading them.
pub use gin_rules::bounded::{MAX_CARDS, MAX_DECLARED_MELDS};

/// The ceilings of one server, set by flags (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Args)]
pub struct RequestLimits {
    /// Longest player name, in characters (1 to 1024).
    #[arg(long = "max-name-length", env = "GIN_REFEREE_MAX_NAME_LENGTH", value_name = "CHARS",
          default_value_t = DEFAULT_MAX_NAME_LENGTH,
          value_parser = ceiling::<1024>)]
    pub name_length: usize,

    /// Most hands in one /v1/matches/score request (1 to 10000, the most the
    /// rules crate scores in one match).
    #[arg(long = "max-match-hands", env = "GIN_REFEREE_MAX_MATCH_HANDS", value_name = "N",
          default_value_t = DEFAULT_MAX_MATCH_HANDS,
          value_parser = ceiling::<MAX_MATCH_HANDS>)]
    pub match_hands: usize,

    /// Most actions in one /v1/hands/audit transcript (1 to 100000).
    #[arg(long = "max-audit-actions", env = "GIN_REFEREE_MAX_AUDIT_ACTIONS", value_name = "N",
          default_value_t = DEFAULT_MAX_AUDIT_ACTIONS,
          value_parser = ceiling::<100_000>)]
    pub audit_actions: usize,

    /// Most melds in one /v1/melds/validate request (1 to 10000).
    #[arg(long = "max-melds", env = "GIN_REFEREE_MAX_MELDS", value_name = "N",
          default_value_t = DEFAULT_MAX_MELDS,
          value_parser = ceiling::<10_000>)]
    pub melds: usize,
}

/// Parses a ceiling flag: a whole number from 1 to `MAX`.
fn ceiling<const MAX: usize>(value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(n) if (1..=MAX).contains(&n) => Ok(n),
        Ok(n) => Err(format!("{n} is not in 1..={MAX}")),
        Err(_) => Err(format!("expected a whole number from 1 to {MAX}")),
    }
}

impl Default for RequestLimits {
    fn default() -> Self {
        RequestLimits {
            name_length: DEFAULT_MAX_NAME_LENGTH,
            match_hands: DEFAULT_MAX_MATCH_HANDS,
            audit_actions: DEFAULT_MAX_AUDIT_ACTIONS,
            melds: DEFAULT_MAX_MELDS,
        }
    }
}

/// A handler takes `limits: RequestLimits` to learn the server's ceilings: the
/// ones registered with `App::app_data`, or the defaults in an app built without
/// them (tests), so the extractor never fails.
impl FromRequest for RequestLimits {
    type Error = actix_web::Error;
    type Future = Ready<Result<RequestLimits, actix_web::Error>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(Ok(request
            .app_data::<RequestLimits>()
            .copied()
            .unwrap_or_default()))
    }
}

/// `Ok` when `len` items are at most `max`; else the 400 pointing at the list.
pub fn check_items(pointer: &str, what: &str, len: usize, max: usize) -> Result<(), Problem> {
    if len <= max {
        return Ok(());
    }
    let message = format!("{len} {what}; at most {max} are accepted");
    Err(
        Problem::new(ErrorCode::InvalidBody, format!("{pointer}: {message}")).with_error(
            pointer,
            ErrorCode::TooManyItems,
            message,
        ),
    )
}

/// `Ok` when `text` has at most `max` characters; else the 400 pointing at it.
/// The message gives the length, never the text (which may be huge).
pub fn check_length(pointer: &str, text: &str, max: usize) -> Result<(), Problem> {
    let chars = text.chars().count();
    if chars <= max {
        return Ok(());
    }
    let message = format!("{chars} characters; at most {max} are accepted");
    Err(
        Problem::new(ErrorCode::InvalidBody, format!("{pointer}: {message}")).with_error(
            pointer,
            ErrorCode::TooLong,
            message,
        ),
    )
}

impl RequestLimits {
    /// Writes these ceilings into an OpenAPI document where the schema states
    /// them, so the served document tells clients what this server accepts
    /// (`maxItems` for arrays, `maxLength` for strings). Returns the places
    /// that were not found (a schema renamed or reshaped), which a test keeps
    /// empty.
    pub fn apply_to_openapi(&self, api: &mut OpenApi, batch: &BatchLimits) -> Vec<String> {
        let mut missing = Vec::new();
        for (pointer, keyword, max) in self.schema_places(batch) {
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

    /// Where each ceiling sits in the OpenAPI document: the configurable ones,
    /// then the fixed ones (every list of cards holds at most a deck, every
    /// list of declared melds at most 17, a card's text at most 3 characters,
    /// as in "10♠"). Lists over a fixed ceiling necessarily repeat a card or
    /// hold a group that is no meld, so the rules refuse them (422) before
    /// they cost anything; the schema states the bound so that clients and
    /// generated code know it.
    fn schema_places(&self, batch: &BatchLimits) -> Vec<(String, &'static str, usize)> {
        const SCHEMAS: &str = "/components/schemas";
        let places = [
            (
                "MatchRequest/properties/players/items",
                "maxLength",
                self.name_length,
            ),
            (
                "CountHand/properties/knocker",
                "maxLength",
                self.name_length,
            ),
            ("CardHand/properties/knocker", "maxLength", self.name_length),
            (
                "CountHand/properties/defender",
                "maxLength",
                self.name_length,
            ),
            (
                "CardHand/properties/defender",
                "maxLength",
                self.name_length,
            ),
            (
                "VoidHand/properties/players/items",
                "maxLength",
                self.name_length,
            ),
            ("TeamSpec/properties/name", "maxLength", self.name_length),
            (
                "TeamSpec/properties/players/items",
                "maxLength",
                self.name_length,
            ),
            (
                "MatchRequest/properties/hands",
                "maxItems",
                self.match_hands,
            ),
            (
                "MatchAuditRequest/properties/players/items",
                "maxLength",
                self.name_length,
            ),
            (
                "MatchAuditRequest/properties/hands",
                "maxItems",
                self.match_hands,
            ),
            (
                "HandRecord/properties/dealer",
                "maxLength",
                self.name_length,
            ),
            (
                "HandRecord/properties/non_dealer",
                "maxLength",
                self.name_length,
            ),
            (
                "HandRecord/properties/actions",
                "maxItems",
                self.audit_actions,
            ),
            (
                "AuditRequest/properties/actions",
                "maxItems",
                self.audit_actions,
            ),
            (
                "StateRequest/properties/actions",
                "maxItems",
                self.audit_actions,
            ),
            ("ValidateRequest/properties/melds", "maxItems", self.melds),
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
        ];
        let mut places: Vec<(String, &str, usize)> = places
            .into_iter()
            .map(|(place, keyword, max)| (format!("{SCHEMAS}/{place}"), keyword, max))
            .collect();
        for melds in [
            "KnockerHand/properties/melds",
            "DefenderHand/properties/melds",
            "Action/oneOf/3/properties/melds",
            "Action/oneOf/4/properties/melds",
        ] {
            places.push((format!("{SCHEMAS}/{melds}"), "maxItems", MAX_DECLARED_MELDS));
            places.push((format!("{SCHEMAS}/{melds}/items"), "maxItems", MAX_CARDS));
        }
        // A batch's request lines (`AuditRequestLine`, ...) are the single
        // requests with an `id`: the same ceilings, checked by the same code.
        let lines: Vec<_> = places
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
            .collect();
        places.extend(lines);
        // A batch body is documented as an array of its lines.
        let lines = usize::try_from(batch.lines).unwrap_or(usize::MAX);
        for route in [
            "/v1/hands/analyze/batch",
            "/v1/hands/score/batch",
            "/v1/melds/validate/batch",
            "/v1/layoffs/batch",
            "/v1/hands/audit/batch",
        ] {
            let path = route.replace('/', "~1");
            places.push((
                format!("/paths/{path}/post/requestBody/content/application~1x-ndjson/schema"),
                "maxItems",
                lines,
            ));
        }
        places
    }
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
    fn a_list_at_its_ceiling_passes_and_one_more_is_refused_with_a_pointer() {
        assert!(check_items("/hands", "hands", 500, 500).is_ok());
        let problem = check_items("/hands", "hands", 501, 500).unwrap_err();
        assert_eq!(problem.status.as_u16(), 400);
        assert_eq!(problem.errors[0].pointer, "/hands");
        assert_eq!(problem.errors[0].code, "too_many_items");
        assert!(problem.errors[0].message.contains("501 hands"));
    }

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
        for (pointer, keyword, max) in limits.schema_places(&batch) {
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

    #[test]
    fn ceilings_outside_their_range_are_refused() {
        assert_eq!(ceiling::<1024>("1024"), Ok(1024));
        assert!(ceiling::<1024>("1025").is_err());
        assert!(ceiling::<1024>("0").is_err());
        assert!(ceiling::<1024>("-3").is_err());
    }

    #[test]
    fn a_long_name_is_measured_in_characters_and_never_echoed() {
        assert!(check_length("/players/0", &"é".repeat(40), 40).is_ok());
        let name = "x".repeat(16_000);
        let problem = check_length("/players/0", &name, 40).unwrap_err();
        assert_eq!(problem.errors[0].code, "too_long");
        assert!(
            problem.body().len() < 500,
            "the answer must not echo the name"
        );
    }
}
