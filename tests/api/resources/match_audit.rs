//! `POST /v1/matches/audit` over HTTP: a match's record audited hand by hand,
//! violations pointed at in the request, the score as `/v1/matches/score`
//! gives it, claims checked, its own body limit and its cost.

use gin_contract::wire::transcript::examples::{deal, knock_actions};
use gin_rules::fair_deal::{self, ServerSeed};
use serde_json::{Value, json};

use crate::cost::{Server, assert_within_request_bounds};
use crate::support::{TestApp, expect_problem, spawn_app};

const PATH: &str = "/v1/matches/audit";

async fn verdict(app: &TestApp, body: &Value) -> Value {
    let response = app.post_json(PATH, &body.to_string()).await;
    assert_eq!(response.status().as_u16(), 200);
    response.json().await.expect("a JSON verdict")
}

/// The example hand: the non-dealer knocks with 2 and wins 60.
fn knock_hand(dealer: &str) -> Value {
    json!({"dealer": dealer, "deal": deal(), "actions": knock_actions()})
}

/// A transcript that plays any deal to a void hand: both pass the upcard,
/// then each draws from the stock and throws the card straight back until
/// two stock cards remain.
fn void_actions(stock: &[String]) -> Value {
    let mut actions = vec![
        json!({"player": "non_dealer", "action": "pass"}),
        json!({"player": "dealer", "action": "pass"}),
    ];
    for (turn, card) in stock.iter().take(29).enumerate() {
        let player = if turn % 2 == 0 {
            "non_dealer"
        } else {
            "dealer"
        };
        actions.push(json!({"player": player, "action": "draw", "from": "stock", "card": card}));
        actions.push(json!({"player": player, "action": "discard", "card": card}));
    }
    Value::Array(actions)
}

const SERVER_SEED: &str = "4f3c2a1b0e9d8c7b6a5f4e3d2c1b0a99887766554433221100ffeeddccbbaa00";

/// A void hand dealt from the seeds with `nonce`, and its commitment.
fn seeded_void_hand(dealer: &str, client_seed: &str, nonce: u64) -> Value {
    let seed = ServerSeed::from_hex(SERVER_SEED).unwrap();
    let dealt = fair_deal::deal(&seed, client_seed, nonce).unwrap();
    let stock: Vec<String> = dealt.stock.iter().map(ToString::to_string).collect();
    json!({
        "dealer": dealer,
        "deal": {
            "seeds": {"server_seed": SERVER_SEED, "client_seed": client_seed, "nonce": nonce},
            "commitment": seed.commitment(),
        },
        "actions": void_actions(&stock),
    })
}

#[tokio::test]
async fn a_whole_game_is_audited_and_scored_as_the_score_endpoint_scores_its_hands() {
    let app = spawn_app().await;
    // Bob, Ann, Bob win 60 each as the deal alternates: Bob reaches 120.
    let hands = json!([knock_hand("Ann"), knock_hand("Bob"), knock_hand("Ann")]);
    let body = json!({"players": ["Ann", "Bob"], "hands": hands});
    let audit = verdict(&app, &body).await;
    assert_eq!(audit["legal"], true, "{audit}");
    assert_eq!(audit["match"]["complete"], true);
    assert_eq!(audit["match"]["winner"], "Bob");
    // The same hands as counts, scored by /v1/matches/score.
    let counts: Vec<Value> = audit["match"]["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|hand| {
            json!({"knocker": hand["knocker"], "knocker_deadwood": hand["knocker_deadwood"],
                   "defender_deadwood": hand["defender_deadwood"]})
        })
        .collect();
    assert_eq!(counts.len(), 3);
    let scored = app
        .post_json(
            "/v1/matches/score",
            &json!({"players": ["Ann", "Bob"], "hands": counts}).to_string(),
        )
        .await;
    assert_eq!(scored.status().as_u16(), 200);
    let scored: Value = scored.json().await.unwrap();
    assert_eq!(audit["match"], scored);
    // Each hand's audit is /v1/hands/audit's answer for it.
    let single = app
        .post_json(
            "/v1/hands/audit",
            &json!({"deal": deal(), "actions": knock_actions()}).to_string(),
        )
        .await;
    let single: Value = single.json().await.unwrap();
    assert_eq!(audit["hands"][1], single);
}

