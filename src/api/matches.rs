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

use std::fmt;

use actix_web::{post, web};
use serde::de::{self, Deserializer};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::ServiceConfig;
use super::common::{
    BreakdownDto, CardSchema, DefenderInput, KnockerInput, ProfileSpec, hand_problem,
    resolve_profile,
};
use super::json::ValidJson;
use super::problem::{JsonBodyRejections, Problem};
use gin_rules::Card;
use gin_rules::{
    CardHand, CountHand, GameScore, MatchError, MatchHand, MatchScore, Outcome, Players,
    ScoredMatchHand, Tally,
};

// ---------------------------------------------------------------- request

/// A match to score.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MatchRequest {
    pub profile: Option<ProfileSpec>,
    /// The two players' names: distinct, not blank. Hands name their knocker
    /// with one of them and the response is keyed by them.
    #[schema(value_type = Vec<String>, min_items = 2, max_items = 2, example = json!(["Mom", "Dad"]))]
    pub players: [String; 2],
    /// The hands in the order played. Each is counts after layoffs, full cards, or
    /// `{"void": true}`.
    #[schema(value_type = Vec<MatchHandSchema>)]
    pub hands: Vec<MatchHandInput>,
}

/// One hand as sent: counts, cards, or void (see [`MatchHandSchema`]).
#[derive(Debug)]
pub enum MatchHandInput {
    Counts(CountHand),
    Cards {
        knocker: String,
        knocker_hand: KnockerInput,
        defender_hand: DefenderInput,
        upcard: Option<Card>,
    },
    Void,
}

/// Every field any hand shape may carry; [`MatchHandInput`] classifies it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename = "MatchHand")]
struct FlatHand {
    knocker: Option<String>,
    knocker_deadwood: Option<u32>,
    defender_deadwood: Option<u32>,
    big_gin: Option<bool>,
    knocker_hand: Option<KnockerInput>,
    defender_hand: Option<DefenderInput>,
    upcard: Option<Card>,
    void: Option<bool>,
}

impl<'de> Deserialize<'de> for MatchHandInput {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<MatchHandInput, D::Error> {
        let flat = FlatHand::deserialize(deserializer)?;
        flat.classify().map_err(de::Error::custom)
    }
}

