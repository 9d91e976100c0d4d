//! Reading a request body into its typed request: every failure is a
//! [`Problem`] with a stable code, and shape errors carry a JSON Pointer to
//! the offending value (`/knocker/hand/3`), found by deserialising through
//! `serde_path_to_error`.
//!
//! | failure                                  | status | code             |
//! |------------------------------------------|--------|------------------|
//! | not JSON (syntax, empty, trailing bytes) | 400    | `malformed_json` |
//! | JSON, wrong shape or unparseable value   | 400    | `invalid_body`   |
//!
//! **Numbers.** JSON Schema's `integer` includes `3.0` and `3e2`, so integers
//! spelt so are accepted as the integers they are (decided on the decimal
//! text, see `json/numbers.rs`); any other number where an integer belongs
//! (`0.5`, `1e-400`, `1e30`) is `invalid_body` with its pointer, and so is a
//! number beyond the range of a double (`1e400`), which serde_json would
//! otherwise report as a syntax error.
//!
//! Every transport reads bodies here: the HTTP extractor (after its own
//! checks of the content type, size and encoding), the bulk lines, the
//! `batch` command and the Python module.

use serde::de::DeserializeOwned;
use serde_path_to_error::Segment;

use crate::problem::{ErrorCode, Problem};

mod numbers;

/// Reads an optional request field that the schema says is not nullable:
/// absent is `None` (with `#[serde(default)]`), and `null` is refused like any
/// other value of the wrong type.
pub fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}

/// Deserialises a whole JSON document, mapping every failure to a [`Problem`].
pub fn from_slice<T: DeserializeOwned>(body: &[u8]) -> Result<T, Problem> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(Problem::new(
            ErrorCode::MalformedJson,
            "the body is empty; expected a JSON document",
        ));
    }
    // Integers spelt `3.0` or `3e2` are respelt `3` and `300` for serde. Only
    // bodies with a `.` or an exponent are scanned, so the common case pays
    // nothing.
    let respelt = may_spell_integers_as_floats(body)
        .then(|| numbers::respell_integers(body))
        .flatten();
    let body = respelt.as_deref().unwrap_or(body);
    // The common case, a valid body, is read once without tracking the path
    // (serde_path_to_error allocates a String per object key it passes). Only a
    // body that fails is read again, with the path tracker, to point at the
    // fault: deserialisation is deterministic, so the second pass fails alike.
    let mut deserializer = serde_json::Deserializer::from_slice(body);
    if let Ok(value) = T::deserialize(&mut deserializer)
        && deserializer.end().is_ok()
        && !is_array(body)
    {
        return Ok(value);
    }
    from_slice_tracked(body)
}

/// Whether the document is an array. Every request is an object, but serde
/// also reads a struct from an array of its fields in order (`[[], []]` as
/// `{"melds": [], "hand": []}`), which no schema allows.
fn is_array(body: &[u8]) -> bool {
    body.iter().find(|byte| !byte.is_ascii_whitespace()) == Some(&b'[')
}

/// [`from_slice`]'s typed pass with the path tracked, for the pointer of a fault.
pub fn from_slice_tracked<T: DeserializeOwned>(body: &[u8]) -> Result<T, Problem> {
    let mut deserializer = serde_json::Deserializer::from_slice(body);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|err| {
        let problem = syntax_error_first(body, err);
        unknown_base_preset(body, &problem).unwrap_or(problem)
    })?;
    // Trailing bytes after the document (`{} {}`) mean the client sent something
    // other than what it thinks it sent.
    deserializer.end().map_err(|err| json_error(&err, None))?;
    if is_array(body) {
        return Err(shape_error(
            "invalid type: an array, expected an object".to_owned(),
            String::new(),
        ));
    }
    Ok(value)
}

/// Whether the body may hold a number with a fraction or an exponent: a `.`,
/// or an `e`/`E` right after a digit. Strings can trip it too; that only costs
/// the slower, equally correct path.
pub fn may_spell_integers_as_floats(body: &[u8]) -> bool {
    // memchr finds the few candidate bytes; most bodies (card lists, names)
    // have a `.` nowhere and an `e` only inside words.
    memchr::memchr3_iter(b'.', b'e', b'E', body).any(|at| {
        let byte = body.get(at).copied();
        let before = at.checked_sub(1).and_then(|i| body.get(i));
        byte == Some(b'.') || before.is_some_and(u8::is_ascii_digit)
    })
}

pub fn too_large(limit: usize) -> Problem {
    Problem::new(
        ErrorCode::PayloadTooLarge,
        format!("the body is larger than the limit of {limit} bytes"),
    )
}

/// Whether the body is JSON at all decides between `malformed_json` and
/// `invalid_body`, and the typed pass alone cannot tell: it reads the body as a
/// stream and stops at the first fault. A shape fault early in a body that is
/// not JSON further on (cut short, a broken string) must not become
/// `invalid_body` with a pointer into a document that does not exist; and
/// serde_json reports some shape faults in valid JSON as syntax errors (`null`
/// or a number where an enum's string belongs: "expected value"), which must
/// not become `malformed_json`. So on the error path only, the whole body is
/// parsed once more to decide. Both cases were found by the body fuzzer
/// (`tests/api/fuzz.rs`).
///
/// A number beyond the range of a double (`1e400`) is valid JSON, but
/// serde_json calls it a syntax error: such a body counts as JSON when it
/// parses with those numbers replaced, and the number is then an invalid
/// value at its pointer.
fn syntax_error_first(body: &[u8], err: serde_path_to_error::Error<serde_json::Error>) -> Problem {
    if let Err(syntax) = serde_json::from_slice::<serde_json::Value>(body) {
        let json_but_for_range = is_out_of_range(&syntax)
            && numbers::zero_out_of_range(body)
                .is_some_and(|zeroed| serde_json::from_slice::<serde_json::Value>(&zeroed).is_ok());
        if !json_but_for_range {
            return json_error(&syntax, None);
        }
    }
    let pointer = json_pointer(err.path());
    if is_out_of_range(err.inner()) {
        let message = "invalid value: a number beyond the range of a double (about 1.8e308)";
        return shape_error(message.to_owned(), pointer);
    }
    if !err.inner().is_data() {
        let message = format!(
            "invalid type: expected one of the documented values ({})",
            without_position(err.inner())
        );
        return shape_error(message, pointer);
    }
    path_error(err)
}

