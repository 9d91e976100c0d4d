//! `POST /v1/hands/analyze` (optimal deadwood, best discards) and
//! `POST /v1/hands/score` (score a knock, gin or big gin).

use crate::http::error_codes::ErrorCode;
use actix_web::{HttpRequest, HttpResponse, post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::ServiceConfig;
use crate::http::bulk;
use crate::http::json::{ValidJson, from_slice};
use crate::http::ndjson::{self, batch_line_schema, request_line_schema};
use crate::http::problem::Problem;
use crate::wire::jokers::{
    DeadwoodCards, DefenderHand, HandArrangement, KnockerHand, StandsFor, WireCard, read_hand,
    score_knock,
};
use crate::wire::knock::ScoreResponse;
use crate::wire::profile_spec::{ProfileSpec, profile_problem, resolve_profile};
use crate::wire::receipt::Keys;
use gin_rules::{
    Arrangement, Card, CardSet, HandCard, Meld, analyze_drawn_hand, best_arrangement,
    optimal_arrangements,
};

/// A hand to analyse.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeRequest {
    /// 10 cards, or 11 right after the draw; under a profile with jokers, `X1`
    /// and `X2` among them (another count is a 422 `wrong_card_count`; more
    /// than a deck, a 400).
    #[serde(deserialize_with = "gin_rules::bounded::at_most::<_, _, 52>")]
    #[schema(max_items = 52,
             example = json!(["7S", "7H", "7D", "7C", "8H", "9H", "KS", "QD", "2C", "3D"]))]
    pub hand: Vec<WireCard>,
    pub profile: Option<ProfileSpec>,
    /// The first upcard, needed when the knock limit depends on it (Oklahoma).
    pub upcard: Option<Card>,
    /// For 10 cards, also list every optimal arrangement.
    #[serde(default)]
    pub all_arrangements: bool,
}

// Flat, unlike the rules' `Discard` (a card and an arrangement), and with what
// the knock limit makes of it, hence this type of its own.
/// One discard from 11 cards reaching the least deadwood.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BestDiscard {
    /// The card (or joker) discarded.
    #[schema(value_type = WireCard)]
    pub card: HandCard,
    pub deadwood: u32,
    /// The melds of the ten cards kept; a joker stands in the place of the
    /// card it stands for.
    #[schema(value_type = Vec<Vec<WireCard>>)]
    pub melds: Vec<Meld>,
    /// What each melded joker stands for; absent when no joker is melded.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub jokers: Option<StandsFor>,
    /// The cards in no meld, unmelded jokers last.
    #[schema(value_type = Vec<WireCard>)]
    pub deadwood_cards: DeadwoodCards,
    pub can_knock: bool,
    pub gin: bool,
}

/// The analysis. For 10 cards: `melds`, `deadwood_cards` (and `arrangements` on
/// request); for 11 cards: `discards` and `big_gin`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({
    "deadwood": 25, "melds": [["7S", "7D", "7C"], ["7H", "8H", "9H"]],
    "deadwood_cards": ["KS", "7H"], "knock_limit": 10, "can_knock": false, "gin": false
}))]
pub struct AnalyzeResponse {
    /// The minimum deadwood (for 11 cards: after the best discard).
    pub deadwood: u32,
    /// The knock limit under the profile (and upcard).
    pub knock_limit: u32,
    /// The hand may knock (for 11 cards: after some best discard).
    pub can_knock: bool,
    /// The minimum deadwood is 0.
    pub gin: bool,
    /// 10 cards: one optimal arrangement's melds. With jokers, a joker stands
    /// in the place of the card it stands for (`["5H", "X1", "7H"]`), and
    /// `jokers` says which card that is.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<Vec<WireCard>>>)]
    pub melds: Option<Vec<Meld>>,
    /// 10 cards: what each joker of `melds` stands for (`{"X1": "6H"}`);
    /// absent when no joker is melded.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub jokers: Option<StandsFor>,
    /// 10 cards: that arrangement's deadwood cards, unmelded jokers last.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<WireCard>>)]
    pub deadwood_cards: Option<DeadwoodCards>,
    /// 10 cards with `all_arrangements`: every optimal arrangement, in a fixed
    /// order (with jokers: every card each joker may stand for, and each order
    /// of `X1` and `X2`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<HandArrangement>>)]
    pub arrangements: Option<Vec<Arrangement>>,
    /// 11 cards: every discard reaching the minimum, in canonical card order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discards: Option<Vec<BestDiscard>>,
    /// 11 cards: all eleven meld without a discard.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub big_gin: Option<bool>,
}