impl FlatHand {
    fn classify(self) -> Result<MatchHandInput, ShapeError> {
        let counts = [
            ("knocker_deadwood", self.knocker_deadwood.is_some()),
            ("defender_deadwood", self.defender_deadwood.is_some()),
            ("big_gin", self.big_gin.is_some()),
        ];
        let cards = [
            ("knocker_hand", self.knocker_hand.is_some()),
            ("defender_hand", self.defender_hand.is_some()),
        ];
        let present = |fields: &[(&'static str, bool)]| {
            fields
                .iter()
                .filter(|(_, p)| *p)
                .map(|(n, _)| *n)
                .collect::<Vec<_>>()
        };
        if self.void == Some(true) {
            let mut extra = present(&counts);
            extra.extend(present(&cards));
            if self.knocker.is_some() {
                extra.push("knocker");
            }
            if self.upcard.is_some() {
                extra.push("upcard");
            }
            return if extra.is_empty() {
                Ok(MatchHandInput::Void)
            } else {
                Err(ShapeError::VoidWithFields(extra))
            };
        }
        let knocker = self.knocker.ok_or(ShapeError::Missing("knocker"))?;
        let (card_fields, count_fields) = (present(&cards), present(&counts));
        match (card_fields.is_empty(), count_fields.is_empty()) {
            (false, false) => Err(ShapeError::Mixed {
                counts: count_fields,
                cards: card_fields,
            }),
            (false, true) => Ok(MatchHandInput::Cards {
                knocker,
                knocker_hand: self
                    .knocker_hand
                    .ok_or(ShapeError::Missing("knocker_hand"))?,
                defender_hand: self
                    .defender_hand
                    .ok_or(ShapeError::Missing("defender_hand"))?,
                upcard: self.upcard,
            }),
            (true, _) => Ok(MatchHandInput::Counts(CountHand {
                knocker,
                knocker_deadwood: self
                    .knocker_deadwood
                    .ok_or(ShapeError::Missing("knocker_deadwood"))?,
                defender_deadwood: self
                    .defender_deadwood
                    .ok_or(ShapeError::Missing("defender_deadwood"))?,
                big_gin: self.big_gin.unwrap_or(false),
                upcard: self.upcard,
            })),
        }
    }
}

/// Why a hand object fits none of the three shapes.
enum ShapeError {
    Missing(&'static str),
    Mixed {
        counts: Vec<&'static str>,
        cards: Vec<&'static str>,
    },
    VoidWithFields(Vec<&'static str>),
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::Missing(field) => write!(
                f,
                "missing field `{field}`: a hand is counts (knocker, knocker_deadwood, \
                 defender_deadwood), cards (knocker, knocker_hand, defender_hand) or {{\"void\": true}}"
            ),
            ShapeError::Mixed { counts, cards } => write!(
                f,
                "a hand is given as counts or as cards, not both: {} with {}",
                counts.join(", "),
                cards.join(", ")
            ),
            ShapeError::VoidWithFields(fields) => write!(
                f,
                "a void hand is just {{\"void\": true}}, but it also has {}",
                fields.join(", ")
            ),
        }
    }
}

/// A hand of a match: counts after layoffs, full cards, or void.
#[derive(ToSchema)]
#[schema(as = MatchHand)]
#[serde(untagged)]
#[allow(dead_code)] // A schema only: requests are read through `MatchHandInput`.
pub enum MatchHandSchema {
    Counts(CountHandSchema),
    Cards(CardHandSchema),
    Void(VoidHandSchema),
}

/// A hand given as the counts after layoffs.
#[derive(ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = CountHand, example = json!({"knocker": "Mom", "knocker_deadwood": 5, "defender_deadwood": 15}))]
#[allow(dead_code)]
pub struct CountHandSchema {
    /// The knocking player's name.
    #[schema(example = "Mom")]
    knocker: String,
    /// The knocker's count: 0 is gin; at most the hand's knock limit (10, or
    /// the upcard's value under Oklahoma).
    #[schema(minimum = 0, maximum = 10, example = 5)]
    knocker_deadwood: u32,
    /// The defender's count after layoffs: at most 98 (two cards of each of
    /// T J Q K and two nines is the most 10 cards can count with their melds
    /// laid down).
    #[schema(minimum = 0, maximum = 98, example = 15)]
    defender_deadwood: u32,
    /// The knocker melded all 11 cards (profiles with a big gin bonus only);
    /// `knocker_deadwood` is then 0.
    #[schema(default = false)]
    big_gin: Option<bool>,
    /// The first upcard: sets the knock limit and spade doubling under Oklahoma.
    #[schema(value_type = Option<CardSchema>)]
    upcard: Option<String>,
}

/// A hand given as the cards, scored exactly as `POST /v1/hands/score` does.
#[derive(ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = CardHand, example = json!({
    "knocker": "Elder",
    "knocker_hand": {"hand": ["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "AH"]},
    "defender_hand": {"hand": ["6H", "2H", "JS", "JH", "JD", "7S", "7H", "7C", "4D", "5S"]}
}))]
#[allow(dead_code)]
pub struct CardHandSchema {
    /// The knocking player's name.
    knocker: String,
    /// As `knocker` of `POST /v1/hands/score`.
    knocker_hand: KnockerInput,
    /// As `defender` of `POST /v1/hands/score`.
    defender_hand: DefenderInput,
    /// The first upcard: sets the knock limit and spade doubling under Oklahoma.
    #[schema(value_type = Option<CardSchema>)]
    upcard: Option<String>,
}

/// A void hand (no knock before the stock ran out): no points, no box.
#[derive(ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = VoidHand, example = json!({"void": true}))]
#[allow(dead_code)]
pub struct VoidHandSchema {
    /// Always `true` (a played hand is given as counts or cards instead).
    #[schema(schema_with = only_true)]
    void: bool,
}

/// `true` and nothing else.
fn only_true() -> utoipa::openapi::schema::Object {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::Boolean)
        .enum_values(Some([true]))
        .description(Some(
            "Always `true` (a played hand is given as counts or cards instead).",
        ))
        .build()
}

// ---------------------------------------------------------------- response

/// Values keyed by player name, in the order of the request's `players`.
#[derive(Debug, Clone)]
pub struct ByPlayer<T> {
    names: [String; 2],
    values: [T; 2],
}

