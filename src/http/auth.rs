//! Who may call: API keys, their scopes and their limits.
//!
//! With `--api-keys FILE`, every operation of the OpenAPI document except
//! the open ones ([`OPEN_PATHS`]) needs `Authorization: Bearer <key>`. The
//! request is admitted or refused by [`admit`] before anything reads its
//! body, in this order:
//!
//! | check                                          | refusal | code           |
//! |------------------------------------------------|---------|----------------|
//! | a key, and one in the keys file                | 401     | `unauthorized` (with `WWW-Authenticate: Bearer`) |
//! | the operation among the key's scopes           | 403     | `forbidden`    |
//! | fewer requests in flight than its `concurrency`| 429     | `rate_limited` (`Retry-After: 1`) |
//! | a token in its bucket (`rate` per second)      | 429     | `rate_limited` (`Retry-After`: until the next token) |
//!
//! A refusal is answered at once; the body the client still sends is then
//! read and thrown away within the memory budget's drain bounds
//! ([`super::drain::before_route`]), never parsed nor held, so that a client
//! that sends its whole body before it reads still reads the problem.
//!
//! An admitted request carries its [`Caller`] in the request's extensions:
//! the signing key asks it whether a receipt may be given
//! ([`crate::http::signing::ServerKeys`]), and a batch ([`Throttle`]) reads
//! its lines no faster than the key's rate. Its slot of the key's
//! concurrency is held until the answer is written (a batch holds it in its
//! answer stream).
//!
//! Without a keys file nothing here runs: every operation is open, as the
//! warning at start says.

use std::future::Future as _;
use std::num::NonZeroU32;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpMessage, HttpRequest, web};
use prometheus::{IntCounterVec, Opts};

use super::problem::{ErrorCode, Problem, ProblemResponse};
use crate::monitoring::metrics::Metrics;

mod remembered;
pub mod table;

use table::{ApiKey, Outcomes, Source};

/// The paths open to anyone, keys or not: probes, metrics, the public
/// signing keys, the profiles, the error descriptions. (The documentation,
/// the OpenAPI document and the viewer's page are not operations of the
/// document, so they are open too.)
pub const OPEN_PATHS: &[&str] = &[
    "/healthz",
    "/readyz",
    "/metrics",
    "/v1/keys",
    "/v1/profiles",
    "/v1/profiles/{name}",
    "/problems",
    "/problems/{code}",
];

/// The name of the OpenAPI security scheme the keyed operations declare.
pub const SECURITY_SCHEME: &str = "api_key";

/// The operations that need a key, by the path they answer (`POST` only:
/// every one is), numbered in the order of the OpenAPI document.
#[derive(Debug, Clone, Default)]
pub struct Operations {
    /// (path, operationId)
    keyed: Vec<(String, String)>,
}

impl Operations {
    /// At most 64 operations, one bit each in a key's scopes.
    pub fn new(names: Vec<String>) -> Operations {
        Operations {
            keyed: names
                .into_iter()
                .map(|name| (String::new(), name))
                .collect(),
        }
    }

    /// Every operation of `api` outside [`OPEN_PATHS`]. Each is a `POST` to
    /// a path without parameters (a test keeps it so), so a request is
    /// matched by its path as it is.
    pub fn from_openapi(api: &utoipa::openapi::OpenApi) -> Result<Operations, String> {
        let mut keyed = Vec::new();
        for (path, item) in &api.paths.paths {
            if OPEN_PATHS.contains(&path.as_str()) {
                continue;
            }
            let Some(operation) = &item.post else {
                return Err(format!("{path} needs a key but is not a POST"));
            };
            let id = operation.operation_id.clone().unwrap_or_default();
            keyed.push((path.clone(), id));
        }
        if keyed.len() > 64 {
            return Err(format!(
                "{} operations need a key; scopes hold 64",
                keyed.len()
            ));
        }
        Ok(Operations { keyed })
    }

    /// The operation a `method` request to `path` calls, if it needs a key.
    pub fn find(&self, method: &Method, path: &str) -> Option<u32> {
        if method != Method::POST {
            return None;
        }
        let index = self.keyed.iter().position(|(keyed, _)| keyed == path)?;
        u32::try_from(index).ok()
    }

    pub fn index_of(&self, name: &str) -> Option<u32> {
        let index = self.keyed.iter().position(|(_, id)| id == name)?;
        u32::try_from(index).ok()
    }

    pub fn name(&self, index: u32) -> &str {
        usize::try_from(index)
            .ok()
            .and_then(|index| self.keyed.get(index))
            .map_or("", |(_, name)| name)
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.keyed.iter().map(|(_, name)| name.as_str())
    }

    /// Every operation's bit.
    pub fn all(&self) -> u64 {
        match self.keyed.len() {
            64 => u64::MAX,
            n => (1u64 << n) - 1,
        }
    }