crate::problem_responses!(
    /// The error answers of `/v1/hands/analyze`.
    AnalyzeErrors: [MalformedJson, InvalidBody, PayloadTooLarge, UnsupportedMediaType, UnsupportedContentEncoding, RequestTimeout, UnknownProfile, InvalidProfile, InvalidProfileCombination, UpcardRequired, DuplicateCard, WrongCardCount, JokerNotInDeck]
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
) -> Result<web::Json<AnalyzeResponse>, Problem> {
    analysis(body.into_inner()).map(web::Json)
}

/// The analysis of one hand, without HTTP (the single and the batch endpoint).
pub fn analysis(request: AnalyzeRequest) -> Result<AnalyzeResponse, Problem> {
    let profile = resolve_profile(request.profile.as_ref())?;
    let hand = read_hand(&request.hand, "/hand", &profile)?;
    let knock_limit = profile
        .knock_limit_for(request.upcard)
        .map_err(|e| profile_problem(&e))?;
    let rules = profile.joker_rules();
    match hand.len() {
        10 => {
            let best = best_arrangement(hand, &rules);
            let arrangements = request
                .all_arrangements
                .then(|| optimal_arrangements(hand, &rules));
            let jokers = StandsFor::of(&best.melds);
            Ok(AnalyzeResponse {
                deadwood: best.deadwood,
                knock_limit,
                can_knock: best.deadwood <= knock_limit,
                gin: best.deadwood == 0,
                melds: Some(best.melds),
                jokers: (!jokers.is_empty()).then_some(jokers),
                deadwood_cards: Some(DeadwoodCards {
                    naturals: best.deadwood_cards,
                    jokers: best.deadwood_jokers,
                }),
                arrangements,
                discards: None,
                big_gin: None,
            })
        }
        11 => {
            let analysis = analyze_drawn_hand(hand, &rules);
            let discards = analysis
                .discards
                .into_iter()
                .map(|discard| {
                    let kept = discard.arrangement;
                    let jokers = StandsFor::of(&kept.melds);
                    BestDiscard {
                        card: discard.card,
                        deadwood: kept.deadwood,
                        melds: kept.melds,
                        jokers: (!jokers.is_empty()).then_some(jokers),
                        deadwood_cards: DeadwoodCards {
                            naturals: kept.deadwood_cards,
                            jokers: kept.deadwood_jokers,
                        },
                        can_knock: kept.deadwood <= knock_limit,
                        gin: kept.deadwood == 0,
                    }
                })
                .collect();
            Ok(AnalyzeResponse {
                deadwood: analysis.deadwood,
                knock_limit,
                can_knock: analysis.deadwood <= knock_limit,
                gin: analysis.deadwood == 0,
                melds: None,
                jokers: None,
                deadwood_cards: None,
                arrangements: None,
                discards: Some(discards),
                big_gin: Some(analysis.big_gin),
            })
        }
        found => Err(wrong_card_count(found)),
    }
}

fn wrong_card_count(found: usize) -> Problem {
    let detail = format!("the hand must hold 10 or 11 cards, not {found}");
    Problem::new(ErrorCode::WrongCardCount, &detail).with_error(
        "/hand",
        ErrorCode::WrongCardCount,
        detail,
    )
}

