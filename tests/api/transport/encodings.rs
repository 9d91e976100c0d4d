//! Request bodies in a `Content-Encoding`: gzip and deflate are decoded within
//! the body limit, anything else is refused before a byte is read.

use std::io::Write;

use crate::support::{TestApp, expect_problem, spawn_app, spawn_app_with, test_config};

const HAND: &str = r#"{"hand": ["7S","7H","7D","3C","4C","5C","6C","KH","QD","2S"]}"#;

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(data).expect("in memory");
    encoder.finish().expect("in memory")
}

fn zlib(data: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(data).expect("in memory");
    encoder.finish().expect("in memory")
}

/// The analyze request, followed by spaces up to `size` bytes.
fn padded(size: usize) -> String {
    HAND.to_owned() + &" ".repeat(size.saturating_sub(HAND.len()))
}

async fn analyze_encoded(app: &TestApp, coding: &str, body: Vec<u8>) -> reqwest::Response {
    app.client
        .post(app.url("/v1/hands/analyze"))
        .header("content-type", "application/json")
        .header("content-encoding", coding)
        .body(body)
        .send()
        .await
        .expect("answered")
}

#[tokio::test]
async fn gzip_and_deflate_bodies_are_read_as_the_json_they_encode() {
    let app = spawn_app().await;
    let plain: serde_json::Value = app
        .post_json("/v1/hands/analyze", HAND)
        .await
        .json()
        .await
        .expect("json");
    for (coding, body) in [
        ("gzip", gzip(HAND.as_bytes())),
        ("x-gzip", gzip(HAND.as_bytes())),
        ("GZIP", gzip(HAND.as_bytes())),
        ("deflate", zlib(HAND.as_bytes())),
        ("identity", HAND.as_bytes().to_vec()),
        ("identity, gzip", gzip(HAND.as_bytes())),
    ] {
        let response = analyze_encoded(&app, coding, body).await;
        assert_eq!(response.status(), 200, "{coding}");
        let decoded: serde_json::Value = response.json().await.expect("json");
        assert_eq!(decoded, plain, "{coding}");
    }
}

#[tokio::test]
async fn other_or_stacked_codings_are_415_naming_the_supported_ones() {
    let app = spawn_app().await;
    for coding in [
        "br",
        "zstd",
        "compress",
        "gzip, gzip",
        "gzip, deflate",
        "identity, br, gzip",
    ] {
        let response = analyze_encoded(&app, coding, HAND.as_bytes().to_vec()).await;
        let accept = response
            .headers()
            .get("accept-encoding")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let closes = response
            .headers()
            .get("connection")
            .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"close"));
        let problem = expect_problem(response, 415, "unsupported_content_encoding").await;
        assert_eq!(accept.as_deref(), Some("gzip, deflate"), "{coding}");
        assert!(closes, "{coding}: the unread body ends the connection");
        assert!(
            problem.detail.contains("gzip, deflate"),
            "{}",
            problem.detail
        );
    }
}

#[tokio::test]
async fn a_body_that_does_not_decode_is_malformed_json() {
    let app = spawn_app().await;
    let whole = gzip(HAND.as_bytes());
    let mut trailing = whole.clone();
    trailing.extend_from_slice(b"{}");
    for (coding, body) in [
        ("gzip", whole[..whole.len() / 2].to_vec()),
        ("gzip", trailing),
        ("gzip", HAND.as_bytes().to_vec()),
        ("deflate", gzip(HAND.as_bytes())),
        ("gzip", Vec::new()),
    ] {
        let response = analyze_encoded(&app, coding, body).await;
        let problem = expect_problem(response, 400, "malformed_json").await;
        assert!(problem.detail.contains("decoded"), "{}", problem.detail);
    }
}

#[tokio::test]
async fn the_limit_applies_to_the_decoded_body() {
    let app = spawn_app().await;
    // A valid request padded to just under 64 KiB decodes and is answered...
    let under = padded(65_000);
    let response = analyze_encoded(&app, "gzip", gzip(under.as_bytes())).await;
    assert_eq!(response.status(), 200);
    // ...and 1 KiB more is over the limit, however small it is compressed.
    let over = padded(66_560);
    let compressed = gzip(over.as_bytes());
    assert!(compressed.len() < 1024, "{} bytes", compressed.len());
    let response = analyze_encoded(&app, "gzip", compressed).await;
    let problem = expect_problem(response, 413, "payload_too_large").await;
    assert!(problem.detail.contains("65536"), "{}", problem.detail);
}

#[tokio::test]
async fn past_the_floor_a_body_may_inflate_a_hundred_times_at_most() {
    // With a 4 MiB limit: 1 MiB of JSON padding is ~1 KiB of gzip (a ratio near
    // 1000) and is refused.
    let app = spawn_app_with(gin_referee::config::Config {
        body_limit: 4 * 1024 * 1024,
        ..test_config()
    })
    .await;
    let response = analyze_encoded(&app, "gzip", gzip(padded(1024 * 1024).as_bytes())).await;
    let problem = expect_problem(response, 413, "payload_too_large").await;
    assert!(problem.detail.contains("100 times"), "{}", problem.detail);
    // 200 KB of ordinary data compresses about 2:1 and is read (and refused
    // for what it says, not for its size).
    let noise: String = (0..100_000u32)
        .map(|i| format!("{:02x}", (i.wrapping_mul(2_654_435_761) >> 24) as u8))
        .collect();
    let odd = format!(r#"{{"hand": ["7S"], "profile": "{noise}"}}"#);
    let response = analyze_encoded(&app, "gzip", gzip(odd.as_bytes())).await;
    assert_ne!(response.status(), 413);
    let problem: serde_json::Value = response.json().await.expect("a problem");
    assert_eq!(problem["code"], "unknown_profile");
    // Under 64 KiB decoded, any ratio is fine.
    let small = padded(60_000);
    let response = analyze_encoded(&app, "gzip", gzip(small.as_bytes())).await;
    assert_eq!(response.status(), 200);
}
