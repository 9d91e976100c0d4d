//! A recorded hand on the wire: the deal (its cards, or the seeds of a
//! provably fair deal), the transcript of actions, and the verdict. Shared by
//! the hand audit and the match audit, which records every hand this way.

use crate::rule_errors::RuleError;
use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{AdditionalProperties, Schema};
use utoipa::{PartialSchema, ToSchema};

use super::jokers::StandsFor;
use super::knock::ScoreResponse;
use crate::problem::{ErrorCode, Problem};
use gin_rules::HandReadFault;
use gin_rules::fair_deal::{self, CommitmentError, SeedError, ServerSeed};
use gin_rules::{
    Action, Audit, AuditError, Card, Deal, DealError, DealPart, HandCard, HandEnd, JokerPlace,
    Move, RecordedLayoff, Seat, Source, Table, Violation, ViolationCode,
};

/// The deal as a request gives it: the cards, or the seeds of a provably fair
/// deal (see `POST /v1/deals`) with the commitment published before play.
#[derive(Debug)]
pub enum DealInput {
    Cards(Deal),
    Seeds { seeds: Seeds, commitment: String },
}

/// One hand's record as the referee replays it (the audit and the live
/// state read it alike): the deal, dealt from its seeds where the request
/// gives seeds, the actions, and the message of a deal that does not match
/// its commitment.
#[derive(Debug)]
pub struct Replay {
    pub deal: Deal,
    actions: Vec<Action>,
    mismatch: Option<String>,
}

impl Replay {
    /// Reads a request's deal (from a deck with `jokers` jokers) and actions.
    pub fn read(
        deal: DealInput,
        actions: Vec<TranscriptAction>,
        jokers: u8,
    ) -> Result<Replay, Problem> {
        let (deal, mismatch) = match deal {
            DealInput::Cards(deal) => (deal, None),
            DealInput::Seeds { seeds, commitment } => {
                seeded_deal(&seeds, &commitment, "/deal", jokers)?
            }
        };
        Ok(Replay {
            deal,
            actions: actions.into_iter().map(Action::from).collect(),
            mismatch,
        })
    }

    /// The actions to replay: none when the deal does not match its
    /// commitment, which is judged before any action.
    pub fn actions(&self) -> &[Action] {
        if self.mismatch.is_some() {
            &[]
        } else {
            &self.actions
        }
    }

    /// The violation of a deal that does not match its commitment.
    pub fn mismatch(&self) -> Option<Violation> {
        self.mismatch.clone().map(|message| Violation {
            action: None,
            code: ViolationCode::DealCommitmentMismatch,
            message,
            field: None,
        })
    }
}

/// The problem of a replay the rules refuse: a deal they cannot read (a
/// 4xx pointed at `/deal`), or a bug (a 500).
pub fn replay_problem(error: AuditError) -> Problem {
    match error {
        AuditError::Deal(error) => deal_problem(&error, "/deal"),
        error @ AuditError::Inconsistent(_) => Problem::internal(&error),
    }
}