/// Reads one line of an analyse batch. The line nearly every client sends,
/// `{"hand": [...]}` with cards in canonical two-letter notation and nothing
/// else, is read directly (a third of a line's cost through serde, most of it
/// checking and parsing card strings); any other line goes through the same
/// reader as the single endpoint, which also gives every problem its pointer.
/// A test checks that both readers agree.
pub fn read_analyze_line(line: &[u8]) -> Result<AnalyzeRequest, Problem> {
    match plain_hand(line) {
        Some(hand) => Ok(AnalyzeRequest {
            hand,
            profile: None,
            upcard: None,
            all_arrangements: false,
        }),
        None => from_slice(line),
    }
}

/// The cards of `{"hand": ["7S", ...]}` (any JSON whitespace, canonical cards
/// or their lower-case forms), or `None` for anything else.
fn plain_hand(line: &[u8]) -> Option<Vec<WireCard>> {
    let mut rest = line;
    let mut expect = |token: &[u8]| -> Option<()> {
        let trimmed = rest.trim_ascii_start();
        rest = trimmed.strip_prefix(token)?;
        Some(())
    };
    expect(b"{")?;
    expect(b"\"hand\"")?;
    expect(b":")?;
    expect(b"[")?;
    let mut cards = Vec::with_capacity(11);
    loop {
        let trimmed = rest.trim_ascii_start();
        let (text, after) = match trimmed {
            [b'"', rank, suit, b'"', after @ ..] => ((*rank, *suit), after),
            _ => return None,
        };
        // A joker (`X1`) is not read here: the line goes through serde.
        let card: Card = std::str::from_utf8(&[text.0, text.1]).ok()?.parse().ok()?;
        // A list longer than a deck is serde's to refuse, with its message.
        if cards.len() == gin_rules::bounded::MAX_CARDS {
            return None;
        }
        cards.push(WireCard::from(card));
        let after = after.trim_ascii_start();
        match after {
            [b',', more @ ..] => rest = more,
            [b']', more @ ..] => {
                rest = more;
                break;
            }
            _ => return None,
        }
    }
    let rest = rest.trim_ascii_start().strip_prefix(b"}")?;
    rest.trim_ascii().is_empty().then_some(cards)
}

/// The analyse batch's lines: read by [`read_analyze_line`], answered by
/// [`analysis`], and the common answer (ten cards: melds and deadwood cards)
/// written without serde, byte for byte what serde writes (a test checks).
#[derive(Debug, Clone, Copy)]
pub struct AnalyzeLines;

impl ndjson::LineAnswer for AnalyzeLines {
    type Answer = AnalyzeResponse;

    fn answer(&self, line: &[u8]) -> Result<AnalyzeResponse, Problem> {
        analysis(read_analyze_line(line)?)
    }

    fn write(&self, answer: &AnalyzeResponse, out: &mut Vec<u8>) -> serde_json::Result<()> {
        if !write_ten_card_analysis(answer, out) {
            serde_json::to_writer(out, answer)?;
        }
        Ok(())
    }
}

/// Writes a ten-card analysis without jokers (melds and deadwood cards,
/// nothing optional besides) as serde_json writes it; `false`, writing
/// nothing, for any other shape. Card notations need no escaping.
fn write_ten_card_analysis(answer: &AnalyzeResponse, out: &mut Vec<u8>) -> bool {
    let (Some(melds), Some(deadwood_cards), None, None, None, None) = (
        &answer.melds,
        &answer.deadwood_cards,
        &answer.jokers,
        &answer.arrangements,
        &answer.discards,
        &answer.big_gin,
    ) else {
        return false;
    };
    if !deadwood_cards.jokers.is_empty() {
        return false;
    }
    let cards = |out: &mut Vec<u8>, set: CardSet| {
        out.push(b'[');
        for (index, card) in set.iter().enumerate() {
            if index > 0 {
                out.push(b',');
            }
            out.push(b'"');
            out.extend_from_slice(card.notation().as_bytes());
            out.push(b'"');
        }
        out.push(b']');
    };
    let flag = |value: bool| if value { "true" } else { "false" };
    let _ = std::io::Write::write_fmt(
        out,
        format_args!(
            "{{\"deadwood\":{},\"knock_limit\":{},\"can_knock\":{},\"gin\":{},\"melds\":[",
            answer.deadwood,
            answer.knock_limit,
            flag(answer.can_knock),
            flag(answer.gin)
        ),
    );
    for (index, meld) in melds.iter().enumerate() {
        if index > 0 {
            out.push(b',');
        }
        cards(out, meld.cards());
    }
    out.extend_from_slice(b"],\"deadwood_cards\":");
    cards(out, deadwood_cards.naturals);
    out.push(b'}');
    true
}

