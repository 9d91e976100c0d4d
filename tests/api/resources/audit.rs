//! `POST /v1/hands/audit` over HTTP: verdicts are 200 whether the hand was legal
//! or not; impossible deals and bad profiles are problems with pointers.

use gin_contract::answers::audit::examples;
use gin_rules::{Card, CardSet, analyze_drawn_hand};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use serde_json::{Value, json};

use crate::support::{TestApp, expect_problem, spawn_app};

const PATH: &str = "/v1/hands/audit";

async fn verdict(app: &TestApp, body: &Value) -> Value {
    let response = app.post_json(PATH, &body.to_string()).await;
    assert_eq!(response.status().as_u16(), 200);
    response.json().await.expect("a JSON verdict")
}

#[tokio::test]
async fn a_legal_hand_is_scored_as_the_score_endpoint_scores_the_final_hands() {
    let app = spawn_app().await;
    let body = verdict(&app, &examples::legal_knock()).await;
    assert_eq!(body["legal"], true);
    assert_eq!(body["violation"], Value::Null);
    assert_eq!(
        (&body["knocker"], &body["ended_at"]),
        (&json!("non_dealer"), &json!(3))
    );
    // The final hands, sent to /v1/hands/score: the knocker keeps ten cards with
    // its declared melds, the defender lays off 7H then 4S.
    let score = json!({
        "upcard": "2C",
        "knocker": {
            "hand": ["AS", "2S", "3S", "2H", "4H", "5H", "6H", "9C", "9D", "9H"],
            "melds": [["AS", "2S", "3S"], ["4H", "5H", "6H"], ["9C", "9D", "9H"]],
        },
        "defender": {
            "hand": ["7S", "8S", "TS", "JD", "QH", "KH", "3C", "4C", "7H", "4S"],
            "layoffs": [{"card": "7H", "meld": 1}, {"card": "4S", "meld": 0}],
        },
    });
    let scored = app.post_json("/v1/hands/score", &score.to_string()).await;
    assert_eq!(scored.status().as_u16(), 200);
    let scored: Value = scored.json().await.expect("a score");
    assert_eq!(body["result"], scored);
    assert_eq!(scored["points"], 60);
}

/// The knocker's ten cards kept and the defender's ten.
type FinalHands = (Vec<Card>, Vec<Card>);

/// A greedy player: always draws from the stock, discards the first card that
/// leaves the least deadwood, and knocks as soon as it may.
fn greedy_hand(seed: u64) -> (Value, Option<FinalHands>) {
    let mut deck: Vec<Card> = Card::deck().collect();
    deck.shuffle(&mut StdRng::seed_from_u64(seed));
    let (dealer, non_dealer, upcard, stock) = (&deck[..10], &deck[10..20], deck[20], &deck[21..]);
    let mut hands = [
        CardSet::from_distinct(non_dealer.iter().copied()).expect("distinct"),
        CardSet::from_distinct(dealer.iter().copied()).expect("distinct"),
    ];
    let seats = ["non_dealer", "dealer"];
    let mut actions = vec![
        json!({"player": "non_dealer", "action": "pass"}),
        json!({"player": "dealer", "action": "pass"}),
    ];
    let mut knocked = None;
    for (turn, &drawn) in stock[..29].iter().enumerate() {
        let (me, seat) = (turn % 2, seats[turn % 2]);
        actions.push(json!({"player": seat, "action": "draw", "from": "stock", "card": drawn}));
        hands[me].insert(drawn);
        let analysis = analyze_drawn_hand(hands[me], &gin_rules::JokerRules::NONE);
        let discard = analysis.discards[0]
            .card
            .natural()
            .expect("no joker in play");
        hands[me].remove(discard);
        if analysis.deadwood <= 10 {
            actions.push(json!({"player": seat, "action": "knock", "discard": discard}));
            knocked = Some((hands[me].to_vec(), hands[1 - me].to_vec()));
            break;
        }
        actions.push(json!({"player": seat, "action": "discard", "card": discard}));
    }
    let deal =
        json!({"dealer": dealer, "non_dealer": non_dealer, "upcard": upcard, "stock": stock});
    (json!({"deal": deal, "actions": actions}), knocked)
}

