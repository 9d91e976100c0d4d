//! RFC 8785 (JCS) canonical form of a JSON text, read in place.
//!
//! `serde_json_canonicalizer` canonicalises a value: for a request body that
//! means building a `serde_json::Value` first, about fifteen times the body's
//! size in memory (a 1 MB match record took 18 MB). This walks the text
//! instead, one level at a time over borrowed slices ([`RawValue`]): memory is
//! the output plus one level's list of members, and each level is read again
//! for each level above it (JSON depth is at most 128 in serde_json, a few
//! levels in practice). Numbers and strings are written by the crates that
//! already do it exactly: numbers as ECMAScript prints a double
//! (`serde_json_canonicalizer`), strings with serde_json's escaping, which is
//! JCS's (`\b \t \n \f \r " \\` and `\u00xx` for other controls, the rest as
//! UTF-8). A test compares the two over random documents.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

/// An object's key, borrowed when it has no escapes.
#[derive(Deserialize, PartialEq, Eq)]
struct Key<'a>(#[serde(borrow)] Cow<'a, str>);

/// The canonical form of the JSON text `json`.
pub fn canonicalize(json: &[u8]) -> serde_json::Result<Vec<u8>> {
    let root: &RawValue = serde_json::from_slice(json)?;
    let mut out = Vec::with_capacity(json.len());
    write(root, &mut out)?;
    Ok(out)
}

fn write(raw: &RawValue, out: &mut Vec<u8>) -> serde_json::Result<()> {
    let text = raw.get();
    match text.as_bytes().first() {
        Some(b'{') => {
            let mut members: Vec<(Key<'_>, &RawValue)> =
                serde_json::from_str::<MapEntries<'_>>(text)?.0;
            // Sorted by UTF-16 code units (RFC 8785, 3.2.3); a repeated key
            // keeps its last value, as serde_json's own map does.
            members.sort_by(|(a, _), (b, _)| a.0.encode_utf16().cmp(b.0.encode_utf16()));
            let mut kept: Vec<(Key<'_>, &RawValue)> = Vec::with_capacity(members.len());
            for (key, value) in members {
                match kept.last_mut() {
                    Some(last) if last.0 == key => last.1 = value,
                    _ => kept.push((key, value)),
                }
            }
            out.push(b'{');
            for (index, (key, value)) in kept.iter().enumerate() {
                if index > 0 {
                    out.push(b',');
                }
                serde_json::to_writer(&mut *out, &key.0)?;
                out.push(b':');
                write(value, out)?;
            }
            out.push(b'}');
        }
        Some(b'[') => {
            let items: Vec<&RawValue> = serde_json::from_str(text)?;
            out.push(b'[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(b',');
                }
                write(item, out)?;
            }
            out.push(b']');
        }
        Some(b'"') => {
            let string: Cow<'_, str> = serde_json::from_str::<Key<'_>>(text)?.0;
            serde_json::to_writer(&mut *out, &string)?;
        }
        Some(b't' | b'f' | b'n') => out.extend_from_slice(text.as_bytes()),
        _ => {
            let number: f64 = serde_json::from_str(text)?;
            serde_json_canonicalizer::to_writer(&number, out)?;
        }
    }
    Ok(())
}

/// An object's members in document order, duplicates included.
struct MapEntries<'a>(Vec<(Key<'a>, &'a RawValue)>);

impl<'de: 'a, 'a> Deserialize<'de> for MapEntries<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for Visitor<'a> {
            type Value = MapEntries<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                mut map: M,
            ) -> Result<MapEntries<'a>, M::Error> {
                let mut members = Vec::new();
                while let Some(entry) = map.next_entry::<Key<'de>, &'de RawValue>()? {
                    members.push(entry);
                }
                Ok(MapEntries(members))
            }
        }
        deserializer.deserialize_map(Visitor(std::marker::PhantomData))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    use proptest::prelude::*;
    use serde_json::{Map, Value, json};

    use super::canonicalize;

    fn by_the_crate(json: &str) -> String {
        let value: Value = serde_json::from_str(json).unwrap();
        serde_json_canonicalizer::to_string(&value).unwrap()
    }

    fn ours(json: &str) -> String {
        String::from_utf8(canonicalize(json.as_bytes()).unwrap()).unwrap()
    }

    #[test]
    fn rfc_8785s_example_and_awkward_cases() {
        let input = r#"{
            "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
            "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
            "literals": [null, true, false]
        }"#;
        assert_eq!(
            ours(input),
            r#"{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}"#
        );
        // UTF-16 order: U+E000 sorts after a surrogate pair (U+1F600).
        for json in [
            r#"{"\ue000": 1, "😀": 2, "a": 3, "": 4}"#,
            r#"{"a": 1, "a": 2}"#,
            r#"[-0, 0.1, 1e21, 1e-7, 123456789012345678901234567890, -5]"#,
            r#""\u2028\u0000\t""#,
            r#"  {"k\"ey": {"nested": [{}, [], ""]}}  "#,
        ] {
            assert_eq!(ours(json), by_the_crate(json), "{json}");
        }
    }

    fn arbitrary_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(|n| json!(n)),
            any::<u64>().prop_map(|n| json!(n)),
            (-1e300f64..1e300).prop_map(|n| json!(n)),
            "\\PC{0,8}".prop_map(Value::String),
            "[\\x00-\\x1f\"\\\\a\u{e000}\u{1f600}]{0,6}".prop_map(Value::String),
        ];
        leaf.prop_recursive(5, 64, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::vec(("\\PC{0,4}", inner), 0..6)
                    .prop_map(|members| Value::Object(members.into_iter().collect::<Map<_, _>>())),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn agrees_with_serde_json_canonicalizer(value in arbitrary_json(), pretty in any::<bool>()) {
            let json = if pretty {
                serde_json::to_string_pretty(&value).unwrap()
            } else {
                serde_json::to_string(&value).unwrap()
            };
            prop_assert_eq!(ours(&json), by_the_crate(&json));
        }
    }
}