/// Declares a request that carries the seeds of a provably fair deal:
/// `server_seed`, `client_seed` and `nonce`, their types and their schema's
/// bounds written once (each request describes them in its own words), then
/// the request's own fields, if any, in braces after `and`. A macro rather
/// than a struct under `#[serde(flatten)]`, for the reasons
/// [`record_request`](crate::wire::request) gives.
macro_rules! seeds_request {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            server_seed: $(#[doc = $server_seed:literal])*
            client_seed: $(#[doc = $client_seed:literal])*
            nonce: $(#[doc = $nonce:literal])*
        } $(and { $($fields:tt)* })?
    ) => {
        // The derive first: `$meta` may hold its `schema` helper attribute.
        #[derive(Debug, Deserialize, ToSchema)]
        $(#[$meta])*
        #[serde(deny_unknown_fields)]
        pub struct $name {
            $(#[doc = $server_seed])*
            #[schema(pattern = "^[0-9a-fA-F]{64}$", min_length = 64, max_length = 64)]
            pub server_seed: String,
            $(#[doc = $client_seed])*
            #[schema(max_length = 256)]
            pub client_seed: String,
            $(#[doc = $nonce])*
            #[schema(minimum = 0, maximum = 9007199254740991_u64)]
            pub nonce: u64,
            $($($fields)*)?
        }
    };
}
pub(crate) use seeds_request;

seeds_request! {
    /// The seeds of a provably fair deal, as `POST /v1/deals` takes them.
    pub struct Seeds {
        server_seed:
        /// 32 bytes as 64 hexadecimal digits.
        client_seed:
        /// UTF-8, at most 256 bytes.
        nonce:
        /// 0 to 2^53 - 1.
    }
}

/// Every field of either form, read flat so that a fault keeps its pointer
/// (`/deal/dealer/3`), then classified.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "struct Deal")]
struct FlatDeal {
    dealer: Option<Vec<HandCard>>,
    non_dealer: Option<Vec<HandCard>>,
    upcard: Option<HandCard>,
    stock: Option<Vec<HandCard>>,
    seeds: Option<Seeds>,
    commitment: Option<String>,
}

impl<'de> Deserialize<'de> for DealInput {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<DealInput, D::Error> {
        use serde::de::Error;
        let flat = FlatDeal::deserialize(deserializer)?;
        match flat {
            FlatDeal {
                dealer: Some(dealer),
                non_dealer: Some(non_dealer),
                upcard: Some(upcard),
                stock: Some(stock),
                seeds: None,
                commitment: None,
            } => Ok(DealInput::Cards(Deal {
                dealer,
                non_dealer,
                upcard,
                stock,
            })),
            FlatDeal {
                dealer: None,
                non_dealer: None,
                upcard: None,
                stock: None,
                seeds: Some(seeds),
                commitment: Some(commitment),
            } => Ok(DealInput::Seeds { seeds, commitment }),
            _ => Err(D::Error::custom(
                "a deal is its cards (`dealer`, `non_dealer`, `upcard`, `stock`) or its seeds \
                 (`seeds` and `commitment`), one form whole",
            )),
        }
    }
}

/// A deal given by its seeds: the service derives the cards, and checks that
/// the server seed hashes to the commitment (a mismatch is a violation of the
/// whole hand, `deal_commitment_mismatch`, with no action).
#[derive(ToSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // A schema only: requests are read through `FlatDeal`.
pub struct SeededDeal {
    seeds: Seeds,
    /// The lowercase hexadecimal SHA-256 of the server seed, as published
    /// before play.
    #[schema(pattern = "^[0-9a-fA-F]{64}$", min_length = 64, max_length = 64)]
    commitment: String,
}

/// The deal: its cards, or its seeds.
#[derive(ToSchema)]
#[schema(as = DealSpec)]
#[serde(untagged)]
#[allow(dead_code)] // A schema only.
pub enum DealSchema {
    Cards(Deal),
    Seeds(SeededDeal),
}

// The rules' `Action` nests the move under the seat; on the wire both are one
// flat object tagged by `action`, hence this type of its own.
/// One action of the transcript: who (`player`) did what (`action`).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
// A shape error names what was expected: the schema clients see, `Action`.
#[serde(expecting = "internally tagged enum Action")]
pub enum TranscriptAction {
    /// Decline the upcard during the first-turn offer (the non-dealer first,
    /// then the dealer), or, under the 50th-card rule, decline the last discard.
    #[schema(title = "PassAction")]
    Pass { player: Seat },
    /// Take the top card of the stock or of the discard pile (taking the upcard
    /// during the offer is a draw from the discard pile). `card` is optional: the
    /// deal fixes every card, but naming it makes the transcript readable, and it
    /// is checked. Under a profile with jokers it may be `X1` or `X2`.
    #[schema(title = "DrawAction")]
    Draw {
        player: Seat,
        from: Source,
        #[serde(default)]
        #[schema(example = "2H")]
        card: Option<HandCard>,
    },
    /// Discard a card held (a joker too), ending the turn.
    #[schema(title = "DiscardAction")]
    Discard {
        player: Seat,
        #[schema(example = "KC")]
        card: HandCard,
    },
    /// Knock: discard `discard` and lay the other ten cards down. Without
    /// `discard` the knock is big gin (all eleven cards melded; only where the
    /// profile has a `big_gin_bonus`). `melds` declares the knocker's melds; when
    /// absent the referee arranges the hand best for the knocker, as
    /// `/v1/hands/score` does. Gin is a knock that leaves no deadwood.
    #[schema(title = "KnockAction")]
    Knock {
        player: Seat,
        #[serde(default)]
        #[schema(example = "KC")]
        discard: Option<HandCard>,
        /// A joker is written in its meld (`["5H", "X1", "7H"]`) and `jokers`
        /// names the card it stands for.
        #[serde(default, deserialize_with = "gin_rules::bounded::declared_melds")]
        #[schema(example = json!([["AS", "2S", "3S"], ["4H", "5H", "6H"], ["9C", "9D", "9H"]]))]
        melds: Option<Vec<Vec<HandCard>>>,
        /// With declared melds holding jokers: the card each joker stands for,
        /// `{"X1": "6H"}`.
        #[serde(default, deserialize_with = "crate::json::present")]
        #[schema(nullable = false)]
        jokers: Option<StandsFor>,
    },
    /// The defender's reply to the knock (optional, once). Declared `melds` and
    /// `layoffs` are checked; what is not declared is played best for the
    /// defender, as in `/v1/hands/score`. Under a profile with jokers a meld
    /// may hold the defender's joker (named in `jokers`) and a joker may be
    /// laid off, naming the card it stands for.
    #[schema(title = "LayOffAction")]
    LayOff {
        player: Seat,
        #[serde(default, deserialize_with = "gin_rules::bounded::declared_melds")]
        melds: Option<Vec<Vec<HandCard>>>,
        /// With declared melds holding jokers: the card each joker stands for.
        #[serde(default, deserialize_with = "crate::json::present")]
        #[schema(nullable = false)]
        jokers: Option<StandsFor>,
        /// The cards laid off. Absent: the defender's best layoffs are played;
        /// `[]`: the defender lays off nothing.
        #[serde(
            default,
            deserialize_with = "gin_rules::bounded::optional_at_most::<_, _, 52>"
        )]
        layoffs: Option<Vec<LayoffRecord>>,
    },
}

/// One card laid off, and the knocker's meld it went onto: by its index among
/// the melds laid down at the knock (`meld`), by cards of that meld (`onto`),
/// or not named, when the referee places it. When every layoff names `meld`,
/// the layoffs are played in the order given; otherwise the referee places
/// each where the record allows so that every knocker meld stays a meld (the
/// first such placement in meld order) and the result reports where each went.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"card": "7H", "onto": ["4H", "5H", "6H"]}))]
pub struct LayoffRecord {
    #[schema(example = "7H")]
    pub card: HandCard,
    /// For a joker: the card it stands for on the table (a natural card
    /// stands for itself).
    #[serde(default, deserialize_with = "crate::json::present")]
    #[schema(nullable = false, example = "8H")]
    pub stands_for: Option<Card>,
    /// Index into the knocker's melds as laid down at the knock.
    #[serde(default, deserialize_with = "crate::json::present")]
    #[schema(nullable = false, minimum = 0, maximum = 4294967295_u64, format = Int64)]
    pub meld: Option<u32>,
    /// Cards of the target meld as laid down at the knock (one is enough; a
    /// joker names the meld holding it).
    #[serde(default, deserialize_with = "meld_cards")]
    #[schema(nullable = false, max_items = 11, example = json!(["4H", "5H", "6H"]))]
    pub onto: Option<Vec<HandCard>>,
}

/// At most the 11 cards a meld can hold (a run of a big gin hand); more is a
/// shape error.
fn meld_cards<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Vec<HandCard>>, D::Error> {
    let cards = Vec::<HandCard>::deserialize(deserializer)?;
    if cards.len() > 11 {
        return Err(serde::de::Error::invalid_length(
            cards.len(),
            &"at most the 11 cards a meld can hold",
        ));
    }
    Ok(Some(cards))
}

impl From<LayoffRecord> for RecordedLayoff {
    fn from(layoff: LayoffRecord) -> RecordedLayoff {
        RecordedLayoff {
            card: layoff.card,
            stands_for: layoff.stands_for,
            // An index this large names no meld on any platform.
            meld: layoff
                .meld
                .map(|meld| usize::try_from(meld).unwrap_or(usize::MAX)),
            onto: layoff.onto,
        }
    }
}

/// The schema of [`TranscriptAction`] with every variant closed
/// (`additionalProperties: false`), as `deny_unknown_fields` makes it: utoipa
/// closes structs but not the variants of a tagged enum, and a schema that
/// admits extra fields would promise clients that they are ignored.
pub struct ActionSchema;

impl PartialSchema for ActionSchema {
    fn schema() -> RefOr<Schema> {
        let mut schema = TranscriptAction::schema();
        if let RefOr::T(Schema::OneOf(one_of)) = &mut schema {
            for variant in &mut one_of.items {
                if let RefOr::T(Schema::Object(object)) = variant {
                    object.additional_properties =
                        Some(Box::new(AdditionalProperties::FreeForm(false)));
                }
            }
        }
        schema
    }
}

impl ToSchema for ActionSchema {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Action")
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        <TranscriptAction as ToSchema>::schemas(schemas);
    }
}

impl From<TranscriptAction> for Action {
    fn from(action: TranscriptAction) -> Action {
        let (player, play) = match action {
            TranscriptAction::Pass { player } => (player, Move::Pass),
            TranscriptAction::Draw { player, from, card } => (player, Move::Draw { from, card }),
            TranscriptAction::Discard { player, card } => (player, Move::Discard { card }),
            TranscriptAction::Knock {
                player,
                discard,
                melds,
                jokers,
            } => (
                player,
                Move::Knock {
                    discard,
                    melds,
                    jokers: jokers.unwrap_or_default(),
                },
            ),
            TranscriptAction::LayOff {
                player,
                melds,
                jokers,
                layoffs,
            } => (
                player,
                Move::LayOff {
                    melds,
                    jokers: jokers.unwrap_or_default(),
                    layoffs: layoffs.map(|list| list.into_iter().map(Into::into).collect()),
                },
            ),
        };
        Action { player, play }
    }
}

// ---- Response --------------------------------------------------------------

/// The verdict on a recorded hand.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuditResponse {
    /// No action is illegal. A transcript that stops before the hand ends is
    /// legal so far (and has no `result`).
    pub legal: bool,
    /// The first illegal action, or null.
    pub violation: Option<ActionViolation>,
    /// The hand's score exactly as `/v1/hands/score` gives it for the final
    /// hands, `{"void": true}` for a void hand, or null: the transcript stops
    /// before the hand ends, or an action is illegal.
    pub result: Option<AuditResult>,
    /// The seat that knocked, when the hand was scored (`result.knocker` is that
    /// seat).
    pub knocker: Option<Seat>,
    /// Index of the action that ended the hand: the knock, or the action that
    /// made it void. Null while the hand goes on.
    pub ended_at: Option<usize>,
    /// The table where the replay stopped: after the last action, or just before
    /// the illegal one.
    pub table: Table,
    /// A signed receipt (compact JWS, see `GET /v1/keys`), when the request
    /// asked for one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub receipt: Option<String>,
}

/// The first illegal action of a hand, and where it is in the record.
#[derive(Debug, Serialize, ToSchema)]
pub struct ActionViolation {
    /// The index of the illegal action; null for a fault of the whole hand
    /// (`deal_commitment_mismatch`).
    #[schema(example = 1, required = true)]
    pub action: Option<usize>,
    /// The rule broken.
    pub code: ViolationCode,
    /// A sentence for a tournament director.
    #[schema(
        example = "the non-dealer took 2C from the discard pile this turn and may not discard it on the same turn"
    )]
    pub message: String,
    /// JSON Pointer to the fault within the hand's record, down to the field
    /// when one is at fault: `/actions/1/card`, `/actions/4/layoffs/0`,
    /// `/actions/3` (the action as a whole), `/deal/commitment`.
    #[schema(example = "/actions/1/card")]
    pub pointer: String,
}

