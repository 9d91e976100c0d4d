//! `POST /v1/hands/state`: the live referee. A game server or a bot arena
//! sends the hand so far, exactly as `/v1/hands/audit` takes it, and is told
//! the phase, who acts, and every action that player may take now, each
//! `move` ready to append (the referee is [`gin_rules::hand_state`], the
//! audit's own turn machine; its docs argue why the listing is exactly what
//! the audit accepts). Stateless: the transcript is the state.
//!
//! The handlers only: each reads its body with the transport's extractor and
//! answers with the operation of `gin_contract::answers::state`, which the
//! `batch` command and the Python module call too.

use actix_web::{post, web};

use crate::http::admission::limits::ServerLimits;
use crate::http::json::ValidJson;
use crate::http::problem::HttpProblem;
use gin_contract::answers::state::*;
use gin_contract::wire::live::StateResponse;

pub fn configure(cfg: &mut super::ServiceConfig) {
    cfg.service(hand_state);
}
gin_contract::problem_responses!(
    /// The error answers of `/v1/hands/state`.
    StateErrors: [MalformedJson, InvalidBody, PayloadTooLarge, Overloaded, UnsupportedMediaType, UnsupportedContentEncoding, RequestTimeout, UnknownProfile, InvalidProfile, InvalidProfileCombination, DuplicateCard, WrongCardCount, UnrecordedDraw, JokerNotInDeck, ClientSeedTooLong]
);
/// What may be done now.
#[utoipa::path(
    tag = "hands",
    summary = "The legal moves now (live play)",
    description = "For a game server or a bot arena that runs a hand: \"what may be done \
now?\". The body is the hand so far exactly as `POST /v1/hands/audit` takes it (`profile`, \
`deal` as cards or seeds, `actions`), plus optional `seat` (`dealer` or `non_dealer`: answer \
with what that player may know) and `openspiel` (add OpenSpiel's `gin_rummy` action ids). \
Stateless: the transcript is the state; append the action taken and ask again.\n\n\
The answer: `legal` and `violation` exactly as the audit (an illegal transcript has no state \
past its first violation: no one acts); `phase` (`upcard_offer`, `draw`, `discard`, \
`last_discard_offer`, `reply`, `over`); `to_act`; `legal_actions`, each with a `move` written \
as the audit reads an action, to append as it is (the audit finds it legal; every well-formed \
action not listed is one the audit refuses, but that at the 50th-card offer, and for a joker \
that must be melded that turn, a take is listed only when a knock can follow it). A stock draw \
names no card. A knock is listed once per discard keeping the knocker within the knock limit \
(and once without a discard for big gin), with its least `deadwood` and `gin`. In the reply, \
the defender's best reply (melds and layoffs declared) and the reply laying nothing off, with \
`layable`; `laid_down` shows the knocker's melds. `result` once the hand is over. OpenSpiel \
ids: a card `suit * 13 + rank` (suits s, c, d, h; A..K as 0..12) to discard, 52 take, 53 draw \
from the stock, 54 pass, 55 knock (`openspiel_actions: [55, card]` for a knock) and 55 to take \
the 50th-card discard; none where OpenSpiel has no such action (jokers, big gin, replies).\n\n\
**Without `seat` the answer is the referee's whole table** (both hands and the stock's cards): \
for the app's server only, never for a player. With `seat`, no card that seat cannot know \
appears anywhere in the answer (the opponent's cards not taken from the pile, the stock), and \
a waiting seat gets no legal actions. Same limits and errors as `/v1/hands/audit`.",
    request_body(
        content = StateRequest,
        examples(
            ("upcard_offer" = (summary = "A new hand, as the non-dealer sees it",
                value = json!(examples::upcard_offer()))),
            ("draw" = (summary = "Both passed the upcard: the non-dealer draws from the stock",
                value = json!(examples::draw()))),
            ("discard" = (summary = "After the draw: discard or knock, with OpenSpiel ids",
                value = json!(examples::discard()))),
            ("reply" = (summary = "After the knock, as the defender sees it",
                value = json!(examples::reply()))),
            ("over" = (summary = "The hand is over",
                value = json!(examples::over()))),
            ("referee" = (summary = "No seat: the referee's whole table (the app's server only)",
                value = json!(examples::referee()))),
        )
    ),
    responses(
        (status = 200, description = "Where the hand stands and what may be done now.",
         body = StateResponse,
         examples(
            ("upcard_offer" = (summary = "Take the upcard (52) or pass (54)",
                value = json!(examples::answer(examples::upcard_offer())))),
            ("draw" = (summary = "Only the stock",
                value = json!(examples::answer(examples::draw())))),
            ("discard" = (summary = "Eleven discards and the knocks within the limit",
                value = json!(examples::answer(examples::discard())))),
            ("reply" = (summary = "Best reply, no layoffs, layable cards",
                value = json!(examples::answer(examples::reply())))),
            ("over" = (summary = "The result",
                value = json!(examples::answer(examples::over())))),
            ("referee" = (summary = "Both hands and the stock",
                value = json!(examples::answer(examples::referee())))),
         )),
        StateErrors,
    )
)]
#[post("/v1/hands/state")]
pub async fn hand_state(
    body: ValidJson<StateRequest>,
    ServerLimits(limits): ServerLimits,
) -> Result<web::Json<StateResponse>, HttpProblem> {
    Ok(web::Json(respond(body.into_inner(), &limits)?))
}
