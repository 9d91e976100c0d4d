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
//! deck. A deal that is not that is not a player's illegal action, it is a record
//! that cannot be replayed: [`audit_hand`] refuses it with a [`DealError`] (the
//! HTTP layer answers 422 with a pointer to the offending card).
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
//!   declared is played best for the defender, as in `/v1/hands/score`. Layoff
//!   meld indices refer to the knocker's melds as laid down at the knock: the
//!   declared ones, or the arrangement the referee chose (reported in the result).
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
//!    The knock is scored with [`score_hand`], so the result is exactly what
//!    `/v1/hands/score` returns for the final hands.
//! 4. The end of the stock: the player who draws the 50th card (leaving two in
//!    the stock) may still knock. If that player discards instead, the hand is
//!    void under [`StockEnd::Void`]; under [`StockEnd::FiftiethCard`] the opponent
//!    may take that discard only in order to knock, or pass (void). The last two
//!    stock cards are never drawn.
//! 5. Nothing may follow the end of the hand except the defender's one reply.
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
//! [`score_hand`] once each; a transcript can be long only by trading discards,
//! and the HTTP layer's body limit bounds it.

use std::fmt;

use super::card::{Card, CardSet};
use super::layoff::{Layoff, LayoffError};
use super::meld::ArrangementReport;
use super::profile::{Profile, StockEnd};
use super::score::{DefenderHand, HandError, HandScore, KnockerHand, score_hand};

/// Cards dealt to each player.
pub const HAND_SIZE: usize = 10;
/// Cards in the stock after the deal: 52 - 2 x 10 - the upcard.
pub const STOCK_SIZE: usize = 31;
/// Stock cards that are never drawn: once only these remain, the hand is over
/// unless the player who drew the 50th card knocks (or, under the 50th-card rule,
/// the opponent takes that player's discard to knock).
pub const STOCK_RESERVE: usize = 2;

/// A seat at the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    Dealer,
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

    const fn index(self) -> usize {
        match self {
            Seat::Dealer => 0,
            Seat::NonDealer => 1,
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

/// The cards as dealt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deal {
    /// The dealer's ten cards.
    pub dealer: Vec<Card>,
    /// The non-dealer's ten cards.
    pub non_dealer: Vec<Card>,
    /// The first upcard: the discard pile's only card when play starts.
    pub upcard: Card,
    /// The stock in drawing order, top card first.
    pub stock: Vec<Card>,
}

/// A part of the deal, for locating a fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DealPart {
    Hand(Seat),
    Upcard,
    Stock,
}

impl fmt::Display for DealPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DealPart::Hand(seat) => write!(f, "{seat}'s hand"),
            DealPart::Upcard => f.write_str("the upcard"),
            DealPart::Stock => f.write_str("the stock"),
        }
    }
}

/// One card's place in the deal: the part and the position in it (0 for the upcard).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DealSlot {
    pub part: DealPart,
    pub index: usize,
}

impl fmt::Display for DealSlot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.part {
            DealPart::Upcard => write!(f, "{}", self.part),
            part => write!(f, "{part} at position {}", self.index),
        }
    }
}

/// Why a deal cannot be replayed. Not a player's violation: the record itself is
/// impossible.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    #[error("{part} must have {expected} cards, not {found}")]
    WrongCardCount {
        part: DealPart,
        expected: usize,
        found: usize,
    },
    #[error("{card} is dealt twice: in {first} and in {second}")]
    DuplicateCard {
        card: Card,
        first: DealSlot,
        second: DealSlot,
    },
}

impl DealError {
    /// Stable machine-readable code (the same codes `/v1/hands/score` uses).
    pub const fn code(&self) -> &'static str {
        match self {
            DealError::WrongCardCount { .. } => "wrong_card_count",
            DealError::DuplicateCard { .. } => "duplicate_card",
        }
    }
}

