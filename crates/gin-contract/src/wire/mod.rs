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
pub mod formats;
pub mod hand_errors;
pub mod jokers;
pub mod knock;
pub mod live;
pub mod match_record;
pub mod profile_spec;
pub mod receipt;
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