impl From<Violation> for ActionViolation {
    fn from(violation: Violation) -> ActionViolation {
        let pointer = match (violation.action, &violation.field) {
            (Some(action), Some(field)) => format!("/actions/{action}/{field}"),
            (Some(action), None) => format!("/actions/{action}"),
            (None, _) if violation.code == ViolationCode::DealCommitmentMismatch => {
                "/deal/commitment".to_owned()
            }
            (None, _) => String::new(),
        };
        ActionViolation {
            action: violation.action,
            code: violation.code,
            message: violation.message,
            pointer,
        }
    }
}

/// How the hand ended: scored, or void.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum AuditResult {
    Scored(ScoreResponse),
    Void(VoidResult),
}

/// A void hand: no knock before the stock's last two cards; no points.
#[derive(Debug, Serialize, ToSchema)]
pub struct VoidResult {
    /// Always true.
    #[schema(example = true)]
    pub void: bool,
}

impl From<Audit> for AuditResponse {
    fn from(audit: Audit) -> AuditResponse {
        let legal = audit.is_legal();
        let (result, knocker, ended_at) = match audit.end {
            None => (None, None, None),
            Some(HandEnd::Void { action }) => (
                Some(AuditResult::Void(VoidResult { void: true })),
                None,
                Some(action),
            ),
            Some(HandEnd::Scored(scored)) => (
                Some(AuditResult::Scored(ScoreResponse::from(scored.score))),
                Some(scored.knocker),
                Some(scored.knock_action),
            ),
        };
        AuditResponse {
            receipt: None,
            legal,
            violation: audit.violation.map(ActionViolation::from),
            result,
            knocker,
            ended_at,
            table: audit.table,
        }
    }
}