impl<T: Serialize> Serialize for ByPlayer<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        for (name, value) in self.names.iter().zip(&self.values) {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

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

/// One player's line on the score sheet: `total` is the sum of the four
/// point fields.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[schema(as = Tally, example = json!({"hand_points": 110, "hands_won": 4, "box_bonus": 100, "game_bonus": 100, "shutout_bonus": 0, "total": 310}))]
pub struct TallyDto {
    /// The sum of the hand points won, never doubled here: a doubling shutout
    /// shows the extra as `shutout_bonus`.
    pub hand_points: u64,
    pub hands_won: u64,
    /// Box (line) bonus per hand won, for both players; before the end of the
    /// game, only the boxes already credited (`box_bonus_timing: each_hand`).
    pub box_bonus: u64,
    /// The game bonus (the winner's, once the game is over).
    pub game_bonus: u64,
    /// The shutout reward, including the doubled part under the doubling schools.
    pub shutout_bonus: u64,
    pub total: u64,
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
    pub breakdown: Option<BreakdownDto>,
    /// Running totals after this hand, keyed by player name (in Hollywood,
    /// summed over the three games).
    #[schema(value_type = std::collections::HashMap<String, u64>, example = json!({"Mom": 10, "Dad": 0}))]
    pub totals: ByPlayer<u64>,
    /// Hollywood only: the games (1 to 3) this hand's points entered.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, example = json!([1, 2]))]
    pub scored_in: Option<Vec<usize>>,
    /// Hollywood only: running totals after this hand, game by game.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<std::collections::HashMap<String, u64>>>, nullable = false)]
    pub games: Option<Vec<ByPlayer<u64>>>,
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
    #[schema(value_type = std::collections::HashMap<String, TallyDto>)]
    pub final_tally: ByPlayer<TallyDto>,
    /// What each player takes from the game under the profile's settlement;
    /// null while it is open.
    #[schema(value_type = Option<std::collections::HashMap<String, i64>>, required = true)]
    pub scores: Option<ByPlayer<i64>>,
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
    #[schema(value_type = std::collections::HashMap<String, TallyDto>)]
    pub final_tally: ByPlayer<TallyDto>,
    /// What each player takes under the profile's settlement: the totals
    /// (`totals_and_net`), or the difference for the winner and 0 for the
    /// loser (`winner_scores_difference`); summed over the games in Hollywood.
    /// Null before the end.
    #[schema(value_type = Option<std::collections::HashMap<String, i64>>, required = true,
             example = json!({"Mom": 310, "Dad": 112}))]
    pub scores: Option<ByPlayer<i64>>,
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
}

impl<T> ByPlayer<T> {
    fn new(names: &[String; 2], values: [T; 2]) -> ByPlayer<T> {
        ByPlayer {
            names: names.clone(),
            values,
        }
    }
}

impl From<Tally> for TallyDto {
    fn from(t: Tally) -> TallyDto {
        TallyDto {
            hand_points: t.hand_points,
            hands_won: t.hands_won,
            box_bonus: t.box_bonus,
            game_bonus: t.game_bonus,
            shutout_bonus: t.shutout_bonus,
            total: t.total,
        }
    }
}

