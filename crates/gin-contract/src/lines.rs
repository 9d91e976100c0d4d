//! The bulk line format, shared by every bulk transport (the service's
//! `/batch` endpoints, NDJSON or a JSON array, the `batch` command): one
//! request per line, optionally with an `id`, answered by one line
//! `{"line": N, "id": ..., "result": {...}}` or `{"line": N, "problem": {...}}`.
//! Blank lines get no answer but are counted, so `line` is always the line's
//! number from 1. The id is taken out before the request is read (the
//! requests refuse unknown fields) and echoed on the answer.

use serde::Serialize;
use serde_json::value::RawValue;

use crate::problem::Problem;

/// What answers one line: the request's bytes (without `id`) to the single
/// endpoint's answer or problem.
pub trait LineAnswer {
    /// The answer's type.
    type Answer: Serialize;
    /// Answers one request.
    fn answer(&self, request: &[u8]) -> Result<Self::Answer, Problem>;
    /// Writes an answer as JSON: serde's text, unless an operation knows a
    /// faster way to write exactly the same bytes.
    fn write(&self, answer: &Self::Answer, out: &mut Vec<u8>) -> serde_json::Result<()> {
        serde_json::to_writer(out, answer)
    }
}

impl<F, T> LineAnswer for F
where
    F: Fn(&[u8]) -> Result<T, Problem>,
    T: Serialize,
{
    type Answer = T;
    fn answer(&self, request: &[u8]) -> Result<T, Problem> {
        self(request)
    }
}

/// Counts of one batch's answers.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    pub results: u64,
    pub problems: u64,
}

/// Answers one line (its number `line`, without the newline) into `out`, as
/// one NDJSON line. Blank lines get no answer.
pub fn answer_line<A: LineAnswer + ?Sized>(
    answer: &A,
    line: u64,
    bytes: &[u8],
    scratch: &mut Vec<u8>,
    out: &mut Vec<u8>,
    tally: &mut Tally,
) {
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return;
    }
    let (id, request) = match split_id(bytes, scratch) {
        Ok(found) => found,
        Err(problem) => {
            tally.problems += 1;
            return write_answer::<A>(out, line, None, Err(&problem));
        }
    };
    let id = id.map(str::to_owned);
    let request = request.unwrap_or(bytes);
    match answer.answer(request) {
        Ok(result) => {
            tally.results += 1;
            write_answer(out, line, id.as_deref(), Ok((answer, &result)));
        }
        Err(problem) => {
            tally.problems += 1;
            write_answer::<A>(out, line, id.as_deref(), Err(&problem));
        }
    }
}

/// Writes `{"line": N, "id": ..., "result": ...}` or `"problem"`.
fn write_answer<A: LineAnswer + ?Sized>(
    out: &mut Vec<u8>,
    line: u64,
    id: Option<&str>,
    answer: Result<(&A, &A::Answer), &Problem>,
) {
    let start = out.len();
    out.extend_from_slice(b"{\"line\":");
    // Writing into a Vec cannot fail.
    let _ = std::io::Write::write_fmt(out, format_args!("{line}"));
    if let Some(id) = id {
        out.extend_from_slice(b",\"id\":");
        out.extend_from_slice(id.as_bytes());
    }
    let written = match answer {
        Ok((writer, result)) => {
            out.extend_from_slice(b",\"result\":");
            writer.write(result, out)
        }
        Err(problem) => {
            out.extend_from_slice(b",\"problem\":");
            serde_json::to_writer(&mut *out, &problem.to_document())
        }
    };
    if written.is_err() {
        // Serialising the service's own types does not fail; if it ever did,
        // the line still gets a well-formed answer.
        out.truncate(start);
        let internal = Problem::internal_unlogged();
        out.extend_from_slice(format!("{{\"line\":{line},\"problem\":").as_bytes());
        let _ = serde_json::to_writer(&mut *out, &internal.to_document());
    }
    out.extend_from_slice(b"}\n");
}

/// The line's `id` (its JSON text) and, when it had one, the request without
/// it (written into `scratch`). A line without `"id"` is not parsed here.
fn split_id<'a>(
    line: &'a [u8],
    scratch: &'a mut Vec<u8>,
) -> Result<(Option<&'a str>, Option<&'a [u8]>), Problem> {
    static ID_KEY: std::sync::OnceLock<memchr::memmem::Finder<'static>> =
        std::sync::OnceLock::new();
    let finder = ID_KEY.get_or_init(|| memchr::memmem::Finder::new(b"\"id\""));
    if finder.find(line).is_none() {
        return Ok((None, None));
    }
    // Malformed JSON is left to the request's own reading, which points at it.
    let Ok(members) = object_members(line) else {
        return Ok((None, None));
    };
    let mut id = None;
    scratch.clear();
    scratch.push(b'{');
    for (key, value) in members {
        if key == "id" {
            id = Some(value.get());
            continue;
        }
        if scratch.len() > 1 {
            scratch.push(b',');
        }
        serde_json::to_writer(&mut *scratch, key).map_err(|e| Problem::internal(&e))?;
        scratch.push(b':');
        scratch.extend_from_slice(value.get().as_bytes());
    }
    scratch.push(b'}');
    Ok((id, Some(scratch.as_slice())))
}

/// The members of a JSON object, borrowed, in order.
fn object_members(line: &[u8]) -> serde_json::Result<Vec<(&str, &RawValue)>> {
    struct Members<'a>(Vec<(&'a str, &'a RawValue)>);
    impl<'de> serde::Deserialize<'de> for Members<'de> {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct Visitor;
            impl<'de> serde::de::Visitor<'de> for Visitor {
                type Value = Members<'de>;
                fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str("a JSON object")
                }
                fn visit_map<M: serde::de::MapAccess<'de>>(
                    self,
                    mut map: M,
                ) -> Result<Members<'de>, M::Error> {
                    let mut members = Vec::new();
                    while let Some(entry) = map.next_entry::<&'de str, &'de RawValue>()? {
                        members.push(entry);
                    }
                    Ok(Members(members))
                }
            }
            d.deserialize_map(Visitor)
        }
    }
    serde_json::from_slice::<Members<'_>>(line).map(|m| m.0)
}

// ---- HTTP ------------------------------------------------------------------
