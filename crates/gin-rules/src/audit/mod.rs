//! Hand audit: replay one recorded hand from the deal and check every action.
//!
//! Tournament and casino software need to know that a recorded hand was played
//! legally, not only what it scored. [`audit_hand`] replays a [`Deal`] and a list
//! of [`Action`]s under a [`Profile`] and reports the first illegal action (its
//! index, a stable [`ViolationCode`] and a sentence a tournament director can read),
//! or how the hand ended.
//!
//! # The deal
//!
//! Players are named by seat: the *dealer* and the *non-dealer*. A deal is the ten
//! cards of each, the first upcard (the discard pile's only card), and the stock
//! in drawing order, top first: 10 + 10 + 1 + 31 = 52 distinct cards, the whole
//! deck. A recorder usually knows only the stock cards drawn, so the stock may
//! list just its first cards, down to none; a draw past them takes the card the
//! draw names, which must not be in play yet, and the stock still counts 31
//! cards for its end. A deal that cannot be one deck (cards repeated, hands not
//! ten, a stock over 31), or a draw the record cannot tell, is not a player's
//! illegal action: it is a record that cannot be replayed, and [`audit_hand`]
//! refuses it with a [`DealError`] (the HTTP layer answers 422 with a pointer to
//! the offending card).
//!
//! # Actions
//!
//! Each action names the seat that took it and one [`Move`]:
//!
//! - `Pass`: decline the upcard during the first-turn offer, or decline the 50th-
//!   card discard (tournament rule). Nowhere else.
//! - `Draw { from, card }`: take the top card of the stock or of the discard pile.
//!   Taking the upcard during the offer is a draw from the discard pile. Since the
//!   deal fixes every card, `card` is optional; when given it is checked against
//!   the card actually drawn, so that a transcript reads like the hand it records.
//! - `Discard { card }`: end the turn by discarding a card held.
//! - `Knock { discard, melds }`: end the hand. `discard` is the knock card; without
//!   one the knock is big gin (all eleven cards melded, where the profile plays
//!   it). `melds` optionally declares the knocker's arrangement; without it the
//!   referee chooses the knocker's best one, exactly as `/v1/hands/score` does.
//!   Gin is simply a knock that leaves no deadwood.
//! - `LayOff { melds, layoffs }`: the defender's reply to a knock (optional, at
//!   most once). Either part may be declared and is then checked; what is not
//!   declared is played best for the defender, as in `/v1/hands/score`; an empty
//!   list of layoffs declares that nothing is laid off. A layoff names its meld
//!   (the knocker's melds as laid down at the knock: the declared ones, or the
//!   arrangement the referee chose) by index, by cards of the meld, or not at
//!   all; see [`RecordedLayoff`] for how the referee places the unnamed ones.
//!   A violation names the part of the action at fault ([`Violation::field`]).
//!
//! # The procedure checked
//!
//! 1. The upcard offer: the non-dealer may take the upcard or pass; after a pass
//!    the dealer may take it or pass; after two passes the non-dealer draws first,
//!    from the stock. Whoever takes the upcard then discards (or knocks) and the
//!    other player's turn follows.
//! 2. A turn: draw one card (stock or discard pile), then discard or knock. The
//!    card just taken from the discard pile may not be discarded on the same turn,
//!    nor be the knock card.
//! 3. The knock: within the knock limit for the first upcard (Oklahoma), declared
//!    melds legal and held; big gin only where the profile has a big gin bonus.
//!    The knock is scored with [`score_hand`](crate::score_hand), so the result
//!    is exactly what `/v1/hands/score` returns for the final hands.
//! 4. The end of the stock: the player who draws the 50th card (leaving two in
//!    the stock) may still knock. If that player discards instead, the hand is
//!    void under [`StockEnd::Void`](crate::profile::StockEnd::Void); under [`StockEnd::FiftiethCard`](crate::profile::StockEnd::FiftiethCard) the opponent
//!    may take that discard only in order to knock, or pass (void). The last two
//!    stock cards are never drawn.
//! 5. Nothing may follow the end of the hand except the defender's one reply.
//!
//! # Jokers
//!
//! Under a profile with `jokers` 1 or 2 the deck holds 53 or 54 cards: `X1`
//! (and `X2`) may be dealt to either hand, turned as the upcard or lie in the
//! stock, which then holds 32 or 33 cards (a partial stock list is still
//! allowed); the hand still ends when two stock cards remain. A joker is
//! drawn, taken and discarded like any card. A joker the profile's deck does
//! not hold, anywhere in the deal or an action, makes the record one of
//! another game: [`DealError::JokerNotInDeck`] (`joker_not_in_deck`, with its
//! place).
//!
//! - A knock is scored as [`crate::score_hand`] scores the two hands (and as
//!   `/v1/hands/score` does), through the one knock pipeline
//!   ([`HandEnd::Scored`]). The knocker may declare melds holding
//!   jokers, each joker written in its meld and named with the card it stands
//!   for (`Move::Knock`'s `jokers`), checked by
//!   [`crate::declared_arrangement`].
//! - The defender's reply may declare melds holding its jokers, and layoffs
//!   of naturals or jokers (a joker names the card it stands for), checked by
//!   [`crate::declared_reply`]: every card on the table stands for a
//!   distinct card, a knocker's joker fixes what its meld shows, a joker is
//!   laid off only where `joker_layoff` allows. What is not declared is
//!   played best for the defender. A layoff naming its meld by cards
//!   (`onto`) names that meld; the referee then checks such a record in a
//!   playing order (sets, then each run outward), since which cards a meld
//!   ends with decides legality.
//! - A joker turned as the first upcard has no rank and no suit: where the
//!   profile reads the upcard (Oklahoma knock limit, spade doubling) it counts
//!   as a face card that is not a spade, so the knock limit is 10 and nothing
//!   doubles.
//! - `joker_pickup_must_meld`: a joker taken from the discard pile (the
//!   upcard too) must be melded that turn. A player melds only by knocking,
//!   so that turn must end in a knock with the joker in one of the knocker's
//!   melds (declared, or the referee's best arrangement when none are
//!   declared); a discard instead, or a knock leaving the joker in deadwood,
//!   is `joker_not_melded`. A joker drawn from the stock is free.
//!
//! # Decisions
//!
//! - Checks run in a fixed order, so one action has one verdict: the hand already
//!   over (void, or knocked), a layoff with no knock, the seat (out of turn), then
//!   the move itself (the offer's order, draw before discard, the card held, the
//!   card just taken, the expected card, the knock).
//! - During the upcard offer, acting out of order is `upcard_offer_violated`
//!   rather than `wrong_player`: the director wants to know the offer was broken.
//! - A transcript with an illegal action has no result: the verdict is the
//!   violation. A legal transcript that stops before the hand ends has no result
//!   either; one that stops right after a knock is scored with the defender's best
//!   reply, since the reply is optional.
//! - A reply fixes the knocker's melds to those laid down at the knock, because
//!   at the table the knocker spreads before the defender lays off.
//!
//! # Bounds
//!
//! Each action costs O(1) except the knock and the reply, which call
//! [`score_hand`](crate::score_hand) once each; a transcript can be long only by
//! trading discards, and the HTTP layer's body limit bounds it.

