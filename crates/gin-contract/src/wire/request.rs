//! The requests that read a record, a hand's (`/v1/hands/audit`, `/state`,
//! `/move`) or a match's (`/v1/matches/audit`, `/state`, `/move`): their
//! fields and attributes written once, in `record_request!`.

/// Declares the request of an operation that reads a record:
///
/// ```text
/// record_request! { hand:                  record_request! { match:
///     /// The request.                         /// The request.
///     pub struct Name {                        pub struct Name {
///         /// ...                                  /// ...
///         profile,                                 profile,
///         /// ...                                  /// ... players, teams, hands
///         actions,                                 ...
///         <the operation's own fields>             <the operation's own fields>
///         openspiel:                               openspiel:
///         /// ...                                  /// ...
///     }                                        }
/// }                                        }
/// ```
///
/// Each operation gives its own descriptions; the types and the serde and
/// schema attributes of `profile`, the record (`deal` and `actions`, or
/// `players`, `teams` and `hands`) and the optional `openspiel` flag are
/// written here. A hand's request gets `check_length()` (the ceiling on
/// actions), a match's `record()` (its [`MatchRecord`]). The `openspiel:`
/// marker comes before the flag's description because a description right
/// after the operation's own fields could be the start of one more of them.
///
/// A macro rather than a shared struct under `#[serde(flatten)]`: serde
/// cannot combine `flatten` with `deny_unknown_fields` (the flattened struct
/// takes every key the outer one does not name, so an unknown field is no
/// longer refused), and utoipa would serve the shared part as an `allOf` of
/// a schema of its own, changing the document clients generate from. The
/// caller imports `ProfileSpec`, and `DealInput`, `DealSchema`,
/// `TranscriptAction` and `ActionSchema` for a hand, `TeamSpec`,
/// `RoundRecord` and `RoundRecordSchema` for a match (the derives name them
/// as written).
///
/// [`MatchRecord`]: crate::wire::match_record::MatchRecord
macro_rules! record_request {
    ($kind:ident: $(#[$meta:meta])* pub struct $name:ident {
        $(#[doc = $profile:literal])* profile,
        $($rest:tt)*
    }) => {
        $crate::wire::request::record_request! {
            @record $kind $name [$(#[$meta])*] [$(#[doc = $profile])*] $($rest)*
        }
    };
    (@record hand $name:ident $head:tt $profile:tt
        $(#[doc = $actions:literal])* actions, $($rest:tt)*) => {
        $crate::wire::request::record_request! {
            @emit $name $head $profile [
                /// The cards as dealt, or the seeds that dealt them with their commitment.
                #[schema(value_type = DealSchema)]
                pub deal: DealInput,
                $(#[doc = $actions])*
                #[schema(value_type = Vec<ActionSchema>)]
                pub actions: Vec<TranscriptAction>,
            ] $($rest)*
        }

        impl $name {
            /// The 400 pointing at `/actions` unless the transcript is within
            /// the ceiling on actions (`--max-audit-actions`).
            pub fn check_length(
                &self,
                limits: &$crate::limits::RequestLimits,
            ) -> Result<(), $crate::problem::Problem> {
                let (len, max) = (self.actions.len(), limits.audit_actions);
                $crate::limits::check_items("/actions", "actions", len, max)
            }
        }
    };
    (@record match $name:ident $head:tt $profile:tt
        $(#[doc = $players:literal])* players,
        $(#[doc = $teams:literal])* teams,
        $(#[doc = $hands:literal])* hands, $($rest:tt)*) => {
        $crate::wire::request::record_request! {
            @emit $name $head $profile [
                $(#[doc = $players])*
                #[serde(default, deserialize_with = "crate::json::present")]
                #[schema(nullable = false, min_items = 2, max_items = 3, example = json!(["Ann", "Bob"]))]
                pub players: Option<Vec<String>>,
                $(#[doc = $teams])*
                #[serde(default, deserialize_with = "crate::json::present")]
                #[schema(value_type = Option<Vec<TeamSpec>>, nullable = false, min_items = 2, max_items = 2)]
                pub teams: Option<Vec<TeamSpec>>,
                $(#[doc = $hands])*
                #[schema(value_type = Vec<RoundRecordSchema>)]
                pub hands: Vec<RoundRecord>,
            ] $($rest)*
        }

        impl $name {
            /// The match's record in this request.
            pub fn record(&self) -> $crate::wire::match_record::MatchRecord<'_> {
                $crate::wire::match_record::MatchRecord {
                    players: self.players.as_deref(),
                    teams: self.teams.as_deref(),
                    hands: &self.hands,
                }
            }
        }
    };
    (@emit $name:ident [$(#[$meta:meta])*] [$(#[doc = $profile:literal])*] [$($record:tt)*]
        $($(#[$field_meta:meta])* pub $field:ident: $type:ty,)*
        $(openspiel: $(#[doc = $openspiel:literal])+)?
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
