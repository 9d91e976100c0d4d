//! Jokers over HTTP (`docs/RULES.md`, "Jokers"): the profile parameters and
//! preset, the hand-made cases of the rules through `/v1/hands/analyze`,
//! scoring and layoffs with jokers, and jokers refused where the profile's
//! deck does not hold them.

use serde_json::{Value, json};

use crate::support::{TestApp, expect_problem, spawn_app};

async fn ok(app: &TestApp, path: &str, body: Value) -> Value {
    let response = app.post_json(path, &body.to_string()).await;
    assert_eq!(response.status().as_u16(), 200, "{body}");
    response.json().await.expect("json")
}

async fn analyze(app: &TestApp, profile: Value, hand: &[&str]) -> Value {
    ok(
        app,
        "/v1/hands/analyze",
        json!({"profile": profile, "hand": hand}),
    )
    .await
}

#[tokio::test]
async fn the_jokers_preset_is_listed_with_its_parameters() {
    let app = spawn_app().await;
    let all: Value = app.get("/v1/profiles").await.json().await.unwrap();
    let presets = all.as_array().unwrap();
    let jokers = presets.iter().find(|p| p["name"] == "jokers").unwrap();
    assert_eq!(jokers["jokers"], 2);
    assert_eq!(jokers["joker_deadwood"], 15);
    assert_eq!(jokers["joker_min_natural"], 2);
    assert_eq!(jokers["joker_layoff"], true);
    assert_eq!(jokers["joker_pickup_must_meld"], false);
    // Every other preset names no joker parameter at all.
    for preset in presets.iter().filter(|p| p["name"] != "jokers") {
        assert!(preset.get("jokers").is_none(), "{preset}");
        assert!(preset.get("joker_deadwood").is_none(), "{preset}");
    }
    let one: Value = app.get("/v1/profiles/jokers").await.json().await.unwrap();
    assert_eq!(&one, jokers);
    let standard: Value = app.get("/v1/profiles/standard").await.json().await.unwrap();
    let mut without = jokers.as_object().unwrap().clone();
    for parameter in [
        "jokers",
        "joker_deadwood",
        "joker_min_natural",
        "joker_layoff",
        "joker_pickup_must_meld",
    ] {
        without.remove(parameter);
    }
    without.insert("name".into(), json!("standard"));
    without.insert("base".into(), json!("standard"));
    assert_eq!(Value::Object(without), standard);
}

#[tokio::test]
async fn joker_parameters_are_overridden_and_checked_like_the_others() {
    let app = spawn_app().await;
    let hand = ["5S", "5H", "5D", "5C", "9S", "9H", "9D", "9C", "KC", "X1"];
    // One joker added to standard.
    let one = analyze(&app, json!({"base": "standard", "jokers": 1}), &hand).await;
    assert_eq!(one["deadwood"], 15);
    for (profile, status, code, pointer) in [
        (
            json!({"jokers": 3}),
            400,
            "invalid_profile",
            "/profile/jokers",
        ),
        (
            json!({"base": "jokers", "joker_deadwood": 10}),
            400,
            "invalid_profile",
            "/profile/joker_deadwood",
        ),
        (
            json!({"base": "jokers", "joker_min_natural": 0}),
            400,
            "invalid_profile",
            "/profile/joker_min_natural",
        ),
        (
            json!({"base": "jokers", "joker_min_natural": 4}),
            400,
            "invalid_profile",
            "/profile/joker_min_natural",
        ),
        (
            json!({"joker_layoff": false}),
            422,
            "invalid_profile_combination",
            "/profile/joker_layoff",
        ),
    ] {
        let body = json!({"profile": profile, "hand": hand});
        let response = app.post_json("/v1/hands/analyze", &body.to_string()).await;
        let problem = expect_problem(response, status, code).await;
        assert_eq!(problem.errors[0].pointer, pointer, "{body}");
    }
    let body = json!({"profile": {"jokers": -1}, "hand": hand});
    let response = app.post_json("/v1/hands/analyze", &body.to_string()).await;
    expect_problem(response, 400, "invalid_body").await;
}

