//! A key's refusal (401, 403, 429) is decided before the body is read; the
//! problem is answered at once and the rest of the body read and thrown away,
//! so that a client that sends its whole body before it reads still reads the
//! problem, never a broken pipe or a reset.
//!
//! Two clients send a batch body paced to last 3 s: a raw socket (which also
//! reads while it sends, to see the answer come at once) and Python's urllib
//! (`paced_upload.py`, driven from here so that both meet the same server:
//! urllib is the client the issue saw fail, and it sends before it reads).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{ALL, APP, DESK, KeysFile, post, sha256, spawn_keyed};

const BATCH: &str = "/v1/hands/analyze/batch";
const LINE: &str =
    "{\"hand\": [\"7S\",\"7H\",\"7D\",\"7C\",\"8H\",\"9H\",\"KS\",\"QD\",\"2C\",\"3D\"]}\n";
/// A body well within the batch limit, sent over this long in `STEPS` chunks.
const BODY_BYTES: usize = 1_200_000;
const PACE: Duration = Duration::from_secs(3);
const STEPS: usize = 30;

/// What the raw socket saw.
#[derive(Debug)]
struct Exchange {
    /// The answer's status and problem code.
    status: u16,
    code: Option<String>,
    /// Since the first byte sent: the answer's first byte, and the body's end.
    answered: Duration,
    sent_in: Duration,
    /// A write or read that failed (a broken pipe, a reset).
    error: Option<String>,
}

fn body() -> Vec<u8> {
    let mut body = LINE.repeat(BODY_BYTES / LINE.len()).into_bytes();
    body.resize(BODY_BYTES, b' ');
    body
}

/// Sends the batch paced over [`PACE`] from a raw socket, reading as it sends.
fn raw_socket(addr: SocketAddr, key: Option<&str>) -> Exchange {
    let mut stream = TcpStream::connect(addr).expect("connected");
    let mut reader = stream.try_clone().expect("a second handle");
    let started = Instant::now();
    let reading = std::thread::spawn(move || {
        let mut answer = Vec::new();
        let mut first = None;
        let mut buffer = [0u8; 4096];
        loop {
            match reader.read(&mut buffer) {
                Ok(0) => return (answer, first, None),
                Ok(read) => {
                    first.get_or_insert_with(|| started.elapsed());
                    answer.extend_from_slice(&buffer[..read]);
                }
                Err(error) => return (answer, first, Some(format!("read: {error}"))),
            }
        }
    });
    let auth = key.map_or(String::new(), |key| {
        format!("Authorization: Bearer {key}\r\n")
    });
    let body = body();
    let head = format!(
        "POST {BATCH} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/x-ndjson\r\n\
         {auth}Content-Length: {}\r\n\r\n",
        body.len()
    );
    let mut error = stream
        .write_all(head.as_bytes())
        .err()
        .map(|e| format!("write: {e}"));
    for chunk in body.chunks(BODY_BYTES / STEPS) {
        if error.is_some() {
            break;
        }
        error = stream.write_all(chunk).err().map(|e| format!("write: {e}"));
        std::thread::sleep(PACE / STEPS as u32);
    }
    let sent_in = started.elapsed();
    let (answer, first, read_error) = reading.join().expect("the reader");
    let text = String::from_utf8_lossy(&answer);
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let code = text
        .split_once("\r\n\r\n")
        .and_then(|(_, json)| serde_json::from_str::<Value>(json).ok())
        .and_then(|problem| problem["code"].as_str().map(str::to_owned));
    Exchange {
        status,
        code,
        answered: first.unwrap_or(Duration::MAX),
        sent_in,
        error: error.or(read_error),
    }
}

/// Python's urllib: each key (`-` for none) in turn; one JSON line each.
fn urllib(addr: SocketAddr, keys: &[&str]) -> Vec<Value> {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/api/keys/paced_upload.py"
    );
    let output = std::process::Command::new("python3")
        .arg(script)
        .arg(format!("http://{addr}{BATCH}"))
        .arg(PACE.as_secs_f64().to_string())
        .arg(BODY_BYTES.to_string())
        .args(keys)
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_sends_its_whole_body_first_reads_every_key_refusal() {
    // DESK: every operation, one request per 1000 s (its token spent below);
    // APP: no batch operation among its scopes.
    let file = KeysFile::new(&json!([
        {"id": "slow", "sha256": sha256(DESK), "scopes": ["*"], "rate": 0.001},
        {"id": "narrow", "sha256": sha256(APP), "scopes": ["audit_hand"]},
    ]));
    let app = spawn_keyed(&file.path).await;
    let hand = r#"{"hand": ["7S","7H","7D","7C","8H","9H","KS","QD","2C","3D"]}"#;
    let spent = post(
        &app,
        "/v1/hands/analyze",
        Some(DESK),
        "application/json",
        hand,
    )
    .await;
    assert_eq!(spent.status().as_u16(), 200);
    let cases = [
        (None, 401, "unauthorized"),
        (Some(ALL), 401, "unauthorized"),
        (Some(DESK), 429, "rate_limited"),
        (Some(APP), 403, "forbidden"),
    ];
    let addr = app.addr;
    let sockets: Vec<_> = cases
        .iter()
        .map(|&(key, _, _)| tokio::task::spawn_blocking(move || raw_socket(addr, key)))
        .collect();
    let keys: Vec<&str> = cases.iter().map(|(key, _, _)| key.unwrap_or("-")).collect();
    let python = tokio::task::spawn_blocking(move || urllib(addr, &keys));
    for (socket, &(key, status, code)) in sockets.into_iter().zip(&cases) {
        let seen = socket.await.expect("the raw socket");
        eprintln!("raw socket, {status} {code}: {seen:?}");
        assert_eq!(seen.error, None, "{key:?}: {seen:?}");
        assert_eq!((seen.status, seen.code.as_deref()), (status, Some(code)));
        assert!(seen.sent_in >= PACE, "{seen:?}");
        assert!(
            seen.answered < Duration::from_secs(1),
            "answered at once: {seen:?}"
        );
    }
    let read = python.await.expect("urllib");
    assert_eq!(read.len(), cases.len());
    for (seen, &(key, status, code)) in read.iter().zip(&cases) {
        eprintln!("urllib, {status} {code}: {seen}");
        assert_eq!(seen.get("error"), None, "{key:?}: {seen}");
        assert_eq!(
            (&seen["status"], &seen["code"]),
            (&json!(status), &json!(code))
        );
        assert_eq!(seen["sent"], json!(BODY_BYTES), "{seen}");
    }
}
