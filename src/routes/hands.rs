//! `POST /v1/hands/analyze` (optimal deadwood, best discards) and
//! `POST /v1/hands/score` (score a knock, gin or big gin).
//!
//! The handlers only: each reads its body with the transport's extractor and
//! answers with the operation of `gin_contract::answers::hands`, which the
//! `batch` command and the Python module call too.

use actix_web::{HttpRequest, HttpResponse, post, web};

use super::ServiceConfig;
use crate::http::bulk;
use crate::http::bulk::ndjson::{batch_line_schema, request_line_schema};
use crate::http::json::ValidJson;
use crate::http::problem::HttpProblem;
use crate::http::signing::ServerKeys;
use gin_contract::answers::hands::*;
use gin_contract::json::from_slice;
use gin_contract::wire::knock::ScoreResponse;

gin_contract::problem_responses!(
    /// The error answers of `/v1/hands/analyze`.
    AnalyzeErrors: [MalformedJson, InvalidBody, PayloadTooLarge, Overloaded, UnsupportedMediaType, UnsupportedContentEncoding, RequestTimeout, UnknownProfile, InvalidProfile, InvalidProfileCombination, UpcardRequired, DuplicateCard, WrongCardCount, JokerNotInDeck]
);
/// Analyses a hand.
#[utoipa::path(
    tag = "hands",
    summary = "Analyse a hand: optimal deadwood and best discards",
    description = "For 10 cards: the minimum deadwood, one optimal arrangement, the knock limit, \
        whether the hand can knock or is gin, and with `all_arrangements` every optimal arrangement. \
        For 11 cards (right after the draw): the minimum deadwood after the best discard, every \
        discard reaching it with its arrangement, and whether all 11 cards meld (big gin). \
        Under a profile with jokers the hand may hold `X1` (and `X2`): each melded joker is \
        written in the place of the card it stands for, and `jokers` maps it to that card \
        (`\"melds\": [[\"5H\", \"X1\", \"7H\"]], \"jokers\": {\"X1\": \"6H\"}`); an unmelded \
        joker is a deadwood card counting `joker_deadwood`.",
    request_body(content = AnalyzeRequest, example = json!({"hand": ["7S", "7H", "7D", "7C", "8H", "9H", "KS", "QD", "2C", "3D"]})),
    responses(
        (status = 200, description = "The analysis.", body = AnalyzeResponse, examples(
            ("ten_cards" = (summary = "10 cards: a four-card set gives the 7 of hearts to a run", value = json!({
                "deadwood": 25, "knock_limit": 10, "can_knock": false, "gin": false,
                "melds": [["7S", "7D", "7C"], ["7H", "8H", "9H"]], "deadwood_cards": ["KS", "3D", "QD", "2C"]}))),
            ("eleven_cards" = (summary = "11 cards: discard the 9 of clubs and knock with 8", value = json!({
                "deadwood": 8, "knock_limit": 10, "can_knock": true, "gin": false, "big_gin": false,
                "discards": [{"card": "9C", "deadwood": 8, "melds": [["3S", "4S", "5S", "6S"], ["KS", "KH", "KD", "KC"]],
                    "deadwood_cards": ["2D", "6C"], "can_knock": true, "gin": false}]}))),
            ("jokers" = (summary = "10 cards under the jokers preset: X2 bridges 5H and 7H, X1 is the third king", value = json!({
                "deadwood": 2, "knock_limit": 10, "can_knock": true, "gin": false,
                "melds": [["5H", "X2", "7H"], ["9S", "9D", "9C"], ["KS", "X1", "KD"]], "jokers": {"X1": "KH", "X2": "6H"},
                "deadwood_cards": ["2C"]}))),
        )),
        AnalyzeErrors,
    )
)]
#[post("/v1/hands/analyze")]
pub async fn analyze_hand(
    body: ValidJson<AnalyzeRequest>,
) -> Result<web::Json<AnalyzeResponse>, HttpProblem> {
    Ok(web::Json(analysis(body.into_inner())?))
}
gin_contract::problem_responses!(
    /// The error answers of `/v1/hands/analyze/batch`.
    AnalyzeBatchErrors: [MalformedRequest, BatchTimeout, LineTooLong, UnsupportedMediaType, UnsupportedContentEncoding, MalformedJson, InvalidBody, PayloadTooLarge, Overloaded, TooManyLines, RequestTimeout]
);
/// Analyses many hands.
#[utoipa::path(
    tag = "hands",
    summary = "Analyse many hands (NDJSON)",
    description = "The bulk form of `POST /v1/hands/analyze`: the body is NDJSON \
(`application/x-ndjson`), one `AnalyzeRequest` per line, optionally with an `id` echoed on its \
answer; the answer is NDJSON, streamed, one `AnalyzeBatchLine` per request line in the same \
order: `{\"line\", \"id\"?, \"result\"}` with the single endpoint's answer, or \
`{\"line\", \"id\"?, \"problem\"}` with its problem (pointers relative to the line). A bad \
line never stops the rest; blank lines are skipped. Lines are read as they arrive and answered \
as they are ready, so memory does not grow with the body. Limits: `--batch-max-line-bytes`, \
`--batch-max-lines`, `--batch-timeout`; a fault after answers have started is a last line \
`{\"problem\": ...}`.",
    request_body(content = Vec<AnalyzeRequestLine>, content_type = "application/x-ndjson",
        description = "NDJSON: one `AnalyzeRequest` per line (each item of the schema is a line).",
        example = json!("{\"id\": 1, \"hand\": [\"7S\", \"7H\", \"7D\", \"7C\", \"8H\", \"9H\", \"KS\", \"QD\", \"2C\", \"3D\"]}\n{\"id\": 2, \"hand\": [\"AS\"]}\n")),
    responses(
        (status = 200, description = "NDJSON: one `AnalyzeBatchLine` per request line (each item of the schema is a line).",
         content_type = "application/x-ndjson", body = Vec<AnalyzeBatchLine>,
         example = json!("{\"line\":1,\"id\":1,\"result\":{\"deadwood\":25,\"knock_limit\":10,\"can_knock\":false,\"gin\":false,\"melds\":[[\"7S\",\"7D\",\"7C\"],[\"7H\",\"8H\",\"9H\"]],\"deadwood_cards\":[\"KS\",\"3D\",\"QD\",\"2C\"]}}\n{\"line\":2,\"id\":2,\"problem\":{\"type\":\"/problems/wrong_card_count\",\"title\":\"Wrong card count\",\"status\":422,\"detail\":\"the hand must hold 10 or 11 cards, not 1\",\"code\":\"wrong_card_count\",\"errors\":[{\"pointer\":\"/hand\",\"code\":\"wrong_card_count\",\"message\":\"the hand must hold 10 or 11 cards, not 1\"}]}}\n")),
        AnalyzeBatchErrors,
    )
)]
#[post("/v1/hands/analyze/batch")]
pub async fn analyze_hands(
    request: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, HttpProblem> {
    bulk::respond(request, payload, "analyze_hand", AnalyzeLines).await
}
gin_contract::problem_responses!(
    /// The error answers of `/v1/hands/score`.
    ScoreErrors: [MalformedJson, InvalidBody, PayloadTooLarge, Overloaded, UnsupportedMediaType, UnsupportedContentEncoding, RequestTimeout, UnknownProfile, InvalidProfile, InvalidProfileCombination, DuplicateCard, WrongCardCount, KnockOverLimit, InvalidMelds, NotBigGin, BigGinNotAllowed, UpcardRequired, LayoffsNotAllowed, LayoffCardNotInHand, LayoffCardRepeated, LayoffMeldNotFound, LayoffDoesNotFit, JokerNotInDeck]
);
/// Scores a hand.
#[utoipa::path(
    tag = "hands",
    summary = "Score a hand",
    description = "Scores a knock, gin or big gin. The knocker's melds and the defender's melds \
        and layoffs may be declared (they are checked, not trusted); when absent, the knocker's \
        arrangement is the one best for the knocker after the defender's best reply, and the \
        defender's reply is the one leaving it the least deadwood. The breakdown shows every \
        component of the points.",
    request_body(content = ScoreRequest, example = json!({
        "knocker": {"hand": ["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "AH"]},
        "defender": {"hand": ["6H", "2H", "JS", "JH", "JD", "7S", "7H", "7C", "4D", "5S"]}
    })),
    responses(
        (status = 200, description = "The scored hand.", body = ScoreResponse, example = json!({
            "outcome": "knock", "winner": "knocker", "points": 8,
            "breakdown": {"deadwood_difference": 8, "gin_bonus": 0, "big_gin_bonus": 0, "undercut_bonus": 0, "multiplier": 1},
            "knocker": {"melds": [["3H", "4H", "5H"], ["3C", "4C", "5C"], ["9S", "9H", "9D"]], "deadwood_cards": ["AH"], "deadwood": 1},
            "defender": {"melds": [["7S", "7H", "7C"], ["JS", "JH", "JD"]], "layoffs": [{"card": "2H", "meld": 0}, {"card": "6H", "meld": 0}],
                "deadwood_cards": ["5S", "4D"], "deadwood": 9}
        })),
        ScoreErrors,
    )
)]
#[post("/v1/hands/score")]
pub async fn score_hand(
    body: ValidJson<ScoreRequest>,
    ServerKeys(keys): ServerKeys,
) -> Result<web::Json<ScoreResponse>, HttpProblem> {
    let (request, body) = body.into_parts();
    Ok(web::Json(scored(request, &body, &keys)?))
}
gin_contract::problem_responses!(
    /// The error answers of `/v1/hands/score/batch`.
    ScoreBatchErrors: [MalformedRequest, BatchTimeout, LineTooLong, UnsupportedMediaType, UnsupportedContentEncoding, MalformedJson, InvalidBody, PayloadTooLarge, Overloaded, TooManyLines, RequestTimeout]
);
/// Scores many hands.
#[utoipa::path(
    tag = "hands",
    summary = "Score many hands (NDJSON)",
    description = "The bulk form of `POST /v1/hands/score`: one `ScoreRequest` per line \
(NDJSON, `application/x-ndjson`), optionally with an `id`; one `ScoreBatchLine` per request \
line in the same order, streamed (`result` or `problem`, see `POST /v1/hands/analyze/batch` \
for the framing). A line asking for a `receipt` gets one for that line, whose request digest \
is of the line without its `id`.",
    request_body(content = Vec<ScoreRequestLine>, content_type = "application/x-ndjson",
        description = "NDJSON: one `ScoreRequest` per line (each item of the schema is a line).",
        example = json!("{\"id\": \"a\", \"knocker\": {\"hand\": [\"3H\", \"4H\", \"5H\", \"9S\", \"9H\", \"9D\", \"3C\", \"4C\", \"5C\", \"AH\"]}, \"defender\": {\"hand\": [\"6H\", \"2H\", \"JS\", \"JH\", \"JD\", \"7S\", \"7H\", \"7C\", \"4D\", \"5S\"]}}\n")),
    responses(
        (status = 200, description = "NDJSON: one `ScoreBatchLine` per request line (each item of the schema is a line).",
         content_type = "application/x-ndjson", body = Vec<ScoreBatchLine>,
         example = json!("{\"line\":1,\"id\":\"a\",\"result\":{\"outcome\":\"knock\",\"winner\":\"knocker\",\"points\":8,\"breakdown\":{\"deadwood_difference\":8,\"gin_bonus\":0,\"big_gin_bonus\":0,\"undercut_bonus\":0,\"multiplier\":1},\"knocker\":{\"melds\":[[\"3H\",\"4H\",\"5H\"],[\"3C\",\"4C\",\"5C\"],[\"9S\",\"9H\",\"9D\"]],\"deadwood_cards\":[\"AH\"],\"deadwood\":1},\"defender\":{\"melds\":[[\"7S\",\"7H\",\"7C\"],[\"JS\",\"JH\",\"JD\"]],\"layoffs\":[{\"card\":\"2H\",\"meld\":0},{\"card\":\"6H\",\"meld\":0}],\"deadwood_cards\":[\"5S\",\"4D\"],\"deadwood\":9}}}\n")),
        ScoreBatchErrors,
    )
)]
#[post("/v1/hands/score/batch")]
pub async fn score_hands(
    request: HttpRequest,
    payload: web::Payload,
    ServerKeys(keys): ServerKeys,
) -> Result<HttpResponse, HttpProblem> {
    bulk::respond(request, payload, "score_hand", move |line: &[u8]| {
        scored(from_slice(line)?, line, &keys)
    })
    .await
}
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(analyze_hand)
        .service(score_hand)
        .service(analyze_hands)
        .service(score_hands);
}

batch_line_schema!(AnalyzeBatchLine, AnalyzeResponse);
request_line_schema!(AnalyzeRequestLine, AnalyzeRequest);
batch_line_schema!(ScoreBatchLine, ScoreResponse);
request_line_schema!(ScoreRequestLine, ScoreRequest);
