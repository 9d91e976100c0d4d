//! The referee: cards, melds, optimal deadwood, layoffs, hand and match scoring
//! under rule profiles. Pure Rust with no web types, usable as a library.
//!
//! Glossary: a *meld* is a set (3-4 cards of one rank) or a run (3+ consecutive
//! cards of one suit, ace low); *deadwood* is the cards in no meld and their
//! *count* the sum of their values (ace 1, courts 10). Rules: `RULES.md`.

mod audit;
mod card;
mod deadwood;
mod layoff;
mod matches;
mod meld;
#[cfg(feature = "openapi")]
mod openapi;
mod profile;
mod score;

#[cfg(any(test, feature = "proptest"))]
pub mod strategies;

pub use audit::{
    Action, Audit, AuditError, Deal, DealError, DealPart, DealSlot, HAND_SIZE, HandEnd, Move,
    STOCK_RESERVE, STOCK_SIZE, ScoredHand, Seat, Source, Table, Violation, ViolationCode,
    audit_hand, check_deal,
};
pub use card::{
    Card, CardParseError, CardSet, CardSetIter, CardsError, DuplicateCard, Rank, Suit, cards,
};
pub use deadwood::{
    Arrangement, Discard, DrawnHandAnalysis, analyze_drawn_hand, best_arrangement, melds_within,
    min_deadwood, optimal_arrangements,
};
pub use layoff::{
    DefenderReply, Layoff, LayoffError, all_feasible_layoffs, best_reply, check_layoffs,
};
pub use matches::{
    CardHand, CountError, CountHand, GameScore, MAX_DEFENDER_COUNT, MatchError, MatchHand,
    MatchScore, ScoredMatchHand, Tally, score_match,
};
pub use meld::{
    ArrangementProblem, ArrangementReport, Meld, MeldKind, MeldProblem, MeldProblemCode,
    MeldVerdict, check_arrangement,
};
pub use profile::{
    BoxBonusTiming, KnockLimit, MAX_KNOCK_LIMIT, MAX_POINTS_PARAMETER, Preset, Profile,
    ProfileError, ProfileOverrides, Settlement, ShutoutRule, ShutoutTest, StockEnd,
};
pub use score::{
    Breakdown, DefenderHand, HandError, HandScore, KnockerArrangement, KnockerHand, Outcome,
    Settlement as HandSettlement, Showdown, Side, knocker_arrangements, score_hand, settle,
    showdown,
};
