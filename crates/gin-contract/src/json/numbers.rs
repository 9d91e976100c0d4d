//! Numbers as the JSON text spells them, before serde reads them.
//!
//! serde's integers take only integer spellings (`5`), while JSON Schema's
//! `integer` (the type the OpenAPI document gives every count) also includes
//! `5.0` and `5e0`. [`respell_integers`] rewrites every number whose spelling
//! denotes an integer exactly into plain digits, deciding on the decimal text,
//! never on an `f64`: `1e-400` rounds to `0.0` as a float but is not an
//! integer, and `9007199254740993.0` is an integer no `f64` holds. Every other
//! number is left as written, so serde reports it where it stands (a type
//! error with its pointer).
//!
//! [`zero_out_of_range`] serves the error path: JSON's grammar allows any
//! exponent, serde_json refuses a number beyond the `f64` range as if it were
//! a syntax error; replacing such numbers tells whether the rest of the body
//! is JSON.
//!
//! Both walk the text once, skipping strings, and rewrite number tokens only:
//! a token that is not a valid JSON number is left alone for serde to report,
//! so a rewrite never turns a body that is not JSON into one that is.

/// `body` with every number that spells an integer in the `i64`/`u64` range
/// written as plain digits, or `None` when no number needed it.
pub(super) fn respell_integers(body: &[u8]) -> Option<Vec<u8>> {
    rewrite_numbers(body, |token| {
        let number = Number::parse(token)?;
        let digits = number.integer_digits()?;
        (digits.as_bytes() != token).then_some(digits)
    })
}

/// `body` with every number beyond the `f64` range replaced by `0`, or `None`
/// when there is none.
pub(super) fn zero_out_of_range(body: &[u8]) -> Option<Vec<u8>> {
    rewrite_numbers(body, |token| {
        Number::parse(token)?;
        let text = std::str::from_utf8(token).ok()?;
        let value: f64 = text.parse().ok()?;
        value.is_infinite().then(|| "0".to_owned())
    })
}

