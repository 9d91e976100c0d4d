//! The costliest pictures stay within the bounds of every answer (at most 8 MiB
//! and 128 times the request, 50 ms of CPU in release, 16 MiB more memory),
//! measured on the real binary: the most lines per byte of request (500 void
//! hands under Hollywood, whose lines have twelve columns), the longest names
//! on every line, and the longest legal hand (every card of the stock drawn
//! and discarded), each as SVG and as the page.

use serde_json::{Value, json};

use crate::cost::{Server, assert_within_request_bounds};

fn hollywood_voids() -> Value {
    let hands = vec![json!({"void": true}); 500];
    json!({"profile": "hollywood", "players": ["A", "B"], "hands": hands})
}

/// 40-character names (the ceiling) in every column and every line, one
/// point a hand, in turn, until just before the game ends.
fn long_names() -> Value {
    let (a, b) = ("\u{2660}".repeat(40), "<".repeat(40));
    let hands: Vec<Value> = (0..190)
        .map(|i| {
            let knocker = if i % 2 == 0 { &a } else { &b };
            json!({"knocker": knocker, "knocker_deadwood": 9, "defender_deadwood": 10})
        })
        .collect();
    json!({"players": [a, b], "hands": hands})
}

/// The longest replay: both pass, then each player in turn draws the stock's
/// next card and discards it, to the last two cards of the stock (a void
/// hand): every action is legal and drawn, with its card.
fn long_hand() -> Value {
    let mut deal = gin_contract::wire::transcript::examples::deal();
    let mut actions = vec![
        json!({"player": "non_dealer", "action": "pass"}),
        json!({"player": "dealer", "action": "pass"}),
    ];
    let stock: Vec<String> = deal["stock"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect();
    let mut seat = "non_dealer";
    for card in &stock[..stock.len() - 2] {
        actions.push(json!({"player": seat, "action": "draw", "from": "stock", "card": card}));
        actions.push(json!({"player": seat, "action": "discard", "card": card}));
        seat = if seat == "dealer" {
            "non_dealer"
        } else {
            "dealer"
        };
    }
    deal["stock"] = json!(stock);
    json!({"deal": deal, "actions": actions})
}

#[test]
fn the_costliest_pictures_stay_within_the_request_bounds() {
    let server = Server::start(&[]);
    let json_type = ("Content-Type", "application/json");
    for (what, path, body) in [
        (
            "500 void Hollywood hands",
            "/v1/matches/score",
            hollywood_voids(),
        ),
        (
            "190 hands, 40-character names",
            "/v1/matches/score",
            long_names(),
        ),
        (
            "a legal hand to the end of the stock",
            "/v1/hands/audit",
            long_hand(),
        ),
    ] {
        let body = body.to_string().into_bytes();
        for accept in ["image/svg+xml", "text/html"] {
            let headers = [json_type, ("Accept", accept)];
            let ((status, head, answer), cost) =
                server.measure(|| server.post(path, &headers, &body));
            assert_eq!(status, 200, "{what}: {head}");
            assert!(head.contains(accept), "{what}: {head}");
            if path == "/v1/hands/audit" {
                // Every action is replayed: the last one is drawn, and none
                // is a violation.
                let text = String::from_utf8_lossy(answer.as_ref());
                let actions = long_hand()["actions"].as_array().unwrap().len();
                let last = format!("data-action=\"{}\"", actions - 1);
                assert!(text.contains(&last), "{what}: {last} not drawn");
                assert!(!text.contains("VIOLATION"), "{what}: a violation");
            }
            assert_within_request_bounds(
                &format!("{what} as {accept}"),
                body.len(),
                answer.len(),
                cost,
            );
        }
    }
}