use crate::StandsFor;
use std::fmt;

use crate::card::Card;
use crate::hand::{Hand, HandCard};
use crate::layoff::Layoff;
use crate::profile::Profile;
use crate::score::{DefenderHand, HandScore, KnockerHand};

mod deal;
mod held;
pub mod live;
pub(crate) mod match_state;
pub mod matches;
mod referee;
mod shared;
mod story;
#[cfg(test)]
pub(crate) mod tests;
mod violation;

pub use deal::{
    Deal, DealError, DealPart, DealSlot, HAND_SIZE, JokerPlace, STOCK_RESERVE, STOCK_SIZE,
    check_deal, check_deal_with, stock_size,
};
pub use held::{LiveHand, Refusal};
pub use live::{HandState, LaidDown, LegalAction, LegalKind, StatePhase, View};
pub(crate) use referee::scoring_upcard;
use referee::{Referee, Stop};
pub use story::{StoryViewer, story};

pub use violation::{Violation, ViolationCode};

/// A seat at the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Seat {
    /// The player who dealt; the other player acts first.
    Dealer,
    /// The player who did not deal, offered the first upcard first.
    NonDealer,
}

impl Seat {
    /// The other seat.
    pub const fn other(self) -> Seat {
        match self {
            Seat::Dealer => Seat::NonDealer,
            Seat::NonDealer => Seat::Dealer,
        }
    }

