//! Provably fair deals: a deal derived from a server seed, a client seed and a
//! nonce by a fixed public algorithm, so that anyone holding the seeds can
//! re-derive it, and a commitment (the SHA-256 of the server seed) that a
//! casino publishes before play and that proves the seed was fixed in advance.
//!
//! # The algorithm, `hmac-sha256-fisher-yates-v1`
//!
//! 1. Random bytes: the blocks `HMAC-SHA256(key = the 32 server seed bytes,
//!    message = client_seed + ":" + nonce + ":" + i)` for `i` = 0, 1, 2, ...
//!    (nonce and `i` in ASCII decimal), concatenated, read 4 bytes at a time as
//!    big-endian `u32` values `x`.
//! 2. A uniform integer below `n`: draw `x`; while `x >= 2^32 - (2^32 mod n)`,
//!    draw again; the answer is `x mod n` (rejection removes the modulo bias).
//! 3. The deck before the shuffle: `AS 2S ... KS AH ... KH AD ... KD AC ... KC`.
//!    Fisher-Yates: for `i` from 51 down to 1, `j` = uniform below `i + 1`,
//!    swap `deck[i]` and `deck[j]`.
//! 4. Deal from the front: cards 0, 2, ..., 18 to the non-dealer, 1, 3, ..., 19
//!    to the dealer, card 20 the upcard, cards 21..=51 the stock, top first.
//!
//! With jokers ([`deal_with_jokers`], a profile's `jokers` 1 or 2), the deck
//! before the shuffle is the same 52 cards followed by `X1`, then `X2`; the
//! shuffle runs from the last index (52 or 53) down to 1 and the stock is the
//! rest, 32 or 33 cards. With no joker it is the algorithm above, card for
//! card: the same name covers both, the deck being fixed by the profile.
//!
//! The test vectors in `docs/RULES.md` ("Provably fair deals") were computed
//! by an independent implementation and are pinned in this module's tests.

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use crate::audit::Deal;
use crate::card::{Card, Rank, Suit};
use crate::hand::{HandCard, Joker};

/// The algorithm's name, as answers and records state it.
pub const ALGORITHM: &str = "hmac-sha256-fisher-yates-v1";

/// The largest nonce: 2^53 - 1, the largest integer every JSON reader keeps
/// exactly.
pub const MAX_NONCE: u64 = (1 << 53) - 1;

/// The longest client seed, in bytes of UTF-8.
pub const MAX_CLIENT_SEED_BYTES: usize = 256;

/// The secret a casino keeps: 32 bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct ServerSeed([u8; 32]);

impl std::fmt::Debug for ServerSeed {
    // A seed is secret until revealed: never print it by accident.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ServerSeed(..)")
    }
}

/// Why seeds cannot deal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SeedError {
    /// The server seed is not 64 hexadecimal digits.
    #[error("the server seed must be 64 hexadecimal digits (32 bytes)")]
    ServerSeedFormat,
    /// The client seed is longer than [`MAX_CLIENT_SEED_BYTES`].
    #[error("the client seed is {0} bytes of UTF-8; at most 256 are accepted")]
    ClientSeedTooLong(usize),
    /// The nonce is above [`MAX_NONCE`].
    #[error("the nonce {0} is above 2^53 - 1")]
    NonceTooLarge(u64),
}

impl ServerSeed {
    /// Reads 64 hexadecimal digits (either case).
    pub fn from_hex(text: &str) -> Result<ServerSeed, SeedError> {
        let bytes = text.as_bytes();
        if bytes.len() != 64 {
            return Err(SeedError::ServerSeedFormat);
        }
        let mut seed = [0u8; 32];
        for (byte, pair) in seed.iter_mut().zip(bytes.chunks_exact(2)) {
            let digit = |c: u8| (c as char).to_digit(16).ok_or(SeedError::ServerSeedFormat);
            let [high, low] = pair else {
                return Err(SeedError::ServerSeedFormat);
            };
            *byte = u8::try_from(digit(*high)? * 16 + digit(*low)?)
                .map_err(|_| SeedError::ServerSeedFormat)?;
        }
        Ok(ServerSeed(seed))
    }

