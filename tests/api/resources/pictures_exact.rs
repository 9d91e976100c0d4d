//! Every number on a score sheet is the JSON answer's, cell by cell: the sheet
//! of each OpenAPI example and of generated matches of every format (two and
//! three players, partnership, Hollywood, shutouts, boxes) is read back from
//! its SVG (each figure's `data-grid`, `data-row`, `data-col`) and compared
//! with what this test derives from the JSON answer of the same request: each
//! hand's points in its winner's column and the running totals of every
//! column, every line of the tally, the net (nets, pairs). No figure may be
//! missing, and none may be there that the answer does not give.

use std::collections::BTreeMap;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};

use super::pictures::{SVG, post};
use crate::support::{TestApp, spawn_app};

type Cells = BTreeMap<(String, String, String), String>;

const TALLY: [&str; 6] = [
    "hand_points",
    "hands_won",
    "box_bonus",
    "game_bonus",
    "shutout_bonus",
    "total",
];

/// The figures of the SVG, by (grid, row, column).
fn drawn(svg: &str) -> Cells {
    let document = roxmltree::Document::parse(svg).expect("well-formed SVG");
    let mut cells = Cells::new();
    for node in document.descendants() {
        if let (Some(grid), Some(row), Some(col)) = (
            node.attribute("data-grid"),
            node.attribute("data-row"),
            node.attribute("data-col"),
        ) {
            let key = (grid.to_owned(), row.to_owned(), col.to_owned());
            let text = node.text().unwrap_or_default().to_owned();
            assert!(cells.insert(key.clone(), text).is_none(), "{key:?} twice");
        }
    }
    cells
}

fn put(cells: &mut Cells, grid: usize, row: &str, group: usize, col: &str, value: &Value) {
    if value.is_number() {
        let key = (grid.to_string(), row.to_owned(), format!("{group}.{col}"));
        cells.insert(key, value.to_string());
    }
}

fn tally(
    cells: &mut Cells,
    grid: usize,
    prefix: &str,
    names: &[String],
    group0: usize,
    scored: &Value,
    nets: &Value,
) {
    for (p, name) in names.iter().enumerate() {
        for field in TALLY {
            put(
                cells,
                grid,
                &format!("{prefix}{field}"),
                group0 + p,
                "total",
                &scored["final"][name][field],
            );
        }
        let net = match nets {
            Value::Object(nets) => nets.get(name).cloned().unwrap_or(Value::Null),
            _ if scored["winner"] == name.as_str() => nets.clone(),
            _ => Value::Null,
        };
        put(
            cells,
            grid,
            &format!("{prefix}net"),
            group0 + p,
            "total",
            &net,
        );
    }
}

