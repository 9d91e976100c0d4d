//! Builds the HTTP server from a [`Config`]: binds the socket (so the caller
//! learns the real port when it asked for port 0), wires routes, middleware,
//! Swagger UI and shutdown, and hands back an [`Application`] to run.
//!
//! The server is put together from public building blocks, so that a test can
//! serve routes of its own exactly as production serves the real ones:
//!
//! - [`Shared`]: what every worker's app shares (metrics, the route table for
//!   405s, limits), built once from the config;
//! - [`app`]: an `App` with the app data and the middleware every request goes
//!   through, and no route yet;
//! - [`with_documented_routes`]: the documented API, Swagger UI and the
//!   fallback (404/405) on such an app;
//! - [`Application::serve`]: serves an app with the configured limits on
//!   connections.
//!
//! [`Application::build`] is the service: `with_documented_routes(app(..))`.
//!
//! What the server bounds, and with which flag (see also docs/ERRORS.md, "Limits"):
//! the first request head (`--client-request-timeout`, then actix-http answers
//! 408), each body (the same timeout again, [`crate::http::json`]), idle
//! keep-alive connections (`--keep-alive`), any connection that goes
//! `--stall-timeout` without a write ([`connection`]), a closing connection's
//! last reads (`--client-disconnect-timeout`), and the number of connections
//! (`--max-connections` per worker, lowered to fit the open-file limit:
//! [`open_files`]).
//!
//! actix-web's `HttpServer` is not used: it cannot wrap the accepted socket,
//! which the stall guard needs. What it did is done here the same way (one
//! HTTP/1 service per worker over actix-server, the same timeouts, graceful
//! shutdown that closes keep-alive connections after their current answer).
//!
//! Shutdown: on SIGTERM *or* SIGINT the server stops accepting connections and
//! gives in-flight requests up to `--shutdown-timeout` seconds to finish
//! (actix's own handlers would treat SIGINT as a forced stop, so the signals are
//! handled here instead).

use std::fmt;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use actix_http::{HttpService, KeepAlive, Request, Response};
use actix_service::{IntoServiceFactory, ServiceFactoryExt, map_config};
use actix_web::body::{BoxBody, EitherBody, MessageBody};
use actix_web::dev::{
    AppConfig, Server, ServerHandle, Service, ServiceFactory, ServiceRequest, ServiceResponse,
};
use actix_web::http::Method;
use actix_web::{App, web};
use utoipa_actix_web::AppExt;
use utoipa_swagger_ui::SwaggerUi;

use crate::config::Config;
use crate::http::auth::{ApiKeys, KeysInForce, Operations};
use crate::http::budget::MemoryBudget;
use crate::http::fallback::Routes;
use crate::http::json::{BodyLimit, BodyTimeout, RouteBodyLimits};
use crate::http::limits::RequestLimits;
use crate::http::ndjson::BatchLimits;
use crate::http::observe::Observe;
use crate::monitoring::metrics::Metrics;
use gin_contract::receipts::{KeyError, KeyRing};

pub mod connection;
pub mod open_files;

use connection::{Faults, GuardSettings, Guarded, GuardedConnections};
use open_files::ConnectionBudget;

/// Where the OpenAPI document is served.
pub const OPENAPI_PATH: &str = "/api-docs/openapi.json";
/// Swagger UI's route; `/docs` redirects to `/docs/`.
const SWAGGER_UI_ROUTE: &str = "/docs/{_:.*}";
/// Connections waiting to be accepted, past which the kernel refuses more
/// (what actix-web's `HttpServer` uses).
const LISTEN_BACKLOG: i32 = 1024;