#[tokio::test]
async fn greedy_play_outs_are_legal_and_score_as_the_score_endpoint_scores_them() {
    let app = spawn_app().await;
    let mut scored_hands = 0;
    for seed in 0..12 {
        let (request, knocked) = greedy_hand(seed);
        let body = verdict(&app, &request).await;
        assert_eq!(body["legal"], true, "seed {seed}: {}", body["violation"]);
        match knocked {
            None => assert_eq!(body["result"], json!({"void": true}), "seed {seed}"),
            Some((knocker, defender)) => {
                let score = json!({
                    "upcard": request["deal"]["upcard"],
                    "knocker": {"hand": knocker},
                    "defender": {"hand": defender},
                });
                let scored = app.post_json("/v1/hands/score", &score.to_string()).await;
                let scored: Value = scored.json().await.expect("a score");
                assert_eq!(body["result"], scored, "seed {seed}");
                scored_hands += 1;
            }
        }
    }
    assert!(scored_hands > 0);
}

#[tokio::test]
async fn an_illegal_action_is_a_200_verdict_naming_the_action() {
    let body = verdict(&spawn_app().await, &examples::illegal_discard()).await;
    assert_eq!(body["legal"], false);
    assert_eq!(body["result"], Value::Null);
    assert_eq!(body["violation"]["action"], 1);
    assert_eq!(body["violation"]["code"], "discard_just_taken");
    assert_eq!(
        body["violation"]["message"],
        "the non-dealer took 2C from the discard pile this turn and may not discard it on the \
         same turn"
    );
    // The table just before the illegal action: the non-dealer holds 11 cards.
    assert_eq!(
        body["table"]["non_dealer"].as_array().map(Vec::len),
        Some(11)
    );
    assert_eq!(body["table"]["to_act"], "non_dealer");
}

#[tokio::test]
async fn a_transcript_that_stops_early_is_legal_so_far_with_a_null_result() {
    let body = verdict(&spawn_app().await, &examples::unfinished()).await;
    assert_eq!(
        (&body["legal"], &body["result"]),
        (&json!(true), &Value::Null)
    );
    assert_eq!(body["table"]["to_act"], "non_dealer");
    assert_eq!(body["table"]["discard_top"], "KH");
}

/// Both players pass, then draw from the stock and discard what they drew until
/// only two stock cards remain.
fn run_down(mut request: Value) -> Value {
    let stock: Vec<String> = serde_json::from_value(request["deal"]["stock"].clone()).unwrap();
    let mut actions = vec![
        json!({"player": "non_dealer", "action": "pass"}),
        json!({"player": "dealer", "action": "pass"}),
    ];
    let seats = ["non_dealer", "dealer"];
    for (i, drawn) in stock[..29].iter().enumerate() {
        let player = seats[i % 2];
        actions.push(json!({"player": player, "action": "draw", "from": "stock", "card": drawn}));
        actions.push(json!({"player": player, "action": "discard", "card": drawn}));
    }
    request["actions"] = json!(actions);
    request
}

#[tokio::test]
async fn no_knock_by_the_50th_card_is_a_void_hand() {
    let app = spawn_app().await;
    let body = verdict(&app, &run_down(examples::unfinished())).await;
    assert_eq!(body["legal"], true);
    assert_eq!(body["result"], json!({"void": true}));
    assert_eq!(body["ended_at"], 59);
    assert_eq!(body["table"]["stock_remaining"], 2);

    // Under the 50th-card rule the dealer may still answer; a pass makes it void.
    let mut tournament = run_down(examples::unfinished());
    tournament["profile"] = json!("tournament");
    let offered = verdict(&app, &tournament).await;
    assert_eq!(
        (&offered["legal"], &offered["result"]),
        (&json!(true), &Value::Null)
    );
    assert_eq!(offered["table"]["to_act"], "dealer");
    let mut drawn = tournament.clone();
    drawn["actions"]
        .as_array_mut()
        .unwrap()
        .push(json!({"player": "dealer", "action": "draw", "from": "stock"}));
    let exhausted = verdict(&app, &drawn).await;
    assert_eq!(exhausted["violation"]["code"], "stock_exhausted");
    assert_eq!(exhausted["violation"]["action"], 60);
}