#[tokio::test]
async fn a_joker_is_refused_where_the_deck_holds_none() {
    let app = spawn_app().await;
    let hand = ["AS", "5S", "9S", "KS", "2H", "6H", "TH", "3D", "X1", "x2"];
    for (profile, pointer, joker) in [
        (Value::Null, "/hand/8", "X1"),
        (json!("standard"), "/hand/8", "X1"),
        (json!({"base": "oklahoma", "jokers": 0}), "/hand/8", "X1"),
        (json!({"base": "standard", "jokers": 1}), "/hand/9", "X2"),
    ] {
        let mut body = json!({"hand": hand, "upcard": "5C"});
        if !profile.is_null() {
            body["profile"] = profile;
        }
        let response = app.post_json("/v1/hands/analyze", &body.to_string()).await;
        let problem = expect_problem(response, 422, "joker_not_in_deck").await;
        assert_eq!(problem.errors[0].pointer, pointer, "{body}");
        assert!(problem.detail.starts_with(joker), "{}", problem.detail);
    }
    // Scoring and layoffs point at the joker of either hand.
    let knocker = ["5H", "X1", "7H", "9S", "9D", "9C", "KS", "KD", "KC", "2C"];
    let defender = ["8H", "4H", "QS", "QD", "JC", "3S", "3D", "6C", "7C", "X2"];
    for path in ["/v1/hands/score", "/v1/layoffs"] {
        let body = json!({"knocker": {"hand": knocker}, "defender": {"hand": defender}});
        let problem = expect_problem(
            app.post_json(path, &body.to_string()).await,
            422,
            "joker_not_in_deck",
        )
        .await;
        assert_eq!(problem.errors[0].pointer, "/knocker/hand/1");
        let body = json!({"profile": {"jokers": 1}, "knocker": {"hand": knocker}, "defender": {"hand": defender}});
        let problem = expect_problem(
            app.post_json(path, &body.to_string()).await,
            422,
            "joker_not_in_deck",
        )
        .await;
        assert_eq!(problem.errors[0].pointer, "/defender/hand/9");
    }
    // Not a card at all, with or without jokers.
    let body = json!({"profile": "jokers", "hand": ["X3"]});
    let response = app.post_json("/v1/hands/analyze", &body.to_string()).await;
    let problem = expect_problem(response, 400, "invalid_body").await;
    assert_eq!(problem.errors[0].pointer, "/hand/0");
}

#[tokio::test]
async fn the_hand_made_cases_of_the_rules() {
    let app = spawn_app().await;
    // A joker bridging a gap: X1 is the 6H between 5H and 7H.
    let bridge = analyze(
        &app,
        json!("jokers"),
        &["5H", "X1", "7H", "9S", "9D", "9C", "KS", "QD", "2C", "3D"],
    )
    .await;
    assert_eq!(
        bridge,
        json!({"deadwood": 25, "knock_limit": 10, "can_knock": false, "gin": false,
            "melds": [["5H", "X1", "7H"], ["9S", "9D", "9C"]], "jokers": {"X1": "6H"},
            "deadwood_cards": ["KS", "3D", "QD", "2C"]})
    );
    // A joker as a set's fourth card: the sevens take it as 7C (sets before
    // runs, though 2S 3S 4S could take it too).
    let fourth = analyze(
        &app,
        json!("jokers"),
        &["7S", "7H", "7D", "X1", "KC", "2S", "3S", "4S", "9H", "JD"],
    )
    .await;
    assert_eq!(
        fourth["melds"],
        json!([["2S", "3S", "4S"], ["7S", "7H", "7D", "X1"]])
    );
    assert_eq!(fourth["jokers"], json!({"X1": "7C"}));
    assert_eq!(fourth["deadwood"], 29);
    // Two jokers in one run: 5H X1 X2 8H is 5H 6H 7H 8H, X1 the lower card.
    let two = analyze(
        &app,
        json!("jokers"),
        &["5H", "X1", "X2", "8H", "9S", "9D", "9C", "KS", "QD", "2C"],
    )
    .await;
    assert_eq!(
        two["melds"],
        json!([["5H", "X1", "X2", "8H"], ["9S", "9D", "9C"]])
    );
    assert_eq!(two["jokers"], json!({"X1": "6H", "X2": "7H"}));
    assert_eq!(two["deadwood"], 22);
    // A meld needing both jokers (one natural and two jokers) is refused
    // under the two-natural rule: nothing melds, each joker counts 15.
    let lonely = ["AS", "5S", "9S", "KS", "2H", "6H", "TH", "3D", "X1", "X2"];
    let refused = analyze(&app, json!("jokers"), &lonely).await;
    assert_eq!(
        refused,
        json!({"deadwood": 76, "knock_limit": 10, "can_knock": false, "gin": false,
            "melds": [], "deadwood_cards": ["AS", "5S", "9S", "KS", "2H", "6H", "TH", "3D", "X1", "X2"]})
    );
    let one_natural = analyze(
        &app,
        json!({"base": "jokers", "joker_min_natural": 1}),
        &lonely,
    )
    .await;
    assert_eq!(one_natural["deadwood"], 36);
    assert_eq!(one_natural["melds"], json!([["X1", "TH", "X2"]]));
    assert_eq!(one_natural["jokers"], json!({"X1": "TS", "X2": "TD"}));
    // A joker better as deadwood: with both ranks complete, X1 could only
    // stand for a five the hand holds (which then counts 5). Counting 0 in
    // deadwood it stays out; counting 15 it stands for the five.
    let full = ["5S", "5H", "5D", "5C", "9S", "9H", "9D", "9C", "KC", "X1"];
    let out = analyze(&app, json!({"base": "jokers", "joker_deadwood": 0}), &full).await;
    assert_eq!(
        out,
        json!({"deadwood": 10, "knock_limit": 10, "can_knock": true, "gin": false,
            "melds": [["5S", "5H", "5D", "5C"], ["9S", "9H", "9D", "9C"]],
            "deadwood_cards": ["KC", "X1"]})
    );
    let stands_in = analyze(&app, json!("jokers"), &full).await;
    assert_eq!(stands_in["deadwood"], 15);
    assert_eq!(stands_in["jokers"], json!({"X1": "5S"}));
    assert_eq!(stands_in["deadwood_cards"], json!(["5S", "KC"]));
    // The rules' short examples (a joker of a four-twos hand stands for a two).
    let twos = analyze(
        &app,
        json!("jokers"),
        &["2S", "2H", "2D", "2C", "X1", "X2", "KS", "QH", "JD", "9C"],
    )
    .await;
    assert_eq!(twos["deadwood"], 4 + 10 + 10 + 10 + 9);
}

