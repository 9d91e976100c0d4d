//! One fault, one problem: a knock at fault gets the same problem (status,
//! code, detail, pointers, messages) whether or not the defender holds a
//! joker that plays no part in the fault, under the `jokers` preset, and
//! the same again under `standard` without the joker, on `/v1/hands/score`
//! and, for the faults of the hands themselves, `/v1/layoffs`; and the
//! audit of a hand whose knock or reply has the fault names the same code,
//! says the scorer's words and points at the same field of its action.

use serde_json::{Value, json};

use crate::support::spawn_app;

const KNOCKER: [&str; 10] = ["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "AH"];
const DEFENDER: [&str; 10] = ["6H", "2H", "JS", "JH", "JD", "7S", "7H", "7C", "4D", "5S"];

/// The defender's hand as given, and with X1 in place of its 5S (the joker
/// plays no part in any fault below).
fn defenders(defender: &[&str]) -> [Vec<String>; 2] {
    let plain: Vec<String> = defender.iter().map(|c| c.to_string()).collect();
    let joker = plain
        .iter()
        .map(|c| {
            if c == "5S" {
                "X1".to_owned()
            } else {
                c.clone()
            }
        })
        .collect();
    [plain, joker]
}

/// A knock at fault: the knocker's part, the defender's hand and the rest of
/// the defender's part.
struct Fault {
    name: &'static str,
    knocker: Value,
    defender: Vec<&'static str>,
    reply: Value,
    code: &'static str,
    /// Whether the fault lies in the hands alone (`/v1/layoffs` reads no
    /// declaration).
    hands_only: bool,
}

fn faults() -> Vec<Fault> {
    let mut twice = KNOCKER;
    twice[1] = "3H";
    let mut both = DEFENDER;
    both[1] = "9S";
    let fault =
        |name, knocker: Value, defender: &[&'static str], reply: Value, code, hands_only| Fault {
            name,
            knocker,
            defender: defender.to_vec(),
            reply,
            code,
            hands_only,
        };
    let knocker = json!({"hand": KNOCKER});
    let melds = |melds: Value| json!({"hand": KNOCKER, "melds": melds});
    let layoffs = |layoffs: Value| json!({"layoffs": layoffs});
    vec![
        fault(
            "a card twice in a hand",
            json!({"hand": twice}),
            &DEFENDER,
            json!({}),
            "duplicate_card",
            true,
        ),
        fault(
            "a card in both hands",
            knocker.clone(),
            &both,
            json!({}),
            "duplicate_card",
            true,
        ),
        fault(
            "nine defender cards",
            knocker.clone(),
            &DEFENDER[1..],
            json!({}),
            "wrong_card_count",
            true,
        ),
        fault(
            "a declared meld with a card not held",
            melds(json!([["3H", "4H", "5H"], ["9S", "9H", "9D", "9C"]])),
            &DEFENDER,
            json!({}),
            "invalid_melds",
            false,
        ),
        fault(
            "a declared meld that is no meld",
            melds(json!([["3H", "4H", "AH"]])),
            &DEFENDER,
            json!({}),
            "invalid_melds",
            false,
        ),
        fault(
            "declared melds over the limit",
            melds(json!([["3H", "4H", "5H"]])),
            &DEFENDER,
            json!({}),
            "knock_over_limit",
            false,
        ),
        fault(
            "a layoff of a card not held",
            knocker.clone(),
            &DEFENDER,
            layoffs(json!([{"card": "QS", "meld": 0}])),
            "layoff_card_not_in_hand",
            false,
        ),
        fault(
            "a layoff that does not fit",
            knocker.clone(),
            &DEFENDER,
            layoffs(json!([{"card": "7S", "meld": 0}])),
            "layoff_does_not_fit",
            false,
        ),
        fault(
            "a layoff onto no meld",
            knocker,
            &DEFENDER,
            layoffs(json!([{"card": "6H", "meld": 7}])),
            "layoff_meld_not_found",
            false,
        ),
    ]
}

#[tokio::test]
async fn each_knock_fault_gets_one_problem_with_or_without_a_joker_in_the_defenders_hand() {
    let app = spawn_app().await;
    for fault in faults() {
        let mut paths = vec!["/v1/hands/score"];
        if fault.hands_only {
            paths.push("/v1/layoffs");
        }
        for path in paths {
            let mut problems = Vec::new();
            let [plain, joker] = defenders(&fault.defender);
            for (profile, defender) in
                [("standard", &plain), ("jokers", &plain), ("jokers", &joker)]
            {
                let mut side = fault.reply.clone();
                side["hand"] = json!(defender);
                let body = json!({"profile": profile, "knocker": fault.knocker, "defender": side});
                let response = app.post_json(path, &body.to_string()).await;
                let status = response.status().as_u16();
                let problem: Value = response.json().await.expect("a problem");
                assert_eq!(
                    (status, problem["code"].as_str()),
                    (422, Some(fault.code)),
                    "{}: {problem}",
                    fault.name
                );
                problems.push(problem);
            }
            let [standard, jokers, with_joker] = [&problems[0], &problems[1], &problems[2]];
            assert_eq!(
                jokers, with_joker,
                "{} on {path}: the joker changes the problem",
                fault.name
            );
            assert_eq!(
                standard, jokers,
                "{} on {path}: the profile changes the problem",
                fault.name
            );
        }
    }
}

#[tokio::test]
async fn the_unified_messages_read_as_documented() {
    let app = spawn_app().await;
    let detail = |problem: &Value| {
        problem["errors"][0]["message"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    let mut found = Vec::new();
    for fault in faults() {
        let [_, joker] = defenders(&fault.defender);
        let mut side = fault.reply.clone();
        side["hand"] = json!(joker);
        let body = json!({"profile": "jokers", "knocker": fault.knocker, "defender": side});
        let problem: Value = app
            .post_json("/v1/hands/score", &body.to_string())
            .await
            .json()
            .await
            .unwrap();
        found.push((
            fault.name,
            problem["errors"][0]["pointer"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
            detail(&problem),
        ));
    }
    let expect = |name: &str, pointer: &str, message: &str| {
        assert!(
            found
                .iter()
                .any(|(n, p, m)| *n == name && p == pointer && m == message),
            "{name}: {found:?}"
        );
    };
    expect(
        "a card twice in a hand",
        "/knocker/hand/1",
        "the card 3H appears more than once",
    );
    expect(
        "a card in both hands",
        "/defender/hand/1",
        "9S is in both hands",
    );
    expect(
        "a declared meld with a card not held",
        "/knocker/melds/1/3",
        "9C is not in the hand",
    );
    expect(
        "a layoff of a card not held",
        "/defender/layoffs/0",
        "layoff 0: QS is not in the defender's hand",
    );
}

/// The deal of the audited knocks: the non-dealer draws 2H, discards KC and
/// knocks; the dealer replies.
fn audited_deal() -> Value {
    json!({
        "dealer": ["7S", "8S", "TS", "JD", "QH", "KH", "3C", "4C", "7H", "4S"],
        "non_dealer": ["AS", "2S", "3S", "4H", "5H", "6H", "9C", "9D", "9H", "KC"],
        "stock": ["2H"],
        "upcard": "2C",
    })
}

#[tokio::test]
async fn a_knock_at_fault_in_an_audit_is_the_scorers_fault_at_its_action() {
    let app = spawn_app().await;
    let knocker_hand = ["AS", "2S", "3S", "4H", "5H", "6H", "9C", "9D", "9H", "2H"];
    let melds = json!([["AS", "2S", "3S"], ["4H", "5H", "6H"], ["9C", "9D", "9H"]]);
    let cases = [
        (
            json!([
                ["AS", "2S", "3S"],
                ["4H", "5H", "6H"],
                ["9C", "9D", "9H", "9S"]
            ]),
            None,
        ),
        (json!([["AS", "2S", "4H"], ["3S", "5H", "6H"]]), None),
        (json!([["AS", "2S", "3S"]]), None),
        (melds.clone(), Some(json!([{"card": "QS", "meld": 0}]))),
        (melds.clone(), Some(json!([{"card": "7S", "meld": 0}]))),
        (melds.clone(), Some(json!([{"card": "7H", "meld": 7}]))),
        (
            melds,
            Some(json!([{"card": "7H", "meld": 1}, {"card": "7H", "meld": 1}])),
        ),
    ];
    for profile in ["standard", "jokers"] {
        for (declared, layoffs) in &cases {
            let mut actions = vec![
                json!({"player": "non_dealer", "action": "pass"}),
                json!({"player": "dealer", "action": "pass"}),
                json!({"player": "non_dealer", "action": "draw", "from": "stock", "card": "2H"}),
                json!({"player": "non_dealer", "action": "knock", "discard": "KC", "melds": declared}),
            ];
            let mut defender = json!({"hand": audited_deal()["dealer"]});
            if let Some(layoffs) = layoffs {
                actions.push(json!({"player": "dealer", "action": "lay_off", "layoffs": layoffs}));
                defender["layoffs"] = layoffs.clone();
            }
            let score = json!({
                "profile": profile,
                "knocker": {"hand": knocker_hand, "melds": declared},
                "defender": defender,
            });
            let response = app.post_json("/v1/hands/score", &score.to_string()).await;
            assert_eq!(response.status().as_u16(), 422);
            let problem: Value = response.json().await.unwrap();
            let audit = json!({"profile": profile, "deal": audited_deal(), "actions": actions});
            let response = app.post_json("/v1/hands/audit", &audit.to_string()).await;
            assert_eq!(response.status().as_u16(), 200);
            let answer: Value = response.json().await.unwrap();
            let violation = &answer["violation"];
            let first = &problem["errors"][0];
            assert_eq!(
                violation["code"], problem["code"],
                "{violation} / {problem}"
            );
            let pointer = first["pointer"].as_str().unwrap();
            let tail = pointer
                .strip_prefix("/knocker/")
                .or_else(|| pointer.strip_prefix("/defender/"))
                .unwrap();
            assert_eq!(
                violation["pointer"],
                format!("/actions/{}/{tail}", actions.len() - 1),
                "{violation} / {problem}"
            );
            for error in problem["errors"].as_array().unwrap() {
                let message = error["message"].as_str().unwrap();
                assert!(
                    violation["message"].as_str().unwrap().contains(message),
                    "the audit's {violation} does not say the scorer's {message:?}"
                );
            }
        }
    }
}
