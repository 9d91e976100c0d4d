//! Text on a picture: what XML can hold, numbers written without the
//! formatting machinery, cards as rank and suit, and the receipt's printed
//! fingerprint.

use std::borrow::Cow;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use gin_rules::{Card, HandCard, Suit};
use maud::Render;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// Whether XML 1.0 cannot hold `c` even escaped (controls other than tab
/// and newline; lone surrogates cannot occur in a `str`; U+FFFE, U+FFFF), or
/// it is a tab or newline, which a one-line text shows as a space.
const fn replaced(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}')
}

/// `text` without the characters XML 1.0 cannot hold even escaped, each
/// replaced by U+FFFD (tab and newline by a space). maud escapes the rest.
/// Borrowed when there is nothing to replace, as in nearly every name.
pub fn clean(text: &str) -> Cow<'_, str> {
    if !text.chars().any(replaced) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| match c {
                '\t' | '\n' => ' ',
                c if replaced(c) => '\u{fffd}',
                c => c,
            })
            .collect(),
    )
}

/// At most `limit` characters of `text` (cleaned), with an ellipsis when cut:
/// for headings in a column of fixed width (the full text is in the title
/// and the table).
pub fn short(text: &str, limit: usize) -> Cow<'_, str> {
    fit(text, limit).0
}

/// [`short`], and whether the text was cut (a picture then gives the whole
/// in a `<title>`; a text that fits needs none).
pub fn fit(text: &str, limit: usize) -> (Cow<'_, str>, bool) {
    let cleaned = clean(text);
    // As many bytes as characters or more: a text of at most `limit` bytes
    // fits without counting.
    if cleaned.len() <= limit || cleaned.chars().count() <= limit {
        return (cleaned, false);
    }
    let mut cut: String = cleaned.chars().take(limit.saturating_sub(1)).collect();
    cut.push('…');
    (Cow::Owned(cut), true)
}

/// How many characters of a text `font_size` pixels high fit across `pixels`:
/// reckoned at 0.6 em a character, wider than the average of the fonts the
/// pictures name (DejaVu Sans, the widest of them, sets the audit's messages
/// at about 0.52 em), so that a line of words stays inside in each of them.
pub fn chars_across(pixels: u32, font_size: u32) -> usize {
    let em_tenths = u64::from(font_size.max(1)) * 6;
    usize::try_from(u64::from(pixels) * 10 / em_tenths)
        .unwrap_or(usize::MAX)
        .max(1)
}

/// `text` (cleaned) in lines of at most `per_line` characters, broken at
/// spaces (a word longer than a line is broken inside it), at most `most`
/// lines; and whether it was cut (the last line then ends with an ellipsis,
/// and a picture gives the whole in a `<title>`). Every line but the last
/// keeps the space it was broken at, so that the text read across the lines
/// (copied, or by a screen reader) has its words apart.
pub fn wrap(text: &str, per_line: usize, most: usize) -> (Vec<String>, bool) {
    let per_line = per_line.max(1);
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let mut count = 0;
    for word in clean(text).split(' ') {
        let length = word.chars().count();
        if count > 0 && count + 1 + length > per_line {
            line.push(' ');
            lines.push(std::mem::take(&mut line));
            count = 0;
        } else if count > 0 {
            line.push(' ');
            count += 1;
        }
        for c in word.chars() {
            if count == per_line {
                lines.push(std::mem::take(&mut line));
                count = 0;
            }
            line.push(c);
            count += 1;
        }
    }
    lines.push(line);
    let cut = lines.len() > most.max(1);
    if cut {
        lines.truncate(most.max(1));
        if let Some(last) = lines.last_mut() {
            let kept: String = last.trim_end().chars().take(per_line - 1).collect();
            *last = kept;
            last.push('…');
        }
    }
    (lines, cut)
}

/// Appends `number` in decimal (itoa: no formatting machinery).
pub fn push_number(out: &mut String, number: impl itoa::Integer) {
    out.push_str(itoa::Buffer::new().format(number));
}

/// A card as drawn: its rank (`10` for T) and its suit symbol followed by
/// U+FE0E (text presentation, so that phones draw no emoji); a joker as
/// `Jkr`. Written straight into the document: every part is a constant.
#[derive(Debug, Clone, Copy)]
pub struct Face(pub HandCard);

