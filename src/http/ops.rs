//! Operational endpoints: liveness and readiness probes, and the `/docs` redirect.

use actix_web::http::header;
use actix_web::{HttpResponse, get, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Probe answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Status {
    /// `"ok"` from `/healthz`, `"ready"` from `/readyz`.
    #[schema(example = "ok")]
    pub status: String,
}

/// Liveness probe.
#[utoipa::path(
    tag = "operations",
    summary = "Liveness probe",
    description = "Answers 200 while the process can serve HTTP at all. It checks nothing \
        else, so a failure means the process should be restarted.",
    responses(
        (status = 200, description = "The process is alive.", body = Status,
         example = json!({"status": "ok"})),
    )
)]
#[get("/healthz")]
pub async fn healthz() -> web::Json<Status> {
    web::Json(Status {
        status: "ok".to_owned(),
    })
}

/// Readiness probe.
#[utoipa::path(
    tag = "operations",
    summary = "Readiness probe",
    description = "Answers 200 when the service can take traffic. The referee has no \
        dependencies (no database, no downstream service) and builds everything it \
        needs before it binds its socket, so it is ready as soon as it answers; during \
        a graceful shutdown it stops accepting connections, which a load balancer sees \
        as not ready.",
    responses(
        (status = 200, description = "Ready to serve.", body = Status,
         example = json!({"status": "ready"})),
    )
)]
#[get("/readyz")]
pub async fn readyz() -> web::Json<Status> {
    web::Json(Status {
        status: "ready".to_owned(),
    })
}

/// `/docs` -> `/docs/`: Swagger UI loads its assets relative to the page, which
/// only resolves under the trailing slash.
pub async fn docs_redirect() -> HttpResponse {
    HttpResponse::PermanentRedirect()
        .insert_header((header::LOCATION, "/docs/"))
        .finish()
}
