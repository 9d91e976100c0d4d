//! Spawning the real application for a test, and small helpers to talk to it.
//!
//! The test server is the production one (`startup::app` and
//! `with_documented_routes`, served by `Application::serve` with the same
//! connection limits) plus a few routes of its own, registered here: they
//! exercise the JSON extractor on a body shaped like the real ones, a
//! panicking handler and extractor, and a slow handler.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Once;
use std::time::Duration;

use actix_web::dev::ServerHandle;
use actix_web::{HttpResponse, web};
use gin_referee::config::{Config, LogFormat};
use gin_referee::http::json::ValidJson;
use gin_referee::http::problem::ProblemDocument;
use gin_referee::monitoring::telemetry;
use gin_referee::startup::{Application, Shared, app, with_documented_routes};
use serde::{Deserialize, Serialize};

/// Logs are silent unless `TEST_LOG` is set (`TEST_LOG=1 cargo test`).
fn init_logs() {
    static LOGS: Once = Once::new();
    LOGS.call_once(|| {
        let filter = telemetry::filter("debug").unwrap_or_else(|_| "debug".into());
        let installed = if std::env::var_os("TEST_LOG").is_some() {
            telemetry::init(telemetry::subscriber(
                LogFormat::Text,
                filter,
                std::io::stdout,
                false,
            ))
        } else {
            telemetry::init(telemetry::subscriber(
                LogFormat::Json,
                filter,
                std::io::sink,
                false,
            ))
        };
        installed.expect("the test subscriber installs once");
        quiet_deliberate_panics();
    });
}

/// Message prefix of the panics the test routes raise on purpose.
const DELIBERATE: &str = "deliberate panic: ";

/// The test routes panic on purpose; their panics would print a backtrace
/// note in the middle of the test output. Every other panic, such as a failed
/// assertion, still goes to the default hook.
fn quiet_deliberate_panics() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or_default();
        if !message.starts_with(DELIBERATE) {
            default_hook(info);
        }
    }));
}

pub struct TestApp {
    pub addr: SocketAddr,
    pub client: reqwest::Client,
    pub handle: ServerHandle,
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(self.url(path))
            .send()
            .await
            .expect("request is answered")
    }

    pub async fn post_json(&self, path: &str, body: &str) -> reqwest::Response {
        self.client
            .post(self.url(path))
            .header("content-type", "application/json")
            .body(body.to_owned())
            .send()
            .await
            .expect("request is answered")
    }

    /// Sends raw bytes and returns the raw response (the connection is closed
    /// by the request's `Connection: close`), for requests reqwest cannot make.
    pub async fn raw(&self, request: &[u8]) -> String {
        let (addr, request) = (self.addr, request.to_vec());
        // Blocking socket code runs off the test's runtime, which the server
        // also uses.
        let exchange = move || {
            let mut stream = TcpStream::connect(addr).expect("connects");
            stream
                .set_read_timeout(Some(Duration::from_secs(10)))
                .expect("sets timeout");
            // The server may answer and close before reading everything we send.
            let _ = stream.write_all(&request);
            let mut response = Vec::new();
            let _ = stream.read_to_end(&mut response);
            String::from_utf8_lossy(&response).into_owned()
        };
        tokio::task::spawn_blocking(exchange)
            .await
            .expect("the exchange completes")
    }
}

/// The application with test defaults: loopback, port 0, one worker.
pub fn test_config() -> Config {
    Config {
        listen: SocketAddr::from(([127, 0, 0, 1], 0)),
        workers: Some(1),
        shutdown_timeout: 5,
        ..Config::default()
    }
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(test_config()).await
}

pub async fn spawn_app_with(config: Config) -> TestApp {
    init_logs();
    let shared = Shared::new(&config).expect("the shared state builds");
    let for_workers = shared.clone();
    let app = Application::serve(&config, &shared, move || {
        with_documented_routes(app(&for_workers).configure(test_routes), &for_workers)
    })
    .expect("the app builds");
    let addr = app.addr();
    let handle = app.handle();
    tokio::spawn(app.run_until_stopped());
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client builds");
    TestApp {
        addr,
        client,
        handle,
    }
}

/// A request body shaped like the real ones: nested objects, a list of cards.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EchoBody {
    pub knocker: EchoSide,
    #[serde(default)]
    pub profile: Option<String>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EchoSide {
    pub hand: Vec<TestCard>,
}

/// Stands in for the rules engine's card: a string that must look like one.
#[derive(Debug, Serialize)]
pub struct TestCard(String);

impl<'de> Deserialize<'de> for TestCard {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        let valid =
            text.len() == 2 && "A23456789TJQK".contains(&text[..1]) && "SHDC".contains(&text[1..]);
        if valid {
            Ok(TestCard(text))
        } else {
            Err(serde::de::Error::custom(format!("invalid card \"{text}\"")))
        }
    }
}

/// Undocumented routes that exist only in the tests: the JSON extractor on a
/// body of its own, a panicking handler and extractor, and a slow handler.
fn test_routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/test/echo", web::post().to(echo))
        .route("/test/panic", web::get().to(panic))
        .route("/test/panic-extractor", web::get().to(panic_in_extractor))
        .route("/test/slow", web::get().to(slow));
}

async fn echo(body: ValidJson<EchoBody>) -> HttpResponse {
    HttpResponse::Ok().json(body.into_inner())
}

async fn panic() -> HttpResponse {
    panic!("{DELIBERATE}a bug in a handler")
}

/// An extractor with a bug: it panics while the request is being routed to
/// the handler, before any handler future exists.
struct Buggy;

impl actix_web::FromRequest for Buggy {
    type Error = actix_web::Error;
    type Future = std::future::Ready<Result<Self, Self::Error>>;

    fn from_request(_: &actix_web::HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        panic!("{DELIBERATE}a bug in an extractor")
    }
}

async fn panic_in_extractor(_: Buggy) -> HttpResponse {
    HttpResponse::Ok().finish()
}

async fn slow() -> HttpResponse {
    actix_web::rt::time::sleep(Duration::from_millis(500)).await;
    HttpResponse::Ok().body("done")
}

/// Asserts the response is a problem with `status` and `code`, and returns it.
pub async fn expect_problem(
    response: reqwest::Response,
    status: u16,
    code: &str,
) -> ProblemDocument {
    assert_eq!(response.status().as_u16(), status, "status");
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    assert_eq!(content_type, "application/problem+json");
    let problem: ProblemDocument = response.json().await.expect("a problem body");
    assert_eq!(problem.code, code, "{problem:?}");
    assert_eq!(problem.status, status);
    assert_eq!(problem.kind, format!("/problems/{code}"));
    assert!(!problem.title.is_empty() && !problem.detail.is_empty());
    problem
}
