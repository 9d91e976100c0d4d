//! The answers of `POST /v1/matches/score` for three players and for
//! partnerships: per-player (per-team) values keyed by name, in the order of
//! the request.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use utoipa::ToSchema;

use crate::api::score_sheet::MatchOutcome;
use gin_rules::{Breakdown, Outcome, PartnershipScore, ScoredSeatedHand, Tally, ThreeScore};

/// Values keyed by name, in the order of the request.
#[derive(Debug, Clone)]
pub struct ByName<T>(Vec<(String, T)>);

impl<T: Serialize> Serialize for ByName<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

fn by_name<T: Copy>(names: &[String], values: &[T]) -> ByName<T> {
    ByName(names.iter().cloned().zip(values.iter().copied()).collect())
}

fn outcome(outcome: Option<Outcome>) -> MatchOutcome {
    outcome.map_or(MatchOutcome::Void, |o| match o {
        Outcome::Knock => MatchOutcome::Knock,
        Outcome::Undercut => MatchOutcome::Undercut,
        Outcome::Gin => MatchOutcome::Gin,
        Outcome::BigGin => MatchOutcome::BigGin,
    })
}

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
            winner: name(hand.winner),
            knocker: name(hand.knocker),
            outcome: outcome(hand.outcome),
            points: hand.points,
            knocker_deadwood: hand.knocker_deadwood,
            defender_deadwood: hand.defender_deadwood,
            breakdown: hand.breakdown,
        }
    }
}

/// A three-player hand with the running totals after it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ThreePlayerHand {
    #[serde(flatten)]
    pub hand: TableResult,
    /// Running totals after this hand, keyed by player name.
    #[schema(value_type = std::collections::HashMap<String, u64>, example = json!({"Ann": 16, "Bob": 0, "Cy": 0}))]
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
    #[schema(value_type = std::collections::HashMap<String, Tally>)]
    pub final_tally: ByName<Tally>,
    /// Each player's net: the sum of its two pairwise nets; the three sum to
    /// zero. Null before the end.
    #[schema(value_type = Option<std::collections::HashMap<String, i64>>, required = true,
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
    pub(super) fn new(score: &ThreeScore) -> ThreePlayerMatchResponse {
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
    #[schema(value_type = std::collections::HashMap<String, u64>, example = json!({"North-South": 2, "East-West": 0}))]
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
    #[schema(value_type = std::collections::HashMap<String, Tally>)]
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
    pub(super) fn new(score: &PartnershipScore, players: &[String; 4]) -> PartnershipMatchResponse {
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
