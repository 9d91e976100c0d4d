//! Hostile HTTP: what a careless or malicious client can send. Each case gets a
//! clear 4xx or is cut off by a documented limit (`--body-limit`,
//! `--client-request-timeout`, `--client-disconnect-timeout`,
//! `--stall-timeout`, `--max-connections`), and the server keeps serving
//! everyone else: every test ends by asking `/healthz`. What these attacks
//! cost the server (memory, CPU) is measured on the real binary in `cost.rs`.
//!
//! Raw sockets (tokio's) rather than reqwest wherever the point is bytes or
//! timing reqwest would not produce: a lying `Content-Length`, a stalled body,
//! invalid UTF-8, thousands of idle connections. Timeouts in these configs are
//! short so the whole file runs in a few seconds.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::{Instant, sleep, timeout};

use crate::support::{TestApp, expect_problem, spawn_app, spawn_app_with, test_config};

mod connections;
mod slow;

/// The client request timeout in these tests: the smallest accepted (see
/// `MIN_CLIENT_REQUEST_TIMEOUT_MS`), so the slow-client tests wait about a
/// second each.
const REQUEST_TIMEOUT_MS: u64 = gin_referee::config::MIN_CLIENT_REQUEST_TIMEOUT_MS;

/// A 10-card hand the analyser accepts.
const HAND: &str = r#"["7S","7H","7D","3C","4C","5C","6C","KH","QD","2S"]"#;

/// The status line, headers and body of one response read off a raw socket.
#[derive(Debug)]
struct RawResponse {
    status: u16,
    head: String,
    body: Vec<u8>,
}

impl RawResponse {
    fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or(serde_json::Value::Null)
    }

    fn closes(&self) -> bool {
        self.head.to_ascii_lowercase().contains("connection: close")
    }
}

/// Reads one response (`Content-Length` framed, as every response of this
/// service is), or `None` when the server closes the connection first or
/// nothing complete arrives within `within`.
async fn read_response(stream: &mut TcpStream, within: Duration) -> Option<RawResponse> {
    let deadline = Instant::now() + within;
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    loop {
        if let Some(end) = find(&buffer, b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buffer[..end]).into_owned();
            let status = head.get(9..12)?.parse().ok()?;
            let length: usize = head
                .lines()
                .find_map(|l| {
                    let (name, value) = l.split_once(':')?;
                    name.eq_ignore_ascii_case("content-length")
                        .then(|| value.trim().parse().ok())?
                })
                .unwrap_or(0);
            if buffer.len() >= end + 4 + length {
                let body = buffer[end + 4..end + 4 + length].to_vec();
                return Some(RawResponse { status, head, body });
            }
        }
        let read = timeout(
            deadline.saturating_duration_since(Instant::now()),
            stream.read(&mut chunk),
        );
        match read.await {
            Ok(Ok(n)) if n > 0 => buffer.extend_from_slice(&chunk[..n]),
            _ => return None,
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Whether the server has closed the connection (EOF or reset) within `within`,
/// discarding whatever it sends before closing.
async fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    let deadline = Instant::now() + within;
    let mut chunk = [0u8; 4096];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match timeout(left, stream.read(&mut chunk)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => continue,
            Err(_) => return false,
        }
    }
}

async fn connect(addr: SocketAddr) -> TcpStream {
    TcpStream::connect(addr).await.expect("connects")
}

/// Sends `request` on a fresh connection (write errors ignored: the server may
/// answer and close before reading it all) and reads the response.
async fn exchange(addr: SocketAddr, request: &[u8]) -> Option<RawResponse> {
    let mut stream = connect(addr).await;
    let _ = stream.write_all(request).await;
    read_response(&mut stream, Duration::from_secs(10)).await
}

fn post_head(path: &str, extra_headers: &str) -> String {
    format!("POST {path} HTTP/1.1\r\nHost: localhost\r\n{extra_headers}\r\n")
}

/// `/healthz` answers 200 on a fresh connection within two seconds (a pooled
/// one might just have been closed by the server's keep-alive timeout).
async fn assert_still_serving(app: &TestApp) {
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .build()
        .expect("client builds");
    let request = client.get(app.url("/healthz")).send();
    let response = timeout(Duration::from_secs(2), request)
        .await
        .expect("the server answers promptly")
        .expect("the request succeeds");
    assert_eq!(response.status(), 200);
}

/// The stall timeout in these tests, in seconds (the smallest accepted).
const STALL_TIMEOUT_SECS: u64 = 1;

fn hostile_config() -> gin_referee::config::Config {
    gin_referee::config::Config {
        client_request_timeout: REQUEST_TIMEOUT_MS,
        client_disconnect_timeout: REQUEST_TIMEOUT_MS,
        ..test_config()
    }
}