#[tokio::test]
async fn the_profile_changes_the_verdict() {
    // Straight gin: a knock with 2 deadwood is over the limit of 0.
    let mut straight = examples::legal_knock();
    straight["profile"] = json!({"base": "straight"});
    let body = verdict(&spawn_app().await, &straight).await;
    assert_eq!(body["violation"]["code"], "knock_over_limit");
    assert_eq!(body["violation"]["action"], 3);
}

fn with(mut request: Value, pointer: &str, value: Value) -> Value {
    *request.pointer_mut(pointer).expect("the pointer exists") = value;
    request
}

#[tokio::test]
async fn unreadable_impossible_and_unknown_inputs_are_problems_with_pointers() {
    let base = examples::legal_knock();
    let mut no_actions = base.clone();
    no_actions.as_object_mut().unwrap().remove("actions");
    let mut long_stock = base.clone();
    long_stock["deal"]["stock"]
        .as_array_mut()
        .unwrap()
        .push(json!("KC"));
    let mut unrecorded = base.clone();
    unrecorded["deal"]["stock"] = json!([]);
    unrecorded["actions"][2]
        .as_object_mut()
        .unwrap()
        .remove("card");
    let cases: Vec<(&str, Value, u16, &str, &str)> = vec![
        (
            "an unparseable card",
            with(base.clone(), "/deal/dealer/3", json!("1X")),
            400,
            "invalid_body",
            "/deal/dealer/3",
        ),
        (
            "an unknown action",
            with(base.clone(), "/actions/0/action", json!("fold")),
            400,
            "invalid_body",
            "/actions/0/action",
        ),
        (
            "an unknown seat",
            with(base.clone(), "/actions/0/player", json!("north")),
            400,
            "invalid_body",
            "/actions/0",
        ),
        (
            "a discard without its card",
            with(
                base.clone(),
                "/actions/0",
                json!({"player": "dealer", "action": "discard"}),
            ),
            400,
            "invalid_body",
            "/actions/0/card",
        ),
        (
            "an unknown field in an action",
            with(
                base.clone(),
                "/actions/0",
                json!({"player": "dealer", "action": "pass", "card": "2C"}),
            ),
            400,
            "invalid_body",
            "/actions/0",
        ),
        ("no actions", no_actions, 400, "invalid_body", "/actions"),
        (
            "an unknown profile override",
            with(base.clone(), "/profile", json!({"gin": 20})),
            400,
            "invalid_body",
            "/profile/gin",
        ),
        (
            "a card dealt twice",
            with(base.clone(), "/deal/stock/30", json!("2C")),
            422,
            "duplicate_card",
            "/deal/stock/30",
        ),
        (
            "the upcard also in a hand",
            with(base.clone(), "/deal/upcard", json!("KC")),
            422,
            "duplicate_card",
            "/deal/upcard",
        ),
        (
            "a stock of 32 cards",
            long_stock,
            422,
            "wrong_card_count",
            "/deal/stock",
        ),
        (
            "a draw past the listed stock naming no card",
            unrecorded,
            422,
            "unrecorded_draw",
            "/actions/2/card",
        ),
        (
            "an invalid override",
            with(base.clone(), "/profile", json!({"target": 0})),
            400,
            "invalid_profile",
            "/profile/target",
        ),
        (
            "an unknown preset",
            with(base.clone(), "/profile", json!("gin")),
            400,
            "unknown_profile",
            "/profile",
        ),
    ];
    let app = spawn_app().await;
    for (what, body, status, code, pointer) in cases {
        let response = app.post_json(PATH, &body.to_string()).await;
        let problem = expect_problem(response, status, code).await;
        assert_eq!(
            problem.errors.first().map(|e| e.pointer.as_str()),
            Some(pointer),
            "{what}: {problem:?}"
        );
    }
}

#[tokio::test]
async fn a_record_as_recorders_have_it_audits_as_the_whole_record() {
    let app = spawn_app().await;
    let whole = verdict(&app, &examples::legal_knock()).await;
    let recorded = verdict(&app, &examples::as_recorded()).await;
    assert_eq!(recorded["legal"], true, "{recorded}");
    assert_eq!(recorded["result"]["points"], whole["result"]["points"]);
    // The placement is reported: 7H onto meld 1 (4-5-6H), 4S onto meld 0.
    let placed = &recorded["result"]["defender"]["layoffs"];
    let mut placed: Vec<(String, u64)> = placed
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["card"].as_str().unwrap().to_owned(),
                l["meld"].as_u64().unwrap(),
            )
        })
        .collect();
    placed.sort();
    assert_eq!(placed, [("4S".to_owned(), 0), ("7H".to_owned(), 1)]);
    // The stock counts 31 cards however many it lists.
    assert_eq!(
        recorded["table"]["stock_remaining"],
        whole["table"]["stock_remaining"]
    );
}

