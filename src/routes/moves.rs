//! `POST /v1/hands/move` and `POST /v1/matches/move`: the referee plays. An
//! app's computer opponent, a player's hint, a bot arena's reference
//! player: the state's body with the `seat` to play for and the `bot`, and
//! the answer is one of the moves the state lists for that seat, exactly as
//! listed.
//!
//! The handlers only: each reads its body with the transport's extractor and
//! answers with the operation of `gin_contract::answers::hand_move` or
//! `match_move`, which the Python module calls too.

use actix_web::{post, web};

use crate::http::admission::limits::ServerLimits;
use crate::http::json::ValidJson;
use crate::http::problem::HttpProblem;
use gin_contract::answers::{hand_move, match_move};

/// The match move's route, also the key of its own body limit (the match
/// audit's).
pub const MATCH_ROUTE: &str = "/v1/matches/move";

pub fn configure(cfg: &mut super::ServiceConfig) {
    cfg.service(move_hand).service(move_match);
}

gin_contract::problem_responses!(
    /// The error answers of `/v1/hands/move`.
    HandMoveErrors: [MalformedJson, InvalidBody, PayloadTooLarge, Overloaded, UnsupportedMediaType, UnsupportedContentEncoding, RequestTimeout, UnknownProfile, InvalidProfile, InvalidProfileCombination, DuplicateCard, WrongCardCount, UnrecordedDraw, JokerNotInDeck, ClientSeedTooLong, NotToAct,
        // The audit's violations, each answered with its own code.
        WrongPlayer, UpcardOfferViolated, PassNotAllowed, MustDrawFirst, AlreadyDrew, ExpectedCardMismatch, CardNotInHand, DiscardJustTaken, StockExhausted, FiftiethCardTakeWithoutKnock, KnockOverLimit, InvalidMelds, BigGinNotAllowed, NotBigGin, LayOffWithoutKnock, LayoffsNotAllowed, LayoffCardNotInHand, LayoffCardRepeated, LayoffMeldNotFound, LayoffDoesNotFit, JokerNotMelded, HandIsVoid, ActionAfterHandEnded, DealCommitmentMismatch]
);

gin_contract::problem_responses!(
    /// The error answers of `/v1/matches/move`.
    MatchMoveErrors: [MalformedJson, InvalidBody, PayloadTooLarge, Overloaded, UnsupportedMediaType, UnsupportedContentEncoding, RequestTimeout, UnknownProfile, InvalidProfile, InvalidProfileCombination, DuplicateCard, WrongCardCount, UnrecordedDraw, JokerNotInDeck, ClientSeedTooLong, BlankPlayerName, DuplicatePlayerName, UnknownPlayer, HollywoodNotDefined, BlankTeamName, PlayersOrTeams, WrongHandShape, NotToAct,
        // The audit's violations, each answered with its own code.
        WrongPlayer, UpcardOfferViolated, PassNotAllowed, MustDrawFirst, AlreadyDrew, ExpectedCardMismatch, CardNotInHand, DiscardJustTaken, StockExhausted, FiftiethCardTakeWithoutKnock, KnockOverLimit, InvalidMelds, BigGinNotAllowed, NotBigGin, LayOffWithoutKnock, LayoffsNotAllowed, LayoffCardNotInHand, LayoffCardRepeated, LayoffMeldNotFound, LayoffDoesNotFit, JokerNotMelded, HandIsVoid, ActionAfterHandEnded, DealCommitmentMismatch, WrongDealer, HandAfterGameEnd, HandUnfinished, DealSeedsDiffer, DealNonceNotIncreasing, RotationBroken, PairingBroken]
);

