//! A hand's record as `/v1/hands/audit`, `/v1/hands/state` and
//! `/v1/hands/move` read it: the profile, the deal and the actions.

/// Declares the request of an operation that reads one hand's record
/// (audit, state, move): `profile`, `deal` and `actions`, their types and
/// their serde and schema attributes written once (each operation gives its
/// own descriptions of `profile` and `actions`; the deal's is the same
/// everywhere), then the operation's own fields and the `openspiel` flag as
/// [`record_request`](crate::wire::request) takes them, and
/// `check_length()`.
///
/// A macro rather than a shared struct under `#[serde(flatten)]`, for the
/// reasons [`match_record_request`](crate::wire::match_record) gives. The
/// caller imports `ProfileSpec`, `DealInput`, `DealSchema`,
/// `TranscriptAction` and `ActionSchema` (the derives name them as written).
macro_rules! hand_record_request {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(#[doc = $profile:literal])* profile,
            $(#[doc = $actions:literal])* actions,
            $($fields:tt)*
        }
    ) => {
        $crate::wire::request::record_request! {
            $(#[$meta])*
            pub struct $name;
            profile { $(#[doc = $profile])* }
            record {
                /// The cards as dealt, or the seeds that dealt them with their commitment.
                #[schema(value_type = DealSchema)]
                pub deal: DealInput,
                $(#[doc = $actions])*
                #[schema(value_type = Vec<ActionSchema>)]
                pub actions: Vec<TranscriptAction>,
            }
            fields { $($fields)* }
        }

        impl $name {
            /// The 400 pointing at `/actions` unless the transcript is within
            /// the ceiling on actions
            /// (`--max-audit-actions`).
            pub fn check_length(
                &self,
                limits: &$crate::limits::RequestLimits,
            ) -> Result<(), $crate::problem::Problem> {
                $crate::limits::check_items(
                    "/actions",
                    "actions",
                    self.actions.len(),
                    limits.audit_actions,
                )
            }
        }
    };
}
pub(crate) use hand_record_request;
