//! Content negotiation: which representation an `Accept` header asks for.
//!
//! JSON is the default, also for a client that accepts anything. A picture
//! (`image/svg+xml` or `text/html`) is answered only to a client that names its
//! media type with a q-value above 0 and above `application/json`'s and names
//! no wildcard that could cover a picture (`*/*`, `*`, `image/*`, `text/*`):
//! Java's default `Accept` and a browser's navigation list `text/html` first and
//! then `*/*`, and they must keep getting JSON. When both pictures qualify, the
//! higher q-value wins, and on a tie the one listed first. When neither a
//! picture nor JSON is acceptable the answer is 406 `not_acceptable`.
//!
//! The header is read once, in one pass over at most the size actix admits for
//! a request head; a range that does not parse (no `/`, a q-value that is not a
//! number from 0 to 1) is ignored, as if absent.

use actix_web::http::header::{self, HeaderMap};

use crate::http::problem::{ErrorCode, Problem};

/// The operations that answer pictures as well as JSON; every other operation
/// whose body is JSON answers JSON only.
pub const PICTURE_ROUTES: [&str; 3] = ["/v1/matches/score", "/v1/matches/audit", "/v1/hands/audit"];

/// A representation of an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Representation {
    Json,
    Svg,
    Html,
}

impl Representation {
    /// The media type the answer carries.
    pub const fn media_type(self) -> &'static str {
        match self {
            Representation::Json => "application/json",
            Representation::Svg => "image/svg+xml",
            Representation::Html => "text/html",
        }
    }
}

/// What the operations offer: JSON only, or JSON and the two pictures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Offers {
    JsonOnly,
    JsonAndPictures,
}

/// One media range of the header, lowercased, with its q-value in thousandths.
struct Range<'a> {
    kind: &'a str,
    subtype: &'a str,
    quality: u16,
}

/// The q-value of a range's parameters (1 when absent), in thousandths; `None`
/// when it does not parse.
fn quality<'a>(params: impl Iterator<Item = &'a str>) -> Option<u16> {
    for param in params {
        let Some((name, value)) = param.split_once('=') else {
            continue;
        };
        if !name.trim().eq_ignore_ascii_case("q") {
            continue;
        }
        let value: f64 = value.trim().parse().ok()?;
        if !(0.0..=1.0).contains(&value) {
            return None;
        }
        // Within 0..=1000 by the check above, so the cast is exact.
        return Some((value * 1000.0).round() as u16);
    }
    Some(1000)
}

fn parse(range: &str) -> Option<Range<'_>> {
    let mut parts = range.split(';');
    let media = parts.next()?.trim();
    let (kind, subtype) = match media.split_once('/') {
        Some((kind, subtype)) => (kind.trim(), subtype.trim()),
        // A lone `*` is a wildcard some clients send for `*/*`.
        None if media == "*" => ("*", "*"),
        None => return None,
    };
    if kind.is_empty() || subtype.is_empty() {
        return None;
    }
    Some(Range {
        kind,
        subtype,
        quality: quality(parts)?,
    })
}

/// The negotiated outcome over one header value (the request's `Accept`
/// headers joined with commas).
fn choose(accept: &str, offers: Offers) -> Option<Representation> {
    // (specificity, q) of the most specific range matching application/json.
    let mut json: Option<(u8, u16)> = None;
    let mut wildcard = false;
    let mut best: Option<(Representation, u16)> = None;
    for range in accept.split(',').filter_map(parse) {
        let is = |kind: &str, subtype: &str| {
            range.kind.eq_ignore_ascii_case(kind) && range.subtype.eq_ignore_ascii_case(subtype)
        };
        let json_match = if is("application", "json") {
            Some(2)
        } else if is("application", "*") {
            Some(1)
        } else if is("*", "*") {
            Some(0)
        } else {
            None
        };
        if let Some(specificity) = json_match
            && json.is_none_or(|(known, _)| specificity > known)
        {
            json = Some((specificity, range.quality));
        }
        wildcard |= is("*", "*") || is("image", "*") || is("text", "*");
        let picture = if is("image", "svg+xml") {
            Some(Representation::Svg)
        } else if is("text", "html") {
            Some(Representation::Html)
        } else {
            None
        };
        if let Some(picture) = picture
            && range.quality > 0
            && best.is_none_or(|(_, q)| range.quality > q)
        {
            best = Some((picture, range.quality));
        }
    }
    let json_quality = json.map_or(0, |(_, q)| q);
    match best {
        Some((picture, q))
            if offers == Offers::JsonAndPictures && !wildcard && q > json_quality =>
        {
            Some(picture)
        }
        _ if json_quality > 0 => Some(Representation::Json),
        _ => None,
    }
}