    /// The stable name: `dealer` or `non_dealer`.
    pub const fn name(self) -> &'static str {
        match self {
            Seat::Dealer => "dealer",
            Seat::NonDealer => "non_dealer",
        }
    }
}

/// In prose: "the dealer", "the non-dealer".
impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Seat::Dealer => "the dealer",
            Seat::NonDealer => "the non-dealer",
        })
    }
}

/// Where a drawn card comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
// "Source" alone says little among a whole API's schemas.
#[cfg_attr(feature = "openapi", schema(as = DrawSource))]
pub enum Source {
    /// The top card of the stock.
    Stock,
    /// The top card of the discard pile.
    DiscardPile,
}

/// What a player does (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Move {
    /// Decline the upcard offer or the 50th-card discard.
    Pass,
    /// Take the top card of the stock or the discard pile.
    Draw {
        /// Where the card comes from.
        from: Source,
        /// The card the transcript expects, checked against the card drawn;
        /// `None` takes whatever is on top.
        card: Option<HandCard>,
    },
    /// Discard a card held (a joker too), ending the turn.
    Discard {
        /// The card discarded.
        card: HandCard,
    },
    /// Knock, optionally declaring melds.
    Knock {
        /// The knock card, discarded face down; `None` is big gin (all eleven
        /// cards melded).
        discard: Option<HandCard>,
        /// The knocker's melds, a joker written in its meld; `None` lets the
        /// referee choose the knocker's best arrangement.
        melds: Option<Vec<Vec<HandCard>>>,
        /// The card each joker of `melds` stands for.
        jokers: StandsFor,
    },
    /// The defender's reply to a knock, each part optional.
    LayOff {
        /// The defender's own melds; `None` plays them best for the defender.
        melds: Option<Vec<Vec<HandCard>>>,
        /// The card each joker of `melds` stands for.
        jokers: StandsFor,
        /// The cards laid off onto the knocker's melds; `None` plays them best
        /// for the defender, `Some(vec![])` declares that nothing is laid off.
        layoffs: Option<Vec<RecordedLayoff>>,
    },
}

/// A layoff as a record gives it: the card, and the knocker's meld it went
/// onto, named by its index among the melds laid down at the knock, or by
/// (some of) its cards, or not named at all.
///
/// When every layoff names its meld by index, the layoffs are checked in the
/// order given, each against the meld as it has grown. Otherwise the referee
/// places them: each onto a meld the record allows (the one named, or any)
/// such that every knocker meld with its layoffs is still a meld, choosing the
/// first such placement in meld order; the result reports where each went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedLayoff {
    /// The defender's card (or joker) laid off.
    pub card: HandCard,
    /// For a joker, the card it stands for on the table (required). A
    /// natural card stands only for itself: naming another card is
    /// `layoff_does_not_fit`.
    pub stands_for: Option<Card>,
    /// The target meld's index among the knocker's melds, if recorded.
    pub meld: Option<usize>,
    /// Cards of the target meld as laid down at the knock, if recorded (a
    /// joker of the meld names the meld holding it).
    pub onto: Option<Vec<HandCard>>,
}

impl From<Layoff> for RecordedLayoff {
    /// The layoff as played: onto its meld by index, a joker with the card
    /// it stands for.
    fn from(layoff: Layoff) -> RecordedLayoff {
        RecordedLayoff {
            card: layoff.card,
            stands_for: matches!(layoff.card, HandCard::Joker(_)).then_some(layoff.stands_for),
            meld: Some(layoff.meld),
            onto: None,
        }
    }
}

