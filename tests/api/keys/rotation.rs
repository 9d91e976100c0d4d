//! Rotation without a restart: the keys file is read again when it changes,
//! as an edit renamed into place or as Kubernetes swaps a mounted Secret; a
//! file that stops parsing, or disappears, keeps the keys in force. And the
//! log: the key's id on each request's line, never a key.

use std::time::Duration;

use serde_json::json;

use super::{ALL, APP, DESK, KeysFile, NOBODY, entry, post, spawn_keyed};
use crate::cost::Server;
use crate::support::TestApp;

const ANALYZE: &str = r#"{"hand": ["7S","7H","7D","7C","8H","9H","KS","QD","2C","3D"]}"#;

async fn status(app: &TestApp, key: &str) -> u16 {
    post(
        app,
        "/v1/hands/analyze",
        Some(key),
        "application/json",
        ANALYZE,
    )
    .await
    .status()
    .as_u16()
}

/// Waits until `key` is answered `expected`, for at most 5 s (the file is
/// read again every second).
async fn until(app: &TestApp, key: &str, expected: u16) -> Duration {
    let started = std::time::Instant::now();
    while started.elapsed() < Duration::from_secs(5) {
        if status(app, key).await == expected {
            return started.elapsed();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{key:.8}... was not answered {expected} within 5 s");
}

#[tokio::test]
async fn a_new_file_renamed_over_the_old_one_takes_effect_within_seconds() {
    let file = KeysFile::new(&json!([entry("old", DESK, &["analyze_hand"])]));
    let app = spawn_keyed(&file.path).await;
    assert_eq!(status(&app, DESK).await, 200);
    assert_eq!(status(&app, APP).await, 401);
    file.replace(&json!([entry("new", APP, &["analyze_hand"])]).to_string());
    let took = until(&app, APP, 200).await;
    assert_eq!(status(&app, DESK).await, 401, "the removed key stops");
    assert!(took < Duration::from_secs(3), "{took:?}");
}

/// Each worker remembers the last key it admitted (so as not to hash it
/// again): a change to that very key, with no other key called in between,
/// still takes effect.
#[tokio::test]
async fn a_change_to_the_key_that_called_last_takes_effect() {
    let file = KeysFile::new(&json!([entry("desk", DESK, &["analyze_hand"])]));
    let app = spawn_keyed(&file.path).await;
    assert_eq!(status(&app, DESK).await, 200);
    assert_eq!(status(&app, DESK).await, 200);
    file.replace(&json!([entry("desk", DESK, &["audit_match"])]).to_string());
    let took = until(&app, DESK, 403).await;
    assert!(took < Duration::from_secs(3), "{took:?}");
    file.replace(&json!([entry("app", APP, &["analyze_hand"])]).to_string());
    let took = until(&app, DESK, 401).await;
    assert!(took < Duration::from_secs(3), "{took:?}");
}

#[tokio::test]
async fn a_kubernetes_secret_swap_takes_effect() {
    // A mounted Secret: keys.json -> ..data/keys.json, ..data -> ..<timestamp>;
    // an update writes a new timestamped directory and renames a new ..data
    // link over the old one.
    let dir = tempfile::tempdir().expect("a directory");
    let root = dir.path();
    let first = root.join("..2026_01");
    std::fs::create_dir(&first).expect("created");
    std::fs::write(
        first.join("keys.json"),
        json!([entry("old", DESK, &["analyze_hand"])]).to_string(),
    )
    .expect("written");
    std::os::unix::fs::symlink("..2026_01", root.join("..data")).expect("linked");
    std::os::unix::fs::symlink("..data/keys.json", root.join("keys.json")).expect("linked");
    let app = spawn_keyed(&root.join("keys.json")).await;
    assert_eq!(status(&app, DESK).await, 200);

    let second = root.join("..2026_02");
    std::fs::create_dir(&second).expect("created");
    std::fs::write(
        second.join("keys.json"),
        json!([entry("new", APP, &["analyze_hand"])]).to_string(),
    )
    .expect("written");
    std::os::unix::fs::symlink("..2026_02", root.join("..data_tmp")).expect("linked");
    std::fs::rename(root.join("..data_tmp"), root.join("..data")).expect("swapped");
    std::fs::remove_dir_all(&first).expect("the old version goes");
    until(&app, APP, 200).await;
    assert_eq!(status(&app, DESK).await, 401);
}

#[tokio::test]
async fn a_file_that_stops_parsing_or_disappears_keeps_the_keys_in_force() {
    let file = KeysFile::new(&json!([entry("desk", DESK, &["analyze_hand"])]));
    let app = spawn_keyed(&file.path).await;
    for broken in [
        "not json at all".to_owned(),
        json!([{"id": "x", "sha256": "short", "scopes": []}]).to_string(),
        json!([entry("desk", DESK, &["no_such_operation"])]).to_string(),
        String::new(),
    ] {
        file.replace(&broken);
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert_eq!(status(&app, DESK).await, 200, "after {broken:?}");
    }
    std::fs::remove_file(&file.path).expect("removed");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(status(&app, DESK).await, 200, "after the file is gone");
    // And a good file afterwards is read.
    file.replace(&json!([entry("app", APP, &["analyze_hand"])]).to_string());
    until(&app, APP, 200).await;
    assert_eq!(status(&app, DESK).await, 401);
}

#[test]
fn the_log_names_the_key_by_its_id_and_never_holds_a_key() {
    let file = KeysFile::new(&json!([
        entry("desk", DESK, &["analyze_hand"]),
        entry("all", ALL, &["*"]),
    ]));
    let path = file.path.to_str().expect("a UTF-8 path").to_owned();
    let server = Server::start(&["--api-keys", &path]);
    for key in [DESK, ALL, NOBODY, APP] {
        let authorization = format!("Bearer {key}");
        server.post(
            "/v1/hands/analyze",
            &[
                ("authorization", &authorization),
                ("content-type", "application/json"),
            ],
            ANALYZE.as_bytes(),
        );
    }
    let (status, _, _) = server.post("/v1/hands/analyze", &[], ANALYZE.as_bytes());
    assert_eq!(status, 401);
    // A file that stops parsing is an error in the log, without its text.
    std::fs::write(
        &file.path,
        format!("[{{\"id\": \"x\", \"key\": \"{APP}\"}}]"),
    )
    .expect("written");
    std::thread::sleep(Duration::from_millis(2500));
    let (status, _, _) = server.post(
        "/v1/hands/analyze",
        &[
            ("authorization", &format!("Bearer {DESK}")),
            ("content-type", "application/json"),
        ],
        ANALYZE.as_bytes(),
    );
    assert_eq!(status, 200);
    // The log is read by a thread of its own: give it the last lines.
    std::thread::sleep(Duration::from_millis(300));
    let logs = server.all_lines();
    let text: String = logs.iter().map(|line| format!("{line}\n")).collect();
    for key in [DESK, ALL, NOBODY, APP] {
        assert!(!text.contains(key), "a key in the log:\n{text}");
    }
    let access: Vec<&serde_json::Value> = logs
        .iter()
        .filter(|line| {
            line["target"] == "gin_referee::access" && line["span"]["path"] == "/v1/hands/analyze"
        })
        .collect();
    let keys: Vec<Option<&str>> = access
        .iter()
        .map(|line| {
            // The key's id is a field of the access line, not of its span.
            assert!(line["span"].get("key").is_none(), "{line}");
            line["key"].as_str()
        })
        .collect();
    assert_eq!(
        keys,
        [
            None,
            Some("desk"),
            Some("all"),
            None,
            None,
            None,
            Some("desk")
        ],
        "the warm-up, four keys, no key, the desk again:\n{text}"
    );
    assert!(
        logs.iter().any(|line| line["level"] == "ERROR"
            && line["message"]
                .as_str()
                .unwrap_or_default()
                .contains("does not parse")),
        "{text}"
    );
}

#[test]
fn without_a_keys_file_the_start_warns_that_everything_is_open() {
    let server = Server::start(&[]);
    let warned = server.all_lines().iter().any(|line| {
        line["level"] == "WARN"
            && line["message"]
                .as_str()
                .unwrap_or_default()
                .contains("no --api-keys")
    });
    assert!(warned, "{:?}", server.all_lines());
}
