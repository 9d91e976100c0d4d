//! `POST /v1/hands/audit` and `/v1/matches/audit` with jokers: 53- and
//! 54-card deals, jokers melded and laid off, the joker-free answers
//! unchanged, `joker_not_in_deck` with its pointer, `joker_not_melded`.

use serde_json::{Value, json};

use crate::support::{TestApp, expect_problem, spawn_app};

const PATH: &str = "/v1/hands/audit";

const DEALER: [&str; 10] = ["7S", "8S", "TS", "JD", "QH", "KH", "3C", "4C", "7H", "X2"];
const NON_DEALER: [&str; 10] = ["AS", "2S", "3S", "4H", "5H", "6H", "9C", "9D", "9H", "KC"];

/// A deal of the 54-card deck: these hands and upcard, the stock starting
/// with `top` then the rest of the deck (suits S H D C, A to K, then the
/// jokers).
fn deal(dealer: &[&str], non_dealer: &[&str], upcard: &str, top: &[&str]) -> Value {
    let mut deck: Vec<String> = Vec::new();
    for suit in ["S", "H", "D", "C"] {
        for rank in "A23456789TJQK".chars() {
            deck.push(format!("{rank}{suit}"));
        }
    }
    deck.extend(["X1".to_owned(), "X2".to_owned()]);
    let used: Vec<&str> = dealer
        .iter()
        .chain(non_dealer)
        .chain(top)
        .copied()
        .chain([upcard])
        .collect();
    let mut stock: Vec<String> = top.iter().map(|c| (*c).to_owned()).collect();
    stock.extend(deck.into_iter().filter(|c| !used.contains(&c.as_str())));
    json!({"dealer": dealer, "non_dealer": non_dealer, "upcard": upcard, "stock": stock})
}

/// Both pass the upcard; the non-dealer draws 2H and knocks discarding KC
/// with its three melds (A-2-3S, 4-5-6H, the 9s).
fn knock() -> Vec<Value> {
    vec![
        json!({"player": "non_dealer", "action": "pass"}),
        json!({"player": "dealer", "action": "pass"}),
        json!({"player": "non_dealer", "action": "draw", "from": "stock", "card": "2H"}),
        json!({"player": "non_dealer", "action": "knock", "discard": "KC",
            "melds": [["AS", "2S", "3S"], ["4H", "5H", "6H"], ["9C", "9D", "9H"]]}),
    ]
}

async fn verdict(app: &TestApp, body: &Value) -> Value {
    let response = app.post_json(PATH, &body.to_string()).await;
    assert_eq!(response.status().as_u16(), 200);
    response.json().await.expect("a JSON verdict")
}

#[tokio::test]
async fn a_54_card_hand_is_scored_as_the_score_endpoint_scores_the_final_hands() {
    let app = spawn_app().await;
    let request = json!({"profile": "jokers", "deal": deal(&DEALER, &NON_DEALER, "2C", &["2H"]),
        "actions": knock()});
    let body = verdict(&app, &request).await;
    assert_eq!(body["legal"], true, "{body}");
    assert_eq!(body["table"]["stock_remaining"], 32);
    assert_eq!(body["table"]["dealer"][9], "X2");
    let score = json!({
        "profile": "jokers",
        "knocker": {
            "hand": ["AS", "2S", "3S", "2H", "4H", "5H", "6H", "9C", "9D", "9H"],
            "melds": [["AS", "2S", "3S"], ["4H", "5H", "6H"], ["9C", "9D", "9H"]],
        },
        "defender": {"hand": DEALER},
    });
    let scored = app.post_json("/v1/hands/score", &score.to_string()).await;
    assert_eq!(scored.status().as_u16(), 200);
    let scored: Value = scored.json().await.expect("a score");
    assert_eq!(body["result"], scored);
}