    /// The commitment: the lowercase hexadecimal SHA-256 of the 32 seed bytes.
    pub fn commitment(&self) -> String {
        hex(&Sha256::digest(self.0))
    }

    /// Whether this seed is the one a published commitment (64 hexadecimal
    /// digits, either case) was made to: the one check of a revealed seed.
    ///
    /// ```
    /// use gin_rules::fair_deal::{CommitmentError, ServerSeed};
    /// let seed = ServerSeed::from_hex(&"00".repeat(32)).unwrap();
    /// assert_eq!(seed.opens(&seed.commitment().to_uppercase()), Ok(()));
    /// assert_eq!(seed.opens("66687a"), Err(CommitmentError::Format));
    /// assert!(matches!(seed.opens(&"ab".repeat(32)), Err(CommitmentError::Mismatch { .. })));
    /// ```
    pub fn opens(&self, commitment: &str) -> Result<(), CommitmentError> {
        if commitment.len() != 64 || !commitment.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(CommitmentError::Format);
        }
        let actual = self.commitment();
        // Hexadecimal is read in either case.
        if actual.eq_ignore_ascii_case(commitment) {
            Ok(())
        } else {
            Err(CommitmentError::Mismatch {
                actual,
                committed: commitment.to_owned(),
            })
        }
    }
}

/// Why a server seed does not open a commitment ([`ServerSeed::opens`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommitmentError {
    /// The commitment is not 64 hexadecimal digits.
    #[error("the commitment must be 64 hexadecimal digits (a SHA-256)")]
    Format,
    /// The seed hashes to another commitment: the deal is not the one
    /// committed to.
    #[error(
        "the server seed hashes to {actual}, not to the commitment {committed}: \
         the deal is not the one committed to"
    )]
    Mismatch {
        /// The seed's own commitment, lowercase.
        actual: String,
        /// The commitment as given.
        committed: String,
    },
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for &byte in bytes {
        for nibble in [byte >> 4, byte & 15] {
            if let Some(&digit) = DIGITS.get(usize::from(nibble)) {
                text.push(char::from(digit));
            }
        }
    }
    text
}

/// The stream of `u32` values of step 1.
struct Stream<'a> {
    seed: &'a ServerSeed,
    client_seed: &'a str,
    nonce: u64,
    block: u64,
    bytes: [u8; 32],
    used: usize,
}

impl Stream<'_> {
    fn next_u32(&mut self) -> u32 {
        if self.used + 4 > self.bytes.len() {
            self.refill();
        }
        let mut word = [0u8; 4];
        if let Some(chunk) = self.bytes.get(self.used..self.used + 4) {
            word.copy_from_slice(chunk);
        }
        self.used += 4;
        u32::from_be_bytes(word)
    }

    fn refill(&mut self) {
        // HMAC takes a key of any length; a 32-byte key never fails.
        if let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(&self.seed.0) {
            mac.update(format!("{}:{}:{}", self.client_seed, self.nonce, self.block).as_bytes());
            self.bytes.copy_from_slice(&mac.finalize().into_bytes());
        }
        self.block += 1;
        self.used = 0;
    }

    /// A uniform integer below `n` (step 2); `n` is at most 52 here.
    fn below(&mut self, n: u32) -> u32 {
        let n = n.max(1);
        let limit = u64::from(u32::MAX) + 1 - (u64::from(u32::MAX) + 1) % u64::from(n);
        loop {
            let x = self.next_u32();
            if u64::from(x) < limit {
                return x % n;
            }
        }
    }
}

/// The deck in the algorithm's starting order.
fn ordered_deck() -> Vec<Card> {
    Suit::ALL
        .into_iter()
        .flat_map(|suit| {
            (1..=13).filter_map(move |r| Rank::new(r).map(|rank| Card::new(rank, suit)))
        })
        .collect()
}

