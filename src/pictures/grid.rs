//! The grid of a score sheet, shared by every format's sheet and by the
//! Hollywood sheet: its lines (a key, a label, a sentence, a cell per
//! column), the tally and net lines of an answer's `final`, and the sentence
//! that tells one table's result. Every figure is one of the typed answer's.

use gin_contract::answers::matches::{
    ByName, GameResult, HandResult, MatchOutcome, MatchResponse, TableResult,
};
use gin_rules::Tally;
use maud::Render;

use super::text::{clean, push_number};

/// The two columns of each group: the points a hand won, the running total.
pub const COLUMNS: [&str; 2] = ["points", "total"];

/// The tally's lines: the field of `final` each shows (its line's key), and
/// its label; then the net.
const TALLY: [(&str, &str); 6] = [
    ("hand_points", "Hand points"),
    ("hands_won", "Hands won (boxes)"),
    ("box_bonus", "Box bonus"),
    ("game_bonus", "Game bonus"),
    ("shutout_bonus", "Shutout bonus"),
    ("total", "Total"),
];
/// The keys of the Hollywood match's own tally lines, in the order of
/// [`TALLY`], then its net.
const MATCH_KEYS: [&str; 7] = [
    "match-hand_points",
    "match-hands_won",
    "match-box_bonus",
    "match-game_bonus",
    "match-shutout_bonus",
    "match-total",
    "match-net",
];
pub(super) const KEYS: [&str; 7] = [
    "hand_points",
    "hands_won",
    "box_bonus",
    "game_bonus",
    "shutout_bonus",
    "total",
    "net",
];

/// The figures of a tally, in the order of [`TALLY`].
const fn tally_figures(tally: &Tally) -> [u64; 6] {
    [
        tally.hand_points,
        tally.hands_won,
        tally.box_bonus,
        tally.game_bonus,
        tally.shutout_bonus,
        tally.total,
    ]
}

/// How a line is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    Hand,
    Tally,
    Violation,
}

/// A line's key, stable for tests and readers: `hand-3`, `total`, `net`,
/// `pair-1`, `match-total`, `violation`. Written straight into the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// A hand, from 0 (written from 1).
    Hand(usize),
    /// A pair of three players, from 0 (written from 1).
    Pair(usize),
    Named(&'static str),
}

impl Key {
    /// The lines drawn on a tinted band: the totals.
    pub fn is_total(self) -> bool {
        matches!(self, Key::Named(name) if name.ends_with("total"))
    }
}

impl Render for Key {
    fn render_to(&self, buffer: &mut String) {
        match *self {
            Key::Hand(index) => {
                buffer.push_str("hand-");
                push_number(buffer, index.saturating_add(1));
            }
            Key::Pair(index) => {
                buffer.push_str("pair-");
                push_number(buffer, index.saturating_add(1));
            }
            Key::Named(name) => buffer.push_str(name),
        }
    }
}

/// A line's label: a hand's number (from 1) or a word.
#[derive(Debug, Clone, Copy)]
pub enum Label {
    Number(usize),
    Text(&'static str),
}

impl Render for Label {
    fn render_to(&self, buffer: &mut String) {
        match *self {
            Label::Number(index) => push_number(buffer, index.saturating_add(1)),
            Label::Text(text) => buffer.push_str(text),
        }
    }
}

/// One line: its key, its label, a sentence, and one cell per column (two
/// per group: [`COLUMNS`]). Figures are the answer's integers, unsigned and
/// signed alike (an `i128` holds both exactly).
#[derive(Debug, Clone)]
pub struct Row {
    pub key: Key,
    pub label: Label,
    pub detail: String,
    pub cells: Vec<Option<i128>>,
    pub mark: Mark,
}

/// A grid: column groups (a player, a team, or a game and a player), each of
/// [`COLUMNS`], and its lines.
#[derive(Debug, Clone)]
pub struct Grid {
    pub caption: &'static str,
    pub groups: Vec<String>,
    pub rows: Vec<Row>,
}

/// `map[name]`, as the JSON object is read by name.
fn of<'a, T>(map: &'a ByName<T>, name: &str) -> Option<&'a T> {
    map.entries()
        .iter()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value)
}

