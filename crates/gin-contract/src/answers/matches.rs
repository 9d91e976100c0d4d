//! `POST /v1/matches/score`: score a whole match hand by hand (games, boxes,
//! bonuses, shutouts, settlement, Hollywood), backed by [`gin_rules::score_match`]
//! whose module docs state every rule applied.
//!
//! A hand is one of three shapes (counts, cards, void). It is read as one flat
//! object and then classified, rather than as an untagged enum, so that a fault
//! inside a hand keeps its exact pointer (`/hands/2/knocker_hand/hand/3`) and a
//! hand that mixes shapes gets a message saying which fields belong together.
//!
//! Per-player data is keyed by the players' names, in the order the request
//! lists the players.

mod request;

use crate::limits::{RequestLimits, check_items, check_length};
use crate::problem::Problem;
use crate::rule_errors::RuleError;
use crate::wire::hand_errors::hand_problem;
use crate::wire::profile_spec::resolve_profile;
use crate::wire::receipt::Keys;
use gin_rules::{CardHand, MatchError, MatchHand, Profile, SeatedHand};

use crate::wire::edge::{FormatOperation, WireFormat, dispatch};
pub use crate::wire::formats::{
    DealResult, PairNet, PartnershipMatchResponse, TableResult, ThreePlayerHand,
    ThreePlayerMatchResponse,
};
use crate::wire::formats::{MatchAnswer, check_roster_limits};
pub use crate::wire::score_sheet::{ByName, GameResult, HandResult, MatchOutcome, MatchResponse};
pub use request::{
    CardHandSchema, CountHandSchema, DealSchema, MatchHandSchema, MatchRequest, RecordedHand,
    VoidHandSchema,
};

/// Maps a match error to a 422 whose pointer names the hand (and field) at
/// fault. `hand_at(hand, table)` finds a recorded hand (the table of a deal
/// in partnership play) to point inside it.
fn match_problem(
    error: &MatchError,
    hand_at: &dyn Fn(usize, Option<usize>) -> Option<Located>,
    duplicate_at: &dyn Fn(&str) -> String,
) -> Problem {
    let detail = error.to_string();
    let code = error.error_code();
    let problem = Problem::new(code, &detail);
    let at = |pointer: String| problem.clone().with_error(pointer, code, detail.clone());
    let located = |hand: usize, table: Option<usize>, inner: &MatchError| -> Problem {
        let Some(Located {
            base,
            hand: recorded,
            players: seats,
        }) = hand_at(hand, table)
        else {
            return at(format!("/hands/{hand}"));
        };
        match inner {
            MatchError::UnknownPlayer { name, .. } => {
                let field = match (&recorded, seats) {
                    (MatchHand::Void, Some([first, _])) => {
                        if &first == name {
                            "players/0"
                        } else {
                            "players/1"
                        }
                    }
                    (_, Some([knocker, _])) if &knocker != name => "defender",
                    _ => "knocker",
                };
                at(format!("{base}/{field}"))
            }
            MatchError::SamePlayerTwice { .. } => match recorded {
                MatchHand::Void => at(format!("{base}/players/1")),
                _ => at(format!("{base}/defender")),
            },
            MatchError::Count { error, .. } => at(format!("{base}/{}", error.field())),
            MatchError::Cards { error, .. } => {
                let MatchHand::Cards(CardHand { knocker_hand, .. }) = &recorded else {
                    return at(base);
                };
                let mut inner = hand_problem(error, knocker_hand);
                for e in &mut inner.errors {
                    e.pointer = rebase(&e.pointer, &base);
                }
                inner.detail = detail.clone();
                inner
            }
            _ => at(base),
        }
    };
    match error {
        MatchError::TooManyHands { .. } => at("/hands".into()),
        MatchError::BlankPlayerName { index } => at(format!("/players/{index}")),
        MatchError::DuplicatePlayerName { name } => at(duplicate_at(name)),
        MatchError::BlankTeamName => at("/teams".into()),
        MatchError::HollywoodNotDefined { .. } => at("/profile".into()),
        MatchError::GameOver { hand, .. } | MatchError::RotationBroken { hand, .. } => {
            at(format!("/hands/{hand}"))
        }
        MatchError::PairingBroken { deal, .. } => at(format!("/hands/{deal}/tables")),
        MatchError::AtTable { deal, table, error } => {
            let mut inner = located(*deal, Some(*table), error);
            inner.detail = detail;
            inner
        }
        MatchError::UnknownPlayer { hand, .. }
        | MatchError::SamePlayerTwice { hand, .. }
        | MatchError::KnockerNotFirst { hand }
        | MatchError::Count { hand, .. }
        | MatchError::Cards { hand, .. } => located(*hand, None, error),
    }
}

