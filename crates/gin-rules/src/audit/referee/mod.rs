//! The referee: the state machine that replays a hand action by action.

use super::RecordedLayoff;
use super::{
    Action, Deal, DealError, HandEnd, Move, STOCK_RESERVE, ScoredHand, Seat, Source, Table,
    ViolationCode, stock_size,
};
use crate::card::{Card, Rank, Suit};
use crate::declared::faults_text;
use crate::hand::{Hand, HandCard, Joker};
use crate::layoff::{DeclaredLayoff, DeclaredReply, ReplyError, Search};
use crate::meld::Meld;
use crate::profile::{Profile, StockEnd};
use crate::score::knock::score_laid_down;
use crate::score::{DefenderHand, HandError, KnockerHand, knock_search, score_hand};
use std::sync::Arc;

use super::shared::Shared;

mod declarations;
mod held;
mod knock;
mod now;
mod pile;

/// The stand-in for a joker turned as the first upcard where the profile
/// reads the upcard (Oklahoma knock limit, spade doubling): a joker has no
/// rank and no suit, so it counts as a face card (limit 10) that is not a
/// spade (no doubling). See the module docs.
const JOKER_UPCARD_STANDS_AS: Card = Card::new(Rank::KING, Suit::Hearts);

/// The first upcard as the profile reads it for the knock limit and spade
/// doubling: a joker counts as [`JOKER_UPCARD_STANDS_AS`].
pub(crate) const fn scoring_upcard(upcard: HandCard) -> Card {
    match upcard {
        HandCard::Natural(card) => card,
        HandCard::Joker(_) => JOKER_UPCARD_STANDS_AS,
    }
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
        taken: Option<HandCard>,
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
pub(super) enum Stop {
    /// An illegal action: its code, the sentence, and the part of the action
    /// at fault (a pointer within the action: `card`, `layoffs/2`), if one is.
    Violation(ViolationCode, String, Option<String>),
    /// The scorer refused what the replay built itself, in words.
    Inconsistent(String),
    /// The record cannot be replayed further (a draw past the listed stock).
    Deal(DealError),
}

fn violation<T>(code: ViolationCode, message: String) -> Result<T, Stop> {
    Err(Stop::Violation(code, message, None))
}

/// `stop`, placed at `field` of the action if it names no part yet.
fn at_field(stop: Stop, field: &str) -> Stop {
    match stop {
        Stop::Violation(code, message, None) => {
            Stop::Violation(code, message, Some(field.to_owned()))
        }
        other => other,
    }
}

/// A violation at one part of the action (`field`, a pointer within it).
fn violation_at<T>(code: ViolationCode, message: String, field: &str) -> Result<T, Stop> {
    Err(Stop::Violation(code, message, Some(field.to_owned())))
}

fn lay_off_without_knock(player: Seat) -> Result<(), Stop> {
    violation(
        ViolationCode::LayOffWithoutKnock,
        format!("{player} tried to lay off, but nobody has knocked"),
    )
}

#[derive(Clone)]
pub(super) struct Referee<'a> {
    profile: Shared<'a, Profile>,
    upcard: HandCard,
    /// Each hand as a card mask and a joker mask: a hand without jokers is
    /// replayed on its 64-bit mask alone, with the joker-free solvers.
    hands: [Hand; 2],
    /// The stock as listed: all of it, or only its first cards.
    stock: Shared<'a, [HandCard]>,
    /// Stock cards drawn so far: the next one is `stock[drawn]`, when listed.
    drawn: usize,
    /// Every card known to be in play: dealt, listed in the stock, or named by a
    /// draw past the listed stock.
    seen: Hand,
    /// The discard pile, top card last.
    pile: pile::Pile,
    /// For each seat (dealer, non-dealer), the cards it took from the discard
    /// pile and still holds: the cards of its hand the other seat has seen.
    taken: [Hand; 2],
    phase: Phase,
}