batch_line_schema!(AnalyzeBatchLine, AnalyzeResponse);
request_line_schema!(AnalyzeRequestLine, AnalyzeRequest);
batch_line_schema!(ScoreBatchLine, ScoreResponse);
request_line_schema!(ScoreRequestLine, ScoreRequest);

crate::problem_responses!(
    /// The error answers of `/v1/hands/analyze/batch`.
    AnalyzeBatchErrors: [MalformedRequest, BatchTimeout, LineTooLong, UnsupportedMediaType, UnsupportedContentEncoding, MalformedJson, InvalidBody, PayloadTooLarge, TooManyLines, RequestTimeout]
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
) -> Result<HttpResponse, Problem> {
    bulk::respond(request, payload, "analyze_hand", AnalyzeLines).await
}

/// A knock to score.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ScoreRequest {
    pub profile: Option<ProfileSpec>,
    /// The first upcard: sets the Oklahoma knock limit and spade doubling.
    pub upcard: Option<Card>,
    pub knocker: KnockerHand,
    pub defender: DefenderHand,
    /// Ask for a signed receipt of the answer (see `GET /v1/keys`).
    #[serde(default, deserialize_with = "crate::http::json::present")]
    #[schema(nullable = false, example = false)]
    pub receipt: Option<bool>,
}

crate::problem_responses!(
    /// The error answers of `/v1/hands/score`.
    ScoreErrors: [MalformedJson, InvalidBody, PayloadTooLarge, UnsupportedMediaType, UnsupportedContentEncoding, RequestTimeout, UnknownProfile, InvalidProfile, InvalidProfileCombination, DuplicateCard, WrongCardCount, KnockOverLimit, InvalidMelds, NotBigGin, BigGinNotAllowed, UpcardRequired, LayoffsNotAllowed, LayoffCardNotInHand, LayoffCardRepeated, LayoffMeldNotFound, LayoffDoesNotFit, JokerNotInDeck]
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
    keys: Keys,
) -> Result<web::Json<ScoreResponse>, Problem> {
    let (request, body) = body.into_parts();
    scored(request, &body, &keys).map(web::Json)
}

/// The score of one hand, signed when asked, without HTTP (the single and the
/// batch endpoint); `body` is the request as received.
pub fn scored(request: ScoreRequest, body: &[u8], keys: &Keys) -> Result<ScoreResponse, Problem> {
    let profile = resolve_profile(request.profile.as_ref())?;
    let mut answer = ScoreResponse::from(score_knock(
        &profile,
        request.upcard,
        &request.knocker,
        &request.defender,
    )?);
    if request.receipt == Some(true) {
        answer.receipt = Some(keys.sign("score_hand", &profile, body, &answer)?);
    }
    Ok(answer)
}

