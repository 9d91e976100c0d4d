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
pub mod hand_move;
pub mod hands;
pub mod layoffs;
pub mod match_audit;
pub mod match_move;
pub mod match_state;
pub mod matches;
pub mod melds;
pub mod ratings;
pub mod state;

/// The committed OpenAPI document (a test of the service keeps it equal to
/// the one the routes generate): the operations' tests hold their answers to
/// its examples.
#[cfg(test)]
fn openapi() -> serde_json::Value {
    serde_json::from_str(include_str!("../../../../openapi/openapi.json")).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    /// The source of each operation module (a module with children lists
    /// them too).
    const OPERATIONS: &[(&str, &[&str])] = &[
        ("audit", &[include_str!("audit.rs")]),
        ("deals", &[include_str!("deals.rs")]),
        ("hand_move", &[include_str!("hand_move.rs")]),
        ("hands", &[include_str!("hands.rs")]),
        ("layoffs", &[include_str!("layoffs.rs")]),
        ("match_audit", &[include_str!("match_audit.rs")]),
        ("match_move", &[include_str!("match_move.rs")]),
        ("match_state", &[include_str!("match_state.rs")]),
        (
            "matches",
            &[
                include_str!("matches.rs"),
                include_str!("matches/request.rs"),
            ],
        ),
        ("melds", &[include_str!("melds.rs")]),
        (
            "ratings",
            &[include_str!("ratings.rs"), include_str!("ratings/tests.rs")],
        ),
        ("state", &[include_str!("state.rs")]),
    ];

    #[test]
    fn every_module_here_is_listed() {
        for line in include_str!("mod.rs").lines() {
            if let Some(name) = line.strip_prefix("pub mod ") {
                let name = name.trim_end_matches(';');
                assert!(
                    OPERATIONS.iter().any(|(listed, _)| *listed == name),
                    "answers::{name} is not in OPERATIONS"
                );
            }
        }
    }

    #[test]
    fn no_operation_imports_another() {
        for (name, sources) in OPERATIONS {
            for (other, _) in OPERATIONS.iter().filter(|(other, _)| other != name) {
                for path in [format!("super::{other}"), format!("answers::{other}")] {
                    assert!(
                        !sources.iter().any(|source| source.contains(&path)),
                        "{name} uses {path}: move what the two share to crate::wire"
                    );
                }
            }
        }
    }
}