impl<'a> Referee<'a> {
    /// A referee for a deal already checked by [`check_deal`].
    pub(super) fn new(profile: &'a Profile, deal: &'a Deal) -> Referee<'a> {
        Referee::reading(
            Shared::Borrowed(profile),
            Shared::Borrowed(&deal.stock),
            deal,
        )
    }

    /// A referee that owns what it reads, for a hand held between calls.
    pub(super) fn held(profile: Arc<Profile>, deal: &Deal) -> Referee<'static> {
        let stock: Arc<[HandCard]> = deal.stock.as_slice().into();
        Referee::reading(Shared::Owned(profile), Shared::Owned(stock), deal)
    }

    fn reading(
        profile: Shared<'a, Profile>,
        stock: Shared<'a, [HandCard]>,
        deal: &Deal,
    ) -> Referee<'a> {
        let hand = |cards: &[HandCard]| cards.iter().copied().collect::<Hand>();
        let seen = deal
            .dealer
            .iter()
            .chain(&deal.non_dealer)
            .chain(&deal.stock)
            .fold(Hand::default().with(deal.upcard), |hand, &c| hand.with(c));
        Referee {
            profile,
            seen,
            upcard: deal.upcard,
            hands: [hand(&deal.dealer), hand(&deal.non_dealer)],
            stock,
            drawn: 0,
            pile: pile::Pile::of(deal.upcard),
            taken: [Hand::default(); 2],
            phase: Phase::UpcardOffer {
                to: Seat::NonDealer,
            },
        }
    }

    fn hand(&self, seat: Seat) -> Hand {
        let [dealer, non_dealer] = self.hands;
        match seat {
            Seat::Dealer => dealer,
            Seat::NonDealer => non_dealer,
        }
    }

    fn hand_mut(&mut self, seat: Seat) -> &mut Hand {
        let [dealer, non_dealer] = &mut self.hands;
        match seat {
            Seat::Dealer => dealer,
            Seat::NonDealer => non_dealer,
        }
    }

    /// The cards `seat` took from the discard pile and still holds.
    fn taken(&self, seat: Seat) -> Hand {
        let [dealer, non_dealer] = self.taken;
        match seat {
            Seat::Dealer => dealer,
            Seat::NonDealer => non_dealer,
        }
    }

    /// Moves `card` into or out of `seat`'s hand, keeping [`Referee::taken`]
    /// in step: a card leaving the hand is no longer one the opponent saw
    /// taken.
    fn give(&mut self, seat: Seat, card: HandCard, from_pile: bool) {
        let [dealer, non_dealer] = &mut self.taken;
        let taken = match seat {
            Seat::Dealer => dealer,
            Seat::NonDealer => non_dealer,
        };
        if from_pile {
            *taken = taken.with(card);
        }
        let hand = self.hand_mut(seat);
        *hand = hand.with(card);
    }

    /// `card` leaves `seat`'s hand (a discard, a knock card).
    fn remove(&mut self, seat: Seat, card: HandCard) {
        let [dealer, non_dealer] = &mut self.taken;
        let taken = match seat {
            Seat::Dealer => dealer,
            Seat::NonDealer => non_dealer,
        };
        *taken = taken.without(card);
        let hand = self.hand_mut(seat);
        *hand = hand.without(card);
    }

    /// The stock always holds 31 cards at the deal (one more per joker),
    /// listed or not.
    fn stock_remaining(&self) -> usize {
        stock_size(self.profile.jokers()).saturating_sub(self.drawn)
    }

    /// The upcard as the profile reads it for the knock limit and spade
    /// doubling (a joker counts as [`JOKER_UPCARD_STANDS_AS`]).
    fn scoring_upcard(&self) -> Card {
        scoring_upcard(self.upcard)
    }

    /// Whether a joker taken from the discard pile must be melded that turn.
    fn pickup_must_meld(&self) -> bool {
        self.profile.joker_rules().joker_pickup_must_meld()
    }

    fn to_act(&self) -> Option<Seat> {
        match &self.phase {
            Phase::UpcardOffer { to } | Phase::FiftiethOffer { to } => Some(*to),
            Phase::OpeningDraw => Some(Seat::NonDealer),
            Phase::ToDraw { player } | Phase::Drew { player, .. } => Some(*player),
            Phase::Knocked { .. } | Phase::Void { .. } => None,
        }
    }

    pub(super) fn table(&self) -> Table {
        Table {
            dealer: self.hand(Seat::Dealer),
            non_dealer: self.hand(Seat::NonDealer),
            stock_remaining: self.stock_remaining(),
            discard_top: self.pile.last().copied(),
            to_act: self.to_act(),
        }
    }

    pub(super) fn end(&self) -> Option<HandEnd> {
        match &self.phase {
            Phase::Knocked { hand, .. } => Some(HandEnd::Scored(hand.clone())),
            Phase::Void { at } => Some(HandEnd::Void { action: *at }),
            _ => None,
        }
    }

    pub(super) fn step(&mut self, index: usize, action: &Action) -> Result<(), Stop> {
        let Action { player, play } = action;
        let player = *player;
        if let Some(after_end) = self.after_end(player, play) {
            return after_end;
        }
        if let Move::LayOff { .. } = play {
            return lay_off_without_knock(player);
        }
        // Out of turn: the fault is who acted.
        self.check_seat(player, play)
            .map_err(|stop| at_field(stop, "player"))?;
        match self.phase.clone() {
            Phase::UpcardOffer { to } => self.offer(to, play),
            Phase::OpeningDraw => self.opening_draw(index, player, play),
            Phase::ToDraw { .. } => match play {
                Move::Pass => violation(
                    ViolationCode::PassNotAllowed,
                    format!(
                        "{player} passed, but only the first upcard (or, under the 50th-card \
                         rule, the last discard) may be passed; on a turn a player must draw \
                         from the stock or the discard pile"
                    ),
                ),
                _ => self.turn(index, player, play),
            },
            Phase::Drew {
                taken, must_knock, ..
            } => self.after_draw(index, player, play, taken, must_knock),
            Phase::FiftiethOffer { .. } => self.fiftieth_offer(index, player, play),
            // Handled above.
            Phase::Knocked { .. } | Phase::Void { .. } => Ok(()),
        }
    }

    /// A play once the hand is void or knocked: the defender's reply to the
    /// knock, or the fault of playing after the end; `None` while the hand
    /// goes on.
    fn after_end(&mut self, player: Seat, play: &Move) -> Option<Result<(), Stop>> {
        match &self.phase {
            Phase::Void { at } => Some(violation(
                ViolationCode::HandIsVoid,
                format!(
                    "the hand became void at action {at}: nobody knocked before the stock \
                     came down to its last two cards, so {player} cannot {} after that",
                    play.phrase()
                ),
            )),
            Phase::Knocked { hand, replied } => {
                let replied = *replied;
                let knocker = hand.knocker;
                let at = hand.knock_action;
                Some(match play {
                    Move::LayOff {
                        melds,
                        jokers,
                        layoffs,
                    } if !replied && player != knocker => self.reply(melds, *jokers, layoffs),
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
                })
            }
            _ => None,
        }
    }

    /// The non-dealer's first draw once both passed the upcard: from the
    /// stock only.
    fn opening_draw(&mut self, index: usize, player: Seat, play: &Move) -> Result<(), Stop> {
        match play {
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
            _ => self.turn(index, player, play),
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
    fn turn(&mut self, index: usize, player: Seat, play: &Move) -> Result<(), Stop> {
        match play {
            Move::Draw {
                from: Source::Stock,
                card,
            } => self.draw_stock(index, player, *card),
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
        expected: Option<HandCard>,
        actual: HandCard,
        place: &str,
    ) -> Result<(), Stop> {
        match expected {
            Some(expected) if expected != actual => violation_at(
                ViolationCode::ExpectedCardMismatch,
                format!(
                    "the transcript says {player} drew {expected}, but the top card of {place} \
                     is {actual}"
                ),
                "card",
            ),
            _ => Ok(()),
        }
    }

    fn draw_stock(
        &mut self,
        index: usize,
        player: Seat,
        expected: Option<HandCard>,
    ) -> Result<(), Stop> {
        // Unreachable through `turn` (the hand ends before), but cheap to keep true.
        if self.stock_remaining() <= STOCK_RESERVE {
            return self.stock_exhausted(player);
        }
        let card = match (self.stock.get(self.drawn), expected) {
            (Some(&card), _) => {
                self.check_expected(player, expected, card, "the stock")?;
                card
            }
            // Past the listed stock the draw names its card: any card not yet
            // in play can be the next stock card.
            (None, Some(card)) if !self.seen.contains(card) => {
                self.seen = self.seen.with(card);
                card
            }
            (None, Some(card)) => {
                return Err(Stop::Deal(DealError::DrawnCardSeen {
                    action: index,
                    card,
                }));
            }
            (None, None) => {
                return Err(Stop::Deal(DealError::UnrecordedDraw {
                    action: index,
                    listed: self.stock.len(),
                }));
            }
        };
        self.drawn += 1;
        self.give(player, card, false);
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
        expected: Option<HandCard>,
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
        self.give(player, card, true);
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
        taken: Option<HandCard>,
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
                self.check_discard(player, *card, taken, "card")?;
                if let Some(HandCard::Joker(joker)) = taken
                    && self.pickup_must_meld()
                {
                    return violation(
                        ViolationCode::JokerNotMelded,
                        format!(
                            "{player} took {joker} from the discard pile, and under this \
                             profile a joker taken from the pile must be melded that turn: \
                             a player melds only by knocking, so {player} had to knock with \
                             {joker} in a meld rather than discard {card}"
                        ),
                    );
                }
                self.remove(player, *card);
                self.pile.push(*card);
                self.phase = if self.stock_remaining() > STOCK_RESERVE {
                    Phase::ToDraw {
                        player: player.other(),
                    }
                } else {
                    match self.profile.stock_end() {
                        StockEnd::Void => Phase::Void { at: index },
                        StockEnd::FiftiethCard => Phase::FiftiethOffer { to: player.other() },
                    }
                };
                Ok(())
            }
            Move::Knock {
                discard,
                melds,
                jokers,
            } => self.knock(index, player, *discard, melds, *jokers, taken),
            Move::LayOff { .. } => lay_off_without_knock(player),
        }
    }

    /// `field` names the card in the action: `card` of a discard, `discard`
    /// of a knock.
    fn check_discard(
        &self,
        player: Seat,
        card: HandCard,
        taken: Option<HandCard>,
        field: &str,
    ) -> Result<(), Stop> {
        if !self.hand(player).contains(card) {
            return violation_at(
                ViolationCode::CardNotInHand,
                format!("{player} does not hold {card}, so cannot discard it"),
                field,
            );
        }
        if taken == Some(card) {
            return violation_at(
                ViolationCode::DiscardJustTaken,
                format!(
                    "{player} took {card} from the discard pile this turn and may not discard \
                     it on the same turn"
                ),
                field,
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
}
