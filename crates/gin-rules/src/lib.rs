//! The referee: cards, melds, optimal deadwood, layoffs, hand and match scoring
//! under rule profiles. Pure Rust with no web types, usable as a library.
//!
//! Glossary: a *meld* is a set (3-4 cards of one rank) or a run (3+ consecutive
//! cards of one suit, ace low); *deadwood* is the cards in no meld and their
//! *count* the sum of their values (ace 1, courts 10). Rules: `docs/RULES.md`.
//!
//! Every function is total: bad input is an error value, never a panic, so a
//! service can pass client data straight in.
//!
//! # A tour
//!
//! **Cards.** A card parses from its notation (rank then suit, upper or lower
//! case, `T` or `10`, suit letters or symbols) and prints canonically; a hand is
//! a [`CardSet`] of distinct cards.
//!
//! ```
//! use gin_rules::{cards, Card, CardsError};
//! let ten: Card = "10h".parse()?;
//! assert_eq!((ten.to_string(), ten.value()), ("TH".to_string(), 10));
//! let hand = cards("7S 7H 7D 7C 8H 9H KS QD 2C 3D")?;
//! assert_eq!(hand.len(), 10);
//! assert!(matches!(cards("7S 7s"), Err(CardsError::Duplicate(_))));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **Analysing a hand.** A [`Hand`] holds natural cards and, under a profile
//! with jokers, `X1` and `X2`; a [`CardSet`] converts into one. [`min_deadwood`]
//! is the least count over every arrangement, [`best_arrangement`] one
//! arrangement reaching it, and [`analyze_drawn_hand`] the best discards of an
//! 11-card hand. The [`JokerRules`] of the profile say what a joker may do;
//! a hand without one takes the joker-free fast path whatever they are.
//!
//! ```
//! use gin_rules::{analyze_drawn_hand, best_arrangement, cards, min_deadwood, JokerRules};
//! // The seven of hearts goes to the heart run; the other sevens still meld.
//! let hand = cards("7S 7H 7D 7C 8H 9H KS QD 2C 3D")?;
//! assert_eq!(min_deadwood(hand, &JokerRules::NONE), 25);
//! let best = best_arrangement(hand, &JokerRules::NONE);
//! assert_eq!((best.melds.len(), best.deadwood), (2, 25));
//! // Right after the draw: discarding the nine of clubs leaves 8.
//! let drawn = analyze_drawn_hand(cards("3S 4S 5S 6S KS KH KD KC 2D 6C 9C")?, &JokerRules::NONE);
//! assert_eq!(drawn.deadwood, 8);
//! assert_eq!(drawn.discards[0].card.to_string(), "9C");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **Laying off.** Against the knocker's melds, [`best_reply`] finds the
//! defender's melds and layoffs that leave the least deadwood.
//!
//! ```
//! use gin_rules::{best_arrangement, best_reply, cards, JokerRules};
//! let knocker = best_arrangement(cards("4H 5H 6H KS KH KD 2C 3C AD 2D")?, &JokerRules::NONE);
//! assert_eq!(knocker.deadwood, 8);
//! let defender = cards("7H 8H KC 9S 9D 9C 4S 5D QD JC")?;
//! let reply = best_reply(&knocker.melds, defender, &JokerRules::NONE, true);
//! // 7H and 8H extend the heart run, KC joins the kings; the nines meld.
//! assert_eq!(reply.layoffs.len(), 3);
//! assert_eq!(reply.deadwood(), 4 + 5 + 10 + 10);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **Scoring a hand.** [`score_hand`] lays both hands down under a [`Profile`]
//! (declared melds and layoffs are checked, missing ones played best) and
//! settles the points.
//!
//! ```
//! use gin_rules::{cards, score_hand, DefenderHand, KnockerHand, Outcome, Profile, Side};
//! let knocker = KnockerHand::of_cards(cards("4H 5H 6H KS KH KD 2C 3C AD 2D")?);
//! let defender = DefenderHand::of_cards(cards("7H 8H KC 9S 9D 9C 4S 5D QD JC")?);
//! let score = score_hand(&Profile::default(), None, &knocker, &defender)?;
//! let settlement = score.settlement;
//! assert_eq!((settlement.outcome, settlement.winner), (Outcome::Knock, Side::Knocker));
//! assert_eq!(settlement.points, 29 - 8);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **Scoring a match.** [`score_match`] keeps the running totals hand by hand
//! and settles the game with its box, game and shutout bonuses.
//!
//! ```
//! use gin_rules::{score_match, CountHand, MatchHand, Players, Preset};
//! let knock = |knocker: &str, knocker_deadwood, defender_deadwood| {
//!     MatchHand::Counts(CountHand {
//!         knocker: knocker.into(),
//!         knocker_deadwood,
//!         defender_deadwood,
//!         big_gin: false,
//!         upcard: None,
//!     })
//! };
//! let hands = [
//!     knock("Mom", 5, 15), knock("Mom", 0, 6), knock("Mom", 4, 2),
//!     knock("Mom", 10, 43), knock("Dad", 0, 10), knock("Mom", 0, 11),
//! ];
//! let players = Players::new("Mom".to_string(), "Dad".to_string());
//! let score = score_match(&Preset::Standard.profile(), &players, &hands)?;
//! assert_eq!(score.final_tally.map(|t| t.total), [310, 112]);
//! assert_eq!((score.winner, score.net), (Some(0), Some(198)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **Auditing a hand.** [`audit_hand`] replays a recorded hand from the deal
//! and reports the first illegal action, or how the hand ended.
//!
//! ```
//! use gin_rules::{audit_hand, Action, Card, Deal, Move, Profile, Seat, Source, HandCard};
//! let deck: Vec<HandCard> = Card::deck().map(HandCard::from).collect();
//! let deal = Deal {
//!     dealer: deck[0..10].to_vec(),
//!     non_dealer: deck[10..20].to_vec(),
//!     upcard: deck[20],
//!     stock: deck[21..].to_vec(),
//! };
//! let pass = |player| Action { player, play: Move::Pass };
//! let draw = |player| Action { player, play: Move::Draw { from: Source::Stock, card: None } };
//! let standard = Profile::default();
//! // Both pass the upcard, then the non-dealer draws first: legal so far.
//! let opening = [pass(Seat::NonDealer), pass(Seat::Dealer), draw(Seat::NonDealer)];
//! let audit = audit_hand(&standard, &deal, &opening)?;
//! assert!(audit.is_legal() && audit.end.is_none());
//! // After the two passes the dealer may not draw first.
//! let out_of_turn = [pass(Seat::NonDealer), pass(Seat::Dealer), draw(Seat::Dealer)];
//! let violation = audit_hand(&standard, &deal, &out_of_turn)?.violation;
//! assert_eq!(violation.map(|v| (v.action, v.code.as_str())), Some((Some(2), "wrong_player")));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **The live state.** [`hand_state`] replays the same record with the same
//! turn machine and answers what a game server asks before every move: the
//! phase, who acts, every action that player may take, and the table as one
//! seat (or the referee) sees it.
//!
//! ```
//! use gin_rules::{hand_state, Card, Deal, HandCard, LegalKind, Profile, Seat, StatePhase};
//! let deck: Vec<HandCard> = Card::deck().map(HandCard::from).collect();
//! let deal = Deal {
//!     dealer: deck[0..10].to_vec(),
//!     non_dealer: deck[10..20].to_vec(),
//!     upcard: deck[20],
//!     stock: deck[21..].to_vec(),
//! };
//! let state = hand_state(&Profile::default(), &deal, &[], Some(Seat::NonDealer))?;
//! assert_eq!((state.phase, state.to_act), (StatePhase::UpcardOffer, Some(Seat::NonDealer)));
//! let kinds: Vec<LegalKind> = state.legal_actions.iter().map(|a| a.kind).collect();
//! assert_eq!(kinds, [LegalKind::Pass, LegalKind::TakeDiscard]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **Auditing a match.** [`audit_match`] audits each recorded hand as
//! [`audit_hand`] does, checks who deals (and, for seeded deals, the seeds),
//! and scores the hands that ended with the format's scorer, in any format
//! (two players, three, partnerships: the seats name it).
//!
//! ```
//! use gin_rules::{audit_match, Action, Card, Deal, HandCard, Move, Players, Profile};
//! use gin_rules::{RecordedHand, Seat, Source};
//! let deck: Vec<HandCard> = Card::deck().map(HandCard::from).collect();
//! let deal = Deal {
//!     dealer: deck[0..10].to_vec(),
//!     non_dealer: deck[10..20].to_vec(),
//!     upcard: deck[20],
//!     stock: deck[21..].to_vec(),
//! };
//! let pass = |player| Action { player, play: Move::Pass };
//! let draw = |player| Action { player, play: Move::Draw { from: Source::Stock, card: None } };
//! let hand = RecordedHand {
//!     dealer: "Dad".to_string(),
//!     non_dealer: None,
//!     deal,
//!     seeds: None,
//!     actions: vec![pass(Seat::NonDealer), pass(Seat::Dealer), draw(Seat::Dealer)],
//! };
//! let players = Players::new("Mom".to_string(), "Dad".to_string());
//! let audit = audit_match(&Profile::default(), &players, &[hand])?;
//! let found = audit.violation.map(|v| (v.hand, v.violation.code.as_str()));
//! assert_eq!(found, Some((0, "wrong_player")));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **Jokers.** An opt-in profile (`jokers`, or `jokers: 1` or `2` on any
//! preset) adds wild jokers `X1` and `X2`. The same functions take them: a
//! melded joker stands for one definite card ([`Meld::stands_for`]).
//!
//! ```
//! use gin_rules::{best_arrangement, parse_hand, Joker, Preset};
//! let rules = Preset::Jokers.profile().joker_rules();
//! let best = best_arrangement(parse_hand("5H X1 7H KS QD 2C")?, &rules);
//! assert_eq!(best.deadwood, 22);
//! assert_eq!(best.melds[0].stands_for(Joker::X1).map(|c| c.to_string()), Some("6H".into()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Modules
//!
//! The functions and types above are re-exported here; each module holds its
//! part whole, with the argument behind it: [`card`] (cards and card sets),
//! [`hand`] (hands with jokers), [`meld`] (melds and checking an arrangement),
//! [`deadwood`] (the least-count searches), [`layoff`] (the defender's reply),
//! [`score`] (laying a knock down and settling it), [`matches`](mod@matches) (match
//! formats and their tallies), [`audit`] (replaying a record, the live state
//! in [`audit::live`], whole matches in [`audit::matches`]), `selfplay` (a
//! held hand played by OpenSpiel's action ids, many of them stepped together;
//! with the `fair-deal` feature), [`profile`] (rule
//! profiles and presets), [`declared`] (checking declared melds) and
//! [`bots`] (players that see one seat's view: `random`, `simple`, `strong`).
//!
//! # Features
//!
//! - `serde` (default): `Serialize`/`Deserialize` for the types that cross a
//!   wire: a card as its canonical notation, a card set or a meld as its list of
//!   cards, profiles and their overrides, hands, layoffs, deals, results.
//! - `openapi`: OpenAPI schemas (utoipa's `ToSchema`) of those same types, with
//!   their docs and examples, so a service documents the types it sends rather
//!   than copies of them.
//! - `proptest`: the strategies of `gin_rules::strategies`, for property tests.
//!
//! Without default features the crate depends on nothing but `thiserror`.