/// Checks a deal: 10 cards each, 31 in the stock, all 52 distinct (so the whole
/// deck). Counts are checked first, then repeats in reading order: dealer,
/// non-dealer, upcard, stock.
pub fn check_deal(deal: &Deal) -> Result<(), DealError> {
    let counts = [
        (DealPart::Hand(Seat::Dealer), deal.dealer.len(), HAND_SIZE),
        (
            DealPart::Hand(Seat::NonDealer),
            deal.non_dealer.len(),
            HAND_SIZE,
        ),
        (DealPart::Stock, deal.stock.len(), STOCK_SIZE),
    ];
    for (part, found, expected) in counts {
        if found != expected {
            return Err(DealError::WrongCardCount {
                part,
                expected,
                found,
            });
        }
    }
    let slots = deal
        .dealer
        .iter()
        .enumerate()
        .map(|(i, &c)| (c, DealPart::Hand(Seat::Dealer), i))
        .chain(
            deal.non_dealer
                .iter()
                .enumerate()
                .map(|(i, &c)| (c, DealPart::Hand(Seat::NonDealer), i)),
        )
        .chain([(deal.upcard, DealPart::Upcard, 0)])
        .chain(
            deal.stock
                .iter()
                .enumerate()
                .map(|(i, &c)| (c, DealPart::Stock, i)),
        );
    let mut seen: Vec<(Card, DealSlot)> = Vec::with_capacity(52);
    for (card, part, index) in slots {
        let slot = DealSlot { part, index };
        if let Some(&(_, first)) = seen.iter().find(|(c, _)| *c == card) {
            return Err(DealError::DuplicateCard {
                card,
                first,
                second: slot,
            });
        }
        seen.push((card, slot));
    }
    Ok(())
}

/// Where a drawn card comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    Stock,
    DiscardPile,
}

/// What a player does (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Move {
    /// Decline the upcard offer or the 50th-card discard.
    Pass,
    /// Take the top card of the stock or the discard pile; `card`, when given, is
    /// the card the transcript expects and is checked.
    Draw { from: Source, card: Option<Card> },
    /// Discard a card held, ending the turn.
    Discard { card: Card },
    /// Knock, discarding `discard` (none: big gin), optionally declaring melds.
    Knock {
        discard: Option<Card>,
        melds: Option<Vec<Vec<Card>>>,
    },
    /// The defender's reply to a knock, each part optional.
    LayOff {
        melds: Option<Vec<Vec<Card>>>,
        layoffs: Option<Vec<Layoff>>,
    },
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
    pub player: Seat,
    pub play: Move,
}

/// The stable reason an action is illegal. Each names one rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ViolationCode {
    /// The other player was to act.
    WrongPlayer,
    /// The first-turn upcard offer was not followed: the non-dealer is offered the
    /// upcard first, then the dealer, then the non-dealer draws from the stock.
    UpcardOfferViolated,
    /// A pass outside the upcard offer and the 50th-card offer.
    PassNotAllowed,
    /// A discard or knock before drawing.
    MustDrawFirst,
    /// A second draw in one turn.
    AlreadyDrew,
    /// The transcript names a drawn card that is not the one on top.
    ExpectedCardMismatch,
    /// A discard (or knock card) the player does not hold.
    CardNotInHand,
    /// Discarding, or knocking with, the card just taken from the discard pile.
    DiscardJustTaken,
    /// A draw from the stock when only its last two cards remain.
    StockExhausted,
    /// Tournament 50th-card rule: the discard was taken but the taker did not knock.
    FiftiethCardTakeWithoutKnock,
    /// A knock with more deadwood than the knock limit.
    KnockOverLimit,
    /// Declared melds that are not melds, overlap, or use cards not held.
    InvalidMelds,
    /// A knock without a discard (big gin) where the profile does not play big gin.
    BigGinNotAllowed,
    /// A knock without a discard whose eleven cards do not all meld.
    NotBigGin,
    /// A layoff before anyone knocked.
    LayOffWithoutKnock,
    /// A layoff onto a gin hand where the profile forbids it.
    LayoffsNotAllowed,
    /// A layoff of a card the defender does not hold (or holds in its own melds).
    LayoffCardNotInHand,
    /// The same card laid off twice.
    LayoffCardRepeated,
    /// A layoff onto a knocker meld that does not exist.
    LayoffMeldNotFound,
    /// A layoff that does not extend the meld it names.
    LayoffDoesNotFit,
    /// An action after the hand became void at the end of the stock.
    HandIsVoid,
    /// An action after the hand ended with a knock (and the defender's reply).
    ActionAfterHandEnded,
}

