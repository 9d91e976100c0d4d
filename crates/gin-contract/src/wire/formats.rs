//! The match formats on the wire, shared by match scoring and the match audit:
//! the teams of a partnership, the answers for three players and for
//! partnerships (per-player or per-team values keyed by name, in the order of
//! the request), the answer of any format, and the rules of which hand shapes
//! a format takes.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{AnyOfBuilder, Ref, Schema};

use crate::limits::{check_items, check_length};
use crate::problem::{ErrorCode, Problem};
use crate::wire::score_sheet::{
    ByName, MatchOutcome, MatchResponse, PointsByName, TalliesByName, TotalsByName, by_name,
};
use gin_rules::{Breakdown, PartnershipScore, Players, ScoredSeatedHand, Tally, Team, ThreeScore};

/// One hand between two of the match's players.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TableResult {
    /// The two players at the table: knocker first (as recorded for a void hand).
    #[schema(example = json!(["Ann", "Bob"]))]
    pub players: [String; 2],
    /// The winner's name; null for a void hand.
    #[schema(required = true)]
    pub winner: Option<String>,
    /// The knocker's name; null for a void hand.
    #[schema(required = true)]
    pub knocker: Option<String>,
    pub outcome: MatchOutcome,
    /// Points won (0 for a void hand).
    pub points: u32,
    /// The knocker's count (null for a void hand).
    #[schema(required = true)]
    pub knocker_deadwood: Option<u32>,
    /// The defender's count after layoffs (null for a void hand).
    #[schema(required = true)]
    pub defender_deadwood: Option<u32>,
    /// Where the points came from (null for a void hand).
    #[schema(required = true)]
    pub breakdown: Option<Breakdown>,
}

impl TableResult {
    fn new(names: &[String], hand: &ScoredSeatedHand) -> TableResult {
        let name = |p: Option<usize>| p.and_then(|p| names.get(p).cloned());
        let [a, b] = hand.players;
        TableResult {
            players: [
                name(Some(a)).unwrap_or_default(),
                name(Some(b)).unwrap_or_default(),
            ],
            winner: name(hand.result.winner),
            knocker: name(hand.result.knocker),
            outcome: MatchOutcome::of(hand.result.outcome),
            points: hand.result.points,
            knocker_deadwood: hand.result.knocker_deadwood,
            defender_deadwood: hand.result.defender_deadwood,
            breakdown: hand.result.breakdown,
        }
    }
}

/// A three-player hand with the running totals after it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ThreePlayerHand {
    #[serde(flatten)]
    pub hand: TableResult,
    /// Running totals after this hand, keyed by player name.
    #[schema(value_type = TotalsByName, example = json!({"Ann": 16, "Bob": 0, "Cy": 0}))]
    pub totals: ByName<u64>,
}

/// One pair's settlement.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PairNet {
    /// The pair, in the order of the request's `players`.
    #[schema(example = json!(["Ann", "Bob"]))]
    pub players: [String; 2],
    /// The first player's net against the second.
    #[schema(example = 400)]
    pub net: i64,
}

/// A scored three-player match.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ThreePlayerMatchResponse {
    pub hands: Vec<ThreePlayerHand>,
    /// A player reached the target.
    pub complete: bool,
    /// That player; null before the end.
    #[schema(required = true, example = "Ann")]
    pub winner: Option<String>,
    /// Each player's score sheet, keyed by name; before the end, the sheet so
    /// far. A winner's `shutout_bonus` is the flat bonus from each opponent
    /// shut out.
    #[serde(rename = "final")]
    #[schema(value_type = TalliesByName)]
    pub final_tally: ByName<Tally>,
    /// Each player's net: the sum of its two pairwise nets; the three sum to
    /// zero. Null before the end.
    #[schema(value_type = Option<PointsByName>, required = true,
             example = json!({"Ann": 599, "Bob": -501, "Cy": -98}))]
    pub nets: Option<ByName<i64>>,
    /// Each pair's net. Null before the end.
    #[schema(required = true)]
    pub pairs: Option<Vec<PairNet>>,
    /// Index into `hands` of the hand that ended the game; null before the end.
    #[schema(required = true)]
    pub ended_at: Option<usize>,
    /// A signed receipt (compact JWS, see `GET /v1/keys`), when the request
    /// asked for one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub receipt: Option<String>,
}