impl Move {
    /// The move as a verb phrase for messages: "discard KS".
    fn phrase(&self) -> String {
        match self {
            Move::Pass => "pass".into(),
            Move::Draw {
                from: Source::Stock,
                ..
            } => "draw from the stock".into(),
            Move::Draw {
                from: Source::DiscardPile,
                ..
            } => "take the top card of the discard pile".into(),
            Move::Discard { card } => format!("discard {card}"),
            Move::Knock {
                discard: Some(card),
                ..
            } => format!("knock (discarding {card})"),
            Move::Knock { discard: None, .. } => "knock without a discard".into(),
            Move::LayOff { .. } => "lay off".into(),
        }
    }
}

/// One recorded action: who did what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Action {
    /// The seat that acted.
    pub player: Seat,
    /// What it did.
    pub play: Move,
}

/// A hand ended by a knock, with everything needed to re-score it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoredHand {
    /// The seat that knocked.
    pub knocker: Seat,
    /// Index of the knock action.
    pub knock_action: usize,
    /// Exactly what [`score_hand`](crate::score_hand) was given: `score` equals
    /// `score_hand(profile, Some(upcard), &knocker_hand, &defender_hand)`.
    pub knocker_hand: KnockerHand,
    /// The defender's hand and reply, as scored.
    pub defender_hand: DefenderHand,
    /// The score of the hand.
    pub score: HandScore,
}

/// How a legal hand ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HandEnd {
    /// No knock before the stock's last two cards: no points. `action` is the
    /// action that made it void (the discard of the 50th card, or the pass of the
    /// 50th-card discard).
    Void {
        /// The index of that action.
        action: usize,
    },
    /// A knock, scored.
    Scored(Box<ScoredHand>),
}

impl HandEnd {
    /// The knocker, the index of the knock and the settlement of a scored
    /// hand, with or without jokers.
    pub fn knock(&self) -> Option<(Seat, usize, &crate::score::Settlement)> {
        match self {
            HandEnd::Void { .. } => None,
            HandEnd::Scored(hand) => {
                Some((hand.knocker, hand.knock_action, &hand.score.settlement))
            }
        }
    }
}

/// The table when the replay stopped: after the last action, or just before the
/// illegal one.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Table {
    /// The dealer's cards, jokers last.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<HandCard>))]
    pub dealer: Hand,
    /// The non-dealer's cards, jokers last.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<HandCard>))]
    pub non_dealer: Hand,
    /// Cards left in the stock.
    #[cfg_attr(feature = "openapi", schema(example = 30))]
    pub stock_remaining: usize,
    /// The top card of the discard pile, if any.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<HandCard>))]
    pub discard_top: Option<HandCard>,
    /// Who acts next; null once the hand is over (the defender may still reply to
    /// a knock).
    pub to_act: Option<Seat>,
}

/// The verdict on a transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Audit {
    /// The first illegal action, if any.
    pub violation: Option<Violation>,
    /// How the hand ended; `None` when a violation was found or the transcript
    /// stops before the end.
    pub end: Option<HandEnd>,
    /// The table when the replay stopped.
    pub table: Table,
}

impl Audit {
    /// No illegal action was found (the transcript may still stop early).
    pub fn is_legal(&self) -> bool {
        self.violation.is_none()
    }
}

/// Why an audit could not be completed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuditError {
    #[error(transparent)]
    /// The deal cannot be replayed.
    Deal(#[from] DealError),
    /// The scorer refused a hand the replay built itself: a bug in the referee,
    /// never a client's fault.
    #[error("the referee's own bookkeeping is inconsistent: {0}")]
    Inconsistent(String),
}