impl ViolationCode {
    /// Every code, in the order of the docs.
    pub const ALL: [ViolationCode; 22] = [
        ViolationCode::WrongPlayer,
        ViolationCode::UpcardOfferViolated,
        ViolationCode::PassNotAllowed,
        ViolationCode::MustDrawFirst,
        ViolationCode::AlreadyDrew,
        ViolationCode::ExpectedCardMismatch,
        ViolationCode::CardNotInHand,
        ViolationCode::DiscardJustTaken,
        ViolationCode::StockExhausted,
        ViolationCode::FiftiethCardTakeWithoutKnock,
        ViolationCode::KnockOverLimit,
        ViolationCode::InvalidMelds,
        ViolationCode::BigGinNotAllowed,
        ViolationCode::NotBigGin,
        ViolationCode::LayOffWithoutKnock,
        ViolationCode::LayoffsNotAllowed,
        ViolationCode::LayoffCardNotInHand,
        ViolationCode::LayoffCardRepeated,
        ViolationCode::LayoffMeldNotFound,
        ViolationCode::LayoffDoesNotFit,
        ViolationCode::HandIsVoid,
        ViolationCode::ActionAfterHandEnded,
    ];

    /// The stable snake_case code. Knock and layoff codes are the ones
    /// `/v1/hands/score` uses for the same faults.
    pub const fn as_str(self) -> &'static str {
        match self {
            ViolationCode::WrongPlayer => "wrong_player",
            ViolationCode::UpcardOfferViolated => "upcard_offer_violated",
            ViolationCode::PassNotAllowed => "pass_not_allowed",
            ViolationCode::MustDrawFirst => "must_draw_first",
            ViolationCode::AlreadyDrew => "already_drew",
            ViolationCode::ExpectedCardMismatch => "expected_card_mismatch",
            ViolationCode::CardNotInHand => "card_not_in_hand",
            ViolationCode::DiscardJustTaken => "discard_just_taken",
            ViolationCode::StockExhausted => "stock_exhausted",
            ViolationCode::FiftiethCardTakeWithoutKnock => "fiftieth_card_take_without_knock",
            ViolationCode::KnockOverLimit => "knock_over_limit",
            ViolationCode::InvalidMelds => "invalid_melds",
            ViolationCode::BigGinNotAllowed => "big_gin_not_allowed",
            ViolationCode::NotBigGin => "not_big_gin",
            ViolationCode::LayOffWithoutKnock => "lay_off_without_knock",
            ViolationCode::LayoffsNotAllowed => "layoffs_not_allowed",
            ViolationCode::LayoffCardNotInHand => "layoff_card_not_in_hand",
            ViolationCode::LayoffCardRepeated => "layoff_card_repeated",
            ViolationCode::LayoffMeldNotFound => "layoff_meld_not_found",
            ViolationCode::LayoffDoesNotFit => "layoff_does_not_fit",
            ViolationCode::HandIsVoid => "hand_is_void",
            ViolationCode::ActionAfterHandEnded => "action_after_hand_ended",
        }
    }
}

impl fmt::Display for ViolationCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The first illegal action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// Index of the action in the transcript (from 0).
    pub action: usize,
    pub code: ViolationCode,
    /// A sentence for a tournament director.
    pub message: String,
}

/// A hand ended by a knock, with everything needed to re-score it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoredHand {
    pub knocker: Seat,
    /// Index of the knock action.
    pub knock_action: usize,
    /// Exactly what [`score_hand`] was given: `score` equals
    /// `score_hand(profile, Some(upcard), &knocker_hand, &defender_hand)`.
    pub knocker_hand: KnockerHand,
    pub defender_hand: DefenderHand,
    pub score: HandScore,
}

/// How a legal hand ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HandEnd {
    /// No knock before the stock's last two cards: no points. `action` is the
    /// action that made it void (the discard of the 50th card, or the pass of the
    /// 50th-card discard).
    Void {
        action: usize,
    },
    Scored(Box<ScoredHand>),
}

/// The table when the replay stopped: after the last action, or just before the
/// illegal one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    pub dealer: CardSet,
    pub non_dealer: CardSet,
    pub stock_remaining: usize,
    pub discard_top: Option<Card>,
    /// Who acts next; `None` once the hand is over (the defender may still reply
    /// to a knock).
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
    Deal(#[from] DealError),
    /// The scorer refused a hand the replay built itself: a bug in the referee,
    /// never a client's fault.
    #[error("the referee's own bookkeeping is inconsistent: {0}")]
    Inconsistent(HandError),
}

