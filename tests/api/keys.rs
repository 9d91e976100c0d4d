//! Who may call: API keys, their scopes, `sign`, rates and concurrency, and
//! the keys file read again while the server runs.
//!
//! Every operation of the served OpenAPI document is tried without a key,
//! with an unknown key, with a key lacking its scope and with one that has
//! it; the operations that sign, with a key lacking `sign`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::support::{TestApp, spawn_app_with, test_config};

mod limits;
mod refusals;
mod rotation;

/// Keys of the tests, and their holders' ids.
pub const DESK: &str = "desk-key-0123456789abcdefghijklmnopqrstuvwxyzABCD";
pub const APP: &str = "app-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEF";
pub const ALL: &str = "all-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEF";
pub const NOBODY: &str = "nobody-0123456789abcdefghijklmnopqrstuvwxyzABCDEFG";

pub fn sha256(key: &str) -> String {
    Sha256::digest(key.as_bytes())
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

pub fn entry(id: &str, key: &str, scopes: &[&str]) -> Value {
    json!({"id": id, "sha256": sha256(key), "scopes": scopes})
}

/// A keys file in a directory of its own (kept while the test runs).
pub struct KeysFile {
    pub dir: tempfile::TempDir,
    pub path: PathBuf,
}

impl KeysFile {
    pub fn new(entries: &Value) -> KeysFile {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("keys.json");
        std::fs::write(&path, entries.to_string()).expect("the keys file is written");
        KeysFile { dir, path }
    }

    /// Replaces the file as an editor or a deployment would: a new file
    /// renamed over the old one.
    pub fn replace(&self, text: &str) {
        let next = self.dir.path().join("keys.json.next");
        std::fs::write(&next, text).expect("written");
        std::fs::rename(&next, &self.path).expect("renamed");
    }
}

/// The standard keys: a tournament desk (audits, signing), a game app
/// (analysis and live state, no signing), a key with every operation and
/// signing.
pub fn standard_keys() -> Value {
    json!([
        entry(
            "desk",
            DESK,
            &[
                "audit_hand",
                "audit_match",
                "score_hand",
                "score_match",
                "score_hands",
                "sign"
            ]
        ),
        entry(
            "app",
            APP,
            &[
                "analyze_hand",
                "hand_state",
                "validate_melds",
                "layoffs",
                "score_hand",
                "score_match",
                "audit_hand",
                "audit_match",
                "score_hands"
            ]
        ),
        entry("all", ALL, &["*", "sign"]),
    ])
}

pub async fn spawn_keyed(file: &Path) -> TestApp {
    spawn_app_with(gin_referee::config::Config {
        api_keys: Some(file.to_owned()),
        ..test_config()
    })
    .await
}

pub async fn post(
    app: &TestApp,
    path: &str,
    key: Option<&str>,
    content_type: &str,
    body: &str,
) -> reqwest::Response {
    let mut request = app
        .client
        .post(app.url(path))
        .header("content-type", content_type)
        .body(body.to_owned());
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    request.send().await.expect("answered")
}

/// Every keyed operation of the served document: path, operationId and a
/// request body from its own example, as JSON.
async fn keyed_operations(app: &TestApp) -> Vec<(String, String, String)> {
    let doc: Value = app
        .get("/api-docs/openapi.json")
        .await
        .json()
        .await
        .expect("the document");
    let mut found = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("operations") {
            let secured = operation["security"] == json!([{"api_key": []}]);
            assert_eq!(
                secured,
                method == "post",
                "{method} {path}: the bearer scheme is declared exactly on the operations that need a key"
            );
            if !secured {
                continue;
            }
            for (status, code) in [
                ("401", "unauthorized"),
                ("403", "forbidden"),
                ("429", "rate_limited"),
            ] {
                assert!(
                    operation["responses"][status]["content"]["application/problem+json"]["examples"][code].is_object(),
                    "{path} documents {status} {code}"
                );
            }
            let content = &operation["requestBody"]["content"]["application/json"];
            let example = match &content["example"] {
                Value::Null => content["examples"]
                    .as_object()
                    .and_then(|all| all.values().next())
                    .map(|first| first["value"].clone()),
                example => Some(example.clone()),
            }
            .expect("an example body");
            let id = operation["operationId"]
                .as_str()
                .expect("an operationId")
                .to_owned();
            found.push((path.clone(), id, example.to_string()));
        }
    }
    assert!(found.len() >= 14, "only {} keyed operations", found.len());
    found
}