#[tokio::test]
async fn a_joker_is_melded_and_laid_off_as_declared() {
    let app = spawn_app().await;
    // The non-dealer takes X1 (the upcard) and knocks with it standing for 4S.
    let taken = json!({"profile": "jokers",
    "deal": deal(&DEALER, &NON_DEALER, "X1", &[]),
    "actions": [
        {"player": "non_dealer", "action": "draw", "from": "discard_pile", "card": "X1"},
        {"player": "non_dealer", "action": "knock", "discard": "KC",
         "melds": [["AS", "2S", "3S", "X1"], ["4H", "5H", "6H"], ["9C", "9D", "9H"]],
         "jokers": {"X1": "4S"}},
    ]});
    let body = verdict(&app, &taken).await;
    assert_eq!(body["legal"], true, "{body}");
    assert_eq!(body["result"]["outcome"], "gin");
    assert_eq!(
        body["result"]["knocker"]["melds"][0],
        json!(["AS", "2S", "3S", "X1"])
    );
    assert_eq!(body["result"]["knocker"]["jokers"], json!({"X1": "4S"}));
    // The dealer lays X2 off standing for 8H, after 7H; a knock with 2.
    let mut actions = knock();
    actions.push(json!({"player": "dealer", "action": "lay_off", "layoffs": [
        {"card": "7H", "meld": 1}, {"card": "X2", "stands_for": "8H", "meld": 1}]}));
    let request = json!({"profile": "jokers", "deal": deal(&DEALER, &NON_DEALER, "2C", &["2H"]),
        "actions": actions});
    let body = verdict(&app, &request).await;
    assert_eq!(body["legal"], true, "{body}");
    assert_eq!(
        body["result"]["defender"]["layoffs"],
        json!([{"card": "7H", "meld": 1}, {"card": "X2", "meld": 1, "stands_for": "8H"}])
    );
    // X2 standing for 9H, which the knocker's set shows: a violation at it.
    actions[4] = json!({"player": "dealer", "action": "lay_off", "layoffs": [
        {"card": "7H", "meld": 1}, {"card": "X2", "stands_for": "9H", "onto": ["4H"]}]});
    let request = json!({"profile": "jokers", "deal": deal(&DEALER, &NON_DEALER, "2C", &["2H"]),
        "actions": actions});
    let body = verdict(&app, &request).await;
    assert_eq!(body["violation"]["code"], "layoff_does_not_fit", "{body}");
    assert_eq!(body["violation"]["pointer"], "/actions/4/layoffs/1");
}

#[tokio::test]
async fn a_joker_outside_the_profiles_deck_is_a_422_at_the_joker() {
    let app = spawn_app().await;
    let deck54 = deal(&DEALER, &NON_DEALER, "2C", &["2H"]);
    // The standard profile plays without jokers: X2 in the dealer's hand.
    let response = app
        .post_json(PATH, &json!({"deal": deck54, "actions": []}).to_string())
        .await;
    let problem = expect_problem(response, 422, "joker_not_in_deck").await;
    assert_eq!(problem.errors[0].pointer, "/deal/dealer/9");
    // One joker: X2 named in an action (the deal holds only X1).
    let dealer: Vec<&str> = DEALER
        .iter()
        .map(|&c| if c == "X2" { "4S" } else { c })
        .collect();
    let mut deck53 = deal(&dealer, &NON_DEALER, "2C", &["2H"]);
    if let Some(stock) = deck53["stock"].as_array_mut() {
        stock.retain(|c| c != "X2");
    }
    let mut actions = knock();
    actions[3] = json!({"player": "non_dealer", "action": "discard", "card": "X2"});
    let request = json!({"profile": {"base": "jokers", "jokers": 1}, "deal": deck53,
        "actions": actions});
    let response = app.post_json(PATH, &request.to_string()).await;
    let problem = expect_problem(response, 422, "joker_not_in_deck").await;
    assert_eq!(problem.errors[0].pointer, "/actions/3/card");
    assert_eq!(
        problem.detail,
        "X2 is not in the deck: this profile plays with 1 joker(s)"
    );
}

#[tokio::test]
async fn a_joker_taken_from_the_pile_and_not_melded_is_joker_not_melded() {
    let app = spawn_app().await;
    let request = json!({
    "profile": {"base": "jokers", "joker_pickup_must_meld": true},
    "deal": deal(&DEALER, &NON_DEALER, "X1", &[]),
    "actions": [
        {"player": "non_dealer", "action": "draw", "from": "discard_pile"},
        {"player": "non_dealer", "action": "discard", "card": "KC"},
    ]});
    let body = verdict(&app, &request).await;
    assert_eq!(body["legal"], false);
    assert_eq!(body["violation"]["code"], "joker_not_melded");
    assert_eq!(body["violation"]["pointer"], "/actions/1");
    // The table just before it: the non-dealer holds X1, jokers last.
    assert_eq!(body["table"]["non_dealer"][10], "X1");
}

