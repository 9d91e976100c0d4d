//! Operational endpoints: liveness and readiness probes, the Prometheus
//! metrics ([`Metrics`] renders them) and the `/docs` redirect.

use actix_web::http::header;
use actix_web::{HttpResponse, get, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::problem::{HttpProblem, Problem};
use crate::monitoring::metrics::Metrics;

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

/// Prometheus metrics of this server.
#[utoipa::path(
    tag = "operations",
    operation_id = "metrics",
    summary = "Prometheus metrics",
    description = "Metrics in the Prometheus text format (version 0.0.4):\n\n\
        - `http_requests_total{method,route,status}`: requests answered;\n\
        - `http_request_duration_seconds{method,route,status}`: latency histogram, buckets from 50 µs to 2.5 s;\n\
        - `http_problems_total{code,route}`: problem answers by error code (see `GET /problems`);\n\
        - `http_malformed_requests_total{reason}`: requests refused before reaching a route (`malformed_request`, `request_head_too_large`);\n\
        - `http_connections_cut_total{reason}`: connections closed for a client too slow (`request_head_timeout`, `stalled`, `shed`);\n\
        - `process_*`: CPU seconds, resident and virtual memory, open and maximum file descriptors, threads, start time.\n\n\
        `route` is the matched route pattern (for example `/v1/profiles/{name}`), `unmatched` \
        for a path that matches no route, or `unknown` for a request lost to a server bug, \
        so a client cannot grow the label set.",
    responses(
        (status = 200, description = "The metrics, in Prometheus text format.",
         content_type = "text/plain; version=0.0.4", body = String,
         example = "# HELP http_requests_total HTTP requests answered.\n# TYPE http_requests_total counter\nhttp_requests_total{method=\"GET\",route=\"/healthz\",status=\"200\"} 3\n"),
    )
)]
#[get("/metrics")]
pub async fn get_metrics(metrics: web::Data<Metrics>) -> Result<HttpResponse, HttpProblem> {
    let text = metrics
        .render()
        .map_err(|err| HttpProblem(Problem::internal(&err)))?;
    Ok(HttpResponse::Ok()
        .content_type(prometheus::TEXT_FORMAT)
        .body(text))
}

/// `/docs` -> `/docs/`: Swagger UI loads its assets relative to the page, which
/// only resolves under the trailing slash.
pub async fn docs_redirect() -> HttpResponse {
    HttpResponse::PermanentRedirect()
        .insert_header((header::LOCATION, "/docs/"))
        .finish()
}
