//! What the joker solver needs to know of the rules and the hand: the one
//! input both of its paths ([`super::solve`]'s footprint search and
//! [`super::lanes`]'s per-lane tables) read.

/// What the solver needs to know of the rules and the hand's jokers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Params {
    /// Jokers held: 0, 1 or 2.
    pub jokers: u32,
    /// The fewest natural cards in a meld holding a joker (1 to 3).
    pub min_natural: u32,
    /// What an unmelded joker counts.
    pub joker_deadwood: u32,
}
