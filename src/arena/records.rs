//! The records file: one game a line, in (pairing, pair, leg) order, each
//! line written whole with one `write` (no buffer holds part of a line).
//!
//! A line: `{"pairing": [bot, bot], "pair", "leg", "record", "nonces",
//! "forfeit"?, "stalled"?, "seats"? (with `--unit hand`), "receipt"? (with a
//! signing key), "result"}`. `record` is the game as `/v1/matches/audit` (or
//! `/v1/hands/audit`) takes it, deals as cards, players named by the bots'
//! names; `result` sums it up for the report (games won, hand points, hands,
//! decisions and seconds spent deciding, by bot).
//!
//! `--resume` reads the lines already written: a last line without its
//! newline (the process was killed while writing it) is cut off, every whole
//! line must be the game the plan has at its place, and play carries on
//! after the last, so that no game is played twice.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, IsTerminal, Write};
use std::path::Path;
use std::sync::Arc;

use gin_contract::answers::{audit, match_audit};
use gin_contract::json::from_slice;
use gin_contract::limits::RequestLimits;
use gin_contract::receipts::KeyRing;
use gin_contract::wire::receipt::Keys;
use serde_json::{Map, Value, json};

use super::Plan;
use super::play::{Game, Played, Unit};

/// The game's line (newline included).
pub fn line(
    game: &Game<'_>,
    pair: usize,
    leg: usize,
    unit: Unit,
    played: Played,
    signer: &Signer,
) -> String {
    let name = |i: usize| game.names.get(i).copied().unwrap_or_default();
    let by_bot = |values: [Value; 2]| {
        let mut map = Map::new();
        for (i, value) in values.into_iter().enumerate() {
            map.insert(name(i).to_owned(), value);
        }
        Value::Object(map)
    };
    let seconds = played.nanos.map(|n| json!(n as f64 / 1e9));
    let result = json!({
        "score": by_bot(played.score.map(|s| json!(s))),
        "hand_points": by_bot(played.hand_points.map(|p| json!(p))),
        "hands": played.hands,
        "decisions": by_bot(played.decisions.map(|d| json!(d))),
        "seconds": by_bot(seconds),
    });
    let mut object = Map::new();
    object.insert("pairing".into(), json!(game.names));
    object.insert("pair".into(), json!(pair));
    object.insert("leg".into(), json!(leg));
    if unit == Unit::Hand
        && let Some(dealer) = played.dealer
    {
        object.insert(
            "seats".into(),
            json!({"dealer": name(dealer), "non_dealer": name(1 - dealer)}),
        );
    }
    let mut record = played.record;
    if let Some(receipt) = signer.receipt(unit, &mut record) {
        object.insert("receipt".into(), json!(receipt));
    }
    object.insert("record".into(), record);
    object.insert("nonces".into(), json!(played.nonces));
    if let Some((who, fault, tail)) = &played.forfeit {
        let mut forfeit =
            json!({"player": name(*who), "reason": fault.reason(), "detail": fault.to_string()});
        if let (Some(tail), Some(object)) = (tail, forfeit.as_object_mut()) {
            object.insert("stderr_tail".into(), json!(tail));
        }
        object.insert("forfeit".into(), forfeit);
    }
    if let Some(stalled) = played.stalled {
        object.insert("stalled".into(), json!({"player": stalled.map(name)}));
    }
    object.insert("result".into(), result);
    let mut text = serde_json::to_string(&Value::Object(object)).unwrap_or_default();
    text.push('\n');
    text
}

/// Receipts for the records, with `--signing-key`.
pub struct Signer(Option<Keys>);

impl Signer {
    pub fn load(path: Option<&Path>) -> Result<Signer, String> {
        let Some(path) = path else {
            return Ok(Signer(None));
        };
        let ring = KeyRing::load(Some(path), None).map_err(|e| e.to_string())?;
        Ok(Signer(Some(Keys::new(Arc::new(ring)))))
    }

    /// The audit's receipt for `record` (a hand's record gains `"receipt":
    /// true`, which is how `/v1/hands/audit` is asked for one).
    fn receipt(&self, unit: Unit, record: &mut Value) -> Option<String> {
        let keys = self.0.as_ref()?;
        let limits = RequestLimits {
            match_hands: gin_rules::MAX_MATCH_HANDS,
            audit_actions: 100_000,
            ..RequestLimits::default()
        };
        let answer = match unit {
            Unit::Match => {
                let body = serde_json::to_vec(record).ok()?;
                let request = from_slice(&body).ok()?;
                serde_json::to_value(match_audit::respond(&request, &body, &limits, keys).ok()?)
                    .ok()?
            }
            Unit::Hand => {
                record
                    .as_object_mut()?
                    .insert("receipt".into(), json!(true));
                let body = serde_json::to_vec(record).ok()?;
                let request = from_slice(&body).ok()?;
                serde_json::to_value(audit::verdict(request, &body, &limits, keys).ok()?).ok()?
            }
        };
        answer.get("receipt")?.as_str().map(str::to_owned)
    }
}

