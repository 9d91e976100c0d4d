//! Each operation documents exactly the error codes it answers with.
//!
//! For every operation of the served OpenAPI document, the codes documented
//! under its error responses (one example per code) are compared with the
//! codes the service answers: the body-level codes are provoked the same way
//! for every operation that reads a body, and each rules code by a request
//! below. A code documented but never provoked, or answered but not
//! documented, fails the test, as does a request answered with another code
//! than the one it was written to provoke.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use crate::support::spawn_app;

/// Codes no request here can provoke in a few milliseconds, or with the
/// default limits; each is covered by its own test (`hostile.rs`: a slow head
/// or body; `batch.rs`: a stalled batch, an unreadable body; `bulk.rs`: a JSON
/// batch with more items than a lowered `--batch-max-lines`).
///
/// The refusals of API keys need a server started with a keys file:
/// `keys.rs` provokes each on every operation that documents it.
const PROVOKED_ELSEWHERE: &[&str] = &[
    "unauthorized",
    "forbidden",
    "rate_limited",
    "request_timeout",
    "batch_timeout",
    "malformed_request",
    "too_many_lines",
    // Needs the memory budget full: the load tests (tests/api/memory.rs).
    "overloaded",
];

const KNOCKER: [&str; 10] = ["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "AH"];
const DEFENDER: [&str; 10] = ["6H", "2H", "JS", "JH", "JD", "7S", "7H", "7C", "4D", "5S"];
const TEN: [&str; 10] = ["7S", "7H", "7D", "7C", "8H", "9H", "KS", "QD", "2C", "3D"];

fn knocker_melds() -> Value {
    json!([["3H", "4H", "5H"], ["9S", "9H", "9D"], ["3C", "4C", "5C"]])
}

/// A knock with the defender laying off `layoffs` (meld indices into
/// [`knocker_melds`]).
fn knock_with_layoffs(layoffs: Value) -> Value {
    json!({
        "knocker": {"hand": KNOCKER, "melds": knocker_melds()},
        "defender": {"hand": DEFENDER, "layoffs": layoffs}
    })
}

fn with(mut body: Value, pointer_key: &str, value: Value) -> Value {
    if let Some(object) = body.as_object_mut() {
        object.insert(pointer_key.to_owned(), value);
    }
    body
}

/// The profile faults, on any body that takes a `profile`.
fn profile_cases(base: &Value) -> Vec<(&'static str, Value)> {
    vec![
        (
            "unknown_profile",
            with(base.clone(), "profile", json!("okla")),
        ),
        (
            "invalid_profile",
            with(
                base.clone(),
                "profile",
                json!({"base": "standard", "gin_bonus": 10001}),
            ),
        ),
        (
            "invalid_profile_combination",
            with(
                base.clone(),
                "profile",
                json!({"base": "standard", "ace_upcard_knock_limit": 5}),
            ),
        ),
    ]
}

/// The hand faults of an operation that lays down a knock.
fn knock_cases(base: &Value) -> Vec<(&'static str, Value)> {
    let mut duplicate = KNOCKER;
    duplicate[9] = "6H";
    let over_limit = ["KS", "QD", "TC", "9C", "8D", "6C", "5H", "3S", "2D", "AC"];
    let mut eleven = KNOCKER.to_vec();
    eleven.push("KS");
    let big_gin = [
        "3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "6C", "9C",
    ];
    let knocker = |hand: Value| with(base.clone(), "knocker", json!({"hand": hand}));
    vec![
        ("duplicate_card", knocker(json!(duplicate))),
        ("wrong_card_count", knocker(json!(&KNOCKER[..9]))),
        ("knock_over_limit", knocker(json!(over_limit))),
        (
            "invalid_melds",
            with(
                base.clone(),
                "knocker",
                json!({"hand": KNOCKER, "melds": [["3H", "4H", "9S"]]}),
            ),
        ),
        (
            "not_big_gin",
            with(knocker(json!(eleven)), "profile", big_gin_played()),
        ),
        ("big_gin_not_allowed", knocker(json!(big_gin))),
        (
            "upcard_required",
            with(base.clone(), "profile", json!("oklahoma")),
        ),
    ]
}

/// No preset plays big gin; this profile does.
fn big_gin_played() -> Value {
    json!({"base": "standard", "big_gin_bonus": 31})
}

fn layoff_cases() -> Vec<(&'static str, Value)> {
    let gin = ["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "6C"];
    vec![
        (
            "layoffs_not_allowed",
            json!({
                "knocker": {"hand": gin},
                "defender": {"hand": DEFENDER, "layoffs": [{"card": "6H", "meld": 0}]}
            }),
        ),
        (
            "layoff_card_not_in_hand",
            knock_with_layoffs(json!([{"card": "2S", "meld": 0}])),
        ),
        (
            "layoff_card_repeated",
            knock_with_layoffs(json!([{"card": "6H", "meld": 0}, {"card": "6H", "meld": 0}])),
        ),
        (
            "layoff_meld_not_found",
            knock_with_layoffs(json!([{"card": "6H", "meld": 9}])),
        ),
        (
            "layoff_does_not_fit",
            knock_with_layoffs(json!([{"card": "JS", "meld": 0}])),
        ),
    ]
}

/// The hand with a joker in place of its last card.
fn with_joker(hand: &[&'static str; 10]) -> Vec<&'static str> {
    let mut hand = hand.to_vec();
    hand[9] = "X1";
    hand
}

/// The joker faults of an operation that lays down a knock.
fn joker_cases() -> Vec<(&'static str, Value)> {
    vec![(
        "joker_not_in_deck",
        json!({"knocker": {"hand": with_joker(&KNOCKER)}, "defender": {"hand": DEFENDER}}),
    )]
}

fn deal() -> Value {
    json!({
        "dealer": ["7S", "8S", "TS", "JD", "QH", "KH", "3C", "4C", "7H", "4S"],
        "non_dealer": ["AS", "2S", "3S", "4H", "5H", "6H", "9C", "9D", "9H", "KC"],
        "upcard": "2C",
        "stock": ["2H", "5S", "6S", "9S", "JS", "QS", "KS", "AH", "3H", "8H", "TH", "JH", "AD",
            "2D", "3D", "4D", "5D", "6D", "7D", "8D", "TD", "QD", "KD", "AC", "5C", "6C", "7C",
            "8C", "TC", "JC", "QC"]
    })
}

fn deal_with(pointer: &str, value: Value) -> Value {
    let mut deal = deal();
    if let Some(target) = deal.pointer_mut(pointer) {
        *target = value;
    }
    deal
}

/// Both pass the upcard and the non-dealer draws, naming no card.
fn opening_draw() -> Value {
    json!([
        {"player": "non_dealer", "action": "pass"},
        {"player": "dealer", "action": "pass"},
        {"player": "non_dealer", "action": "draw", "from": "stock"}
    ])
}

fn seeded_deal(client_seed: &str) -> Value {
    json!({
        "seeds": {"server_seed": "00".repeat(32), "client_seed": client_seed, "nonce": 0},
        "commitment": "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    })
}

fn count(knocker: &str, knocker_deadwood: u32, defender_deadwood: u32) -> Value {
    json!({"knocker": knocker, "knocker_deadwood": knocker_deadwood, "defender_deadwood": defender_deadwood})
}

fn two_player_match(hands: Value) -> Value {
    json!({"players": ["Mom", "Dad"], "hands": hands})
}

/// A match hand from cards: a knock as `/v1/hands/score` takes it.
fn cards_hand(knock: &Value) -> Value {
    let mut hand = json!({"knocker": "Mom", "knocker_hand": knock["knocker"], "defender_hand": knock["defender"]});
    if knock["defender"].is_null() {
        hand["defender_hand"] = json!({"hand": DEFENDER});
    }
    hand
}

/// The requests that provoke each rules code, by operation.
fn rules_cases() -> BTreeMap<&'static str, Vec<(&'static str, Value)>> {
    let analyze = json!({"hand": TEN});
    let knock = json!({"knocker": {"hand": KNOCKER}, "defender": {"hand": DEFENDER}});
    let mut cases = BTreeMap::new();

    let mut repeated = TEN;
    repeated[1] = "7S";
    let mut analyze_cases = profile_cases(&analyze);
    analyze_cases.extend([
        (
            "upcard_required",
            with(analyze.clone(), "profile", json!("oklahoma")),
        ),
        ("duplicate_card", json!({"hand": repeated})),
        ("wrong_card_count", json!({"hand": &TEN[..9]})),
        ("joker_not_in_deck", json!({"hand": with_joker(&TEN)})),
    ]);
    cases.insert("POST /v1/hands/analyze", analyze_cases);

    let mut score_cases = profile_cases(&knock);
    score_cases.extend(knock_cases(&knock));
    score_cases.extend(layoff_cases());
    score_cases.extend(joker_cases());
    cases.insert("POST /v1/hands/score", score_cases);

    let mut layoffs_cases = profile_cases(&knock);
    layoffs_cases.extend(knock_cases(&knock));
    layoffs_cases.extend(joker_cases());
    cases.insert("POST /v1/layoffs", layoffs_cases);

    cases.insert(
        "POST /v1/melds/validate",
        vec![(
            "duplicate_card",
            json!({"melds": [["7S", "7H", "7D"]], "hand": repeated}),
        )],
    );

    let audit = json!({"deal": deal(), "actions": []});
    let mut audit_cases = profile_cases(&audit);
    audit_cases.extend([
        (
            "duplicate_card",
            json!({"deal": deal_with("/dealer/0", json!("AS")), "actions": []}),
        ),
        (
            "wrong_card_count",
            json!({"deal": deal_with("/dealer", json!(["7S", "8S"])), "actions": []}),
        ),
        (
            "client_seed_too_long",
            json!({"deal": seeded_deal(&"é".repeat(200)), "actions": []}),
        ),
        (
            "unrecorded_draw",
            json!({"deal": deal_with("/stock", json!([])), "actions": opening_draw()}),
        ),
        (
            "joker_not_in_deck",
            json!({"deal": deal_with("/upcard", json!("X1")), "actions": []}),
        ),
    ]);
    cases.insert("POST /v1/hands/state", audit_cases.clone());
    // The move reads the state's body: the same bodies with a seat and a
    // bot provoke the same codes, and two of its own.
    let bot = |body: &Value, seat: &str| {
        let body = with(body.clone(), "seat", json!(seat));
        with(body, "bot", json!({"name": "simple"}))
    };
    let mut move_cases: Vec<(&str, Value)> = audit_cases
        .iter()
        .map(|(code, body)| (*code, bot(body, "non_dealer")))
        .collect();
    move_cases.extend([
        ("not_to_act", bot(&audit, "dealer")),
        (
            "upcard_offer_violated",
            bot(
                &json!({"deal": deal(), "actions": [{"player": "dealer", "action": "pass"}]}),
                "non_dealer",
            ),
        ),
    ]);
    cases.insert("POST /v1/hands/move", move_cases);
    cases.insert("POST /v1/hands/audit", audit_cases);

    let matches = two_player_match(json!([count("Mom", 5, 15)]));
    let mut match_cases = profile_cases(&matches);
    let mut s0 = vec![
        count("Mom", 5, 15),
        count("Mom", 0, 6),
        count("Mom", 4, 2),
        count("Mom", 10, 43),
        count("Dad", 0, 10),
        count("Mom", 0, 11),
    ];
    s0.push(json!({"void": true}));
    for (code, body) in knock_cases(&knock).into_iter().chain(layoff_cases()) {
        if code == "upcard_required" {
            continue;
        }
        let mut scored = two_player_match(json!([cards_hand(&body)]));
        if let Some(profile) = body.get("profile") {
            scored = with(scored, "profile", profile.clone());
        }
        match_cases.push((code, scored));
    }
    for (code, body) in joker_cases() {
        let mut scored = two_player_match(json!([cards_hand(&body)]));
        if let Some(profile) = body.get("profile") {
            scored = with(scored, "profile", profile.clone());
        }
        match_cases.push((code, scored));
    }
    match_cases.extend([
        (
            "upcard_required",
            with(matches.clone(), "profile", json!("oklahoma")),
        ),
        ("game_over", two_player_match(json!(s0))),
        (
            "big_gin_with_deadwood",
            with(
                two_player_match(
                    json!([{"knocker": "Mom", "knocker_deadwood": 3, "defender_deadwood": 20, "big_gin": true}]),
                ),
                "profile",
                big_gin_played(),
            ),
        ),
        ("impossible_count", two_player_match(json!([count("Mom", 0, 99)]))),
        (
            "blank_player_name",
            json!({"players": [" ", "Dad"], "hands": []}),
        ),
        (
            "duplicate_player_name",
            json!({"players": ["Mom", "Mom"], "hands": []}),
        ),
        ("unknown_player", two_player_match(json!([count("Eve", 5, 15)]))),
        (
            "same_player_twice",
            json!({"players": ["Ann", "Bob", "Cy"], "hands": [{"knocker": "Ann", "defender": "Ann", "knocker_deadwood": 4, "defender_deadwood": 20}]}),
        ),
        (
            "rotation_broken",
            json!({"players": ["Ann", "Bob", "Cy"], "hands": [{"knocker": "Ann", "defender": "Bob", "knocker_deadwood": 4, "defender_deadwood": 20}, {"knocker": "Ann", "defender": "Bob", "knocker_deadwood": 4, "defender_deadwood": 20}]}),
        ),
        (
            "pairing_broken",
            json!({"teams": [{"name": "NS", "players": ["Ann", "Cy"]}, {"name": "EW", "players": ["Bob", "Dee"]}],
                "hands": [{"tables": [
                    {"knocker": "Ann", "defender": "Cy", "knocker_deadwood": 3, "defender_deadwood": 15},
                    {"knocker": "Dee", "defender": "Bob", "knocker_deadwood": 2, "defender_deadwood": 12}]}]}),
        ),
        (
            "hollywood_not_defined",
            json!({"profile": "hollywood", "players": ["Ann", "Bob", "Cy"], "hands": []}),
        ),
        (
            "blank_team_name",
            json!({"teams": [{"name": "", "players": ["Ann", "Cy"]}, {"name": "EW", "players": ["Bob", "Dee"]}], "hands": []}),
        ),
        ("players_or_teams", json!({"hands": []})),
        (
            "wrong_hand_shape",
            two_player_match(json!([{"tables": [count("Mom", 5, 15), count("Dad", 5, 15)]}])),
        ),
    ]);
    cases.insert("POST /v1/matches/score", match_cases);

    let hand = |deal: Value| json!({"dealer": "Ann", "deal": deal, "actions": []});
    let audited = |hands: Value| json!({"players": ["Ann", "Bob"], "hands": hands});
    let mut match_audit_cases = profile_cases(&audited(json!([hand(deal())])));
    match_audit_cases.extend([
        (
            "duplicate_card",
            audited(json!([hand(deal_with("/dealer/0", json!("AS")))])),
        ),
        (
            "wrong_card_count",
            audited(json!([hand(deal_with("/dealer", json!(["7S"])))])),
        ),
        (
            "client_seed_too_long",
            audited(json!([hand(seeded_deal(&"é".repeat(200)))])),
        ),
        (
            "unrecorded_draw",
            audited(json!([{"dealer": "Ann", "deal": deal_with("/stock", json!([])), "actions": opening_draw()}])),
        ),
        (
            "joker_not_in_deck",
            audited(json!([hand(deal_with("/stock/30", json!("X2")))])),
        ),
        (
            "blank_player_name",
            json!({"players": ["", "Bob"], "hands": []}),
        ),
        (
            "duplicate_player_name",
            json!({"players": ["Bob", "Bob"], "hands": []}),
        ),
        (
            "unknown_player",
            audited(json!([{"dealer": "Eve", "deal": deal(), "actions": []}])),
        ),
        (
            "hollywood_not_defined",
            json!({"profile": "hollywood", "players": ["Ann", "Bob", "Cy"], "hands": []}),
        ),
        (
            "blank_team_name",
            json!({"teams": [{"name": " ", "players": ["Ann", "Cy"]}, {"name": "EW", "players": ["Bob", "Dee"]}], "hands": []}),
        ),
        ("players_or_teams", json!({"hands": []})),
        (
            "wrong_hand_shape",
            json!({"players": ["Ann", "Bob", "Cy"], "hands": [hand(deal())]}),
        ),
    ]);
    // The match state reads the record as the match audit does: the same
    // bodies provoke the same codes.
    let mut match_state_cases = match_audit_cases.clone();
    match_state_cases.push((
        "seat_or_spectator",
        json!({"players": ["Ann", "Bob"], "hands": [], "seat": "Ann", "spectator": true}),
    ));
    cases.insert("POST /v1/matches/state", match_state_cases);
    let mut match_move_cases: Vec<(&str, Value)> = match_audit_cases
        .iter()
        .map(|(code, body)| {
            // Bob plays in every one of these matches (and is named in
            // the faulty rosters).
            let body = with(body.clone(), "seat", json!("Bob"));
            (*code, with(body, "bot", json!({"name": "simple"})))
        })
        .collect();
    match_move_cases.extend([
        (
            "not_to_act",
            json!({"players": ["Ann", "Bob"], "hands": [], "seat": "Ann", "bot": {"name": "simple"}}),
        ),
        (
            "upcard_offer_violated",
            json!({"players": ["Ann", "Bob"], "seat": "Ann", "bot": {"name": "simple"},
                   "hands": [{"dealer": "Ann", "deal": deal(),
                              "actions": [{"player": "dealer", "action": "pass"}]}]}),
        ),
    ]);
    cases.insert("POST /v1/matches/move", match_move_cases);
    cases.insert("POST /v1/matches/audit", match_audit_cases);

    cases.insert(
        "POST /v1/ratings",
        vec![
            (
                "blank_player_name",
                json!({"results": [{"players": ["", "Bob"], "winner": null}]}),
            ),
            (
                "duplicate_player_name",
                json!({"results": [{"players": ["Bob", "Bob"], "winner": null}]}),
            ),
            (
                "unknown_player",
                json!({"results": [{"players": ["Ann", "Bob"], "winner": "Eve"}]}),
            ),
            ("players_or_teams", json!({"results": [{"winner": null}]})),
            (
                "ratings_out_of_range",
                json!({"ratings": {"A": {"mu": 1e6, "sigma": 1}, "B": {"mu": -1e6, "sigma": 1}},
                       "results": [{"players": ["A", "B"], "winner": "A"}]}),
            ),
        ],
    );
    cases.insert(
        "POST /v1/deals",
        vec![(
            "client_seed_too_long",
            json!({"server_seed": "00".repeat(32), "client_seed": "é".repeat(200), "nonce": 0}),
        )],
    );
    cases
}

/// The audit's violation codes that a move operation answers with as its
/// own: every one a hand's record can break, and for a match's also those
/// only a match can. Each is checked documented here; the moves' tests
/// provoke them end to end (spoiled records answered with whatever the audit
/// finds), and the contract holds each row to the violation of its name.
fn move_violation_codes(path: &str) -> BTreeSet<String> {
    let of_a_match = path == "/v1/matches/move";
    gin_rules::ViolationCode::ALL
        .iter()
        .filter(|code| of_a_match || !code.is_of_a_match())
        .map(|code| code.as_str().to_owned())
        .collect()
}

/// The documented error codes of each operation: `METHOD /path` -> codes.
fn documented(doc: &Value) -> BTreeMap<String, BTreeSet<String>> {
    let mut documented = BTreeMap::new();
    for (path, operations) in doc["paths"].as_object().into_iter().flatten() {
        for (method, operation) in operations.as_object().into_iter().flatten() {
            let codes: BTreeSet<String> = operation["responses"]
                .as_object()
                .into_iter()
                .flatten()
                .filter(|(status, _)| !status.starts_with('2'))
                .flat_map(|(_, response)| {
                    response["content"]["application/problem+json"]["examples"]
                        .as_object()
                        .map(|examples| examples.keys().cloned().collect::<Vec<_>>())
                        .unwrap_or_default()
                })
                .collect();
            documented.insert(format!("{} {path}", method.to_uppercase()), codes);
        }
    }
    documented
}

async fn code_of(response: reqwest::Response) -> (u16, String) {
    let status = response.status().as_u16();
    let body: Value = response.json().await.unwrap_or(Value::Null);
    (status, body["code"].as_str().unwrap_or("(none)").to_owned())
}

#[tokio::test]
async fn each_operation_documents_exactly_the_codes_it_answers() {
    let app = spawn_app().await;
    let doc: Value = app
        .get("/api-docs/openapi.json")
        .await
        .json()
        .await
        .expect("document");
    let documented = documented(&doc);
    let mut rules = rules_cases();
    let mut faults = Vec::new();
    let mut provoked_total = 0;

    for (operation, codes) in &documented {
        let Some((method, path)) = operation.split_once(' ') else {
            continue;
        };
        let mut answered: BTreeSet<String> = BTreeSet::new();
        let reads_json = doc["paths"][path][method.to_lowercase()]["requestBody"]["content"]
            .get("application/json")
            .is_some();
        let batch = path.ends_with("/batch");
        let url = app.url(path);
        let send = |content_type: &'static str, encoding: Option<&'static str>, body: Vec<u8>| {
            let mut request = app.client.post(&url).header("content-type", content_type);
            if let Some(encoding) = encoding {
                request = request.header("content-encoding", encoding);
            }
            request.body(body).send()
        };
        if reads_json {
            let big = format!("{{\"hand\": \"{}\"}}", "x".repeat(70_000 * 16));
            for (body, content_type, encoding) in [
                (b"{".to_vec(), "application/json", None),
                (b"{\"zzz\": 1}".to_vec(), "application/json", None),
                (b"{}".to_vec(), "text/plain", None),
                (b"{}".to_vec(), "application/json", Some("br")),
                (big.into_bytes(), "application/json", None),
            ] {
                let response = send(content_type, encoding, body).await.expect("answered");
                answered.insert(code_of(response).await.1);
            }
        }
        if reads_json && !batch {
            // Nothing acceptable in `Accept`: refused before the body is read.
            let response = app
                .client
                .post(&url)
                .header("content-type", "application/json")
                .header("accept", "image/png")
                .body("{}")
                .send()
                .await
                .expect("answered");
            answered.insert(code_of(response).await.1);
        }
        if batch {
            let long_line = format!("{{\"hand\": \"{}\"}}\n", "x".repeat(70_000));
            // A JSON array over --batch-json-body-limit (16 MiB).
            let over = format!("[{}]", " ".repeat(16 * 1024 * 1024));
            for (body, content_type, encoding) in [
                (over.into_bytes(), "application/json", None),
                (b"{}\n".to_vec(), "application/json", None),
                (b"{}\n".to_vec(), "application/x-ndjson", Some("gzip")),
                (long_line.into_bytes(), "application/x-ndjson", None),
            ] {
                let response = send(content_type, encoding, body).await.expect("answered");
                answered.insert(code_of(response).await.1);
            }
        }
        if path == "/v1/profiles/{name}" {
            answered.insert(code_of(app.get("/v1/profiles/okla").await).await.1);
        }
        if path == "/problems/{code}" {
            answered.insert(code_of(app.get("/problems/no_such_code").await).await.1);
        }
        for (expected, body) in rules.remove(operation.as_str()).unwrap_or_default() {
            let text = body.to_string();
            let (status, code) = code_of(app.post_json(path, &text).await).await;
            provoked_total += 1;
            if code != expected {
                faults.push(format!(
                    "{operation}: a request written to provoke {expected} was answered {status} {code}"
                ));
            }
            answered.insert(code);
        }
        for code in &answered {
            if !codes.contains(code) {
                faults.push(format!(
                    "{operation}: answers {code}, which it does not document"
                ));
            }
        }
        let violations = if path.ends_with("/move") {
            move_violation_codes(path)
        } else {
            BTreeSet::new()
        };
        for code in violations.difference(codes) {
            faults.push(format!(
                "{operation}: answers the violation {code}, which it does not document"
            ));
        }
        for code in codes {
            if !answered.contains(code)
                && !PROVOKED_ELSEWHERE.contains(&code.as_str())
                && !violations.contains(code)
            {
                faults.push(format!(
                    "{operation}: documents {code}, which no request here provoked"
                ));
            }
        }
    }
    assert!(
        rules.is_empty(),
        "cases for operations not in the document: {:?}",
        rules.keys()
    );
    assert!(
        provoked_total >= 75,
        "only {provoked_total} rules cases ran"
    );
    assert!(
        faults.is_empty(),
        "{} faults:\n{}",
        faults.len(),
        faults.join("\n")
    );
}

/// Every code's `type` resolves on the service itself: an HTML page for a
/// browser, the table's row as JSON on request; `GET /problems` lists them all.
#[tokio::test]
async fn every_problem_type_resolves_to_its_description() {
    use gin_contract::error_codes::ErrorCode;
    let app = spawn_app().await;
    let listed: Value = app.get("/problems").await.json().await.expect("json");
    assert_eq!(listed.as_array().map(Vec::len), Some(ErrorCode::ALL.len()));
    for code in ErrorCode::ALL {
        let html = app.get(&code.type_uri()).await;
        assert_eq!(html.status().as_u16(), 200, "{}", code.as_str());
        assert!(
            html.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/html")
        );
        let page = html.text().await.unwrap();
        assert!(
            page.contains(&format!("<code>{}</code>", code.as_str())),
            "{page}"
        );
        let row: Value = app
            .client
            .get(app.url(&code.type_uri()))
            .header("accept", "application/json")
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(row["code"], code.as_str());
        assert_eq!(row["status"], code.status().as_u16());
        assert_eq!(row["type"], code.type_uri());
    }
    let (status, code) = code_of(app.get("/problems/no_such_code").await).await;
    assert_eq!((status, code.as_str()), (404, "not_found"));
}

/// `/metrics` counts problem answers by code and route pattern.
#[tokio::test]
async fn metrics_count_problems_by_code_and_route() {
    let app = spawn_app().await;
    for _ in 0..2 {
        app.post_json("/v1/hands/analyze", r#"{"hand": ["7S", "7S"]}"#)
            .await;
    }
    app.post_json("/v1/hands/analyze", "{").await;
    app.get("/no/such/path").await;
    let text = app.get("/metrics").await.text().await.unwrap();
    for line in [
        r#"http_problems_total{code="duplicate_card",route="/v1/hands/analyze"} 2"#,
        r#"http_problems_total{code="malformed_json",route="/v1/hands/analyze"} 1"#,
        r#"http_problems_total{code="not_found",route="unmatched"} 1"#,
    ] {
        assert!(text.contains(line), "{line} missing from\n{text}");
    }
}

/// A wrong number of cards is a rule (422), as the schema leaves it open; a
/// list longer than a deck is what the schema forbids (400).
#[tokio::test]
async fn card_counts_are_422_up_to_a_deck_and_400_beyond() {
    let app = spawn_app().await;
    let deck: Vec<String> = gin_rules::Card::deck().map(|c| c.to_string()).collect();
    for (count, status, code) in [
        (9, 422, "wrong_card_count"),
        (12, 422, "wrong_card_count"),
        (52, 422, "wrong_card_count"),
        (53, 400, "invalid_body"),
    ] {
        let hand: Vec<&str> = deck
            .iter()
            .cycle()
            .take(count)
            .map(String::as_str)
            .collect();
        let body = json!({"hand": hand}).to_string();
        let answered = code_of(app.post_json("/v1/hands/analyze", &body).await).await;
        assert_eq!(answered, (status, code.to_owned()), "{count} cards");
    }
}

/// An object the schema describes is not read from a list of its fields, nor
/// is an object-only value read from anything else (schemathesis found both).
#[tokio::test]
async fn objects_are_only_read_from_objects() {
    let app = spawn_app().await;
    let knock = json!({
        "knocker": {"hand": KNOCKER, "jokers": [null, null]},
        "defender": {"hand": DEFENDER}
    });
    let (status, code) = code_of(app.post_json("/v1/layoffs", &knock.to_string()).await).await;
    assert_eq!((status, code.as_str()), (400, "invalid_body"));
    let claimed = json!({"players": ["Ann", "Bob"], "hands": [], "claimed": []});
    let (status, code) = code_of(
        app.post_json("/v1/matches/audit", &claimed.to_string())
            .await,
    )
    .await;
    assert_eq!((status, code.as_str()), (400, "invalid_body"));
}
