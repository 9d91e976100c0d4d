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
/// use gin_rules::{audit_hand, cards, Action, Card, Deal, Move, Profile, Seat, Source};
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

fn lay_off_without_knock(player: Seat) -> Result<(), Stop> {
    violation(
        ViolationCode::LayOffWithoutKnock,
        format!("{player} tried to lay off, but nobody has knocked"),
    )
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
            return lay_off_without_knock(player);
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
            Move::LayOff { .. } => lay_off_without_knock(to),
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
            Move::LayOff { .. } => lay_off_without_knock(player),
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

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::card::cards;
    use crate::deadwood::{analyze_drawn_hand, best_arrangement, min_deadwood};
    use crate::profile::{Preset, ProfileOverrides};

    fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    /// Cards in the order written (`cards` would sort them).
    fn ordered(text: &str) -> Vec<Card> {
        text.split_whitespace().map(card).collect()
    }

    fn profile(json: &str) -> Profile {
        serde_json::from_str::<ProfileOverrides>(json)
            .unwrap()
            .resolve()
            .unwrap()
    }

    /// A deal with these hands and upcard; the stock starts with `stock_top` and
    /// continues with the rest of the deck in canonical order.
    fn deal_with(dealer: &str, non_dealer: &str, upcard: &str, stock_top: &str) -> Deal {
        let mut used = cards(&format!("{dealer} {non_dealer} {upcard} {stock_top}")).unwrap();
        let mut stock = ordered(stock_top);
        for c in Card::deck() {
            if used.insert(c) {
                stock.push(c);
            }
        }
        Deal {
            dealer: ordered(dealer),
            non_dealer: ordered(non_dealer),
            upcard: card(upcard),
            stock,
        }
    }

    // The non-dealer holds A-2-3S, 4-5-6H, three 9s and the king of clubs: the
    // first stock card 2H lets it knock with 2 (discarding KC); 3H gives it gin.
    const NON_DEALER: &str = "AS 2S 3S 4H 5H 6H 9C 9D 9H KC";
    const DEALER: &str = "7S 8S TS JD QH KH 3C 4C 7H 4S";

    fn knock_deal() -> Deal {
        deal_with(DEALER, NON_DEALER, "2C", "2H 5C")
    }

    fn gin_deal() -> Deal {
        deal_with(DEALER, NON_DEALER, "2C", "3H 5C")
    }

    /// A transcript in a terse notation: `N`/`D` then `pass`, `stock [card]`,
    /// `pile [card]`, `discard card`, `knock [card]` (none: big gin) or `reply`.
    fn script(text: &str) -> Vec<Action> {
        text.split(';')
            .map(|step| {
                let words: Vec<&str> = step.split_whitespace().collect();
                let player = match words[0] {
                    "N" => Seat::NonDealer,
                    "D" => Seat::Dealer,
                    other => panic!("unknown seat {other}"),
                };
                let arg = words.get(2).map(|w| card(w));
                let play = match words[1] {
                    "pass" => Move::Pass,
                    "stock" => Move::Draw {
                        from: Source::Stock,
                        card: arg,
                    },
                    "pile" => Move::Draw {
                        from: Source::DiscardPile,
                        card: arg,
                    },
                    "discard" => Move::Discard { card: arg.unwrap() },
                    "knock" => Move::Knock {
                        discard: arg,
                        melds: None,
                    },
                    "reply" => Move::LayOff {
                        melds: None,
                        layoffs: None,
                    },
                    other => panic!("unknown move {other}"),
                };
                Action { player, play }
            })
            .collect()
    }

    fn melds(groups: &[&str]) -> Option<Vec<Vec<Card>>> {
        Some(groups.iter().map(|g| ordered(g)).collect())
    }

    /// The non-dealer's knock discarding KC with its three melds declared
    /// (meld 0 = A-2-3S, 1 = the hearts run, 2 = the 9s).
    fn declared_knock(run: &str) -> Action {
        Action {
            player: Seat::NonDealer,
            play: Move::Knock {
                discard: Some(card("KC")),
                melds: melds(&["AS 2S 3S", run, "9C 9D 9H"]),
            },
        }
    }

    fn layoffs(list: &[(&str, usize)]) -> Action {
        Action {
            player: Seat::Dealer,
            play: Move::LayOff {
                melds: None,
                layoffs: Some(
                    list.iter()
                        .map(|&(c, meld)| Layoff {
                            card: card(c),
                            meld,
                        })
                        .collect(),
                ),
            },
        }
    }

    /// Both pass the upcard, then each player draws from the stock and discards the
    /// card drawn, until the non-dealer has drawn the 50th card (29 stock draws).
    /// The non-dealer's discard of it is left to the caller.
    fn run_down(deal: &Deal) -> Vec<Action> {
        let mut actions = script("N pass; D pass");
        let mut player = Seat::NonDealer;
        for (i, &drawn) in deal.stock[..STOCK_SIZE - STOCK_RESERVE].iter().enumerate() {
            actions.push(Action {
                player,
                play: Move::Draw {
                    from: Source::Stock,
                    card: Some(drawn),
                },
            });
            if i + 1 < STOCK_SIZE - STOCK_RESERVE {
                actions.push(Action {
                    player,
                    play: Move::Discard { card: drawn },
                });
                player = player.other();
            }
        }
        actions
    }

    fn the_50th_card(deal: &Deal) -> Card {
        deal.stock[STOCK_SIZE - STOCK_RESERVE - 1]
    }

    fn run_down_and(deal: &Deal, rest: &str) -> Vec<Action> {
        let discard = format!("N discard {}", the_50th_card(deal));
        let mut actions = run_down(deal);
        let tail = if rest.is_empty() {
            discard
        } else {
            format!("{discard}; {rest}")
        };
        actions.extend(script(&tail));
        actions
    }

    fn audit(profile: &Profile, deal: &Deal, actions: &[Action]) -> Audit {
        audit_hand(profile, deal, actions).unwrap()
    }

    fn with(mut actions: Vec<Action>, extra: Vec<Action>) -> Vec<Action> {
        actions.extend(extra);
        actions
    }

    struct Case {
        rule: &'static str,
        profile: Profile,
        deal: Deal,
        actions: Vec<Action>,
        at: usize,
        code: ViolationCode,
    }

    /// One scripted transcript per violation code (some codes have several).
    fn cases() -> Vec<Case> {
        use ViolationCode::*;
        let standard = Profile::default();
        let tournament = Preset::Tournament.profile();
        let big_gin = profile(r#"{"big_gin_bonus": 31}"#);
        let hearts = "4H 5H 6H";
        // The dealer can take the 50th card (TS) to knock gin, discarding KH.
        let mut fiftieth = deal_with("7S 8S 9S JD QD KD 3C 4C 5C KH", NON_DEALER, "2C", "");
        let ts = fiftieth
            .stock
            .iter()
            .position(|&c| c == card("TS"))
            .unwrap();
        let ts = fiftieth.stock.remove(ts);
        fiftieth.stock.insert(STOCK_SIZE - STOCK_RESERVE - 1, ts);
        let case = |rule, profile: &Profile, deal: &Deal, actions, at, code| Case {
            rule,
            profile: profile.clone(),
            deal: deal.clone(),
            actions,
            at,
            code,
        };
        let k = knock_deal();
        vec![
            case(
                "a player draws while the other must discard",
                &standard,
                &k,
                script("N pass; D pass; N stock; D stock"),
                3,
                WrongPlayer,
            ),
            case(
                "a player draws twice in a row across turns",
                &standard,
                &k,
                script("N pass; D pass; N stock; N discard KC; N stock"),
                4,
                WrongPlayer,
            ),
            case(
                "the dealer takes the upcard before the non-dealer passed",
                &standard,
                &k,
                script("D pile 2C"),
                0,
                UpcardOfferViolated,
            ),
            case(
                "the non-dealer draws from the stock instead of answering the offer",
                &standard,
                &k,
                script("N stock"),
                0,
                UpcardOfferViolated,
            ),
            case(
                "the non-dealer draws before the dealer answered the offer",
                &standard,
                &k,
                script("N pass; N stock"),
                1,
                UpcardOfferViolated,
            ),
            case(
                "the dealer draws from the stock during its offer",
                &standard,
                &k,
                script("N pass; D stock"),
                1,
                UpcardOfferViolated,
            ),
            case(
                "after two passes the non-dealer takes the upcard after all",
                &standard,
                &k,
                script("N pass; D pass; N pile"),
                2,
                UpcardOfferViolated,
            ),
            case(
                "after two passes the dealer draws first",
                &standard,
                &k,
                script("N pass; D pass; D stock"),
                2,
                WrongPlayer,
            ),
            case(
                "a pass on an ordinary turn",
                &standard,
                &k,
                script("N pass; D pass; N stock; N discard KC; D pass"),
                4,
                PassNotAllowed,
            ),
            case(
                "a pass after two passes",
                &standard,
                &k,
                script("N pass; D pass; N pass"),
                2,
                PassNotAllowed,
            ),
            case(
                "a pass after drawing",
                &standard,
                &k,
                script("N pass; D pass; N stock; N pass"),
                3,
                PassNotAllowed,
            ),
            case(
                "a discard before drawing",
                &standard,
                &k,
                script("N discard KC"),
                0,
                MustDrawFirst,
            ),
            case(
                "a knock before drawing",
                &standard,
                &k,
                script("N pass; D pass; N stock; N discard KC; D knock KH"),
                4,
                MustDrawFirst,
            ),
            case(
                "a second draw in one turn",
                &standard,
                &k,
                script("N pass; D pass; N stock; N pile"),
                3,
                AlreadyDrew,
            ),
            case(
                "the transcript names the wrong stock card",
                &standard,
                &k,
                script("N pass; D pass; N stock 5C"),
                2,
                ExpectedCardMismatch,
            ),
            case(
                "the transcript names the wrong upcard",
                &standard,
                &k,
                script("N pile 3C"),
                0,
                ExpectedCardMismatch,
            ),
            case(
                "a discard of the opponent's card",
                &standard,
                &k,
                script("N pass; D pass; N stock 2H; N discard 7S"),
                3,
                CardNotInHand,
            ),
            case(
                "a knock card not held",
                &standard,
                &k,
                script("N pass; D pass; N stock; N knock 7S"),
                3,
                CardNotInHand,
            ),
            case(
                "the upcard taken and discarded at once",
                &standard,
                &k,
                script("N pile 2C; N discard 2C"),
                1,
                DiscardJustTaken,
            ),
            case(
                "a pile card taken and used as the knock card",
                &standard,
                &k,
                script("N pass; D pass; N stock; N discard 2H; D pile 2H; D knock 2H"),
                5,
                DiscardJustTaken,
            ),
            case(
                "the last two stock cards drawn under the 50th-card rule",
                &tournament,
                &k,
                run_down_and(&k, "D stock"),
                2 + 57 + 1,
                StockExhausted,
            ),
            case(
                "the 50th-card discard taken without knocking",
                &tournament,
                &fiftieth,
                run_down_and(&fiftieth, "D pile TS; D discard KH"),
                2 + 57 + 2,
                FiftiethCardTakeWithoutKnock,
            ),
            case(
                "a knock with 33 deadwood",
                &standard,
                &k,
                script("N pass; D pass; N stock; N knock 9C"),
                3,
                KnockOverLimit,
            ),
            case(
                "a knock of 2 in a gin-only game",
                &Preset::Straight.profile(),
                &k,
                script("N pass; D pass; N stock; N knock KC"),
                3,
                KnockOverLimit,
            ),
            case(
                "declared melds leave 11 deadwood",
                &standard,
                &k,
                with(
                    script("N pass; D pass; N stock"),
                    vec![Action {
                        player: Seat::NonDealer,
                        play: Move::Knock {
                            discard: Some(card("KC")),
                            melds: melds(&["AS 2S 3S", hearts]),
                        },
                    }],
                ),
                3,
                KnockOverLimit,
            ),
            case(
                "a declared meld that is not a meld",
                &standard,
                &k,
                with(
                    script("N pass; D pass; N stock"),
                    vec![declared_knock("4H 5H 6H 2H")],
                ),
                3,
                InvalidMelds,
            ),
            case(
                "the defender declares a meld that is not one",
                &standard,
                &k,
                with(
                    script("N pass; D pass; N stock"),
                    vec![
                        declared_knock(hearts),
                        Action {
                            player: Seat::Dealer,
                            play: Move::LayOff {
                                melds: melds(&["7S 8S TS"]),
                                layoffs: None,
                            },
                        },
                    ],
                ),
                4,
                InvalidMelds,
            ),
            case(
                "a knock without a discard where big gin is not played",
                &standard,
                &k,
                script("N pass; D pass; N stock; N knock"),
                3,
                BigGinNotAllowed,
            ),
            case(
                "big gin claimed with deadwood",
                &big_gin,
                &k,
                script("N pass; D pass; N stock; N knock"),
                3,
                NotBigGin,
            ),
            case(
                "a layoff before any knock",
                &standard,
                &k,
                script("N pass; D pass; N stock; N discard KC; D reply"),
                4,
                LayOffWithoutKnock,
            ),
            case(
                "a layoff onto gin",
                &standard,
                &gin_deal(),
                with(
                    script("N pass; D pass; N stock 3H"),
                    vec![declared_knock("3H 4H 5H 6H"), layoffs(&[("7H", 1)])],
                ),
                4,
                LayoffsNotAllowed,
            ),
            case(
                "a layoff of a card the defender does not hold",
                &standard,
                &k,
                with(
                    script("N pass; D pass; N stock"),
                    vec![declared_knock(hearts), layoffs(&[("3H", 1)])],
                ),
                4,
                LayoffCardNotInHand,
            ),
            case(
                "the same card laid off twice",
                &standard,
                &k,
                with(
                    script("N pass; D pass; N stock"),
                    vec![declared_knock(hearts), layoffs(&[("7H", 1), ("7H", 1)])],
                ),
                4,
                LayoffCardRepeated,
            ),
            case(
                "a layoff onto a meld that does not exist",
                &standard,
                &k,
                with(
                    script("N pass; D pass; N stock"),
                    vec![declared_knock(hearts), layoffs(&[("7H", 3)])],
                ),
                4,
                LayoffMeldNotFound,
            ),
            case(
                "a layoff that does not fit its meld",
                &standard,
                &k,
                with(
                    script("N pass; D pass; N stock"),
                    vec![declared_knock(hearts), layoffs(&[("7H", 0)])],
                ),
                4,
                LayoffDoesNotFit,
            ),
            case(
                "a draw after the hand went void",
                &standard,
                &k,
                run_down_and(&k, "D stock"),
                2 + 57 + 1,
                HandIsVoid,
            ),
            case(
                "a draw after the 50th-card discard was passed",
                &tournament,
                &k,
                run_down_and(&k, "D pass; N pile"),
                2 + 57 + 2,
                HandIsVoid,
            ),
            case(
                "a draw after the knock",
                &standard,
                &k,
                script("N pass; D pass; N stock; N knock KC; D stock"),
                4,
                ActionAfterHandEnded,
            ),
            case(
                "a second reply",
                &standard,
                &k,
                script("N pass; D pass; N stock; N knock KC; D reply; D reply"),
                5,
                ActionAfterHandEnded,
            ),
            case(
                "the knocker lays off",
                &standard,
                &k,
                script("N pass; D pass; N stock; N knock KC; N reply"),
                4,
                WrongPlayer,
            ),
        ]
    }

    #[test]
    fn every_scripted_violation_is_flagged_at_its_action_with_its_code() {
        for case in cases() {
            let audit = audit(&case.profile, &case.deal, &case.actions);
            let violation = audit
                .violation
                .unwrap_or_else(|| panic!("{}: judged legal", case.rule));
            assert_eq!(
                (violation.action, violation.code),
                (case.at, case.code),
                "{}: {}",
                case.rule,
                violation.message
            );
            assert!(audit.end.is_none(), "{}", case.rule);
            // The prefix before the violation is legal.
            let prefix = audit_hand(&case.profile, &case.deal, &case.actions[..case.at]).unwrap();
            assert!(
                prefix.is_legal(),
                "{}: prefix {:?}",
                case.rule,
                prefix.violation
            );
        }
    }

    #[test]
    fn every_violation_code_has_a_scripted_transcript() {
        let covered: Vec<ViolationCode> = cases().iter().map(|c| c.code).collect();
        for code in ViolationCode::ALL {
            assert!(covered.contains(&code), "no scripted transcript for {code}");
        }
    }

    #[test]
    fn violation_messages_name_the_cards_and_players() {
        let k = knock_deal();
        let message = |actions: Vec<Action>| {
            audit(&Profile::default(), &k, &actions)
                .violation
                .unwrap()
                .message
        };
        assert_eq!(
            message(script("N pass; D pass; N stock 2H; N discard 7S")),
            "the non-dealer does not hold 7S, so cannot discard it"
        );
        assert_eq!(
            message(script("N pile 2C; N discard 2C")),
            "the non-dealer took 2C from the discard pile this turn and may not discard it on \
             the same turn"
        );
        assert_eq!(
            message(script("N pass; D pass; N stock; N knock 9C")),
            "the non-dealer knocked with 30 deadwood at best, but the knock limit is 10"
        );
        assert_eq!(
            message(script("D pile 2C")),
            "the upcard 2C is offered to the non-dealer first; the dealer cannot take the top \
             card of the discard pile before the non-dealer passes"
        );
        let invalid = message(with(
            script("N pass; D pass; N stock"),
            vec![declared_knock("4H 5H 6H 2H")],
        ));
        assert!(
            invalid
                .starts_with("the non-dealer's declared melds are not legal: meld 1 (4H 5H 6H 2H)"),
            "{invalid}"
        );
    }

    #[test]
    fn a_knock_is_scored_exactly_as_score_hand_scores_the_final_hands() {
        let k = knock_deal();
        let actions = script("N pass; D pass; N stock 2H; N knock KC");
        let audit = audit(&Profile::default(), &k, &actions);
        assert!(audit.is_legal());
        let Some(HandEnd::Scored(hand)) = audit.end else {
            panic!("not scored: {:?}", audit.end)
        };
        assert_eq!((hand.knocker, hand.knock_action), (Seat::NonDealer, 3));
        let expected = score_hand(
            &Profile::default(),
            Some(card("2C")),
            &KnockerHand {
                hand: cards("AS 2S 3S 4H 5H 6H 9C 9D 9H 2H").unwrap().to_vec(),
                melds: None,
            },
            &DefenderHand {
                hand: cards(DEALER).unwrap().to_vec(),
                ..DefenderHand::default()
            },
        )
        .unwrap();
        assert_eq!(hand.score, expected);
        // The dealer lays off 4S and 7H: 73 - 11 = 62 against 2.
        assert_eq!(hand.score.settlement.points, 60);
        assert_eq!(audit.table.discard_top, Some(card("KC")));
        assert_eq!(audit.table.to_act, None);
    }

    #[test]
    fn a_declared_reply_is_checked_against_the_knockers_melds_and_scored() {
        let k = knock_deal();
        let actions = with(
            script("N pass; D pass; N stock"),
            vec![declared_knock("4H 5H 6H"), layoffs(&[("7H", 1)])],
        );
        let audit = audit(&Profile::default(), &k, &actions);
        let Some(HandEnd::Scored(hand)) = audit.end else {
            panic!("not scored: {:?}", audit.violation)
        };
        // Only 7H laid off (4S kept): 73 - 7 = 66 against 2.
        assert_eq!(hand.score.showdown.defender.deadwood, 66);
        assert_eq!(hand.score.settlement.points, 64);
    }

    #[test]
    fn a_transcript_that_stops_early_is_legal_so_far_with_no_result() {
        let k = knock_deal();
        for actions in [
            vec![],
            script("N pass"),
            script("N pass; D pile 2C"),
            script("N pass; D pass; N stock; N discard KC"),
        ] {
            let audit = audit(&Profile::default(), &k, &actions);
            assert!(audit.is_legal() && audit.end.is_none(), "{actions:?}");
        }
        let taken = audit(&Profile::default(), &k, &script("N pass; D pile 2C"));
        assert_eq!(taken.table.to_act, Some(Seat::Dealer));
        assert!(taken.table.dealer.contains(card("2C")));
        assert_eq!(taken.table.discard_top, None);
    }

    #[test]
    fn the_upcard_taken_by_the_dealer_gives_the_non_dealer_the_next_turn() {
        let k = knock_deal();
        let actions = script("N pass; D pile 2C; D discard KH; N pile KH; N discard KC");
        let audit = audit(&Profile::default(), &k, &actions);
        assert!(audit.is_legal(), "{:?}", audit.violation);
        assert_eq!(audit.table.to_act, Some(Seat::Dealer));
        assert_eq!(audit.table.stock_remaining, STOCK_SIZE);
    }

    #[test]
    fn a_hand_with_no_knock_by_the_50th_card_is_void() {
        let k = knock_deal();
        let standard = audit(&Profile::default(), &k, &run_down_and(&k, ""));
        assert_eq!(standard.end, Some(HandEnd::Void { action: 2 + 57 }));
        assert_eq!(standard.table.stock_remaining, STOCK_RESERVE);
        // The drawer of the 50th card may still knock (with the king of clubs, 10).
        let mut knock = run_down(&k);
        knock.extend(script(&format!("N knock {}", the_50th_card(&k))));
        let knocked = audit(&Profile::default(), &k, &knock);
        assert!(
            matches!(knocked.end, Some(HandEnd::Scored(ref hand)) if hand.score.showdown.knocker.deadwood == 10),
            "{knocked:?}"
        );
        let tournament = Preset::Tournament.profile();
        let offered = audit(&tournament, &k, &run_down_and(&k, ""));
        assert!(offered.is_legal() && offered.end.is_none());
        assert_eq!(offered.table.to_act, Some(Seat::Dealer));
        let passed = audit(&tournament, &k, &run_down_and(&k, "D pass"));
        assert_eq!(passed.end, Some(HandEnd::Void { action: 2 + 58 }));
    }

    #[test]
    fn the_50th_card_discard_may_be_taken_to_knock() {
        let mut deal = deal_with("7S 8S 9S JD QD KD 3C 4C 5C KH", NON_DEALER, "2C", "");
        let ts = deal.stock.iter().position(|&c| c == card("TS")).unwrap();
        let ts = deal.stock.remove(ts);
        deal.stock.insert(STOCK_SIZE - STOCK_RESERVE - 1, ts);
        let audit = audit(
            &Preset::Tournament.profile(),
            &deal,
            &run_down_and(&deal, "D pile TS; D knock KH"),
        );
        let Some(HandEnd::Scored(hand)) = audit.end else {
            panic!("not scored: {:?}", audit.violation)
        };
        assert_eq!(hand.knocker, Seat::Dealer);
        assert_eq!(hand.score.settlement.outcome, crate::Outcome::Gin);
    }

    #[test]
    fn big_gin_ends_the_hand_without_a_discard_where_the_profile_plays_it() {
        // The non-dealer's 11 cards after drawing 7H all meld.
        let deal = deal_with(
            "7S 8S TS JD QH KH 3C 4C 8H 4D",
            "AS 2S 3S 4H 5H 6H 9C 9D 9H 9S",
            "2C",
            "7H",
        );
        let mut big_gin = profile(r#"{"big_gin_bonus": 31}"#);
        let actions = script("N pass; D pass; N stock 7H; N knock");
        let hand = match audit(&big_gin, &deal, &actions).end {
            Some(HandEnd::Scored(hand)) => hand,
            other => panic!("not scored: {other:?}"),
        };
        assert_eq!(hand.score.settlement.outcome, crate::Outcome::BigGin);
        assert_eq!(hand.knocker_hand.hand.len(), 11);
        big_gin.big_gin_bonus = None;
        assert_eq!(
            audit(&big_gin, &deal, &actions).violation.map(|v| v.code),
            Some(ViolationCode::BigGinNotAllowed)
        );
    }

    #[test]
    fn an_impossible_deal_is_refused_with_the_place_of_the_fault() {
        let k = knock_deal();
        let mut short = k.clone();
        short.stock.pop();
        assert_eq!(
            audit_hand(&Profile::default(), &short, &[]),
            Err(AuditError::Deal(DealError::WrongCardCount {
                part: DealPart::Stock,
                expected: STOCK_SIZE,
                found: STOCK_SIZE - 1
            }))
        );
        let mut twice = k.clone();
        twice.stock[5] = card("KC");
        let err = audit_hand(&Profile::default(), &twice, &[]).unwrap_err();
        assert_eq!(
            err,
            AuditError::Deal(DealError::DuplicateCard {
                card: card("KC"),
                first: DealSlot {
                    part: DealPart::Hand(Seat::NonDealer),
                    index: 9
                },
                second: DealSlot {
                    part: DealPart::Stock,
                    index: 5
                },
            })
        );
        assert_eq!(
            err.to_string(),
            "KC is dealt twice: in the non-dealer's hand at position 9 and in the stock at \
             position 5"
        );
        let mut upcard = k;
        upcard.upcard = card("AS");
        assert!(matches!(
            audit_hand(&Profile::default(), &upcard, &[]),
            Err(AuditError::Deal(DealError::DuplicateCard {
                second: DealSlot {
                    part: DealPart::Upcard,
                    ..
                },
                ..
            }))
        ));
    }

    // ---- Random play-outs -------------------------------------------------

    /// What the actor held and saw just before an action, to corrupt it.
    #[derive(Debug, Clone)]
    struct Seen {
        actor: CardSet,
        opponent: CardSet,
        /// The action answers the first-turn upcard offer.
        offer: bool,
    }

    #[derive(Debug)]
    struct PlayOut {
        profile: Profile,
        deal: Deal,
        actions: Vec<Action>,
        seen: Vec<Seen>,
        /// `None`: void. Otherwise the knocker and what `score_hand` must say.
        expected: Option<(Seat, HandScore)>,
        fiftieth_knock: bool,
    }

    struct Player<'a> {
        rng: &'a mut StdRng,
        profile: Profile,
        upcard: Card,
        limit: u32,
        hands: [CardSet; 2],
        stock: Vec<Card>,
        pile: Vec<Card>,
        actions: Vec<Action>,
        seen: Vec<Seen>,
        /// How readily the player knocks when it may: patient players keep
        /// improving, which reaches gin, big gin and the end of the stock.
        eagerness: f64,
    }

    impl Player<'_> {
        fn hand(&mut self, seat: Seat) -> &mut CardSet {
            &mut self.hands[seat.index()]
        }

        fn act(&mut self, player: Seat, play: Move, offer: bool) {
            self.seen.push(Seen {
                actor: self.hands[player.index()],
                opponent: self.hands[player.other().index()],
                offer,
            });
            self.actions.push(Action { player, play });
        }

        fn named(&mut self, card: Card) -> Option<Card> {
            self.rng.gen_bool(0.5).then_some(card)
        }

        fn take_pile(&mut self, player: Seat, offer: bool) -> Card {
            let top = self.pile.pop().unwrap();
            let named = self.named(top);
            self.act(
                player,
                Move::Draw {
                    from: Source::DiscardPile,
                    card: named,
                },
                offer,
            );
            self.hand(player).insert(top);
            top
        }

        fn draw_stock(&mut self, player: Seat) {
            let top = self.stock.remove(0);
            let named = self.named(top);
            self.act(
                player,
                Move::Draw {
                    from: Source::Stock,
                    card: named,
                },
                false,
            );
            self.hand(player).insert(top);
        }

        /// Knock cards other than `taken` that leave deadwood within the limit.
        fn knock_cards(&self, hand: CardSet, taken: Option<Card>) -> Vec<Card> {
            hand.iter()
                .filter(|&c| Some(c) != taken)
                .filter(|&c| {
                    let mut kept = hand;
                    kept.remove(c);
                    min_deadwood(kept) <= self.limit
                })
                .collect()
        }

        fn declare(&mut self, kept: CardSet) -> Option<Vec<Vec<Card>>> {
            self.rng.gen_bool(0.5).then(|| {
                best_arrangement(kept)
                    .melds
                    .iter()
                    .map(|m| m.cards().to_vec())
                    .collect()
            })
        }

        /// Plays one turn's second half; returns true when the player knocked.
        fn discard_or_knock(
            &mut self,
            player: Seat,
            taken: Option<Card>,
            must_knock: bool,
        ) -> bool {
            let hand = self.hands[player.index()];
            if self.profile.big_gin_bonus.is_some()
                && min_deadwood(hand) == 0
                && self.rng.gen_bool(0.8)
            {
                let melds = self.declare(hand);
                self.act(
                    player,
                    Move::Knock {
                        discard: None,
                        melds,
                    },
                    false,
                );
                return true;
            }
            let options = self.knock_cards(hand, taken);
            if !options.is_empty() && (must_knock || self.rng.gen_bool(self.eagerness)) {
                let discard = *options.choose(self.rng).unwrap();
                let mut kept = hand;
                kept.remove(discard);
                let melds = self.declare(kept);
                self.act(
                    player,
                    Move::Knock {
                        discard: Some(discard),
                        melds,
                    },
                    false,
                );
                *self.hand(player) = kept;
                return true;
            }
            assert!(!must_knock, "took the 50th card without a knock");
            let best: Vec<Card> = analyze_drawn_hand(hand)
                .discards
                .iter()
                .map(|d| d.card)
                .filter(|&c| Some(c) != taken)
                .collect();
            let any: Vec<Card> = hand.iter().filter(|&c| Some(c) != taken).collect();
            let discard = if !best.is_empty() && self.rng.gen_bool(0.7) {
                *best.choose(self.rng).unwrap()
            } else {
                *any.choose(self.rng).unwrap()
            };
            self.act(player, Move::Discard { card: discard }, false);
            self.hand(player).remove(discard);
            self.pile.push(discard);
            false
        }
    }

    /// A simple random player drives both seats through one legal hand.
    fn play_out(seed: u64, profile: &Profile) -> PlayOut {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut deck: Vec<Card> = Card::deck().collect();
        deck.shuffle(&mut rng);
        let deal = Deal {
            dealer: deck[0..10].to_vec(),
            non_dealer: deck[10..20].to_vec(),
            upcard: deck[20],
            stock: deck[21..].to_vec(),
        };
        let set = |cards: &[Card]| CardSet::from_distinct(cards.iter().copied()).unwrap();
        let mut p = Player {
            rng: &mut rng,
            profile: profile.clone(),
            upcard: deal.upcard,
            limit: profile.knock_limit_for(Some(deal.upcard)).unwrap(),
            hands: [set(&deal.dealer), set(&deal.non_dealer)],
            stock: deal.stock.clone(),
            pile: vec![deal.upcard],
            actions: Vec::new(),
            seen: Vec::new(),
            eagerness: [0.8, 0.3, 0.05][(seed / 7 % 3) as usize],
        };
        // The upcard offer.
        let (mut player, mut taken) = if p.rng.gen_bool(0.3) {
            (Seat::NonDealer, Some(p.take_pile(Seat::NonDealer, true)))
        } else {
            p.act(Seat::NonDealer, Move::Pass, true);
            if p.rng.gen_bool(0.3) {
                (Seat::Dealer, Some(p.take_pile(Seat::Dealer, true)))
            } else {
                p.act(Seat::Dealer, Move::Pass, true);
                p.draw_stock(Seat::NonDealer);
                (Seat::NonDealer, None)
            }
        };
        let mut must_knock = false;
        loop {
            if p.discard_or_knock(player, taken, must_knock) {
                let expected = reply(&mut p, player);
                return PlayOut {
                    profile: profile.clone(),
                    deal,
                    actions: p.actions,
                    seen: p.seen,
                    expected: Some((player, expected)),
                    fiftieth_knock: must_knock,
                };
            }
            let opponent = player.other();
            if p.stock.len() <= STOCK_RESERVE {
                let top = *p.pile.last().unwrap();
                let mut with = p.hands[opponent.index()];
                with.insert(top);
                let can_knock = !p.knock_cards(with, Some(top)).is_empty();
                if profile.stock_end == StockEnd::FiftiethCard && can_knock && p.rng.gen_bool(0.8) {
                    p.take_pile(opponent, false);
                    (player, taken, must_knock) = (opponent, Some(top), true);
                    continue;
                }
                if profile.stock_end == StockEnd::FiftiethCard {
                    p.act(opponent, Move::Pass, false);
                }
                return PlayOut {
                    profile: profile.clone(),
                    deal,
                    actions: p.actions,
                    seen: p.seen,
                    expected: None,
                    fiftieth_knock: false,
                };
            }
            player = opponent;
            // Take the discard when it lowers the deadwood, now and then otherwise.
            let top = *p.pile.last().unwrap();
            let mut with = p.hands[player.index()];
            let before = min_deadwood(with);
            with.insert(top);
            let helps = analyze_drawn_hand(with).deadwood < before;
            taken = if p.rng.gen_bool(if helps { 0.8 } else { 0.1 }) {
                Some(p.take_pile(player, false))
            } else {
                p.draw_stock(player);
                None
            };
        }
    }

    /// The defender's reply after `knocker` knocked (the last action), and the
    /// score `score_hand` gives the final hands.
    fn reply(p: &mut Player<'_>, knocker: Seat) -> HandScore {
        let Some(Action {
            play: Move::Knock { melds, .. },
            ..
        }) = p.actions.last().cloned()
        else {
            unreachable!()
        };
        let knocker_hand = KnockerHand {
            hand: p.hands[knocker.index()].to_vec(),
            melds,
        };
        let defender = knocker.other();
        let defender_hand = DefenderHand {
            hand: p.hands[defender.index()].to_vec(),
            ..DefenderHand::default()
        };
        let upcard = Some(p.upcard);
        let first = score_hand(&p.profile, upcard, &knocker_hand, &defender_hand).unwrap();
        let laid_down = KnockerHand {
            melds: Some(
                first
                    .showdown
                    .knocker
                    .melds
                    .iter()
                    .map(|m| m.cards().to_vec())
                    .collect(),
            ),
            ..knocker_hand
        };
        let (melds, layoffs) = match p.rng.gen_range(0..4) {
            0 => return first,
            1 => (None, None),
            2 => (
                Some(
                    first
                        .showdown
                        .defender
                        .melds
                        .iter()
                        .map(|m| m.cards().to_vec())
                        .collect(),
                ),
                Some(first.showdown.defender.layoffs.clone()),
            ),
            _ => (None, Some(Vec::new())),
        };
        p.act(
            defender,
            Move::LayOff {
                melds: melds.clone(),
                layoffs: layoffs.clone(),
            },
            false,
        );
        let declared = DefenderHand {
            melds,
            layoffs,
            ..defender_hand
        };
        score_hand(&p.profile, upcard, &laid_down, &declared).unwrap()
    }

    fn profiles() -> Vec<Profile> {
        vec![
            Profile::default(),
            Preset::Tournament.profile(),
            Preset::Oklahoma.profile(),
            Preset::OpenGin.profile(),
            Preset::Straight.profile(),
            profile(r#"{"base": "tournament", "big_gin_bonus": 31}"#),
        ]
    }

    const PLAY_OUTS: u64 = 252;

    fn play_outs() -> impl Iterator<Item = PlayOut> {
        let profiles = profiles();
        (0..PLAY_OUTS).map(move |seed| play_out(seed, &profiles[seed as usize % profiles.len()]))
    }

    #[test]
    fn random_legal_play_outs_are_judged_legal_and_scored_as_score_hand_scores_them() {
        let (mut void, mut scored, mut fiftieth, mut big_gin) = (0, 0, 0, 0);
        for game in play_outs() {
            let audit = audit(&game.profile, &game.deal, &game.actions);
            assert!(
                audit.is_legal(),
                "{:?}\n{:?}",
                audit.violation,
                game.actions
            );
            match (&audit.end, &game.expected) {
                (Some(HandEnd::Void { action }), None) => {
                    assert_eq!(*action, game.actions.len() - 1);
                    void += 1;
                }
                (Some(HandEnd::Scored(hand)), Some((knocker, score))) => {
                    assert_eq!(hand.knocker, *knocker);
                    assert_eq!(&hand.score, score);
                    let again = score_hand(
                        &game.profile,
                        Some(game.deal.upcard),
                        &hand.knocker_hand,
                        &hand.defender_hand,
                    );
                    assert_eq!(again.as_ref(), Ok(score));
                    scored += 1;
                    fiftieth += usize::from(game.fiftieth_knock);
                    big_gin += usize::from(hand.score.showdown.big_gin);
                }
                (end, expected) => panic!("ended {end:?}, expected {expected:?}"),
            }
        }
        // The driver reaches every ending, so the properties above are not vacuous.
        assert!(void > 10 && scored > 50, "void {void}, scored {scored}");
        assert!(fiftieth > 0, "no 50th-card knock in {PLAY_OUTS} play-outs");
        assert!(big_gin > 0, "no big gin in {PLAY_OUTS} play-outs");
    }

    /// Replaces action `k` by an illegal one; returns the code it must draw.
    fn corrupt(rng: &mut StdRng, game: &PlayOut, k: usize) -> (Vec<Action>, ViolationCode) {
        use ViolationCode::*;
        let mut actions = game.actions.clone();
        let Action { player, play } = actions[k].clone();
        let seen = &game.seen[k];
        let any_held = |rng: &mut StdRng| *seen.actor.to_vec().choose(rng).unwrap();
        let not_held = |rng: &mut StdRng| *seen.opponent.to_vec().choose(rng).unwrap();
        let (bad, code) = if rng.gen_bool(0.3) {
            let code = if seen.offer {
                UpcardOfferViolated
            } else {
                WrongPlayer
            };
            (
                Action {
                    player: player.other(),
                    play,
                },
                code,
            )
        } else {
            let play_as = |play| Action { player, play };
            match play {
                Move::Draw { from, .. } if rng.gen_bool(0.5) => {
                    let top = match from {
                        Source::Stock => game.deal.stock[stock_draws_before(&actions, k)],
                        Source::DiscardPile => discard_top_before(game, k),
                    };
                    let wrong = Card::deck().find(|&c| c != top).unwrap();
                    (
                        play_as(Move::Draw {
                            from,
                            card: Some(wrong),
                        }),
                        ExpectedCardMismatch,
                    )
                }
                Move::Draw { .. } | Move::Pass => (
                    play_as(Move::Discard {
                        card: any_held(rng),
                    }),
                    MustDrawFirst,
                ),
                Move::Discard { .. } if rng.gen_bool(0.5) => (
                    play_as(Move::Discard {
                        card: not_held(rng),
                    }),
                    CardNotInHand,
                ),
                Move::Discard { .. } => (
                    play_as(Move::Draw {
                        from: Source::Stock,
                        card: None,
                    }),
                    AlreadyDrew,
                ),
                Move::Knock { .. } => (
                    play_as(Move::Knock {
                        discard: Some(not_held(rng)),
                        melds: None,
                    }),
                    CardNotInHand,
                ),
                Move::LayOff { .. } => (
                    play_as(Move::Draw {
                        from: Source::Stock,
                        card: None,
                    }),
                    ActionAfterHandEnded,
                ),
            }
        };
        actions[k] = bad;
        (actions, code)
    }

    fn stock_draws_before(actions: &[Action], k: usize) -> usize {
        actions[..k]
            .iter()
            .filter(|a| {
                matches!(
                    a.play,
                    Move::Draw {
                        from: Source::Stock,
                        ..
                    }
                )
            })
            .count()
    }

    /// The discard pile's top card before action `k`, replayed from the actions.
    fn discard_top_before(game: &PlayOut, k: usize) -> Card {
        let mut pile = vec![game.deal.upcard];
        for action in &game.actions[..k] {
            match &action.play {
                Move::Draw {
                    from: Source::DiscardPile,
                    ..
                } => {
                    pile.pop();
                }
                Move::Discard { card }
                | Move::Knock {
                    discard: Some(card),
                    ..
                } => pile.push(*card),
                _ => {}
            }
        }
        *pile.last().unwrap()
    }

    #[test]
    fn each_play_out_corrupted_at_a_random_action_is_flagged_at_that_action() {
        let mut rng = StdRng::seed_from_u64(6);
        for game in play_outs() {
            for _ in 0..2 {
                let k = rng.gen_range(0..game.actions.len());
                let (actions, code) = corrupt(&mut rng, &game, k);
                let audit = audit(&game.profile, &game.deal, &actions);
                let violation = audit
                    .violation
                    .unwrap_or_else(|| panic!("corruption at {k} judged legal: {:?}", actions[k]));
                assert_eq!(
                    (violation.action, violation.code),
                    (k, code),
                    "{}\n{:?} in {:?}",
                    violation.message,
                    actions[k],
                    game.actions
                );
            }
            // An action after the end of the hand.
            let mut extra = game.actions.clone();
            extra.push(Action {
                player: Seat::NonDealer,
                play: Move::Draw {
                    from: Source::DiscardPile,
                    card: None,
                },
            });
            let code = audit(&game.profile, &game.deal, &extra)
                .violation
                .map(|v| (v.action, v.code));
            let expected = if game.expected.is_some() {
                ViolationCode::ActionAfterHandEnded
            } else {
                ViolationCode::HandIsVoid
            };
            assert_eq!(code, Some((game.actions.len(), expected)));
        }
    }
}
