//! `POST /v1/matches/audit`: a whole match (two players, three players, or a
//! partnership) from its record, every hand replayed and checked, the match
//! scored from the hands as played (the referee is [`gin_rules::audit_match`]
//! and its siblings; their module docs give the checks between hands and their
//! order).
//!
//! The handlers only: each reads its body with the transport's extractor and
//! answers with the operation of `gin_contract::answers::match_audit`, which the
//! `batch` command and the Python module call too.

use actix_web::{HttpRequest, HttpResponse, post};

use crate::http::accept::{Offers, negotiate};
use crate::http::json::ValidJson;
use crate::http::limits::ServerLimits;
use crate::http::problem::HttpProblem;
use crate::http::signing::ServerKeys;
use crate::pictures::{self, Picture};
use gin_contract::answers::match_audit::*;

/// The route, also the key of its own body limit.
pub const ROUTE: &str = "/v1/matches/audit";

pub fn configure(cfg: &mut super::ServiceConfig) {
    cfg.service(audit_match);
}
gin_contract::problem_responses!(
    /// The error answers of `/v1/matches/audit`.
    MatchAuditErrors: [MalformedJson, InvalidBody, PayloadTooLarge, Overloaded, UnsupportedMediaType, UnsupportedContentEncoding, RequestTimeout, UnknownProfile, InvalidProfile, InvalidProfileCombination, DuplicateCard, WrongCardCount, UnrecordedDraw, JokerNotInDeck, ClientSeedTooLong, BlankPlayerName, DuplicatePlayerName, UnknownPlayer, HollywoodNotDefined, BlankTeamName, PlayersOrTeams, WrongHandShape]
);
/// Audit a whole match.
#[utoipa::path(
    tag = "matches",
    summary = "Audit a whole match from its record",
    description = "Replays every hand of a match from its record and scores the match from \
the hands as played, exactly as `POST /v1/matches/score` would. Each hand is \
`{\"dealer\": name, \"non_dealer\": name, \"deal\", \"actions\"}`, the deal and actions as for \
`/v1/hands/audit` (seats `dealer` and `non_dealer`); `non_dealer` may be left out with two \
players. Three players: `players` lists three and the two at each hand must follow the \
rotation (`rotation_broken`). Partnership: `teams` instead of `players`, each hand a deal \
`{\"tables\": [hand, hand]}` whose pairings alternate (`pairing_broken`), violations then \
name the `table`. Beyond each hand's own checks: no hand after the game \
(every Hollywood game) ended (`hand_after_game_end`); the dealer is the one the profile's \
`next_dealer` seats in a two-player match (`alternate`, the default: the deal passes after \
every hand, a void one too; `winner`: the winner of a hand deals the next, and after a hand \
that scores nothing the same dealer deals again; `alternate_after_scored`, the `eaai` preset's: \
the deal passes after a hand that scores, and after one that scores nothing the same dealer \
deals again; the first hand's dealer is free): \
`wrong_dealer`; a hand that stops \
before its end is a match in progress when it is the last, `hand_unfinished` otherwise; seeded \
deals share one commitment and client seed with strictly increasing nonces \
(`deal_commitment_mismatch`, `deal_seeds_differ`, `deal_nonce_not_increasing`).\n\n\
The answer is 200 for any record that can be replayed: `legal`, the first `violation` (`hand`, \
`action` or null for a fault of the whole hand, `code`, `message`, and a JSON `pointer` into \
the request), `hands` (each hand's `/v1/hands/audit` answer, up to the violating one) and \
`match` (the `/v1/matches/score` answer for the complete legal hands). With `claimed`, the \
client's own result in the shape of `match` or any part of it, `claimed.agrees` says whether \
every given field is the referee's and `claimed.differences` lists the others. The body limit \
is its own (`--match-audit-body-limit`, 1 MiB by default).",
    request_body(
        content = MatchAuditRequest,
        examples(
            ("legal" = (summary = "Two hands, the deal alternating; the client's claim checked",
                value = json!(examples::legal()))),
            ("wrong_dealer" = (summary = "The second hand dealt by the first hand's dealer",
                value = json!(examples::wrong_dealer()))),
        )
    ),
    responses(
        (status = 200, description = "The verdict: legal or the first violation, each hand's \
audit, the match's score and the claim's check.", body = MatchAuditResponse,
         examples(
            ("legal" = (summary = "Legal; the claim is off by one point",
                value = json!(examples::answer(examples::legal())))),
            ("wrong_dealer" = (summary = "wrong_dealer at hands[1]",
                value = json!(examples::answer(examples::wrong_dealer())))),
         )),
        MatchAuditErrors,
    )
)]
#[post("/v1/matches/audit")]
pub async fn audit_match(
    http: HttpRequest,
    body: ValidJson<MatchAuditRequest>,
    ServerLimits(limits): ServerLimits,
    ServerKeys(keys): ServerKeys,
) -> Result<HttpResponse, HttpProblem> {
    let wanted = negotiate(http.headers(), Offers::JsonAndPictures)?;
    let (request, body) = body.into_parts();
    let answer = respond(&request, &body, &limits, &keys)?;
    pictures::respond(wanted, &answer, |answer| Some(Picture::MatchAudit(answer)))
}