#[tokio::test]
async fn a_declared_length_over_the_limit_is_refused_without_reading_the_body() {
    let app = spawn_app().await;
    // 100 MB announced, nothing sent: the answer must not wait for the body.
    let head = post_head(
        "/v1/hands/analyze",
        "Content-Type: application/json\r\nContent-Length: 100000000\r\n",
    );
    let mut stream = connect(app.addr).await;
    stream.write_all(head.as_bytes()).await.expect("head sent");
    let response = read_response(&mut stream, Duration::from_secs(5))
        .await
        .expect("answered before any body byte");
    assert_eq!(response.status, 413);
    assert_eq!(response.json()["code"], "payload_too_large");
    assert!(response.closes(), "the unread body ends the connection");
    assert_still_serving(&app).await;
}

#[tokio::test]
async fn a_chunked_body_over_the_limit_is_refused() {
    let app = spawn_app_with(gin_referee::config::Config {
        body_limit: 4096,
        ..test_config()
    })
    .await;
    let mut stream = connect(app.addr).await;
    let head = post_head(
        "/v1/melds/validate",
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n",
    );
    stream.write_all(head.as_bytes()).await.expect("head sent");
    // No length announced: the limit can only be enforced while reading.
    let chunk = format!("400\r\n{}\r\n", " ".repeat(1024));
    for _ in 0..16 {
        if stream.write_all(chunk.as_bytes()).await.is_err() {
            break;
        }
    }
    let _ = stream.write_all(b"0\r\n\r\n").await;
    let response = read_response(&mut stream, Duration::from_secs(5))
        .await
        .expect("answered");
    assert_eq!(response.status, 413);
    assert_eq!(response.json()["code"], "payload_too_large");
    assert_still_serving(&app).await;
}

#[tokio::test]
async fn a_gzip_bomb_is_cut_off_at_the_limit_after_decompression() {
    let app = spawn_app().await;
    // 8 MiB of spaces compress to a few KiB: under the limit on the wire,
    // far over it once inflated.
    let bomb = gzip(&vec![b' '; 8 * 1024 * 1024]);
    assert!(bomb.len() < 64 * 1024, "{} bytes compressed", bomb.len());
    let response = app
        .client
        .post(app.url("/v1/hands/analyze"))
        .header("content-type", "application/json")
        .header("content-encoding", "gzip")
        .body(bomb)
        .send()
        .await
        .expect("answered");
    expect_problem(response, 413, "payload_too_large").await;
    assert_still_serving(&app).await;
}

/// Gzip-compresses `data` (best compression: the bomb's ratio is ~1000:1).
pub(crate) fn gzip(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(data).expect("in memory");
    encoder.finish().expect("in memory")
}

#[tokio::test]
async fn deeply_nested_json_is_a_400_not_a_stack_overflow() {
    let app = spawn_app_with(gin_referee::config::Config {
        body_limit: 1024 * 1024,
        ..test_config()
    })
    .await;
    let depth = 100_000;
    let bodies = [
        "[".repeat(depth),
        format!("{}{}", "[".repeat(depth), "]".repeat(depth)),
        "{\"a\":".repeat(depth),
        // Nesting where the schema allows an object, and with a number that
        // takes the float-respelling path.
        format!(
            r#"{{"hand": {HAND}, "profile": {}1.0"#,
            "{\"base\":".repeat(depth)
        ),
    ];
    for body in bodies {
        let response = app.post_json("/v1/hands/analyze", &body).await;
        let problem = expect_problem(response, 400, "malformed_json").await;
        assert!(problem.detail.contains("recursion"), "{}", problem.detail);
    }
    assert_still_serving(&app).await;
}

#[tokio::test]
async fn huge_arrays_within_the_limit_are_refused_promptly() {
    let app = spawn_app().await;
    // ~60 KiB each, under the default 64 KiB limit.
    let many_cards = format!(r#"{{"hand": [{}"AS"]}}"#, r#""AS","#.repeat(12_000));
    let many_numbers = format!(r#"{{"hand": [{}1]}}"#, "1,".repeat(30_000));
    let many_melds = format!(
        r#"{{"melds": [{}["2S","3S","4S"]]}}"#,
        r#"["AS","2S","3S"],"#.repeat(3_500)
    );
    let many_layoffs = format!(
        r#"{{"knocker": {{"hand": ["7S","7H","7D","3C","4C","5C","6C","AS","2D","3H"]}},
            "defender": {{"hand": ["7C","2C","8C","KS","KD","KC","9H","TH","JH","5S"],
                          "layoffs": [{}{{"card": "AS", "meld": 0}}]}}}}"#,
        r#"{"card": "AS", "meld": 99999},"#.repeat(1_800)
    );
    let cases = [
        // Lists longer than a deck are refused while they are read.
        ("/v1/hands/analyze", &many_cards, 400, "invalid_body"),
        ("/v1/hands/analyze", &many_numbers, 400, "invalid_body"),
        ("/v1/hands/score", &many_layoffs, 400, "invalid_body"),
    ];
    for (path, body, status, code) in cases {
        assert!(body.len() < 64 * 1024, "{path}: {} bytes", body.len());
        let response = app.post_json(path, body).await;
        expect_problem(response, status, code).await;
    }
    // Thousands of melds are over the ceiling on melds per request (64): each
    // verdict would echo its meld, so the answer is refused, not amplified.
    assert!(many_melds.len() < 64 * 1024);
    let response = app.post_json("/v1/melds/validate", &many_melds).await;
    let problem = expect_problem(response, 400, "invalid_body").await;
    assert_eq!(problem.errors[0].pointer, "/melds");
    assert_still_serving(&app).await;
}

