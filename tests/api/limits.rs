//! The request ceilings: what is refused, and what the largest accepted request
//! costs (answer size, and the server's CPU time and peak memory, read from
//! /proc for a server process of its own).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use gin_referee::api::limits::RequestLimits;
use serde_json::{Value, json};

use crate::cli::start_server_with;
use crate::support::{expect_problem, spawn_app, spawn_app_with, test_config};

/// The issue's bound on any answer: at most 128 times the request.
const MAX_RATIO: usize = 128;
/// ... and at most 8 MiB.
const MAX_ANSWER: usize = 8 << 20;

fn void_match(profile: &str, names: [&str; 2], hands: usize) -> String {
    json!({
        "profile": profile,
        "players": names,
        "hands": vec![json!({"void": true}); hands],
    })
    .to_string()
}

/// 40 characters of four bytes each: the widest name the ceiling allows.
fn widest_name(c: char) -> String {
    std::iter::repeat_n(c, 40).collect()
}

#[tokio::test]
async fn lists_and_names_over_their_ceilings_are_refused_with_a_pointer_and_not_echoed() {
    let app = spawn_app().await;
    let long = "x".repeat(16_000);
    let many_hands = void_match("standard", ["a", "b"], 501);
    let long_player = void_match("hollywood", [&long, "b"], 3);
    let long_knocker = json!({
        "players": ["a", "b"],
        "hands": [{"knocker": "y".repeat(41), "knocker_deadwood": 1, "defender_deadwood": 9}],
    })
    .to_string();
    let many_melds = json!({"melds": vec![["AS", "2S", "3S"]; 65]}).to_string();
    let long_meld = json!({"melds": [vec!["AS"; 53]]}).to_string();
    let many_actions = json!({
        "deal": {"dealer": [], "non_dealer": [], "upcard": "AS", "stock": []},
        "actions": vec![json!({"action": "pass", "player": "dealer"}); 257],
    })
    .to_string();
    let cases = [
        ("/v1/matches/score", many_hands, "/hands", "too_many_items"),
        ("/v1/matches/score", long_player, "/players/0", "too_long"),
        (
            "/v1/matches/score",
            long_knocker,
            "/hands/0/knocker",
            "too_long",
        ),
        ("/v1/melds/validate", many_melds, "/melds", "too_many_items"),
        (
            "/v1/melds/validate",
            long_meld,
            "/melds/0",
            "too_many_items",
        ),
        (
            "/v1/hands/audit",
            many_actions,
            "/actions",
            "too_many_items",
        ),
    ];
    for (path, body, pointer, code) in cases {
        let response = app.post_json(path, &body).await;
        let problem = expect_problem(response, 400, "invalid_body").await;
        assert_eq!(problem.errors.len(), 1, "{path} {pointer}: {problem:?}");
        assert_eq!(problem.errors[0].pointer, pointer);
        assert_eq!(problem.errors[0].code, code);
        let answer = serde_json::to_vec(&problem).unwrap();
        assert!(
            answer.len() < 1024,
            "{path} {pointer}: {} bytes",
            answer.len()
        );
    }
}

#[tokio::test]
async fn requests_at_every_ceiling_answer_within_128_times_their_size() {
    let app = spawn_app().await;
    let (first, second) = (widest_name('\u{1D11E}'), widest_name('\u{1D11F}'));
    let matches = void_match("hollywood", [&first, &second], 500);
    let deck: Vec<String> = "SHDC"
        .chars()
        .flat_map(|suit| {
            "A23456789TJQK"
                .chars()
                .map(move |rank| format!("{rank}{suit}"))
        })
        .collect();
    let decks = json!({"melds": vec![deck; 64]}).to_string();
    let one_card_melds = json!({"melds": vec![["AS"]; 64]}).to_string();
    for (path, body) in [
        ("/v1/matches/score", matches),
        ("/v1/melds/validate", decks),
        ("/v1/melds/validate", one_card_melds),
    ] {
        let response = app.post_json(path, &body).await;
        assert_eq!(response.status().as_u16(), 200, "{path}");
        let answer = response.bytes().await.expect("the whole answer");
        assert!(
            answer.len() <= MAX_RATIO * body.len() && answer.len() <= MAX_ANSWER,
            "{path}: {} bytes for a request of {}",
            answer.len(),
            body.len()
        );
    }
}

