//! `POST /v1/matches/state`: the live referee of a whole match. An app sends
//! the match so far exactly as `/v1/matches/audit` takes it and is told where
//! the match stands, who plays the next hand, who acts now and each table in
//! play as `/v1/hands/state` answers it (the referee is
//! [`gin_rules::match_state`] and its siblings, the match audit's engine).
//!
//! The handlers only: each reads its body with the transport's extractor and
//! answers with the operation of `gin_contract::answers::match_state`, which
//! the `batch` command and the Python module call too.

use actix_web::{post, web};

use crate::http::admission::limits::ServerLimits;
use crate::http::json::ValidJson;
use crate::http::problem::HttpProblem;
use gin_contract::answers::match_state::*;

/// The route, also the key of its own body limit (the match audit's).
pub const ROUTE: &str = "/v1/matches/state";

pub fn configure(cfg: &mut super::ServiceConfig) {
    cfg.service(match_state);
}
gin_contract::problem_responses!(
    /// The error answers of `/v1/matches/state`.
    MatchStateErrors: [MalformedJson, InvalidBody, PayloadTooLarge, Overloaded, UnsupportedMediaType, UnsupportedContentEncoding, RequestTimeout, UnknownProfile, InvalidProfile, InvalidProfileCombination, DuplicateCard, WrongCardCount, UnrecordedDraw, JokerNotInDeck, ClientSeedTooLong, BlankPlayerName, DuplicatePlayerName, UnknownPlayer, HollywoodNotDefined, BlankTeamName, PlayersOrTeams, SeatOrSpectator, WrongHandShape]
);
/// Where a match stands and what may be done now.
#[utoipa::path(
    tag = "matches",
    summary = "The live state of a whole match",
    description = "For an app that runs a match: \"where does the match stand, and what may be \
done now?\". The body is the match so far exactly as `POST /v1/matches/audit` takes it \
(`profile`, `players` or `teams`, `hands`, the last possibly in progress), without `claimed`, \
plus optional `seat` (a player's name), `spectator` (`true`: the public's view) and \
`openspiel`. Stateless: the record is the state; append the move taken, or the next hand, and \
ask again.\n\n\
The answer: `legal` and `violation` as the match audit; `phase`: `deal` (no hand in \
progress: deal the next), `play` (a hand, or a partnership deal's tables, in progress; a hand \
stopped at its knock is in play), `over` (the match is complete); `next_deal` in `deal` after \
the first hand: two players `{dealer, non_dealer}` by the profile's `next_dealer`, three \
players `{players, sits_out}` by the rotation, partnerships `{tables: [{players}, {players}]}` \
by the pairings, and for seeded deals the match's `commitment`, `client_seed` and the least \
`nonce` the next deal may use; `to_act`: the names of the players who may act now; `tables`: \
each table in play as `POST /v1/hands/state` answers it plus `dealer` and `non_dealer` (a \
partnership table that is over stays listed until the deal ends); `score`: the \
`POST /v1/matches/score` answer of the hands that are over. Every listed move appended keeps \
the record legal for the match audit; a hand seated otherwise than `next_deal` says is \
refused with the audit's code (`wrong_dealer`, `rotation_broken`, `pairing_broken`). After a \
violation no one acts: the violating hand's tables are shown, nothing listed.\n\n\
With `seat`, the player's own table is its seat's view and any other table the public's; \
with `spectator`, every table is the public's (no `legal_actions`, no `layable`, no hand: the \
discard pile, the counts, the cards taken from the pile, what is laid down, and a `view.log` \
whose stock draws name no card). No card or seed the viewer cannot know appears anywhere in \
the answer, messages included. **Without either, the referee's whole tables**: for the app's \
server only. The match audit's limits apply (`--match-audit-body-limit`); no receipt.",
    request_body(
        content = MatchStateRequest,
        examples(
            ("two_deal" = (summary = "Two players, a hand over: who deals next",
                value = json!(examples::two_deal()))),
            ("two_play" = (summary = "Two players, a hand in play, as Ann sees it",
                value = json!(examples::two_play()))),
            ("two_over" = (summary = "A game to 25, ended by the first hand",
                value = json!(examples::two_over()))),
            ("three_deal" = (summary = "Three players: who plays next, who sits out",
                value = json!(examples::three_deal()))),
            ("three_play" = (summary = "Three players, the second hand in play, as Cy sees it",
                value = json!(examples::three_play()))),
            ("three_over" = (summary = "Three players, a game to 50, ended by the first hand",
                value = json!(examples::three_over()))),
            ("partnership_deal" = (summary = "Partnerships, a deal over: the next pairings",
                value = json!(examples::partnership_deal()))),
            ("partnership_play" = (summary = "A partnership deal in play, as the public sees it",
                value = json!(examples::partnership_play()))),
            ("partnership_over" = (summary = "Partnerships, a game to 100, ended by the first deal",
                value = json!(examples::partnership_over()))),
            ("hollywood_deal" = (summary = "Hollywood: three games at once, who deals next",
                value = json!(examples::hollywood_deal()))),
            ("seeded_deal" = (summary = "A seeded match: the next deal's seeds",
                value = json!(examples::seeded_deal()))),
            ("wrong_dealer" = (summary = "A hand dealt by the wrong player",
                value = json!(examples::wrong_dealer()))),
        )
    ),
    responses(
        (status = 200, description = "Where the match stands and what may be done now.",
         body = MatchStateResponse,
         examples(
            ("two_deal" = (summary = "Bob deals next (the deal alternates)",
                value = json!(examples::answer(examples::two_deal())))),
            ("two_play" = (summary = "Ann discards or knocks",
                value = json!(examples::answer(examples::two_play())))),
            ("two_over" = (summary = "Bob wins the game",
                value = json!(examples::answer(examples::two_over())))),
            ("three_deal" = (summary = "Bob meets Cy; Ann sits out",
                value = json!(examples::answer(examples::three_deal())))),
            ("three_play" = (summary = "Cy discards or knocks; Ann sits out",
                value = json!(examples::answer(examples::three_play())))),
            ("three_over" = (summary = "Bob wins the game",
                value = json!(examples::answer(examples::three_over())))),
            ("partnership_deal" = (summary = "Ann meets Dee, Cy meets Bob",
                value = json!(examples::answer(examples::partnership_deal())))),
            ("partnership_play" = (summary = "Bob to act at one table; the other is over",
                value = json!(examples::answer(examples::partnership_play())))),
            ("partnership_over" = (summary = "East-West win the game",
                value = json!(examples::answer(examples::partnership_over())))),
            ("hollywood_deal" = (summary = "Bob's 60 opens his first game; Bob deals next",
                value = json!(examples::answer(examples::hollywood_deal())))),
            ("seeded_deal" = (summary = "The commitment, client seed and least nonce",
                value = json!(examples::answer(examples::seeded_deal())))),
            ("wrong_dealer" = (summary = "wrong_dealer at hands[1]",
                value = json!(examples::answer(examples::wrong_dealer())))),
         )),
        MatchStateErrors,
    )
)]
#[post("/v1/matches/state")]
pub async fn match_state(
    body: ValidJson<MatchStateRequest>,
    ServerLimits(limits): ServerLimits,
) -> Result<web::Json<MatchStateResponse>, HttpProblem> {
    Ok(web::Json(respond(&body.into_inner(), &limits)?))
}