#[tokio::test]
async fn a_declared_empty_reply_differs_from_a_best_one() {
    let app = spawn_app().await;
    let best = verdict(&app, &examples::legal_knock()).await;
    let none = verdict(&app, &examples::declared_no_layoffs()).await;
    assert_eq!(none["legal"], true);
    assert_eq!(none["result"]["defender"]["layoffs"], json!([]));
    let deadwood = |answer: &Value| answer["result"]["defender"]["deadwood"].as_u64().unwrap();
    // 7H and 4S stay deadwood: 7 + 4 more.
    assert_eq!(deadwood(&none), deadwood(&best) + 11);
}

#[tokio::test]
async fn a_violation_points_at_the_field_at_fault() {
    let app = spawn_app().await;
    let wrong_card = with(examples::legal_knock(), "/actions/2/card", json!("3H"));
    let answer = verdict(&app, &wrong_card).await;
    assert_eq!(answer["violation"]["code"], "expected_card_mismatch");
    assert_eq!(answer["violation"]["pointer"], "/actions/2/card");
    let just_taken = verdict(&app, &examples::illegal_discard()).await;
    assert_eq!(just_taken["violation"]["pointer"], "/actions/1/card");
    let bad_layoff = with(
        examples::legal_knock(),
        "/actions/4/layoffs/1",
        json!({"card": "4S", "meld": 1}),
    );
    let answer = verdict(&app, &bad_layoff).await;
    assert_eq!(answer["violation"]["code"], "layoff_does_not_fit");
    assert_eq!(answer["violation"]["pointer"], "/actions/4/layoffs/1");
}

/// Layoffs the referee must place cost a bounded search: ten unnamed layoffs
/// (a defender's whole hand) end in a search over at most a few thousand
/// assignments, and the longest list a reply may hold (52; more is a 400),
/// too long to be one hand's, is checked as recorded, in one pass.
#[test]
fn placing_unnamed_layoffs_costs_a_bounded_search() {
    use crate::cost::{Server, assert_within_request_bounds};
    let server = Server::start(&[]);
    let hand = |layoffs: Value| {
        json!({
            "deal": {
                "non_dealer": ["AH", "2H", "3H", "5H", "6H", "7H", "9H", "TH", "JH", "KC"],
                "dealer": ["4H", "8H", "QH", "KH", "4S", "5S", "6S", "8D", "9D", "TD"],
                "upcard": "2C", "stock": ["3C"]},
            "actions": [
                {"player": "non_dealer", "action": "pass"},
                {"player": "dealer", "action": "pass"},
                {"player": "non_dealer", "action": "draw", "from": "stock"},
                {"player": "non_dealer", "action": "knock", "discard": "KC"},
                {"player": "dealer", "action": "lay_off", "layoffs": layoffs}
            ]
        })
        .to_string()
    };
    let whole_hand: Vec<Value> = ["4H", "8H", "QH", "KH", "4S", "5S", "6S", "8D", "9D", "TD"]
        .iter()
        .map(|card| json!({"card": card}))
        .collect();
    let long: Vec<Value> = (0..52).map(|_| json!({"card": "4H"})).collect();
    for (what, body, code) in [
        (
            "ten unnamed layoffs",
            hand(json!(whole_hand)),
            "layoff_does_not_fit",
        ),
        (
            "52 unnamed layoffs",
            hand(json!(long)),
            "layoff_card_repeated",
        ),
    ] {
        let ((status, _, answer), cost) = server.measure(|| {
            server.post(
                "/v1/hands/audit",
                &[("Content-Type", "application/json")],
                body.as_bytes(),
            )
        });
        assert_eq!(status, 200, "{what}: {}", String::from_utf8_lossy(&answer));
        let verdict: Value = serde_json::from_slice(&answer).unwrap();
        assert_eq!(verdict["violation"]["code"], code, "{what}: {verdict}");
        assert_within_request_bounds(what, body.len(), answer.len(), cost);
    }
}
