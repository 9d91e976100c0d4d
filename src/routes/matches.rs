//! `POST /v1/matches/score`: score a whole match hand by hand (games, boxes,
//! bonuses, shutouts, settlement, Hollywood), backed by [`gin_rules::score_match`]
//! whose module docs state every rule applied.
//!
//! The handlers only: each reads its body with the transport's extractor and
//! answers with the operation of `gin_contract::answers::matches`, which the
//! `batch` command and the Python module call too.

use actix_web::{HttpRequest, HttpResponse, post};

use super::ServiceConfig;
use crate::http::accept::{Offers, negotiate};
use crate::http::admission::limits::ServerLimits;
use crate::http::json::ValidJson;
use crate::http::problem::HttpProblem;
use crate::http::signing::ServerKeys;
use crate::pictures::{self, Picture};
use gin_contract::answers::matches::*;
use gin_contract::wire::formats::MatchAnswer;

gin_contract::problem_responses!(
    /// The error answers of `/v1/matches/score`.
    MatchScoreErrors: [MalformedJson, InvalidBody, PayloadTooLarge, Overloaded, UnsupportedMediaType, UnsupportedContentEncoding, RequestTimeout, UnknownProfile, InvalidProfile, InvalidProfileCombination, DuplicateCard, WrongCardCount, KnockOverLimit, InvalidMelds, NotBigGin, BigGinNotAllowed, UpcardRequired, LayoffsNotAllowed, LayoffCardNotInHand, LayoffCardRepeated, LayoffMeldNotFound, LayoffDoesNotFit, BigGinWithDeadwood, ImpossibleCount, BlankPlayerName, DuplicatePlayerName, UnknownPlayer, GameOver, SamePlayerTwice, RotationBroken, PairingBroken, HollywoodNotDefined, BlankTeamName, PlayersOrTeams, WrongHandShape, JokerNotInDeck]
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
        ("source_s0" = (summary = "[S0]'s walkthrough as counts (standard)",
            value = json!(examples::source_s0()))),
        ("hollywood" = (summary = "Hollywood: Dad, shut out of game 1, enters game 2",
            value = json!(examples::hollywood()))),
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
    http: HttpRequest,
    body: ValidJson<MatchRequest>,
    ServerLimits(limits): ServerLimits,
    ServerKeys(keys): ServerKeys,
) -> Result<HttpResponse, HttpProblem> {
    let wanted = negotiate(http.headers(), Offers::JsonAndPictures)?;
    let (request, body) = body.into_parts();
    let answer = respond(request, &body, &limits, &keys)?;
    pictures::respond(wanted, &answer, |answer| Some(Picture::MatchScore(answer)))
}
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(score_match);
}
