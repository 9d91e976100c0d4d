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
//! A resource imports no other resource: request and response pieces that two
//! of them need live in the shared modules ([`cards`], [`profile_spec`],
//! [`knock`], [`hand_errors`], [`jokers`]), so each resource can be read, changed or
//! removed on its own.
//!
//! Registering through `utoipa_actix_web`'s `ServiceConfig` routes the handler
//! *and* adds its operation to the OpenAPI document; the tests in
//! `tests/api/openapi.rs` then check the operation is fully documented (summary,
//! description, tag declared in [`openapi::ApiDoc`], examples of every body,
//! 4xx responses as problem+json), and `tests/api/error_codes.rs` that the
//! error codes its `problem_responses!` lists are exactly those it answers
//! with. The `sample` module there is a complete handler written this way.
//! After adding or changing an operation, regenerate the committed document:
//! `cargo run -- openapi > openapi/openapi.json`.

use actix_web::App;
use utoipa::OpenApi as _;
use utoipa_actix_web::AppExt;

use self::limits::RequestLimits;
use self::ndjson::BatchLimits;
pub use utoipa_actix_web::service_config::ServiceConfig;

// Resources, one module each. None imports another: what two of them share
// lives in a shared module below (a test in this file keeps it so).
pub mod audit;
pub mod deals;
pub mod hands;
pub mod keys;
pub mod layoffs;
pub mod limits;
pub mod match_audit;
pub mod matches;
pub mod melds;
pub mod problems;
pub mod profiles;

// Request and response pieces shared by the resources.
pub mod cards;
pub mod formats;
pub mod hand_errors;
pub mod jokers;
pub mod json_batch;
pub mod knock;
pub mod ndjson;
pub mod profile_spec;
pub mod receipt;
pub mod score_sheet;
pub mod spool;
pub mod transcript;

// The HTTP machinery: errors, body extraction, observability, the document.
pub mod error_codes;
pub mod fallback;
pub mod json;
pub mod metrics;
pub mod observe;
pub mod openapi;
pub mod ops;
pub mod problem;

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
        .configure(match_audit::configure)
        .configure(keys::configure)
        .configure(profiles::configure)
        .configure(audit::configure)
        .configure(deals::configure)
        .configure(problems::configure);
}

/// The OpenAPI document of every route registered by [`configure`], with the
/// default request ceilings: printed by `gin-referee openapi` and committed as
/// `openapi/openapi.json`.
pub fn openapi() -> utoipa::openapi::OpenApi {
    openapi_for(&RequestLimits::default(), &BatchLimits::default())
}

/// The document a server with these ceilings serves at `/api-docs/openapi.json`:
/// its `maxItems`/`maxLength` are the ones that server enforces (a batch body's
/// `maxItems`, its `--batch-max-lines`).
pub fn openapi_for(limits: &RequestLimits, batch: &BatchLimits) -> utoipa::openapi::OpenApi {
    let (_app, mut api) = App::new()
        .into_utoipa_app()
        .openapi(openapi::ApiDoc::openapi())
        .configure(configure)
        .split_for_parts();
    // The ceilings are flags, not constants, so they are written into the
    // generated document rather than into `#[schema]` attributes. A place not
    // found leaves that schema without its bound (a test keeps the list whole).
    limits.apply_to_openapi(&mut api, batch);
    json_batch::document(&mut api);
    openapi::append_error_table(&mut api);
    openapi::finish(&mut api);
    api
}

/// The document as committed: pretty JSON with a trailing newline.
pub fn openapi_json() -> Result<String, serde_json::Error> {
    openapi().to_pretty_json().map(|json| json + "\n")
}

#[cfg(test)]
mod tests {
    /// The source files of each resource module.
    const RESOURCES: &[(&str, &[&str])] = &[
        ("audit", &[include_str!("audit.rs")]),
        ("deals", &[include_str!("deals.rs")]),
        ("hands", &[include_str!("hands.rs")]),
        ("keys", &[include_str!("keys.rs")]),
        ("layoffs", &[include_str!("layoffs.rs")]),
        (
            "matches",
            &[
                include_str!("matches.rs"),
                include_str!("matches/request.rs"),
            ],
        ),
        ("match_audit", &[include_str!("match_audit.rs")]),
        ("melds", &[include_str!("melds.rs")]),
        ("problems", &[include_str!("problems.rs")]),
        ("profiles", &[include_str!("profiles.rs")]),
    ];

    #[test]
    fn every_configured_resource_is_listed_here() {
        let this_file = include_str!("mod.rs");
        let start = this_file
            .find("\npub fn configure(")
            .expect("mod.rs defines configure");
        let body = &this_file[start..];
        let body = &body[..body.find("\n}").unwrap_or(body.len())];
        for (name, _) in RESOURCES {
            assert!(
                body.contains(&format!(".configure({name}::configure)")),
                "{name} is listed but not configured"
            );
        }
        assert_eq!(
            body.matches(".configure(").count(),
            RESOURCES.len(),
            "a configured resource is missing from RESOURCES"
        );
    }

    #[test]
    fn no_resource_imports_another() {
        for (name, sources) in RESOURCES {
            for (other, _) in RESOURCES.iter().filter(|(other, _)| other != name) {
                for path in [format!("super::{other}"), format!("api::{other}")] {
                    assert!(
                        !sources.iter().any(|source| source.contains(&path)),
                        "{name} uses {path}: move what the two share to a shared module"
                    );
                }
            }
        }
    }
}