/// Replays a hand and checks every action (see the module docs).
///
/// ```
/// use gin_rules::{audit_hand, cards, Action, Card, Deal, Move, Profile, Seat, Source, HandCard};
/// let deck: Vec<HandCard> = Card::deck().map(HandCard::from).collect();
/// let deal = Deal {
///     dealer: deck[0..10].to_vec(),
///     non_dealer: deck[10..20].to_vec(),
///     upcard: deck[20],
///     stock: deck[21..].to_vec(),
/// };
/// let actions = [
///     Action { player: Seat::NonDealer, play: Move::Pass },
///     // The dealer may take the upcard only after the non-dealer passes:
///     // here the non-dealer draws from the stock too early.
///     Action { player: Seat::NonDealer, play: Move::Draw { from: Source::Stock, card: None } },
/// ];
/// let audit = audit_hand(&Profile::default(), &deal, &actions).unwrap();
/// let violation = audit.violation.unwrap();
/// assert_eq!((violation.action, violation.code.as_str()), (Some(1), "upcard_offer_violated"));
/// ```
pub fn audit_hand(profile: &Profile, deal: &Deal, actions: &[Action]) -> Result<Audit, AuditError> {
    deal::check_jokers(profile.jokers(), deal, actions)?;
    check_deal_with(deal, profile.jokers())?;
    let mut referee = Referee::new(profile, deal);
    for (index, action) in actions.iter().enumerate() {
        match referee.step(index, action) {
            Ok(()) => {}
            Err(Stop::Violation(code, message, field)) => {
                return Ok(Audit {
                    violation: Some(Violation {
                        action: Some(index),
                        code,
                        message,
                        field,
                    }),
                    end: None,
                    table: referee.table(),
                });
            }
            Err(Stop::Inconsistent(error)) => return Err(AuditError::Inconsistent(error)),
            Err(Stop::Deal(error)) => return Err(AuditError::Deal(error)),
        }
    }
    Ok(Audit {
        violation: None,
        end: referee.end(),
        table: referee.table(),
    })
}

/// Where a hand stands and what may be done now: the live referee for a game
/// server or a bot arena ([`HandState`]). The transcript is replayed exactly as [`audit_hand`]
/// replays it, by the same turn machine, which then lists what it accepts
/// next. Listed means accepted by the audit; every other well-formed action
/// is refused, but for two takes that nothing legal could follow: at the
/// 50th-card offer a take is listed only when a knock can follow, and so is
/// the take of a joker that must be melded that turn (the audit accepts such a
/// take and refuses what comes after it). With `seat`, the answer holds only
/// what that seat may know: its cards, the pile, the opponent's cards taken
/// from the pile, the knocker's cards once laid down, both hands once a knock
/// ends the hand; a waiting seat gets no listing, and a violation's message
/// naming a card the seat has not seen is replaced.
///
/// ```
/// use gin_rules::{hand_state, Card, Deal, HandCard, LegalKind, Profile, Seat, StatePhase};
/// let deck: Vec<HandCard> = Card::deck().map(HandCard::from).collect();
/// let deal = Deal {
///     dealer: deck[0..10].to_vec(),
///     non_dealer: deck[10..20].to_vec(),
///     upcard: deck[20],
///     stock: deck[21..].to_vec(),
/// };
/// let state = hand_state(&Profile::default(), &deal, &[], Some(Seat::NonDealer)).unwrap();
/// assert_eq!((state.phase, state.to_act), (StatePhase::UpcardOffer, Some(Seat::NonDealer)));
/// let kinds: Vec<LegalKind> = state.legal_actions.iter().map(|a| a.kind).collect();
/// assert_eq!(kinds, [LegalKind::Pass, LegalKind::TakeDiscard]);
/// // The dealer waits: nothing to do, and nothing of the non-dealer's to see.
/// let dealer = hand_state(&Profile::default(), &deal, &[], Some(Seat::Dealer)).unwrap();
/// assert!(dealer.legal_actions.is_empty());
/// ```
pub fn hand_state(
    profile: &Profile,
    deal: &Deal,
    actions: &[Action],
    seat: Option<Seat>,
) -> Result<HandState, AuditError> {
    deal::check_jokers(profile.jokers(), deal, actions)?;
    check_deal_with(deal, profile.jokers())?;
    let mut referee = Referee::new(profile, deal);
    let mut violation = None;
    for (index, action) in actions.iter().enumerate() {
        match referee.step(index, action) {
            Ok(()) => {}
            Err(Stop::Violation(code, message, field)) => {
                violation = Some(Violation {
                    action: Some(index),
                    code,
                    message,
                    field,
                });
                break;
            }
            Err(Stop::Inconsistent(error)) => return Err(AuditError::Inconsistent(error)),
            Err(Stop::Deal(error)) => return Err(AuditError::Deal(error)),
        }
    }
    Ok(referee.state(violation, seat))
}
