//! `GET /v1/profiles` and `GET /v1/profiles/{name}`: the rule presets with every
//! parameter resolved.

use actix_web::{get, web};

use super::ServiceConfig;
use crate::http::problem::HttpProblem;
use crate::http::problem::{ErrorCode, Problem};
use gin_contract::wire::profile_spec::ProfileSchema;
use gin_rules::{Preset, Profile};

/// Lists the presets.
#[utoipa::path(
    tag = "profiles",
    summary = "List the rule profiles",
    description = "Every preset (standard, oklahoma, straight, tournament, hollywood, pagat, \
        schneider, open-gin, partnership, jokers, eaai) with every parameter resolved; the five joker \
        parameters (`jokers`, `joker_deadwood`, `joker_min_natural`, `joker_layoff`, \
        `joker_pickup_must_meld`) appear only in a profile that plays with jokers. Any scoring \
        request may name one or override its parameters.",
    responses(
        (status = 200, description = "Every preset.", body = Vec<ProfileSchema>,
         example = json!([Preset::Standard.profile(), Preset::Oklahoma.profile()])),
    )
)]
#[get("/v1/profiles")]
pub async fn list_profiles() -> web::Json<Vec<Profile>> {
    web::Json(Preset::ALL.iter().map(|p| p.profile()).collect())
}

gin_contract::problem_responses!(
    /// The error answers of `/v1/profiles/{name}`.
    ProfileErrors: [NotFound]
);

/// One preset.
#[utoipa::path(
    tag = "profiles",
    summary = "Get one rule profile",
    description = "One preset by name with every parameter resolved.",
    params(("name" = String, Path, description = "A preset name.", example = "oklahoma")),
    responses(
        (status = 200, description = "The preset.", body = ProfileSchema, example = json!(Preset::Oklahoma.profile())),
        ProfileErrors,
    )
)]
#[get("/v1/profiles/{name}")]
pub async fn get_profile(name: web::Path<String>) -> Result<web::Json<Profile>, HttpProblem> {
    name.parse::<Preset>()
        .map(|preset| web::Json(preset.profile()))
        .map_err(|e| HttpProblem(Problem::new(ErrorCode::NotFound, e.to_string())))
}

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(list_profiles).service(get_profile);
}
