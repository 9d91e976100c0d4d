//! A key's `rate` (a token bucket per process) and `concurrency`: 429 with
//! `Retry-After` for a request over either, back-pressure for a batch's
//! lines.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{APP, DESK, KeysFile, post, sha256, spawn_keyed};

const ANALYZE: &str = r#"{"hand": ["7S","7H","7D","7C","8H","9H","KS","QD","2C","3D"]}"#;

#[tokio::test]
async fn past_its_rate_a_key_is_refused_with_retry_after_and_other_keys_are_not() {
    let file = KeysFile::new(&json!([
        {"id": "slow", "sha256": sha256(DESK), "scopes": ["analyze_hand"], "rate": 3},
        {"id": "free", "sha256": sha256(APP), "scopes": ["analyze_hand"]},
    ]));
    let app = spawn_keyed(&file.path).await;
    let mut statuses = Vec::new();
    let mut retry_after = Vec::new();
    for _ in 0..6 {
        let response = post(
            &app,
            "/v1/hands/analyze",
            Some(DESK),
            "application/json",
            ANALYZE,
        )
        .await;
        statuses.push(response.status().as_u16());
        if let Some(value) = response.headers().get("retry-after") {
            retry_after.push(
                value
                    .to_str()
                    .expect("text")
                    .parse::<u32>()
                    .expect("whole seconds"),
            );
            let problem: Value = response.json().await.expect("JSON");
            assert_eq!(problem["code"], "rate_limited");
        }
    }
    // One second's worth in the bucket: three at once, then refusals (the
    // test is far faster than a third of a second per request).
    assert_eq!(&statuses[..3], &[200, 200, 200], "{statuses:?}");
    assert!(statuses[3..].iter().all(|&s| s == 429), "{statuses:?}");
    assert!(retry_after.iter().all(|&s| s >= 1), "{retry_after:?}");
    for _ in 0..10 {
        let response = post(
            &app,
            "/v1/hands/analyze",
            Some(APP),
            "application/json",
            ANALYZE,
        )
        .await;
        assert_eq!(response.status().as_u16(), 200);
    }
    // The bucket refills at the rate.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let response = post(
        &app,
        "/v1/hands/analyze",
        Some(DESK),
        "application/json",
        ANALYZE,
    )
    .await;
    assert_eq!(response.status().as_u16(), 200);
}

/// A batch whose body is open (chunked, not ended): in flight until closed.
fn open_batch(addr: std::net::SocketAddr, key: &str) -> TcpStream {
    let mut stream = TcpStream::connect(addr).expect("connects");
    let line = format!("{ANALYZE}\n");
    let head = format!(
        "POST /v1/hands/analyze/batch HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer {key}\r\n\
         Content-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{line}\r\n",
        line.len()
    );
    stream.write_all(head.as_bytes()).expect("sent");
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    // The first answer line arrives while the body is still open.
    let mut seen = Vec::new();
    let mut buffer = [0u8; 4096];
    while !String::from_utf8_lossy(&seen).contains("\"line\":1") {
        let read = stream.read(&mut buffer).expect("the first answer");
        assert!(read > 0, "closed early: {}", String::from_utf8_lossy(&seen));
        seen.extend_from_slice(&buffer[..read]);
    }
    stream
}

#[tokio::test]
async fn past_its_concurrency_a_key_is_refused_until_a_request_ends() {
    let file = KeysFile::new(&json!([
        {"id": "one", "sha256": sha256(DESK), "scopes": ["analyze_hand", "analyze_hands"], "concurrency": 1},
        {"id": "free", "sha256": sha256(APP), "scopes": ["analyze_hand"]},
    ]));
    let app = spawn_keyed(&file.path).await;
    let addr = app.addr;
    let open = tokio::task::spawn_blocking(move || open_batch(addr, DESK))
        .await
        .expect("opened");
    let response = post(
        &app,
        "/v1/hands/analyze",
        Some(DESK),
        "application/json",
        ANALYZE,
    )
    .await;
    assert_eq!(response.status().as_u16(), 429);
    let retry: u32 = response.headers()["retry-after"]
        .to_str()
        .expect("text")
        .parse()
        .expect("seconds");
    assert!(retry >= 1);
    let problem: Value = response.json().await.expect("JSON");
    assert_eq!(problem["code"], "rate_limited");
    assert!(
        problem["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("concurrency"),
        "{problem}"
    );
    // Another key is not held back by this one.
    let response = post(
        &app,
        "/v1/hands/analyze",
        Some(APP),
        "application/json",
        ANALYZE,
    )
    .await;
    assert_eq!(response.status().as_u16(), 200);
    // Ending the batch frees its slot.
    tokio::task::spawn_blocking(move || {
        let mut open = open;
        open.write_all(b"0\r\n\r\n").expect("ended");
        let mut rest = Vec::new();
        let _ = open.read_to_end(&mut rest);
    })
    .await
    .expect("ended");
    let mut status = 0;
    for _ in 0..50 {
        status = post(
            &app,
            "/v1/hands/analyze",
            Some(DESK),
            "application/json",
            ANALYZE,
        )
        .await
        .status()
        .as_u16();
        if status == 200 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(status, 200, "the slot is freed when the batch ends");
}

#[tokio::test]
async fn a_batch_is_read_no_faster_than_its_keys_rate_and_every_line_is_answered() {
    let file = KeysFile::new(&json!([
        {"id": "paced", "sha256": sha256(DESK), "scopes": ["analyze_hands"], "rate": 20},
    ]));
    let app = spawn_keyed(&file.path).await;
    for (content_type, body) in [
        ("application/x-ndjson", format!("{ANALYZE}\n").repeat(50)),
        (
            "application/json",
            format!("[{}]", vec![ANALYZE; 50].join(",")),
        ),
    ] {
        let started = Instant::now();
        let response = post(
            &app,
            "/v1/hands/analyze/batch",
            Some(DESK),
            content_type,
            &body,
        )
        .await;
        assert_eq!(response.status().as_u16(), 200, "{content_type}");
        let text = response.text().await.expect("answers");
        let elapsed = started.elapsed();
        let results = text.matches("\"result\"").count();
        assert_eq!(results, 50, "{content_type}: every line answered: {text}");
        assert!(
            !text.contains("rate_limited"),
            "{content_type}: no 429 mid-stream"
        );
        // 20 lines from the full bucket, 30 more at 20 a second: 1.5 s at
        // least (the first batch emptied the bucket for the second too).
        assert!(
            elapsed >= Duration::from_millis(1400),
            "{content_type}: {elapsed:?}"
        );
        // The bucket is empty now: a request waits no more, it is refused.
        let response = post(
            &app,
            "/v1/hands/analyze/batch",
            Some(DESK),
            content_type,
            &body,
        )
        .await;
        assert_eq!(response.status().as_u16(), 429, "{content_type}");
        tokio::time::sleep(Duration::from_millis(1100)).await;
    }
}