impl MatchResponse {
    fn new(score: &MatchScore, hollywood: bool) -> MatchResponse {
        let names = &score.players;
        let name = |player: Option<usize>| player.map(|p| names[p].clone());
        let hands = score
            .hands
            .iter()
            .map(|h: &ScoredMatchHand| HandResult {
                winner: name(h.winner),
                knocker: name(h.knocker),
                outcome: h.outcome.map_or(MatchOutcome::Void, |o| match o {
                    Outcome::Knock => MatchOutcome::Knock,
                    Outcome::Undercut => MatchOutcome::Undercut,
                    Outcome::Gin => MatchOutcome::Gin,
                    Outcome::BigGin => MatchOutcome::BigGin,
                }),
                points: h.points,
                knocker_deadwood: h.knocker_deadwood,
                defender_deadwood: h.defender_deadwood,
                breakdown: h.breakdown.map(|b| BreakdownDto {
                    deadwood_difference: b.deadwood_difference,
                    gin_bonus: b.gin_bonus,
                    big_gin_bonus: b.big_gin_bonus,
                    undercut_bonus: b.undercut_bonus,
                    multiplier: b.multiplier,
                }),
                totals: ByPlayer::new(names, h.totals),
                scored_in: hollywood.then(|| h.scored_in.iter().map(|g| g + 1).collect()),
                games: hollywood.then(|| {
                    h.game_totals
                        .iter()
                        .map(|t| ByPlayer::new(names, *t))
                        .collect()
                }),
            })
            .collect();
        let game = |(index, g): (usize, &GameScore)| GameResult {
            game: index + 1,
            complete: g.complete,
            winner: name(g.winner),
            ended_at: g.ended_at,
            shutout: g.shutout,
            final_tally: ByPlayer::new(names, g.final_tally.map(TallyDto::from)),
            scores: g.scores.map(|s| ByPlayer::new(names, s)),
            net: g.net,
        };
        let ended_at = if score.complete {
            score.games.iter().filter_map(|g| g.ended_at).max()
        } else {
            None
        };
        MatchResponse {
            hands,
            complete: score.complete,
            winner: name(score.winner),
            final_tally: ByPlayer::new(names, score.final_tally.map(TallyDto::from)),
            scores: score.scores.map(|s| ByPlayer::new(names, s)),
            net: score.net,
            ended_at,
            shutout: (!hollywood).then(|| score.games.first().is_some_and(|g| g.shutout)),
            games: hollywood.then(|| score.games.iter().enumerate().map(game).collect()),
        }
    }
}

// ---------------------------------------------------------------- handler

impl MatchHandInput {
    fn to_domain(&self) -> MatchHand {
        match self {
            MatchHandInput::Counts(counts) => MatchHand::Counts(counts.clone()),
            MatchHandInput::Cards {
                knocker,
                knocker_hand,
                defender_hand,
                upcard,
            } => MatchHand::Cards(CardHand {
                knocker: knocker.clone(),
                knocker_hand: knocker_hand.to_domain(),
                defender_hand: defender_hand.to_domain(),
                upcard: *upcard,
            }),
            MatchHandInput::Void => MatchHand::Void,
        }
    }
}

