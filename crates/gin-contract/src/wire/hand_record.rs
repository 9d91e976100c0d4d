//! A hand's record as `/v1/hands/audit`, `/v1/hands/state` and
//! `/v1/hands/move` read it: the profile, the deal and the actions.

/// Declares the request of an operation that reads one hand's record
/// (audit, state, move): `profile`, `deal` and `actions`, their types and
/// their serde and schema attributes written here once (each operation gives
/// its own descriptions of `profile` and `actions`; the deal's is the same
/// everywhere), then the operation's own fields, then, after `openspiel:`,
/// the description of an `openspiel` flag when the operation names moves (the
/// marker comes first because a description right after the operation's own
/// fields could be the start of one more of them; the match requests'
/// macro takes the flag the same way).
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
            $($(#[$field_meta:meta])* pub $field:ident: $type:ty,)*
            $(openspiel: $(#[doc = $openspiel:literal])+)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Deserialize, ToSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            $(#[doc = $profile])*
            #[serde(default)]
            pub profile: Option<ProfileSpec>,
            /// The cards as dealt, or the seeds that dealt them with their commitment.
            #[schema(value_type = DealSchema)]
            pub deal: DealInput,
            $(#[doc = $actions])*
            #[schema(value_type = Vec<ActionSchema>)]
            pub actions: Vec<TranscriptAction>,
            $($(#[$field_meta])* pub $field: $type,)*
            $(
                $(#[doc = $openspiel])+
                #[serde(default, deserialize_with = "crate::json::present")]
                #[schema(nullable = false, example = false)]
                pub openspiel: Option<bool>,
            )?
        }
    };
}
pub(crate) use hand_record_request;