/// Replays a hand and checks every action (see the module docs).
///
/// ```
/// use gin_referee::rules::{audit_hand, cards, Action, Card, Deal, Move, Profile, Seat, Source};
/// let deck: Vec<Card> = Card::deck().collect();
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
/// assert_eq!((violation.action, violation.code.as_str()), (1, "upcard_offer_violated"));
/// ```
pub fn audit_hand(profile: &Profile, deal: &Deal, actions: &[Action]) -> Result<Audit, AuditError> {
    check_deal(deal)?;
    let mut referee = Referee::new(profile, deal);
    for (index, action) in actions.iter().enumerate() {
        match referee.step(index, action) {
            Ok(()) => {}
            Err(Stop::Violation(code, message)) => {
                return Ok(Audit {
                    violation: Some(Violation {
                        action: index,
                        code,
                        message,
                    }),
                    end: None,
                    table: referee.table(),
                });
            }
            Err(Stop::Inconsistent(error)) => return Err(AuditError::Inconsistent(error)),
        }
    }
    Ok(Audit {
        violation: None,
        end: referee.end(),
        table: referee.table(),
    })
}

/// Where the hand stands between actions.
#[derive(Debug, Clone)]
enum Phase {
    /// The first upcard is offered to `to`: the non-dealer first, then the dealer.
    UpcardOffer { to: Seat },
    /// Both passed the upcard: the non-dealer draws first, from the stock.
    OpeningDraw,
    /// `player` is to draw.
    ToDraw { player: Seat },
    /// `player` drew and must discard or knock. `taken` is the card taken from
    /// the discard pile this turn; `must_knock` marks the 50th-card discard taken.
    Drew {
        player: Seat,
        taken: Option<Card>,
        must_knock: bool,
    },
    /// 50th-card rule: `to` may take the discard only to knock, or pass.
    FiftiethOffer { to: Seat },
    /// The hand ended with a knock; the defender may reply once.
    Knocked {
        hand: Box<ScoredHand>,
        replied: bool,
    },
    /// The hand is void since action `at`.
    Void { at: usize },
}

/// Why the replay stopped early.
enum Stop {
    Violation(ViolationCode, String),
    Inconsistent(HandError),
}

fn violation<T>(code: ViolationCode, message: String) -> Result<T, Stop> {
    Err(Stop::Violation(code, message))
}

struct Referee<'a> {
    profile: &'a Profile,
    upcard: Card,
    hands: [CardSet; 2],
    stock: &'a [Card],
    /// Stock cards drawn so far: the next one is `stock[drawn]`.
    drawn: usize,
    /// The discard pile, top card last.
    pile: Vec<Card>,
    phase: Phase,
}