/// The figures the sheet must show, derived from the answer.
fn expected(request: &Value, answer: &Value) -> Cells {
    let names: Vec<String> = match request.get("teams") {
        Some(teams) => teams
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect(),
        None => request["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap().to_owned())
            .collect(),
    };
    let mut cells = Cells::new();
    let hands = answer["hands"].as_array().unwrap();
    if let Some(games) = answer["games"].as_array().filter(|g| !g.is_empty()) {
        for (i, hand) in hands.iter().enumerate() {
            for g in 0..games.len() {
                let scored_in = hand["scored_in"]
                    .as_array()
                    .unwrap()
                    .contains(&json!(g + 1));
                for (p, name) in names.iter().enumerate() {
                    let group = g * names.len() + p;
                    if scored_in && hand["winner"] == name.as_str() {
                        put(
                            &mut cells,
                            0,
                            &format!("hand-{}", i + 1),
                            group,
                            "points",
                            &hand["points"],
                        );
                    }
                    put(
                        &mut cells,
                        0,
                        &format!("hand-{}", i + 1),
                        group,
                        "total",
                        &hand["games"][g][name],
                    );
                }
            }
        }
        for (g, game) in games.iter().enumerate() {
            tally(
                &mut cells,
                0,
                "",
                &names,
                g * names.len(),
                game,
                &game["net"],
            );
        }
        tally(&mut cells, 1, "match-", &names, 0, answer, &answer["net"]);
        return cells;
    }
    for (i, hand) in hands.iter().enumerate() {
        for (p, name) in names.iter().enumerate() {
            if hand["winner"] == name.as_str() {
                put(
                    &mut cells,
                    0,
                    &format!("hand-{}", i + 1),
                    p,
                    "points",
                    &hand["points"],
                );
            }
            put(
                &mut cells,
                0,
                &format!("hand-{}", i + 1),
                p,
                "total",
                &hand["totals"][name],
            );
        }
    }
    let nets = if answer["nets"].is_object() {
        &answer["nets"]
    } else {
        &answer["net"]
    };
    tally(&mut cells, 0, "", &names, 0, answer, nets);
    for (k, pair) in answer["pairs"].as_array().into_iter().flatten().enumerate() {
        let p = names
            .iter()
            .position(|n| pair["players"][0] == n.as_str())
            .unwrap();
        put(
            &mut cells,
            0,
            &format!("pair-{}", k + 1),
            p,
            "total",
            &pair["net"],
        );
    }
    cells
}

/// Scores `request` (cut before a hand the service refuses as after the
/// game's end), draws it, and compares; returns the request as scored.
async fn check(app: &TestApp, mut request: Value) -> Value {
    let (answer, svg) = loop {
        let (status, _, text) = post(app, "/v1/matches/score", "", &request).await;
        let body: Value = serde_json::from_str(&text).unwrap();
        if status == 422 && body["code"] == "game_over" {
            let pointer = body["errors"][0]["pointer"].as_str().unwrap();
            let cut: usize = pointer.split('/').nth(2).unwrap().parse().unwrap();
            request["hands"].as_array_mut().unwrap().truncate(cut);
            continue;
        }
        assert_eq!(status, 200, "{text}");
        let (status, media, svg) = post(app, "/v1/matches/score", SVG, &request).await;
        assert_eq!((status, media.as_str()), (200, SVG));
        break (body, svg);
    };
    let (drawn, expected) = (drawn(&svg), expected(&request, &answer));
    assert!(!expected.is_empty());
    assert_eq!(drawn, expected, "the sheet of {request}");
    request
}

fn counts(rng: &mut StdRng, knocker: &str, winner_only: bool) -> Value {
    let knocker_deadwood = if rng.gen_bool(0.3) {
        0
    } else {
        rng.gen_range(1..=10)
    };
    let defender_deadwood = if winner_only || rng.gen_bool(0.7) {
        knocker_deadwood + rng.gen_range(1..=30)
    } else {
        rng.gen_range(0..=knocker_deadwood)
    };
    json!({"knocker": knocker, "knocker_deadwood": knocker_deadwood, "defender_deadwood": defender_deadwood})
}

fn two_players(rng: &mut StdRng, profile: &str, shutout: bool) -> Value {
    let hands: Vec<Value> = (0..rng.gen_range(3..=14))
        .map(|_| {
            if !shutout && rng.gen_bool(0.1) {
                return json!({"void": true});
            }
            let knocker = if shutout || rng.gen_bool(0.5) {
                "Mom"
            } else {
                "Dad"
            };
            counts(rng, knocker, shutout)
        })
        .collect();
    json!({"profile": profile, "players": ["Mom", "Dad"], "hands": hands})
}

/// Three players: the knocker wins every hand here (lower deadwood), so the
/// rotation is known: the winner meets the player who sat out.
fn three_players(rng: &mut StdRng) -> Value {
    let (mut at, mut out) = (["Ann", "Bob"], "Cy");
    let mut hands = Vec::new();
    for _ in 0..rng.gen_range(3..=12) {
        if rng.gen_bool(0.15) {
            hands.push(json!({"void": true, "players": at}));
            continue;
        }
        let k = usize::from(rng.gen_bool(0.5));
        let (winner, loser) = (at[k], at[1 - k]);
        let mut hand = counts(rng, winner, true);
        hand["defender"] = json!(loser);
        hands.push(hand);
        (at, out) = ([winner, out], loser);
    }
    json!({"players": ["Ann", "Bob", "Cy"], "hands": hands})
}

/// Partnership: the pairings alternate deal by deal.
fn partnership(rng: &mut StdRng) -> Value {
    let pairings = [
        [["Ann", "Bob"], ["Cy", "Dee"]],
        [["Ann", "Dee"], ["Cy", "Bob"]],
    ];
    let deals: Vec<Value> = (0..rng.gen_range(2..=10))
        .map(|deal| {
            let tables: Vec<Value> = pairings[deal % 2]
                .iter()
                .map(|pair| {
                    if rng.gen_bool(0.1) {
                        return json!({"void": true, "players": pair});
                    }
                    let k = usize::from(rng.gen_bool(0.5));
                    let mut hand = counts(rng, pair[k], false);
                    hand["defender"] = json!(pair[1 - k]);
                    hand
                })
                .collect();
            json!({"tables": tables})
        })
        .collect();
    json!({
        "profile": "partnership",
        "teams": [{"name": "North-South", "players": ["Ann", "Cy"]}, {"name": "East-West", "players": ["Bob", "Dee"]}],
        "hands": deals
    })
}

#[tokio::test]
async fn every_figure_of_the_openapi_examples_sheets_is_the_answers() {
    let app = spawn_app().await;
    let document: Value =
        serde_json::from_str(include_str!("../../../openapi/openapi.json")).unwrap();
    let examples = document["paths"]["/v1/matches/score"]["post"]["requestBody"]["content"]
        ["application/json"]["examples"]
        .as_object()
        .unwrap();
    assert!(examples.len() >= 5);
    for example in examples.values() {
        check(&app, example["value"].clone()).await;
    }
}

#[tokio::test]
async fn every_figure_of_generated_sheets_is_the_answers() {
    let app = spawn_app().await;
    let mut rng = StdRng::seed_from_u64(35);
    let (mut shutouts, mut complete, mut formats) = (0, 0, BTreeMap::new());
    for round in 0..48 {
        let request = match round % 6 {
            0 => two_players(&mut rng, "standard", false),
            1 => two_players(&mut rng, "standard", true),
            2 => two_players(&mut rng, "hollywood", round % 12 == 2),
            3 => three_players(&mut rng),
            4 => partnership(&mut rng),
            _ => two_players(&mut rng, "tournament", false),
        };
        let scored = check(&app, request).await;
        let (_, _, text) = post(&app, "/v1/matches/score", "", &scored).await;
        let answer: Value = serde_json::from_str(&text).unwrap();
        shutouts += usize::from(text.contains("\"shutout\":true"));
        complete += usize::from(answer["complete"] == true);
        *formats.entry(round % 6).or_insert(0) += 1;
    }
    // The generated matches reach what the sheet must show.
    assert!(shutouts >= 4, "{shutouts} shutouts");
    assert!(complete >= 10, "{complete} complete matches");
    assert_eq!(formats.len(), 6);
}