#[tokio::test]
async fn invalid_utf8_is_a_400() {
    let app = spawn_app().await;
    let mut body = br#"{"hand": ["7S", ""#.to_vec();
    body.extend_from_slice(&[0xFF, 0xFE, 0x80]);
    body.extend_from_slice(br#"", "8S"]}"#);
    let bodies: [&[u8]; 4] = [
        &body,
        // A lone surrogate escape is valid JSON syntax but no string.
        br#"{"hand": ["\ud800S"]}"#,
        // Overlong encoding of '/'.
        b"{\"hand\": [\"\xC0\xAF\"]}",
        // Invalid UTF-8 outside any string.
        b"{\xFF: 1}",
    ];
    for body in bodies {
        let response = app
            .client
            .post(app.url("/v1/hands/analyze"))
            .header("content-type", "application/json")
            .body(body.to_vec())
            .send()
            .await
            .expect("answered");
        let problem = expect_problem(response, 400, "malformed_json").await;
        assert!(!problem.detail.is_empty());
    }
    // Invalid UTF-8 in a header: the request id is replaced, the request served.
    let head = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nX-Request-Id: \xFF\xFE\r\n\r\n";
    let response = exchange(app.addr, head).await.expect("answered");
    assert_eq!(response.status, 200);
    assert_still_serving(&app).await;
}

#[tokio::test]
async fn wrong_content_types_are_415() {
    let app = spawn_app().await;
    let body = format!(r#"{{"hand": {HAND}}}"#);
    // A valid analyze body, sent with this Content-Type.
    let analyze_as = |content_type: &'static str| {
        app.client
            .post(app.url("/v1/hands/analyze"))
            .header("content-type", content_type)
            .body(body.clone())
            .send()
    };
    for content_type in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/xml",
        "application/jsonx",
        "text/json",
        "json",
        ";;;",
        "",
    ] {
        let response = analyze_as(content_type).await.expect("answered");
        let problem = expect_problem(response, 415, "unsupported_media_type").await;
        assert!(
            problem.detail.contains("application/json"),
            "{content_type}"
        );
    }
    // Whatever the parameters, JSON is JSON.
    for content_type in [
        "application/json; charset=utf-8",
        "APPLICATION/JSON",
        "application/problem+json",
    ] {
        let response = analyze_as(content_type).await.expect("answered");
        assert_eq!(response.status(), 200, "{content_type}");
    }
    assert_still_serving(&app).await;
}

#[tokio::test]
async fn numbers_that_are_not_integers_are_invalid_not_rounded() {
    let app = spawn_app().await;
    let body = |knocker_deadwood: &str| {
        format!(
            r#"{{"players": ["Ann", "Bob"], "hands": [
                {{"knocker": "Ann", "knocker_deadwood": {knocker_deadwood}, "defender_deadwood": 30}}]}}"#
        )
    };
    // 1e-400 was read as 0: a gin worth 55 points.
    for number in ["1e-400", "0.5", "1e400", "-1e400", "1e30", "5.000001"] {
        let response = app.post_json("/v1/matches/score", &body(number)).await;
        let problem = expect_problem(response, 400, "invalid_body").await;
        assert_eq!(
            problem.errors[0].pointer, "/hands/0/knocker_deadwood",
            "{number}"
        );
    }
    // Integers spelt as floats are the integers they spell (JSON Schema's
    // `integer` includes them).
    for number in ["5.0", "5e0", "0.5e1", "500e-2"] {
        let response = app.post_json("/v1/matches/score", &body(number)).await;
        assert_eq!(response.status(), 200, "{number}");
        let scored: serde_json::Value = response.json().await.expect("json");
        assert_eq!(scored["hands"][0]["knocker_deadwood"], 5, "{number}");
        assert_eq!(scored["hands"][0]["points"], 25, "{number}");
    }
}