impl<'a> Referee<'a> {
    /// A referee for a deal already checked by [`check_deal`].
    fn new(profile: &'a Profile, deal: &'a Deal) -> Referee<'a> {
        let hand = |cards: &[Card]| {
            cards
                .iter()
                .fold(CardSet::EMPTY, |set, &c| set.union(c.into()))
        };
        Referee {
            profile,
            upcard: deal.upcard,
            hands: [hand(&deal.dealer), hand(&deal.non_dealer)],
            stock: &deal.stock,
            drawn: 0,
            pile: vec![deal.upcard],
            phase: Phase::UpcardOffer {
                to: Seat::NonDealer,
            },
        }
    }

    fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat.index()]
    }

    fn hand_mut(&mut self, seat: Seat) -> &mut CardSet {
        &mut self.hands[seat.index()]
    }

    fn stock_remaining(&self) -> usize {
        self.stock.len().saturating_sub(self.drawn)
    }

    fn to_act(&self) -> Option<Seat> {
        match &self.phase {
            Phase::UpcardOffer { to } | Phase::FiftiethOffer { to } => Some(*to),
            Phase::OpeningDraw => Some(Seat::NonDealer),
            Phase::ToDraw { player } | Phase::Drew { player, .. } => Some(*player),
            Phase::Knocked { .. } | Phase::Void { .. } => None,
        }
    }

    fn table(&self) -> Table {
        Table {
            dealer: self.hand(Seat::Dealer),
            non_dealer: self.hand(Seat::NonDealer),
            stock_remaining: self.stock_remaining(),
            discard_top: self.pile.last().copied(),
            to_act: self.to_act(),
        }
    }

    fn end(&self) -> Option<HandEnd> {
        match &self.phase {
            Phase::Knocked { hand, .. } => Some(HandEnd::Scored(hand.clone())),
            Phase::Void { at } => Some(HandEnd::Void { action: *at }),
            _ => None,
        }
    }

    fn step(&mut self, index: usize, action: &Action) -> Result<(), Stop> {
        let Action { player, play } = action;
        let player = *player;
        match &self.phase {
            Phase::Void { at } => {
                return violation(
                    ViolationCode::HandIsVoid,
                    format!(
                        "the hand became void at action {at}: nobody knocked before the stock \
                         came down to its last two cards, so {player} cannot {} after that",
                        play.phrase()
                    ),
                );
            }
            Phase::Knocked { hand, replied } => {
                let replied = *replied;
                let knocker = hand.knocker;
                let at = hand.knock_action;
                return match play {
                    Move::LayOff { melds, layoffs } if !replied && player != knocker => {
                        self.reply(melds, layoffs)
                    }
                    Move::LayOff { .. } if !replied => violation(
                        ViolationCode::WrongPlayer,
                        format!(
                            "{knocker} knocked at action {at} and may not lay off: only {} \
                             replies to a knock",
                            knocker.other()
                        ),
                    ),
                    _ => {
                        let reply = if replied {
                            format!(" and {} replied", knocker.other())
                        } else {
                            String::new()
                        };
                        violation(
                            ViolationCode::ActionAfterHandEnded,
                            format!(
                                "the hand ended when {knocker} knocked at action {at}{reply}; \
                                 {player} cannot {} after that",
                                play.phrase()
                            ),
                        )
                    }
                };
            }
            _ => {}
        }
        if let Move::LayOff { .. } = play {
            return violation(
                ViolationCode::LayOffWithoutKnock,
                format!("{player} tried to lay off, but nobody has knocked"),
            );
        }
        self.check_seat(player, play)?;
        match self.phase.clone() {
            Phase::UpcardOffer { to } => self.offer(to, play),
            Phase::OpeningDraw => match play {
                Move::Pass => violation(
                    ViolationCode::PassNotAllowed,
                    "both players have passed the upcard; the non-dealer must now draw from \
                     the stock"
                        .into(),
                ),
                Move::Draw {
                    from: Source::DiscardPile,
                    ..
                } => violation(
                    ViolationCode::UpcardOfferViolated,
                    format!(
                        "both players passed the upcard {}, so the non-dealer's first draw \
                         must come from the stock",
                        self.upcard
                    ),
                ),
                _ => self.turn(player, play),
            },
            Phase::ToDraw { .. } => match play {
                Move::Pass => violation(
                    ViolationCode::PassNotAllowed,
                    format!(
                        "{player} passed, but only the first upcard (or, under the 50th-card \
                         rule, the last discard) may be passed; on a turn a player must draw \
                         from the stock or the discard pile"
                    ),
                ),
                _ => self.turn(player, play),
            },
            Phase::Drew {
                taken, must_knock, ..
            } => self.after_draw(index, player, play, taken, must_knock),
            Phase::FiftiethOffer { .. } => self.fiftieth_offer(index, player, play),
            // Handled above.
            Phase::Knocked { .. } | Phase::Void { .. } => Ok(()),
        }
    }

    /// Out-of-turn play: `upcard_offer_violated` during the offer, else `wrong_player`.
    fn check_seat(&self, player: Seat, play: &Move) -> Result<(), Stop> {
        let Some(expected) = self.to_act() else {
            return Ok(());
        };
        if player == expected {
            return Ok(());
        }
        let attempt = play.phrase();
        match &self.phase {
            Phase::UpcardOffer {
                to: Seat::NonDealer,
            } => violation(
                ViolationCode::UpcardOfferViolated,
                format!(
                    "the upcard {} is offered to the non-dealer first; the dealer cannot {attempt} \
                     before the non-dealer passes",
                    self.upcard
                ),
            ),
            Phase::UpcardOffer { to: Seat::Dealer } => violation(
                ViolationCode::UpcardOfferViolated,
                format!(
                    "the non-dealer passed, so the upcard {} is now offered to the dealer; the \
                     non-dealer cannot {attempt} before the dealer takes it or passes",
                    self.upcard
                ),
            ),
            Phase::OpeningDraw => violation(
                ViolationCode::WrongPlayer,
                format!(
                    "both players passed the upcard, so the non-dealer draws first; the dealer \
                     cannot {attempt} now"
                ),
            ),
            Phase::FiftiethOffer { to } => violation(
                ViolationCode::WrongPlayer,
                format!(
                    "{player} discarded the 50th card; it is {to}'s choice to take it and knock \
                     or to pass, so {player} cannot {attempt}"
                ),
            ),
            Phase::Drew { .. } => violation(
                ViolationCode::WrongPlayer,
                format!(
                    "{expected} has drawn and must discard or knock; {player} cannot {attempt} \
                     out of turn"
                ),
            ),
            _ => violation(
                ViolationCode::WrongPlayer,
                format!("it is {expected}'s turn to draw; {player} cannot {attempt} out of turn"),
            ),
        }
    }

    /// The first-turn upcard offer to `to`.
    fn offer(&mut self, to: Seat, play: &Move) -> Result<(), Stop> {
        match play {
            Move::Pass => {
                self.phase = match to {
                    Seat::NonDealer => Phase::UpcardOffer { to: Seat::Dealer },
                    Seat::Dealer => Phase::OpeningDraw,
                };
                Ok(())
            }
            Move::Draw {
                from: Source::Stock,
                ..
            } => violation(
                ViolationCode::UpcardOfferViolated,
                match to {
                    Seat::NonDealer => format!(
                        "the non-dealer drew from the stock while the upcard {} was offered: \
                         the non-dealer must take it or pass, then the dealer is offered it",
                        self.upcard
                    ),
                    Seat::Dealer => format!(
                        "the dealer drew from the stock while the upcard {} was offered: the \
                         dealer may only take it or pass, and after a pass the non-dealer \
                         draws first",
                        self.upcard
                    ),
                },
            ),
            Move::Draw {
                from: Source::DiscardPile,
                card,
            } => self.take_discard(to, *card, false),
            Move::Discard { .. } | Move::Knock { .. } => self.must_draw_first(to, play),
            Move::LayOff { .. } => Ok(()),
        }
    }

    fn must_draw_first(&self, player: Seat, play: &Move) -> Result<(), Stop> {
        violation(
            ViolationCode::MustDrawFirst,
            format!(
                "{player} holds 10 cards and cannot {} before drawing a card",
                play.phrase()
            ),
        )
    }

    /// A normal turn before the draw.
    fn turn(&mut self, player: Seat, play: &Move) -> Result<(), Stop> {
        match play {
            Move::Draw {
                from: Source::Stock,
                card,
            } => self.draw_stock(player, *card),
            Move::Draw {
                from: Source::DiscardPile,
                card,
            } => self.take_discard(player, *card, false),
            _ => self.must_draw_first(player, play),
        }
    }

    fn check_expected(
        &self,
        player: Seat,
        expected: Option<Card>,
        actual: Card,
        place: &str,
    ) -> Result<(), Stop> {
        match expected {
            Some(expected) if expected != actual => violation(
                ViolationCode::ExpectedCardMismatch,
                format!(
                    "the transcript says {player} drew {expected}, but the top card of {place} \
                     is {actual}"
                ),
            ),
            _ => Ok(()),
        }
    }

    fn draw_stock(&mut self, player: Seat, expected: Option<Card>) -> Result<(), Stop> {
        // Unreachable through `turn` (the hand ends before), but cheap to keep true.
        let card = match self.stock.get(self.drawn) {
            Some(&card) if self.stock_remaining() > STOCK_RESERVE => card,
            _ => return self.stock_exhausted(player),
        };
        self.check_expected(player, expected, card, "the stock")?;
        self.drawn += 1;
        self.hand_mut(player).insert(card);
        self.phase = Phase::Drew {
            player,
            taken: None,
            must_knock: false,
        };
        Ok(())
    }

    fn stock_exhausted(&self, player: Seat) -> Result<(), Stop> {
        violation(
            ViolationCode::StockExhausted,
            format!(
                "{player} drew from the stock, but only its last {STOCK_RESERVE} cards remain \
                 and they are never drawn"
            ),
        )
    }

    fn take_discard(
        &mut self,
        player: Seat,
        expected: Option<Card>,
        must_knock: bool,
    ) -> Result<(), Stop> {
        // The pile is empty only between a take and the same player's discard, and
        // a second draw in that turn is refused as `already_drew` first.
        let Some(&card) = self.pile.last() else {
            return violation(
                ViolationCode::AlreadyDrew,
                format!("{player} tried to take from an empty discard pile"),
            );
        };
        self.check_expected(player, expected, card, "the discard pile")?;
        self.pile.pop();
        self.hand_mut(player).insert(card);
        self.phase = Phase::Drew {
            player,
            taken: Some(card),
            must_knock,
        };
        Ok(())
    }

    /// After the draw: discard or knock.
    fn after_draw(
        &mut self,
        index: usize,
        player: Seat,
        play: &Move,
        taken: Option<Card>,
        must_knock: bool,
    ) -> Result<(), Stop> {
        match play {
            Move::Pass => violation(
                ViolationCode::PassNotAllowed,
                format!("{player} already drew and must now discard or knock, not pass"),
            ),
            Move::Draw { .. } => violation(
                ViolationCode::AlreadyDrew,
                format!(
                    "{player} already drew this turn and cannot {}; the turn ends with a \
                     discard or a knock",
                    play.phrase()
                ),
            ),
            Move::Discard { card } => {
                if must_knock {
                    return violation(
                        ViolationCode::FiftiethCardTakeWithoutKnock,
                        format!(
                            "{player} took the 50th-card discard, which the tournament rule \
                             allows only in order to knock, then discarded {card} without \
                             knocking"
                        ),
                    );
                }
                self.check_discard(player, *card, taken)?;
                self.hand_mut(player).remove(*card);
                self.pile.push(*card);
                self.phase = if self.stock_remaining() > STOCK_RESERVE {
                    Phase::ToDraw {
                        player: player.other(),
                    }
                } else {
                    match self.profile.stock_end {
                        StockEnd::Void => Phase::Void { at: index },
                        StockEnd::FiftiethCard => Phase::FiftiethOffer { to: player.other() },
                    }
                };
                Ok(())
            }
            Move::Knock { discard, melds } => self.knock(index, player, *discard, melds, taken),
            Move::LayOff { .. } => Ok(()),
        }
    }

    fn check_discard(&self, player: Seat, card: Card, taken: Option<Card>) -> Result<(), Stop> {
        if !self.hand(player).contains(card) {
            return violation(
                ViolationCode::CardNotInHand,
                format!("{player} does not hold {card}, so cannot discard it"),
            );
        }
        if taken == Some(card) {
            return violation(
                ViolationCode::DiscardJustTaken,
                format!(
                    "{player} took {card} from the discard pile this turn and may not discard \
                     it on the same turn"
                ),
            );
        }
        Ok(())
    }

    /// Tournament rule: `player` may take the 50th-card discard only to knock.
    fn fiftieth_offer(&mut self, index: usize, player: Seat, play: &Move) -> Result<(), Stop> {
        match play {
            Move::Pass => {
                self.phase = Phase::Void { at: index };
                Ok(())
            }
            Move::Draw {
                from: Source::Stock,
                ..
            } => self.stock_exhausted(player),
            Move::Draw {
                from: Source::DiscardPile,
                card,
            } => self.take_discard(player, *card, true),
            _ => self.must_draw_first(player, play),
        }
    }

    fn knock(
        &mut self,
        index: usize,
        player: Seat,
        discard: Option<Card>,
        melds: &Option<Vec<Vec<Card>>>,
        taken: Option<Card>,
    ) -> Result<(), Stop> {
        let mut kept = self.hand(player);
        if let Some(card) = discard {
            self.check_discard(player, card, taken)?;
            kept.remove(card);
        }
        let knocker_hand = KnockerHand {
            hand: kept.to_vec(),
            melds: melds.clone(),
        };
        let defender_hand = DefenderHand {
            hand: self.hand(player.other()).to_vec(),
            melds: None,
            layoffs: None,
        };
        let score = score_hand(
            self.profile,
            Some(self.upcard),
            &knocker_hand,
            &defender_hand,
        )
        .map_err(|e| hand_fault(e, player, melds.is_some()))?;
        *self.hand_mut(player) = kept;
        if let Some(card) = discard {
            self.pile.push(card);
        }
        self.phase = Phase::Knocked {
            hand: Box::new(ScoredHand {
                knocker: player,
                knock_action: index,
                knocker_hand,
                defender_hand,
                score,
            }),
            replied: false,
        };
        Ok(())
    }

    /// The defender's declared reply, against the knocker's melds as laid down.
    fn reply(
        &mut self,
        melds: &Option<Vec<Vec<Card>>>,
        layoffs: &Option<Vec<Layoff>>,
    ) -> Result<(), Stop> {
        let Phase::Knocked { hand, .. } = &self.phase else {
            return Ok(());
        };
        let knocker = hand.knocker;
        let knocker_hand = KnockerHand {
            hand: hand.knocker_hand.hand.clone(),
            melds: Some(
                hand.score
                    .showdown
                    .knocker
                    .melds
                    .iter()
                    .map(|m| m.cards().to_vec())
                    .collect(),
            ),
        };
        let defender_hand = DefenderHand {
            hand: hand.defender_hand.hand.clone(),
            melds: melds.clone(),
            layoffs: layoffs.clone(),
        };
        let score = score_hand(
            self.profile,
            Some(self.upcard),
            &knocker_hand,
            &defender_hand,
        )
        .map_err(|e| hand_fault(e, knocker, true))?;
        let knock_action = hand.knock_action;
        self.phase = Phase::Knocked {
            hand: Box::new(ScoredHand {
                knocker,
                knock_action,
                knocker_hand,
                defender_hand,
                score,
            }),
            replied: true,
        };
        Ok(())
    }
}