/// The outcome's name, as the JSON answer writes it.
pub const fn outcome_name(outcome: MatchOutcome) -> &'static str {
    match outcome {
        MatchOutcome::Knock => "knock",
        MatchOutcome::Undercut => "undercut",
        MatchOutcome::Gin => "gin",
        MatchOutcome::BigGin => "big_gin",
        MatchOutcome::Void => "void",
    }
}

/// One table's result, the fields a sentence tells.
pub(super) struct Table<'a> {
    pub(super) players: Option<&'a [String; 2]>,
    pub(super) winner: Option<&'a str>,
    pub(super) knocker: Option<&'a str>,
    pub(super) outcome: MatchOutcome,
    pub(super) points: u32,
    pub(super) counts: (Option<u32>, Option<u32>),
}

impl<'a> From<&'a TableResult> for Table<'a> {
    fn from(table: &'a TableResult) -> Table<'a> {
        Table {
            players: Some(&table.players),
            winner: table.winner.as_deref(),
            knocker: table.knocker.as_deref(),
            outcome: table.outcome,
            points: table.points,
            counts: (table.knocker_deadwood, table.defender_deadwood),
        }
    }
}

/// Appends a sentence for one table's result: who won what, and how.
pub(super) fn table_sentence(out: &mut String, table: &Table<'_>) {
    let (Some(winner), false) = (table.winner, matches!(table.outcome, MatchOutcome::Void)) else {
        if let Some([a, b]) = table.players {
            for part in [clean(a).as_ref(), " v ", clean(b).as_ref(), ": "] {
                out.push_str(part);
            }
        }
        out.push_str("void");
        return;
    };
    out.push_str(&clean(table.knocker.unwrap_or_default()));
    out.push_str(" knocks: ");
    out.push_str(outcome_name(table.outcome));
    if let (Some(knocker), Some(defender)) = table.counts {
        out.push_str(", deadwood ");
        push_number(out, knocker);
        out.push_str(" v ");
        push_number(out, defender);
    }
    out.push_str("; ");
    out.push_str(&clean(winner));
    out.push_str(" +");
    push_number(out, table.points);
}

/// The line of hand `index` (from 0): the winner's points, everyone's total.
pub(super) fn hand_row(
    index: usize,
    detail: String,
    winner: Option<&str>,
    points: u64,
    totals: &ByName<u64>,
    names: &[&str],
) -> Row {
    let mut cells = Vec::with_capacity(names.len() * 2);
    for name in names {
        cells.push((winner == Some(*name)).then_some(i128::from(points)));
        cells.push(of(totals, name).map(|total| i128::from(*total)));
    }
    Row {
        key: Key::Hand(index),
        label: Label::Number(index),
        detail,
        cells,
        mark: Mark::Hand,
    }
}

/// Whose net a sheet shows: the winner's (two sides), or each player's.
#[derive(Clone, Copy)]
pub(super) enum Net<'a> {
    Winner(Option<&'a str>, Option<i64>),
    Each(Option<&'a ByName<i64>>, Option<&'a str>),
}

