//! The score sheet of a match, as players keep it on paper: a column group per
//! player (or team; under Hollywood, per game and player, the three games side
//! by side), a line per hand with the points won and the running total, then
//! the tally (hand points, hands won, box, game and shutout bonuses, total) and
//! the net. Drawn from the `/v1/matches/score` answer (or the audit's `match`),
//! figure by figure: every number on the sheet is one of the answer's.

use serde_json::Value;

use super::text::{clean, field, figure, item, receipt_fingerprint, string};

/// The two columns of each group: the points a hand won, the running total.
pub const COLUMNS: [&str; 2] = ["points", "total"];

/// The tally's lines: the field of `final` each shows, and its label.
pub const TALLY: [(&str, &str); 6] = [
    ("hand_points", "Hand points"),
    ("hands_won", "Hands won (boxes)"),
    ("box_bonus", "Box bonus"),
    ("game_bonus", "Game bonus"),
    ("shutout_bonus", "Shutout bonus"),
    ("total", "Total"),
];

/// How a line is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    Hand,
    Tally,
    Violation,
}

/// One line: its key (stable, for tests and readers: `hand-3`, `total`,
/// `net`, ...), its label, a sentence, and one cell per column.
#[derive(Debug, Clone)]
pub struct Row {
    pub key: String,
    pub label: String,
    pub detail: String,
    pub cells: Vec<Option<String>>,
    pub mark: Mark,
}

/// A grid: column groups (a player, a team, or a game and a player), each of
/// [`COLUMNS`], and its lines.
#[derive(Debug, Clone)]
pub struct Grid {
    pub caption: String,
    pub groups: Vec<String>,
    pub rows: Vec<Row>,
}

/// The whole sheet.
#[derive(Debug, Clone)]
pub struct Sheet {
    pub title: String,
    /// Lines under the title: the state of the match, the receipt.
    pub notes: Vec<String>,
    pub grids: Vec<Grid>,
    /// The violation of an audit, as a sentence.
    pub violation: Option<String>,
    /// A signed answer: its JSON and its receipt, for the SVG's metadata.
    pub signed: Option<(String, String)>,
}

/// The names of the columns, in the request's order: its `players`, or its
/// teams' names.
fn names(request: &Value) -> Vec<String> {
    if let Some(teams) = request.get("teams").and_then(Value::as_array) {
        return teams.iter().map(|team| string(&team["name"])).collect();
    }
    request
        .get("players")
        .and_then(Value::as_array)
        .map(|players| players.iter().map(string).collect())
        .unwrap_or_default()
}

/// The raw names (uncleaned) used as keys into the answer.
fn keys(request: &Value) -> Vec<String> {
    let raw = |value: &Value| value.as_str().unwrap_or_default().to_owned();
    if let Some(teams) = request.get("teams").and_then(Value::as_array) {
        return teams.iter().map(|team| raw(&team["name"])).collect();
    }
    request
        .get("players")
        .and_then(Value::as_array)
        .map(|players| players.iter().map(raw).collect())
        .unwrap_or_default()
}

/// A sentence for one table's result: who won what, and how.
fn table_sentence(hand: &Value) -> String {
    let outcome = string(&hand["outcome"]);
    if outcome == "void" || hand["winner"].is_null() {
        let players: Vec<String> = hand["players"]
            .as_array()
            .map(|players| players.iter().map(string).collect())
            .unwrap_or_default();
        return if players.is_empty() {
            "void".to_owned()
        } else {
            format!("{}: void", players.join(" v "))
        };
    }
    let knocker = string(&hand["knocker"]);
    let winner = string(&hand["winner"]);
    let points = figure(&hand["points"]).unwrap_or_default();
    let counts = match (
        figure(&hand["knocker_deadwood"]),
        figure(&hand["defender_deadwood"]),
    ) {
        (Some(k), Some(d)) => format!(", deadwood {k} v {d}"),
        _ => String::new(),
    };
    format!("{knocker} knocks: {outcome}{counts}; {winner} +{points}")
}