/// Checks the records file before play: a new run needs none; a resumed one
/// keeps its whole lines (each the game the plan has there). The number of
/// games already written.
pub fn prepare(path: &Path, plan: &Plan, resume: bool) -> Result<usize, String> {
    if !resume {
        File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        return Ok(0);
    }
    let bytes = std::fs::read(path).unwrap_or_default();
    let whole = bytes
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |at| at + 1);
    if whole < bytes.len() {
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        file.set_len(whole as u64)
            .map_err(|e| format!("cannot cut {}: {e}", path.display()))?;
    }
    let lines = read_summaries(path)?;
    for (index, line) in lines.iter().enumerate() {
        let (pairing, pair, leg) = plan.locate(index);
        let [a, b] = plan.pairings.get(pairing).copied().unwrap_or([0, 0]);
        let expected = json!([plan.names.get(a), plan.names.get(b)]);
        if line["pairing"] != expected || line["pair"] != json!(pair) || line["leg"] != json!(leg) {
            return Err(format!(
                "{}: line {} is not the game this run plans there (other bots or --pairs?)",
                path.display(),
                index + 1
            ));
        }
    }
    if lines.len() > plan.games() {
        return Err(format!("{}: more games than the run plans", path.display()));
    }
    Ok(lines.len())
}

/// What the report reads of a line: everything but the record itself, which
/// is skipped unparsed (it is most of the line).
#[derive(serde::Deserialize)]
struct Summary {
    pairing: Value,
    pair: Value,
    leg: Value,
    #[serde(default)]
    forfeit: Option<Value>,
    #[serde(default)]
    stalled: Option<Value>,
    #[serde(default)]
    result: Value,
}

/// Every line of the records file without its `record`: for the report
/// and for `--resume`'s check of the order.
pub fn read_summaries(path: &Path) -> Result<Vec<Value>, String> {
    let file = File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut lines = Vec::new();
    for (n, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
        let summary: Summary = serde_json::from_str(&line)
            .map_err(|e| format!("{} line {}: {e}", path.display(), n + 1))?;
        let mut value = json!({"pairing": summary.pairing, "pair": summary.pair,
            "leg": summary.leg, "result": summary.result});
        if let Some(object) = value.as_object_mut() {
            for (key, field) in [("forfeit", summary.forfeit), ("stalled", summary.stalled)] {
                if let Some(field) = field {
                    object.insert(key.into(), field);
                }
            }
        }
        lines.push(value);
    }
    Ok(lines)
}

/// Every line of the records file.
pub fn read_all(path: &Path) -> Result<Vec<Value>, String> {
    let file = File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut lines = Vec::new();
    for (n, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
        let value = serde_json::from_str(&line)
            .map_err(|e| format!("{} line {}: {e}", path.display(), n + 1))?;
        lines.push(value);
    }
    Ok(lines)
}

/// Appends lines in order.
pub struct Writer {
    file: File,
    next: usize,
}

impl Writer {
    pub fn open(path: &Path, done: usize) -> Result<Writer, String> {
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        Ok(Writer { file, next: done })
    }

    /// The index of the game whose line comes next.
    pub fn next(&self) -> usize {
        self.next
    }

    pub fn write(&mut self, line: &str) -> Result<(), String> {
        self.file
            .write_all(line.as_bytes())
            .map_err(|e| format!("cannot write a record: {e}"))?;
        self.next += 1;
        Ok(())
    }
}

/// The progress bar, on a terminal only.
pub struct Progress(Option<indicatif::ProgressBar>);

impl Progress {
    pub fn new(total: usize, done: usize) -> Progress {
        if !std::io::stderr().is_terminal() {
            return Progress(None);
        }
        let bar = indicatif::ProgressBar::new(total as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games, {per_sec}, {eta} left",
        ) {
            bar.set_style(style);
        }
        bar.set_position(done as u64);
        Progress(Some(bar))
    }

    pub fn advance(&self) {
        if let Some(bar) = &self.0 {
            bar.inc(1);
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish();
        }
    }
}
