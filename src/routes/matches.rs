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

use actix_web::{post, web};

use super::ServiceConfig;
use crate::http::json::ValidJson;
use crate::http::limits::{RequestLimits, check_items, check_length};
use crate::http::problem::{ErrorCode, Problem};
use crate::wire::hand_errors::hand_problem;
use crate::wire::profile_spec::resolve_profile;
use crate::wire::receipt::Keys;
use gin_rules::{
    CardHand, MatchError, MatchHand, PartnershipDeal, Players, Profile, SeatedHand, Team,
};

pub use crate::wire::formats::{
    ByName, DealResult, PairNet, PartnershipMatchResponse, TableResult, ThreePlayerHand,
    ThreePlayerMatchResponse,
};
use crate::wire::formats::{MatchAnswer, Roster, check_roster_limits, seat_order, wrong_shape};
pub use crate::wire::score_sheet::{ByPlayer, GameResult, HandResult, MatchOutcome, MatchResponse};
pub use request::{
    CardHandSchema, CountHandSchema, DealSchema, MatchHandSchema, MatchRequest, RecordedHand,
    VoidHandSchema,
};

/// The match's format, from `players` or `teams`, with its hands in the shape
/// the format takes.
enum Format {
    Two(Players<String>, Vec<MatchHand>),
    Three([String; 3], Vec<SeatedHand>),
    Teams([Team; 2], Vec<PartnershipDeal>),
}

const TWO_PLAYER_HAND: &str = "a two-player hand names only its `knocker` (`defender`, \
    `players` and `tables` belong to three-player and partnership play)";
const SEATED_HAND: &str = "a hand of three-player or partnership play names its `knocker` and \
    `defender` (a void hand: `{\"void\": true, \"players\": [a, b]}`)";
const DEAL: &str = "a partnership hand is a deal: `{\"tables\": [hand, hand]}`";

impl Format {
    fn of(request: &MatchRequest) -> Result<Format, Problem> {
        let roster = Roster::of(request.players.as_deref(), request.teams.as_deref())?;
        Ok(match roster {
            Roster::Two(players) => Format::Two(
                players,
                Self::hands(request, |index, hand| match hand {
                    RecordedHand::Plain(hand) => Ok(hand.clone()),
                    _ => Err(wrong_shape(format!("/hands/{index}"), TWO_PLAYER_HAND)),
                })?,
            ),
            Roster::Three(players) => Format::Three(
                players,
                Self::hands(request, |index, hand| {
                    seated(hand, format!("/hands/{index}"))
                })?,
            ),
            Roster::Teams(teams) => Format::Teams(
                teams,
                Self::hands(request, |index, hand| match hand {
                    RecordedHand::Deal(tables) => {
                        let [one, two] = &**tables;
                        Ok(PartnershipDeal {
                            tables: [
                                seated(one, format!("/hands/{index}/tables/0"))?,
                                seated(two, format!("/hands/{index}/tables/1"))?,
                            ],
                        })
                    }
                    _ => Err(wrong_shape(format!("/hands/{index}"), DEAL)),
                })?,
            ),
        })
    }

    fn hands<T>(
        request: &MatchRequest,
        take: impl Fn(usize, &RecordedHand) -> Result<T, Problem>,
    ) -> Result<Vec<T>, Problem> {
        request
            .hands
            .iter()
            .enumerate()
            .map(|(index, hand)| take(index, hand))
            .collect()
    }
}

/// A hand that names both its players, or the 422 saying it must.
fn seated(hand: &RecordedHand, pointer: String) -> Result<SeatedHand, Problem> {
    match hand {
        RecordedHand::Seated(seated) => Ok(seated.clone()),
        _ => Err(wrong_shape(pointer, SEATED_HAND)),
    }
}

