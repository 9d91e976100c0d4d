//! `POST /v1/matches/state` at a knock: the last hand (a partnership deal's
//! table) whose record stops at its knock is in play, its table in `reply`,
//! the defender's listing exactly as `/v1/hands/state` answers the same hand;
//! the match moves to `deal` or `over` only once the reply is recorded. An
//! earlier hand that stops at its knock is completed with the best reply, as
//! the match audit completes it.

use gin_contract::referee::{Operation, Referee};
use serde_json::{Value, json};

fn call(operation: Operation, body: &Value) -> Value {
    let bytes = Referee::new()
        .answer(operation, body.to_string().as_bytes())
        .unwrap_or_else(|problem| panic!("{problem:?}: {body}"));
    serde_json::from_slice(&bytes).expect("JSON")
}

fn deal() -> Value {
    json!({"dealer": ["7S","8S","TS","JD","QH","KH","3C","4C","7H","4S"],
           "non_dealer": ["AS","2S","3S","4H","5H","6H","9C","9D","9H","KC"],
           "upcard": "2C", "stock": ["2H"]})
}

/// The guide's hand, Ann dealing to Bob, stopped at Bob's knock.
fn knocked() -> Value {
    json!([{"player": "non_dealer", "action": "pass"},
           {"player": "dealer", "action": "pass"},
           {"player": "non_dealer", "action": "draw", "from": "stock"},
           {"player": "non_dealer", "action": "knock", "discard": "KC"}])
}

fn replied() -> Value {
    let mut actions = knocked();
    actions
        .as_array_mut()
        .unwrap()
        .push(json!({"player": "dealer", "action": "lay_off"}));
    actions
}

fn hand(dealer: &str, non_dealer: &str, actions: Value) -> Value {
    json!({"dealer": dealer, "non_dealer": non_dealer, "deal": deal(), "actions": actions})
}

/// `/v1/hands/state` of the guide's hand, as `seat` (a seat, or none) sees it.
fn hand_state(actions: &Value, seat: Option<&str>) -> Value {
    let mut body = json!({"deal": deal(), "actions": actions});
    if let Some(seat) = seat {
        body["seat"] = json!(seat);
    }
    call(Operation::HandState, &body)
}

/// A match table without the players' names: the hand state's shape.
fn as_hand_state(table: &Value) -> Value {
    let mut table = table.clone();
    let map = table.as_object_mut().unwrap();
    map.remove("dealer");
    map.remove("non_dealer");
    table
}

/// Each player of a two-player match asking (`None`: the referee), and the
/// seat its table is seen from (the spectator is apart).
const VIEWERS: [(Option<&str>, Option<&str>); 3] = [
    (None, None),
    (Some("Ann"), Some("dealer")),
    (Some("Bob"), Some("non_dealer")),
];

#[test]
fn a_last_hand_stopped_at_its_knock_asks_the_defender_for_the_reply() {
    for profile in [json!("standard"), json!({"base": "standard", "target": 25})] {
        let body = json!({"profile": profile, "players": ["Ann", "Bob"],
                          "hands": [hand("Ann", "Bob", knocked())]});
        for (player, seat) in VIEWERS {
            let mut asked = body.clone();
            if let Some(player) = player {
                asked["seat"] = json!(player);
            }
            let answer = call(Operation::MatchState, &asked);
            assert_eq!(answer["legal"], true, "{answer}");
            assert_eq!(answer["phase"], "play", "{seat:?}: {answer}");
            assert_eq!(answer["next_deal"], Value::Null);
            assert_eq!(answer["to_act"], json!(["Ann"]));
            let tables = answer["tables"].as_array().unwrap();
            assert_eq!(tables.len(), 1, "{answer}");
            let expected = hand_state(&knocked(), seat);
            assert_eq!(expected["phase"], "reply");
            assert_eq!(as_hand_state(&tables[0]), expected, "{seat:?}");
            // No hand is over yet: nothing scored, nobody has won.
            assert_eq!(answer["score"]["complete"], false, "{answer}");
            assert_eq!(answer["score"]["hands"], json!([]), "{answer}");
        }
        let mut spectator = body.clone();
        spectator["spectator"] = json!(true);
        let answer = call(Operation::MatchState, &spectator);
        assert_eq!(answer["phase"], "play", "{answer}");
        let table = &answer["tables"][0];
        assert_eq!(table["phase"], "reply");
        assert_eq!(table["to_act"], "dealer");
        assert!(table.get("legal_actions").is_none() && table.get("layable").is_none());
        assert_eq!(
            table["laid_down"],
            hand_state(&knocked(), None)["laid_down"]
        );
    }
}

