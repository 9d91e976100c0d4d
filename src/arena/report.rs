//! `report.json`, schema `gin-referee-arena/1` (docs/ARENA.md documents
//! every field), computed from the records file alone, so that a resumed or
//! interrupted run reports every game written.
//!
//! Per pairing of bots A and B:
//! - `won`: games won by each (a forfeit is a game won by the other bot, a
//!   stall a game lost by the bot to act, a tie half to each);
//! - `share` and `ci95`: a pair's score for A is A's games won in its two
//!   games over 2; `share` is the mean over the complete pairs and `ci95`
//!   the mean ± 1.96 times the pairs' standard deviation (n - 1) over the
//!   root of n, not clipped to [0, 1] (null below two pairs);
//! - `sweeps` and `sign_test_p`: pairs one bot won both games of, and the
//!   exact two-sided binomial (p = 1/2) test over those pairs;
//! - `points_per_hand`: each bot's hand points over every hand of the
//!   pairing, void hands included; `forfeits` and `stalls` by bot.
//!
//! Across the run: `by_bot` (games, decisions and mean seconds per decision,
//! forfeits, stalls) and Weng-Lin `ratings` and `standings`, every game a
//! result applied in record order by the code that answers `POST
//! /v1/ratings`.

// The JSON read here is `serde_json::Value`, whose `[]` answers `Null` for a
// missing key or index and never panics (only `IndexMut` can).
#![allow(clippy::indexing_slicing)]

use std::collections::BTreeMap;

use gin_contract::answers::ratings::{Outcome, Table};
use gin_rules::bots::strength::{clustered_ci, sign_test};
use gin_rules::fair_deal::ALGORITHM;
use serde_json::{Map, Value, json};

use super::Plan;
use super::seeds::NONCE_BLOCK;

/// The schema's name and version.
pub const SCHEMA: &str = "gin-referee-arena/1";

/// The report of `lines` (see the module docs).
pub fn build(plan: &Plan, lines: &[Value], commitment: &str, revealed: Option<&str>) -> Value {
    let bots: Map<String, Value> = plan
        .names
        .iter()
        .zip(&plan.spec_texts)
        .map(|(name, spec)| (name.clone(), json!(spec)))
        .collect();
    let pairings: Vec<Value> = plan
        .pairings
        .iter()
        .enumerate()
        .map(|(k, [a, b])| {
            let names = [name(plan, *a), name(plan, *b)];
            let games: Vec<&Value> = lines
                .iter()
                .filter(|line| line["pairing"] == json!(names))
                .collect();
            pairing(names, &games, k)
        })
        .collect();
    let (ratings, standings) = ratings(lines);
    json!({
        "schema": SCHEMA,
        "version": env!("CARGO_PKG_VERSION"),
        "complete": revealed.is_some(),
        "unit": plan.unit,
        "profile": plan.profile_json,
        "pairs": plan.pairs,
        "games": lines.len(),
        "games_planned": plan.games(),
        "bots": bots,
        "deals": {
            "algorithm": ALGORITHM,
            "commitment": commitment,
            "client_seed": plan.client_seed,
            "server_seed": revealed,
            "nonce_block": NONCE_BLOCK,
        },
        "pairings": pairings,
        "by_bot": by_bot(plan, lines),
        "ratings": ratings,
        "standings": standings,
    })
}

fn name(plan: &Plan, i: usize) -> &str {
    plan.names.get(i).map(String::as_str).unwrap_or_default()
}

fn number(value: &Value) -> f64 {
    value.as_f64().unwrap_or(0.0)
}

