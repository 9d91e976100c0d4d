//! Builds the HTTP server from a [`Config`]: binds the socket (so the caller
//! learns the real port when it asked for port 0), wires routes, middleware,
//! Swagger UI and shutdown, and hands back an [`Application`] to run.
//!
//! Shutdown: on SIGTERM *or* SIGINT the server stops accepting connections and
//! gives in-flight requests up to `--shutdown-timeout` seconds to finish
//! (actix's own handlers would treat SIGINT as a forced stop, so the signals are
//! handled here instead).

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use actix_web::dev::{Server, ServerHandle};
use actix_web::http::{KeepAlive, Method};
use actix_web::{App, HttpServer, web};
use utoipa_actix_web::AppExt;
use utoipa_swagger_ui::SwaggerUi;

use crate::api;
use crate::api::fallback::Routes;
use crate::api::json::{BodyLimit, BodyTimeout};
use crate::api::metrics::Metrics;
use crate::api::observe::Observe;
use crate::config::Config;

/// Where the OpenAPI document is served.
pub const OPENAPI_PATH: &str = "/api-docs/openapi.json";
/// Swagger UI's route; `/docs` redirects to `/docs/`.
const SWAGGER_UI_ROUTE: &str = "/docs/{_:.*}";

#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error("cannot register metrics: {0}")]
    Metrics(#[from] prometheus::Error),
    #[error("cannot listen on {addr}: {source}")]
    Bind { addr: SocketAddr, source: io::Error },
}

/// Extra routes for the test harness (an echo route that exercises the JSON
/// extractor before real resources exist). Production passes none.
pub type ExtraRoutes = Arc<dyn Fn(&mut web::ServiceConfig) + Send + Sync>;

/// A bound, not yet running, server.
pub struct Application {
    server: Server,
    addr: SocketAddr,
}

impl Application {
    /// Binds `config.listen` and prepares the server; it serves once
    /// [`Application::run_until_stopped`] is awaited.
    pub fn build(config: &Config) -> Result<Self, StartupError> {
        Self::build_with(config, None)
    }

    /// [`Application::build`] with extra, undocumented routes (for tests).
    pub fn build_with(config: &Config, extra: Option<ExtraRoutes>) -> Result<Self, StartupError> {
        let metrics = web::Data::new(Metrics::new()?);
        let openapi = api::openapi_for(&config.limits);
        let routes = web::Data::new(
            Routes::from_openapi(&openapi)
                .with(OPENAPI_PATH, &[Method::GET])
                .with("/docs", &[Method::GET])
                .with(SWAGGER_UI_ROUTE, &[Method::GET]),
        );
        let body_limit = config.body_limit;
        let body_timeout = BodyTimeout(config.body_timeout());
        let limits = config.limits;

        let server = HttpServer::new(move || {
            let (app, _) = App::new()
                .app_data(BodyLimit(body_limit))
                .app_data(body_timeout)
                .app_data(limits)
                .app_data(api::json::json_config(body_limit))
                .app_data(api::json::path_config())
                .app_data(api::json::query_config())
                .app_data(web::PayloadConfig::new(body_limit))
                .app_data(metrics.clone())
                .app_data(routes.clone())
                .wrap(Observe::new(metrics.clone()))
                .into_utoipa_app()
                .configure(api::configure)
                .split_for_parts();
            let app = match &extra {
                Some(extra) => app.configure(|cfg| extra(cfg)),
                None => app,
            };
            app.service(SwaggerUi::new(SWAGGER_UI_ROUTE).url(OPENAPI_PATH, openapi.clone()))
                .route("/docs", web::get().to(api::ops::docs_redirect))
                .default_service(web::to(api::fallback::fallback))
        })
        .workers(config.worker_count())
        .max_connections(config.max_connections)
        .keep_alive(match config.keep_alive {
            0 => KeepAlive::Disabled,
            _ => KeepAlive::Timeout(config.keep_alive()),
        })
        .client_request_timeout(config.client_request_timeout())
        .shutdown_timeout(config.shutdown_timeout)
        .shutdown_signal(shutdown_signal());

        let server = server
            .bind(config.listen)
            .map_err(|source| StartupError::Bind {
                addr: config.listen,
                source,
            })?;
        // bind() has created the socket, so this is the real port even for port 0.
        let addr = server.addrs().first().copied().unwrap_or(config.listen);
        Ok(Application {
            server: server.run(),
            addr,
        })
    }

    /// The address the server listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// A handle to stop the server from elsewhere (tests).
    pub fn handle(&self) -> ServerHandle {
        self.server.handle()
    }

    /// Serves until a shutdown signal and the graceful stop that follows.
    pub async fn run_until_stopped(self) -> io::Result<()> {
        self.server.await
    }
}

/// Resolves on SIGTERM or SIGINT (Ctrl-C). actix then stops graceful: listeners
/// close, in-flight requests get the shutdown timeout to finish.
async fn shutdown_signal() {
    use tokio::signal::unix::{SignalKind, signal};

    let (terminate, interrupt) = match (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) {
        (Ok(terminate), Ok(interrupt)) => (terminate, interrupt),
        (Err(err), _) | (_, Err(err)) => {
            // Without handlers the default action of both signals still ends the
            // process, just not gracefully; that is no reason to refuse to serve.
            tracing::warn!(error = %err, "cannot listen for shutdown signals");
            return std::future::pending().await;
        }
    };
    let (mut terminate, mut interrupt) = (terminate, interrupt);
    let name = tokio::select! {
        _ = terminate.recv() => "SIGTERM",
        _ = interrupt.recv() => "SIGINT",
    };
    tracing::info!(signal = name, "shutting down: finishing in-flight requests");
}