#[test]
fn the_match_moves_on_once_the_reply_is_recorded() {
    let body = |profile: Value| {
        json!({"profile": profile, "players": ["Ann", "Bob"],
               "hands": [hand("Ann", "Bob", replied())]})
    };
    let answer = call(Operation::MatchState, &body(json!("standard")));
    assert_eq!(answer["phase"], "deal", "{answer}");
    assert_eq!(
        answer["next_deal"],
        json!({"dealer": "Bob", "non_dealer": "Ann"})
    );
    let short = body(json!({"base": "standard", "target": 25}));
    let answer = call(Operation::MatchState, &short);
    assert_eq!(answer["phase"], "over", "{answer}");
    let mut audited = call(Operation::AuditMatch, &short)["match"].clone();
    audited.as_object_mut().unwrap().remove("receipt");
    assert_eq!(answer["score"], audited);
}

#[test]
fn an_earlier_hand_stopped_at_its_knock_is_completed_with_the_best_reply() {
    let body = json!({"players": ["Ann", "Bob"],
                      "hands": [hand("Ann", "Bob", knocked()), hand("Bob", "Ann", json!([]))]});
    let answer = call(Operation::MatchState, &body);
    assert_eq!(answer["legal"], true, "{answer}");
    assert_eq!(answer["phase"], "play");
    assert_eq!(answer["tables"][0]["phase"], "upcard_offer");
    let mut audited = call(Operation::AuditMatch, &body)["match"].clone();
    audited.as_object_mut().unwrap().remove("receipt");
    assert_eq!(answer["score"], audited);
    let best = call(
        Operation::MatchState,
        &json!({"players": ["Ann", "Bob"],
                "hands": [hand("Ann", "Bob", replied()), hand("Bob", "Ann", json!([]))]}),
    );
    assert_eq!(answer["score"], best["score"], "the best reply's score");
}

#[test]
fn a_partnership_table_stopped_at_its_knock_keeps_its_deal_in_play() {
    let teams = json!([{"name": "North-South", "players": ["Ann", "Cy"]},
                       {"name": "East-West", "players": ["Bob", "Dee"]}]);
    let body = json!({"profile": "partnership", "teams": teams,
                      "hands": [{"tables": [hand("Ann", "Bob", replied()),
                                            hand("Cy", "Dee", knocked())]}]});
    for (seat, view) in [
        (None, None),
        (Some("Cy"), Some("dealer")),
        (Some("Dee"), Some("non_dealer")),
    ] {
        let mut asked = body.clone();
        if let Some(seat) = seat {
            asked["seat"] = json!(seat);
        }
        let answer = call(Operation::MatchState, &asked);
        assert_eq!(answer["phase"], "play", "{seat:?}: {answer}");
        assert_eq!(answer["to_act"], json!(["Cy"]));
        let tables = answer["tables"].as_array().unwrap();
        assert_eq!(tables[0]["phase"], "over");
        assert_eq!(tables[1]["phase"], "reply");
        assert_eq!(as_hand_state(&tables[1]), hand_state(&knocked(), view));
        assert_eq!(answer["score"]["hands"], json!([]), "{answer}");
    }
}