#[tokio::test]
async fn a_match_of_hands_with_jokers_is_audited_and_scored() {
    let app = spawn_app().await;
    let request = json!({
        "profile": "jokers",
        "players": ["Ann", "Bob"],
        "hands": [{"dealer": "Ann", "deal": deal(&DEALER, &NON_DEALER, "2C", &["2H"]),
            "actions": knock()}],
    });
    let response = app
        .post_json("/v1/matches/audit", &request.to_string())
        .await;
    assert_eq!(response.status().as_u16(), 200);
    let body: Value = response.json().await.expect("a verdict");
    assert_eq!(body["legal"], true, "{body}");
    let hand = verdict(
        &app,
        &json!({"profile": "jokers",
        "deal": deal(&DEALER, &NON_DEALER, "2C", &["2H"]), "actions": knock()}),
    )
    .await;
    // The hand's audit is /v1/hands/audit's answer; the match scores it from
    // the counts that answer gives (Bob, the non-dealer, knocked).
    assert_eq!(body["hands"][0], hand);
    let scored = &body["match"]["hands"][0];
    assert_eq!(scored["knocker"], "Bob");
    assert_eq!(
        scored["knocker_deadwood"],
        hand["result"]["knocker"]["deadwood"]
    );
    assert_eq!(
        scored["defender_deadwood"],
        hand["result"]["defender"]["deadwood"]
    );
    assert_eq!(scored["points"], hand["result"]["points"], "{scored}");
}

#[tokio::test]
async fn a_seeded_deal_with_jokers_is_the_one_post_deals_gives() {
    let app = spawn_app().await;
    let seeds = json!({"server_seed": "00".repeat(32), "client_seed": "player", "nonce": 0});
    let mut with_jokers = seeds.clone();
    with_jokers["jokers"] = json!(2);
    let dealt = app.post_json("/v1/deals", &with_jokers.to_string()).await;
    assert_eq!(dealt.status().as_u16(), 200);
    let dealt: Value = dealt.json().await.expect("a deal");
    assert_eq!(dealt["deal"]["stock"].as_array().map(Vec::len), Some(33));
    // Audited under the jokers profile, the seeds deal the same 54 cards.
    let request = json!({"profile": "jokers", "actions": [],
        "deal": {"seeds": seeds, "commitment": dealt["commitment"]}});
    let body = verdict(&app, &request).await;
    assert_eq!(body["legal"], true, "{body}");
    assert_eq!(body["table"]["stock_remaining"], 33);
    assert_eq!(body["table"]["discard_top"], dealt["deal"]["upcard"]);
    let mut dealer: Vec<Value> = dealt["deal"]["dealer"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut table: Vec<Value> = body["table"]["dealer"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let key = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    dealer.sort_by_key(key);
    table.sort_by_key(key);
    assert_eq!(dealer, table);
    // The same deal audited as its cards.
    let cards = json!({"profile": "jokers", "actions": [], "deal": dealt["deal"]});
    assert_eq!(verdict(&app, &cards).await["table"], body["table"]);
}

/// The costliest joker records stay within the request bounds: a match
/// audit's most hands (500), each a knock scored with jokers (the knocker's
/// arrangements, each against the defender's best reply); and a hand audit whose ten unnamed layoffs, jokers
/// among them, the referee must place.
#[test]
fn the_costliest_joker_audits_stay_within_the_request_bounds() {
    use crate::cost::{Server, assert_within_request_bounds};
    let server = Server::start(&[]);
    let json = [("Content-Type", "application/json")];
    // Both jokers in the knocker's hand beside a long run and a set, which
    // leaves many arrangements within the limit, each against the defender's
    // best reply (hearts and nines to lay off).
    let knocker = ["5H", "6H", "7H", "8H", "9S", "9D", "9C", "X1", "X2", "KC"];
    let defender = ["4H", "TH", "9H", "3H", "JH", "2S", "3S", "4S", "QD", "KD"];
    let mut actions = knock();
    actions[3] = json!({"player": "non_dealer", "action": "knock", "discard": "KC"});
    let hands: Vec<Value> = (0..500)
        .map(|i| {
            // The same seat knocks each hand, so the deal alternates the
            // winner's name: the game ends at the third hand, and every hand
            // is still replayed.
            let dealer = if i % 2 == 0 { "Ann" } else { "Bob" };
            json!({"dealer": dealer, "deal": deal(&defender, &knocker, "2C", &["2H"]),
                "actions": actions})
        })
        .collect();
    let record = serde_json::to_vec(
        &json!({"profile": "jokers", "players": ["Ann", "Bob"], "hands": hands}),
    )
    .unwrap();
    let ((status, _, answer), cost) =
        server.measure(|| server.post("/v1/matches/audit", &json, &record));
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&answer));
    let audit: Value = serde_json::from_slice(&answer).unwrap();
    assert_eq!(audit["violation"]["code"], "hand_after_game_end", "{audit}");
    assert_within_request_bounds(
        "match audit, 500 knocks with jokers",
        record.len(),
        answer.len(),
        cost,
    );
    // Three runs of hearts on the table and ten unnamed layoffs, two of them
    // jokers: the placement search is bounded by the cards each run can take.
    let hand = json!({
        "profile": "jokers",
        "deal": {
            "non_dealer": ["AH", "2H", "3H", "5H", "6H", "7H", "9H", "TH", "JH", "KC"],
            "dealer": ["4H", "8H", "QH", "KH", "4S", "5S", "X1", "X2", "9D", "TD"],
            "upcard": "2C", "stock": ["3C"]},
        "actions": [
            {"player": "non_dealer", "action": "pass"},
            {"player": "dealer", "action": "pass"},
            {"player": "non_dealer", "action": "draw", "from": "stock"},
            {"player": "non_dealer", "action": "knock", "discard": "KC"},
            {"player": "dealer", "action": "lay_off", "layoffs": [
                {"card": "4H"}, {"card": "8H"}, {"card": "QH"}, {"card": "KH"},
                {"card": "X1", "stands_for": "3S"}, {"card": "X2", "stands_for": "6S"},
                {"card": "4S"}, {"card": "5S"}, {"card": "9D"}, {"card": "TD"}]}
        ]
    })
    .to_string();
    let ((status, _, answer), cost) = server.measure(|| server.post(PATH, &json, hand.as_bytes()));
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&answer));
    let verdict: Value = serde_json::from_slice(&answer).unwrap();
    assert_eq!(
        verdict["violation"]["code"], "layoff_does_not_fit",
        "{verdict}"
    );
    assert_within_request_bounds(
        "ten unnamed layoffs with jokers",
        hand.len(),
        answer.len(),
        cost,
    );
}

