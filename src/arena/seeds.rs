//! The run's server seed: drawn from the operating system, kept in a file
//! only the arena's user can read (mode 0600, created anew: an existing file
//! is refused unless `--resume` reads it), committed before the first deal
//! and revealed in the report only once every planned game is played.
//!
//! Nonces: the pair `p` of the pairing `k` (both counted from 0, pairings in
//! the order the bots are given, `pairs` pairs each) deals its hands from the
//! block starting at `(k * pairs + p) * NONCE_BLOCK`, hand `h` of a match
//! taking nonce `start + h`. A pair's two games take the same nonces, hence
//! the same deals, with the seats swapped.

use std::fs::OpenOptions;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use gin_rules::fair_deal::ServerSeed;

use super::play::MAX_HANDS;

/// Nonces in each pair's block: more than a match may deal.
pub const NONCE_BLOCK: u64 = 1024;
const _: () = assert!(MAX_HANDS <= NONCE_BLOCK);

/// The first nonce of a pair's block.
pub fn nonce_base(pairing: usize, pairs: usize, pair: usize) -> u64 {
    ((pairing * pairs + pair) as u64) * NONCE_BLOCK
}

/// A new seed, written to `path` (which must not exist), as 64 hex digits.
pub fn create(path: &Path) -> Result<(ServerSeed, String), String> {
    let mut bytes = [0u8; 32];
    getrandom::getrandom(&mut bytes).map_err(|e| format!("no randomness for the seed: {e}"))?;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let seed = ServerSeed::from_hex(&hex).map_err(|e| e.to_string())?;
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .map_err(|e| format!("cannot create the seed file {}: {e}", path.display()))?;
    file.write_all(format!("{hex}\n").as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(|e| format!("cannot write the seed file {}: {e}", path.display()))?;
    Ok((seed, hex))
}

/// The seed kept at `path`.
pub fn read(path: &Path) -> Result<(ServerSeed, String), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the seed file {}: {e}", path.display()))?;
    let hex = text.trim().to_owned();
    let seed = ServerSeed::from_hex(&hex)
        .map_err(|e| format!("the seed file {} does not hold a seed: {e}", path.display()))?;
    Ok((seed, hex))
}