    /// The paths that need a key, for the OpenAPI document.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.keyed.iter().map(|(path, _)| path.as_str())
    }
}

/// The API keys of a server started with `--api-keys`, registered as app data.
#[derive(Debug)]
pub struct ApiKeys {
    operations: Operations,
    source: Source,
    counter: IntCounterVec,
    /// Outcomes of requests without a key, and with a key not in the file.
    no_key: Outcomes,
    unknown_key: Outcomes,
}

impl ApiKeys {
    /// Reads the keys file and starts reading it again on change.
    pub fn start(
        path: &std::path::Path,
        operations: Operations,
        metrics: &Metrics,
    ) -> Result<Arc<ApiKeys>, String> {
        let counter = IntCounterVec::new(
            Opts::new(
                "gin_referee_api_key_requests_total",
                "Requests to operations that need an API key, by key id ((none): no key; \
                 (unknown): a key not in the file) and outcome of the admission \
                 (admitted, unauthorized, forbidden, rate_limited).",
            ),
            &["key", "outcome"],
        )
        .map_err(|err| err.to_string())?;
        metrics
            .register(Box::new(counter.clone()))
            .map_err(|err| err.to_string())?;
        let source = Source::load(path, &operations, &counter)?;
        let outcomes = |id| Outcomes::of(&counter, id).map_err(|err| err.to_string());
        let keys = Arc::new(ApiKeys {
            no_key: outcomes("(none)")?,
            unknown_key: outcomes("(unknown)")?,
            operations,
            source,
            counter,
        });
        let held = keys.source.table().len();
        if held == 0 {
            tracing::warn!("the API keys file holds no key: every operation is refused");
        }
        tracing::info!(path = %path.display(), keys = held, "API keys read");
        table::watch(Arc::downgrade(&keys)).map_err(|err| err.to_string())?;
        Ok(keys)
    }

    fn reload(&self) {
        self.source.reload(&self.operations, &self.counter);
    }
}

/// An admitted request's key: its id, whether it may sign, its limits. Its
/// slot of the key's concurrency is freed when the last clone is dropped.
#[derive(Debug, Clone)]
pub struct Caller {
    key: Arc<ApiKey>,
    _slot: Arc<Slot>,
}

impl Caller {
    pub fn id(&self) -> &Arc<str> {
        &self.key.id
    }

    /// Who asks for a receipt, as the operations sign.
    pub fn signer(&self) -> gin_contract::wire::receipt::Caller {
        use gin_contract::wire::receipt::Caller as Signing;
        match self.key.sign {
            true => Signing::Signer(self.key.id.clone()),
            false => Signing::NotSigner(self.key.id.clone()),
        }
    }
}

