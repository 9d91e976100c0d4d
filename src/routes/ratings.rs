//! `POST /v1/ratings`: Weng-Lin (Bradley-Terry, full pairing) ratings from
//! results, stateless. The model, its constants and the bounds on what a
//! request may cost are argued in `gin_contract::answers::ratings`.
//!
//! The handler only: it reads its body with the transport's extractor and
//! answers with the operation the Python module and the arena call too.

use actix_web::{post, web};

use super::ServiceConfig;
use crate::http::admission::limits::ServerLimits;
use crate::http::json::ValidJson;
use crate::http::problem::HttpProblem;
use gin_contract::answers::ratings::*;

gin_contract::problem_responses!(
    /// The error answers of `/v1/ratings`.
    RatingsErrors: [MalformedJson, InvalidBody, PayloadTooLarge, Overloaded, UnsupportedMediaType, UnsupportedContentEncoding, RequestTimeout, BlankPlayerName, DuplicatePlayerName, UnknownPlayer, PlayersOrTeams, RatingsOutOfRange]
);
/// Rates players from results.
#[utoipa::path(
    tag = "ratings",
    summary = "Rate players from results (Weng-Lin)",
    description = "Applies results, oldest first, to players' ratings: Weng and Lin's Bayesian \
        approximation with the Bradley-Terry model and full pairing (OpenSkill's \
        `BradleyTerryFull`), beta 25/6, kappa 1e-4, no drift between results (tau 0). A player \
        not in `ratings` starts at mu 25, sigma 25/3. A result is two `players` and the \
        `winner` (null for a tie), or `teams` (three players: three teams of one; \
        partnerships: two teams of two) with `ranks` (lower is better, equal ranks tie). The \
        answer gives every player's `mu`, `sigma`, `rating` (mu - 3 sigma) and the number of \
        results counted, and `standings`, the names by rating, best first. At most 10000 \
        results, 16 players in a result and 10000 ratings given; a sigma must be above 0 and \
        at most 1e6 and a mu within ±1e6.",
    request_body(content = RatingsRequest, example = json!({
        "ratings": {"Ann": {"mu": 27.5, "sigma": 6.0}},
        "results": [
            {"players": ["Ann", "Bob"], "winner": "Ann"},
            {"players": ["Bob", "Cy"], "winner": null},
            {"teams": [["Ann", "Bob"], ["Cy", "Dee"]], "ranks": [2, 1]}
        ]})),
    responses(
        (status = 200, description = "The ratings after the results, and the standings.",
         body = RatingsResponse,
         example = json!({"ratings": {
            "Ann": {"mu": 27.72969490704384, "sigma": 5.8441363860164754, "rating": 10.197285748994414, "results": 2},
            "Bob": {"mu": 20.68247028709556, "sigma": 7.600931947790678, "rating": -2.1203255562764767, "results": 3},
            "Cy": {"mu": 26.834165051164856, "sigma": 7.875502906100591, "rating": 3.2076563328630847, "results": 2},
            "Dee": {"mu": 27.2537553913177, "sigma": 8.135756430360859, "rating": 2.846486100235122, "results": 1}},
            "standings": ["Ann", "Cy", "Dee", "Bob"]})),
        RatingsErrors,
    )
)]
#[post("/v1/ratings")]
pub async fn rate_players(
    body: ValidJson<RatingsRequest>,
    ServerLimits(limits): ServerLimits,
) -> Result<web::Json<RatingsResponse>, HttpProblem> {
    Ok(web::Json(rate(&body.into_inner(), &limits)?))
}

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(rate_players);
}