/// Maps a match error to a 422 whose pointer names the hand (and field) at fault.
fn match_problem(error: &MatchError, request: &MatchRequest) -> Problem {
    let detail = error.to_string();
    let code = error.code();
    let problem = Problem::unprocessable(code, &detail);
    let at = |pointer: String| problem.clone().with_error(pointer, code, detail.clone());
    match error {
        MatchError::TooManyHands { .. } => at("/hands".into()),
        MatchError::BlankPlayerName { index } => at(format!("/players/{index}")),
        MatchError::DuplicatePlayerName { .. } => at("/players/1".into()),
        MatchError::UnknownPlayer { hand, .. } => at(format!("/hands/{hand}/knocker")),
        MatchError::GameOver { hand, .. } => at(format!("/hands/{hand}")),
        MatchError::Count { hand, error } => at(format!("/hands/{hand}/{}", error.field())),
        MatchError::Cards { hand, error } => {
            let Some(MatchHandInput::Cards {
                knocker_hand,
                defender_hand,
                ..
            }) = request.hands.get(*hand)
            else {
                return at(format!("/hands/{hand}"));
            };
            let mut inner = hand_problem(error, knocker_hand, Some(defender_hand));
            let base = format!("/hands/{hand}");
            for e in &mut inner.errors {
                e.pointer = rebase(&e.pointer, &base);
            }
            inner.detail = detail;
            inner
        }
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

const UNPROCESSABLE_MATCH: &str = "The match cannot be scored. Every error names the hand at \
    fault in its pointer (`/hands/3/...`). A hand after the game (after all three Hollywood games) \
    ended (`game_over`); a knocker who is not a player (`unknown_player`); blank or equal player \
    names (`blank_player_name`, `duplicate_player_name`); a count no hand can produce: a knock over \
    the hand's limit (`knock_over_limit`), a defender count over 98 (`impossible_count`), big gin \
    where it is not played or with deadwood (`big_gin_not_allowed`, `big_gin_with_deadwood`); a \
    missing upcard under Oklahoma (`upcard_required`); an invalid profile (`invalid_profile`, \
    `invalid_profile_combination`); and, for a hand given as cards, every error of \
    `POST /v1/hands/score` (`duplicate_card`, `wrong_card_count`, `invalid_melds`, layoff errors, \
    ...) with its pointer moved under the hand (`/hands/3/knocker_hand/hand/4`).";

/// Scores a match.
#[utoipa::path(
    tag = "matches",
    summary = "Score a match",
    description = "Scores a whole match from its hands, in order: running totals hand by hand, the \
        end of the game when a player reaches the target, box bonus per hand won (at the end of \
        the game, or as each hand is won and counting toward the target), game bonus, shutout \
        (per the profile's school and test), and settlement (`scores` and `net`). Hands are \
        given as counts after layoffs, as full cards (scored exactly as `POST /v1/hands/score` \
        does) or as `{\"void\": true}`. Under a Hollywood profile three games are scored at \
        once: a player's first win enters game 1, the second games 1 and 2, the third and later \
        every open game (a player's first entry goes to the first open game once game 1 has \
        closed); each game has its own totals, bonuses and end, listed in `games`, and the match \
        sums them. A list that stops before the target gives `complete: false` with the score \
        sheet so far (no game or shutout bonus yet, `winner`, `scores` and `net` null).",
    request_body(content = MatchRequest, examples(
        ("seed_000" = (summary = "Seed 000's walkthrough as counts (standard)", value = json!({
            "profile": "standard",
            "players": ["Mom", "Dad"],
            "hands": [
                {"knocker": "Mom", "knocker_deadwood": 5, "defender_deadwood": 15},
                {"knocker": "Mom", "knocker_deadwood": 0, "defender_deadwood": 6},
                {"knocker": "Mom", "knocker_deadwood": 4, "defender_deadwood": 2},
                {"knocker": "Mom", "knocker_deadwood": 10, "defender_deadwood": 43},
                {"knocker": "Dad", "knocker_deadwood": 0, "defender_deadwood": 10},
                {"knocker": "Mom", "knocker_deadwood": 0, "defender_deadwood": 11}
            ]
        }))),
        ("hollywood" = (summary = "Hollywood: Dad, shut out of game 1, enters game 2", value = json!({
            "profile": "hollywood",
            "players": ["Mom", "Dad"],
            "hands": [
                {"knocker": "Mom", "knocker_deadwood": 0, "defender_deadwood": 50},
                {"knocker": "Mom", "knocker_deadwood": 0, "defender_deadwood": 40},
                {"knocker": "Dad", "knocker_deadwood": 2, "defender_deadwood": 12}
            ]
        }))),
        ("cards_and_void" = (summary = "A hand as cards (seed 004), then a void hand", value = json!({
            "players": ["Elder", "Younger"],
            "hands": [
                {"knocker": "Elder",
                 "knocker_hand": {"hand": ["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "AH"]},
                 "defender_hand": {"hand": ["6H", "2H", "JS", "JH", "JD", "7S", "7H", "7C", "4D", "5S"]}},
                {"void": true}
            ]
        }))),
    )),
    responses(
        (status = 200, description = "The scored match.", body = MatchResponse, examples(
            ("seed_000" = (summary = "Mom 310, Dad 112, net 198", value = json!({
                "hands": [
                    {"winner": "Mom", "knocker": "Mom", "outcome": "knock", "points": 10, "knocker_deadwood": 5, "defender_deadwood": 15, "breakdown": {"deadwood_difference": 10, "gin_bonus": 0, "big_gin_bonus": 0, "undercut_bonus": 0, "multiplier": 1}, "totals": {"Mom": 10, "Dad": 0}},
                    {"winner": "Mom", "knocker": "Mom", "outcome": "gin", "points": 31, "knocker_deadwood": 0, "defender_deadwood": 6, "breakdown": {"deadwood_difference": 6, "gin_bonus": 25, "big_gin_bonus": 0, "undercut_bonus": 0, "multiplier": 1}, "totals": {"Mom": 41, "Dad": 0}},
                    {"winner": "Dad", "knocker": "Mom", "outcome": "undercut", "points": 27, "knocker_deadwood": 4, "defender_deadwood": 2, "breakdown": {"deadwood_difference": 2, "gin_bonus": 0, "big_gin_bonus": 0, "undercut_bonus": 25, "multiplier": 1}, "totals": {"Mom": 41, "Dad": 27}},
                    {"winner": "Mom", "knocker": "Mom", "outcome": "knock", "points": 33, "knocker_deadwood": 10, "defender_deadwood": 43, "breakdown": {"deadwood_difference": 33, "gin_bonus": 0, "big_gin_bonus": 0, "undercut_bonus": 0, "multiplier": 1}, "totals": {"Mom": 74, "Dad": 27}},
                    {"winner": "Dad", "knocker": "Dad", "outcome": "gin", "points": 35, "knocker_deadwood": 0, "defender_deadwood": 10, "breakdown": {"deadwood_difference": 10, "gin_bonus": 25, "big_gin_bonus": 0, "undercut_bonus": 0, "multiplier": 1}, "totals": {"Mom": 74, "Dad": 62}},
                    {"winner": "Mom", "knocker": "Mom", "outcome": "gin", "points": 36, "knocker_deadwood": 0, "defender_deadwood": 11, "breakdown": {"deadwood_difference": 11, "gin_bonus": 25, "big_gin_bonus": 0, "undercut_bonus": 0, "multiplier": 1}, "totals": {"Mom": 110, "Dad": 62}}
                ],
                "complete": true,
                "winner": "Mom",
                "final": {"Mom": {"hand_points": 110, "hands_won": 4, "box_bonus": 100, "game_bonus": 100, "shutout_bonus": 0, "total": 310}, "Dad": {"hand_points": 62, "hands_won": 2, "box_bonus": 50, "game_bonus": 0, "shutout_bonus": 0, "total": 112}},
                "scores": {"Mom": 310, "Dad": 112},
                "net": 198,
                "ended_at": 5,
                "shutout": false
            }))),
            ("hollywood" = (summary = "Game 1 closed with a shutout; games 2 and 3 open", value = json!({
                "hands": [
                    {"winner": "Mom", "knocker": "Mom", "outcome": "gin", "points": 75, "knocker_deadwood": 0, "defender_deadwood": 50, "breakdown": {"deadwood_difference": 50, "gin_bonus": 25, "big_gin_bonus": 0, "undercut_bonus": 0, "multiplier": 1}, "totals": {"Mom": 75, "Dad": 0}, "scored_in": [1], "games": [{"Mom": 75, "Dad": 0}, {"Mom": 0, "Dad": 0}, {"Mom": 0, "Dad": 0}]},
                    {"winner": "Mom", "knocker": "Mom", "outcome": "gin", "points": 65, "knocker_deadwood": 0, "defender_deadwood": 40, "breakdown": {"deadwood_difference": 40, "gin_bonus": 25, "big_gin_bonus": 0, "undercut_bonus": 0, "multiplier": 1}, "totals": {"Mom": 205, "Dad": 0}, "scored_in": [1, 2], "games": [{"Mom": 140, "Dad": 0}, {"Mom": 65, "Dad": 0}, {"Mom": 0, "Dad": 0}]},
                    {"winner": "Dad", "knocker": "Dad", "outcome": "knock", "points": 10, "knocker_deadwood": 2, "defender_deadwood": 12, "breakdown": {"deadwood_difference": 10, "gin_bonus": 0, "big_gin_bonus": 0, "undercut_bonus": 0, "multiplier": 1}, "totals": {"Mom": 205, "Dad": 10}, "scored_in": [2], "games": [{"Mom": 140, "Dad": 0}, {"Mom": 65, "Dad": 10}, {"Mom": 0, "Dad": 0}]}
                ],
                "complete": false,
                "winner": null,
                "final": {"Mom": {"hand_points": 205, "hands_won": 3, "box_bonus": 50, "game_bonus": 100, "shutout_bonus": 240, "total": 595}, "Dad": {"hand_points": 10, "hands_won": 1, "box_bonus": 0, "game_bonus": 0, "shutout_bonus": 0, "total": 10}},
                "scores": null,
                "net": null,
                "ended_at": null,
                "games": [
                    {"game": 1, "complete": true, "winner": "Mom", "ended_at": 1, "shutout": true, "final": {"Mom": {"hand_points": 140, "hands_won": 2, "box_bonus": 50, "game_bonus": 100, "shutout_bonus": 240, "total": 530}, "Dad": {"hand_points": 0, "hands_won": 0, "box_bonus": 0, "game_bonus": 0, "shutout_bonus": 0, "total": 0}}, "scores": {"Mom": 530, "Dad": 0}, "net": 530},
                    {"game": 2, "complete": false, "winner": null, "ended_at": null, "shutout": false, "final": {"Mom": {"hand_points": 65, "hands_won": 1, "box_bonus": 0, "game_bonus": 0, "shutout_bonus": 0, "total": 65}, "Dad": {"hand_points": 10, "hands_won": 1, "box_bonus": 0, "game_bonus": 0, "shutout_bonus": 0, "total": 10}}, "scores": null, "net": null},
                    {"game": 3, "complete": false, "winner": null, "ended_at": null, "shutout": false, "final": {"Mom": {"hand_points": 0, "hands_won": 0, "box_bonus": 0, "game_bonus": 0, "shutout_bonus": 0, "total": 0}, "Dad": {"hand_points": 0, "hands_won": 0, "box_bonus": 0, "game_bonus": 0, "shutout_bonus": 0, "total": 0}}, "scores": null, "net": null}
                ]
            }))),
        )),
        JsonBodyRejections,
        (status = 404, description = "Unknown profile name (`unknown_profile`).",
         content_type = "application/problem+json", body = Problem,
         example = json!({"type": "https://gin-referee.dev/problems/unknown_profile", "title": "Unknown profile",
             "status": 404, "detail": "unknown profile \"gin\"", "code": "unknown_profile",
             "errors": [{"pointer": "/profile", "code": "unknown_profile", "message": "unknown profile \"gin\""}]})),
        (status = 422, description = UNPROCESSABLE_MATCH,
         content_type = "application/problem+json", body = Problem,
         examples(
             ("game_over" = (summary = "A hand after the game ended", value = json!({
                 "type": "https://gin-referee.dev/problems/game_over", "title": "Game over", "status": 422,
                 "detail": "hands[6] was recorded after the game ended at hands[5]", "code": "game_over",
                 "errors": [{"pointer": "/hands/6", "code": "game_over",
                     "message": "hands[6] was recorded after the game ended at hands[5]"}]}))),
             ("knock_over_limit" = (summary = "A knock over the limit", value = json!({
                 "type": "https://gin-referee.dev/problems/knock_over_limit", "title": "Knock over limit", "status": 422,
                 "detail": "hands[3]: the knocker's count is 12, over the knock limit of 10", "code": "knock_over_limit",
                 "errors": [{"pointer": "/hands/3/knocker_deadwood", "code": "knock_over_limit",
                     "message": "hands[3]: the knocker's count is 12, over the knock limit of 10"}]}))),
             ("duplicate_card" = (summary = "A card hand repeating a card", value = json!({
                 "type": "https://gin-referee.dev/problems/duplicate_card", "title": "Duplicate card", "status": 422,
                 "detail": "hands[0]: 3H at knocker hand position 9 repeats a card already dealt to a hand", "code": "duplicate_card",
                 "errors": [{"pointer": "/hands/0/knocker_hand/hand/9", "code": "duplicate_card",
                     "message": "3H at knocker hand position 9 repeats a card already dealt to a hand"}]}))),
         )),
    )
)]
#[post("/v1/matches/score")]
pub async fn score_match(
    body: ValidJson<MatchRequest>,
) -> Result<web::Json<MatchResponse>, Problem> {
    answer(body.into_inner()).map(web::Json)
}

/// The whole operation, without HTTP (the examples test calls it directly).
fn answer(request: MatchRequest) -> Result<MatchResponse, Problem> {
    let profile = resolve_profile(request.profile.as_ref())?;
    let hands: Vec<MatchHand> = request
        .hands
        .iter()
        .map(MatchHandInput::to_domain)
        .collect();
    let players = Players::from(request.players.clone());
    let scored = gin_rules::score_match(&profile, &players, &hands)
        .map_err(|e| match_problem(&e, &request))?;
    Ok(MatchResponse::new(&scored, profile.hollywood()))
}

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(score_match);
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn operation() -> Value {
        let doc = serde_json::to_value(crate::api::openapi()).unwrap_or_default();
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
        assert_eq!(requests.len(), 3);
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
        let seed_000 = json!([
            knock("Mom", 5, 15),
            knock("Mom", 0, 6),
            knock("Mom", 4, 2),
            knock("Mom", 10, 43),
            knock("Dad", 0, 10),
            knock("Mom", 0, 11),
            {"void": true}
        ]);
        let cases = [
            ("game_over", seed_000),
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
            assert_eq!(answered, examples[name]["value"], "{name}");
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