impl ThreePlayerMatchResponse {
    pub(crate) fn new(score: &ThreeScore) -> ThreePlayerMatchResponse {
        let names = &score.players;
        let name = |p: usize| names.get(p).cloned().unwrap_or_default();
        ThreePlayerMatchResponse {
            receipt: None,
            hands: score
                .hands
                .iter()
                .map(|(hand, totals)| ThreePlayerHand {
                    hand: TableResult::new(names, hand),
                    totals: by_name(names, totals),
                })
                .collect(),
            complete: score.complete,
            winner: score.winner.map(name),
            final_tally: by_name(names, &score.final_tally),
            nets: score.nets.map(|nets| by_name(names, &nets)),
            pairs: score.pairs.map(|pairs| {
                pairs
                    .iter()
                    .map(|&((a, b), net)| PairNet {
                        players: [name(a), name(b)],
                        net,
                    })
                    .collect()
            }),
            ended_at: score
                .complete
                .then(|| score.hands.len().checked_sub(1))
                .flatten(),
        }
    }
}

/// One partnership deal: its two tables and the team result.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DealResult {
    pub tables: Vec<TableResult>,
    /// The team with a positive net for the deal, which scores it and wins its
    /// box; null when the net is 0.
    #[schema(required = true, example = "North-South")]
    pub winner: Option<String>,
    /// The net the winning team scores (0 when the net is 0).
    #[schema(example = 2)]
    pub points: u64,
    /// Running team totals after this deal, keyed by team name.
    #[schema(value_type = TotalsByName, example = json!({"North-South": 2, "East-West": 0}))]
    pub totals: ByName<u64>,
}

/// A scored partnership match.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PartnershipMatchResponse {
    pub hands: Vec<DealResult>,
    /// A team reached the target.
    pub complete: bool,
    /// That team's name; null before the end.
    #[schema(required = true, example = "North-South")]
    pub winner: Option<String>,
    /// Each team's score sheet, keyed by team name (`hands_won`: deals won).
    #[serde(rename = "final")]
    #[schema(value_type = TalliesByName)]
    pub final_tally: ByName<Tally>,
    /// The winning team's total minus the other's. Null before the end.
    #[schema(required = true, example = 271)]
    pub net: Option<i64>,
    /// Index into `hands` of the deal that ended the game; null before the end.
    #[schema(required = true)]
    pub ended_at: Option<usize>,
    /// A signed receipt (compact JWS, see `GET /v1/keys`), when the request
    /// asked for one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub receipt: Option<String>,
}

impl PartnershipMatchResponse {
    pub(crate) fn new(score: &PartnershipScore, players: &[String; 4]) -> PartnershipMatchResponse {
        let teams = &score.teams;
        let team = |t: usize| teams.get(t).cloned().unwrap_or_default();
        PartnershipMatchResponse {
            receipt: None,
            hands: score
                .deals
                .iter()
                .map(|deal| DealResult {
                    tables: deal
                        .tables
                        .iter()
                        .map(|t| TableResult::new(players, t))
                        .collect(),
                    winner: deal.winner.map(team),
                    points: deal.points,
                    totals: by_name(teams, &deal.totals),
                })
                .collect(),
            complete: score.complete,
            winner: score.winner.map(team),
            final_tally: by_name(teams, &score.final_tally),
            net: score.net,
            ended_at: score
                .complete
                .then(|| score.deals.len().checked_sub(1))
                .flatten(),
        }
    }
}

/// A team of a partnership match.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "North-South", "players": ["Ann", "Cy"]}))]
pub struct TeamSpec {
    /// The team's name: the response is keyed by it.
    pub name: String,
    /// Its two players. The order fixes the pairings: the first players of
    /// both teams meet on the first deal.
    #[schema(min_items = 2, max_items = 2)]
    pub players: Vec<String>,
}

/// The answer: a two-player match, a three-player match or a partnership.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(untagged)]
pub enum MatchAnswer {
    TwoPlayers(MatchResponse),
    ThreePlayers(ThreePlayerMatchResponse),
    Partnership(PartnershipMatchResponse),
}

impl MatchAnswer {
    pub fn set_receipt(&mut self, receipt: String) {
        let slot = match self {
            MatchAnswer::TwoPlayers(answer) => &mut answer.receipt,
            MatchAnswer::ThreePlayers(answer) => &mut answer.receipt,
            MatchAnswer::Partnership(answer) => &mut answer.receipt,
        };
        *slot = Some(receipt);
    }

    /// The receipt, whatever the format.
    pub const fn receipt(&self) -> Option<&String> {
        match self {
            MatchAnswer::TwoPlayers(answer) => answer.receipt.as_ref(),
            MatchAnswer::ThreePlayers(answer) => answer.receipt.as_ref(),
            MatchAnswer::Partnership(answer) => answer.receipt.as_ref(),
        }
    }
}

// `anyOf`, not the `oneOf` a derive would write: the answers to a match with no
// hands are alike enough (two players, teams) that one answer can fit two
// shapes, which `oneOf` forbids. The request's `players` or `teams` says which
// shape comes back.
impl utoipa::PartialSchema for MatchAnswer {
    fn schema() -> RefOr<Schema> {
        let shape = |name: &str| RefOr::Ref(Ref::from_schema_name(name));
        AnyOfBuilder::new()
            .item(shape("MatchResponse"))
            .item(shape("ThreePlayerMatchResponse"))
            .item(shape("PartnershipMatchResponse"))
            .description(Some(
                "The scored match, in the shape the request's format gives: two players \
                 (`MatchResponse`), three players (`ThreePlayerMatchResponse`) or a partnership \
                 (`PartnershipMatchResponse`).",
            ))
            .into()
    }
}

