//! The score sheet of a match, as players keep it on paper: a column group per
//! player (or team; under Hollywood, per game and player, the three games side
//! by side), a line per hand with the points won and the running total, then
//! the tally (hand points, hands won, box, game and shutout bonuses, total) and
//! the net. Drawn from the typed answer of `/v1/matches/score` (or the audit's
//! `match`), the very value the JSON answer is written from, figure by figure:
//! every number on the sheet is one of the answer's. The columns are the
//! answer's `final`, whose names are in the request's order.

use gin_contract::answers::match_audit::{MatchAuditResponse, MatchAuditViolation};
use gin_contract::answers::matches::{
    MatchResponse, PartnershipMatchResponse, ThreePlayerMatchResponse,
};
use gin_contract::wire::formats::MatchAnswer;

use super::grid::{
    Grid, KEYS, Key, Label, Mark, Net, Row, Table, grid, hand_row, hand_sentence, names, sentence,
    table_sentence, tally_rows,
};
use super::text::{clean, push_number};

/// The whole sheet.
#[derive(Debug, Clone)]
pub struct Sheet {
    pub title: String,
    /// Lines under the title: the state of the match, the receipt.
    pub notes: Vec<String>,
    pub grids: Vec<Grid>,
    /// The violation of an audit, as a sentence.
    pub violation: Option<String>,
}

/// Two players: one grid, or the Hollywood grids.
fn two(answer: &MatchResponse) -> Vec<Grid> {
    let names = names(&answer.final_tally);
    if let Some(games) = answer.games.as_deref().filter(|games| !games.is_empty()) {
        return super::hollywood::grids(answer, games, &names);
    }
    let mut rows: Vec<Row> = answer
        .hands
        .iter()
        .enumerate()
        .map(|(index, hand)| {
            let winner = hand.winner.as_deref();
            let detail = hand_sentence(hand);
            hand_row(
                index,
                detail,
                winner,
                hand.points.into(),
                &hand.totals,
                &names,
            )
        })
        .collect();
    let net = Net::Winner(answer.winner.as_deref(), answer.net);
    rows.extend(tally_rows(&answer.final_tally, &names, net, &KEYS));
    vec![grid("Players", &names, rows)]
}

/// Three players: each hand's table, each player's net, each pair's.
fn three(answer: &ThreePlayerMatchResponse) -> Vec<Grid> {
    let names = names(&answer.final_tally);
    let mut rows: Vec<Row> = answer
        .hands
        .iter()
        .enumerate()
        .map(|(index, hand)| {
            let table = &hand.hand;
            let winner = table.winner.as_deref();
            let detail = sentence(&Table::from(table));
            hand_row(
                index,
                detail,
                winner,
                table.points.into(),
                &hand.totals,
                &names,
            )
        })
        .collect();
    let net = Net::Each(answer.nets.as_ref(), answer.winner.as_deref());
    rows.extend(tally_rows(&answer.final_tally, &names, net, &KEYS));
    // Each pair's net, in the first player's column.
    for (index, pair) in answer.pairs.iter().flatten().enumerate() {
        let [first, second] = &pair.players;
        rows.push(Row {
            key: Key::Pair(index),
            label: Label::Text("Pair"),
            detail: format!("{} v {}", clean(first), clean(second)),
            cells: names
                .iter()
                .flat_map(|name| [None, (name == first).then_some(i128::from(pair.net))])
                .collect(),
            mark: Mark::Tally,
        });
    }
    vec![grid("Players", &names, rows)]
}

/// A partnership: a line per deal, its sentence both tables'.
fn teams(answer: &PartnershipMatchResponse) -> Vec<Grid> {
    let names = names(&answer.final_tally);
    let mut rows: Vec<Row> = answer
        .hands
        .iter()
        .enumerate()
        .map(|(index, deal)| {
            let mut detail = String::with_capacity(128);
            for (table, result) in deal.tables.iter().enumerate() {
                if table > 0 {
                    detail.push_str(" · ");
                }
                table_sentence(&mut detail, &Table::from(result));
            }
            let winner = deal.winner.as_deref();
            hand_row(index, detail, winner, deal.points, &deal.totals, &names)
        })
        .collect();
    let net = Net::Winner(answer.winner.as_deref(), answer.net);
    rows.extend(tally_rows(&answer.final_tally, &names, net, &KEYS));
    vec![grid("Teams", &names, rows)]
}

/// The match's state in a sentence.
fn state(hands: usize, complete: bool, winner: Option<&str>, players: usize) -> String {
    match (complete, winner) {
        (true, Some(winner)) => format!("{hands} hands; complete, won by {}", clean(winner)),
        (true, None) => format!("{hands} hands; complete, tied"),
        _ => format!("{hands} hands; in progress ({players} at the table)"),
    }
}

/// The audit's first violation, as a sentence naming its hand (counted from
/// 1, as the sheet's lines are), table and action.
fn violation(violation: &MatchAuditViolation) -> String {
    let mut out = String::with_capacity(96 + violation.message.len());
    out.push_str("VIOLATION at hand ");
    push_number(&mut out, violation.hand.saturating_add(1));
    for (word, at) in [
        (", table ", violation.table),
        (", action ", violation.action),
    ] {
        if let Some(at) = at {
            out.push_str(word);
            push_number(&mut out, at.saturating_add(1));
        }
    }
    out.push_str(": ");
    out.push_str(&clean(&violation.message));
    out.push_str(" (");
    out.push_str(violation.code.as_str());
    out.push(')');
    out
}

impl Sheet {
    /// The sheet of a match from its `/v1/matches/score` answer.
    pub fn score(answer: &MatchAnswer) -> Sheet {
        Sheet::of(answer, "Score sheet", None)
    }

    /// The sheet of a match audit: the legal hands' sheet and the first
    /// violation, as a line of the first grid.
    pub fn audit(answer: &MatchAuditResponse) -> Sheet {
        Sheet::of(&answer.score, "Match audit", answer.violation.as_ref())
    }

    fn of(scored: &MatchAnswer, heading: &str, fault: Option<&MatchAuditViolation>) -> Sheet {
        let (mut grids, tally, hands, complete, winner, partnership) = match scored {
            MatchAnswer::TwoPlayers(answer) => (
                two(answer),
                &answer.final_tally,
                answer.hands.len(),
                answer.complete,
                answer.winner.as_deref(),
                false,
            ),
            MatchAnswer::ThreePlayers(answer) => (
                three(answer),
                &answer.final_tally,
                answer.hands.len(),
                answer.complete,
                answer.winner.as_deref(),
                false,
            ),
            MatchAnswer::Partnership(answer) => (
                teams(answer),
                &answer.final_tally,
                answer.hands.len(),
                answer.complete,
                answer.winner.as_deref(),
                true,
            ),
        };
        let names = names(tally);
        let violation = fault.map(violation);
        if let (Some(sentence), Some(grid)) = (&violation, grids.first_mut()) {
            grid.rows.push(Row {
                key: Key::Named("violation"),
                label: Label::Text("Violation"),
                detail: sentence.clone(),
                cells: vec![None; grid.groups.len() * 2],
                mark: Mark::Violation,
            });
        }
        let cleaned: Vec<_> = names.iter().map(|name| clean(name)).collect();
        let title = format!(
            "{heading}: {}",
            cleaned.join(if partnership { " v " } else { ", " })
        );
        Sheet {
            title,
            notes: vec![state(hands, complete, winner, names.len())],
            grids,
            violation,
        }
    }
}