// ---- Errors ----------------------------------------------------------------

/// An impossible deal: 422 with a pointer to the card or list at fault, under
/// `deal`, the pointer to the deal (`/deal`, `/hands/3/deal`).
pub fn deal_problem(error: &DealError, deal: &str) -> Problem {
    let list = |part: DealPart| match part {
        DealPart::Hand(seat) => format!("{deal}/{}", seat.name()),
        DealPart::Upcard => format!("{deal}/upcard"),
        DealPart::Stock => format!("{deal}/stock"),
    };
    // A draw past the listed stock is a fault of the draw's card.
    let actions = deal.strip_suffix("/deal").unwrap_or(deal);
    let pointer = match error {
        DealError::WrongCardCount { part, .. } => list(*part),
        DealError::StockTooLong { .. } => list(DealPart::Stock),
        DealError::UnrecordedDraw { action, .. } | DealError::DrawnCardSeen { action, .. } => {
            format!("{actions}/actions/{action}/card")
        }
        DealError::DuplicateCard { second, .. } => match second.part {
            DealPart::Upcard => list(second.part),
            part => format!("{}/{}", list(part), second.index),
        },
        // The same problem as the score endpoints answer for a joker the
        // profile's deck does not hold.
        DealError::JokerNotInDeck { joker, jokers, at } => {
            let pointer = match at {
                JokerPlace::Deal(slot) => match slot.part {
                    DealPart::Upcard => list(slot.part),
                    part => format!("{}/{}", list(part), slot.index),
                },
                JokerPlace::Action { action, field } => {
                    format!("{actions}/actions/{action}/{field}")
                }
            };
            let fault = HandReadFault::JokerNotInDeck {
                index: 0,
                joker: *joker,
                jokers: *jokers,
            };
            let detail = fault.to_string();
            let code = ErrorCode::JokerNotInDeck;
            return Problem::new(code, &detail).with_error(pointer, code, detail);
        }
    };
    let code = error.error_code();
    Problem::new(code, format!("the deal is impossible: {error}")).with_error(
        pointer,
        code,
        error.to_string(),
    )
}