/// serde_json's error for a number it cannot hold in a double.
fn is_out_of_range(err: &serde_json::Error) -> bool {
    !err.is_data() && err.to_string().starts_with("number out of range")
}

fn path_error(err: serde_path_to_error::Error<serde_json::Error>) -> Problem {
    let pointer = json_pointer(err.path());
    json_error(err.inner(), Some(pointer))
}

/// `{"profile": {"base": "okla"}}` names a preset that does not exist, just as
/// `{"profile": "okla"}` does: the same 400 `unknown_profile`, pointing at the
/// name, rather than serde's `unknown variant` for the enum it reads `base` into.
/// Only a string there is a name (serde words an object alike).
fn unknown_base_preset(body: &[u8], problem: &Problem) -> Option<Problem> {
    let fault = problem.errors.first()?;
    if fault.pointer != "/profile/base" || fault.code != "unknown_variant" {
        return None;
    }
    let document: serde_json::Value = serde_json::from_slice(body).ok()?;
    let name = document.pointer("/profile/base")?.as_str()?;
    let error = gin_rules::ProfileError::UnknownPreset(name.to_owned());
    let detail = error.to_string();
    Some(Problem::new(ErrorCode::UnknownProfile, &detail).with_error(
        "/profile/base",
        ErrorCode::UnknownProfile,
        detail,
    ))
}

/// Maps a serde_json error: syntax problems are `malformed_json`, shape problems
/// `invalid_body` with a pointer (when the path is known).
pub fn json_error(err: &serde_json::Error, pointer: Option<String>) -> Problem {
    let message = name_non_integers(without_position(err));
    if !err.is_data() {
        return Problem::new(
            ErrorCode::MalformedJson,
            format!("the body is not valid JSON: {err}"),
        );
    }
    shape_error(message, pointer.unwrap_or_default())
}

/// `invalid_body`, with the fault classified from serde's message.
fn shape_error(message: String, pointer: String) -> Problem {
    let (fault, pointer) = classify(&message, pointer);
    let location = if pointer.is_empty() {
        String::new()
    } else {
        format!(" at {pointer}")
    };
    Problem::new(
        ErrorCode::InvalidBody,
        format!("the body does not match the request schema{location}: {message}"),
    )
    .with_error(pointer, fault, message)
}

/// serde reports a number that is not an integer where one belongs by the
/// double it read, which misleads: `1e-400` reads as `0`. Say what is wrong
/// with it instead of showing that double.
fn name_non_integers(message: String) -> String {
    match message
        .strip_prefix("invalid type: floating point `")
        .and_then(|rest| rest.split_once('`'))
    {
        Some((_double, expected)) => {
            format!("invalid type: a number with a fraction, or too large for an integer{expected}")
        }
        None => message,
    }
}

/// serde_json appends " at line L column C"; in `errors[]` the pointer says where.
fn without_position(err: &serde_json::Error) -> String {
    let text = err.to_string();
    let suffix = format!(" at line {} column {}", err.line(), err.column());
    match text.strip_suffix(&suffix) {
        Some(message) => message.to_owned(),
        None => text,
    }
}

/// A stable code for one shape fault. serde's derive produces these fixed
/// message openings (`serde::de::Error`'s provided methods); anything else comes
/// from a type's own parser (a card, a profile name) and is an invalid value.
/// A missing field is reported on the missing member itself, not its parent.
fn classify(message: &str, pointer: String) -> (ErrorCode, String) {
    if let Some(rest) = message.strip_prefix("missing field `") {
        let field = rest.split('`').next().unwrap_or_default();
        return (
            ErrorCode::MissingField,
            format!("{pointer}/{}", escape_token(field)),
        );
    }
    let fault = [
        ("unknown field", ErrorCode::UnknownField),
        ("invalid type", ErrorCode::InvalidType),
        ("invalid length", ErrorCode::InvalidLength),
        ("unknown variant", ErrorCode::UnknownVariant),
        ("duplicate field", ErrorCode::DuplicateField),
    ]
    .iter()
    .find(|(opening, _)| message.starts_with(opening))
    .map_or(ErrorCode::InvalidValue, |(_, fault)| *fault);
    (fault, pointer)
}

/// RFC 6901 pointer from the deserialiser's path. The path stops being known at
/// an `Unknown` segment (inside untagged enums, flattened structs), so the
/// pointer stops there too: it still names the closest enclosing value.
fn json_pointer(path: &serde_path_to_error::Path) -> String {
    let mut pointer = String::new();
    for segment in path.iter() {
        pointer.push('/');
        match segment {
            Segment::Seq { index } => pointer.push_str(&index.to_string()),
            Segment::Map { key } => pointer.push_str(&escape_token(key)),
            Segment::Enum { variant } => pointer.push_str(&escape_token(variant)),
            Segment::Unknown => {
                pointer.pop();
                break;
            }
        }
    }
    pointer
}

fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests;