/// The deal for these seeds and nonce (see the module docs).
///
/// ```
/// use gin_rules::fair_deal::{deal, ServerSeed};
/// let seed = ServerSeed::from_hex(&"00".repeat(32)).unwrap();
/// let dealt = deal(&seed, "player", 0).unwrap();
/// assert_eq!((dealt.dealer.len(), dealt.non_dealer.len(), dealt.stock.len()), (10, 10, 31));
/// ```
pub fn deal(seed: &ServerSeed, client_seed: &str, nonce: u64) -> Result<Deal, SeedError> {
    deal_with_jokers(seed, client_seed, nonce, 0)
}

/// The deal for these seeds and nonce from a deck with `jokers` jokers (0,
/// 1 or 2; more are read as 2): see the module docs.
///
/// ```
/// use gin_rules::fair_deal::{deal_with_jokers, ServerSeed};
/// let seed = ServerSeed::from_hex(&"00".repeat(32)).unwrap();
/// let dealt = deal_with_jokers(&seed, "player", 0, 2).unwrap();
/// assert_eq!(dealt.stock.len(), 33);
/// ```
pub fn deal_with_jokers(
    seed: &ServerSeed,
    client_seed: &str,
    nonce: u64,
    jokers: u8,
) -> Result<Deal, SeedError> {
    if client_seed.len() > MAX_CLIENT_SEED_BYTES {
        return Err(SeedError::ClientSeedTooLong(client_seed.len()));
    }
    if nonce > MAX_NONCE {
        return Err(SeedError::NonceTooLarge(nonce));
    }
    let mut stream = Stream {
        seed,
        client_seed,
        nonce,
        block: 0,
        bytes: [0; 32],
        used: 32,
    };
    let mut deck: Vec<HandCard> = ordered_deck().into_iter().map(HandCard::from).collect();
    deck.extend(
        Joker::ALL
            .into_iter()
            .take(usize::from(jokers))
            .map(HandCard::from),
    );
    for i in (1..deck.len()).rev() {
        let j = stream.below(i as u32 + 1) as usize;
        deck.swap(i, j);
    }
    let mut cards = deck.into_iter();
    let mut dealer = Vec::with_capacity(10);
    let mut non_dealer = Vec::with_capacity(10);
    for _ in 0..10 {
        non_dealer.extend(cards.next());
        dealer.extend(cards.next());
    }
    let upcard = cards
        .next()
        .unwrap_or(HandCard::Natural(Card::new(Rank::ACE, Suit::Spades)));
    Ok(Deal {
        dealer,
        non_dealer,
        upcard,
        stock: cards.collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(cards: &[HandCard]) -> String {
        cards
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn the_commitment_is_the_sha256_of_the_seed_bytes() {
        // SHA-256 of 32 zero bytes.
        let seed = ServerSeed::from_hex(&"00".repeat(32)).unwrap();
        assert_eq!(
            seed.commitment(),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
    }

    #[test]
    fn a_seed_opens_its_own_commitment_only() {
        let seed = ServerSeed::from_hex(&"00".repeat(32)).unwrap();
        let other = ServerSeed::from_hex(&"01".repeat(32)).unwrap();
        assert_eq!(seed.opens(&seed.commitment()), Ok(()));
        assert_eq!(seed.opens(&seed.commitment().to_uppercase()), Ok(()));
        assert_eq!(
            seed.opens(&other.commitment()).unwrap_err().to_string(),
            format!(
                "the server seed hashes to {}, not to the commitment {}: the deal is not the \
                 one committed to",
                seed.commitment(),
                other.commitment()
            )
        );
        for bad in ["", "00", &"0g".repeat(32), &"0".repeat(65), &"é".repeat(32)] {
            assert_eq!(seed.opens(bad), Err(CommitmentError::Format), "{bad}");
        }
    }

    #[test]
    fn seeds_are_checked() {
        assert_eq!(ServerSeed::from_hex("00"), Err(SeedError::ServerSeedFormat));
        assert_eq!(
            ServerSeed::from_hex(&"0g".repeat(32)),
            Err(SeedError::ServerSeedFormat)
        );
        assert!(ServerSeed::from_hex(&"Ab".repeat(32)).is_ok());
        let seed = ServerSeed::from_hex(&"00".repeat(32)).unwrap();
        assert_eq!(
            deal(&seed, &"x".repeat(257), 0),
            Err(SeedError::ClientSeedTooLong(257))
        );
        assert_eq!(
            deal(&seed, "", MAX_NONCE + 1),
            Err(SeedError::NonceTooLarge(MAX_NONCE + 1))
        );
        assert!(deal(&seed, &"x".repeat(256), MAX_NONCE).is_ok());
    }

    #[test]
    fn a_deal_holds_every_card_once() {
        let seed = ServerSeed::from_hex(&"5a".repeat(32)).unwrap();
        for nonce in 0..50 {
            let dealt = deal(&seed, "client", nonce).unwrap();
            let mut all: Vec<HandCard> = [
                dealt.dealer,
                dealt.non_dealer,
                vec![dealt.upcard],
                dealt.stock,
            ]
            .concat();
            all.sort();
            all.dedup();
            assert_eq!(all.len(), 52);
        }
    }

    include!("fair_deal_vectors.rs");

    /// Vectors with jokers, from `scripts/fair_deal_vectors.py` (Python's
    /// `hmac` and `hashlib`): (jokers, non-dealer, dealer, upcard, stock) for
    /// the server seed of 32 zero bytes, client seed "player", nonce 0, and
    /// the seed of 32 0x5a bytes, "client", nonce 7 (two jokers).
    #[test]
    fn deals_with_jokers_come_out_as_the_independent_script_computes_them() {
        let zero = ServerSeed::from_hex(&"00".repeat(32)).unwrap();
        let five_a = ServerSeed::from_hex(&"5a".repeat(32)).unwrap();
        let vectors = [
            (
                &zero,
                "player",
                0,
                1,
                "9C 7H TD 7D 4D QC 5D AC 9H KC",
                "5S 4S X1 AD 5C 6C 8S KD 3D 7C",
                "JD",
                "TS 8D 9D 7S 6H 3H 3C QH 2H 5H 4H JS 2C KS 9S TC QD KH JC TH 8C 3S 8H 2D AH 2S 6D JH QS 4C 6S AS",
            ),
            (
                &zero,
                "player",
                0,
                2,
                "2D AD 4S 3S 5S KD 9S AH 8S 3C",
                "9D 2S 4C 7S 6H 6C KS AC JH QS",
                "2C",
                "JS 8D 7D 4H 4D KH 9C AS TD 7H 9H 3D X2 TC QH QC 5D QD 8C 6D 8H TS 5C JC 6S 2H KC 5H X1 TH 7C 3H JD",
            ),
            (
                &five_a,
                "client",
                7,
                2,
                "7H 5S X1 3C 3D AC 2D 5H 3S AD",
                "TD 4C X2 4S 7S TC JS 9H 8S QS",
                "8C",
                "6S AH 7D QD 6H KD TH 8H JD 6C 9D 8D 4D 3H JC TS 2C 9S 4H 2H 6D KH KS 5C KC JH 5D QC AS 9C 2S 7C QH",
            ),
        ];
        for (seed, client, nonce, jokers, non_dealer, dealer, upcard, stock) in vectors {
            let dealt = deal_with_jokers(seed, client, nonce, jokers).unwrap();
            assert_eq!(text(&dealt.non_dealer), non_dealer, "{jokers}");
            assert_eq!(text(&dealt.dealer), dealer, "{jokers}");
            assert_eq!(dealt.upcard.to_string(), upcard, "{jokers}");
            assert_eq!(text(&dealt.stock), stock, "{jokers}");
        }
        // No joker: the 52-card algorithm, card for card.
        assert_eq!(
            deal_with_jokers(&zero, "player", 0, 0),
            deal(&zero, "player", 0)
        );
    }
}