/// Copies `body`, replacing each number token for which `replace` returns
/// text; `None` when nothing was replaced.
fn rewrite_numbers(body: &[u8], replace: impl Fn(&[u8]) -> Option<String>) -> Option<Vec<u8>> {
    let mut out: Option<Vec<u8>> = None;
    let mut copied = 0; // body[..copied] is in `out` (once it exists)
    let mut i = 0;
    while let Some(&byte) = body.get(i) {
        match byte {
            b'"' => i = string_end(body, i),
            b'-' | b'0'..=b'9' => {
                let end = i + body
                    .get(i..)
                    .unwrap_or_default()
                    .iter()
                    .take_while(|b| matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                    .count();
                if let Some(text) = replace(body.get(i..end).unwrap_or_default()) {
                    let out = out.get_or_insert_with(|| Vec::with_capacity(body.len()));
                    out.extend_from_slice(body.get(copied..i).unwrap_or_default());
                    out.extend_from_slice(text.as_bytes());
                    copied = end;
                }
                i = end;
            }
            _ => i += 1,
        }
    }
    let mut out = out?;
    out.extend_from_slice(body.get(copied..).unwrap_or_default());
    Some(out)
}

/// Index just past the string that opens at `start` (or the end of the body
/// for a string that never closes).
fn string_end(body: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while let Some(&byte) = body.get(i) {
        match byte {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    body.len()
}

/// A JSON number token: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
#[derive(Debug, PartialEq, Eq)]
struct Number<'a> {
    negative: bool,
    /// Integer part then fraction part, as written.
    int: &'a [u8],
    fraction: &'a [u8],
    /// The exponent, saturated: beyond ±10^18 nothing is an integer anyway.
    exponent: i64,
}

impl<'a> Number<'a> {
    /// The token as JSON reads it, or `None` if JSON does not.
    fn parse(token: &'a [u8]) -> Option<Self> {
        let (negative, rest) = match token.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, token),
        };
        let int_len = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        let (int, rest) = rest.split_at(int_len);
        if int.is_empty() || (int.len() > 1 && int.first() == Some(&b'0')) {
            return None;
        }
        let (fraction, rest) = match rest.split_first() {
            Some((b'.', rest)) => {
                let len = rest.iter().take_while(|b| b.is_ascii_digit()).count();
                if len == 0 {
                    return None;
                }
                rest.split_at(len)
            }
            _ => (&[][..], rest),
        };
        let exponent = match rest.split_first() {
            None => 0,
            Some((b'e' | b'E', rest)) => {
                let (sign, digits) = match rest.split_first() {
                    Some((b'-', digits)) => (-1, digits),
                    Some((b'+', digits)) => (1, digits),
                    _ => (1, rest),
                };
                if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
                    return None;
                }
                let magnitude = digits.iter().fold(0i64, |acc, d| {
                    acc.saturating_mul(10)
                        .saturating_add(i64::from(d - b'0'))
                        .min(1_000_000_000_000_000_000)
                });
                sign * magnitude
            }
            Some(_) => return None,
        };
        Some(Number {
            negative,
            int,
            fraction,
            exponent,
        })
    }

    /// The number as plain decimal digits, if it is an integer that an `i64`
    /// or a `u64` holds.
    fn integer_digits(&self) -> Option<String> {
        // The value is `digits × 10^scale`, digits without leading zeros.
        let all = self.int.iter().chain(self.fraction).copied();
        let digits: Vec<u8> = all.skip_while(|&d| d == b'0').collect();
        let Some(last_nonzero) = digits.iter().rposition(|&d| d != b'0') else {
            return Some("0".to_owned()); // every digit is zero: -0.0e5 is 0
        };
        let trailing_zeros = digits.len() - 1 - last_nonzero;
        let significant = digits.get(..=last_nonzero)?;
        let fraction_len = i64::try_from(self.fraction.len()).ok()?;
        let scale = self
            .exponent
            .checked_sub(fraction_len)?
            .checked_add(i64::try_from(trailing_zeros).ok()?)?;
        // u64::MAX has 20 digits: anything longer is out of range.
        let zeros = usize::try_from(scale)
            .ok()
            .filter(|&z| significant.len() + z <= 20)?;
        let mut text = String::with_capacity(significant.len() + zeros + 1);
        if self.negative {
            text.push('-');
        }
        text.extend(significant.iter().map(|&d| char::from(d)));
        text.extend(std::iter::repeat_n('0', zeros));
        let fits = if self.negative {
            text.parse::<i64>().is_ok()
        } else {
            text.parse::<u64>().is_ok()
        };
        fits.then_some(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn respelt(body: &str) -> String {
        respell_integers(body.as_bytes())
            .map(|out| String::from_utf8(out).expect("utf-8"))
            .unwrap_or_else(|| body.to_owned())
    }

    #[test]
    fn integers_in_float_spelling_become_plain_digits() {
        assert_eq!(
            respelt(r#"[5.0, 1e2, 1.5e1, -3.0, 0.1e1, -0.0, 0e5, 2E+1]"#),
            "[5, 100, 15, -3, 1, 0, 0, 20]"
        );
        // Exactly, beyond what an f64 holds.
        assert_eq!(respelt("9007199254740993.0"), "9007199254740993");
        assert_eq!(respelt("18446744073709551615.0"), "18446744073709551615");
        assert_eq!(respelt("-9223372036854775808.0"), "-9223372036854775808");
    }

    #[test]
    fn numbers_that_are_not_integers_stay_as_written() {
        for body in [
            "0.5",
            "1e-400",
            "1e400",
            "1.05e1",
            "18446744073709551616.0",
            "-9223372036854775809.0",
            "1e20",
            "1e999999999999999999999",
        ] {
            assert_eq!(respelt(body), body);
        }
    }

    #[test]
    fn strings_and_tokens_that_are_not_json_numbers_are_left_alone() {
        assert_eq!(
            respelt(r#"{"a": "5.0", "b\"5.0": 5.0}"#),
            r#"{"a": "5.0", "b\"5.0": 5}"#
        );
        for body in [
            "1.", ".5", "01.0", "1.0e", "1.0e+", "--1.0", "1.0-2", "1.0.0",
        ] {
            assert_eq!(respelt(body), body, "{body}");
        }
        // A valid number next to bytes that are not JSON is respelt; the body
        // stays as far from JSON as it was.
        for (body, respelt_body) in [("+1.0", "+1"), ("[1.0x]", "[1x]"), ("tru1.0", "tru1")] {
            assert_eq!(respelt(body), respelt_body);
            assert!(serde_json::from_str::<serde_json::Value>(respelt_body).is_err());
        }
        assert_eq!(respelt(r#"["unterminated 5.0"#), r#"["unterminated 5.0"#);
    }

    #[test]
    fn out_of_range_numbers_are_zeroed_for_the_syntax_check() {
        let zeroed = zero_out_of_range(br#"{"a": 1e400, "b": [-2e308, 1e308, "1e400"]}"#)
            .expect("two numbers out of range");
        assert_eq!(zeroed, br#"{"a": 0, "b": [0, 1e308, "1e400"]}"#);
        assert_eq!(zero_out_of_range(b"[1e-400, 5]"), None);
    }
}