#[tokio::test]
async fn eleven_cards_and_every_arrangement_with_jokers() {
    let app = spawn_app().await;
    let drawn = analyze(
        &app,
        json!("jokers"),
        &[
            "5H", "6H", "7H", "9S", "9D", "KC", "KD", "X1", "X2", "2C", "3D",
        ],
    )
    .await;
    assert_eq!(drawn["deadwood"], 2);
    assert_eq!(drawn["big_gin"], false);
    assert_eq!(drawn["discards"].as_array().unwrap().len(), 1);
    assert_eq!(drawn["discards"][0]["card"], "3D");
    assert_eq!(drawn["discards"][0]["deadwood_cards"], json!(["2C"]));
    assert_eq!(
        drawn["discards"][0]["jokers"],
        json!({"X1": "9H", "X2": "KS"})
    );
    // Both jokers are best discards: both listed, after the natural cards.
    let both = analyze(
        &app,
        json!("jokers"),
        &[
            "5H", "6H", "7H", "9S", "9D", "9C", "KC", "KD", "KS", "X1", "X2",
        ],
    )
    .await;
    assert_eq!(both["big_gin"], true);
    let body = json!({"profile": "jokers", "all_arrangements": true,
        "hand": ["5H", "X1", "7H", "9S", "9D", "9C", "KS", "QD", "2C", "3D"]});
    let all = ok(&app, "/v1/hands/analyze", body).await;
    let arrangements = all["arrangements"].as_array().unwrap();
    assert!(!arrangements.is_empty());
    for arrangement in arrangements {
        assert_eq!(arrangement["deadwood"], 25);
        assert_eq!(arrangement["jokers"], json!({"X1": "6H"}));
    }
}

