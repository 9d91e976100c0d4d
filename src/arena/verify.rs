//! `gin-referee arena verify --report report.json records.ndjson`: anyone
//! holding a complete run's report and records checks that the server seed
//! the report reveals opens the commitment published at the start, that
//! every hand of every record was dealt from it (client seed and the nonces
//! the line gives), and that every record audits legal (the audit of
//! `POST /v1/matches/audit`, or `/v1/hands/audit` with `--unit hand`).

// The JSON read here is `serde_json::Value`, whose `[]` answers `Null` for a
// missing key or index and never panics (only `IndexMut` can).
#![allow(clippy::indexing_slicing)]

use std::path::Path;

use gin_contract::answers::{audit, match_audit};
use gin_contract::json::from_slice;
use gin_contract::limits::RequestLimits;
use gin_contract::problem::Problem;
use gin_contract::wire::receipt::Keys;
use gin_rules::fair_deal::{self, ServerSeed};
use serde_json::Value;

use super::records::read_all;

/// Checks the run; the first fault found, with its line.
pub fn run(report: &Path, records: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(report)
        .map_err(|e| format!("cannot read {}: {e}", report.display()))?;
    let report: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", "report"))?;
    let deals = &report["deals"];
    let seed_hex = deals["server_seed"]
        .as_str()
        .ok_or("the report reveals no server seed: the run is not complete")?;
    let seed = ServerSeed::from_hex(seed_hex).map_err(|e| format!("server_seed: {e}"))?;
    let commitment = deals["commitment"].as_str().unwrap_or_default();
    seed.opens(commitment)
        .map_err(|e| format!("the server seed does not open the commitment: {e}"))?;
    let client_seed = deals["client_seed"].as_str().unwrap_or_default();
    let hand_unit = report["unit"] == "hand";
    let lines = read_all(records)?;
    if report["games"].as_u64() != Some(lines.len() as u64) {
        return Err(format!(
            "the report counts {} games, the records hold {}",
            report["games"],
            lines.len()
        ));
    }
    let limits = RequestLimits {
        match_hands: gin_rules::MAX_MATCH_HANDS,
        audit_actions: 100_000,
        ..RequestLimits::default()
    };
    for (n, line) in lines.iter().enumerate() {
        check_line(&limits, &seed, client_seed, hand_unit, line)
            .map_err(|why| format!("{} line {}: {why}", records.display(), n + 1))?;
    }
    println!(
        "verified: {} games, every deal from the revealed seed (commitment {commitment}), every record legal",
        lines.len()
    );
    Ok(())
}

fn check_line(
    limits: &RequestLimits,
    seed: &ServerSeed,
    client_seed: &str,
    hand_unit: bool,
    line: &Value,
) -> Result<(), String> {
    let record = &line["record"];
    let nonces: Vec<u64> = line["nonces"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_u64)
        .collect();
    let jokers = jokers_of(record)?;
    let deals: Vec<&Value> = if hand_unit {
        vec![&record["deal"]]
    } else {
        record["hands"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|hand| &hand["deal"])
            .collect()
    };
    if deals.len() > nonces.len() {
        return Err(format!("{} deals and {} nonces", deals.len(), nonces.len()));
    }
    for (k, (given, nonce)) in deals.iter().zip(&nonces).enumerate() {
        let dealt = fair_deal::deal_with_jokers(seed, client_seed, *nonce, jokers)
            .map_err(|e| e.to_string())?;
        if serde_json::to_value(&dealt).ok().as_ref() != Some(*given) {
            return Err(format!("hand {k} is not the deal of nonce {nonce}"));
        }
    }
    let mut body = record.clone();
    if let Some(object) = body.as_object_mut() {
        object.remove("receipt");
    }
    let body = serde_json::to_vec(&body).map_err(|e| e.to_string())?;
    // The audit itself, without the service's body limit: a record of two
    // bots that seldom knock can pass 1 MiB.
    let keys = Keys::default();
    let refused = |problem: Problem| format!("the audit refuses the record: {}", problem.detail);
    let answer = if hand_unit {
        let request = from_slice(&body).map_err(refused)?;
        serde_json::to_value(audit::verdict(request, &body, limits, &keys).map_err(refused)?)
    } else {
        let request = from_slice(&body).map_err(refused)?;
        serde_json::to_value(match_audit::respond(&request, &body, limits, &keys).map_err(refused)?)
    }
    .map_err(|e| e.to_string())?;
    if answer["legal"] != Value::Bool(true) {
        return Err(format!("the record is not legal: {}", answer["violation"]));
    }
    Ok(())
}

/// The jokers of the record's profile (the deck the deals were shuffled from).
fn jokers_of(record: &Value) -> Result<u8, String> {
    let spec = match record.get("profile") {
        None | Some(Value::Null) => None,
        Some(profile) => Some(
            serde_json::from_value::<gin_contract::wire::profile_spec::ProfileSpec>(
                profile.clone(),
            )
            .map_err(|e| format!("profile: {e}"))?,
        ),
    };
    let profile = gin_contract::wire::profile_spec::resolve_profile(spec.as_ref())
        .map_err(|problem| problem.detail)?;
    Ok(profile.jokers())
}
