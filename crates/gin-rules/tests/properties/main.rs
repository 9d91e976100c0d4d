//! Property tests of the rules engine through its public API only.
//!
//! - [`oracle`]: the deadwood solver and the card parser against a deliberately
//!   naive brute-force solver (every subset, every collection of disjoint melds).
//! - [`oracle_play`]: the defender's best reply and the knocker's arrangement
//!   choice against a naive oracle that tries every order of layoffs.
//! - [`drawn`]: the 11-card analysis against the per-discard computation it
//!   replaced, on random and dense hands and exhaustively on dense families.
//! - [`wild_oracle`]: the wild-card (joker) solver against a naive oracle that
//!   tries every meld of every subset with every card a joker could stand for.
//! - [`fuzz`]: arbitrary input and arbitrary legal hands through every entry
//!   point: no panic, and the invariants a caller relies on.
//! - [`same_layoffs`]: every public entry that lays off lists the same
//!   layoffs in the same order for the same hands, with and without jokers.
//! - [`toy_format`]: a match format defined outside the crate, scored
//!   through the public `MatchFormat`.
//!
//! The oracles share no code with the engine: cards cross over as text through
//! the public parser, or through the public `Card` accessors. One binary, so the
//! whole suite links once.
//!
//! Failures are saved under `tests/proptest-regressions/` (proptest's default
//! location for sources under this directory) and replayed first on every run.

// Test code throughout: a failed unwrap, expect or index, or a panic, is how a
// property reports a counterexample. clippy.toml allows these inside `#[test]`
// functions; the oracles and helpers outside them are test code as well.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod drawn;
mod fuzz;
mod live;
mod oracle;
mod oracle_play;
mod same_layoffs;
mod toy_format;
mod wild_oracle;
