//! A match's record as `/v1/matches/audit` and `/v1/matches/state` read it:
//! the hands (a partnership's deals of two tables), the format they make with
//! the roster, the pointers into the request for a fault, and the ceilings.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::limits::{RequestLimits, check_items, check_length};
use crate::problem::{ErrorCode, Problem};
use crate::rule_errors::RuleError;
use crate::wire::formats::{TeamSpec, check_roster_limits, shape_problem, wrong_shape};
use crate::wire::transcript::{
    ActionSchema, DealInput, DealSchema, TranscriptAction, deal_problem, seeded_deal,
};
use gin_rules::{
    Action, DealSeeds, MatchAuditError, MatchError, MatchViolation, RecordedHand, ViolationCode,
};

/// The parts of a match request that make its record.
#[derive(Debug, Clone, Copy)]
pub struct MatchRecord<'a> {
    /// The players' names (two or three), or `None` with `teams`.
    pub players: Option<&'a [String]>,
    /// The teams of partnership play.
    pub teams: Option<&'a [TeamSpec]>,
    /// The hands (deals) in the order played.
    pub hands: &'a [RoundRecord],
}

/// One hand as recorded: who dealt (and, with three players or teams, who
/// played against the dealer), the deal, and the actions.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct HandRecord {
    /// The name of the player who dealt.
    #[schema(example = "Ann")]
    pub dealer: String,
    /// The name of the other player at the table: required with three players
    /// and in partnerships; with two players, optional (the other player).
    #[serde(default, deserialize_with = "crate::json::present")]
    #[schema(nullable = false, example = "Bob")]
    pub non_dealer: Option<String>,
    /// The cards as dealt, or the seeds that dealt them with their commitment.
    #[schema(value_type = DealSchema)]
    pub deal: DealInput,
    /// The actions, seats named `dealer` and `non_dealer`, as for
    /// `/v1/hands/audit`.
    #[schema(value_type = Vec<ActionSchema>)]
    pub actions: Vec<TranscriptAction>,
}

/// A partnership deal: the hands at its two tables.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DealRecord {
    /// The two tables, in either order.
    #[schema(min_items = 2, max_items = 2)]
    pub tables: Vec<HandRecord>,
}

/// A hand, or a partnership deal of two.
#[derive(ToSchema)]
#[schema(as = RoundRecord)]
#[serde(untagged)]
#[allow(dead_code)] // A schema only: requests are read through `RoundRecord`.
pub enum RoundRecordSchema {
    Hand(HandRecord),
    Deal(DealRecord),
}

/// A hand, or a partnership deal, read whole and then classified (so that a
/// fault inside keeps its pointer).
#[derive(Debug)]
pub enum RoundRecord {
    Hand(HandRecord),
    Deal(Vec<HandRecord>),
}

impl<'de> Deserialize<'de> for RoundRecord {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<RoundRecord, D::Error> {
        use serde::de::Error;
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields, expecting = "struct HandRecord")]
        struct Flat {
            dealer: Option<String>,
            #[serde(default, deserialize_with = "crate::json::present")]
            non_dealer: Option<String>,
            deal: Option<DealInput>,
            actions: Option<Vec<TranscriptAction>>,
            tables: Option<Vec<HandRecord>>,
        }
        match Flat::deserialize(deserializer)? {
            Flat {
                dealer: Some(dealer),
                non_dealer,
                deal: Some(deal),
                actions: Some(actions),
                tables: None,
            } => Ok(RoundRecord::Hand(HandRecord {
                dealer,
                non_dealer,
                deal,
                actions,
            })),
            Flat {
                dealer: None,
                non_dealer: None,
                deal: None,
                actions: None,
                tables: Some(tables),
            } => Ok(RoundRecord::Deal(tables)),
            _ => Err(D::Error::custom(
                "a hand is `{\"dealer\", \"deal\", \"actions\"}` (and `non_dealer`), or in \
                 partnership play a deal `{\"tables\": [hand, hand]}`",
            )),
        }
    }
}

// ---- Errors and pointers ---------------------------------------------------

/// The pointer to a hand, or to a table of a deal.
pub fn base(hand: usize, table: Option<usize>) -> String {
    match table {
        Some(table) => format!("/hands/{hand}/tables/{table}"),
        None => format!("/hands/{hand}"),
    }
}

/// The recorded table at `hand` (and `table`).
pub fn record<'a>(
    request: &MatchRecord<'a>,
    hand: usize,
    table: Option<usize>,
) -> Option<&'a HandRecord> {
    match (request.hands.get(hand)?, table) {
        (RoundRecord::Hand(record), None) => Some(record),
        (RoundRecord::Deal(tables), Some(table)) => tables.get(table),
        _ => None,
    }
}

