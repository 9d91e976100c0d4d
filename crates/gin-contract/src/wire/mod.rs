//! Request and answer pieces that several operations share: what goes over
//! the wire, read and written with serde and documented with utoipa.
//!
//! A piece used by one operation only stays in that operation's module; one
//! that two need lives here, so that no operation imports another
//! ([`crate::answers`]). These modules import the reading of bodies and the
//! problems ([`crate::json`], [`crate::problem`]) and each other, never an
//! operation.

pub mod bot;
pub mod cards;
pub mod edge;
pub mod formats;
pub mod hand_errors;
pub mod jokers;
pub mod knock;
pub mod live;
pub mod match_record;
pub mod profile_spec;
pub mod receipt;
pub mod request;
pub mod score_sheet;
pub mod transcript;

/// The schema of a field that holds any JSON value (an echoed `id`, a claimed
/// value): a schema without a `type`, which every JSON value matches and which
/// client generators read as "any" (a list of every type is not: generators
/// split it into a union and give up on an array without `items`).
pub fn any_json() -> utoipa::openapi::schema::Object {
    use utoipa::openapi::schema::{ObjectBuilder, SchemaType};
    ObjectBuilder::new()
        .schema_type(SchemaType::AnyValue)
        .description(Some("Any JSON value."))
        .build()
}

/// What an operation answers, as JSON, to a request given as JSON: the 200
/// answer, or `null` when the request is refused (or is not one). The
/// examples of the OpenAPI document and the guides are computed with it.
pub fn example_answer<R, A>(
    request: serde_json::Value,
    answer: impl FnOnce(R) -> Result<A, crate::problem::Problem>,
) -> serde_json::Value
where
    R: serde::de::DeserializeOwned,
    A: serde::Serialize,
{
    let response = serde_json::from_value(request)
        .ok()
        .and_then(|r| answer(r).ok());
    serde_json::to_value(response).unwrap_or(serde_json::Value::Null)
}

/// The problem an operation answers, as JSON, to a request given as JSON, or
/// `null` when it answers 200 (see [`example_answer`]).
pub fn example_problem<R, A>(
    request: serde_json::Value,
    answer: impl FnOnce(R) -> Result<A, crate::problem::Problem>,
) -> serde_json::Value
where
    R: serde::de::DeserializeOwned,
{
    let problem = serde_json::from_value(request)
        .ok()
        .and_then(|r| answer(r).err());
    serde_json::to_value(problem).unwrap_or(serde_json::Value::Null)
}
