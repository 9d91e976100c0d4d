//! Ceilings on what one request may ask for, and the cost model they buy.
//!
//! The body limit (`--body-limit`, 64 KiB) bounds what a request costs to *read*;
//! it does not bound what it costs to *answer*: before these ceilings a 64 KiB
//! `/v1/matches/score` with two 16,000-character names and 2,391 void hands
//! answered 306.7 MB (4,676x its size), because every hand's result repeats the
//! names. Every list and string a request carries therefore has a ceiling, in the
//! schema (`maxItems`, `maxLength`) and checked by the handler:
//!
//! | ceiling                                    | default | flag                  | range      |
//! |--------------------------------------------|--------:|-----------------------|------------|
//! | characters in a player name                |      40 | `--max-name-length`   | 1..=1024   |
//! | hands in `/v1/matches/score`               |     500 | `--max-match-hands`   | 1..=10000  |
//! | actions in `/v1/hands/audit`               |     256 | `--max-audit-actions` | 1..=100000 |
//! | melds in `/v1/melds/validate`              |      64 | `--max-melds`         | 1..=10000  |
//! | cards in any card list                     |      52 | (fixed: a deck)       |            |
//! | melds declared for one hand                |      17 | (fixed: 52 / 3)       |            |
//!
//! A request over a ceiling is a 400 `invalid_body` whose error points at the
//! list or string (`/hands`, `/players/0`) with the code `too_many_items` or
//! `too_long`. The document served at `/api-docs/openapi.json` states the
//! ceilings the server runs with; the committed one, the defaults.
//!
//! # What a request within the limits can cost
//!
//! Figures for the defaults; `scripts/cost.py` measures them (BENCHMARKS.md,
//! "Limits and what a request can cost"). "Answer" is the largest body, "work"
//! the most the referee does.
//!
//! - `/v1/hands/analyze`: at most 11 cards, so at most 11 discards, each with one
//!   arrangement, or every optimal arrangement of 10 cards (at most a few dozen:
//!   the set choices of at most three ranks). Answer about 2 KB; work a few
//!   microseconds.
//! - `/v1/layoffs`, `/v1/hands/score`: two hands of 10-11 cards; the knocker's
//!   arrangements are enumerated once (same bound), the defender's best reply is
//!   a search over at most 10 cards. Answer under 2 KB; microseconds.
//! - `/v1/melds/validate`: at most 64 melds of at most 52 cards. Each verdict
//!   echoes its meld's cards and at most one problem per rule broken; a
//!   cross-meld problem names one card and the melds holding it. Measured worst:
//!   64 one-card melds answer 37x their size (17 KB); 64 whole decks 23x
//!   (459 KB). Work linear in the cards.
//! - `/v1/matches/score`: at most 500 hands. Each result carries the winner's
//!   name, the running totals (two names) and, under Hollywood, three games'
//!   running totals: at most 8 names per hand. A name of 40 characters is at most
//!   160 bytes of UTF-8, which is why the name ceiling is 40 and not 64: with 64
//!   four-byte characters a 14-byte `{"void":true}` would answer about 2.2 KB,
//!   over 128x. Measured worst (500 void hands, 40 four-byte characters per name,
//!   Hollywood): 746 KB from 7.4 KB, 101x. Each card hand costs one scoring
//!   (microseconds): a whole request stays under 10 ms of CPU.
//! - `/v1/hands/audit`: at most 256 actions replayed, each in constant time but
//!   the knock (one scoring); the answer is one hand's score and at most one
//!   violation, under 2 KB.
//!
//! Raising a ceiling raises these figures in proportion; the body limit still
//! caps the input, so e.g. `--max-match-hands 10000` lets a 64 KiB body of
//! about 4,600 void hands through (about 3.7 MB answered under Hollywood with
//! one-letter names).

use crate::problem::{ErrorCode, Problem};
#[cfg(feature = "clap")]
use gin_rules::MAX_MATCH_HANDS;

/// Default request-body limit, 64 KiB: the largest legal request (a whole hand
/// transcript for `/v1/hands/audit`) is a few KiB, so this leaves ample room.
pub const DEFAULT_BODY_LIMIT: usize = 64 * 1024;
/// Default body limit of the match audit: a 20-hand match's record with full
/// transcripts is about 60 KiB, so 1 MiB takes a few hundred hands.
pub const DEFAULT_MATCH_AUDIT_BODY_LIMIT: usize = 1024 * 1024;

/// Default longest player name, in characters.
pub const DEFAULT_MAX_NAME_LENGTH: usize = 40;
/// Default most hands in one `/v1/matches/score` request. A match to 100 points
/// rarely takes 30 hands and a Hollywood match rarely 80; 500 leaves room for
/// long matches with many void hands.
pub const DEFAULT_MAX_MATCH_HANDS: usize = 500;
/// Default most actions in one `/v1/hands/audit` transcript. A hand drawn to the
/// end of the stock takes about 70 actions; taking from the discard pile does not
/// shorten the stock, so a legal hand can be longer, rarely past 100.
pub const DEFAULT_MAX_AUDIT_ACTIONS: usize = 256;
/// Default most melds in one `/v1/melds/validate` request: a deck holds at most
/// 17 disjoint melds, so 64 leaves room for checking candidate melds that overlap.
pub const DEFAULT_MAX_MELDS: usize = 64;
/// Most cards in any card list (a deck: a longer list must repeat a card),
/// and most melds declared for one hand (17 disjoint melds of three use 51
/// cards); the rules library refuses longer lists while reading them.
pub use gin_rules::bounded::{MAX_CARDS, MAX_DECLARED_MELDS};