#![deny(missing_docs)]

pub mod audit;
pub mod bots;
#[cfg(feature = "serde")]
pub mod bounded;
pub mod card;
pub mod deadwood;
pub mod declared;
#[cfg(feature = "fair-deal")]
pub mod fair_deal;
pub mod hand;
pub mod layoff;
pub mod matches;
pub mod meld;
#[cfg(feature = "openapi")]
mod openapi;
pub mod profile;
pub mod score;
#[cfg(feature = "fair-deal")]
pub mod selfplay;
mod stands_for;

#[cfg(any(test, feature = "proptest"))]
pub mod strategies;

pub use audit::match_state::{
    LiveFormat, LiveTable, MatchPhase, MatchState, MatchViewer, NextDeal, NextSeeds, Seating,
    SpectatorTable, match_state,
};
pub use audit::matches::{
    Audited, DealSeeds, LastKnock, MatchAudit, MatchAuditError, MatchViolation, RecordedFormat,
    RecordedHand, audit_match, next_dealer,
};
pub use audit::{
    Action, Audit, AuditError, Deal, DealError, DealPart, HandEnd, HandState, JokerPlace, LaidDown,
    LegalAction, LegalKind, LiveHand, Move, RecordedLayoff, Refusal, Seat, Source, StatePhase,
    StoryViewer, Table, View, Violation, ViolationCode, audit_hand, hand_state, story,
};
pub use card::{Card, CardParseError, CardSet, CardsError, DuplicateCard, Rank, Suit, cards};
pub use deadwood::{
    Arrangement, Discard, DrawnHandAnalysis, analyze_drawn_hand, best_arrangement, melds_within,
    min_deadwood, optimal_arrangements,
};
pub use declared::{
    DeclaredFault, DeclaredFaultCode, DeclaredMelds, DeclaredPlace, declared_arrangement,
};
pub use hand::{Hand, HandCard, HandReadFault, Joker, Jokers, ParseHandError, parse_hand};
pub use layoff::{
    DeclaredLayoff, DeclaredReply, DefenderReply, Layoff, ReplyError, best_reply, declared_reply,
};
pub use matches::{
    CardHand, CountError, CountHand, FormatTally, GameScore, MAX_DEFENDER_COUNT, MAX_MATCH_HANDS,
    MatchError, MatchFormat, MatchHand, MatchScore, MatchTally, PartnershipDeal, PartnershipScore,
    PartnershipTally, Player, Players, ScoredDeal, ScoredMatchHand, ScoredSeatedHand, SeatedHand,
    Tally, Team, ThreeScore, ThreeTally, max_defender_count, partnership_pairings, score_match,
};
pub use meld::{
    ArrangementProblem, ArrangementReport, Meld, MeldError, MeldKind, MeldProblem, MeldProblemCode,
    MeldVerdict, check_arrangement,
};
pub use profile::{
    BoxBonusTiming, JOKER_DEADWOOD_VALUES, JokerRules, KnockLimit, MAX_JOKERS, NextDealer, Preset,
    Profile, ProfileError, ProfileOverrides, Settlement, ShutoutRule, ShutoutTest, StockEnd,
};
pub use score::{
    Breakdown, DefenderHand, HandError, HandScore, KnockerHand, Outcome,
    Settlement as HandSettlement, Showdown, Side, knocker_arrangements, score_hand,
    score_laid_down, settle,
};
pub use stands_for::StandsFor;
