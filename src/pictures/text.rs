//! Text on a picture: what XML can hold, numbers and names read from JSON,
//! cards as rank and suit, and the receipt's printed fingerprint.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// `text` without the characters XML 1.0 cannot hold even escaped (controls
/// other than tab and newline, lone surrogates cannot occur in a `str`, and
/// U+FFFE/U+FFFF), each replaced by U+FFFD. maud escapes the rest.
pub fn clean(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' | '\n' => ' ',
            '\u{0}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}' => '\u{fffd}',
            c => c,
        })
        .collect()
}

/// At most `limit` characters of `text` (cleaned), with an ellipsis when cut:
/// for headings in a column of fixed width (the full text is in the title
/// and the table).
pub fn short(text: &str, limit: usize) -> String {
    let cleaned = clean(text);
    if cleaned.chars().count() <= limit {
        return cleaned;
    }
    let mut cut: String = cleaned.chars().take(limit.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// `value[key]`, or null: JSON's own indexing, written so that the lint on
/// indexing (which cannot tell it never panics) has nothing to flag.
pub fn field<'a>(value: &'a Value, key: &str) -> &'a Value {
    value.get(key).unwrap_or(&Value::Null)
}

/// `value[index]`, or null.
pub fn item(value: &Value, index: usize) -> &Value {
    value.get(index).unwrap_or(&Value::Null)
}

/// A JSON value as printed on a sheet: numbers as they are, strings as they
/// are, anything else (null, absent) as nothing.
pub fn figure(value: &Value) -> Option<String> {
    match value {
        Value::Number(number) => Some(number.to_string()),
        Value::String(text) => Some(clean(text)),
        Value::Bool(flag) => Some(flag.to_string()),
        _ => None,
    }
}

/// A string field, or "" (for labels).
pub fn string(value: &Value) -> String {
    value.as_str().map(clean).unwrap_or_default()
}

/// A card as drawn: its rank (`10` for T) and its suit symbol followed by
/// U+FE0E (text presentation, so that phones draw no emoji), and whether it
/// is red. A joker (`X1`) is drawn as `Jkr`; anything else as itself.
pub fn card(code: &str) -> (String, bool) {
    let mut chars = code.chars();
    let (Some(rank), Some(suit), None) = (chars.next(), chars.next(), chars.next()) else {
        return (clean(code), false);
    };
    let rank = match rank {
        'T' => "10".to_owned(),
        'X' => return ("Jkr".to_owned(), false),
        other => other.to_string(),
    };
    let (symbol, red) = match suit {
        'S' => ('\u{2660}', false),
        'H' => ('\u{2665}', true),
        'D' => ('\u{2666}', true),
        'C' => ('\u{2663}', false),
        _ => return (clean(code), false),
    };
    (format!("{rank}{symbol}\u{fe0e}"), red)
}

/// The receipt's `kid` (from its protected header) and the first 16 hex
/// digits of the SHA-256 of the whole JWS, as a printed sheet shows them.
pub fn receipt_fingerprint(jws: &str) -> (String, String) {
    let kid = jws
        .split('.')
        .next()
        .and_then(|header| URL_SAFE_NO_PAD.decode(header).ok())
        .and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok())
        .and_then(|header| header.get("kid").and_then(Value::as_str).map(clean))
        .unwrap_or_default();
    let digest = Sha256::digest(jws.as_bytes());
    let hex: String = digest
        .iter()
        .take(8)
        .map(|byte| format!("{byte:02x}"))
        .collect();
    (kid, hex)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_forbidden_characters_are_replaced() {
        assert_eq!(clean("a\u{0}b\u{1b}c\nd"), "a\u{fffd}b\u{fffd}c d");
        assert_eq!(clean("<Mom & \"Dad\">"), "<Mom & \"Dad\">");
    }

    #[test]
    fn cards_have_a_rank_and_a_text_suit() {
        assert_eq!(card("TH"), ("10\u{2665}\u{fe0e}".to_owned(), true));
        assert_eq!(card("AS"), ("A\u{2660}\u{fe0e}".to_owned(), false));
        assert_eq!(card("X1"), ("Jkr".to_owned(), false));
        assert_eq!(card("??"), ("??".to_owned(), false));
    }

    #[test]
    fn the_fingerprint_is_the_kid_and_sixteen_hex_digits() {
        let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"EdDSA","kid":"k1"}"#);
        let jws = format!("{header}.cGF5bG9hZA.c2ln");
        let (kid, digest) = receipt_fingerprint(&jws);
        assert_eq!(kid, "k1");
        assert_eq!(digest.len(), 16);
        let full = format!("{:x}", Sha256::digest(jws.as_bytes()));
        assert!(full.starts_with(&digest));
        assert_eq!(short("abcdefgh", 5), "abcd…");
    }
}