/// The line of hand `index` (from 0): the winner's points, everyone's total.
fn hand_row(index: usize, hand: &Value, keys: &[String], partnership: bool) -> Row {
    let detail = if partnership {
        hand["tables"]
            .as_array()
            .map(|tables| {
                tables
                    .iter()
                    .map(table_sentence)
                    .collect::<Vec<_>>()
                    .join(" · ")
            })
            .unwrap_or_default()
    } else {
        table_sentence(hand)
    };
    let winner = hand["winner"].as_str();
    let mut cells = Vec::with_capacity(keys.len() * 2);
    for key in keys {
        let won = winner == Some(key.as_str());
        cells.push(won.then(|| figure(&hand["points"])).flatten());
        cells.push(figure(field(&hand["totals"], key)));
    }
    Row {
        key: format!("hand-{}", index + 1),
        label: (index + 1).to_string(),
        detail,
        cells,
        mark: Mark::Hand,
    }
}

/// The tally lines of `tally` (an answer's `final`), and the net line.
fn tally_rows(tally: &Value, keys: &[String], winner: &Value, net: &Value) -> Vec<Row> {
    let mut rows: Vec<Row> = TALLY
        .iter()
        .map(|(name, label)| Row {
            key: (*name).to_owned(),
            label: (*label).to_owned(),
            detail: String::new(),
            cells: keys
                .iter()
                .flat_map(|key| [None, figure(&field(tally, key)[*name])])
                .collect(),
            mark: Mark::Tally,
        })
        .collect();
    // Two sides: the net is the winner's, against the other. Three players:
    // `nets` has each player's.
    let cells = keys
        .iter()
        .flat_map(|key| {
            let value = match net {
                Value::Object(nets) => nets.get(key).and_then(figure),
                _ if winner.as_str() == Some(key.as_str()) => figure(net),
                _ => None,
            };
            [None, value]
        })
        .collect();
    let detail = match winner.as_str() {
        Some(name) => format!("won by {}", clean(name)),
        None => "no winner yet".to_owned(),
    };
    rows.push(Row {
        key: "net".to_owned(),
        label: "Net".to_owned(),
        detail,
        cells,
        mark: Mark::Tally,
    });
    rows
}

/// Three players: each pair's net, in the first player's column.
fn pair_rows(pairs: &Value, keys: &[String]) -> Vec<Row> {
    let Some(pairs) = pairs.as_array() else {
        return Vec::new();
    };
    pairs
        .iter()
        .enumerate()
        .map(|(index, pair)| {
            let first = item(&pair["players"], 0).as_str().unwrap_or_default();
            let names = format!(
                "{} v {}",
                string(item(&pair["players"], 0)),
                string(item(&pair["players"], 1))
            );
            Row {
                key: format!("pair-{}", index + 1),
                label: "Pair".to_owned(),
                detail: names,
                cells: keys
                    .iter()
                    .flat_map(|key| [None, (key == first).then(|| figure(&pair["net"])).flatten()])
                    .collect(),
                mark: Mark::Tally,
            }
        })
        .collect()
}

/// Hollywood: the games side by side, one group per game and player.
fn hollywood(answer: &Value, games: &[Value], keys: &[String], names: &[String]) -> Grid {
    let mut groups = Vec::new();
    for game in 1..=games.len() {
        for name in names {
            groups.push(format!("Game {game} · {name}"));
        }
    }
    let mut rows = Vec::new();
    for (index, hand) in answer["hands"].as_array().into_iter().flatten().enumerate() {
        let winner = hand["winner"].as_str();
        let scored_in = |game: usize| {
            hand["scored_in"]
                .as_array()
                .is_some_and(|games| games.iter().any(|g| g.as_u64() == Some(game as u64)))
        };
        let mut cells = Vec::new();
        for game in 1..=games.len() {
            for key in keys {
                let won = winner == Some(key.as_str()) && scored_in(game);
                cells.push(won.then(|| figure(&hand["points"])).flatten());
                cells.push(figure(field(item(&hand["games"], game - 1), key)));
            }
        }
        rows.push(Row {
            key: format!("hand-{}", index + 1),
            label: (index + 1).to_string(),
            detail: table_sentence(hand),
            cells,
            mark: Mark::Hand,
        });
    }
    // Each game's tally under its own columns.
    let per_game: Vec<Vec<Row>> = games
        .iter()
        .map(|game| tally_rows(&game["final"], keys, &game["winner"], &game["net"]))
        .collect();
    for (line, template) in per_game.first().into_iter().flatten().enumerate() {
        let cells = per_game
            .iter()
            .flat_map(|rows| {
                rows.get(line)
                    .map(|row| row.cells.clone())
                    .unwrap_or_default()
            })
            .collect();
        rows.push(Row {
            detail: String::new(),
            cells,
            ..template.clone()
        });
    }
    Grid {
        caption: "Hollywood: the three games side by side".to_owned(),
        groups,
        rows,
    }
}