#[tokio::test]
async fn a_defenders_declared_meld_holding_its_joker_is_checked() {
    let app = spawn_app().await;
    // The non-dealer takes X1 and goes gin with it in a meld: as the 4S, or
    // as the 9S; the dealer replies with its own meld holding X2.
    let reply = |knocker_x1: &str, melds: Value, jokers: Value| {
        let knocker_melds = if knocker_x1 == "4S" {
            json!([
                ["AS", "2S", "3S", "X1"],
                ["4H", "5H", "6H"],
                ["9C", "9D", "9H"]
            ])
        } else {
            json!([
                ["AS", "2S", "3S"],
                ["4H", "5H", "6H"],
                ["9C", "9D", "9H", "X1"]
            ])
        };
        json!({"profile": "jokers",
        "deal": deal(&DEALER, &NON_DEALER, "X1", &[]),
        "actions": [
            {"player": "non_dealer", "action": "draw", "from": "discard_pile"},
            {"player": "non_dealer", "action": "knock", "discard": "KC",
             "melds": knocker_melds, "jokers": {"X1": knocker_x1}},
            {"player": "dealer", "action": "lay_off", "melds": melds, "jokers": jokers,
             "layoffs": []},
        ]})
    };
    let run = json!([["7S", "8S", "X2", "TS"]]);
    // X2 as the 9S of the dealer's run: what the best reply plays.
    let body = verdict(&app, &reply("4S", run.clone(), json!({"X2": "9S"}))).await;
    assert_eq!(body["legal"], true, "{body}");
    assert_eq!(body["result"]["defender"]["jokers"], json!({"X2": "9S"}));
    assert_eq!(body["result"]["defender"]["deadwood"], 44);
    // When the knocker's X1 is the 9S, the dealer's X2 cannot show it too.
    let shown = verdict(&app, &reply("9S", run, json!({"X2": "9S"}))).await;
    assert_eq!(shown["violation"]["code"], "invalid_melds", "{shown}");
    // At the meld at fault, as /v1/hands/score points at it.
    assert_eq!(shown["violation"]["pointer"], "/actions/2/melds/0");
    assert!(
        shown["violation"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("9S is already on the table")),
        "{shown}"
    );
}