fn pairing(names: [&str; 2], games: &[&Value], index: usize) -> Value {
    let [a, b] = names;
    let mut won = [0.0f64; 2];
    let mut points = [0.0f64; 2];
    let mut hands = 0.0f64;
    let mut forfeits = [0u64; 2];
    let mut stalls = [0u64; 2];
    let mut by_pair: BTreeMap<u64, Vec<f64>> = BTreeMap::new();
    for game in games {
        let result = &game["result"];
        for (i, bot) in names.iter().enumerate() {
            if let (Some(w), Some(p)) = (won.get_mut(i), points.get_mut(i)) {
                *w += number(&result["score"][bot]);
                *p += number(&result["hand_points"][bot]);
            }
            if game["forfeit"]["player"] == json!(bot)
                && let Some(f) = forfeits.get_mut(i)
            {
                *f += 1;
            }
            if game["stalled"]["player"] == json!(bot)
                && let Some(s) = stalls.get_mut(i)
            {
                *s += 1;
            }
        }
        hands += number(&result["hands"]);
        let pair = game["pair"].as_u64().unwrap_or_default();
        by_pair
            .entry(pair)
            .or_default()
            .push(number(&result["score"][a]));
    }
    // A pair's score for A: its two games' mean; complete pairs only.
    let scores: Vec<f64> = by_pair
        .values()
        .filter(|legs| legs.len() == 2)
        .map(|legs| legs.iter().sum::<f64>() / 2.0)
        .collect();
    let (share, ci) = clustered_ci(&scores);
    let sweeps_a = scores.iter().filter(|&&s| s == 1.0).count() as u64;
    let sweeps_b = scores.iter().filter(|&&s| s == 0.0).count() as u64;
    let per_hand = |p: f64| {
        if hands > 0.0 {
            json!(p / hands)
        } else {
            Value::Null
        }
    };
    json!({
        "index": index,
        "bots": names,
        "pairs": scores.len(),
        "games": games.len(),
        "hands": hands,
        "won": {a: won[0], b: won[1]},
        "share": {a: share, b: share.map(|s| 1.0 - s)},
        "ci95": {a: ci, b: ci.map(|[lo, hi]| [1.0 - hi, 1.0 - lo])},
        "sweeps": {a: sweeps_a, b: sweeps_b},
        "sign_test_p": sign_test(sweeps_a, sweeps_b).p(),
        "points_per_hand": {a: per_hand(points[0]), b: per_hand(points[1])},
        "forfeits": {a: forfeits[0], b: forfeits[1]},
        "stalls": {a: stalls[0], b: stalls[1]},
    })
}

/// Weng-Lin ratings over every game, in record order.
fn ratings(lines: &[Value]) -> (Value, Value) {
    let mut table = Table::new();
    for line in lines {
        let names: Vec<&str> = line["pairing"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let [a, b] = names.as_slice() else { continue };
        let (sa, sb) = (
            number(&line["result"]["score"][a]),
            number(&line["result"]["score"][b]),
        );
        let ranks = match sa.partial_cmp(&sb) {
            Some(std::cmp::Ordering::Greater) => vec![1, 2],
            Some(std::cmp::Ordering::Less) => vec![2, 1],
            _ => vec![1, 1],
        };
        let teams = vec![vec![table.player(a, None)], vec![table.player(b, None)]];
        // Ratings of new players against new players stay in range.
        let _ = table.apply(&Outcome { teams, ranks });
    }
    let response = table.response();
    (
        serde_json::to_value(&response.ratings).unwrap_or_default(),
        json!(response.standings),
    )
}

/// Games, decisions, seconds per decision, forfeits and stalls by bot.
fn by_bot(plan: &Plan, lines: &[Value]) -> Value {
    let mut out = Map::new();
    for bot in &plan.names {
        let mut games = 0u64;
        let mut decisions = 0.0f64;
        let mut seconds = 0.0f64;
        let mut forfeits = 0u64;
        let mut stalls = 0u64;
        for line in lines {
            if !line["pairing"]
                .as_array()
                .is_some_and(|p| p.contains(&json!(bot)))
            {
                continue;
            }
            games += 1;
            decisions += number(&line["result"]["decisions"][bot]);
            seconds += number(&line["result"]["seconds"][bot]);
            forfeits += u64::from(line["forfeit"]["player"] == json!(bot));
            stalls += u64::from(line["stalled"]["player"] == json!(bot));
        }
        let per = if decisions > 0.0 {
            json!(seconds / decisions)
        } else {
            Value::Null
        };
        out.insert(
            bot.clone(),
            json!({"games": games, "decisions": decisions, "seconds_per_decision": per,
                   "forfeits": forfeits, "stalls": stalls}),
        );
    }
    Value::Object(out)
}
