//! The request ceilings: what is refused, and what the largest accepted request
//! costs (answer size, and the server's CPU time and peak memory, measured by
//! the harness of `cost.rs` on a server process of its own).

use gin_referee::http::admission::limits::RequestLimits;
use serde_json::{Value, json};

use crate::cost::{Server, assert_within_request_bounds};
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

/// The attack of the issue (two 16,000-character names and as many void hands as
/// fit in 64 KiB, under Hollywood: 306 MB answered, 838 MiB peak, 1 s of CPU
/// before the ceilings) and the largest match the ceilings allow, against a
/// server process of its own so that its memory and CPU are the request's.
#[test]
fn the_amplification_attack_and_the_largest_legal_match_stay_within_the_request_bounds() {
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
    let server = Server::start(&[]);
    for (what, body, status) in [("attack", attack, 400), ("largest legal", largest, 200)] {
        let ((answered, _, answer), cost) =
            server.measure(|| server.post("/v1/matches/score", &[], body.as_bytes()));
        assert_eq!(answered, status, "{what}");
        assert_within_request_bounds(what, body.len(), answer.len(), cost);
    }
}
