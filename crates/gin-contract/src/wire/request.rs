//! The frame of every request that reads a record (a hand's, a match's):
//! the derives, the `profile` field and the `openspiel` flag, written once for
//! [`hand_record_request`](crate::wire::hand_record) and
//! [`match_record_request`](crate::wire::match_record).

/// Declares a request struct: its `profile` (with the caller's description),
/// the record's fields as `record` gives them, whole, then the operation's
/// own fields, then, after `openspiel:`, the description of an `openspiel`
/// flag when the operation names moves.
///
/// The marker comes before the flag's description because a description right
/// after the operation's own fields could be the start of one more of them.
/// The caller imports `ProfileSpec` (the derives name it as written).
macro_rules! record_request {
    (
        $(#[$meta:meta])*
        pub struct $name:ident;
        profile { $(#[doc = $profile:literal])* }
        record { $($record:tt)* }
        fields {
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
            $($record)*
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
pub(crate) use record_request;
