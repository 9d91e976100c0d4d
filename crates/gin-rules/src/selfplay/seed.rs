//! The deal of a hand drawn from an int: the provably fair deal of server
//! seed SHA-256 of the UTF-8 text `gin-referee/Hand/seed:<n>` (n in
//! decimal), client seed `gin-referee/Hand`, nonce 0, so the same int deals
//! the same cards in every version and any referee can check them. A
//! resample ranks the cards it deals again by their place in the deal of
//! `gin-referee/Hand/resample:<n>` (same client seed and nonce).

use sha2::{Digest, Sha256};

use crate::audit::Deal;
use crate::fair_deal::{self, SeedError, ServerSeed};
use crate::hand::HandCard;

/// The client seed of every deal drawn from an int.
pub const CLIENT_SEED: &str = "gin-referee/Hand";
/// The label of a hand's own deal.
const DEAL_LABEL: &str = "gin-referee/Hand/seed:";
/// The label of a resample's order.
const RESAMPLE_LABEL: &str = "gin-referee/Hand/resample:";

/// The server seed of `label` and `seed`, as 64 lowercase hex digits.
fn labelled(label: &str, seed: u64) -> String {
    Sha256::digest(format!("{label}{seed}").as_bytes())
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// The server seed of the deal drawn from `seed`, as 64 lowercase hex
/// digits (a record gives it with its commitment).
pub fn deal_server_seed(seed: u64) -> String {
    labelled(DEAL_LABEL, seed)
}

/// The deal drawn from `seed`, from a deck with `jokers` jokers.
pub fn seeded_deal(seed: u64, jokers: u8) -> Result<Deal, SeedError> {
    let server = ServerSeed::from_hex(&deal_server_seed(seed))?;
    fair_deal::deal_with_jokers(&server, CLIENT_SEED, 0, jokers)
}

/// The deck (with `jokers` jokers) in the order a resample from `seed`
/// ranks the cards it deals again: the deal's dealer cards, non-dealer
/// cards, upcard, then stock.
pub fn resample_order(seed: u64, jokers: u8) -> Result<Vec<HandCard>, SeedError> {
    let server = ServerSeed::from_hex(&labelled(RESAMPLE_LABEL, seed))?;
    let deal = fair_deal::deal_with_jokers(&server, CLIENT_SEED, 0, jokers)?;
    let mut order = deal.dealer;
    order.extend(deal.non_dealer);
    order.push(deal.upcard);
    order.extend(deal.stock);
    Ok(order)
}
