//! The referee's endpoints over HTTP: `docs/RULES.md`'s worked examples, and every
//! error code with the pointer it names.

use serde_json::{Value, json};

use crate::support::{expect_problem, spawn_app};

async fn post(path: &str, body: Value) -> (u16, Value) {
    let app = spawn_app().await;
    let response = app.post_json(path, &body.to_string()).await;
    let status = response.status().as_u16();
    let body = response.json::<Value>().await.expect("a JSON body");
    (status, body)
}

const SOURCE_S4_ELDER: [&str; 10] = ["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "AH"];
const SOURCE_S4_YOUNGER: [&str; 10] = ["6H", "2H", "JS", "JH", "JD", "7S", "7H", "7C", "4D", "5S"];

#[tokio::test]
async fn source_s4_elder_wins_by_8_after_younger_lays_off_two_hearts() {
    let (status, body) = post(
        "/v1/hands/score",
        json!({"knocker": {"hand": SOURCE_S4_ELDER}, "defender": {"hand": SOURCE_S4_YOUNGER}}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["outcome"], "knock");
    assert_eq!(body["winner"], "knocker");
    assert_eq!(body["points"], 8);
    assert_eq!(body["knocker"]["deadwood_cards"], json!(["AH"]));
    assert_eq!(body["defender"]["deadwood"], 9);
    let laid: Vec<&str> = body["defender"]["layoffs"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|l| l["card"].as_str())
        .collect();
    assert_eq!(laid, ["2H", "6H"]);
}

#[tokio::test]
async fn the_layoffs_endpoint_gives_both_sides_without_scoring() {
    let (status, body) = post(
        "/v1/layoffs",
        json!({"knocker": {"hand": SOURCE_S4_ELDER}, "defender": {"hand": SOURCE_S4_YOUNGER}}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["knocker"]["deadwood"], 1);
    assert_eq!(body["defender"]["deadwood"], 9);
    assert_eq!(
        body["defender"]["layoffs"][1],
        json!({"card": "6H", "meld": 0})
    );
    assert!(body.get("points").is_none());
}

#[tokio::test]
async fn source_s1_eleven_cards_knock_by_discarding_the_nine() {
    let (status, body) = post(
        "/v1/hands/analyze",
        json!({"hand": ["3S", "4S", "5S", "6S", "KS", "KH", "KD", "KC", "2D", "6C", "9C"]}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["deadwood"], 8);
    assert_eq!(body["can_knock"], true);
    assert_eq!(body["big_gin"], false);
    assert_eq!(body["discards"].as_array().map(Vec::len), Some(1));
    assert_eq!(body["discards"][0]["card"], "9C");
    assert_eq!(body["discards"][0]["deadwood_cards"], json!(["2D", "6C"]));
}

#[tokio::test]
async fn a_ten_card_analysis_gives_one_optimal_arrangement_and_on_request_all() {
    let hand = json!(["6S", "6D", "6C", "6H", "3H", "4H", "5H", "7H", "8H", "9H"]);
    let (status, body) = post(
        "/v1/hands/analyze",
        json!({"hand": hand, "all_arrangements": true}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (body["deadwood"].as_u64(), body["gin"].as_bool()),
        (Some(0), Some(true))
    );
    assert_eq!(body["arrangements"].as_array().map(Vec::len), Some(2));
    assert_eq!(body["arrangements"][0]["melds"], body["melds"]);
    let (_, plain) = post("/v1/hands/analyze", json!({"hand": hand})).await;
    assert!(plain.get("arrangements").is_none());
}

#[tokio::test]
async fn oklahoma_takes_its_knock_limit_from_the_upcard_and_doubles_spades() {
    let hand = json!(["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "AH"]);
    let (_, body) = post(
        "/v1/hands/analyze",
        json!({"hand": hand, "profile": "oklahoma", "upcard": "AD"}),
    )
    .await;
    assert_eq!(
        (body["knock_limit"].as_u64(), body["can_knock"].as_bool()),
        (Some(0), Some(false))
    );
    let (_, loose) = post(
        "/v1/hands/analyze",
        json!({"hand": hand, "profile": {"base": "oklahoma", "ace_upcard_knock_limit": 1}, "upcard": "a♦"}),
    )
    .await;
    assert_eq!(
        (loose["knock_limit"].as_u64(), loose["can_knock"].as_bool()),
        (Some(1), Some(true))
    );
    let (status, spade) = post(
        "/v1/hands/score",
        json!({"profile": "oklahoma", "upcard": "2S", "knocker": {"hand": SOURCE_S4_ELDER}, "defender": {"hand": SOURCE_S4_YOUNGER}}),
    )
    .await;
    assert_eq!(status, 200, "{spade}");
    assert_eq!(
        (
            spade["points"].as_u64(),
            spade["breakdown"]["multiplier"].as_u64()
        ),
        (Some(16), Some(2))
    );
}

#[tokio::test]
async fn source_s2_open_gin_lets_the_defender_lay_off_on_gin() {
    let gin = ["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "6C"];
    let body = |profile: &str| json!({"profile": profile, "knocker": {"hand": gin}, "defender": {"hand": SOURCE_S4_YOUNGER}});
    let (_, standard) = post("/v1/hands/score", body("standard")).await;
    assert_eq!(standard["outcome"], "gin");
    assert_eq!(standard["points"], 25 + 17);
    let (_, open) = post("/v1/hands/score", body("open-gin")).await;
    assert_eq!(open["points"], 20 + 9);
    assert_eq!(open["breakdown"]["gin_bonus"], 20);
}

#[tokio::test]
async fn validating_melds_answers_a_verdict_with_codes() {
    let (status, body) = post(
        "/v1/melds/validate",
        json!({"melds": [["7S", "7H", "7D"], ["3C", "4C", "5C", "6C"]], "hand": ["7S", "7H", "7D", "3C", "4C", "5C", "6C", "KD", "QH", "2S"]}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["valid"], true);
    assert_eq!(body["melds"][0]["kind"], "set");
    assert_eq!(body["melds"][1]["kind"], "run");
    assert_eq!(body["deadwood"], 22);
    let (status, bad) = post(
        "/v1/melds/validate",
        json!({"melds": [["QH", "KH", "AH"], ["3H", "4S", "5H"], ["7S", "7H"], ["2D", "3D", "5D"], ["7S", "7H", "8S"], ["9C", "9C", "9D"]]}),
    )
    .await;
    assert_eq!(status, 200, "{bad}");
    assert_eq!(bad["valid"], false);
    let codes: Vec<&str> = bad["melds"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| m["problems"][0]["code"].as_str())
        .collect();
    assert_eq!(
        codes,
        [
            "wrap_around",
            "mixed_suits",
            "too_short",
            "gap",
            "mixed_ranks",
            "duplicate_card"
        ]
    );
    assert_eq!(bad["problems"][0]["code"], "card_in_two_melds");
    assert!(bad.get("deadwood").is_none());
}

#[tokio::test]
async fn profiles_list_every_preset_and_unknown_names_are_404() {
    let app = spawn_app().await;
    let list: Value = app.get("/v1/profiles").await.json().await.expect("JSON");
    let names: Vec<&str> = list
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["name"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "standard",
            "oklahoma",
            "straight",
            "tournament",
            "hollywood",
            "pagat",
            "schneider",
            "open-gin",
            "partnership",
            "jokers",
            "eaai"
        ]
    );
    let schneider: Value = app
        .get("/v1/profiles/schneider")
        .await
        .json()
        .await
        .expect("JSON");
    assert_eq!(
        (
            schneider["game_bonus"].as_u64(),
            schneider["settlement"].as_str()
        ),
        (Some(0), Some("winner_scores_difference"))
    );
    let missing = app.get("/v1/profiles/gin").await;
    assert_eq!(missing.status().as_u16(), 404);
    let problem: Value = missing.json().await.expect("JSON");
    assert_eq!(problem["code"], "not_found");
}

/// Every error code of the referee endpoints, with the status and pointer it
/// must carry.
#[tokio::test]
async fn bad_requests_get_their_code_and_pointer() {
    let elder = json!(SOURCE_S4_ELDER);
    let younger = json!(SOURCE_S4_YOUNGER);
    let mut duplicate = SOURCE_S4_YOUNGER.to_vec();
    duplicate[9] = "3h";
    let layoff = |card: &str, meld: usize| json!([{"card": card, "meld": meld}]);
    let cases: Vec<(&str, Value, u16, &str, &str)> = vec![
        (
            "/v1/hands/score",
            json!({"knocker": {"hand": ["1X"]}, "defender": {"hand": younger}}),
            400,
            "invalid_body",
            "/knocker/hand/0",
        ),
        (
            "/v1/hands/score",
            json!({"knocker": {"hand": elder}, "defender": {"hand": younger}, "extra": 1}),
            400,
            "invalid_body",
            "",
        ),
        (
            "/v1/hands/score",
            json!({"knocker": {"hand": elder}}),
            400,
            "invalid_body",
            "",
        ),
        (
            "/v1/hands/score",
            json!({"knocker": {"hand": elder}, "defender": {"hand": duplicate}}),
            422,
            "duplicate_card",
            "/defender/hand/9",
        ),
        (
            "/v1/hands/score",
            json!({"knocker": {"hand": &elder.as_array().map(|a| a[..9].to_vec())}, "defender": {"hand": younger}}),
            422,
            "wrong_card_count",
            "/knocker/hand",
        ),
        (
            "/v1/hands/score",
            json!({"knocker": {"hand": elder}, "defender": {"hand": younger}, "profile": "gin"}),
            400,
            "unknown_profile",
            "/profile",
        ),
        (
            "/v1/hands/score",
            json!({"knocker": {"hand": elder}, "defender": {"hand": younger}, "profile": {"base": "gin"}}),
            400,
            "unknown_profile",
            "/profile/base",
        ),
        (
            "/v1/hands/score",
            json!({"knocker": {"hand": elder}, "defender": {"hand": younger}, "profile": "oklahoma"}),
            422,
            "upcard_required",
            "/upcard",
        ),
        (
            "/v1/hands/score",
            json!({"knocker": {"hand": elder}, "defender": {"hand": younger}, "profile": {"target": 0}}),
            400,
            "invalid_profile",
            "/profile/target",
        ),
        (
            "/v1/hands/score",
            json!({"knocker": {"hand": elder}, "defender": {"hand": younger}, "profile": {"shutout_bonus": 5}}),
            422,
            "invalid_profile_combination",
            "/profile/shutout_bonus",
        ),
        (
            "/v1/hands/score",
            json!({"knocker": {"hand": elder}, "defender": {"hand": younger}, "profile": "straight"}),
            422,
            "knock_over_limit",
            "/knocker/hand",
        ),
        (
            "/v1/hands/score",
            json!({"knocker": {"hand": elder, "melds": [["3H", "4H", "5H"]]}, "defender": {"hand": younger}}),
            422,
            "knock_over_limit",
            "/knocker/melds",
        ),
        (
            "/v1/hands/score",
            json!({"knocker": {"hand": elder, "melds": [["3H", "4H", "5H"], ["9S", "9H", "9D"], ["3C", "4C", "5C", "6C"]]}, "defender": {"hand": younger}}),
            422,
            "invalid_melds",
            "/knocker/melds/2/3",
        ),
        (
            "/v1/hands/score",
            json!({"knocker": {"hand": elder, "melds": [["3H", "4H", "5H", "AH"]]}, "defender": {"hand": younger}}),
            422,
            "invalid_melds",
            "/knocker/melds/0",
        ),
        (
            "/v1/hands/score",
            json!({"knocker": {"hand": elder}, "defender": {"hand": younger, "layoffs": layoff("7H", 0)}}),
            422,
            "layoff_does_not_fit",
            "/defender/layoffs/0",
        ),
        (
            "/v1/hands/score",
            json!({"knocker": {"hand": elder}, "defender": {"hand": younger, "layoffs": layoff("8H", 0)}}),
            422,
            "layoff_card_not_in_hand",
            "/defender/layoffs/0",
        ),
        (
            "/v1/hands/score",
            json!({"knocker": {"hand": elder}, "defender": {"hand": younger, "layoffs": layoff("6H", 9)}}),
            422,
            "layoff_meld_not_found",
            "/defender/layoffs/0",
        ),
        (
            "/v1/hands/score",
            json!({"knocker": {"hand": elder}, "defender": {"hand": younger, "layoffs": [{"card": "6H", "meld": 0}, {"card": "6H", "meld": 0}]}}),
            422,
            "layoff_card_repeated",
            "/defender/layoffs/1",
        ),
        (
            "/v1/hands/score",
            json!({"knocker": {"hand": ["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "6C"]}, "defender": {"hand": younger, "layoffs": layoff("6H", 0)}}),
            422,
            "layoffs_not_allowed",
            "/defender/layoffs/0",
        ),
        (
            "/v1/hands/score",
            json!({"knocker": {"hand": ["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "6C", "2C"]}, "defender": {"hand": younger}}),
            422,
            "big_gin_not_allowed",
            "/knocker/hand",
        ),
        (
            "/v1/hands/score",
            json!({"knocker": {"hand": ["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "6C", "KC"]}, "defender": {"hand": younger}, "profile": {"big_gin_bonus": 31}}),
            422,
            "not_big_gin",
            "/knocker/hand",
        ),
        (
            "/v1/hands/analyze",
            json!({"hand": ["3H", "4H"]}),
            422,
            "wrong_card_count",
            "/hand",
        ),
        (
            "/v1/hands/analyze",
            json!({"hand": ["3H", "3h"]}),
            422,
            "duplicate_card",
            "/hand/1",
        ),
        (
            "/v1/hands/analyze",
            json!({"hand": elder, "all_arrangements": "yes"}),
            400,
            "invalid_body",
            "/all_arrangements",
        ),
        (
            "/v1/layoffs",
            json!({"knocker": {"hand": elder}, "defender": {"hand": younger, "layoffs": []}}),
            400,
            "invalid_body",
            "/defender/layoffs",
        ),
        (
            "/v1/melds/validate",
            json!({"melds": [], "hand": ["7S", "7S"]}),
            422,
            "duplicate_card",
            "/hand/1",
        ),
        (
            "/v1/melds/validate",
            json!({"melds": [["7Z"]]}),
            400,
            "invalid_body",
            "/melds/0/0",
        ),
    ];
    let app = spawn_app().await;
    for (path, body, status, code, pointer) in cases {
        let response = app.post_json(path, &body.to_string()).await;
        let problem = expect_problem(response, status, code).await;
        if !pointer.is_empty() {
            let pointers: Vec<&str> = problem.errors.iter().map(|e| e.pointer.as_str()).collect();
            assert!(
                pointers.contains(&pointer),
                "{path} {body}: expected {pointer} in {pointers:?}"
            );
        }
    }
}

/// A body of the wrong type somewhere inside a request is a 400 whose message
/// says what was expected there by the name clients know: a schema of the
/// OpenAPI document, never an internal type.
#[tokio::test]
async fn a_shape_error_names_the_documented_schema() {
    let document = serde_json::to_value(gin_referee::routes::openapi()).expect("the document");
    let schemas = &document["components"]["schemas"];
    let knocker = json!({"hand": SOURCE_S4_ELDER});
    let defender = json!({"hand": SOURCE_S4_YOUNGER});
    let cases = [
        ("/v1/hands/analyze", json!(5), "AnalyzeRequest"),
        (
            "/v1/hands/score",
            json!({"knocker": 5, "defender": defender}),
            "KnockerHand",
        ),
        (
            "/v1/hands/score",
            json!({"knocker": knocker, "defender": 5}),
            "DefenderHand",
        ),
        (
            "/v1/hands/score",
            json!({"knocker": knocker, "defender": {"hand": SOURCE_S4_YOUNGER, "layoffs": [5]}}),
            "HandLayoff",
        ),
        (
            "/v1/layoffs",
            json!({"knocker": knocker, "defender": 5}),
            "DefenderCards",
        ),
        ("/v1/hands/audit", json!({"deal": 5, "actions": []}), "Deal"),
        (
            "/v1/matches/score",
            json!({"players": ["Mom", "Dad"], "hands": [5]}),
            "MatchHand",
        ),
    ];
    let app = spawn_app().await;
    for (path, body, schema) in cases {
        let response = app.post_json(path, &body.to_string()).await;
        let problem = expect_problem(response, 400, "invalid_body").await;
        let message = &problem.errors[0].message;
        let named = message.rsplit(' ').next().unwrap_or_default();
        assert_eq!(named, schema, "{path} {body}: {message}");
        assert!(
            schemas.get(named).is_some(),
            "{named} is not a documented schema"
        );
    }
    // The actions of an audit: the one place where the Rust type and the schema
    // are named differently.
    let audit = json!({"deal": {"dealer": [], "non_dealer": [], "upcard": "2C", "stock": []},
                       "actions": [5]});
    let response = app.post_json("/v1/hands/audit", &audit.to_string()).await;
    let problem = expect_problem(response, 400, "invalid_body").await;
    assert!(
        problem.errors[0]
            .message
            .ends_with("expected internally tagged enum Action"),
        "{}",
        problem.errors[0].message
    );
    assert!(schemas.get("Action").is_some());
}