/// The cards of a seeded deal (from the deck with `jokers` jokers, the
/// profile's), and the mismatch message when the server seed does not hash
/// to the commitment. Seeds the schema forbids are 400, pointed at under
/// `deal`, the pointer to the deal (`/deal`, `/hands/3/deal`).
pub fn seeded_deal(
    seeds: &Seeds,
    commitment: &str,
    deal: &str,
    jokers: u8,
) -> Result<(Deal, Option<String>), Problem> {
    let fault = |pointer: &str, error: &SeedError| {
        let detail = error.to_string();
        match error {
            SeedError::ClientSeedTooLong(_) => Problem::new(ErrorCode::ClientSeedTooLong, &detail)
                .with_error(pointer, ErrorCode::ClientSeedTooLong, detail),
            _ => Problem::new(ErrorCode::InvalidBody, &detail).with_error(
                pointer,
                ErrorCode::InvalidValue,
                detail,
            ),
        }
    };
    let seed = ServerSeed::from_hex(&seeds.server_seed)
        .map_err(|e| fault(&format!("{deal}/seeds/server_seed"), &e))?;
    let dealt = fair_deal::deal_with_jokers(&seed, &seeds.client_seed, seeds.nonce, jokers)
        .map_err(|e| match e {
            SeedError::ClientSeedTooLong(_) => fault(&format!("{deal}/seeds/client_seed"), &e),
            _ => fault(&format!("{deal}/seeds/nonce"), &e),
        })?;
    let mismatch = match seed.opens(commitment) {
        Ok(()) => None,
        Err(CommitmentError::Format) => {
            let detail = CommitmentError::Format.to_string();
            return Err(Problem::new(ErrorCode::InvalidBody, &detail).with_error(
                format!("{deal}/commitment"),
                ErrorCode::InvalidValue,
                detail,
            ));
        }
        Err(mismatch @ CommitmentError::Mismatch { .. }) => Some(mismatch.to_string()),
    };
    Ok((dealt, mismatch))
}