/// Maps a match error to a 422 whose pointer names the hand (and field) at
/// fault. `hand_at(hand, table)` finds a recorded hand (the table of a deal
/// in partnership play) to point inside it.
fn match_problem(
    error: &MatchError,
    hand_at: &dyn Fn(usize, Option<usize>) -> Option<Located>,
    duplicate_at: &dyn Fn(&str) -> String,
) -> Problem {
    let detail = error.to_string();
    let code = ErrorCode::of(error.code());
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
                let MatchHand::Cards(CardHand {
                    knocker_hand,
                    defender_hand,
                    ..
                }) = &recorded
                else {
                    return at(base);
                };
                let mut inner = hand_problem(error, knocker_hand, Some(defender_hand));
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

crate::problem_responses!(
    /// The error answers of `/v1/matches/score`.
    MatchScoreErrors: [MalformedJson, InvalidBody, PayloadTooLarge, UnsupportedMediaType, UnsupportedContentEncoding, RequestTimeout, UnknownProfile, InvalidProfile, InvalidProfileCombination, DuplicateCard, WrongCardCount, KnockOverLimit, InvalidMelds, NotBigGin, BigGinNotAllowed, UpcardRequired, LayoffsNotAllowed, LayoffCardNotInHand, LayoffCardRepeated, LayoffMeldNotFound, LayoffDoesNotFit, BigGinWithDeadwood, ImpossibleCount, BlankPlayerName, DuplicatePlayerName, UnknownPlayer, GameOver, SamePlayerTwice, RotationBroken, PairingBroken, HollywoodNotDefined, BlankTeamName, PlayersOrTeams, WrongHandShape, JokerNotInDeck]
);

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
        sheet so far (no game or shutout bonus yet, `winner`, `scores` and `net` null). \
        Three players: `players` lists three names and every hand names its `knocker` and \
        `defender` (a void hand its `players`); the loser of a hand sits out the next, the \
        winner meets the player who sat out, after a void hand the same two play again \
        (checked); the answer has `final` for all three, `nets` per player (summing to zero) \
        and `pairs`. Partnership: `teams` (two teams of two) instead of `players`, every hand a \
        deal `{\"tables\": [hand, hand]}`; partners change opponents deal by deal (checked); the \
        team ahead on a deal scores the net of both tables and the box; `totals`, `final`, \
        `winner` and `net` are per team.",
    request_body(content = MatchRequest, examples(
        ("source_s0" = (summary = "[S0]'s walkthrough as counts (standard)", value = json!({
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
        ("cards_and_void" = (summary = "A hand as cards ([S4] in docs/RULES.md), then a void hand", value = json!({
            "players": ["Elder", "Younger"],
            "hands": [
                {"knocker": "Elder",
                 "knocker_hand": {"hand": ["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "AH"]},
                 "defender_hand": {"hand": ["6H", "2H", "JS", "JH", "JD", "7S", "7H", "7C", "4D", "5S"]}},
                {"void": true}
            ]
        }))),
        ("three_players" = (summary = "Three players: Bob, who lost, sits out; a void hand replays the same two", value = json!({"players": ["Ann", "Bob", "Cy"], "hands": [{"knocker": "Ann", "defender": "Bob", "knocker_deadwood": 4, "defender_deadwood": 20}, {"void": true, "players": ["Ann", "Cy"]}, {"knocker": "Cy", "defender": "Ann", "knocker_deadwood": 6, "defender_deadwood": 6}]}))),
        ("partnership" = (summary = "Partnership: Ann wins 12 and Cy loses 10, so North-South scores 2", value = json!({"profile": "partnership", "teams": [{"name": "North-South", "players": ["Ann", "Cy"]}, {"name": "East-West", "players": ["Bob", "Dee"]}], "hands": [{"tables": [{"knocker": "Ann", "defender": "Bob", "knocker_deadwood": 3, "defender_deadwood": 15}, {"knocker": "Dee", "defender": "Cy", "knocker_deadwood": 2, "defender_deadwood": 12}]}, {"tables": [{"knocker": "Dee", "defender": "Ann", "knocker_deadwood": 7, "defender_deadwood": 7}, {"void": true, "players": ["Bob", "Cy"]}]}]}))),
    )),
    responses(
        (status = 200, description = "The scored match: two players, three players, or a partnership (the shape follows the request's `players` or `teams`).", body = MatchAnswer, examples(
            ("source_s0" = (summary = "Mom 310, Dad 112, net 198", value = json!({
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
            ("three_players" = (summary = "Three players after three hands", value = json!({"hands": [{"players": ["Ann", "Bob"], "winner": "Ann", "knocker": "Ann", "outcome": "knock", "points": 16, "knocker_deadwood": 4, "defender_deadwood": 20, "breakdown": {"deadwood_difference": 16, "gin_bonus": 0, "big_gin_bonus": 0, "undercut_bonus": 0, "multiplier": 1}, "totals": {"Ann": 16, "Bob": 0, "Cy": 0}}, {"players": ["Ann", "Cy"], "winner": null, "knocker": null, "outcome": "void", "points": 0, "knocker_deadwood": null, "defender_deadwood": null, "breakdown": null, "totals": {"Ann": 16, "Bob": 0, "Cy": 0}}, {"players": ["Cy", "Ann"], "winner": "Ann", "knocker": "Cy", "outcome": "undercut", "points": 25, "knocker_deadwood": 6, "defender_deadwood": 6, "breakdown": {"deadwood_difference": 0, "gin_bonus": 0, "big_gin_bonus": 0, "undercut_bonus": 25, "multiplier": 1}, "totals": {"Ann": 41, "Bob": 0, "Cy": 0}}], "complete": false, "winner": null, "final": {"Ann": {"hand_points": 41, "hands_won": 2, "box_bonus": 0, "game_bonus": 0, "shutout_bonus": 0, "total": 41}, "Bob": {"hand_points": 0, "hands_won": 0, "box_bonus": 0, "game_bonus": 0, "shutout_bonus": 0, "total": 0}, "Cy": {"hand_points": 0, "hands_won": 0, "box_bonus": 0, "game_bonus": 0, "shutout_bonus": 0, "total": 0}}, "nets": null, "pairs": null, "ended_at": null}))),
            ("partnership" = (summary = "Partnership after two deals", value = json!({"hands": [{"tables": [{"players": ["Ann", "Bob"], "winner": "Ann", "knocker": "Ann", "outcome": "knock", "points": 12, "knocker_deadwood": 3, "defender_deadwood": 15, "breakdown": {"deadwood_difference": 12, "gin_bonus": 0, "big_gin_bonus": 0, "undercut_bonus": 0, "multiplier": 1}}, {"players": ["Dee", "Cy"], "winner": "Dee", "knocker": "Dee", "outcome": "knock", "points": 10, "knocker_deadwood": 2, "defender_deadwood": 12, "breakdown": {"deadwood_difference": 10, "gin_bonus": 0, "big_gin_bonus": 0, "undercut_bonus": 0, "multiplier": 1}}], "winner": "North-South", "points": 2, "totals": {"North-South": 2, "East-West": 0}}, {"tables": [{"players": ["Dee", "Ann"], "winner": "Ann", "knocker": "Dee", "outcome": "undercut", "points": 25, "knocker_deadwood": 7, "defender_deadwood": 7, "breakdown": {"deadwood_difference": 0, "gin_bonus": 0, "big_gin_bonus": 0, "undercut_bonus": 25, "multiplier": 1}}, {"players": ["Bob", "Cy"], "winner": null, "knocker": null, "outcome": "void", "points": 0, "knocker_deadwood": null, "defender_deadwood": null, "breakdown": null}], "winner": "North-South", "points": 25, "totals": {"North-South": 27, "East-West": 0}}], "complete": false, "winner": null, "final": {"North-South": {"hand_points": 27, "hands_won": 2, "box_bonus": 0, "game_bonus": 0, "shutout_bonus": 0, "total": 27}, "East-West": {"hand_points": 0, "hands_won": 0, "box_bonus": 0, "game_bonus": 0, "shutout_bonus": 0, "total": 0}}, "net": null, "ended_at": null}))),
        )),
        MatchScoreErrors,
    )
)]
#[post("/v1/matches/score")]
pub async fn score_match(
    body: ValidJson<MatchRequest>,
    limits: RequestLimits,
    keys: Keys,
) -> Result<web::Json<MatchAnswer>, Problem> {
    let (request, body) = body.into_parts();
    check_limits(&request, &limits)?;
    let signed = (request.receipt == Some(true))
        .then(|| resolve_profile(request.profile.as_ref()))
        .transpose()?;
    let mut scored = answer(request)?;
    if let Some(profile) = signed {
        let receipt = keys.sign("score_match", &profile, &body, &scored)?;
        scored.set_receipt(receipt);
    }
    Ok(web::Json(scored))
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
    let format = Format::of(&request)?;
    let problem = |error: MatchError| {
        match_problem(
            &error,
            &|hand, table| recorded_at(&request, hand, table),
            &|name| duplicate_pointer(&request, name),
        )
    };
    Ok(match format {
        Format::Two(players, hands) => {
            let scored = gin_rules::score_match(&profile, &players, &hands).map_err(problem)?;
            MatchAnswer::TwoPlayers(MatchResponse::new(&scored, profile.hollywood()))
        }
        Format::Three(players, hands) => {
            let scored = gin_rules::score_three(&profile, &players, &hands).map_err(problem)?;
            MatchAnswer::ThreePlayers(ThreePlayerMatchResponse::new(&scored))
        }
        Format::Teams(teams, deals) => {
            let scored = gin_rules::score_partnership(&profile, &teams, &deals).map_err(problem)?;
            MatchAnswer::Partnership(PartnershipMatchResponse::new(&scored, &seat_order(&teams)))
        }
    })
}

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(score_match);
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn operation() -> Value {
        let doc = serde_json::to_value(crate::routes::openapi()).unwrap_or_default();
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