#[tokio::test]
async fn each_kind_of_violation_is_pointed_at_in_the_request() {
    let app = spawn_app().await;
    let mut illegal = knock_hand("Bob");
    illegal["actions"][0] = json!({"player": "dealer", "action": "pass"});
    let mut unfinished = knock_hand("Ann");
    unfinished["actions"] = json!([{"player": "non_dealer", "action": "pass"}]);
    let cases = [
        (
            json!([knock_hand("Ann"), knock_hand("Ann")]),
            (1, Value::Null, "wrong_dealer", "/hands/1/dealer"),
        ),
        (
            json!([knock_hand("Ann"), illegal]),
            (
                1,
                json!(0),
                "upcard_offer_violated",
                "/hands/1/actions/0/player",
            ),
        ),
        (
            json!([unfinished, knock_hand("Bob")]),
            (0, Value::Null, "hand_unfinished", "/hands/0/actions"),
        ),
        (
            json!([
                knock_hand("Ann"),
                knock_hand("Bob"),
                knock_hand("Ann"),
                knock_hand("Bob")
            ]),
            (3, Value::Null, "hand_after_game_end", "/hands/3"),
        ),
        (
            json!([
                seeded_void_hand("Ann", "table-7", 1),
                seeded_void_hand("Bob", "table-7", 1)
            ]),
            (
                1,
                Value::Null,
                "deal_nonce_not_increasing",
                "/hands/1/deal/seeds/nonce",
            ),
        ),
        (
            json!([
                seeded_void_hand("Ann", "table-7", 1),
                seeded_void_hand("Bob", "table-8", 2)
            ]),
            (
                1,
                Value::Null,
                "deal_seeds_differ",
                "/hands/1/deal/seeds/client_seed",
            ),
        ),
        (
            json!([seeded_void_hand("Ann", "table-7", 1), knock_hand("Bob")]),
            (1, Value::Null, "deal_seeds_differ", "/hands/1/deal"),
        ),
    ];
    for (hands, (hand, action, code, pointer)) in cases {
        let audit = verdict(&app, &json!({"players": ["Ann", "Bob"], "hands": hands})).await;
        assert_eq!(audit["legal"], false, "{code}: {audit}");
        let violation = &audit["violation"];
        assert_eq!(
            (
                &violation["hand"],
                &violation["action"],
                &violation["code"],
                &violation["pointer"]
            ),
            (&json!(hand), &action, &json!(code), &json!(pointer)),
            "{audit}"
        );
        assert_eq!(
            audit["hands"].as_array().map(Vec::len),
            Some(hand + 1),
            "{code}: the audited hands up to the violating one"
        );
    }
    // A legal seeded match: one commitment and client seed, nonces increasing.
    let seeded = json!([
        seeded_void_hand("Ann", "table-7", 1),
        seeded_void_hand("Bob", "table-7", 5)
    ]);
    let audit = verdict(&app, &json!({"players": ["Ann", "Bob"], "hands": seeded})).await;
    assert_eq!(audit["legal"], true, "{audit}");
    assert_eq!(audit["match"]["hands"][1]["outcome"], "void");
}

#[tokio::test]
async fn a_claim_agrees_or_lists_each_difference() {
    let app = spawn_app().await;
    let hands = json!([knock_hand("Ann"), knock_hand("Bob")]);
    let agreeing =
        json!({"final": {"Ann": {"total": 60}, "Bob": {"total": 60}}, "complete": false});
    let audit = verdict(
        &app,
        &json!({"players": ["Ann", "Bob"], "hands": hands, "claimed": agreeing}),
    )
    .await;
    assert_eq!(audit["claimed"], json!({"agrees": true, "differences": []}));
    let wrong =
        json!({"final": {"Ann": {"total": 61}}, "winner": "Ann", "hands": [{}, {"points": 60}]});
    let audit = verdict(
        &app,
        &json!({"players": ["Ann", "Bob"], "hands": hands, "claimed": wrong}),
    )
    .await;
    assert_eq!(
        audit["claimed"],
        json!({"agrees": false, "differences": [
            {"pointer": "/claimed/final/Ann/total", "claimed": 61, "refereed": 60, "reason": "value"},
            {"pointer": "/claimed/winner", "claimed": "Ann", "refereed": null, "reason": "value"},
        ]})
    );
    // Without a claim there is no `claimed` in the answer.
    let audit = verdict(&app, &json!({"players": ["Ann", "Bob"], "hands": hands})).await;
    assert!(audit.get("claimed").is_none());
}

