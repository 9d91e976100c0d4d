//! The bulk (NDJSON) endpoints over HTTP: one answer line per request line in
//! order with ids echoed, bad lines answered without stopping the rest, the
//! framing faults, answers streamed before the body ends, and what a client
//! that stops reading costs the server.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::cost::Server;
use crate::support::{TestApp, spawn_app};

const NDJSON: &str = "application/x-ndjson";
const TEN: &str = r#"["7S","7H","7D","7C","8H","9H","KS","QD","2C","3D"]"#;

async fn batch(app: &TestApp, path: &str, body: String) -> (u16, Vec<Value>) {
    let response = app
        .client
        .post(app.url(path))
        .header("content-type", NDJSON)
        .body(body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (status, json_lines(&text))
}

/// Each line of an NDJSON answer, read as JSON.
fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|_| panic!("not JSON: {line}")))
        .collect()
}

/// The body as a reading client sees it: the chunks of a chunked answer
/// joined (chunk sizes are hex lines between the data).
fn dechunk(body: &[u8]) -> String {
    let mut text = String::from_utf8_lossy(body).into_owned();
    let mut out = String::new();
    while let Some((size, rest)) = text.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        text = rest[size..].trim_start_matches("\r\n").to_owned();
    }
    out
}

#[tokio::test]
async fn each_line_is_answered_in_order_with_its_id_and_bad_lines_do_not_stop_the_rest() {
    let app = spawn_app().await;
    let body = format!(
        "{{\"id\": \"first\", \"hand\": {TEN}}}\n\
         {{\"hand\": [\"AS\"], \"id\": 2}}\n\
         \n\
         not json\n\
         {{\"hand\": {TEN}, \"profile\": \"gin\"}}\n\
         {{\"hand\": {TEN}, \"id\": {{\"nested\": [1, 2]}}, \"all_arrangements\": true}}"
    );
    let (status, lines) = batch(&app, "/v1/hands/analyze/batch", body).await;
    assert_eq!(status, 200);
    let numbers: Vec<u64> = lines.iter().map(|l| l["line"].as_u64().unwrap()).collect();
    assert_eq!(
        numbers,
        [1, 2, 4, 5, 6],
        "a blank line is counted but not answered"
    );
    assert_eq!(lines[0]["id"], "first");
    assert_eq!(lines[0]["result"]["deadwood"], 25);
    assert_eq!(lines[1]["id"], 2);
    assert_eq!(lines[1]["problem"]["code"], "wrong_card_count");
    assert_eq!(lines[1]["problem"]["errors"][0]["pointer"], "/hand");
    assert_eq!(lines[2]["problem"]["code"], "malformed_json");
    assert!(lines[2].get("id").is_none());
    assert_eq!(lines[3]["problem"]["code"], "unknown_profile");
    assert_eq!(lines[3]["problem"]["errors"][0]["pointer"], "/profile");
    assert_eq!(lines[4]["id"], json!({"nested": [1, 2]}));
    assert!(lines[4]["result"]["arrangements"].is_array());
    // The same answers as the single endpoint.
    let single = app
        .post_json("/v1/hands/analyze", &format!("{{\"hand\": {TEN}}}"))
        .await;
    let single: Value = single.json().await.unwrap();
    assert_eq!(lines[0]["result"], single);
    // The lines were counted.
    let metrics = app.get("/metrics").await.text().await.unwrap();
    assert!(
        metrics.contains(r#"batch_items_total{operation="analyze_hand",outcome="problem"} 3"#),
        "{metrics}"
    );
}

#[tokio::test]
async fn every_batch_endpoint_answers_its_documented_example_as_documented() {
    let app = spawn_app().await;
    let doc: Value = app
        .get("/api-docs/openapi.json")
        .await
        .json()
        .await
        .unwrap();
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        if !path.ends_with("/batch") {
            continue;
        }
        let operation = &item["post"];
        let request = operation["requestBody"]["content"][NDJSON]["example"]
            .as_str()
            .unwrap_or_else(|| panic!("{path}: no NDJSON request example"));
        let documented = operation["responses"]["200"]["content"][NDJSON]["example"]
            .as_str()
            .unwrap_or_else(|| panic!("{path}: no NDJSON answer example"));
        let (status, lines) = batch(&app, path, request.to_owned()).await;
        assert_eq!(status, 200, "{path}");
        let documented: Vec<Value> = documented
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines, documented, "{path}");
        checked += 1;
    }
    assert_eq!(checked, 5);
}

#[tokio::test]
async fn a_batch_must_be_ndjson_without_a_content_coding() {
    let app = spawn_app().await;
    let response = app
        .client
        .post(app.url("/v1/layoffs/batch"))
        .header("content-type", "text/plain")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 415);
    let response = app
        .client
        .post(app.url("/v1/layoffs/batch"))
        .header("content-type", NDJSON)
        .header("content-encoding", "gzip")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 415);
    let problem: Value = response.json().await.unwrap();
    assert_eq!(problem["code"], "unsupported_content_encoding");
    // An empty batch has an empty answer.
    let (status, lines) = batch(&app, "/v1/layoffs/batch", String::new()).await;
    assert_eq!((status, lines.len()), (200, 0));
}

