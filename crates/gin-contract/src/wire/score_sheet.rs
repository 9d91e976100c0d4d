//! A two-player match's score sheet, hand by hand and at the end, per-player
//! values keyed by the players' names: the answer of `POST /v1/matches/score`
//! and the `match` of `POST /v1/matches/audit`.

use std::borrow::Cow;

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, Schema, SchemaFormat, Type};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

use gin_rules::{Breakdown, GameScore, MatchScore, Outcome, ScoredMatchHand, Tally};

/// Values keyed by player (or team) name, in the order of the request: every
/// format's per-player maps.
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

impl<T> ByName<T> {
    /// Each name with its value, in the order of the request (the order the
    /// JSON object is written in): for a reader that draws the columns.
    pub fn entries(&self) -> &[(String, T)] {
        &self.0
    }
}

/// Each name with its value, in order.
pub(crate) fn by_name<T: Copy>(names: &[String], values: &[T]) -> ByName<T> {
    ByName(names.iter().cloned().zip(values.iter().copied()).collect())
}

/// The schema of a map keyed by player (or team) name, named so that every
/// map of one kind is one schema that clients generate once.
macro_rules! by_name_schema {
    ($name:ident, $description:literal, $value:expr, $example:expr $(, $schema:ty)?) => {
        #[doc = $description]
        pub struct $name;
        impl PartialSchema for $name {
            fn schema() -> RefOr<Schema> {
                ObjectBuilder::new()
                    .schema_type(Type::Object)
                    .description(Some($description))
                    .property_names(Some(ObjectBuilder::new().schema_type(Type::String)))
                    .additional_properties(Some($value))
                    .examples([$example])
                    .into()
            }
        }
        impl ToSchema for $name {
            fn name() -> Cow<'static, str> {
                Cow::Borrowed(stringify!($name))
            }
            #[allow(unused_variables, reason = "used only with a value schema")]
            fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
                $(
                    schemas.push((<$schema>::name().into(), <$schema>::schema()));
                    <$schema>::schemas(schemas);
                )?
            }
        }
    };
}

fn int64() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
}

by_name_schema!(
    TotalsByName,
    "Points keyed by player (or team) name: running totals, never negative.",
    int64().minimum(Some(0)),
    serde_json::json!({"Mom": 10, "Dad": 0})
);
by_name_schema!(
    PointsByName,
    "Points keyed by player (or team) name: what each takes, or each one's net.",
    int64(),
    serde_json::json!({"Ann": 599, "Bob": -501, "Cy": -98})
);
by_name_schema!(
    TalliesByName,
    "Score sheets keyed by player (or team) name.",
    Ref::from_schema_name(Tally::name()),
    serde_json::json!({
        "Mom": {"hand_points": 10, "hands_won": 1, "box_bonus": 0, "game_bonus": 0,
                "shutout_bonus": 0, "total": 10},
        "Dad": {"hand_points": 0, "hands_won": 0, "box_bonus": 0, "game_bonus": 0,
                "shutout_bonus": 0, "total": 0}
    }),
    Tally
);

/// How a hand ended.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MatchOutcome {
    Knock,
    Undercut,
    Gin,
    BigGin,
    /// No knock: no points, no box.
    Void,
}

impl MatchOutcome {
    /// How a scored hand ended, `Void` when no one knocked.
    pub(crate) fn of(outcome: Option<Outcome>) -> MatchOutcome {
        outcome.map_or(MatchOutcome::Void, |o| match o {
            Outcome::Knock => MatchOutcome::Knock,
            Outcome::Undercut => MatchOutcome::Undercut,
            Outcome::Gin => MatchOutcome::Gin,
            Outcome::BigGin => MatchOutcome::BigGin,
        })
    }
}

/// One hand as scored.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HandResult {
    /// The winner's name; null for a void hand.
    #[schema(required = true, example = "Mom")]
    pub winner: Option<String>,
    /// The knocker's name; null for a void hand.
    #[schema(required = true, example = "Mom")]
    pub knocker: Option<String>,
    pub outcome: MatchOutcome,
    /// Points won (0 for a void hand).
    #[schema(example = 10)]
    pub points: u32,
    /// The knocker's count (null for a void hand); for a card hand, the count
    /// it produced.
    #[schema(required = true, example = 5)]
    pub knocker_deadwood: Option<u32>,
    /// The defender's count after layoffs (null for a void hand).
    #[schema(required = true, example = 15)]
    pub defender_deadwood: Option<u32>,
    /// Where the points came from (null for a void hand).
    #[schema(required = true)]
    pub breakdown: Option<Breakdown>,
    /// Running totals after this hand, keyed by player name (in Hollywood,
    /// summed over the three games).
    #[schema(value_type = TotalsByName, example = json!({"Mom": 10, "Dad": 0}))]
    pub totals: ByName<u64>,
    /// Hollywood only: the games (1 to 3) this hand's points entered.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, example = json!([1, 2]))]
    pub scored_in: Option<Vec<usize>>,
    /// Hollywood only: running totals after this hand, game by game.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<TotalsByName>>, nullable = false)]
    pub games: Option<Vec<ByName<u64>>>,
}