#[tokio::test]
async fn a_record_that_cannot_be_audited_is_a_problem_with_a_pointer() {
    let app = spawn_app().await;
    let unknown = json!({"players": ["Ann", "Bob"], "hands": [knock_hand("Cy")]});
    let problem = expect_problem(
        app.post_json(PATH, &unknown.to_string()).await,
        422,
        "unknown_player",
    )
    .await;
    assert_eq!(problem.errors[0].pointer, "/hands/0/dealer");
    let mut duplicate = knock_hand("Ann");
    duplicate["deal"]["stock"][30] = json!("2C");
    let body = json!({"players": ["Ann", "Bob"], "hands": [knock_hand("Bob"), duplicate]});
    let problem = expect_problem(
        app.post_json(PATH, &body.to_string()).await,
        422,
        "duplicate_card",
    )
    .await;
    assert_eq!(problem.errors[0].pointer, "/hands/1/deal/stock/30");
    let four = json!({"players": ["Ann", "Bob", "Cy", "Dee"], "hands": []});
    let response = app.post_json(PATH, &four.to_string()).await;
    assert_eq!(response.status().as_u16(), 400);
}

/// The example hand between `dealer` and `non_dealer`: the non-dealer knocks
/// and wins 60.
fn seated(dealer: &str, non_dealer: &str) -> Value {
    let mut hand = knock_hand(dealer);
    hand["non_dealer"] = json!(non_dealer);
    hand
}

#[tokio::test]
async fn three_player_records_follow_the_rotation() {
    let app = spawn_app().await;
    // Bob beats Ann, so Ann sits out and Bob meets Cy.
    let legal = json!({"players": ["Ann", "Bob", "Cy"],
        "hands": [seated("Ann", "Bob"), seated("Bob", "Cy")]});
    let audit = verdict(&app, &legal).await;
    assert_eq!(audit["legal"], true, "{audit}");
    assert_eq!(audit["match"]["final"]["Bob"]["total"], 60);
    assert_eq!(audit["match"]["final"]["Cy"]["total"], 60);
    let broken = json!({"players": ["Ann", "Bob", "Cy"],
        "hands": [seated("Ann", "Bob"), seated("Ann", "Cy")]});
    let audit = verdict(&app, &broken).await;
    assert_eq!(
        (&audit["violation"]["code"], &audit["violation"]["pointer"]),
        (&json!("rotation_broken"), &json!("/hands/1"))
    );
    let unseated = json!({"players": ["Ann", "Bob", "Cy"], "hands": [knock_hand("Ann")]});
    let problem = expect_problem(
        app.post_json(PATH, &unseated.to_string()).await,
        422,
        "wrong_hand_shape",
    )
    .await;
    assert_eq!(problem.errors[0].pointer, "/hands/0/non_dealer");
}