/// Every recorded table, with where it is.
pub fn tables<'a>(
    request: &MatchRecord<'a>,
) -> impl Iterator<Item = (usize, Option<usize>, &'a HandRecord)> + use<'a> {
    request
        .hands
        .iter()
        .enumerate()
        .flat_map(|(hand, round)| match round {
            RoundRecord::Hand(record) => vec![(hand, None, record)],
            RoundRecord::Deal(tables) => tables
                .iter()
                .enumerate()
                .map(|(table, record)| (hand, Some(table), record))
                .collect(),
        })
}

/// The first violation of a match.
#[derive(Debug, Serialize, ToSchema)]
pub struct MatchAuditViolation {
    /// The hand's (the deal's) index, from 0.
    #[schema(example = 3)]
    pub hand: usize,
    /// The table of a partnership deal (absent otherwise, and for a fault of
    /// the whole deal).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, example = 1)]
    pub table: Option<usize>,
    /// The action's index in the hand's transcript; null for a fault of the
    /// whole hand (`wrong_dealer`, `hand_after_game_end`, `hand_unfinished`,
    /// `rotation_broken`, `pairing_broken`, the deal's seeds).
    #[schema(example = 7, required = true)]
    pub action: Option<usize>,
    /// The rule broken.
    pub code: gin_rules::ViolationCode,
    /// A sentence for a tournament director.
    pub message: String,
    /// JSON pointer into the request, down to the field at fault:
    /// `/hands/3/actions/7/card`, `/hands/3/actions/7`, `/hands/3/dealer`.
    #[schema(example = "/hands/3/actions/7/card")]
    pub pointer: String,
}

impl MatchAuditViolation {
    /// The violation `found` in `record`, pointed at in the request.
    pub fn of(record: &MatchRecord<'_>, found: &MatchViolation) -> MatchAuditViolation {
        MatchAuditViolation {
            hand: found.hand,
            table: found.table,
            action: found.violation.action,
            code: found.violation.code,
            message: found.violation.message.clone(),
            pointer: violation_pointer(record, found),
        }
    }
}

/// Where in the request a violation is.
pub fn violation_pointer(request: &MatchRecord<'_>, found: &MatchViolation) -> String {
    let (hand, table) = (found.hand, found.table);
    let here = base(hand, table);
    if let Some(action) = found.violation.action {
        return match &found.violation.field {
            Some(field) => format!("{here}/actions/{action}/{field}"),
            None => format!("{here}/actions/{action}"),
        };
    }
    let seeds_at = |record: &HandRecord| match &record.deal {
        DealInput::Seeds { commitment, .. } => Some(commitment.clone()),
        DealInput::Cards(_) => None,
    };
    match found.violation.code {
        ViolationCode::WrongDealer => format!("{here}/dealer"),
        ViolationCode::HandUnfinished => format!("{here}/actions"),
        ViolationCode::DealCommitmentMismatch => format!("{here}/deal/commitment"),
        ViolationCode::DealNonceNotIncreasing => format!("{here}/deal/seeds/nonce"),
        ViolationCode::PairingBroken => format!("{here}/tables"),
        ViolationCode::DealSeedsDiffer => {
            let first = tables(request).find_map(|(_, _, record)| seeds_at(record));
            let this = record(request, hand, table).and_then(seeds_at);
            match (first, this) {
                (Some(first), Some(this)) if !first.eq_ignore_ascii_case(&this) => {
                    format!("{here}/deal/commitment")
                }
                (Some(_), Some(_)) => format!("{here}/deal/seeds/client_seed"),
                _ => format!("{here}/deal"),
            }
        }
        _ => here,
    }
}

/// The field of the first recorded table naming `name` as dealer or
/// non-dealer, at or after `hand` (for an unknown or repeated name).
pub fn name_pointer(request: &MatchRecord<'_>, hand: usize, name: &str) -> String {
    tables(request)
        .filter(|(at, _, _)| *at == hand)
        .find_map(|(at, table, record)| {
            if record.dealer == name && record.non_dealer.as_deref() != Some(name) {
                Some(format!("{}/dealer", base(at, table)))
            } else if record.non_dealer.as_deref() == Some(name) {
                Some(format!("{}/non_dealer", base(at, table)))
            } else {
                None
            }
        })
        .unwrap_or_else(|| base(hand, None))
}

pub fn audit_problem(request: &MatchRecord<'_>, error: &MatchAuditError) -> Problem {
    let detail = error.to_string();
    let at = |code: ErrorCode, pointer: String| {
        Problem::new(code, &detail).with_error(pointer, code, detail.clone())
    };
    let names_at = if request.teams.is_some() {
        "/teams"
    } else {
        "/players"
    };
    match error {
        MatchAuditError::Deal { hand, table, error } => {
            let mut problem = deal_problem(error, &format!("{}/deal", base(*hand, *table)));
            problem.detail = detail;
            problem
        }
        MatchAuditError::NonDealerRequired { hand, table } => at(
            ErrorCode::WrongHandShape,
            format!("{}/non_dealer", base(*hand, *table)),
        ),
        MatchAuditError::Match(error) => match error {
            MatchError::UnknownPlayer { hand, name }
            | MatchError::SamePlayerTwice { hand, name } => {
                at(error.error_code(), name_pointer(request, *hand, name))
            }
            MatchError::BlankPlayerName { index } if request.teams.is_none() => {
                at(error.error_code(), format!("/players/{index}"))
            }
            MatchError::TooManyHands { .. } => at(error.error_code(), "/hands".into()),
            MatchError::HollywoodNotDefined { .. } => at(error.error_code(), "/profile".into()),
            MatchError::BlankPlayerName { .. }
            | MatchError::DuplicatePlayerName { .. }
            | MatchError::BlankTeamName => at(error.error_code(), names_at.into()),
            // The referee built every other input itself.
            _ => Problem::internal(error),
        },
        MatchAuditError::Inconsistent(_) => Problem::internal(error),
    }
}

// ---- Handler ---------------------------------------------------------------

const TWO_TABLES: &str = "a partnership hand is a deal of two tables: `{\"tables\": [hand, hand]}`";
const ONE_TABLE: &str = "with `players`, a hand is `{\"dealer\", \"deal\", \"actions\"}`; \
    deals of two tables belong to partnership play (`teams`)";

/// The library's record of one table: the deal derived from its seeds when
/// given by them (from the deck with the profile's `jokers`).
pub fn recorded(record: &HandRecord, at: &str, jokers: u8) -> Result<RecordedHand, Problem> {
    let (deal, seeds) = match &record.deal {
        DealInput::Cards(deal) => (deal.clone(), None),
        DealInput::Seeds { seeds, commitment } => {
            let (deal, mismatch) = seeded_deal(seeds, commitment, &format!("{at}/deal"), jokers)?;
            let seeds = DealSeeds {
                client_seed: seeds.client_seed.clone(),
                commitment: commitment.to_ascii_lowercase(),
                nonce: seeds.nonce,
                mismatch,
            };
            (deal, Some(seeds))
        }
    };
    Ok(RecordedHand {
        dealer: record.dealer.clone(),
        non_dealer: record.non_dealer.clone(),
        deal,
        seeds,
        actions: record.actions.iter().cloned().map(Action::from).collect(),
    })
}

/// Round `index` of a format that plays one table a hand, or the 422 saying
/// a deal of two tables belongs to partnership play.
pub fn one_table(index: usize, round: &RoundRecord, jokers: u8) -> Result<RecordedHand, Problem> {
    match round {
        RoundRecord::Hand(record) => recorded(record, &base(index, None), jokers),
        RoundRecord::Deal(_) => Err(wrong_shape(base(index, None), ONE_TABLE)),
    }
}

/// Round `index` of partnership play: a deal of two tables, or the 422
/// saying what a deal is.
pub fn two_tables(
    index: usize,
    round: &RoundRecord,
    jokers: u8,
) -> Result<[RecordedHand; 2], Problem> {
    match round {
        RoundRecord::Deal(tables) => match tables.as_slice() {
            [one, two] => Ok([
                recorded(one, &base(index, Some(0)), jokers)?,
                recorded(two, &base(index, Some(1)), jokers)?,
            ]),
            _ => Err(shape_problem(
                &format!("/hands/{index}/tables"),
                &format!("a deal has two tables, not {}", tables.len()),
            )),
        },
        RoundRecord::Hand(_) => Err(wrong_shape(base(index, None), TWO_TABLES)),
    }
}

/// The ceilings on names, hands and actions (see `limits`).
pub fn check_record_limits(
    request: &MatchRecord<'_>,
    limits: &RequestLimits,
) -> Result<(), Problem> {
    let max = limits.name_length;
    check_roster_limits(request.players, request.teams, max)?;
    check_items("/hands", "hands", request.hands.len(), limits.match_hands)?;
    for round in request.hands {
        if let RoundRecord::Deal(tables) = round {
            check_items("/hands/tables", "tables", tables.len(), 2)?;
        }
    }
    for (hand, table, record) in tables(request) {
        let at = base(hand, table);
        check_length(&format!("{at}/dealer"), &record.dealer, max)?;
        if let Some(name) = &record.non_dealer {
            check_length(&format!("{at}/non_dealer"), name, max)?;
        }
        check_items(
            &format!("{at}/actions"),
            "actions",
            record.actions.len(),
            limits.audit_actions,
        )?;
    }
    Ok(())
}
