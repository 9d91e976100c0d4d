//! The routes: one module per resource, and the router that registers them.
//!
//! A route is the HTTP face of an operation of the contract
//! (`gin_contract::answers`): the operation (request and answer types, the
//! function that answers) lives there, where the `batch` command and the
//! Python module call it too; the route adds the path, the extractors and the
//! documentation. Adding a resource:
//!
//! 1. the operation in `crates/gin-contract/src/answers/<resource>.rs` (and
//!    in `gin_contract::referee::Operation`, for the in-process callers);
//! 2. `src/routes/<resource>.rs` with handlers annotated `#[utoipa::path(...)]`
//!    above `#[get(..)]`/`#[post(..)]`, bodies read with
//!    [`ValidJson`](crate::http::json::ValidJson), errors returned as
//!    [`HttpProblem`](crate::http::problem::HttpProblem), and a
//!    `pub fn configure(cfg: &mut ServiceConfig)` that calls `cfg.service(handler)`
//!    for each handler;
//! 3. `pub mod <resource>;` here and `cfg.configure(<resource>::configure)` in
//!    [`configure`] (and the file in the list of the tests below).
//!
//! A resource imports no other resource: what two operations share lives in
//! `gin_contract::wire`, and the transport they all use in [`crate::http`], so
//! each resource can be read, changed or removed on its own (a test below
//! keeps it so).
//!
//! Registering through `utoipa_actix_web`'s `ServiceConfig` routes the handler
//! *and* adds its operation to the OpenAPI document; the tests in
//! `tests/api/transport/openapi.rs` then check the operation is fully
//! documented (summary, description, tag declared in
//! [`ApiDoc`](crate::http::openapi::ApiDoc), examples of every body, 4xx
//! responses as problem+json), and `tests/api/transport/error_codes.rs` that
//! the error codes its `problem_responses!` lists are exactly those it answers
//! with. The `sample` module there is a complete handler written this way.
//! After adding or changing an operation, regenerate the committed document:
//! `cargo run -- openapi > openapi/openapi.json`.
//!
//! The document is assembled here ([`openapi_for`]) rather than in
//! [`crate::http::openapi`], which holds its route-free pieces: it is made of
//! the registered routes, and the transport imports no route.

use actix_web::App;
use utoipa::OpenApi as _;
use utoipa_actix_web::AppExt;

use crate::http::admission::auth::KeysInForce;
use crate::http::admission::limits::{BatchLimits, LimitsInOpenApi, RequestLimits};
use crate::http::{openapi, ops};
pub use utoipa_actix_web::service_config::ServiceConfig;

// Resources, one module each. None imports another: what two of them share
// lives in `crate::wire` (a test in this file keeps it so).
pub mod audit;
pub mod deals;
pub mod hands;
pub mod keys;
pub mod layoffs;
pub mod match_audit;
pub mod match_state;
pub mod matches;
pub mod melds;
pub mod moves;
pub mod problems;
pub mod profiles;
pub mod ratings;
pub mod state;

/// Registers every documented route. Called once per worker to build the
/// router, and by [`openapi()`] to build the document.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(ops::healthz)
        .service(ops::readyz)
        .service(ops::get_metrics)
        .configure(melds::configure)
        .configure(hands::configure)
        .configure(layoffs::configure)
        .configure(matches::configure)
        .configure(match_audit::configure)
        .configure(match_state::configure)
        .configure(keys::configure)
        .configure(profiles::configure)
        .configure(audit::configure)
        .configure(state::configure)
        .configure(deals::configure)
        .configure(ratings::configure)
        .configure(moves::configure)
        .configure(problems::configure);
}

/// The OpenAPI document of every route registered by [`configure`], with the
/// default request ceilings, for a server started with API keys (its
/// description says so): printed by `gin-referee openapi` and committed as
/// `openapi/openapi.json`.
pub fn openapi() -> utoipa::openapi::OpenApi {
    openapi_for(&RequestLimits::default(), &BatchLimits::default())
}

/// The document of a server with these ceilings and API keys.
pub fn openapi_for(limits: &RequestLimits, batch: &BatchLimits) -> utoipa::openapi::OpenApi {
    served_openapi(limits, batch, KeysInForce::Required)
}

/// The document a server with these ceilings serves at `/api-docs/openapi.json`:
/// its `maxItems`/`maxLength` are the ones that server enforces (a batch body's
/// `maxItems`, its `--batch-max-lines`), and so are its key requirements
/// (none without a keys file).
pub fn served_openapi(
    limits: &RequestLimits,
    batch: &BatchLimits,
    keys: KeysInForce,
) -> utoipa::openapi::OpenApi {
    let (_app, mut api) = App::new()
        .into_utoipa_app()
        .openapi(openapi::ApiDoc::openapi())
        .configure(configure)
        .split_for_parts();
    // The ceilings are flags, not constants, so they are written into the
    // generated document rather than into `#[schema]` attributes. A place not
    // found leaves that schema without its bound (a test keeps the list whole).
    limits.apply_to_openapi(&mut api, batch);
    crate::http::bulk::json_batch::document(&mut api);
    crate::http::admission::auth::document(&mut api, keys);
    crate::http::accept::document(&mut api);
    crate::pictures::document(&mut api);
    openapi::list_error_codes(&mut api);
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
        ("matches", &[include_str!("matches.rs")]),
        ("match_audit", &[include_str!("match_audit.rs")]),
        ("match_state", &[include_str!("match_state.rs")]),
        ("melds", &[include_str!("melds.rs")]),
        ("moves", &[include_str!("moves.rs")]),
        ("problems", &[include_str!("problems.rs")]),
        ("profiles", &[include_str!("profiles.rs")]),
        ("ratings", &[include_str!("ratings.rs")]),
        ("state", &[include_str!("state.rs")]),
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
    fn every_module_here_is_a_listed_resource() {
        let this_file = include_str!("mod.rs");
        for line in this_file.lines() {
            if let Some(name) = line.strip_prefix("pub mod ") {
                let name = name.trim_end_matches(';');
                assert!(
                    RESOURCES.iter().any(|(listed, _)| *listed == name),
                    "routes::{name} is not in RESOURCES: list it, or move it to wire or http"
                );
            }
        }
    }

    #[test]
    fn no_resource_imports_another() {
        for (name, sources) in RESOURCES {
            for (other, _) in RESOURCES.iter().filter(|(other, _)| other != name) {
                for path in [format!("super::{other}"), format!("routes::{other}")] {
                    assert!(
                        !sources.iter().any(|source| source.contains(&path)),
                        "{name} uses {path}: move what the two share to crate::wire"
                    );
                }
            }
        }
    }
}
