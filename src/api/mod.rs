//! The HTTP edge: one module per resource, plus the shared machinery.
//!
//! Adding a resource is one file and one line:
//!
//! 1. `src/api/<resource>.rs` with handlers annotated `#[utoipa::path(...)]` above
//!    `#[get(..)]`/`#[post(..)]`, bodies read with [`json::ValidJson`], errors
//!    returned as [`problem::Problem`], and a
//!    `pub fn configure(cfg: &mut ServiceConfig)` that calls `cfg.service(handler)`
//!    for each handler;
//! 2. `mod <resource>;` here and `cfg.configure(<resource>::configure)` in
//!    [`configure`].
//!
//! Registering through `utoipa_actix_web`'s `ServiceConfig` routes the handler
//! *and* adds its operation to the OpenAPI document; the tests in
//! `tests/api/openapi.rs` then check the operation is fully documented (summary,
//! description, tag declared in [`openapi::ApiDoc`], examples of every body,
//! 4xx responses as problem+json, and `JsonBodyRejections` when it reads a
//! body). The `sample` module there is a complete handler written this way.
//! After adding or changing an operation, regenerate the committed document:
//! `cargo run -- openapi > openapi/openapi.json`.

use actix_web::App;
use utoipa::OpenApi as _;
use utoipa_actix_web::AppExt;

use self::limits::RequestLimits;
pub use utoipa_actix_web::service_config::ServiceConfig;

pub mod audit;
pub mod common;
pub mod fallback;
#[cfg(test)]
mod fuzz;
pub mod hands;
pub mod json;
pub mod layoffs;
pub mod limits;
pub mod matches;
pub mod melds;
pub mod metrics;
pub mod observe;
pub mod openapi;
pub mod ops;
pub mod problem;
pub mod profiles;

/// Registers every documented route. Called once per worker to build the
/// router, and by [`openapi()`] to build the document.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(ops::healthz)
        .service(ops::readyz)
        .service(metrics::get_metrics)
        .configure(melds::configure)
        .configure(hands::configure)
        .configure(layoffs::configure)
        .configure(matches::configure)
        .configure(profiles::configure)
        .configure(audit::configure);
}

/// The OpenAPI document of every route registered by [`configure`], with the
/// default request ceilings: printed by `gin-referee openapi` and committed as
/// `openapi/openapi.json`.
pub fn openapi() -> utoipa::openapi::OpenApi {
    openapi_for(&RequestLimits::default())
}

/// The document a server with these ceilings serves at `/api-docs/openapi.json`:
/// its `maxItems`/`maxLength` are the ones that server enforces.
pub fn openapi_for(limits: &RequestLimits) -> utoipa::openapi::OpenApi {
    let (_app, api) = App::new()
        .into_utoipa_app()
        .openapi(openapi::ApiDoc::openapi())
        .configure(configure)
        .split_for_parts();
    // The ceilings are flags, not constants, so they are written into the
    // generated document rather than into `#[schema]` attributes. The round trip
    // through JSON cannot fail for a document utoipa itself produced; if it ever
    // did, the unpatched document is still a correct description of the shapes.
    let Ok(mut document) = serde_json::to_value(&api) else {
        return api;
    };
    limits.apply_to_document(&mut document);
    serde_json::from_value(document).unwrap_or(api)
}

/// The document as committed: pretty JSON with a trailing newline.
pub fn openapi_json() -> Result<String, serde_json::Error> {
    openapi().to_pretty_json().map(|json| json + "\n")
}