impl Face {
    /// Hearts and diamonds are red.
    pub fn red(self) -> bool {
        matches!(
            self.0,
            HandCard::Natural(card) if matches!(card.suit(), Suit::Hearts | Suit::Diamonds)
        )
    }

    fn parts(self) -> (&'static str, &'static str) {
        let HandCard::Natural(card) = self.0 else {
            return ("Jkr", "");
        };
        (rank(card), suit(card.suit()))
    }
}

fn rank(card: Card) -> &'static str {
    const RANKS: [&str; 14] = [
        "?", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
    ];
    RANKS
        .get(usize::from(card.rank().number()))
        .copied()
        .unwrap_or("?")
}

const fn suit(suit: Suit) -> &'static str {
    match suit {
        Suit::Spades => "\u{2660}\u{fe0e}",
        Suit::Hearts => "\u{2665}\u{fe0e}",
        Suit::Diamonds => "\u{2666}\u{fe0e}",
        Suit::Clubs => "\u{2663}\u{fe0e}",
    }
}

impl Render for Face {
    fn render_to(&self, buffer: &mut String) {
        let (rank, suit) = self.parts();
        buffer.push_str(rank);
        buffer.push_str(suit);
    }
}

impl std::fmt::Display for Face {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (rank, suit) = self.parts();
        f.write_str(rank)?;
        f.write_str(suit)
    }
}

/// The receipt's `kid` (from its protected header) and the first 16 hex
/// digits of the SHA-256 of the whole JWS, as a printed sheet shows them.
pub fn receipt_fingerprint(jws: &str) -> (String, String) {
    let kid = jws
        .split('.')
        .next()
        .and_then(|header| URL_SAFE_NO_PAD.decode(header).ok())
        .and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok())
        .and_then(|header| {
            header
                .get("kid")
                .and_then(Value::as_str)
                .map(|kid| clean(kid).into_owned())
        })
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
        let face = |code: &str| {
            let face = Face(code.parse().unwrap());
            (face.to_string(), face.red())
        };
        assert_eq!(face("TH"), ("10\u{2665}\u{fe0e}".to_owned(), true));
        assert_eq!(face("AS"), ("A\u{2660}\u{fe0e}".to_owned(), false));
        assert_eq!(face("KD"), ("K\u{2666}\u{fe0e}".to_owned(), true));
        assert_eq!(face("2C"), ("2\u{2663}\u{fe0e}".to_owned(), false));
        assert_eq!(face("X1"), ("Jkr".to_owned(), false));
        // Every card of the deck has its rank and its suit.
        for card in Card::deck() {
            let drawn = Face(HandCard::Natural(card)).to_string();
            assert!(
                !drawn.starts_with('?') && drawn.ends_with('\u{fe0e}'),
                "{card}: {drawn}"
            );
        }
    }

    #[test]
    fn names_are_borrowed_unless_something_is_replaced() {
        assert!(matches!(clean("Mom"), Cow::Borrowed("Mom")));
        assert_eq!(short("Mom", 2), "M…");
        assert!(matches!(short("Mom", 3), Cow::Borrowed("Mom")));
        assert_eq!(
            short("\u{2660}\u{2660}\u{2660}", 3),
            "\u{2660}\u{2660}\u{2660}"
        );
        let mut out = String::new();
        push_number(&mut out, -42_i64);
        push_number(&mut out, 7_u64);
        assert_eq!(out, "-427");
    }

    #[test]
    fn a_long_text_wraps_at_spaces_and_is_cut_after_its_last_line() {
        let (lines, cut) = wrap("the knocker holds eleven cards", 12, 4);
        assert_eq!(lines, ["the knocker ", "holds eleven ", "cards"]);
        assert!(!cut);
        assert_eq!(lines.concat(), "the knocker holds eleven cards");
        let (lines, cut) = wrap("abcdefghij klm", 4, 2);
        assert_eq!(lines, ["abcd", "efg…"]);
        assert!(cut);
        let (lines, cut) = wrap("a\nb", 10, 1);
        assert_eq!((lines, cut), (vec!["a b".to_owned()], false));
        for (text, per_line) in [("a b c d e f g h", 3), ("xxxxxxxxxxx yy", 5), ("", 1)] {
            let (lines, _) = wrap(text, per_line, 100);
            assert!(
                lines
                    .iter()
                    .all(|line| line.trim_end().chars().count() <= per_line),
                "{lines:?}"
            );
        }
        assert_eq!(chars_across(600, 10), 100);
        assert_eq!(chars_across(0, 0), 1);
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