/// Moves a `/v1/hands/score` pointer into a match hand: `/knocker/hand/3` becomes
/// `/hands/2/knocker_hand/hand/3`, `/upcard` becomes `/hands/2/upcard`.
fn rebase(pointer: &str, base: &str) -> String {
    for (from, to) in [
        ("/knocker", "knocker_hand"),
        ("/defender", "defender_hand"),
        ("/upcard", "upcard"),
    ] {
        if let Some(rest) = pointer.strip_prefix(from)
            && (rest.is_empty() || rest.starts_with('/'))
        {
            return format!("{base}/{to}{rest}");
        }
    }
    pointer.to_owned()
}

/// The ceilings on names and hands (see `limits`): every hand's result repeats
/// the names, so these bound the answer.
fn check_limits(request: &MatchRequest, limits: &RequestLimits) -> Result<(), Problem> {
    let max = limits.name_length;
    check_roster_limits(request.players.as_deref(), request.teams.as_deref(), max)?;
    check_items("/hands", "hands", request.hands.len(), limits.match_hands)?;
    let check_seated = |base: &str, seated: &SeatedHand| match seated.hand {
        MatchHand::Void => seated
            .players
            .iter()
            .enumerate()
            .try_for_each(|(seat, name)| {
                check_length(&format!("{base}/players/{seat}"), name, max)
            }),
        _ => {
            let [knocker, defender] = &seated.players;
            check_length(&format!("{base}/knocker"), knocker, max)?;
            check_length(&format!("{base}/defender"), defender, max)
        }
    };
    for (index, hand) in request.hands.iter().enumerate() {
        let base = format!("/hands/{index}");
        match hand {
            RecordedHand::Plain(MatchHand::Counts(counts)) => {
                check_length(&format!("{base}/knocker"), &counts.knocker, max)?;
            }
            RecordedHand::Plain(MatchHand::Cards(cards)) => {
                check_length(&format!("{base}/knocker"), &cards.knocker, max)?;
            }
            RecordedHand::Plain(MatchHand::Void) => {}
            RecordedHand::Seated(seated) => check_seated(&base, seated)?,
            RecordedHand::Deal(tables) => {
                for (table, hand) in tables.iter().enumerate() {
                    if let RecordedHand::Seated(seated) = hand {
                        check_seated(&format!("{base}/tables/{table}"), seated)?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// A hand of the request, for error pointers: where it is, the hand, and its
/// two players when it names them.
struct Located {
    base: String,
    hand: MatchHand,
    players: Option<[String; 2]>,
}

fn recorded_at(request: &MatchRequest, hand: usize, table: Option<usize>) -> Option<Located> {
    let seated = |base: String, seated: &SeatedHand| Located {
        base,
        hand: seated.hand.clone(),
        players: Some(seated.players.clone()),
    };
    match (request.hands.get(hand)?, table) {
        (RecordedHand::Plain(recorded), None) => Some(Located {
            base: format!("/hands/{hand}"),
            hand: recorded.clone(),
            players: None,
        }),
        (RecordedHand::Seated(hand_seated), None) => {
            Some(seated(format!("/hands/{hand}"), hand_seated))
        }
        (RecordedHand::Deal(tables), Some(table)) => match tables.get(table)? {
            RecordedHand::Seated(table_seated) => Some(seated(
                format!("/hands/{hand}/tables/{table}"),
                table_seated,
            )),
            _ => None,
        },
        _ => None,
    }
}

/// The pointer to the second use of a name: a player, a team's player, or a
/// team name.
fn duplicate_pointer(request: &MatchRequest, name: &str) -> String {
    if let Some(players) = &request.players {
        let index = players.iter().rposition(|p| p == name).unwrap_or(1);
        return format!("/players/{index}");
    }
    let teams = request.teams.as_deref().unwrap_or_default();
    let mut seen = Vec::new();
    for (index, team) in teams.iter().enumerate() {
        for (seat, player) in team.players.iter().enumerate() {
            if seen.contains(&player) && player == name {
                return format!("/teams/{index}/players/{seat}");
            }
            seen.push(player);
        }
    }
    "/teams/1/name".into()
}

/// The whole operation, without HTTP (the examples test calls it directly).
fn answer(request: MatchRequest) -> Result<MatchAnswer, Problem> {
    let profile: Profile = resolve_profile(request.profile.as_ref())?;
    dispatch(
        request.players.as_deref(),
        request.teams.as_deref(),
        Score(&request, profile),
    )
}

/// The score operation, for any format: the request and its profile.
struct Score<'a>(&'a MatchRequest, Profile);

impl FormatOperation for Score<'_> {
    type Output = MatchAnswer;

    fn run<F: WireFormat>(self, format: F) -> Result<MatchAnswer, Problem> {
        let Score(request, profile) = self;
        let hands = F::score_hands(&request.hands)?;
        let problem = |error: MatchError| {
            match_problem(
                &error,
                &|hand, table| recorded_at(request, hand, table),
                &|name| duplicate_pointer(request, name),
            )
        };
        let scored = gin_rules::score_match(&profile, &format, &hands).map_err(problem)?;
        Ok(format.answer(&scored, &profile))
    }
}

/// `/v1/matches/score`: the ceilings checked, the match scored, and signed
/// when the request asks for a receipt.
pub fn respond(
    request: MatchRequest,
    body: &[u8],
    limits: &RequestLimits,
    keys: &Keys,
) -> Result<MatchAnswer, Problem> {
    check_limits(&request, limits)?;
    let signed = (request.receipt == Some(true))
        .then(|| resolve_profile(request.profile.as_ref()))
        .transpose()?;
    let mut scored = answer(request)?;
    if let Some(profile) = signed {
        let receipt = keys.sign("score_match", &profile, body, &scored)?;
        scored.set_receipt(receipt);
    }
    Ok(scored)
}

/// Examples for the OpenAPI document.
pub mod examples {
    use serde_json::{Value, json};

    /// Mom and Dad's match under `profile`, each hand as its counts: who
    /// knocked, the knocker's deadwood and the defender's.
    fn counted(profile: &str, hands: &[(&str, u32, u32)]) -> Value {
        let hands: Vec<Value> = hands
            .iter()
            .map(|(knocker, knocker_deadwood, defender_deadwood)| {
                json!({"knocker": knocker, "knocker_deadwood": knocker_deadwood,
                       "defender_deadwood": defender_deadwood})
            })
            .collect();
        json!({"profile": profile, "players": ["Mom", "Dad"], "hands": hands})
    }

    /// The walkthrough of source `[S0]` (docs/RULES.md) as counts, under
    /// `standard`.
    pub fn source_s0() -> Value {
        counted(
            "standard",
            &[
                ("Mom", 5, 15),
                ("Mom", 0, 6),
                ("Mom", 4, 2),
                ("Mom", 10, 43),
                ("Dad", 0, 10),
                ("Mom", 0, 11),
            ],
        )
    }

    /// Hollywood: Mom shuts Dad out of game 1; Dad enters game 2.
    pub fn hollywood() -> Value {
        counted(
            "hollywood",
            &[("Mom", 0, 50), ("Mom", 0, 40), ("Dad", 2, 12)],
        )
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn operation() -> Value {
        let doc = serde_json::to_value(crate::answers::openapi()).unwrap_or_default();
        doc["paths"]["/v1/matches/score"]["post"].clone()
    }

    fn answer_json(request: Value) -> Value {
        let request: MatchRequest = serde_json::from_value(request).unwrap();
        match answer(request) {
            Ok(response) => serde_json::to_value(response).unwrap(),
            Err(problem) => serde_json::to_value(problem.to_document()).unwrap(),
        }
    }

    #[test]
    fn the_documented_responses_are_what_the_documented_requests_get() {
        let op = operation();
        let requests = op["requestBody"]["content"]["application/json"]["examples"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        assert_eq!(requests.len(), 5);
        let responses = &op["responses"]["200"]["content"]["application/json"]["examples"];
        for (name, example) in requests {
            let answered = answer_json(example["value"].clone());
            assert!(answered.get("code").is_none(), "{name}: {answered}");
            if let Some(documented) = responses.get(&name) {
                assert_eq!(answered, documented["value"], "{name}");
            }
        }
    }

    #[test]
    fn the_documented_errors_are_what_the_service_answers() {
        let op = operation();
        let examples = &op["responses"]["422"]["content"]["application/problem+json"]["examples"];
        let knock = |who: &str, k: u32, d: u32| json!({"knocker": who, "knocker_deadwood": k, "defender_deadwood": d});
        let source_s0 = json!([
            knock("Mom", 5, 15),
            knock("Mom", 0, 6),
            knock("Mom", 4, 2),
            knock("Mom", 10, 43),
            knock("Dad", 0, 10),
            knock("Mom", 0, 11),
            {"void": true}
        ]);
        let cases = [
            ("game_over", source_s0),
            (
                "knock_over_limit",
                json!([
                    knock("Mom", 5, 15),
                    knock("Dad", 0, 6),
                    knock("Mom", 4, 22),
                    knock("Dad", 12, 40)
                ]),
            ),
            (
                "duplicate_card",
                json!([{
                    "knocker": "Mom",
                    "knocker_hand": {"hand": ["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "3h"]},
                    "defender_hand": {"hand": ["6H", "2H", "JS", "JH", "JD", "7S", "7H", "7C", "4D", "5S"]}
                }]),
            ),
        ];
        for (name, hands) in cases {
            let answered = answer_json(json!({"players": ["Mom", "Dad"], "hands": hands}));
            for member in ["type", "title", "status", "code"] {
                assert_eq!(answered[member], examples[name]["value"][member], "{name}");
            }
        }
    }

    #[test]
    fn pointers_of_a_single_hand_move_under_the_match_hand() {
        let base = "/hands/2";
        assert_eq!(
            rebase("/knocker/hand/3", base),
            "/hands/2/knocker_hand/hand/3"
        );
        assert_eq!(
            rebase("/defender/layoffs/0", base),
            "/hands/2/defender_hand/layoffs/0"
        );
        assert_eq!(rebase("/upcard", base), "/hands/2/upcard");
        assert_eq!(rebase("/profile/gin_bonus", base), "/profile/gin_bonus");
    }
}