async fn problem(response: reqwest::Response) -> (u16, reqwest::header::HeaderMap, Value) {
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let content_type = headers
        .get("content-type")
        .map(|v| v.to_str().unwrap_or("").to_owned());
    let body: Value = response.json().await.expect("a JSON body");
    if status >= 400 {
        assert_eq!(
            content_type.as_deref(),
            Some("application/problem+json"),
            "{body}"
        );
    }
    (status, headers, body)
}

#[tokio::test]
async fn every_keyed_operation_refuses_no_key_an_unknown_key_and_a_key_without_its_scope() {
    let file = KeysFile::new(&json!([
        entry("all", ALL, &["*"]),
        entry("deals-only", DESK, &["deal_from_seeds"]),
        entry("analyze-only", APP, &["analyze_hand"]),
    ]));
    let app = spawn_keyed(&file.path).await;
    for (path, id, body) in keyed_operations(&app).await {
        let (status, headers, found) =
            problem(post(&app, &path, None, "application/json", &body).await).await;
        assert_eq!(
            (status, found["code"].as_str()),
            (401, Some("unauthorized")),
            "{path} without a key: {found}"
        );
        assert_eq!(
            headers.get("www-authenticate").map(|v| v.as_bytes()),
            Some(&b"Bearer"[..]),
            "{path}"
        );

        let (status, _, found) =
            problem(post(&app, &path, Some(NOBODY), "application/json", &body).await).await;
        assert_eq!(
            (status, found["code"].as_str()),
            (401, Some("unauthorized")),
            "{path} with an unknown key: {found}"
        );

        let other = if id == "deal_from_seeds" { APP } else { DESK };
        let (status, _, found) =
            problem(post(&app, &path, Some(other), "application/json", &body).await).await;
        assert_eq!(
            (status, found["code"].as_str()),
            (403, Some("forbidden")),
            "{path} without its scope: {found}"
        );
        assert!(
            found["detail"].as_str().unwrap_or_default().contains(&id),
            "{found}"
        );

        let response = post(&app, &path, Some(ALL), "application/json", &body).await;
        assert_eq!(
            response.status().as_u16(),
            200,
            "{path} with a key that has it"
        );
    }
    // A lowercase scheme is the same scheme; a key without one is no key.
    let analyze = r#"{"hand": ["7S","7H","7D","7C","8H","9H","KS","QD","2C","3D"]}"#;
    for (authorization, status) in [("bearer ", 200), ("Basic ", 401), ("", 401)] {
        let response = app
            .client
            .post(app.url("/v1/hands/analyze"))
            .header("content-type", "application/json")
            .header("authorization", format!("{authorization}{APP}"))
            .body(analyze)
            .send()
            .await
            .expect("answered");
        assert_eq!(response.status().as_u16(), status, "{authorization:?}");
    }
}

#[tokio::test]
async fn the_open_endpoints_stay_open_with_keys() {
    let file = KeysFile::new(&json!([]));
    let app = spawn_keyed(&file.path).await;
    for path in [
        "/healthz",
        "/readyz",
        "/metrics",
        "/v1/keys",
        "/v1/profiles",
        "/v1/profiles/standard",
        "/problems",
        "/problems/unauthorized",
        "/api-docs/openapi.json",
        "/docs/",
    ] {
        assert_eq!(app.get(path).await.status().as_u16(), 200, "{path}");
    }
}

