//! `POST /v1/hands/audit`: replay one recorded hand from the deal and check every
//! action (the referee is [`gin_rules::audit_hand`]; its module docs give the
//! procedure and the order of the checks).
//!
//! The handlers only: each reads its body with the transport's extractor and
//! answers with the operation of `gin_contract::answers::audit`, which the
//! `batch` command and the Python module call too.

use actix_web::{HttpRequest, HttpResponse, post, web};

use crate::http::accept::{Offers, Representation, negotiate};
use crate::pictures::{self, Picture, replay::HandRecord};

use crate::http::admission::limits::ServerLimits;
use crate::http::bulk;
use crate::http::bulk::ndjson::{batch_line_schema, request_line_schema};
use crate::http::json::ValidJson;
use crate::http::problem::HttpProblem;
use crate::http::signing::ServerKeys;
use gin_contract::answers::audit::*;
use gin_contract::json::from_slice;
use gin_contract::wire::transcript::AuditResponse;

pub fn configure(cfg: &mut super::ServiceConfig) {
    cfg.service(audit_hand).service(audit_hands);
}
gin_contract::problem_responses!(
    /// The error answers of `/v1/hands/audit`.
    AuditErrors: [MalformedJson, InvalidBody, PayloadTooLarge, Overloaded, UnsupportedMediaType, UnsupportedContentEncoding, RequestTimeout, UnknownProfile, InvalidProfile, InvalidProfileCombination, DuplicateCard, WrongCardCount, UnrecordedDraw, JokerNotInDeck, ClientSeedTooLong]
);
/// Audit a recorded hand.
#[utoipa::path(
    tag = "hands",
    summary = "Audit a hand played from the deal",
    description = "Replays one hand from the deal and checks every action against the \
profile: the first-turn upcard offer (the non-dealer may take the upcard or pass, then the \
dealer, then the non-dealer draws from the stock), draws from the stock or the discard pile, \
discards (never the card just taken from the pile), the knock (knock limit, declared melds, \
gin, big gin), the defender's layoffs, and the end of the stock (the player who draws the 50th \
card may still knock; otherwise the hand is void, or under the 50th-card rule the opponent may \
take that discard only to knock). Nothing may follow the end of the hand but the defender's \
one reply.\n\n\
Each action is `{\"player\": \"dealer\" | \"non_dealer\", \"action\": ...}`: `pass`, `draw` \
(`from`: `stock` or `discard_pile`, optional `card` checked against the card drawn), \
`discard` (`card`), `knock` (`discard`, absent for big gin; optional `melds`), `lay_off` \
(the defender's optional reply: `melds` and/or `layoffs`). A part of the reply left out is \
played best for the defender; `\"layoffs\": []` declares that nothing is laid off.\n\n\
Records as recorders have them: the deal's `stock` may list only its first cards (those \
drawn, top first, down to none); a draw past them names its card (`unrecorded_draw` when it \
does not). A layoff names its knocker meld by index (`meld`), by cards of that meld \
(`onto`), or not at all: unless every layoff gives `meld` (then they are played in the order \
given), the referee places each where the record allows so that every knocker meld stays a \
meld, and the result's `defender.layoffs` shows where each went.\n\n\
The answer is 200 whether or not the hand was legal: `legal`, the first `violation` \
(`action` index, stable `code`, `message`, and a `pointer` down to the field at fault, \
such as `/actions/7/card`) and the `result`: the score as \
`/v1/hands/score` gives it for the final hands, `{\"void\": true}`, or null when the \
transcript stops before the hand ends or an action is illegal. A knock with no reply is \
scored with the defender's best reply. 422 is only for a deal that cannot have been dealt \
(`wrong_card_count`, `duplicate_card`), a draw the record cannot tell (`unrecorded_draw`), \
a joker the profile's deck does not hold (`joker_not_in_deck`), or invalid profile \
overrides.\n\n\
Under a profile with jokers the deck holds 53 or 54 cards: `X1`/`X2` are dealt, drawn and \
discarded like any card (the full stock is 32 or 33 cards), the knock and the reply may \
declare melds holding jokers with a `jokers` map beside `melds`, and a joker laid off names \
its `stands_for`. Under `joker_pickup_must_meld` a joker taken from the discard pile must be \
melded that turn, by a knock (`joker_not_melded`).",
    request_body(
        content = AuditRequest,
        examples(
            ("legal_knock" = (summary = "A short legal hand: pass, pass, draw, knock, lay off",
                value = json!(examples::legal_knock()))),
            ("as_recorded" = (summary = "The same hand as a recorder has it: only the drawn stock card, layoffs placed by the referee",
                value = json!(examples::as_recorded()))),
            ("declared_no_layoffs" = (summary = "The same hand with a reply laying off nothing (`\"layoffs\": []`)",
                value = json!(examples::declared_no_layoffs()))),
            ("illegal_discard" = (summary = "The upcard taken and discarded at once",
                value = json!(examples::illegal_discard()))),
            ("unfinished" = (summary = "A transcript that stops mid-hand",
                value = json!(examples::unfinished()))),
        )
    ),
    responses(
        (status = 200, description = "The verdict: legal or the first violation, and the result.",
         body = AuditResponse,
         examples(
            ("legal_knock" = (summary = "Legal; scored as /v1/hands/score scores it",
                value = json!(examples::answer(examples::legal_knock())))),
            ("as_recorded" = (summary = "Scored as the whole record is; the result shows where each layoff went",
                value = json!(examples::answer(examples::as_recorded())))),
            ("declared_no_layoffs" = (summary = "7H and 4S stay deadwood",
                value = json!(examples::answer(examples::declared_no_layoffs())))),
            ("illegal_discard" = (summary = "discard_just_taken at action 1",
                value = json!(examples::answer(examples::illegal_discard())))),
            ("unfinished" = (summary = "Legal so far, no result",
                value = json!(examples::answer(examples::unfinished())))),
         )),
        AuditErrors,
    )
)]
#[post("/v1/hands/audit")]
pub async fn audit_hand(
    http: HttpRequest,
    body: ValidJson<AuditRequest>,
    ServerLimits(limits): ServerLimits,
    ServerKeys(keys): ServerKeys,
) -> Result<HttpResponse, HttpProblem> {
    let wanted = negotiate(http.headers(), Offers::JsonAndPictures)?;
    let (request, body) = body.into_parts();
    // The replay draws the deal as cards (dealt from the seeds when the
    // record gives seeds: one more deal, as the audit itself makes) and the
    // actions as recorded, kept before the audit takes the request.
    let record = (wanted != Representation::Json).then(|| HandRecord::of(&request));
    let answer = verdict(request, &body, &limits, &keys)?;
    pictures::respond(wanted, &answer, |answer| {
        record
            .as_ref()
            .map(|record| Picture::HandAudit(answer, record))
    })
}
gin_contract::problem_responses!(
    /// The error answers of `/v1/hands/audit/batch`.
    AuditBatchErrors: [MalformedRequest, BatchTimeout, LineTooLong, UnsupportedMediaType, UnsupportedContentEncoding, MalformedJson, InvalidBody, PayloadTooLarge, Overloaded, TooManyLines, RequestTimeout]
);
/// Audits many hands.
#[utoipa::path(
    tag = "hands",
    summary = "Audit many hands (NDJSON)",
    description = "The bulk form of `POST /v1/hands/audit`: one `AuditRequest` per line \
(NDJSON, `application/x-ndjson`), optionally with an `id`; one `AuditBatchLine` per request \
line in the same order, streamed (`result` or `problem`; see `POST /v1/hands/analyze/batch` for \
the framing). A line asking for a `receipt` gets one for that line.",
    request_body(content = Vec<AuditRequestLine>, content_type = "application/x-ndjson",
        description = "NDJSON: one `AuditRequest` per line (each item of the schema is a line).",
        example = json!(examples::batch())),
    responses(
        (status = 200, description = "NDJSON: one `AuditBatchLine` per request line (each item of the schema is a line).",
         content_type = "application/x-ndjson", body = Vec<AuditBatchLine>,
         example = json!(examples::batch_answer())),
        AuditBatchErrors,
    )
)]
#[post("/v1/hands/audit/batch")]
pub async fn audit_hands(
    request: HttpRequest,
    payload: web::Payload,
    ServerLimits(limits): ServerLimits,
    ServerKeys(keys): ServerKeys,
) -> Result<HttpResponse, HttpProblem> {
    bulk::respond(request, payload, "audit_hand", move |line: &[u8]| {
        verdict(from_slice(line)?, line, &limits, &keys)
    })
    .await
}

batch_line_schema!(AuditBatchLine, AuditResponse);
request_line_schema!(AuditRequestLine, AuditRequest);
