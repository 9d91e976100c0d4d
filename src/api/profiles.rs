//! `GET /v1/profiles` and `GET /v1/profiles/{name}`: the rule presets with every
//! parameter resolved.

use actix_web::{get, web};

use super::ServiceConfig;
use super::problem::Problem;
use super::profile_spec::ProfileSchema;
use gin_rules::{Preset, Profile};

/// Lists the presets.
#[utoipa::path(
    tag = "profiles",
    summary = "List the rule profiles",
    description = "Every preset (standard, oklahoma, straight, tournament, hollywood, pagat, \
        schneider, open-gin, partnership) with every parameter resolved. Any scoring request may name one \
        or override its parameters.",
    responses(
        (status = 200, description = "Every preset.", body = Vec<ProfileSchema>,
         example = json!([Preset::Standard.profile(), Preset::Oklahoma.profile()])),
    )
)]
#[get("/v1/profiles")]
pub async fn list_profiles() -> web::Json<Vec<Profile>> {
    web::Json(Preset::ALL.iter().map(|p| p.profile()).collect())
}

/// One preset.
#[utoipa::path(
    tag = "profiles",
    summary = "Get one rule profile",
    description = "One preset by name with every parameter resolved.",
    params(("name" = String, Path, description = "A preset name.", example = "oklahoma")),
    responses(
        (status = 200, description = "The preset.", body = ProfileSchema, example = json!(Preset::Oklahoma.profile())),
        (status = 404, description = "No preset by that name (`unknown_profile`).",
         content_type = "application/problem+json", body = Problem,
         example = json!({"type": "https://gin-referee.dev/problems/unknown_profile", "title": "Unknown profile",
             "status": 404, "detail": "unknown profile \"gin\"", "code": "unknown_profile"})),
    )
)]
#[get("/v1/profiles/{name}")]
pub async fn get_profile(name: web::Path<String>) -> Result<web::Json<Profile>, Problem> {
    name.parse::<Preset>()
        .map(|preset| web::Json(preset.profile()))
        .map_err(|e| Problem::not_found(e.code(), e.to_string()))
}

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(list_profiles).service(get_profile);
}