/// One Hollywood game: its own totals, bonuses and end.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GameResult {
    /// 1, 2 or 3.
    #[schema(minimum = 1, maximum = 3)]
    pub game: usize,
    /// A player reached the target in this game.
    pub complete: bool,
    /// The game's winner; null while it is open.
    #[schema(required = true)]
    pub winner: Option<String>,
    /// Index into `hands` of the hand that reached the target.
    #[schema(required = true)]
    pub ended_at: Option<usize>,
    /// The loser was shut out (per the profile's `shutout_test`); false while
    /// the game is open.
    pub shutout: bool,
    /// Each player's score sheet for this game.
    #[serde(rename = "final")]
    #[schema(value_type = TalliesByName)]
    pub final_tally: ByName<Tally>,
    /// What each player takes from the game under the profile's settlement;
    /// null while it is open.
    #[schema(value_type = Option<PointsByName>, required = true)]
    pub scores: Option<ByName<i64>>,
    /// The winner's score minus the loser's; null while it is open.
    #[schema(required = true)]
    pub net: Option<i64>,
}

/// A scored match.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MatchResponse {
    pub hands: Vec<HandResult>,
    /// The match is over: the game (every Hollywood game) reached its target.
    pub complete: bool,
    /// The winner's name: the game's winner; in Hollywood the player ahead on
    /// the summed scores. Null before the end (and on a Hollywood tie).
    #[schema(required = true, example = "Mom")]
    pub winner: Option<String>,
    /// Each player's score sheet, keyed by name (in Hollywood, the sum over the
    /// three games). Before the end: the sheet so far, without game or shutout
    /// bonus.
    #[serde(rename = "final")]
    #[schema(value_type = TalliesByName)]
    pub final_tally: ByName<Tally>,
    /// What each player takes under the profile's settlement: the totals
    /// (`totals_and_net`), or the difference for the winner and 0 for the
    /// loser (`winner_scores_difference`); summed over the games in Hollywood.
    /// Null before the end.
    #[schema(value_type = Option<PointsByName>, required = true,
             example = json!({"Mom": 310, "Dad": 112}))]
    pub scores: Option<ByName<i64>>,
    /// The winner's score minus the loser's (0 on a Hollywood tie). Null before
    /// the end.
    #[schema(required = true, example = 198)]
    pub net: Option<i64>,
    /// Index into `hands` of the hand that ended the match; null before the end.
    #[schema(required = true, example = 5)]
    pub ended_at: Option<usize>,
    /// One game only: the loser was shut out (per the profile's `shutout_test`);
    /// false before the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub shutout: Option<bool>,
    /// Hollywood only: the three games.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub games: Option<Vec<GameResult>>,
    /// A signed receipt (compact JWS, see `GET /v1/keys`), when the request
    /// asked for one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub receipt: Option<String>,
}

impl MatchResponse {
    /// The answer of a two-player match's score (the arena builds it from
    /// the score it keeps, hand by hand, as `/v1/matches/state` builds it
    /// from the record).
    pub fn new(score: &MatchScore, hollywood: bool) -> MatchResponse {
        let names = &score.players;
        let name = |player: Option<usize>| player.and_then(|p| names.get(p).cloned());
        let hands = score
            .hands
            .iter()
            .map(|h: &ScoredMatchHand| HandResult {
                winner: name(h.result.winner),
                knocker: name(h.result.knocker),
                outcome: MatchOutcome::of(h.result.outcome),
                points: h.result.points,
                knocker_deadwood: h.result.knocker_deadwood,
                defender_deadwood: h.result.defender_deadwood,
                breakdown: h.result.breakdown,
                totals: by_name(names, &h.totals),
                scored_in: hollywood.then(|| h.scored_in.iter().map(|g| g + 1).collect()),
                games: hollywood.then(|| h.game_totals.iter().map(|t| by_name(names, t)).collect()),
            })
            .collect();
        let game = |(index, g): (usize, &GameScore)| GameResult {
            game: index + 1,
            complete: g.complete,
            winner: name(g.winner),
            ended_at: g.ended_at,
            shutout: g.shutout,
            final_tally: by_name(names, &g.final_tally),
            scores: g.scores.map(|s| by_name(names, &s)),
            net: g.net,
        };
        let ended_at = if score.complete {
            score.games.iter().filter_map(|g| g.ended_at).max()
        } else {
            None
        };
        MatchResponse {
            receipt: None,
            hands,
            complete: score.complete,
            winner: name(score.winner),
            final_tally: by_name(names, &score.final_tally),
            scores: score.scores.map(|s| by_name(names, &s)),
            net: score.net,
            ended_at,
            shutout: (!hollywood).then(|| score.games.first().is_some_and(|g| g.shutout)),
            games: hollywood.then(|| score.games.iter().enumerate().map(game).collect()),
        }
    }
}