#[tokio::test]
async fn a_wrong_type_for_a_profile_parameter_is_invalid_body_not_malformed_json() {
    // Found by the body fuzzer: serde_json reports `null` or a number where an
    // enum's string belongs as a syntax error, which came out as
    // `malformed_json` for a well-formed body.
    let app = spawn_app().await;
    for value in ["null", "5", "[]"] {
        let body = format!(r#"{{"hand": {HAND}, "profile": {{"stock_end": {value}}}}}"#);
        let response = app.post_json("/v1/hands/analyze", &body).await;
        let problem = expect_problem(response, 400, "invalid_body").await;
        assert_eq!(problem.errors[0].pointer, "/profile/stock_end", "{value}");
    }
    // And a body cut short after a shape fault is not JSON at all.
    let response = app
        .post_json("/v1/hands/analyze", r#"{"hand": 5, "profile": "stan"#)
        .await;
    let problem = expect_problem(response, 400, "malformed_json").await;
    assert!(problem.errors.is_empty());
}

#[tokio::test]
async fn malformed_request_heads_get_a_problem_and_are_counted() {
    let app = spawn_app().await;
    let many_headers: String = (0..200).map(|i| format!("X-H{i}: v\r\n")).collect();
    // actix-http refuses a head over 128 KiB or with more than 96 headers.
    let long_header = format!("X-Long: {}\r\n", "a".repeat(256 * 1024));
    let long_path = format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(200_000));
    let cases: [(String, u16, &str); 7] = [
        // Request smuggling: both framings at once.
        (
            post_head(
                "/v1/hands/analyze",
                "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n",
            ) + "0\r\n\r\n",
            400,
            "malformed_request",
        ),
        // Two different lengths.
        (
            post_head(
                "/v1/hands/analyze",
                "Content-Length: 5\r\nContent-Length: 6\r\n",
            ) + "{}{}{}",
            400,
            "malformed_request",
        ),
        (
            post_head("/v1/hands/analyze", "Content-Length: -1\r\n"),
            400,
            "malformed_request",
        ),
        ("GARBAGE\r\n\r\n".to_owned(), 400, "malformed_request"),
        (
            format!("GET /healthz HTTP/1.1\r\nHost: x\r\n{many_headers}\r\n"),
            431,
            "request_head_too_large",
        ),
        (
            format!("GET /healthz HTTP/1.1\r\nHost: x\r\n{long_header}\r\n"),
            431,
            "request_head_too_large",
        ),
        (long_path, 431, "request_head_too_large"),
    ];
    for (request, status, code) in &cases {
        let response = exchange(app.addr, request.as_bytes())
            .await
            .expect("answered");
        let shown = request.get(..60).unwrap_or(request);
        assert_eq!(response.status, *status, "{shown:?}");
        assert!(
            response
                .head
                .to_ascii_lowercase()
                .contains("content-type: application/problem+json"),
            "{}",
            response.head
        );
        assert!(
            response
                .head
                .to_ascii_lowercase()
                .contains("x-content-type-options: nosniff"),
            "{}",
            response.head
        );
        assert!(response.closes(), "{}", response.head);
        let problem = response.json();
        assert_eq!(problem["code"], *code, "{shown:?}");
        assert_eq!(problem["status"], *status);
    }
    assert_metric(
        &app,
        r#"http_malformed_requests_total{reason="malformed_request"} 4"#,
    )
    .await;
    assert_metric(
        &app,
        r#"http_malformed_requests_total{reason="request_head_too_large"} 3"#,
    )
    .await;
    assert_still_serving(&app).await;
}

#[tokio::test]
async fn a_malformed_request_after_a_good_one_still_gets_a_400() {
    // On a keep-alive connection actix-http's own empty answer stays (the guard
    // rewrites only a connection's first answer): a 400 all the same, counted.
    let app = spawn_app().await;
    let mut stream = connect(app.addr).await;
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .expect("sent");
    let first = read_response(&mut stream, Duration::from_secs(5)).await;
    assert_eq!(first.map(|r| r.status), Some(200));
    stream.write_all(b"GARBAGE\r\n\r\n").await.expect("sent");
    let second = read_response(&mut stream, Duration::from_secs(5)).await;
    assert_eq!(second.map(|r| r.status), Some(400));
    assert_metric(
        &app,
        r#"http_malformed_requests_total{reason="malformed_request"} 1"#,
    )
    .await;
    assert_still_serving(&app).await;
}

/// `/metrics` shows `line` within two seconds (a connection is counted when
/// it ends, just after its answer is written).
pub(crate) async fn assert_metric(app: &TestApp, line: &str) {
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        let metrics = app.get("/metrics").await.text().await.expect("text");
        if metrics.contains(line) {
            return;
        }
        assert!(Instant::now() < deadline, "{line} not in\n{metrics}");
        sleep(Duration::from_millis(50)).await;
    }
}