#[tokio::test]
async fn a_keys_file_holding_no_key_admits_nobody() {
    let file = KeysFile::new(&json!([]));
    let app = spawn_keyed(&file.path).await;
    for (path, _, body) in keyed_operations(&app).await {
        let (status, _, found) =
            problem(post(&app, &path, Some(ALL), "application/json", &body).await).await;
        assert_eq!(
            (status, found["code"].as_str()),
            (401, Some("unauthorized")),
            "{path}"
        );
    }
}

#[tokio::test]
async fn a_refused_request_is_answered_before_its_body_is_sent() {
    let file = KeysFile::new(&standard_keys());
    let app = spawn_keyed(&file.path).await;
    // A head declaring a megabyte that never comes: the answer does not wait
    // for it (the raw exchange times out after 10 s, the body timeout is 5 s).
    for (authorization, expected) in [
        ("", "401 Unauthorized"),
        (
            &*format!("Authorization: Bearer {DESK}\r\n"),
            "403 Forbidden",
        ),
    ] {
        let started = Instant::now();
        let answer = app
            .raw(format!(
                "POST /v1/hands/analyze HTTP/1.1\r\nHost: t\r\n{authorization}Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{{\"hand\":"
            ).as_bytes())
            .await;
        assert!(
            answer.starts_with(&format!("HTTP/1.1 {expected}")),
            "{answer}"
        );
        assert!(
            answer.to_ascii_lowercase().contains("connection: close"),
            "{answer}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(4),
            "{:?}",
            started.elapsed()
        );
    }
}

/// The claims of a receipt (a compact JWS).
fn claims(receipt: &Value) -> Value {
    let payload = receipt
        .as_str()
        .and_then(|jws| jws.split('.').nth(1))
        .expect("a compact JWS");
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).expect("base64url"))
        .expect("JSON claims")
}

fn with_receipt(body: &str) -> String {
    let mut body: Value = serde_json::from_str(body).expect("JSON");
    body["receipt"] = json!(true);
    body.to_string()
}