crate::problem_responses!(
    /// The error answers of `/v1/hands/score/batch`.
    ScoreBatchErrors: [MalformedRequest, BatchTimeout, LineTooLong, UnsupportedMediaType, UnsupportedContentEncoding, MalformedJson, InvalidBody, PayloadTooLarge, TooManyLines, RequestTimeout]
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
    keys: Keys,
) -> Result<HttpResponse, Problem> {
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

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;

    fn both(line: &str) -> (Option<Vec<WireCard>>, Option<Vec<WireCard>>) {
        let fast = plain_hand(line.as_bytes());
        let general = from_slice::<AnalyzeRequest>(line.as_bytes())
            .ok()
            .filter(|r| r.profile.is_none() && r.upcard.is_none() && !r.all_arrangements)
            .map(|r| r.hand);
        (fast, general)
    }

    #[test]
    fn the_plain_reader_takes_only_plain_hands() {
        let plain = r#" { "hand" : [ "7S","7h" ,"TD"] } "#;
        let (fast, general) = both(plain);
        assert_eq!(fast, general);
        assert!(fast.is_some());
        for other in [
            r#"{"hand": ["10S"]}"#,
            r#"{"hand": ["7\u0053"]}"#,
            r#"{"hand": [], "upcard": "2C"}"#,
            r#"{"hand": ["7S"]} x"#,
            r#"{"hand": ["7S",]}"#,
            r#"{"hand": ["XX"]}"#,
            r#"{"hand": []}"#,
            r#"[]"#,
        ] {
            assert_eq!(plain_hand(other.as_bytes()), None, "{other}");
        }
    }

    fn deck() -> Vec<Card> {
        Card::deck().collect()
    }

    #[test]
    fn a_hand_longer_than_a_deck_is_left_to_serde() {
        let mut cards: Vec<String> = Card::deck()
            .map(|c| json!(c.to_string()).to_string())
            .collect();
        cards.push(cards[0].clone());
        let line = format!("{{\"hand\": [{}]}}", cards.join(","));
        assert_eq!(plain_hand(line.as_bytes()), None);
        let cards52 = &cards[..52];
        let line = format!("{{\"hand\": [{}]}}", cards52.join(","));
        assert_eq!(plain_hand(line.as_bytes()).map(|hand| hand.len()), Some(52));
    }

    proptest! {
        #[test]
        fn the_ten_card_writer_writes_what_serde_writes(
            hand in prop::sample::subsequence(deck(), 10),
            upcard in prop::sample::select(deck()),
        ) {
            let hand = hand.into_iter().map(WireCard::from).collect();
            let request = AnalyzeRequest { hand, profile: None, upcard: Some(upcard), all_arrangements: false };
            let answer = analysis(request).unwrap();
            let mut fast = Vec::new();
            prop_assert!(write_ten_card_analysis(&answer, &mut fast));
            prop_assert_eq!(String::from_utf8(fast).unwrap(), serde_json::to_string(&answer).unwrap());
        }

        #[test]
        fn other_answers_are_left_to_serde(hand in prop::sample::subsequence(deck(), 11)) {
            let hand = hand.into_iter().map(WireCard::from).collect();
            let answer = analysis(AnalyzeRequest { hand, profile: None, upcard: None, all_arrangements: false }).unwrap();
            let mut fast = Vec::new();
            prop_assert!(!write_ten_card_analysis(&answer, &mut fast));
            prop_assert!(fast.is_empty());
        }

        #[test]
        fn the_plain_reader_agrees_with_the_general_one(
            cards in prop::collection::vec((0usize..13, 0usize..4, any::<bool>()), 1..12),
            spaces in prop::collection::vec(prop::sample::select(vec!["", " ", "\n", "\t"]), 8),
        ) {
            let cards: Vec<String> = cards
                .iter()
                .map(|&(rank, suit, lower)| {
                    let text = format!("{}{}", &"A23456789TJQK"[rank..=rank], &"SHDC"[suit..=suit]);
                    if lower { text.to_lowercase() } else { text }
                })
                .collect();
            let list = cards.iter().map(|c| json!(c).to_string()).collect::<Vec<_>>().join(&format!(",{}", spaces[0]));
            let line = format!("{}{{{}\"hand\"{}:{}[{}{}]{}}}{}", spaces[1], spaces[2], spaces[3], spaces[4], spaces[5], list, spaces[6], spaces[7]);
            let (fast, general) = both(&line);
            prop_assert!(fast.is_some(), "{}", line);
            prop_assert_eq!(fast, general);
        }
    }
}
