//! The `eaai` preset (the EAAI-2021 challenge's game) as a client meets it:
//! listed by `GET /v1/profiles`, and its `alternate_after_scored` dealing
//! followed by the match audit and announced by the match state's
//! `next_deal`: the deal passes after a scored hand and stays after a void one.

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use serde_json::{Value, json};

use crate::support::{TestApp, spawn_app};

async fn post(app: &TestApp, path: &str, body: &Value) -> Value {
    let response = app.post_json(path, &body.to_string()).await;
    assert_eq!(response.status().as_u16(), 200, "{path}: {body}");
    response.json().await.expect("JSON")
}

fn shuffled_deal(seed: u64) -> Value {
    let mut deck: Vec<String> = gin_rules::Card::deck().map(|c| c.to_string()).collect();
    deck.shuffle(&mut StdRng::seed_from_u64(seed));
    json!({"dealer": deck[0..10], "non_dealer": deck[10..20], "upcard": deck[20],
           "stock": deck[21..]})
}

fn match_body(hands: &[Value]) -> Value {
    json!({"profile": "eaai", "players": ["Ann", "Bob"], "hands": hands})
}

/// Plays the last hand of `hands` to its end through the match state (the
/// referee's view): with `knock`, a knock whenever one is listed (and the
/// best reply), so that the hand is scored; without, never a knock (a pass
/// at the offer, a stock draw, the first listed discard), so that the stock
/// runs down and the hand is void.
async fn play_out(app: &TestApp, hands: &mut [Value], knock: bool) {
    for _ in 0..200 {
        let state = post(app, "/v1/matches/state", &match_body(hands)).await;
        assert_eq!(state["legal"], true, "{state}");
        if state["phase"] != "play" {
            return;
        }
        let listed = state["tables"][0]["legal_actions"].as_array().unwrap();
        let kind = |k: &str| listed.iter().find(|a| a["kind"] == k);
        let pick = if knock {
            kind("knock")
                .or(kind("best_reply"))
                .or(kind("draw_stock"))
                .or(kind("discard"))
                .or(kind("pass"))
        } else {
            kind("pass").or(kind("draw_stock")).or(kind("discard"))
        };
        let pick = pick.unwrap_or_else(|| panic!("nothing to play in {state}"));
        let last = hands.last_mut().unwrap();
        last["actions"]
            .as_array_mut()
            .unwrap()
            .push(pick["move"].clone());
    }
    panic!("the hand did not end");
}

fn hand(dealer: &str, non_dealer: &str, seed: u64) -> Value {
    json!({"dealer": dealer, "non_dealer": non_dealer, "deal": shuffled_deal(seed),
           "actions": []})
}

/// The audit's verdict on `hands` plus one more hand dealt by `dealer`.
async fn next_dealt_by(app: &TestApp, hands: &[Value], dealer: &str) -> Value {
    let other = if dealer == "Ann" { "Bob" } else { "Ann" };
    let mut record = hands.to_vec();
    record.push(hand(dealer, other, 99));
    post(app, "/v1/matches/audit", &match_body(&record)).await
}

#[actix_web::test]
async fn under_eaai_a_void_hand_is_dealt_again_by_its_dealer_and_a_scored_one_passes_the_deal() {
    let app = spawn_app().await;
    let mut hands = vec![hand("Ann", "Bob", 1)];
    play_out(&app, &mut hands, false).await;
    let audit = post(&app, "/v1/matches/audit", &match_body(&hands)).await;
    assert_eq!(audit["hands"][0]["result"]["void"], true, "{audit}");

    // After the void hand: Ann deals again, as the state announces.
    let state = post(&app, "/v1/matches/state", &match_body(&hands)).await;
    assert_eq!(state["phase"], "deal");
    assert_eq!(
        state["next_deal"],
        json!({"dealer": "Ann", "non_dealer": "Bob"})
    );
    assert_eq!(next_dealt_by(&app, &hands, "Ann").await["legal"], true);
    let wrong = next_dealt_by(&app, &hands, "Bob").await;
    assert_eq!(wrong["violation"]["code"], "wrong_dealer", "{wrong}");
    assert_eq!(wrong["violation"]["pointer"], "/hands/1/dealer");
    // The same record under the default alternation wants Bob.
    let mut standard = match_body(&hands);
    standard["profile"] = json!("standard");
    let state = post(&app, "/v1/matches/state", &standard).await;
    assert_eq!(state["next_deal"]["dealer"], "Bob");

    // A scored hand dealt by Ann: the deal passes to Bob.
    // (The first listed discard does not always reach a knock: deals are
    // tried until one does.)
    let mut state = Value::Null;
    for seed in 2..40 {
        let mut tried = hands.clone();
        tried.push(hand("Ann", "Bob", seed));
        play_out(&app, &mut tried, true).await;
        state = post(&app, "/v1/matches/state", &match_body(&tried)).await;
        if state["score"]["hands"][1]["outcome"] != "void" {
            hands = tried;
            break;
        }
    }
    let points = state["score"]["hands"][1]["points"].as_u64().unwrap();
    assert!(points > 0, "{state}");
    assert_eq!(
        state["next_deal"],
        json!({"dealer": "Bob", "non_dealer": "Ann"})
    );
    assert_eq!(next_dealt_by(&app, &hands, "Bob").await["legal"], true);
    let wrong = next_dealt_by(&app, &hands, "Ann").await;
    assert_eq!(wrong["violation"]["code"], "wrong_dealer", "{wrong}");
    assert!(
        wrong["violation"]["message"]
            .as_str()
            .unwrap()
            .contains("the deal passes after a hand that scores")
    );
}

#[actix_web::test]
async fn the_eaai_profile_is_listed_with_the_challenges_values() {
    let app = spawn_app().await;
    let eaai: Value = app
        .get("/v1/profiles/eaai")
        .await
        .json()
        .await
        .expect("JSON");
    let listed: Value = app.get("/v1/profiles").await.json().await.expect("JSON");
    assert!(listed.as_array().unwrap().contains(&eaai));
    let expected = json!({
        "name": "eaai", "base": "eaai", "knock_limit": 10, "ace_upcard_knock_limit": 0,
        "spade_doubling": false, "gin_bonus": 25, "big_gin_bonus": null, "undercut_bonus": 25,
        "tie_is_undercut": true, "scoreless_hand_won": false, "layoffs_on_gin": false,
        "stock_end": "void", "next_dealer": "alternate_after_scored", "target": 100,
        "hollywood": false, "game_bonus": 0, "box_bonus": 0, "box_bonus_timing": "end_of_game",
        "shutout": "flat_bonus", "shutout_bonus": 0, "shutout_test": "scored_nothing",
        "settlement": "totals_and_net"
    });
    assert_eq!(eaai, expected);
    // The new rule is an override any preset takes.
    let body = json!({"profile": {"base": "standard", "next_dealer": "alternate_after_scored"},
                      "players": ["Ann", "Bob"], "hands": []});
    assert_eq!(post(&app, "/v1/matches/audit", &body).await["legal"], true);
    // A shutout under eaai scores no bonus: 100 to 0 is 100.
    let score = json!({"profile": "eaai", "players": ["Ann", "Bob"], "hands": [
        {"knocker": "Ann", "knocker_deadwood": 0, "defender_deadwood": 75}]});
    let answer = post(&app, "/v1/matches/score", &score).await;
    assert_eq!(answer["winner"], "Ann");
    assert_eq!(answer["final"]["Ann"]["total"], 100, "{answer}");
    assert_eq!(answer["final"]["Ann"]["shutout_bonus"], 0);
}