/// The tally lines of `tally` (an answer's `final`), and the net line, keyed
/// by `keys` (the tally's fields, then `net`).
pub(super) fn tally_rows(
    tally: &ByName<Tally>,
    names: &[&str],
    net: Net<'_>,
    keys: &'static [&'static str; 7],
) -> Vec<Row> {
    let figures: Vec<Option<[u64; 6]>> = names
        .iter()
        .map(|name| of(tally, name).map(tally_figures))
        .collect();
    let mut rows: Vec<Row> = TALLY
        .iter()
        .zip(keys)
        .enumerate()
        .map(|(line, ((_, label), key))| Row {
            key: Key::Named(key),
            label: Label::Text(label),
            detail: String::new(),
            cells: figures
                .iter()
                .flat_map(|figures| {
                    [
                        None,
                        figures.and_then(|f| f.get(line).copied()).map(i128::from),
                    ]
                })
                .collect(),
            mark: Mark::Tally,
        })
        .collect();
    let (winner, cells) = match net {
        Net::Winner(winner, net) => (
            winner,
            names
                .iter()
                .flat_map(|name| [None, net.filter(|_| winner == Some(*name)).map(i128::from)])
                .collect(),
        ),
        Net::Each(nets, winner) => (
            winner,
            names
                .iter()
                .flat_map(|name| {
                    [
                        None,
                        nets.and_then(|nets| of(nets, name)).map(|n| i128::from(*n)),
                    ]
                })
                .collect(),
        ),
    };
    let detail = match winner {
        Some(name) => format!("won by {}", clean(name)),
        None => "no winner yet".to_owned(),
    };
    let [.., net_key] = keys;
    rows.push(Row {
        key: Key::Named(net_key),
        label: Label::Text("Net"),
        detail,
        cells,
        mark: Mark::Tally,
    });
    rows
}

/// The columns: the names of the answer's `final`, in the request's order.
pub(super) fn names(tally: &ByName<Tally>) -> Vec<&str> {
    tally
        .entries()
        .iter()
        .map(|(name, _)| name.as_str())
        .collect()
}

pub(super) fn sentence(table: &Table<'_>) -> String {
    let mut out = String::with_capacity(64);
    table_sentence(&mut out, table);
    out
}

pub(super) fn grid(caption: &'static str, names: &[&str], rows: Vec<Row>) -> Grid {
    Grid {
        caption,
        groups: names.iter().map(|name| clean(name).into_owned()).collect(),
        rows,
    }
}

/// A Hollywood game's tally, under its own columns.
pub(super) fn game_tally(game: &GameResult, names: &[&str]) -> Vec<Row> {
    let net = Net::Winner(game.winner.as_deref(), game.net);
    tally_rows(&game.final_tally, names, net, &KEYS)
}

/// The Hollywood match's own tally (the games summed), keyed `match-...`.
pub(super) fn match_tally(answer: &MatchResponse, names: &[&str]) -> Grid {
    let net = Net::Winner(answer.winner.as_deref(), answer.net);
    let rows = tally_rows(&answer.final_tally, names, net, &MATCH_KEYS);
    Grid {
        caption: "The match: the three games together",
        ..grid("", names, rows)
    }
}

/// A two-player hand's sentence.
pub(super) fn hand_sentence(hand: &HandResult) -> String {
    sentence(&Table {
        players: None,
        winner: hand.winner.as_deref(),
        knocker: hand.knocker.as_deref(),
        outcome: hand.outcome,
        points: hand.points,
        counts: (hand.knocker_deadwood, hand.defender_deadwood),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_are_named_as_the_answer_names_them() {
        for outcome in [
            MatchOutcome::Knock,
            MatchOutcome::Undercut,
            MatchOutcome::Gin,
            MatchOutcome::BigGin,
            MatchOutcome::Void,
        ] {
            assert_eq!(
                serde_json::to_value(outcome).unwrap(),
                outcome_name(outcome),
                "{outcome:?}"
            );
        }
    }

    #[test]
    fn keys_are_written_as_the_answer_is_read() {
        let written = |key: Key| key.render().into_string();
        assert_eq!(written(Key::Hand(0)), "hand-1");
        assert_eq!(written(Key::Pair(2)), "pair-3");
        assert_eq!(written(Key::Named("match-total")), "match-total");
        assert!(Key::Named("match-total").is_total() && !Key::Hand(3).is_total());
        for ((field, _), key) in TALLY.iter().zip(&MATCH_KEYS) {
            assert_eq!(format!("match-{field}"), *key);
        }
    }
}