/// One request in flight for a key.
#[derive(Debug)]
struct Slot(Arc<ApiKey>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.state.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A request refused: the answer, and the key's id where it was known.
pub type Refused = (Box<ServiceResponse>, Option<Arc<str>>);

/// Admits or refuses a request (see the module docs), before its body is
/// read; an admitted one comes back with its key's id (none where no key
/// was needed). `now` is the clock read the request already made.
pub fn admit(
    req: ServiceRequest,
    now: Instant,
) -> Result<(ServiceRequest, Option<Arc<str>>), Refused> {
    let Some(keys) = req.app_data::<web::Data<ApiKeys>>() else {
        return Ok((req, None));
    };
    let Some(operation) = keys.operations.find(req.method(), req.path()) else {
        return Ok((req, None));
    };
    let keys = keys.clone();
    match check(&keys, &req, operation, now) {
        Ok(caller) => {
            let id = caller.id().clone();
            req.extensions_mut().insert(caller);
            Ok((req, Some(id)))
        }
        Err((problem, id)) => Err((Box::new(refuse(req, &problem)), id)),
    }
}

type Refusal = (Problem, Option<Arc<str>>);

fn check(
    keys: &ApiKeys,
    req: &ServiceRequest,
    operation: u32,
    now: Instant,
) -> Result<Caller, Refusal> {
    let Some(presented) = bearer(req) else {
        keys.no_key.unauthorized.inc();
        return Err((
            unauthorized("this operation needs an API key: send `Authorization: Bearer <key>`"),
            None,
        ));
    };
    let Some(key) = remembered::find(&keys.source.table(), presented) else {
        keys.unknown_key.unauthorized.inc();
        return Err((unauthorized("the API key is not known here"), None));
    };
    let id = Some(key.id.clone());
    if !key.may_call(operation) {
        key.outcomes.forbidden.inc();
        let detail = format!(
            "the API key {:?} may not call {}: its scopes are {}",
            &*key.id,
            keys.operations.name(operation),
            key.scope_names(&keys.operations)
        );
        return Err((Problem::new(ErrorCode::Forbidden, detail), id));
    }
    let slot = take_slot(&key).map_err(|problem| {
        key.outcomes.rate_limited.inc();
        (problem, id.clone())
    })?;
    if let Some(rate) = key.rate {
        let taken = table::lock(&key.state.bucket).take(rate, now);
        if let Err(wait) = taken {
            key.outcomes.rate_limited.inc();
            let detail = format!(
                "the API key {:?} is over its rate of {rate} requests per second",
                &*key.id
            );
            return Err((rate_limited(detail, wait), id));
        }
    }
    key.outcomes.admitted.inc();
    Ok(Caller {
        key,
        _slot: Arc::new(slot),
    })
}

/// A slot of the key's concurrency, or the refusal.
fn take_slot(key: &Arc<ApiKey>) -> Result<Slot, Problem> {
    let before = key.state.in_flight.fetch_add(1, Ordering::AcqRel);
    let slot = Slot(key.clone());
    match key.concurrency {
        Some(limit) if before >= limit => {
            drop(slot);
            let detail = format!(
                "the API key {:?} already has {limit} requests in flight, its concurrency",
                &*key.id
            );
            Err(rate_limited(detail, Duration::from_secs(1)))
        }
        _ => Ok(slot),
    }
}

/// The key after `Bearer ` (the scheme in any case), exactly as sent.
fn bearer(req: &ServiceRequest) -> Option<&[u8]> {
    let value = req.headers().get(header::AUTHORIZATION)?.as_bytes();
    let (scheme, key) = value.split_at_checked(7)?;
    (scheme.eq_ignore_ascii_case(b"bearer ") && !key.is_empty()).then_some(key)
}

fn unauthorized(detail: &str) -> Problem {
    Problem::new(ErrorCode::Unauthorized, detail)
}

/// A 429 saying when to try again: whole seconds, at least one.
fn rate_limited(detail: String, wait: Duration) -> Problem {
    let seconds =
        u32::try_from(wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).unwrap_or(u32::MAX);
    let seconds = NonZeroU32::new(seconds).unwrap_or(NonZeroU32::MIN);
    Problem::new(
        ErrorCode::RateLimited,
        format!("{detail}: retry after {seconds} s"),
    )
    .with_retry_after(seconds)
}

/// The refusal as a response, answered at once. A body the client sent is
/// then read and thrown away within the bounds of the memory budget's
/// refusals ([`super::drain`]), so that a client that sends its whole body
/// before it reads still reads the problem, not a reset.
fn refuse(req: ServiceRequest, problem: &Problem) -> ServiceResponse {
    let (request, payload) = req.into_parts();
    let mut response = problem.response_builder();
    if problem.code == ErrorCode::Unauthorized {
        response.insert_header((header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer")));
    }
    let response = match has_body(&request, &payload) {
        true => {
            let bound = super::drain::before_route(&request);
            super::drain::answer_then_drain(response, problem.body(), payload, bound)
        }
        false => response.body(problem.body()),
    };
    ServiceResponse::new(request, response)
}

fn has_body(request: &HttpRequest, payload: &Payload) -> bool {
    if matches!(payload, Payload::None) {
        return false;
    }
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    declared != Some(0)
}

/// The pace of a batch's lines: one token of the key's bucket a line, the
/// first paid by the admission. Holds the key's concurrency slot for as
/// long as the batch's answers are written.
pub struct Throttle {
    caller: Caller,
    rate: f64,
    prepaid: bool,
    sleep: Option<Pin<Box<actix_web::rt::time::Sleep>>>,
}

impl Throttle {
    /// The throttle of an admitted request whose key has a rate; a key
    /// without one, or no key, needs none (but a caller's slot is still
    /// held: see [`Caller`]).
    pub fn of(request: &HttpRequest) -> Option<Throttle> {
        let caller = request.extensions().get::<Caller>()?.clone();
        let rate = caller.key.rate.unwrap_or(f64::INFINITY);
        Some(Throttle {
            caller,
            rate,
            prepaid: true,
            sleep: None,
        })
    }

    /// Ready when the next line may be answered; otherwise a timer is set to
    /// wake the batch when it may.
    pub fn poll_line(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        if self.prepaid || self.rate.is_infinite() {
            self.prepaid = false;
            return Poll::Ready(());
        }
        loop {
            if let Some(sleep) = &mut self.sleep {
                if sleep.as_mut().poll(cx).is_pending() {
                    return Poll::Pending;
                }
                self.sleep = None;
            }
            let taken = table::lock(&self.caller.key.state.bucket).take(self.rate, Instant::now());
            match taken {
                Ok(()) => return Poll::Ready(()),
                Err(wait) => self.sleep = Some(Box::pin(actix_web::rt::time::sleep(wait))),
            }
        }
    }
}

/// Which server a document describes: its key requirements are the ones
/// that server enforces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeysInForce {
    /// Started with `--api-keys`: every operation outside [`OPEN_PATHS`] needs a key.
    Required,
    /// Started without a keys file: every operation is open.
    Open,
}

/// What the document's description says of its key requirements.
const KEYED_NOTE: &str = "**API keys.** This document describes a server started with \
    `--api-keys`: every operation that declares the `api_key` bearer scheme needs \
    `Authorization: Bearer <key>` and may be refused with 401, 403 or 429. A server started \
    without a keys file admits everyone, and the document it serves declares no key requirement.";
const OPEN_NOTE: &str = "**API keys.** This server was started without a keys file: every \
    operation is open and none needs a key. A server started with `--api-keys` declares the \
    bearer scheme on every operation that needs one.";

/// Declares the API keys in the OpenAPI document as `keys` says: with keys,
/// the bearer scheme, and on every operation outside [`OPEN_PATHS`] the
/// requirement and its refusals (401, 403, 429), so that Swagger UI's
/// Authorize sends the key; without, nothing but the description's note (a
/// fuzzer or a generated client is never told of a key the server does not
/// ask for).
pub fn document(api: &mut utoipa::openapi::OpenApi, keys: KeysInForce) {
    use utoipa::openapi::security::{
        HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme,
    };
    let note = match keys {
        KeysInForce::Required => KEYED_NOTE,
        KeysInForce::Open => OPEN_NOTE,
    };
    let description = api.info.description.get_or_insert_with(String::new);
    description.push_str("\n\n");
    description.push_str(note);
    if keys == KeysInForce::Open {
        return;
    }
    let scheme = HttpBuilder::new()
        .scheme(HttpAuthScheme::Bearer)
        .description(Some(
            "An API key, where the service is started with `--api-keys`: \
             `Authorization: Bearer <key>`. Without a keys file every operation is open.",
        ))
        .build();
    api.components
        .get_or_insert_with(Default::default)
        .security_schemes
        .insert(
            SECURITY_SCHEME.to_owned(),
            utoipa::openapi::RefOr::T(SecurityScheme::Http(scheme)),
        );
    let refusals = super::problem::error_responses(&[
        ErrorCode::Unauthorized,
        ErrorCode::Forbidden,
        ErrorCode::RateLimited,
    ]);
    for (path, item) in api.paths.paths.iter_mut() {
        if OPEN_PATHS.contains(&path.as_str()) {
            continue;
        }
        for operation in [
            &mut item.post,
            &mut item.get,
            &mut item.put,
            &mut item.delete,
        ]
        .into_iter()
        .flatten()
        {
            operation.security = Some(vec![SecurityRequirement::new(
                SECURITY_SCHEME,
                Vec::<String>::new(),
            )]);
            for (status, response) in &refusals {
                operation
                    .responses
                    .responses
                    .entry(status.clone())
                    .or_insert_with(|| response.clone());
            }
        }
    }
}

/// A new API key and its entry for the keys file (`gin-referee keys new`).
#[derive(Debug)]
pub struct NewKey {
    /// 32 random bytes (256 bits), base64url without padding.
    pub key: String,
    /// `{"id", "sha256", "scopes", "rate"?, "concurrency"?}` on one line.
    pub entry: String,
}

impl NewKey {
    /// A key from the system's random source; its entry is checked as the
    /// service reads the file, so a typo in a scope is caught here.
    pub fn make(
        id: &str,
        scopes: &[String],
        rate: Option<f64>,
        concurrency: Option<u32>,
        operations: &Operations,
    ) -> Result<NewKey, String> {
        use base64::Engine as _;
        use sha2::Digest as _;
        let mut secret = [0u8; 32];
        getrandom::getrandom(&mut secret).map_err(|err| format!("no random bytes: {err}"))?;
        let key = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(secret);
        let digest: String = sha2::Sha256::digest(key.as_bytes())
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect();
        let mut entry = serde_json::Map::new();
        entry.insert("id".to_owned(), id.into());
        entry.insert("sha256".to_owned(), digest.into());
        entry.insert("scopes".to_owned(), scopes.into());
        if let Some(rate) = rate {
            entry.insert("rate".to_owned(), rate.into());
        }
        if let Some(concurrency) = concurrency {
            entry.insert("concurrency".to_owned(), concurrency.into());
        }
        let entry = serde_json::Value::Object(entry).to_string();
        let counter = IntCounterVec::new(Opts::new("check", "check"), &["key", "outcome"])
            .map_err(|err| err.to_string())?;
        let file = format!("[{entry}]");
        table::KeyTable::parse(file.as_bytes(), operations, &counter, &Default::default())?;
        Ok(NewKey { key, entry })
    }
}
