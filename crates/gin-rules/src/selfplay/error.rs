//! Why a batch of hands could not be made or stepped.

/// Why a batch could not be made or stepped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BatchError {
    /// OpenSpiel's ids number the natural cards only.
    #[error(
        "the profile plays with {0} joker(s): OpenSpiel's gin_rummy ids number the 52 natural \
         cards only"
    )]
    Jokers(u8),
    /// An array does not hold one row per hand.
    #[error("{what} holds {got} values; {want} were expected (one row per hand)")]
    Shape {
        /// Which array.
        what: &'static str,
        /// Its length.
        got: usize,
        /// The length of one row per hand.
        want: usize,
    },
    /// A seeded deal could not be dealt (never expected: the seeds are
    /// the module's own).
    #[error("a seeded deal could not be dealt: {0}")]
    Deal(String),
    /// The bot could not play (never expected: it plays a listed action).
    #[error("the bot could not play: {0}")]
    Bot(String),
    /// A thread stepping some rows stopped.
    #[error("a thread stepping the hands stopped")]
    Thread,
}