/// The representation a request's `Accept` asks for among `offers`, or the
/// 406 problem when it accepts none of them. No `Accept` (or an empty one, or
/// one that is not text) is JSON.
pub fn negotiate(headers: &HeaderMap, offers: Offers) -> Result<Representation, Problem> {
    let mut joined = String::new();
    for value in headers.get_all(header::ACCEPT) {
        let Ok(value) = value.to_str() else {
            continue;
        };
        if !joined.is_empty() {
            joined.push(',');
        }
        joined.push_str(value);
    }
    if joined.split(',').all(|range| range.trim().is_empty()) {
        return Ok(Representation::Json);
    }
    choose(&joined, offers).ok_or_else(|| {
        let offered = match offers {
            Offers::JsonOnly => "application/json",
            Offers::JsonAndPictures => "application/json, image/svg+xml and text/html",
        };
        // The header is echoed inside a JSON string of the problem, which
        // escapes it; a long one is cut so that the answer stays small.
        let shown: String = joined.chars().take(200).collect();
        Problem::new(
            ErrorCode::NotAcceptable,
            format!(
                "nothing in Accept {shown:?} is offered here; this operation answers {offered}"
            ),
        )
    })
}

/// Documents 406 `not_acceptable` on every operation that reads a JSON body
/// (the bulk ones, which answer NDJSON or an array, negotiate nothing): each
/// of them answers it before reading the body.
pub fn document(api: &mut utoipa::openapi::OpenApi) {
    let refused = gin_contract::problem::error_responses(&[ErrorCode::NotAcceptable]);
    for (path, item) in api.paths.paths.iter_mut() {
        if path.ends_with("/batch") {
            continue;
        }
        let Some(operation) = item.post.as_mut() else {
            continue;
        };
        let reads_json = matches!(
            &operation.request_body,
            Some(utoipa::openapi::RefOr::T(body)) if body.content.contains_key("application/json")
        );
        if reads_json {
            for (status, response) in &refused {
                operation
                    .responses
                    .responses
                    .insert(status.clone(), response.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Representation::*;

    fn pick(accept: &str) -> Option<Representation> {
        choose(accept, Offers::JsonAndPictures)
    }

    #[test]
    fn a_client_that_names_a_picture_without_wildcards_gets_it() {
        assert_eq!(pick("image/svg+xml"), Some(Svg));
        assert_eq!(pick("text/html"), Some(Html));
        assert_eq!(pick("TEXT/HTML; charset=utf-8"), Some(Html));
        assert_eq!(pick("image/svg+xml, application/json;q=0.5"), Some(Svg));
        assert_eq!(pick("text/html;q=0.4, image/svg+xml;q=0.9"), Some(Svg));
        // A tie goes to the one listed first.
        assert_eq!(pick("text/html, image/svg+xml"), Some(Html));
        assert_eq!(pick("image/svg+xml, text/html"), Some(Svg));
    }

    #[test]
    fn a_client_that_accepts_anything_keeps_json() {
        // Java's HttpURLConnection default, and a browser's navigation.
        assert_eq!(
            pick("text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2"),
            Some(Json)
        );
        assert_eq!(
            pick("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"),
            Some(Json)
        );
        assert_eq!(pick("*/*"), Some(Json));
        assert_eq!(
            pick("image/svg+xml, image/*;q=0.1, application/json;q=0.01"),
            Some(Json)
        );
        assert_eq!(pick("image/svg+xml, image/*;q=0.1"), None);
        assert_eq!(pick("application/json"), Some(Json));
        assert_eq!(pick("application/*"), Some(Json));
    }

    #[test]
    fn json_preferred_or_equal_wins_over_a_picture() {
        assert_eq!(pick("image/svg+xml;q=0.5, application/json"), Some(Json));
        assert_eq!(pick("image/svg+xml, application/json"), Some(Json));
        assert_eq!(
            pick("image/svg+xml;q=0, application/json;q=0.1"),
            Some(Json)
        );
    }

    #[test]
    fn nothing_acceptable_is_none() {
        assert_eq!(pick("image/svg+xml;q=0"), None);
        assert_eq!(pick("image/png"), None);
        // A wildcard rules the picture out and covers no JSON.
        assert_eq!(pick("text/*"), None);
        assert_eq!(pick("application/json;q=0, text/html;q=0"), None);
        assert_eq!(choose("image/svg+xml", Offers::JsonOnly), None);
        assert_eq!(choose("text/html, */*;q=0.1", Offers::JsonOnly), Some(Json));
    }

    #[test]
    fn ranges_that_do_not_parse_are_ignored() {
        assert_eq!(pick("garbage, image/svg+xml"), Some(Svg));
        assert_eq!(pick("image/svg+xml;q=2"), None);
        assert_eq!(pick("image/svg+xml;q=abc, application/json"), Some(Json));
        assert_eq!(pick(";;;,,,/"), None);
    }

    #[test]
    fn no_header_is_json_and_a_refusal_names_the_offers() {
        let headers = HeaderMap::new();
        assert_eq!(negotiate(&headers, Offers::JsonOnly).ok(), Some(Json));
        let mut headers = HeaderMap::new();
        headers.insert(
            header::ACCEPT,
            header::HeaderValue::from_static("image/svg+xml"),
        );
        let problem = negotiate(&headers, Offers::JsonOnly).err();
        assert_eq!(problem.map(|p| p.code), Some(ErrorCode::NotAcceptable));
        assert_eq!(negotiate(&headers, Offers::JsonAndPictures).ok(), Some(Svg));
    }
}