#[tokio::test]
async fn partnership_records_are_deals_of_two_tables_with_alternating_pairings() {
    let app = spawn_app().await;
    let teams = json!([{"name": "North-South", "players": ["Ann", "Cy"]},
                       {"name": "East-West", "players": ["Bob", "Dee"]}]);
    let deal =
        |a: (&str, &str), b: (&str, &str)| json!({"tables": [seated(a.0, a.1), seated(b.0, b.1)]});
    let legal = json!({"profile": "partnership", "teams": teams, "hands": [
        deal(("Ann", "Bob"), ("Cy", "Dee")),
        deal(("Dee", "Ann"), ("Cy", "Bob")),
    ]});
    let audit = verdict(&app, &legal).await;
    assert_eq!(audit["legal"], true, "{audit}");
    assert_eq!(
        audit["hands"][1]["tables"].as_array().map(Vec::len),
        Some(2)
    );
    // East-West win both tables of deal 0 (+120), then split deal 1 (nothing).
    assert_eq!(audit["match"]["final"]["East-West"]["hand_points"], 120);
    let repeated = json!({"profile": "partnership", "teams": teams, "hands": [
        deal(("Ann", "Bob"), ("Cy", "Dee")),
        deal(("Ann", "Bob"), ("Cy", "Dee")),
    ]});
    let audit = verdict(&app, &repeated).await;
    assert_eq!(
        (&audit["violation"]["code"], &audit["violation"]["pointer"]),
        (&json!("pairing_broken"), &json!("/hands/1/tables"))
    );
    let mut illegal = legal.clone();
    illegal["hands"][1]["tables"][1]["actions"][0] = json!({"player": "dealer", "action": "pass"});
    let audit = verdict(&app, &illegal).await;
    assert_eq!(
        (&audit["violation"]["table"], &audit["violation"]["pointer"]),
        (&json!(1), &json!("/hands/1/tables/1/actions/0/player"))
    );
    let two_player_hand = json!({"teams": teams, "hands": [knock_hand("Ann")]});
    expect_problem(
        app.post_json(PATH, &two_player_hand.to_string()).await,
        422,
        "wrong_hand_shape",
    )
    .await;
}

/// A record of `hands` void hands with full transcripts: about 3.8 KB each.
fn void_record(hands: usize) -> Vec<u8> {
    let deal = deal();
    let stock: Vec<String> = deal["stock"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect();
    let actions = void_actions(&stock);
    let hands: Vec<Value> = (0..hands)
        .map(|i| {
            let dealer = if i % 2 == 0 { "Ann" } else { "Bob" };
            json!({"dealer": dealer, "deal": deal, "actions": actions})
        })
        .collect();
    serde_json::to_vec(&json!({"players": ["Ann", "Bob"], "hands": hands})).unwrap()
}

#[test]
fn the_match_audit_has_its_own_body_limit_and_a_bounded_cost() {
    let server = Server::start(&[]);
    // 260 void hands of 60 actions: ~1 MB, over the 64 KiB of the other
    // routes but within the match audit's own 1 MiB.
    let record = void_record(260);
    assert!(
        record.len() > 64 * 1024 && record.len() < 1024 * 1024,
        "{}",
        record.len()
    );
    let json = [("Content-Type", "application/json")];
    let ((status, _, answer), cost) = server.measure(|| server.post(PATH, &json, &record));
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&answer));
    let audit: Value = serde_json::from_slice(&answer).unwrap();
    assert_eq!(audit["legal"], true);
    assert_eq!(audit["match"]["hands"].as_array().map(Vec::len), Some(260));
    assert_within_request_bounds(
        "match audit, 260 void hands",
        record.len(),
        answer.len(),
        cost,
    );
    // The same body is too large for the hand audit.
    let (status, _, _) = server.post("/v1/hands/audit", &json, &record);
    assert_eq!(status, 413);
    // And a record over the match audit's own limit is refused unread.
    let (status, _, _) = server.post(PATH, &json, &void_record(300));
    assert_eq!(status, 413);
    // The most scorer work: the most hands (500), each a knock with layoffs.
    // The game ends at the third; every hand is still replayed.
    let knocks: Vec<Value> = (0..500)
        .map(|i| knock_hand(if i % 2 == 0 { "Ann" } else { "Bob" }))
        .collect();
    let record = serde_json::to_vec(&json!({"players": ["Ann", "Bob"], "hands": knocks})).unwrap();
    let ((status, _, answer), cost) = server.measure(|| server.post(PATH, &json, &record));
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&answer));
    let audit: Value = serde_json::from_slice(&answer).unwrap();
    assert_eq!(audit["violation"]["code"], "hand_after_game_end");
    assert_within_request_bounds("match audit, 500 knocks", record.len(), answer.len(), cost);
}