#[tokio::test]
async fn scoring_and_layoffs_with_jokers() {
    let app = spawn_app().await;
    let knocker = ["5H", "X1", "7H", "9S", "9D", "9C", "KS", "KD", "KC", "2C"];
    let defender = ["8H", "4H", "QS", "QD", "JC", "3S", "3D", "6C", "7C", "X2"];
    let body =
        json!({"profile": "jokers", "knocker": {"hand": knocker}, "defender": {"hand": defender}});
    let scored = ok(&app, "/v1/hands/score", body.clone()).await;
    // X1 fixes the run as 5H 6H 7H: it takes 4H and 8H; X2 makes QS QD a set.
    assert_eq!(
        scored,
        json!({"outcome": "knock", "winner": "knocker", "points": 27,
            "breakdown": {"deadwood_difference": 27, "gin_bonus": 0, "big_gin_bonus": 0, "undercut_bonus": 0, "multiplier": 1},
            "knocker": {"melds": [["5H", "X1", "7H"], ["9S", "9D", "9C"], ["KS", "KD", "KC"]], "jokers": {"X1": "6H"},
                "deadwood_cards": ["2C"], "deadwood": 2},
            "defender": {"melds": [["QS", "X2", "QD"]], "jokers": {"X2": "QH"},
                "layoffs": [{"card": "4H", "meld": 0}, {"card": "8H", "meld": 0}],
                "deadwood_cards": ["3S", "3D", "6C", "7C", "JC"], "deadwood": 29}})
    );
    let laid = ok(&app, "/v1/layoffs", body).await;
    assert_eq!(laid["knocker"], scored["knocker"]);
    assert_eq!(laid["defender"], scored["defender"]);
    // The defender lays a joker off, naming the card it stands for.
    let defender = ["X2", "9H", "AS", "4C", "6D", "JD", "QC", "2H", "8C", "3D"];
    let body =
        json!({"profile": "jokers", "knocker": {"hand": knocker}, "defender": {"hand": defender}});
    let laid = ok(&app, "/v1/layoffs", body.clone()).await;
    assert_eq!(
        laid["defender"]["layoffs"],
        json!([{"card": "9H", "meld": 1}, {"card": "X2", "meld": 2, "stands_for": "KH"}])
    );
    assert_eq!(laid["defender"]["deadwood"], 44);
    // Without joker layoffs, X2 stays in deadwood (15).
    let mut no_joker_layoff = body.clone();
    no_joker_layoff["profile"] = json!({"base": "jokers", "joker_layoff": false});
    let laid = ok(&app, "/v1/layoffs", no_joker_layoff).await;
    assert_eq!(
        laid["defender"]["layoffs"],
        json!([{"card": "9H", "meld": 1}])
    );
    assert_eq!(laid["defender"]["deadwood"], 44 + 15);
    // A joker-free hand under the jokers preset is scored as under standard.
    let plain = json!({"profile": "jokers",
        "knocker": {"hand": ["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "AH"]},
        "defender": {"hand": ["6H", "2H", "JS", "JH", "JD", "7S", "7H", "7C", "4D", "5S"]}});
    let scored = ok(&app, "/v1/hands/score", plain).await;
    assert_eq!(scored["points"], 8);
    assert!(scored["knocker"].get("jokers").is_none());
}

#[tokio::test]
async fn a_knocker_declares_what_its_joker_stands_for() {
    let app = spawn_app().await;
    // RULES.md: a knocker's 6H 7H X1 with X1 = 8H takes 9H but not 8H; with
    // X1 = 5H it takes 8H (then 9H).
    let knocker = ["6H", "7H", "X1", "9S", "9D", "9C", "KS", "KD", "KC", "2C"];
    let defender = ["8H", "9H", "AS", "4C", "6D", "JD", "QC", "2S", "8C", "3D"];
    let declare = |run: Value, card: &str| {
        json!({"profile": "jokers",
            "knocker": {"hand": knocker, "melds": [run, ["9S", "9D", "9C"], ["KS", "KD", "KC"]], "jokers": {"X1": card}},
            "defender": {"hand": defender}})
    };
    let high = ok(
        &app,
        "/v1/layoffs",
        declare(json!(["6H", "7H", "X1"]), "8H"),
    )
    .await;
    assert_eq!(
        high["knocker"],
        json!({"melds": [["6H", "7H", "X1"], ["9S", "9D", "9C"], ["KS", "KD", "KC"]],
            "jokers": {"X1": "8H"}, "deadwood_cards": ["2C"], "deadwood": 2})
    );
    // 8H can go nowhere: X1 is the 8H of the table.
    assert_eq!(
        high["defender"]["layoffs"],
        json!([{"card": "9H", "meld": 1}])
    );
    assert_eq!(high["defender"]["deadwood"], 52);
    let low = ok(
        &app,
        "/v1/layoffs",
        declare(json!(["X1", "6H", "7H"]), "5H"),
    )
    .await;
    assert_eq!(
        low["defender"]["layoffs"],
        json!([{"card": "8H", "meld": 0}, {"card": "9H", "meld": 1}])
    );
    assert_eq!(low["defender"]["deadwood"], 44);
    let scored = ok(
        &app,
        "/v1/hands/score",
        declare(json!(["X1", "6H", "7H"]), "5H"),
    )
    .await;
    assert_eq!(scored["points"], 42);
    // The declared melds are checked with each joker in place.
    for (body, code, pointer) in [
        (
            declare(json!(["6H", "7H", "X1"]), "4H"),
            "gap",
            "/knocker/melds/0",
        ),
        (
            json!({"profile": "jokers", "knocker": {"hand": knocker, "melds": [["6H", "7H", "X1"]]}, "defender": {"hand": defender}}),
            "joker_stands_for",
            "/knocker/melds/0/2",
        ),
        (
            json!({"profile": "jokers", "knocker": {"hand": knocker, "melds": [["9S", "9D", "9C"]], "jokers": {"X1": "8H"}}, "defender": {"hand": defender}}),
            "joker_stands_for",
            "/knocker/jokers/X1",
        ),
        (
            json!({"profile": "jokers", "knocker": {"hand": knocker, "melds": [["7H", "X1"]], "jokers": {"X1": "8H"}}, "defender": {"hand": defender}}),
            "too_few_naturals",
            "/knocker/melds/0",
        ),
        (
            declare(json!(["6H", "7H", "X1"]), "9C"),
            "mixed_suits",
            "/knocker/melds/0",
        ),
        (
            json!({"profile": "jokers", "knocker": {"hand": knocker, "melds": [["6H", "7H", "X2"]], "jokers": {"X2": "8H"}}, "defender": {"hand": defender}}),
            "card_not_in_hand",
            "/knocker/melds/0/2",
        ),
        (
            json!({"profile": "jokers", "knocker": {"hand": knocker, "melds": [["6H", "7H", "X1"], ["9S", "9D", "9C", "X1"]], "jokers": {"X1": "8H"}}, "defender": {"hand": defender}}),
            "card_in_two_melds",
            "/knocker/melds/1/3",
        ),
    ] {
        let response = app.post_json("/v1/hands/score", &body.to_string()).await;
        let problem = expect_problem(response, 422, "invalid_melds").await;
        assert_eq!(
            (
                problem.errors[0].code.as_str(),
                problem.errors[0].pointer.as_str()
            ),
            (code, pointer),
            "{body}"
        );
    }
    let over = json!({"profile": "jokers", "knocker": {"hand": knocker, "melds": [["9S", "9D", "9C"]]}, "defender": {"hand": defender}});
    let problem = expect_problem(
        app.post_json("/v1/hands/score", &over.to_string()).await,
        422,
        "knock_over_limit",
    )
    .await;
    assert_eq!(problem.errors[0].pointer, "/knocker/melds");
}

#[tokio::test]
async fn the_defenders_declared_reply_with_jokers_is_checked_and_hands_share_no_card() {
    let app = spawn_app().await;
    let knocker = ["5H", "X1", "7H", "9S", "9D", "9C", "KS", "KD", "KC", "2C"];
    let defender = ["X2", "9H", "AS", "4C", "6D", "JD", "QC", "2H", "8C", "3D"];
    let declared_knocker = json!({"hand": knocker,
        "melds": [["5H", "X1", "7H"], ["9S", "9D", "9C"], ["KS", "KD", "KC"]], "jokers": {"X1": "6H"}});
    async fn post_score(app: &TestApp, knocker: Value, defender: Value) -> reqwest::Response {
        let body = json!({"profile": "jokers", "knocker": knocker, "defender": defender});
        app.post_json("/v1/hands/score", &body.to_string()).await
    }
    let score = |knocker: Value, defender: Value| post_score(&app, knocker, defender);
    // The referee's best reply, declared back: the same answer.
    let best: Value = score(declared_knocker.clone(), json!({"hand": defender}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        best["defender"]["layoffs"],
        json!([{"card": "9H", "meld": 1}, {"card": "X2", "meld": 2, "stands_for": "KH"}])
    );
    let laid = json!({"hand": defender, "melds": [],
        "layoffs": [{"card": "9H", "meld": 1}, {"card": "X2", "meld": 2, "stands_for": "KH"}]});
    let response = score(declared_knocker.clone(), laid).await;
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(response.json::<Value>().await.unwrap(), best);
    // Nothing laid off: X2 counts 15 more, 9H 9 more.
    let none = score(
        json!({"hand": knocker}),
        json!({"hand": defender, "layoffs": []}),
    )
    .await;
    let none: Value = none.json().await.unwrap();
    assert_eq!(none["defender"]["deadwood"], 44 + 15 + 9);
    assert_eq!(none["defender"]["layoffs"], json!([]));
    // What the rules refuse, at the place of the fault.
    let refused = [
        (
            json!({"hand": defender, "layoffs": [{"card": "X2", "meld": 2}]}),
            "layoff_does_not_fit",
            "/defender/layoffs/0",
        ),
        (
            // 6H is on the table already: the knocker's X1 shows it.
            json!({"hand": defender, "layoffs": [{"card": "X2", "meld": 0, "stands_for": "6H"}]}),
            "layoff_does_not_fit",
            "/defender/layoffs/0",
        ),
        (
            json!({"hand": defender, "layoffs": [{"card": "QC", "meld": 1}]}),
            "layoff_does_not_fit",
            "/defender/layoffs/0",
        ),
        (
            json!({"hand": defender, "melds": [["AS", "2H", "X2"]]}),
            "invalid_melds",
            "/defender/melds/0/2",
        ),
        (
            json!({"hand": defender, "melds": [["JD", "QC", "X2"]], "jokers": {"X2": "KD"}}),
            "invalid_melds",
            "/defender/melds/0",
        ),
    ];
    // A meld index is read as the joker-free one is (schemathesis found a
    // layoff's index unbounded in the schema): up to 2^32 - 1, `5.0` as 5.
    let far = json!({"hand": defender, "layoffs": [{"card": "X2", "meld": 4_294_967_296_u64, "stands_for": "KH"}]});
    let problem = expect_problem(
        score(declared_knocker.clone(), far).await,
        400,
        "invalid_body",
    )
    .await;
    assert_eq!(problem.errors[0].pointer, "/defender/layoffs/0/meld");
    let five =
        json!({"hand": defender, "layoffs": [{"card": "X2", "meld": 5.0, "stands_for": "KH"}]});
    expect_problem(
        score(declared_knocker.clone(), five).await,
        422,
        "layoff_meld_not_found",
    )
    .await;
    for (defender, code, pointer) in refused {
        let problem = expect_problem(
            score(declared_knocker.clone(), defender.clone()).await,
            422,
            code,
        )
        .await;
        assert_eq!(problem.errors[0].pointer, pointer, "{defender}");
    }
    let mut twice = defender;
    twice[0] = "x1";
    let body =
        json!({"profile": "jokers", "knocker": {"hand": knocker}, "defender": {"hand": twice}});
    let response = app.post_json("/v1/hands/score", &body.to_string()).await;
    let problem = expect_problem(response, 422, "duplicate_card").await;
    assert_eq!(problem.errors[0].pointer, "/defender/hand/0");
    let over = ["5H", "X1", "7H", "9S", "9D", "TC", "KS", "KD", "JC", "2C"];
    let body =
        json!({"profile": "jokers", "knocker": {"hand": over}, "defender": {"hand": defender}});
    let response = app.post_json("/v1/hands/score", &body.to_string()).await;
    expect_problem(response, 422, "knock_over_limit").await;
}

#[tokio::test]
async fn a_batch_line_with_a_joker_is_read_by_the_general_reader() {
    let app = spawn_app().await;
    let body = concat!(
        r#"{"hand": ["5H", "X1", "7H", "9S", "9D", "9C", "KS", "QD", "2C", "3D"]}"#,
        "\n",
        r#"{"profile": "jokers", "hand": ["5H", "X1", "7H", "9S", "9D", "9C", "KS", "QD", "2C", "3D"]}"#,
        "\n",
        r#"{"hand": ["7S", "7H", "7D", "7C", "8H", "9H", "KS", "QD", "2C", "3D"]}"#,
        "\n"
    );
    let text = app
        .client
        .post(app.url("/v1/hands/analyze/batch"))
        .header("content-type", "application/x-ndjson")
        .body(body)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(lines[0]["problem"]["code"], "joker_not_in_deck");
    assert_eq!(lines[0]["problem"]["errors"][0]["pointer"], "/hand/1");
    assert_eq!(lines[1]["result"]["jokers"], json!({"X1": "6H"}));
    assert_eq!(lines[2]["result"]["deadwood"], 25);
}

#[tokio::test]
async fn a_match_scores_card_hands_with_jokers_as_the_hand_scoring_does() {
    let app = spawn_app().await;
    let knocker = ["5H", "X1", "7H", "9S", "9D", "9C", "KS", "KD", "KC", "2C"];
    let defender = ["8H", "4H", "QS", "QD", "JC", "3S", "3D", "6C", "7C", "X2"];
    let single = ok(
        &app,
        "/v1/hands/score",
        json!({"profile": "jokers", "knocker": {"hand": knocker}, "defender": {"hand": defender}}),
    )
    .await;
    let cards = json!({"knocker": "Ann", "knocker_hand": {"hand": knocker},
        "defender_hand": {"hand": defender}});
    // The same knock with its melds declared as the referee chose them.
    let declared = json!({"knocker": "Ann", "knocker_hand": {"hand": knocker,
            "melds": [["5H", "X1", "7H"], ["9S", "9D", "9C"], ["KS", "KD", "KC"]],
            "jokers": {"X1": "6H"}},
        "defender_hand": {"hand": defender}});
    let counts = json!({"knocker": "Ann", "knocker_deadwood": single["knocker"]["deadwood"],
        "defender_deadwood": single["defender"]["deadwood"]});
    let mut answers = Vec::new();
    for hand in [cards, declared, counts] {
        let answer = ok(
            &app,
            "/v1/matches/score",
            json!({"profile": "jokers", "players": ["Ann", "Bob"], "hands": [hand]}),
        )
        .await;
        assert_eq!(answer["hands"][0]["points"], single["points"], "{answer}");
        answers.push(answer);
    }
    assert_eq!(answers[0], answers[1]);
    assert_eq!(answers[0], answers[2]);
    assert_eq!(answers[0]["hands"][0]["defender_deadwood"], 29);
}

#[tokio::test]
async fn match_hands_with_jokers_are_refused_at_the_card_at_fault() {
    let app = spawn_app().await;
    let knocker = ["5H", "X1", "7H", "9S", "9D", "9C", "KS", "KD", "KC", "2C"];
    let defender = ["8H", "4H", "QS", "QD", "JC", "3S", "3D", "6C", "7C", "X2"];
    async fn post_second(app: &TestApp, profile: &str, hand: Value) -> reqwest::Response {
        let body = json!({"profile": profile, "players": ["Ann", "Bob"],
            "hands": [{"knocker": "Bob", "knocker_deadwood": 0, "defender_deadwood": 10}, hand]});
        app.post_json("/v1/matches/score", &body.to_string()).await
    }
    let post = |profile: &'static str, hand: Value| post_second(&app, profile, hand);
    let cards = json!({"knocker": "Ann", "knocker_hand": {"hand": knocker},
        "defender_hand": {"hand": defender}});
    let problem = expect_problem(
        post("standard", cards.clone()).await,
        422,
        "joker_not_in_deck",
    )
    .await;
    assert_eq!(problem.errors[0].pointer, "/hands/1/knocker_hand/hand/1");
    let one_joker = json!({"base": "jokers", "jokers": 1});
    let body = json!({"profile": one_joker, "players": ["Ann", "Bob"], "hands": [cards]});
    let problem = expect_problem(
        app.post_json("/v1/matches/score", &body.to_string()).await,
        422,
        "joker_not_in_deck",
    )
    .await;
    assert_eq!(problem.errors[0].pointer, "/hands/0/defender_hand/hand/9");
    // X1 declared as 8H: 5H 8H 7H is no run.
    let wrong = json!({"knocker": "Ann", "knocker_hand": {"hand": knocker,
            "melds": [["5H", "X1", "7H"]], "jokers": {"X1": "8H"}},
        "defender_hand": {"hand": defender}});
    let problem = expect_problem(post("jokers", wrong).await, 422, "invalid_melds").await;
    assert_eq!(problem.errors[0].pointer, "/hands/1/knocker_hand/melds/0");
    assert_eq!(problem.errors[0].code, "gap");
    let declared = json!({"knocker": "Ann", "knocker_hand": {"hand": knocker},
        "defender_hand": {"hand": defender, "melds": [["QS", "QD", "X1"]], "jokers": {"X1": "QH"}}});
    let problem = expect_problem(post("jokers", declared).await, 422, "invalid_melds").await;
    assert_eq!(
        problem.errors[0].pointer,
        "/hands/1/defender_hand/melds/0/2"
    );
    assert_eq!(problem.errors[0].code, "card_not_in_hand");
    let twice = json!({"knocker": "Ann", "knocker_hand": {"hand": knocker},
        "defender_hand": {"hand": ["8H", "4H", "QS", "QD", "JC", "3S", "3D", "6C", "7C", "X1"]}});
    let problem = expect_problem(post("jokers", twice).await, 422, "duplicate_card").await;
    assert_eq!(problem.errors[0].pointer, "/hands/1/defender_hand/hand/9");
}

#[tokio::test]
async fn a_defenders_count_may_reach_the_joker_bound() {
    let app = spawn_app().await;
    async fn one_hand(app: &TestApp, profile: Value, defender: u32) -> reqwest::Response {
        let body = json!({"profile": profile, "players": ["Ann", "Bob"],
            "hands": [{"knocker": "Ann", "knocker_deadwood": 0, "defender_deadwood": defender}]});
        app.post_json("/v1/matches/score", &body.to_string()).await
    }
    let count = |profile: Value, defender: u32| one_hand(&app, profile, defender);
    // Eight naturals of 10 and two jokers of 15: 110 (standard stops at 98).
    assert_eq!(count(json!("jokers"), 110).await.status().as_u16(), 200);
    let problem = expect_problem(count(json!("jokers"), 111).await, 422, "impossible_count").await;
    assert!(problem.detail.contains("110"), "{problem:?}");
    expect_problem(count(json!("standard"), 99).await, 422, "impossible_count").await;
    let heavy = json!({"base": "jokers", "joker_deadwood": 25});
    assert_eq!(count(heavy, 130).await.status().as_u16(), 200);
}

/// A match of the costliest card hands with jokers found (a random search
/// over hands of low cards, where the knocker has the most arrangements
/// within the limit and the defender the most ways to lay off), as many as
/// the body limit holds: its cost stays within the request bounds.
#[test]
fn a_body_full_of_the_costliest_joker_hands_stays_within_the_request_bounds() {
    use crate::cost::{Server, assert_within_request_bounds};
    // The players take turns to knock, so that the game (to 10,000) lasts.
    let hand = |knocker: &str| {
        json!({"knocker": knocker,
            "knocker_hand": {"hand": ["5S", "4S", "2D", "3D", "3S", "4C", "4D", "2H", "X1", "X2"]},
            "defender_hand": {"hand": ["AC", "2S", "AD", "5D", "4H", "AS", "6S", "2C", "3C", "6H"]}})
        .to_string()
    };
    let profile = json!({"base": "jokers", "joker_min_natural": 1, "joker_deadwood": 0,
        "target": 10_000});
    let head = format!(r#"{{"profile": {profile}, "players": ["A", "B"], "hands": ["#);
    let count = ((64 * 1024 - head.len() - 2) / (hand("A").len() + 1)).min(500);
    let hands: Vec<String> = (0..count)
        .map(|i| hand(if i % 2 == 0 { "A" } else { "B" }))
        .collect();
    let body = format!("{head}{}]}}", hands.join(","));
    assert!(body.len() <= 64 * 1024);
    let server = Server::start(&[]);
    let ((status, _, answer), cost) =
        server.measure(|| server.post("/v1/matches/score", &[], body.as_bytes()));
    // The game to 10,000 ends at about the 333rd hand: a longer list is
    // refused (`game_over`) after every hand before it was scored.
    assert!(status == 200 || status == 422, "{status}");
    assert_within_request_bounds(
        &format!("{count} joker card hands"),
        body.len(),
        answer.len(),
        cost,
    );
}

#[tokio::test]
async fn an_empty_joker_map_gives_the_layoffs_of_no_map_in_the_same_order() {
    let app = spawn_app().await;
    let knocker = json!({"hand": ["4S", "5S", "6S", "4H", "5H", "6H", "9C", "9D", "9H", "AC"]});
    let defender = ["2S", "3S", "7S", "8S", "7H", "3H", "KC", "QD", "JC", "TD"];
    let plain = ok(
        &app,
        "/v1/hands/score",
        json!({"knocker": knocker, "defender": {"hand": defender}}),
    )
    .await;
    let mapped = ok(
        &app,
        "/v1/hands/score",
        json!({"knocker": knocker, "defender": {"hand": defender, "jokers": {}}}),
    )
    .await;
    let cards = |answer: &Value| -> Vec<String> {
        answer["defender"]["layoffs"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|layoff| layoff["card"].as_str().unwrap_or_default().to_owned())
            .collect()
    };
    // Wave by wave outward from the knocker's runs, as every audit lists them.
    assert_eq!(cards(&plain), ["3S", "7S", "8S", "3H", "7H", "2S"]);
    assert_eq!(mapped, plain);
}
