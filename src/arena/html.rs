//! `--report-html`: the report as one page (standings, pairings, each game's
//! score sheet one click away), a maud template like the pictures'.

// The JSON read here is `serde_json::Value`, whose `[]` answers `Null` for a
// missing key or index and never panics (only `IndexMut` can).
#![allow(clippy::indexing_slicing)]

use gin_contract::answers::match_audit::{self, MatchAuditRequest};
use maud::{DOCTYPE, PreEscaped, html};

use crate::pictures::{Drawing, Picture};
use serde_json::Value;

/// The page.
pub fn page(report: &Value, lines: &[Value]) -> String {
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        Value::Null => "-".into(),
        other => other.to_string(),
    };
    let percent = |v: &Value| {
        v.as_f64()
            .map_or("-".into(), |x| format!("{:.1}%", 100.0 * x))
    };
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                title { "gin-referee arena" }
                style { "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:right}th:first-child,td:first-child{text-align:left}" }
            }
            body {
                h1 { "Arena report" }
                p { "Schema " (text(&report["schema"])) ", " (text(&report["games"])) " of " (text(&report["games_planned"])) " games; commitment " code { (text(&report["deals"]["commitment"])) } }
                h2 { "Standings" }
                table {
                    tr { th { "bot" } th { "rating" } th { "mu" } th { "sigma" } th { "games" } }
                    @for name in report["standings"].as_array().into_iter().flatten() {
                        @let bot = text(name);
                        @let r = &report["ratings"][&bot];
                        tr { td { (bot) } td { (format!("{:.2}", r["rating"].as_f64().unwrap_or(0.0))) } td { (format!("{:.2}", r["mu"].as_f64().unwrap_or(0.0))) } td { (format!("{:.2}", r["sigma"].as_f64().unwrap_or(0.0))) } td { (text(&r["results"])) } }
                    }
                }
                h2 { "Pairings" }
                table {
                    tr { th { "A" } th { "B" } th { "pairs" } th { "A's share" } th { "95% CI" } th { "sweeps A:B" } th { "sign test p" } th { "points/hand A" } th { "points/hand B" } }
                    @for pairing in report["pairings"].as_array().into_iter().flatten() {
                        @let a = text(&pairing["bots"][0]);
                        @let b = text(&pairing["bots"][1]);
                        tr {
                            td { (a) } td { (b) } td { (text(&pairing["pairs"])) }
                            td { (percent(&pairing["share"][&a])) }
                            td { (percent(&pairing["ci95"][&a][0])) " to " (percent(&pairing["ci95"][&a][1])) }
                            td { (text(&pairing["sweeps"][&a])) ":" (text(&pairing["sweeps"][&b])) }
                            td { (format!("{:.4}", pairing["sign_test_p"].as_f64().unwrap_or(1.0))) }
                            td { (format!("{:.2}", pairing["points_per_hand"][&a].as_f64().unwrap_or(0.0))) }
                            td { (format!("{:.2}", pairing["points_per_hand"][&b].as_f64().unwrap_or(0.0))) }
                        }
                    }
                }
                h2 { "Games" }
                @for (n, line) in lines.iter().enumerate() {
                    details {
                        summary { (n + 1) ". " (text(&line["pairing"][0])) " v " (text(&line["pairing"][1])) ", pair " (text(&line["pair"])) " leg " (text(&line["leg"])) }
                        @match sheet(&line["record"]) {
                            Some(svg) => (PreEscaped(svg)),
                            None => p { "(no score sheet for a single hand's record)" },
                        }
                    }
                }
            }
        }
    }
    .into_string()
}

/// A match record's score sheet: the pictures' own, from the match audit's
/// answer (an SVG built by their escaping templates).
fn sheet(record: &Value) -> Option<String> {
    let request: MatchAuditRequest = serde_json::from_value(record.clone()).ok()?;
    let answer = match_audit::answer(&request).ok()?;
    Drawing::of(Picture::MatchAudit(&answer))
        .ok()
        .map(|drawing| drawing.svg())
}