impl Sheet {
    /// The sheet of `request`'s match from its answer: `/v1/matches/score`'s,
    /// or when `audit`, `/v1/matches/audit`'s (whose `match` is the former).
    pub fn of(request: &Value, answer: &Value, audit: bool) -> Sheet {
        let scored = if audit { &answer["match"] } else { answer };
        let keys = keys(request);
        let names = names(request);
        let partnership = request.get("teams").is_some();
        let mut grids = Vec::new();
        if let Some(games) = scored["games"].as_array().filter(|games| !games.is_empty()) {
            grids.push(hollywood(scored, games, &keys, &names));
            let mut rows = tally_rows(&scored["final"], &keys, &scored["winner"], &scored["net"]);
            rows.iter_mut()
                .for_each(|row| row.key = format!("match-{}", row.key));
            grids.push(Grid {
                caption: "The match: the three games together".to_owned(),
                groups: names.clone(),
                rows,
            });
        } else {
            let mut rows: Vec<Row> = scored["hands"]
                .as_array()
                .into_iter()
                .flatten()
                .enumerate()
                .map(|(index, hand)| hand_row(index, hand, &keys, partnership))
                .collect();
            let net = if scored["nets"].is_object() {
                &scored["nets"]
            } else {
                &scored["net"]
            };
            rows.extend(tally_rows(&scored["final"], &keys, &scored["winner"], net));
            rows.extend(pair_rows(&scored["pairs"], &keys));
            grids.push(Grid {
                caption: if partnership { "Teams" } else { "Players" }.to_owned(),
                groups: names.clone(),
                rows,
            });
        }
        let violation = audit.then(|| violation(answer)).flatten();
        if let (Some(sentence), Some(grid)) = (&violation, grids.first_mut()) {
            grid.rows.push(Row {
                key: "violation".to_owned(),
                label: "Violation".to_owned(),
                detail: sentence.clone(),
                cells: vec![None; grid.groups.len() * 2],
                mark: Mark::Violation,
            });
        }
        let mut notes = vec![state(scored, &names)];
        let signed = answer["receipt"].as_str().map(|jws| {
            let (kid, digest) = receipt_fingerprint(jws);
            notes.push(format!(
                "Signed: kid {kid} · SHA-256 of the receipt {digest}"
            ));
            (answer.to_string(), jws.to_owned())
        });
        let title = format!(
            "{}: {}",
            if audit { "Match audit" } else { "Score sheet" },
            names.join(if partnership { " v " } else { ", " })
        );
        Sheet {
            title,
            notes,
            grids,
            violation,
            signed,
        }
    }
}

/// The match's state in a sentence.
fn state(scored: &Value, names: &[String]) -> String {
    let hands = scored["hands"].as_array().map_or(0, Vec::len);
    let complete = scored["complete"].as_bool().unwrap_or(false);
    match (complete, scored["winner"].as_str()) {
        (true, Some(winner)) => format!("{hands} hands; complete, won by {}", clean(winner)),
        (true, None) => format!("{hands} hands; complete, tied"),
        _ => format!("{hands} hands; in progress ({} at the table)", names.len()),
    }
}

/// The audit's first violation, as a sentence naming its hand (counted from
/// 1, as the sheet's lines are), table and action.
fn violation(answer: &Value) -> Option<String> {
    let violation = answer.get("violation").filter(|v| v.is_object())?;
    let hand = violation["hand"].as_u64().map_or(0, |hand| hand + 1);
    let table = violation["table"]
        .as_u64()
        .map(|table| format!(", table {}", table + 1))
        .unwrap_or_default();
    let action = violation["action"]
        .as_u64()
        .map(|action| format!(", action {}", action + 1))
        .unwrap_or_default();
    Some(format!(
        "VIOLATION at hand {hand}{table}{action}: {} ({})",
        string(&violation["message"]),
        string(&violation["code"])
    ))
}