/// Turns the scorer's refusal of a knock or a reply into a violation.
fn hand_fault(error: HandError, knocker: Seat, melds_declared: bool) -> Stop {
    let defender = knocker.other();
    let (code, message) = match &error {
        HandError::KnockOverLimit { deadwood, limit } => {
            let how = if melds_declared {
                "with the declared melds"
            } else {
                "at best"
            };
            let limit_text = if *limit == 0 {
                "the knock limit is 0: only gin may knock".to_owned()
            } else {
                format!("the knock limit is {limit}")
            };
            (
                ViolationCode::KnockOverLimit,
                format!("{knocker} knocked with {deadwood} deadwood {how}, but {limit_text}"),
            )
        }
        HandError::InvalidMelds { side, report } => {
            let seat = match side {
                super::score::Side::Knocker => knocker,
                super::score::Side::Defender => defender,
            };
            (
                ViolationCode::InvalidMelds,
                format!(
                    "{seat}'s declared melds are not legal: {}",
                    arrangement_faults(report)
                ),
            )
        }
        HandError::BigGinNotPlayed => (
            ViolationCode::BigGinNotAllowed,
            format!(
                "{knocker} knocked without discarding, which is big gin (all 11 cards melded), \
                 but this profile does not play big gin: a knock must discard a card"
            ),
        ),
        HandError::NotBigGin { deadwood } => (
            ViolationCode::NotBigGin,
            format!(
                "{knocker} knocked without discarding (big gin), but the 11 cards do not all \
                 meld: {deadwood} deadwood is left"
            ),
        ),
        HandError::Layoff(layoff) => {
            let code = match layoff {
                LayoffError::NotAllowedOnGin { .. } => ViolationCode::LayoffsNotAllowed,
                LayoffError::CardNotInHand { .. } => ViolationCode::LayoffCardNotInHand,
                LayoffError::AlreadyLaidOff { .. } => ViolationCode::LayoffCardRepeated,
                LayoffError::NoSuchMeld { .. } => ViolationCode::LayoffMeldNotFound,
                LayoffError::DoesNotFit { .. } => ViolationCode::LayoffDoesNotFit,
            };
            (code, format!("{defender}'s {layoff}"))
        }
        HandError::DuplicateCard { .. }
        | HandError::WrongCardCount { .. }
        | HandError::Profile(_) => return Stop::Inconsistent(error),
    };
    Stop::Violation(code, message)
}

/// Every fault of a declared arrangement, in one line.
fn arrangement_faults(report: &ArrangementReport) -> String {
    let mut faults: Vec<String> = Vec::new();
    for (index, verdict) in report.melds.iter().enumerate() {
        for problem in &verdict.problems {
            let cards: Vec<String> = verdict.cards.iter().map(Card::to_string).collect();
            faults.push(format!(
                "meld {index} ({}): {}",
                cards.join(" "),
                problem.message
            ));
        }
    }
    faults.extend(report.problems.iter().map(|p| p.message()));
    faults.join("; ")
}