impl utoipa::ToSchema for MatchAnswer {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("MatchAnswer")
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        fn add<T: utoipa::ToSchema>(schemas: &mut Vec<(String, RefOr<Schema>)>) {
            schemas.push((T::name().into(), T::schema()));
            T::schemas(schemas);
        }
        add::<MatchResponse>(schemas);
        add::<ThreePlayerMatchResponse>(schemas);
        add::<PartnershipMatchResponse>(schemas);
    }
}

pub fn shape_problem(pointer: &str, message: &str) -> Problem {
    Problem::new(ErrorCode::InvalidBody, format!("{pointer}: {message}")).with_error(
        pointer,
        ErrorCode::InvalidValue,
        message,
    )
}

/// Neither or both of `players` and `teams`.
fn players_or_teams(pointer: &str, message: &str) -> Problem {
    Problem::new(ErrorCode::PlayersOrTeams, format!("{pointer}: {message}")).with_error(
        pointer,
        ErrorCode::PlayersOrTeams,
        message,
    )
}

/// A hand whose shape is not the one the match's format takes (a three-player
/// hand in a two-player match, a table naming no defender): the schema allows
/// every shape everywhere, so this is a rule of the format, a 422.
pub fn wrong_shape(pointer: String, message: &str) -> Problem {
    Problem::new(ErrorCode::WrongHandShape, format!("{pointer}: {message}")).with_error(
        pointer,
        ErrorCode::WrongHandShape,
        message,
    )
}

/// Who plays a match: two players, three, or two teams of two, read from a
/// request's `players` or `teams` (the match score and the match audit take
/// both the same way).
pub enum Roster {
    Two(Players<String>),
    Three([String; 3]),
    Teams([Team; 2]),
}

impl Roster {
    /// Exactly one of `players` (two or three names) and `teams` (two of two).
    pub fn of(players: Option<&[String]>, teams: Option<&[TeamSpec]>) -> Result<Roster, Problem> {
        match (players, teams) {
            // The schema lists both as optional (it cannot say "exactly one"
            // in a form generators read), so this is a rule: 422.
            (Some(_), Some(_)) => Err(players_or_teams(
                "/teams",
                "a match has `players` (two or three) or `teams` (a partnership), not both",
            )),
            (None, None) => Err(players_or_teams(
                "/players",
                "a match needs `players` (two or three) or `teams` (a partnership)",
            )),
            (Some(players), None) => match players {
                [a, b] => Ok(Roster::Two(Players::new(a.clone(), b.clone()))),
                [a, b, c] => Ok(Roster::Three([a.clone(), b.clone(), c.clone()])),
                other => Err(shape_problem(
                    "/players",
                    &format!("a match has two or three players, not {}", other.len()),
                )),
            },
            (None, Some(teams)) => {
                let [first, second] = teams else {
                    return Err(shape_problem(
                        "/teams",
                        &format!("a partnership has two teams, not {}", teams.len()),
                    ));
                };
                let team = |index: usize, spec: &TeamSpec| match spec.players.as_slice() {
                    [a, b] => Ok(Team {
                        name: spec.name.clone(),
                        players: [a.clone(), b.clone()],
                    }),
                    other => Err(shape_problem(
                        &format!("/teams/{index}/players"),
                        &format!("a team has two players, not {}", other.len()),
                    )),
                };
                Ok(Roster::Teams([team(0, first)?, team(1, second)?]))
            }
        }
    }
}

/// The ceilings on the names of `players` or `teams` (see `limits`): every
/// hand's result repeats them, so they bound the answer.
pub fn check_roster_limits(
    players: Option<&[String]>,
    teams: Option<&[TeamSpec]>,
    max_name: usize,
) -> Result<(), Problem> {
    if let Some(players) = players {
        check_items("/players", "players", players.len(), 3)?;
        for (index, name) in players.iter().enumerate() {
            check_length(&format!("/players/{index}"), name, max_name)?;
        }
    }
    if let Some(teams) = teams {
        check_items("/teams", "teams", teams.len(), 2)?;
        for (index, team) in teams.iter().enumerate() {
            check_length(&format!("/teams/{index}/name"), &team.name, max_name)?;
            check_items(
                &format!("/teams/{index}/players"),
                "players",
                team.players.len(),
                2,
            )?;
            for (seat, name) in team.players.iter().enumerate() {
                check_length(&format!("/teams/{index}/players/{seat}"), name, max_name)?;
            }
        }
    }
    Ok(())
}
