//! `POST /v1/matches/score` over HTTP: `[S0]`'s walkthrough (`docs/RULES.md`), the
//! same hands under `schneider`, Hollywood, card and void hands, and every refusal
//! with the pointer it names.

use serde_json::{Value, json};

use crate::support::{TestApp, expect_problem, spawn_app};

const PATH: &str = "/v1/matches/score";

const SOURCE_S4_ELDER: [&str; 10] = ["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "AH"];
const SOURCE_S4_YOUNGER: [&str; 10] = ["6H", "2H", "JS", "JH", "JD", "7S", "7H", "7C", "4D", "5S"];

fn knock(knocker: &str, knocker_deadwood: u32, defender_deadwood: u32) -> Value {
    json!({"knocker": knocker, "knocker_deadwood": knocker_deadwood, "defender_deadwood": defender_deadwood})
}

/// `[S0]`'s six hands, as counts after layoffs.
fn source_s0() -> Vec<Value> {
    vec![
        knock("Mom", 5, 15),
        knock("Mom", 0, 6),
        knock("Mom", 4, 2),
        knock("Mom", 10, 43),
        knock("Dad", 0, 10),
        knock("Mom", 0, 11),
    ]
}

async fn score(app: &TestApp, body: Value) -> Value {
    let response = app.post_json(PATH, &body.to_string()).await;
    let status = response.status().as_u16();
    let body = response.json::<Value>().await.expect("a JSON body");
    assert_eq!(status, 200, "{body}");
    body
}

#[tokio::test]
async fn source_s0_mom_310_dad_112_net_198() {
    let app = spawn_app().await;
    let body = score(
        &app,
        json!({"players": ["Mom", "Dad"], "hands": source_s0()}),
    )
    .await;
    let points: Vec<u64> = body["hands"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|h| h["points"].as_u64())
        .collect();
    assert_eq!(points, [10, 31, 27, 33, 35, 36]);
    assert_eq!(body["hands"][2]["winner"], "Dad");
    assert_eq!(body["hands"][2]["outcome"], "undercut");
    assert_eq!(body["hands"][5]["totals"], json!({"Mom": 110, "Dad": 62}));
    assert_eq!(body["complete"], true);
    assert_eq!(body["winner"], "Mom");
    assert_eq!(
        body["final"],
        json!({
            "Mom": {"hand_points": 110, "hands_won": 4, "box_bonus": 100, "game_bonus": 100, "shutout_bonus": 0, "total": 310},
            "Dad": {"hand_points": 62, "hands_won": 2, "box_bonus": 50, "game_bonus": 0, "shutout_bonus": 0, "total": 112}
        })
    );
    assert_eq!(body["net"], 198);
    assert_eq!(body["shutout"], false);
    assert!(body.get("games").is_none());
}

#[tokio::test]
async fn source_s3_schneider_mom_190_dad_102_and_mom_scores_the_difference() {
    let app = spawn_app().await;
    let body = score(
        &app,
        json!({"profile": "schneider", "players": ["Mom", "Dad"], "hands": source_s0()}),
    )
    .await;
    assert_eq!(body["final"]["Mom"]["total"], 190);
    assert_eq!(body["final"]["Dad"]["total"], 102);
    assert_eq!(body["scores"], json!({"Mom": 88, "Dad": 0}));
    assert_eq!(body["net"], 88);
}

#[tokio::test]
async fn an_unfinished_game_is_keyed_by_player_in_the_order_given() {
    let app = spawn_app().await;
    let body = json!({"players": ["Zed", "Amy"], "hands": [knock("Amy", 2, 9)]});
    let raw = app
        .post_json(PATH, &body.to_string())
        .await
        .text()
        .await
        .unwrap_or_default();
    // The raw text, since a parsed map does not keep the order.
    let totals = raw.find("\"totals\":{\"Zed\":0,\"Amy\":7}");
    let tally = raw.find("\"final\":{\"Zed\":");
    assert!(totals.is_some() && tally.is_some(), "{raw}");
    let body: Value = serde_json::from_str(&raw).unwrap_or_default();
    assert_eq!(body["complete"], false);
    assert_eq!(body["winner"], Value::Null);
    assert_eq!(body["net"], Value::Null);
    assert_eq!(body["final"]["Amy"]["total"], 7);
    assert_eq!(body["final"]["Amy"]["box_bonus"], 0);
    assert_eq!(body["final"]["Zed"]["total"], 0);
}

#[tokio::test]
async fn shutouts_follow_the_profiles_school() {
    let app = spawn_app().await;
    let hands = json!([knock("Mom", 0, 50), knock("Mom", 0, 30)]);
    // Mom: 130 hand points, 2 boxes; Dad never scores.
    let cases = [
        (json!("standard"), 130 + 50 + 100 + 230),
        (json!({"shutout": "double_total"}), 2 * (130 + 50 + 100)),
        (json!({"base": "pagat"}), 120 + 40 + 200),
        (json!({"base": "schneider"}), 130 + 40 + 100),
        (json!({"base": "open-gin"}), 120 + 40 + 100 + 100),
    ];
    for (profile, total) in cases {
        let body = score(
            &app,
            json!({"profile": profile, "players": ["Mom", "Dad"], "hands": hands}),
        )
        .await;
        assert_eq!(body["shutout"], true, "{profile}");
        assert_eq!(body["final"]["Mom"]["total"], total, "{profile}");
    }
}

#[tokio::test]
async fn hollywood_scores_three_games_hand_by_hand() {
    let app = spawn_app().await;
    let body = score(
        &app,
        json!({"profile": "hollywood", "players": ["Mom", "Dad"], "hands": [
            knock("Mom", 0, 5),  // 30: game 1
            knock("Dad", 5, 25), // 20: game 1
            knock("Mom", 2, 42), // 40: games 1-2
            knock("Mom", 0, 10), // 35: games 1-3, game 1 closes at 105
            knock("Dad", 3, 33), // 30: game 2 only
            knock("Mom", 0, 25), // 50: games 2-3, game 2 closes at 125
            knock("Dad", 5, 20), // 15: Dad enters game 3
            knock("Dad", 0, 75)  // 100: Dad closes game 3 at 115
        ]}),
    )
    .await;
    let scored_in: Vec<Value> = body["hands"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|h| h["scored_in"].clone())
        .collect();
    assert_eq!(
        scored_in,
        [
            json!([1]),
            json!([1]),
            json!([1, 2]),
            json!([1, 2, 3]),
            json!([2]),
            json!([2, 3]),
            json!([3]),
            json!([3])
        ]
    );
    assert_eq!(
        body["hands"][4]["games"],
        json!([{"Mom": 105, "Dad": 20}, {"Mom": 75, "Dad": 30}, {"Mom": 35, "Dad": 0}])
    );
    let games = &body["games"];
    assert_eq!(games[0]["winner"], "Mom");
    assert_eq!(games[1]["winner"], "Mom");
    assert_eq!(games[2]["winner"], "Dad");
    assert_eq!(games[2]["final"]["Dad"]["total"], 115 + 50 + 100);
    assert_eq!(body["final"]["Mom"]["total"], 715);
    assert_eq!(body["final"]["Dad"]["total"], 365);
    assert_eq!(
        (body["complete"].as_bool(), body["winner"].as_str()),
        (Some(true), Some("Mom"))
    );
    assert_eq!(body["net"], 350);
    assert!(body.get("shutout").is_none());
}

#[tokio::test]
async fn card_hands_score_as_the_counts_they_produce() {
    let app = spawn_app().await;
    let cards = score(
        &app,
        json!({"players": ["Elder", "Younger"], "hands": [
            {"knocker": "Elder", "knocker_hand": {"hand": SOURCE_S4_ELDER}, "defender_hand": {"hand": SOURCE_S4_YOUNGER}},
            {"void": true}
        ]}),
    )
    .await;
    let counts = score(
        &app,
        json!({"players": ["Elder", "Younger"], "hands": [knock("Elder", 1, 9), {"void": true}]}),
    )
    .await;
    assert_eq!(cards, counts);
    assert_eq!(cards["hands"][0]["points"], 8);
    assert_eq!(cards["hands"][1]["outcome"], "void");
    assert_eq!(cards["hands"][1]["winner"], Value::Null);
    assert_eq!(cards["final"]["Elder"]["hands_won"], 1);
}

#[tokio::test]
async fn oklahoma_hands_take_limit_and_doubling_from_their_upcard() {
    let app = spawn_app().await;
    let body = score(
        &app,
        json!({"profile": "oklahoma", "players": ["Mom", "Dad"], "hands": [
            {"knocker": "Mom", "knocker_deadwood": 7, "defender_deadwood": 20, "upcard": "7D"},
            {"knocker": "Dad", "knocker_deadwood": 3, "defender_deadwood": 20, "upcard": "4♠"}
        ]}),
    )
    .await;
    assert_eq!(body["hands"][0]["points"], 13);
    assert_eq!(body["hands"][1]["points"], 34);
    assert_eq!(body["hands"][1]["breakdown"]["multiplier"], 2);
}

#[tokio::test]
async fn refusals_name_the_hand_and_field_at_fault() {
    let app = spawn_app().await;
    let mut after_the_end = source_s0();
    after_the_end.push(json!({"void": true}));
    let elder_with_a_repeat = {
        let mut hand = SOURCE_S4_ELDER.map(String::from);
        hand[9] = "3h".into();
        hand
    };
    let players = json!(["Mom", "Dad"]);
    let cases: Vec<(Value, u16, &str, &str)> = vec![
        (
            json!({"players": players, "hands": after_the_end}),
            422,
            "game_over",
            "/hands/6",
        ),
        (
            json!({"players": players, "hands": [knock("Mom", 11, 20)]}),
            422,
            "knock_over_limit",
            "/hands/0/knocker_deadwood",
        ),
        (
            json!({"profile": "straight", "players": players, "hands": [knock("Mom", 0, 5), knock("Dad", 1, 20)]}),
            422,
            "knock_over_limit",
            "/hands/1/knocker_deadwood",
        ),
        (
            json!({"profile": "oklahoma", "players": players, "hands": [
                {"knocker": "Mom", "knocker_deadwood": 8, "defender_deadwood": 20, "upcard": "7D"}]}),
            422,
            "knock_over_limit",
            "/hands/0/knocker_deadwood",
        ),
        (
            json!({"profile": "oklahoma", "players": players, "hands": [knock("Mom", 3, 20)]}),
            422,
            "upcard_required",
            "/hands/0/upcard",
        ),
        (
            json!({"players": players, "hands": [knock("Mom", 2, 99)]}),
            422,
            "impossible_count",
            "/hands/0/defender_deadwood",
        ),
        (
            json!({"players": players, "hands": [
                {"knocker": "Mom", "knocker_deadwood": 0, "defender_deadwood": 9, "big_gin": true}]}),
            422,
            "big_gin_not_allowed",
            "/hands/0/big_gin",
        ),
        (
            json!({"profile": {"big_gin_bonus": 31}, "players": players, "hands": [
                {"knocker": "Mom", "knocker_deadwood": 2, "defender_deadwood": 9, "big_gin": true}]}),
            422,
            "big_gin_with_deadwood",
            "/hands/0/knocker_deadwood",
        ),
        (
            json!({"players": players, "hands": [knock("Kid", 2, 9)]}),
            422,
            "unknown_player",
            "/hands/0/knocker",
        ),
        (
            json!({"players": ["Mom", "Mom"], "hands": []}),
            422,
            "duplicate_player_name",
            "/players/1",
        ),
        (
            json!({"players": ["Mom", " "], "hands": []}),
            422,
            "blank_player_name",
            "/players/1",
        ),
        (
            json!({"players": players, "hands": [knock("Mom", 2, 9), {
                "knocker": "Dad",
                "knocker_hand": {"hand": elder_with_a_repeat},
                "defender_hand": {"hand": SOURCE_S4_YOUNGER}}]}),
            422,
            "duplicate_card",
            "/hands/1/knocker_hand/hand/9",
        ),
        (
            json!({"players": players, "hands": [{
                "knocker": "Dad",
                "knocker_hand": {"hand": SOURCE_S4_ELDER},
                "defender_hand": {"hand": SOURCE_S4_YOUNGER, "layoffs": [{"card": "5S", "meld": 0}]}}]}),
            422,
            "layoff_does_not_fit",
            "/hands/0/defender_hand/layoffs/0",
        ),
        (
            json!({"profile": "gin", "players": players, "hands": []}),
            400,
            "unknown_profile",
            "/profile",
        ),
        (
            json!({"players": ["Mom"], "hands": []}),
            400,
            "invalid_body",
            "/players",
        ),
        (
            json!({"players": players, "hands": [{"knocker": "Mom", "knocker_deadwood": 1}]}),
            400,
            "invalid_body",
            "/hands/0/defender_deadwood",
        ),
        (
            json!({"players": players, "hands": [{"knocker": "Mom", "knocker_deadwood": 1, "defender_deadwood": 3,
                "knocker_hand": {"hand": SOURCE_S4_ELDER}}]}),
            400,
            "invalid_body",
            "/hands/0",
        ),
        (
            json!({"players": players, "hands": [{"void": true, "knocker": "Mom"}]}),
            400,
            "invalid_body",
            "/hands/0",
        ),
        (
            json!({"players": players, "hands": [knock("Mom", 1, 2), {"void": true, "points": 3}]}),
            400,
            "invalid_body",
            "/hands/1/points",
        ),
        (
            json!({"players": players, "hands": [{"knocker": "Mom", "knocker_hand": {"hand": ["1X"]},
                "defender_hand": {"hand": SOURCE_S4_YOUNGER}}]}),
            400,
            "invalid_body",
            "/hands/0/knocker_hand/hand/0",
        ),
        (
            json!({"players": players, "hands": [knock("Mom", 1, 2)], "target": 50}),
            400,
            "invalid_body",
            "/target",
        ),
    ];
    for (body, status, code, pointer) in cases {
        let response = app.post_json(PATH, &body.to_string()).await;
        let problem = expect_problem(response, status, code).await;
        let pointers: Vec<&str> = problem.errors.iter().map(|e| e.pointer.as_str()).collect();
        assert_eq!(pointers, [pointer], "{body}");
    }
}

fn seated(knocker: &str, defender: &str, knocker_deadwood: u32, defender_deadwood: u32) -> Value {
    json!({"knocker": knocker, "defender": defender,
           "knocker_deadwood": knocker_deadwood, "defender_deadwood": defender_deadwood})
}

/// The three-player example of `docs/RULES.md`.
fn three_player_hands() -> Vec<Value> {
    vec![
        seated("Ann", "Bob", 4, 20),
        json!({"void": true, "players": ["Ann", "Cy"]}),
        seated("Cy", "Ann", 6, 6),
        seated("Bob", "Ann", 3, 2),
        seated("Cy", "Ann", 0, 19),
        seated("Cy", "Bob", 2, 9),
        seated("Ann", "Cy", 0, 8),
    ]
}

#[tokio::test]
async fn three_players_ann_400_bob_0_cy_101_nets_599_minus_501_minus_98() {
    let app = spawn_app().await;
    let body = score(
        &app,
        json!({"players": ["Ann", "Bob", "Cy"], "hands": three_player_hands()}),
    )
    .await;
    assert_eq!(body["complete"], true);
    assert_eq!(body["winner"], "Ann");
    assert_eq!(body["final"]["Ann"]["total"], 400);
    assert_eq!(body["final"]["Bob"]["total"], 0);
    assert_eq!(body["final"]["Cy"]["total"], 101);
    assert_eq!(body["nets"], json!({"Ann": 599, "Bob": -501, "Cy": -98}));
    assert_eq!(
        body["pairs"],
        json!([
            {"players": ["Ann", "Bob"], "net": 400},
            {"players": ["Ann", "Cy"], "net": 199},
            {"players": ["Bob", "Cy"], "net": -101}
        ])
    );
    assert_eq!(
        body["hands"][3]["totals"],
        json!({"Ann": 67, "Bob": 0, "Cy": 0})
    );
    assert_eq!(body["hands"][1]["outcome"], "void");
    let keys: Vec<&String> = body["final"].as_object().expect("final").keys().collect();
    assert_eq!(keys, ["Ann", "Bob", "Cy"], "keyed in the order given");
}

#[tokio::test]
async fn three_players_a_broken_rotation_is_422_naming_the_hand() {
    let app = spawn_app().await;
    let mut hands = three_player_hands();
    hands[3] = seated("Cy", "Ann", 3, 2); // Cy lost hand 2 and sits out
    let response = app
        .post_json(
            PATH,
            &json!({"players": ["Ann", "Bob", "Cy"], "hands": hands}).to_string(),
        )
        .await;
    let problem = expect_problem(response, 422, "rotation_broken").await;
    assert_eq!(problem.errors[0].pointer, "/hands/3");
    assert!(problem.detail.contains("Ann and Bob"), "{}", problem.detail);
}

#[tokio::test]
async fn three_players_refusals_point_into_the_hand() {
    let app = spawn_app().await;
    let cases = [
        (
            json!([seated("Ann", "Dee", 4, 20)]),
            422,
            "unknown_player",
            "/hands/0/defender",
        ),
        (
            json!([seated("Ann", "Ann", 4, 20)]),
            422,
            "same_player_twice",
            "/hands/0/defender",
        ),
        (
            json!([knock("Ann", 4, 20)]),
            422,
            "wrong_hand_shape",
            "/hands/0",
        ),
        (json!([{"void": true}]), 422, "wrong_hand_shape", "/hands/0"),
        (
            json!([seated("Ann", "Bob", 12, 20)]),
            422,
            "knock_over_limit",
            "/hands/0/knocker_deadwood",
        ),
    ];
    for (hands, status, code, pointer) in cases {
        let body = json!({"players": ["Ann", "Bob", "Cy"], "hands": hands});
        let problem =
            expect_problem(app.post_json(PATH, &body.to_string()).await, status, code).await;
        assert_eq!(problem.errors[0].pointer, pointer, "{body}");
    }
    let hollywood = json!({"profile": "hollywood", "players": ["Ann", "Bob", "Cy"], "hands": []});
    let problem = expect_problem(
        app.post_json(PATH, &hollywood.to_string()).await,
        422,
        "hollywood_not_defined",
    )
    .await;
    assert_eq!(problem.errors[0].pointer, "/profile");
}

fn teams() -> Value {
    json!([{"name": "North-South", "players": ["Ann", "Cy"]},
           {"name": "East-West", "players": ["Bob", "Dee"]}])
}

fn deal(one: Value, two: Value) -> Value {
    json!({"tables": [one, two]})
}

/// The partnership example of `docs/RULES.md`.
fn partnership_deals() -> Vec<Value> {
    vec![
        deal(seated("Ann", "Bob", 3, 15), seated("Dee", "Cy", 2, 12)),
        deal(seated("Dee", "Ann", 7, 7), seated("Bob", "Cy", 2, 27)),
        deal(
            json!({"void": true, "players": ["Ann", "Bob"]}),
            seated("Cy", "Dee", 0, 22),
        ),
        deal(seated("Ann", "Dee", 1, 17), seated("Bob", "Cy", 0, 20)),
        deal(seated("Bob", "Ann", 4, 30), seated("Cy", "Dee", 0, 31)),
        deal(seated("Ann", "Dee", 2, 20), seated("Cy", "Bob", 5, 33)),
    ]
}

#[tokio::test]
async fn partnership_north_south_325_east_west_54_net_271() {
    let app = spawn_app().await;
    let body = score(
        &app,
        json!({"profile": "partnership", "teams": teams(), "hands": partnership_deals()}),
    )
    .await;
    assert_eq!(body["winner"], "North-South");
    assert_eq!(body["final"]["North-South"]["total"], 325);
    assert_eq!(body["final"]["East-West"]["total"], 54);
    assert_eq!(body["net"], 271);
    let per_deal: Vec<(Value, Value)> = body["hands"]
        .as_array()
        .expect("deals")
        .iter()
        .map(|d| (d["winner"].clone(), d["points"].clone()))
        .collect();
    assert_eq!(
        per_deal,
        [
            (json!("North-South"), json!(2)),
            (Value::Null, json!(0)),
            (json!("North-South"), json!(47)),
            (json!("East-West"), json!(29)),
            (json!("North-South"), json!(30)),
            (json!("North-South"), json!(46)),
        ]
    );
    assert_eq!(body["hands"][0]["tables"][1]["winner"], "Dee");
}

#[tokio::test]
async fn partnership_refusals_name_the_deal_and_table() {
    let app = spawn_app().await;
    let mut deals = partnership_deals();
    deals[1] = deal(seated("Ann", "Bob", 3, 15), seated("Dee", "Cy", 2, 12));
    let body = json!({"teams": teams(), "hands": deals});
    let problem = expect_problem(
        app.post_json(PATH, &body.to_string()).await,
        422,
        "pairing_broken",
    )
    .await;
    assert_eq!(problem.errors[0].pointer, "/hands/1/tables");
    let body = json!({"teams": teams(), "hands": [deal(seated("Ann", "Bob", 3, 15), seated("Dee", "Cy", 12, 12))]});
    let problem = expect_problem(
        app.post_json(PATH, &body.to_string()).await,
        422,
        "knock_over_limit",
    )
    .await;
    assert_eq!(
        problem.errors[0].pointer,
        "/hands/0/tables/1/knocker_deadwood"
    );
    let cases = [
        (
            json!({"teams": teams(), "hands": [knock("Ann", 3, 15)]}),
            422,
            "wrong_hand_shape",
            "/hands/0",
        ),
        (
            json!({"teams": teams(), "hands": [deal(seated("Ann", "Bob", 3, 15), knock("Dee", 2, 12))]}),
            422,
            "wrong_hand_shape",
            "/hands/0/tables/1",
        ),
        (
            json!({"players": ["Ann", "Bob"], "hands": [seated("Ann", "Bob", 3, 15)]}),
            422,
            "wrong_hand_shape",
            "/hands/0",
        ),
        (
            json!({"teams": teams(), "hands": [{"tables": [seated("Ann", "Bob", 3, 15)]}]}),
            400,
            "invalid_body",
            "/hands/0",
        ),
        (
            json!({"players": ["Ann", "Bob"], "teams": teams(), "hands": []}),
            422,
            "players_or_teams",
            "/teams",
        ),
        (json!({"hands": []}), 422, "players_or_teams", "/players"),
        (
            json!({"players": ["A", "B", "C", "D"], "hands": []}),
            400,
            "invalid_body",
            "/players",
        ),
    ];
    for (body, status, code, pointer) in cases {
        let problem =
            expect_problem(app.post_json(PATH, &body.to_string()).await, status, code).await;
        assert_eq!(problem.errors[0].pointer, pointer, "{body}");
    }
}