/// The ceilings a request is checked against (see the module docs); a
/// server sets them by flags (the `clap` feature).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct RequestLimits {
    /// Longest player name, in characters (1 to 1024).
    #[cfg_attr(feature = "clap", arg(long = "max-name-length", env = "GIN_REFEREE_MAX_NAME_LENGTH", value_name = "CHARS",
          default_value_t = DEFAULT_MAX_NAME_LENGTH,
          value_parser = ceiling::<1024>))]
    pub name_length: usize,

    /// Most hands in one /v1/matches/score request (1 to 10000, the most the
    /// rules crate scores in one match).
    #[cfg_attr(feature = "clap", arg(long = "max-match-hands", env = "GIN_REFEREE_MAX_MATCH_HANDS", value_name = "N",
          default_value_t = DEFAULT_MAX_MATCH_HANDS,
          value_parser = ceiling::<MAX_MATCH_HANDS>))]
    pub match_hands: usize,

    /// Most actions in one /v1/hands/audit transcript (1 to 100000).
    #[cfg_attr(feature = "clap", arg(long = "max-audit-actions", env = "GIN_REFEREE_MAX_AUDIT_ACTIONS", value_name = "N",
          default_value_t = DEFAULT_MAX_AUDIT_ACTIONS,
          value_parser = ceiling::<100_000>))]
    pub audit_actions: usize,

    /// Most melds in one /v1/melds/validate request (1 to 10000).
    #[cfg_attr(feature = "clap", arg(long = "max-melds", env = "GIN_REFEREE_MAX_MELDS", value_name = "N",
          default_value_t = DEFAULT_MAX_MELDS,
          value_parser = ceiling::<10_000>))]
    pub melds: usize,
}

#[cfg(feature = "clap")]
/// Parses a ceiling flag: a whole number from 1 to `MAX`.
fn ceiling<const MAX: usize>(value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(n) if (1..=MAX).contains(&n) => Ok(n),
        Ok(n) => Err(format!("{n} is not in 1..={MAX}")),
        Err(_) => Err(format!("expected a whole number from 1 to {MAX}")),
    }
}

impl Default for RequestLimits {
    fn default() -> Self {
        RequestLimits {
            name_length: DEFAULT_MAX_NAME_LENGTH,
            match_hands: DEFAULT_MAX_MATCH_HANDS,
            audit_actions: DEFAULT_MAX_AUDIT_ACTIONS,
            melds: DEFAULT_MAX_MELDS,
        }
    }
}

/// `Ok` when `len` items are at most `max`; else the 400 pointing at the list.
pub fn check_items(pointer: &str, what: &str, len: usize, max: usize) -> Result<(), Problem> {
    if len <= max {
        return Ok(());
    }
    let message = format!("{len} {what}; at most {max} are accepted");
    Err(
        Problem::new(ErrorCode::InvalidBody, format!("{pointer}: {message}")).with_error(
            pointer,
            ErrorCode::TooManyItems,
            message,
        ),
    )
}

/// `Ok` when `text` has at most `max` characters; else the 400 pointing at it.
/// The message gives the length, never the text (which may be huge).
pub fn check_length(pointer: &str, text: &str, max: usize) -> Result<(), Problem> {
    let chars = text.chars().count();
    if chars <= max {
        return Ok(());
    }
    let message = format!("{chars} characters; at most {max} are accepted");
    Err(
        Problem::new(ErrorCode::InvalidBody, format!("{pointer}: {message}")).with_error(
            pointer,
            ErrorCode::TooLong,
            message,
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_at_its_ceiling_passes_and_one_more_is_refused_with_a_pointer() {
        assert!(check_items("/hands", "hands", 500, 500).is_ok());
        let problem = check_items("/hands", "hands", 501, 500).unwrap_err();
        assert_eq!(problem.status.as_u16(), 400);
        assert_eq!(problem.errors[0].pointer, "/hands");
        assert_eq!(problem.errors[0].code, "too_many_items");
        assert!(problem.errors[0].message.contains("501 hands"));
    }

    #[cfg(feature = "clap")]
    #[test]
    fn ceilings_outside_their_range_are_refused() {
        assert_eq!(ceiling::<1024>("1024"), Ok(1024));
        assert!(ceiling::<1024>("1025").is_err());
        assert!(ceiling::<1024>("0").is_err());
        assert!(ceiling::<1024>("-3").is_err());
    }

    #[test]
    fn a_long_name_is_measured_in_characters_and_never_echoed() {
        assert!(check_length("/players/0", &"é".repeat(40), 40).is_ok());
        let name = "x".repeat(16_000);
        let problem = check_length("/players/0", &name, 40).unwrap_err();
        assert_eq!(problem.errors[0].code, "too_long");
        assert!(
            problem.body().len() < 500,
            "the answer must not echo the name"
        );
    }
}