#[test]
fn framing_faults_are_the_answer_before_any_line_and_a_last_line_after() {
    let server = Server::start(&["--batch-max-line-bytes", "1024", "--batch-max-lines", "3"]);
    let headers = [("Content-Type", NDJSON)];
    let long = format!("{{\"hand\": {TEN}, \"id\": \"{}\"}}\n", "x".repeat(2000));
    let short = format!("{{\"hand\": {TEN}}}\n");
    // The first line too long: the batch's own status.
    let (status, _, body) = server.post("/v1/hands/analyze/batch", &headers, long.as_bytes());
    assert_eq!(status, 413, "{}", String::from_utf8_lossy(&body));
    assert!(String::from_utf8_lossy(&body).contains("line_too_long"));
    // A long line after answers started: a last line with the problem.
    let body = format!("{short}{long}{short}");
    let (status, _, raw) = server.post("/v1/hands/analyze/batch", &headers, body.as_bytes());
    assert_eq!(status, 200);
    let text = dechunk(&raw);
    let lines = json_lines(&text);
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(lines[0]["line"], 1);
    assert!(lines[1].get("line").is_none());
    assert_eq!(lines[1]["problem"]["code"], "line_too_long");
    // More lines than allowed.
    let body = short.repeat(5);
    let (status, _, raw) = server.post("/v1/hands/analyze/batch", &headers, body.as_bytes());
    assert_eq!(status, 200);
    let text = dechunk(&raw);
    let lines = json_lines(&text);
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(lines[3]["problem"]["code"], "too_many_lines");
}

/// Opens a chunked batch on a raw connection: the answer to the first line
/// must arrive while the body is still open.
#[test]
fn answers_stream_back_before_the_body_ends() {
    let server = Server::start(&[]);
    let mut stream = TcpStream::connect(server.addr()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let head = format!(
        "POST /v1/hands/analyze/batch HTTP/1.1\r\nHost: batch\r\nContent-Type: {NDJSON}\r\n\
         Transfer-Encoding: chunked\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).unwrap();
    let line = format!("{{\"id\": 1, \"hand\": {TEN}}}\n");
    stream
        .write_all(format!("{:x}\r\n{line}\r\n", line.len()).as_bytes())
        .unwrap();
    let mut seen = Vec::new();
    let mut buffer = [0u8; 4096];
    let started = Instant::now();
    while !String::from_utf8_lossy(&seen).contains("\"line\":1") {
        let n = stream.read(&mut buffer).expect("the first answer arrives");
        assert!(n > 0, "closed early: {}", String::from_utf8_lossy(&seen));
        seen.extend_from_slice(&buffer[..n]);
        assert!(started.elapsed() < Duration::from_secs(10));
    }
    // The body goes on; the second answer follows, then the end.
    let line = format!("{{\"id\": 2, \"hand\": {TEN}}}\n");
    stream
        .write_all(format!("{:x}\r\n{line}\r\n0\r\n\r\n", line.len()).as_bytes())
        .unwrap();
    let mut rest = Vec::new();
    let _ = stream.read_to_end(&mut rest);
    seen.extend_from_slice(&rest);
    let text = String::from_utf8_lossy(&seen);
    assert!(text.contains("\"line\":2"), "{text}");
}

/// A client that sends a large batch and never reads, past its spool limit:
/// the server stops reading too (back-pressure), so its memory and its disk
/// stay flat however much the client would send.
#[test]
fn a_client_that_stops_reading_costs_a_bounded_amount_of_memory() {
    let server = Server::start(&["--stall-timeout", "3", "--batch-spool-limit", "1048576"]);
    let line = format!("{{\"hand\": {TEN}}}\n");
    let lines_per_chunk = 1000;
    let chunk = line.repeat(lines_per_chunk);
    let ((sent, cut_off), cost) = server.measure(|| {
        let mut stream = TcpStream::connect(server.addr()).unwrap();
        stream
            .set_write_timeout(Some(Duration::from_secs(2)))
            .unwrap();
        let head = format!(
            "POST /v1/hands/analyze/batch HTTP/1.1\r\nHost: batch\r\nContent-Type: {NDJSON}\r\n\
             Transfer-Encoding: chunked\r\n\r\n"
        );
        stream.write_all(head.as_bytes()).unwrap();
        let framed = format!("{:x}\r\n{chunk}\r\n", chunk.len());
        let mut sent = 0usize;
        // Up to 200 MB, never reading an answer.
        let cut_off = loop {
            if sent >= 200 * 1024 * 1024 {
                break false;
            }
            match stream.write_all(framed.as_bytes()) {
                Ok(()) => sent += framed.len(),
                Err(_) => break true,
            }
        };
        (sent, cut_off)
    });
    eprintln!("client that stops reading: sent {sent} bytes before being stopped; {cost:?}");
    assert!(
        cut_off,
        "the server read all {sent} bytes without the client reading"
    );
    assert!(sent < 64 * 1024 * 1024, "{sent} bytes accepted");
    assert!(cost.peak_kib() < 32 * 1024, "{cost:?}");
}