#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error("cannot register metrics: {0}")]
    Metrics(#[from] prometheus::Error),
    #[error("cannot listen on {addr}: {source}")]
    Bind { addr: SocketAddr, source: io::Error },
    #[error(transparent)]
    Keys(#[from] KeyError),
    #[error(transparent)]
    Spool(#[from] crate::http::spool::SpoolError),
    #[error("cannot use the API keys file: {0}")]
    ApiKeys(String),
}

/// What every worker's app shares, built once from the config.
#[derive(Clone)]
pub struct Shared {
    metrics: Arc<Metrics>,
    routes: web::Data<Routes>,
    openapi: utoipa::openapi::OpenApi,
    body_limit: usize,
    route_body_limits: RouteBodyLimits,
    body_timeout: BodyTimeout,
    limits: RequestLimits,
    batch: BatchLimits,
    keys: web::Data<KeyRing>,
    spool: web::Data<crate::http::spool::Spool>,
    json_batch: crate::http::json_batch::JsonBatchLimit,
    api_keys: Option<web::Data<ApiKeys>>,
    memory: web::Data<MemoryBudget>,
}

impl Shared {
    pub fn new(config: &Config) -> Result<Self, StartupError> {
        let keys = KeyRing::load(
            config.signing_key.as_deref(),
            config.retired_keys.as_deref(),
        )?;
        if keys.is_generated() {
            tracing::warn!(
                kid = keys.kid(),
                "no --signing-key: receipts are signed with a key generated at start, which \
                 GET /v1/keys lists as ephemeral; they cannot be verified after a restart"
            );
        }
        let keys_in_force = match config.api_keys {
            Some(_) => KeysInForce::Required,
            None => KeysInForce::Open,
        };
        let openapi = crate::routes::served_openapi(&config.limits, &config.batch, keys_in_force);
        let routes = Routes::from_openapi(&openapi)
            .with(OPENAPI_PATH, &[Method::GET])
            .with("/docs", &[Method::GET])
            .with(SWAGGER_UI_ROUTE, &[Method::GET]);
        let metrics = Arc::new(Metrics::new()?);
        let spool = web::Data::new(crate::http::spool::Spool::new(&config.spool, &metrics)?);
        let api_keys = api_keys(config, &openapi, &metrics)?;
        let memory = web::Data::new(MemoryBudget::new(&config.memory, &metrics)?);
        Ok(Shared {
            metrics,
            routes: web::Data::new(routes),
            openapi,
            body_limit: config.body_limit,
            route_body_limits: RouteBodyLimits(vec![
                (
                    crate::routes::match_audit::ROUTE,
                    config.match_audit_body_limit,
                ),
                (
                    crate::routes::match_state::ROUTE,
                    config.match_audit_body_limit,
                ),
                (
                    crate::routes::moves::MATCH_ROUTE,
                    config.match_audit_body_limit,
                ),
            ]),
            body_timeout: BodyTimeout(config.body_timeout()),
            limits: config.limits,
            batch: config.batch,
            keys: web::Data::new(keys),
            spool,
            json_batch: config.json_batch,
            api_keys,
            memory,
        })
    }

    /// The server's metrics, as `/metrics` renders them.
    pub fn metrics(&self) -> &Arc<Metrics> {
        &self.metrics
    }
}

/// An app with everything a request needs but routes: the limits and
/// extractor settings as app data, and the [`Observe`] middleware (request
/// id, access log, metrics, problem+json for every error, `nosniff`).
pub fn app(
    shared: &Shared,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<EitherBody<BoxBody>>,
        Error = actix_web::Error,
        InitError = (),
    > + use<>,
> {
    let metrics = web::Data::from(shared.metrics.clone());
    let app = App::new()
        .app_data(BodyLimit(shared.body_limit))
        .app_data(shared.route_body_limits.clone())
        .app_data(shared.body_timeout)
        .app_data(shared.limits)
        .app_data(shared.batch)
        .app_data(shared.keys.clone())
        .app_data(shared.spool.clone())
        .app_data(shared.json_batch)
        .app_data(shared.memory.clone())
        .app_data(crate::http::json::json_config(shared.body_limit))
        .app_data(crate::http::json::path_config())
        .app_data(web::PayloadConfig::new(shared.body_limit))
        .app_data(metrics.clone())
        .app_data(shared.routes.clone());
    let app = match &shared.api_keys {
        Some(keys) => app.app_data(keys.clone()),
        None => app,
    };
    app.wrap(Observe::new(metrics))
}

/// The API keys, when a file is given; without one the service is open, and
/// says so at start.
fn api_keys(
    config: &Config,
    openapi: &utoipa::openapi::OpenApi,
    metrics: &Metrics,
) -> Result<Option<web::Data<ApiKeys>>, StartupError> {
    let Some(path) = &config.api_keys else {
        tracing::warn!(
            "no --api-keys: every operation is open to anyone who can reach the service, \
             and receipts are signed for anyone who asks"
        );
        return Ok(None);
    };
    let operations = Operations::from_openapi(openapi).map_err(StartupError::ApiKeys)?;
    let keys = ApiKeys::start(path, operations, metrics).map_err(StartupError::ApiKeys)?;
    Ok(Some(web::Data::from(keys)))
}

/// `app` with every documented route, Swagger UI, and the fallback that
/// answers 404, or 405 for a known path.
pub fn with_documented_routes<T>(app: App<T>, shared: &Shared) -> App<T>
where
    T: ServiceFactory<ServiceRequest, Config = (), Error = actix_web::Error, InitError = ()>,
{
    let (app, _) = app
        .into_utoipa_app()
        .configure(crate::routes::configure)
        .split_for_parts();
    app.service(SwaggerUi::new(SWAGGER_UI_ROUTE).url(OPENAPI_PATH, shared.openapi.clone()))
        .route("/docs", web::get().to(crate::http::ops::docs_redirect))
        .configure(crate::pictures::viewer::configure)
        .default_service(web::to(crate::http::fallback::fallback))
}

/// A bound, not yet running, server.
pub struct Application {
    server: Server,
    addr: SocketAddr,
    connections: ConnectionBudget,
}

impl Application {
    /// Binds `config.listen` and prepares the service; it serves once
    /// [`Application::run_until_stopped`] is awaited.
    pub fn build(config: &Config) -> Result<Self, StartupError> {
        let shared = Shared::new(config)?;
        let for_workers = shared.clone();
        Self::serve(config, &shared, move || {
            with_documented_routes(app(&for_workers), &for_workers)
        })
    }

    /// Binds `config.listen` and prepares to serve the app that `factory`
    /// makes (once per worker), with the configured limits on connections.
    pub fn serve<F, I, S, B>(
        config: &Config,
        shared: &Shared,
        factory: F,
    ) -> Result<Self, StartupError>
    where
        F: Fn() -> I + Send + Clone + 'static,
        I: IntoServiceFactory<S, Request>,
        S: ServiceFactory<Request, Config = AppConfig> + 'static,
        S::Error: Into<actix_web::Error> + 'static,
        S::InitError: fmt::Debug,
        S::Response: Into<Response<B>> + 'static,
        <S::Service as Service<Request>>::Future: 'static,
        S::Service: 'static,
        B: MessageBody + 'static,
    {
        let bind_error = |source| StartupError::Bind {
            addr: config.listen,
            source,
        };
        let listener = listen(config.listen).map_err(bind_error)?;
        // Bound, so this is the real port even for port 0.
        let addr = listener.local_addr().map_err(bind_error)?;
        let workers = config.worker_count();
        let connections = ConnectionBudget::for_this_process(config.max_connections, workers);

        let builder = actix_server::Server::build()
            .workers(workers)
            .max_concurrent_connections(connections.per_worker)
            .shutdown_timeout(config.shutdown_timeout)
            .shutdown_signal(shutdown_signal());
        let graceful_shutdown = builder.graceful_shutdown_signal();
        let keep_alive = match config.keep_alive {
            0 => KeepAlive::Disabled,
            _ => KeepAlive::Timeout(config.keep_alive()),
        };
        let (request_timeout, disconnect_timeout) = (
            config.client_request_timeout(),
            config.client_disconnect_timeout(),
        );
        let settings = GuardSettings {
            stall_timeout: config.stall_timeout(),
            shed_at: GuardSettings::shed_at(connections.per_worker),
            client_request_timeout: request_timeout,
        };
        let faults = Arc::new(Faults::new(shared.metrics.clone()));

        let builder = builder
            .listen("gin-referee", listener, move || {
                let graceful_shutdown = graceful_shutdown.clone();
                let app = factory()
                    .into_factory()
                    .map_err(|err| err.into().error_response());
                let h1 = HttpService::<Guarded, _, _>::build()
                    .keep_alive(keep_alive)
                    .client_request_timeout(request_timeout)
                    .client_disconnect_timeout(disconnect_timeout)
                    .local_addr(addr)
                    // Keep-alive connections close after their current answer
                    // once a graceful stop begins.
                    .graceful_shutdown_signal(move || {
                        let signal = graceful_shutdown.clone();
                        async move { signal.notified().await }
                    })
                    // The app's config: actix-web reads its host and address only
                    // to build URLs, which this service never does.
                    .h1(map_config(app, |()| AppConfig::default()));
                GuardedConnections::new(h1, settings, faults.clone())
            })
            .map_err(bind_error)?;
        Ok(Application {
            server: builder.run(),
            addr,
            connections,
        })
    }

    /// The address the server listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The connection cap it runs with, and the open-file limit behind it.
    pub fn connections(&self) -> ConnectionBudget {
        self.connections
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

/// The listening socket, as `HttpServer` made it: address reuse, so a restart
/// does not wait for old connections in TIME_WAIT, and [`LISTEN_BACKLOG`].
fn listen(addr: SocketAddr) -> io::Result<std::net::TcpListener> {
    use socket2::{Domain, Protocol, Socket, Type};
    let socket = Socket::new(Domain::for_address(addr), Type::STREAM, Some(Protocol::TCP))?;
    socket.set_reuse_address(true)?;
    socket.bind(&addr.into())?;
    socket.listen(LISTEN_BACKLOG)?;
    Ok(socket.into())
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