#[tokio::test]
async fn only_a_key_with_sign_gets_receipts_and_they_name_it() {
    let file = KeysFile::new(&standard_keys());
    let app = spawn_keyed(&file.path).await;
    let bodies: Vec<(String, String, String)> = keyed_operations(&app).await;
    let body_of = |id: &str| {
        bodies
            .iter()
            .find(|(_, op, _)| op == id)
            .map(|(_, _, body)| body.clone())
            .expect(id)
    };
    for (path, op) in [
        ("/v1/hands/score", "score_hand"),
        ("/v1/matches/score", "score_match"),
        ("/v1/hands/audit", "audit_hand"),
    ] {
        let body = with_receipt(&body_of(op));
        let (status, _, found) =
            problem(post(&app, path, Some(APP), "application/json", &body).await).await;
        assert_eq!(
            (status, found["code"].as_str()),
            (403, Some("forbidden")),
            "{path}: {found}"
        );
        assert!(
            found["detail"]
                .as_str()
                .unwrap_or_default()
                .contains("sign"),
            "{found}"
        );
        // Without asking for one, the same key is answered.
        let (status, _, found) =
            problem(post(&app, path, Some(APP), "application/json", &body_of(op)).await).await;
        assert_eq!(status, 200, "{path}: {found}");
        let (status, _, found) =
            problem(post(&app, path, Some(DESK), "application/json", &body).await).await;
        assert_eq!(status, 200, "{path}: {found}");
        let claims = claims(&found["receipt"]);
        assert_eq!(
            (claims["sub"].as_str(), claims["op"].as_str()),
            (Some("desk"), Some(op)),
            "{claims}"
        );
    }
    // The match audit signs for the desk and answers the app unsigned.
    let audit = body_of("audit_match");
    let (status, _, signed) = problem(
        post(
            &app,
            "/v1/matches/audit",
            Some(DESK),
            "application/json",
            &audit,
        )
        .await,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(claims(&signed["receipt"])["sub"], "desk");
    let (status, _, unsigned) = problem(
        post(
            &app,
            "/v1/matches/audit",
            Some(APP),
            "application/json",
            &audit,
        )
        .await,
    )
    .await;
    assert_eq!(status, 200);
    assert!(unsigned.get("receipt").is_none(), "{unsigned}");
    assert_eq!(unsigned["match"], signed["match"]);
    // In a batch, a line asking for a receipt is that line's problem.
    let line = body_of("score_hand");
    let batch = format!("{}\n{line}\n", with_receipt(&line));
    let response = post(
        &app,
        "/v1/hands/score/batch",
        Some(APP),
        "application/x-ndjson",
        &batch,
    )
    .await;
    assert_eq!(response.status().as_u16(), 200);
    let text = response.text().await.expect("answers");
    let answers: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a line"))
        .collect();
    assert_eq!(answers.len(), 2, "{text}");
    assert_eq!(answers[0]["problem"]["code"], "forbidden", "{text}");
    assert!(answers[1]["result"].is_object(), "{text}");
    let response = post(
        &app,
        "/v1/hands/score/batch",
        Some(DESK),
        "application/x-ndjson",
        &batch,
    )
    .await;
    let text = response.text().await.expect("answers");
    let first: Value = serde_json::from_str(text.lines().next().expect("a line")).expect("JSON");
    assert_eq!(claims(&first["result"]["receipt"])["sub"], "desk", "{text}");
}

#[tokio::test]
async fn without_keys_receipts_carry_no_sub() {
    let app = crate::support::spawn_app().await;
    let body = json!({
        "knocker": {"hand": ["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "AH"]},
        "defender": {"hand": ["6H", "2H", "JS", "JH", "JD", "7S", "7H", "7C", "4D", "5S"]},
        "receipt": true
    });
    let answer: Value = app
        .post_json("/v1/hands/score", &body.to_string())
        .await
        .json()
        .await
        .expect("JSON");
    let claims = claims(&answer["receipt"]);
    assert!(claims.get("sub").is_none(), "{claims}");
}

#[tokio::test]
async fn metrics_count_requests_by_key_id_and_outcome_and_never_show_a_key() {
    let file = KeysFile::new(&standard_keys());
    let app = spawn_keyed(&file.path).await;
    let analyze = r#"{"hand": ["7S","7H","7D","7C","8H","9H","KS","QD","2C","3D"]}"#;
    for key in [Some(APP), Some(APP), Some(DESK), Some(NOBODY), None] {
        post(&app, "/v1/hands/analyze", key, "application/json", analyze).await;
    }
    let metrics = app.get("/metrics").await.text().await.expect("text");
    for line in [
        r#"gin_referee_api_key_requests_total{key="app",outcome="admitted"} 2"#,
        r#"gin_referee_api_key_requests_total{key="desk",outcome="forbidden"} 1"#,
        r#"gin_referee_api_key_requests_total{key="(unknown)",outcome="unauthorized"} 1"#,
        r#"gin_referee_api_key_requests_total{key="(none)",outcome="unauthorized"} 1"#,
    ] {
        assert!(metrics.lines().any(|l| l == line), "{line} in\n{metrics}");
    }
    for key in [DESK, APP, ALL, NOBODY] {
        assert!(!metrics.contains(key), "a key in /metrics");
        assert!(
            !metrics.contains(&sha256(key)),
            "a key's digest in /metrics"
        );
    }
    // The latency histograms are by route, not by key.
    assert!(
        metrics
            .lines()
            .filter(|l| l.contains("_bucket{"))
            .all(|l| !l.contains("key=")),
        "{metrics}"
    );
}

/// A server started with a keys file serves the committed document: the
/// bearer scheme on every operation that needs a key.
#[tokio::test]
async fn a_keyed_server_serves_the_committed_document() {
    let file = KeysFile::new(&standard_keys());
    let app = spawn_keyed(&file.path).await;
    let served: Value = app
        .get("/api-docs/openapi.json")
        .await
        .json()
        .await
        .expect("the document");
    let committed: Value =
        serde_json::from_str(include_str!("../../openapi/openapi.json")).expect("committed json");
    assert!(
        served == committed,
        "the served document differs from openapi/openapi.json; \
         regenerate it with `cargo run -- openapi > openapi/openapi.json`"
    );
}