/// The example hand of the OpenAPI document, shared by the hand and match
/// audits' examples.
pub mod examples {
    use serde_json::{Value, json};

    /// The stock of the example deal: the rest of the deck, 2H on top.
    const STOCK: [&str; 31] = [
        "2H", "5S", "6S", "9S", "JS", "QS", "KS", "AH", "3H", "8H", "TH", "JH", "AD", "2D", "3D",
        "4D", "5D", "6D", "7D", "8D", "TD", "QD", "KD", "AC", "5C", "6C", "7C", "8C", "TC", "JC",
        "QC",
    ];

    /// A deal: the non-dealer holds three melds, KC and nothing else.
    pub fn deal() -> Value {
        json!({
            "dealer": ["7S", "8S", "TS", "JD", "QH", "KH", "3C", "4C", "7H", "4S"],
            "non_dealer": ["AS", "2S", "3S", "4H", "5H", "6H", "9C", "9D", "9H", "KC"],
            "upcard": "2C",
            "stock": STOCK,
        })
    }

    /// Both pass the upcard; the non-dealer draws 2H and knocks with 2; the dealer
    /// lays off 7H and 4S.
    pub fn knock_actions() -> Value {
        json!([
            {"player": "non_dealer", "action": "pass"},
            {"player": "dealer", "action": "pass"},
            {"player": "non_dealer", "action": "draw", "from": "stock", "card": "2H"},
            {"player": "non_dealer", "action": "knock", "discard": "KC",
             "melds": [["AS", "2S", "3S"], ["4H", "5H", "6H"], ["9C", "9D", "9H"]]},
            {"player": "dealer", "action": "lay_off",
             "layoffs": [{"card": "7H", "meld": 1}, {"card": "4S", "meld": 0}]},
        ])
    }

    /// The first `count` of [`knock_actions`]: the example hand in play.
    pub fn first_actions(count: usize) -> Value {
        match knock_actions() {
            Value::Array(all) => Value::Array(all.into_iter().take(count).collect()),
            other => other,
        }
    }

    /// A match's hand of the example deal: `dealer` deals to `non_dealer`,
    /// who play `actions`.
    pub fn match_hand(dealer: &str, non_dealer: &str, actions: Value) -> Value {
        json!({"dealer": dealer, "non_dealer": non_dealer, "deal": deal(), "actions": actions})
    }
}
