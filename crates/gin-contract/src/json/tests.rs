use super::*;
use serde::Deserialize;

#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct Counts {
    meld: usize,
    deadwood: Vec<i32>,
}

#[test]
fn a_request_is_an_object_not_its_fields_in_an_array() {
    let problem = from_slice::<Counts>(b" [2, [1]]").expect_err("an array");
    assert_eq!(problem.code, ErrorCode::InvalidBody);
    assert_eq!(problem.errors[0].pointer, "");
    assert!(problem.errors[0].message.contains("expected an object"));
    let problem = from_slice::<Counts>(b"[2, [1]").expect_err("not JSON");
    assert_eq!(problem.code, ErrorCode::MalformedJson);
}

#[test]
fn integers_spelt_as_floats_are_integers_as_json_schema_says() {
    let counts: Counts = from_slice(br#"{"meld": 2.0, "deadwood": [1e1, -3.0, 4]}"#).unwrap();
    assert_eq!(
        counts,
        Counts {
            meld: 2,
            deadwood: vec![10, -3, 4]
        }
    );
}

#[test]
fn numbers_that_are_not_integers_are_type_errors_with_their_pointer() {
    for number in ["0.5", "1e-400", "1e30", "-2.5e-1", "18446744073709551616.0"] {
        let body = format!(r#"{{"meld": {number}, "deadwood": []}}"#);
        let problem = from_slice::<Counts>(body.as_bytes()).expect_err(number);
        assert_eq!(problem.code, ErrorCode::InvalidBody, "{number}");
        assert_eq!(problem.errors[0].pointer, "/meld", "{number}");
        assert_eq!(problem.errors[0].code, "invalid_type", "{number}");
        assert!(
            problem.errors[0]
                .message
                .contains("a number with a fraction"),
            "{number}: {}",
            problem.errors[0].message
        );
    }
}

#[test]
fn a_number_beyond_a_double_is_an_invalid_value_not_malformed_json() {
    for body in [
        r#"{"meld": 1e400, "deadwood": []}"#,
        r#"{"meld": 1, "deadwood": [2, -1e400]}"#,
        // No fraction nor exponent: the fast path meets it.
        &format!(r#"{{"meld": 1{}, "deadwood": []}}"#, "0".repeat(400)),
    ] {
        let problem = from_slice::<Counts>(body.as_bytes()).expect_err("out of range");
        assert_eq!(problem.code, ErrorCode::InvalidBody, "{body}");
        assert_eq!(problem.errors[0].code, "invalid_value", "{body}");
        assert!(problem.errors[0].message.contains("range"), "{body}");
    }
    let pointers: Vec<String> = [
        r#"{"meld": 1e400, "deadwood": []}"#,
        r#"{"meld": 1, "deadwood": [2, -1e400]}"#,
    ]
    .iter()
    .map(|body| {
        from_slice::<Counts>(body.as_bytes())
            .expect_err("refused")
            .errors[0]
            .pointer
            .clone()
    })
    .collect();
    assert_eq!(pointers, ["/meld", "/deadwood/1"]);
    // Still not JSON when something else is broken too.
    let problem = from_slice::<Counts>(br#"{"meld": 1e400, "deadwood": [}"#).expect_err("broken");
    assert_eq!(problem.code, ErrorCode::MalformedJson);
    // A shape fault before the number is reported first, as always.
    let problem = from_slice::<Counts>(br#"{"jokers": 1, "meld": 1e400}"#).expect_err("unknown");
    assert_eq!(problem.errors[0].code, "unknown_field");
}

#[test]
fn a_real_fraction_is_still_a_type_error_with_its_pointer() {
    let problem = from_slice::<Counts>(br#"{"meld": 0.5, "deadwood": []}"#).unwrap_err();
    assert_eq!(problem.code, ErrorCode::InvalidBody);
    assert_eq!(problem.errors[0].pointer, "/meld");
    let problem = from_slice::<Counts>(br#"{"meld": 1.0, "deadwood": [2.5]}"#).unwrap_err();
    assert_eq!(problem.errors[0].pointer, "/deadwood/0");
    let problem = from_slice::<Counts>(b"{\"meld\": 1.0,").unwrap_err();
    assert_eq!(problem.code, ErrorCode::MalformedJson);
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code, reason = "fields are only deserialised")]
struct Body {
    knocker: Side,
    #[serde(default)]
    profile: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code, reason = "fields are only deserialised")]
struct Side {
    hand: Vec<Card>,
}

/// Stands in for the rules engine's card: a parser with its own message.
#[derive(Debug)]
struct Card;

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        if text == "1X" {
            Err(serde::de::Error::custom(format!("invalid card \"{text}\"")))
        } else {
            Ok(Card)
        }
    }
}

fn reject(body: &str) -> Problem {
    from_slice::<Body>(body.as_bytes()).expect_err("body is invalid")
}

#[test]
fn a_valid_body_deserialises() {
    assert!(from_slice::<Body>(br#"{"knocker": {"hand": ["7S"]}}"#).is_ok());
}

#[test]
fn an_unparseable_card_points_at_its_index() {
    let problem = reject(r#"{"knocker": {"hand": ["7S", "8S", "9S", "1X"]}}"#);
    assert_eq!(problem.code, ErrorCode::InvalidBody);
    assert_eq!(problem.errors[0].pointer, "/knocker/hand/3");
    assert_eq!(problem.errors[0].code, "invalid_value");
    assert_eq!(problem.errors[0].message, "invalid card \"1X\"");
}

#[test]
fn a_missing_field_points_at_the_missing_member() {
    let problem = reject(r#"{"knocker": {}}"#);
    assert_eq!(problem.errors[0].pointer, "/knocker/hand");
    assert_eq!(problem.errors[0].code, "missing_field");
}

#[test]
fn an_unknown_field_is_reported() {
    let problem = reject(r#"{"knocker": {"hand": []}, "jokers": true}"#);
    assert_eq!(problem.code, ErrorCode::InvalidBody);
    assert_eq!(problem.errors[0].code, "unknown_field");
    assert_eq!(problem.errors[0].pointer, "/jokers");
}

#[test]
fn a_wrong_type_is_reported_with_its_pointer() {
    let problem = reject(r#"{"knocker": {"hand": "7S"}}"#);
    assert_eq!(problem.errors[0].code, "invalid_type");
    assert_eq!(problem.errors[0].pointer, "/knocker/hand");
}

#[test]
fn syntax_errors_are_malformed_json() {
    for body in [
        "{",
        "not json",
        "{\"knocker\": }",
        "{\"knocker\": {\"hand\": []}} {}",
        "   ",
    ] {
        assert_eq!(reject(body).code, ErrorCode::MalformedJson, "{body}");
    }
}

#[test]
fn a_body_that_is_not_json_is_malformed_even_after_a_shape_fault() {
    // Found by the body fuzzer (tests/api/fuzz.rs): each has a shape fault
    // (`null` for a side, a string for a hand) before its syntax error.
    for body in [
        r#"{"knocker": null"#,
        r#"{"knocker": {"hand": "AS", "x": "unterminated}}"#,
        r#"{"knocker": {"hand": 5}} trailing"#,
    ] {
        let problem = reject(body);
        assert_eq!(problem.code, ErrorCode::MalformedJson, "{body}");
        assert!(problem.errors.is_empty(), "{body}");
    }
    let mut invalid_utf8 = br#"{"knocker": null, "profile": ""#.to_vec();
    invalid_utf8.extend_from_slice(b"\xFF\"}");
    let problem = from_slice::<Body>(&invalid_utf8).expect_err("not UTF-8");
    assert_eq!(problem.code, ErrorCode::MalformedJson);
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code, reason = "fields are only deserialised")]
struct WithEnum {
    rule: Rule,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Rule {
    Void,
}

#[test]
fn a_wrong_type_for_an_enum_is_a_shape_fault_not_malformed_json() {
    // serde_json calls these syntax errors ("expected value"); the body is
    // valid JSON, so they are `invalid_body` with the enum's pointer.
    for body in [r#"{"rule": null}"#, r#"{"rule": 5}"#, r#"{"rule": []}"#] {
        let problem = from_slice::<WithEnum>(body.as_bytes()).expect_err("wrong type");
        assert_eq!(problem.code, ErrorCode::InvalidBody, "{body}");
        assert_eq!(problem.errors[0].pointer, "/rule", "{body}");
        assert_eq!(problem.errors[0].code, "invalid_type", "{body}");
    }
    assert!(from_slice::<WithEnum>(br#"{"rule": "void"}"#).is_ok());
}

#[test]
fn pointer_tokens_are_escaped() {
    assert_eq!(escape_token("a/b~c"), "a~1b~0c");
}

#[test]
fn deep_nesting_is_refused_without_overflowing_the_stack() {
    let body = "[".repeat(100_000);
    let problem = from_slice::<serde_json::Value>(body.as_bytes()).expect_err("too deep");
    assert_eq!(problem.code, ErrorCode::MalformedJson);
}