/// A bot's move for one seat of a hand.
#[utoipa::path(
    tag = "hands",
    summary = "A bot's move now (the referee plays)",
    description = "An app's computer opponent, a player's hint, a bot arena's reference player. \
The body is `POST /v1/hands/state`'s (`profile`, `deal` as cards or seeds, `actions`, \
`openspiel`) with a required `seat` (`dealer` or `non_dealer`) and `bot`: `{\"name\": \
\"random\" | \"simple\" | \"strong\", \"seed\"?: integer (default 0), ...knobs}`. `random` plays \
a listed move uniformly; `simple` plays the EAAI-2021 challenge's SimpleGinRummyPlayer's \
policy; `strong` searches over deals of the cards the seat cannot place (its budget is the \
`samples` knob, counted in deals, never in time). Each knob has bounds (the `Bot` schema): \
one outside them, or one the bot does not read, is a 400 pointing at it.\n\n\
The answer is one entry of the state's `legal_actions` for that seat, exactly as listed \
(`kind`, `move` to append as it is, and with `\"openspiel\": true` its OpenSpiel id(s)), and \
`bot`: the name, seed and knobs used. The bot is given only what the seat may know (its \
cards, the pile, the cards it saw taken, its own story of the hand, the profile): two records \
that differ only in cards the seat cannot know, or a deal given by its seeds and the same deal \
as cards, give the same move for the same body. Deterministic: the same body, the same move.\n\n\
A seat that is not to act, or a hand that is over: 422 `not_to_act`. A record with a violation: \
422 with the violation's own code (`wrong_player`, `discard_just_taken`, ...: every code of the \
audit), `errors[0]` the violation with that code and its pointer, as the audit reports it. Same limits as `/v1/hands/state`.",
    request_body(
        content = hand_move::HandMoveRequest,
        examples(
            ("upcard_offer" = (summary = "simple, for the non-dealer at the upcard offer",
                value = json!(hand_move::examples::upcard_offer()))),
            ("discard" = (summary = "simple, after its draw, with OpenSpiel ids",
                value = json!(hand_move::examples::discard()))),
            ("reply" = (summary = "strong with 8 samples replies to a knock",
                value = json!(hand_move::examples::reply()))),
            ("random" = (summary = "random, seed 42",
                value = json!(hand_move::examples::random()))),
        )
    ),
    responses(
        (status = 200, description = "The move, exactly as the state lists it, and the bot.",
         body = hand_move::HandMoveResponse,
         examples(
            ("upcard_offer" = (summary = "simple's answer to the offer",
                value = json!(hand_move::examples::answer(hand_move::examples::upcard_offer())))),
            ("discard" = (summary = "simple's discard or knock",
                value = json!(hand_move::examples::answer(hand_move::examples::discard())))),
            ("reply" = (summary = "strong's reply",
                value = json!(hand_move::examples::answer(hand_move::examples::reply())))),
            ("random" = (summary = "The only listed move: the stock",
                value = json!(hand_move::examples::answer(hand_move::examples::random())))),
         )),
        HandMoveErrors,
    )
)]
#[post("/v1/hands/move")]
pub async fn move_hand(
    body: ValidJson<hand_move::HandMoveRequest>,
    ServerLimits(limits): ServerLimits,
) -> Result<web::Json<hand_move::HandMoveResponse>, HttpProblem> {
    Ok(web::Json(hand_move::respond(body.into_inner(), &limits)?))
}

/// A bot's move for one player of a match.
#[utoipa::path(
    tag = "matches",
    summary = "A bot's move for a player of a match (the referee plays)",
    description = "The same as `POST /v1/hands/move` for a match: the body is \
`POST /v1/matches/state`'s (`profile`, `players` or `teams`, `hands`, the last in progress, \
`openspiel`) with a required `seat` (a player's name) and `bot`. The answer is one entry of \
the state's `legal_actions` at that player's table, exactly as listed, `table` (the table's \
index in the state's `tables`) and `bot`. The bot sees the player's own table as the state \
shows it to that player, and the match score before this hand (the player's or team's total, \
the opponent's, the target), for score-aware play.\n\n\
A player with nothing to play (the other seat is to act, the player sits the hand out, the \
match is between hands, `deal`, or `over`): 422 `not_to_act`. A record with a violation: 422 \
with the violation's own code (every code of the match audit), `errors[0]` the violation with \
that code and its pointer, as the match audit reports it. Same limits as `/v1/matches/state` (the match audit's body limit).",
    request_body(
        content = match_move::MatchMoveRequest,
        examples(
            ("two_play" = (summary = "An eaai match: simple plays Ann's turn",
                value = json!(match_move::examples::two_play()))),
            ("two_offer" = (summary = "strong (one sample) decides Ann's upcard offer, 60 behind",
                value = json!(match_move::examples::two_offer()))),
            ("two_reply" = (summary = "strong replies to Ann's knock for Bob",
                value = json!(match_move::examples::two_reply()))),
        )
    ),
    responses(
        (status = 200, description = "The move at the player's table, and the bot.",
         body = match_move::MatchMoveResponse,
         examples(
            ("two_play" = (summary = "simple's discard or knock",
                value = json!(match_move::examples::answer(match_move::examples::two_play())))),
            ("two_offer" = (summary = "strong's answer to the offer",
                value = json!(match_move::examples::answer(match_move::examples::two_offer())))),
            ("two_reply" = (summary = "strong's reply: melds and layoffs",
                value = json!(match_move::examples::answer(match_move::examples::two_reply())))),
         )),
        MatchMoveErrors,
    )
)]
#[post("/v1/matches/move")]
pub async fn move_match(
    body: ValidJson<match_move::MatchMoveRequest>,
    ServerLimits(limits): ServerLimits,
) -> Result<web::Json<match_move::MatchMoveResponse>, HttpProblem> {
    Ok(web::Json(match_move::respond(&body.into_inner(), &limits)?))
}
