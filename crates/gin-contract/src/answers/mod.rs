//! The operations, one module per resource: each reads its request type and
//! answers it, or refuses it with a [`Problem`](crate::problem::Problem),
//! with no transport in sight. The service's routes, the bulk lines, the
//! `batch` command and the Python module call these same functions, so the
//! answers are the same bytes everywhere.
//!
//! No module here imports another: what two of them share lives in
//! [`crate::wire`].

pub mod audit;
pub mod deals;
pub mod hands;
pub mod layoffs;
pub mod match_audit;
pub mod matches;
pub mod melds;
pub mod state;

/// The committed OpenAPI document (a test of the service keeps it equal to
/// the one the routes generate): the operations' tests hold their answers to
/// its examples.
#[cfg(test)]
fn openapi() -> serde_json::Value {
    serde_json::from_str(include_str!("../../../../openapi/openapi.json")).unwrap_or_default()
}