#[tokio::test]
async fn a_server_enforces_and_documents_the_ceilings_it_was_given() {
    let mut config = test_config();
    config.limits = RequestLimits {
        match_hands: 3,
        ..RequestLimits::default()
    };
    let app = spawn_app_with(config).await;
    let document: Value = app
        .get("/api-docs/openapi.json")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        document.pointer("/components/schemas/MatchRequest/properties/hands/maxItems"),
        Some(&json!(3))
    );
    let ok = app
        .post_json("/v1/matches/score", &void_match("standard", ["a", "b"], 3))
        .await;
    assert_eq!(ok.status().as_u16(), 200);
    let refused = app
        .post_json("/v1/matches/score", &void_match("standard", ["a", "b"], 4))
        .await;
    expect_problem(refused, 400, "invalid_body").await;
}

/// Resident-set peak (VmHWM) and CPU time of a process, from /proc.
fn peak_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    let line = status
        .lines()
        .find(|line| line.starts_with("VmHWM:"))
        .expect("VmHWM");
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    let line = status
        .lines()
        .find(|line| line.starts_with("VmRSS:"))
        .expect("VmRSS");
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// User + system CPU time in clock ticks (1/100 s on Linux).
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("stat");
    let after_name = stat.rsplit_once(')').expect("stat format").1;
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

/// Sends one request and reads the whole answer; returns (status, body length).
fn exchange(addr: &str, path: &str, body: &[u8]) -> (u16, usize) {
    let mut stream = TcpStream::connect(addr).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).expect("the answer");
    let split = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a head");
    let status = std::str::from_utf8(&answer[9..12])
        .unwrap()
        .parse()
        .unwrap();
    (status, answer.len() - split - 4)
}

/// The attack of the issue (two 16,000-character names and as many void hands as
/// fit in 64 KiB, under Hollywood: 306 MB answered, 838 MiB peak, 1 s of CPU
/// before the ceilings) and the largest request the ceilings allow, each sent to
/// a server process of its own so its memory and CPU are the request's.
#[test]
fn the_amplification_attack_and_the_largest_legal_match_cost_little_memory_and_cpu() {
    let long = "x".repeat(16_000);
    let mut attack = void_match("hollywood", [&long, &format!("{long}y")], 0);
    attack.truncate(attack.len() - 2);
    while attack.len() < 65_500 {
        attack.push_str(r#"{"void":true},"#);
    }
    attack.pop();
    attack.push_str("]}");
    let (first, second) = (widest_name('\u{1D11E}'), widest_name('\u{1D11F}'));
    let largest = void_match("hollywood", [&first, &second], 500);
    for (name, body, status) in [("attack", attack, 400), ("largest legal", largest, 200)] {
        let mut server = start_server_with(&[]);
        let pid = server.child.id();
        // Warm up so that the first request's one-off allocations are not counted.
        exchange(
            &server.addr,
            "/v1/matches/score",
            void_match("standard", ["a", "b"], 1).as_bytes(),
        );
        // Resets VmHWM to the current resident set, so the peak read afterwards
        // is this request's.
        std::fs::write(format!("/proc/{pid}/clear_refs"), "5").expect("resets the peak");
        let (rss_before, cpu_before) = (rss_kib(pid), cpu_ticks(pid));
        let (answered, size) = exchange(&server.addr, "/v1/matches/score", body.as_bytes());
        let (peak, cpu) = (peak_kib(pid), cpu_ticks(pid) - cpu_before);
        let _ = server.child.kill();
        let _ = server.child.wait();
        assert_eq!(answered, status, "{name}");
        assert!(
            size <= MAX_RATIO * body.len(),
            "{name}: {size} bytes answered"
        );
        // At most +16 MiB over the resident set before the request.
        assert!(
            peak.saturating_sub(rss_before) <= 16 * 1024,
            "{name}: peak {peak} KiB, {rss_before} KiB before"
        );
        // 50 ms of CPU in a release build; tests run a debug build, about ten
        // times slower, so the bound here is 500 ms (50 ticks).
        assert!(cpu <= 50, "{name}: {cpu} ticks of CPU");
    }
}
