//! Request and answer pieces that several routes share: what goes over the
//! wire, read and written with serde and documented with utoipa.
//!
//! A piece used by one route only stays in that route's module; one that two
//! routes need lives here, so that no route imports another
//! ([`crate::routes`]). These modules import the transport ([`crate::http`])
//! and each other, never a route.

pub mod cards;
pub mod formats;
pub mod hand_errors;
pub mod jokers;
pub mod knock;
pub mod live;
pub mod profile_spec;
pub mod receipt;
pub mod score_sheet;
pub mod transcript;
