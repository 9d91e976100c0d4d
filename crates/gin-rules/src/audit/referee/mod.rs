//! The referee: the state machine that replays a hand action by action.

use super::RecordedLayoff;
use super::{
    Action, Deal, DealError, HandEnd, Move, STOCK_RESERVE, ScoredHand, Seat, Source, Table,
    ViolationCode, stock_size,
};
use crate::card::{Card, CardSet, Rank, Suit};
use crate::declared::faults_text;
use crate::hand::{Hand, HandCard, Joker};
use crate::layoff::natural::{Layoff, greedy_layoffs, place_layoffs};
use crate::layoff::{DeclaredLayoff, DeclaredReply, ReplyError, declared_reply};
use crate::meld::{ArrangementReport, Meld};
use crate::profile::{Profile, StockEnd};
use crate::score::{DefenderHand, HandError, KnockerHand, joker_free, score_hand, score_laid_down};

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

pub(super) struct Referee<'a> {
    profile: &'a Profile,
    upcard: HandCard,
    /// Each hand as a card mask and a joker mask: a hand without jokers is
    /// replayed on its 64-bit mask exactly as before jokers existed.
    hands: [Hand; 2],
    /// The stock as listed: all of it, or only its first cards.
    stock: &'a [HandCard],
    /// Stock cards drawn so far: the next one is `stock[drawn]`, when listed.
    drawn: usize,
    /// Every card known to be in play: dealt, listed in the stock, or named by a
    /// draw past the listed stock.
    seen: Hand,
    /// The discard pile, top card last.
    pile: Vec<HandCard>,
    phase: Phase,
}

impl<'a> Referee<'a> {
    /// A referee for a deal already checked by [`check_deal`].
    pub(super) fn new(profile: &'a Profile, deal: &'a Deal) -> Referee<'a> {
        let hand = |cards: &[HandCard]| cards.iter().fold(Hand::default(), |hand, &c| hand.with(c));
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
            stock: &deal.stock,
            drawn: 0,
            pile: vec![deal.upcard],
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
                    Move::LayOff {
                        melds,
                        jokers,
                        layoffs,
                    } if !replied && player != knocker => self.reply(melds, jokers, layoffs),
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
        // Out of turn: the fault is who acted.
        self.check_seat(player, play)
            .map_err(|stop| at_field(stop, "player"))?;
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
                _ => self.turn(index, player, play),
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
        let hand = self.hand_mut(player);
        *hand = hand.with(card);
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
        let hand = self.hand_mut(player);
        *hand = hand.with(card);
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
                let hand = self.hand_mut(player);
                *hand = hand.without(*card);
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
            } => self.knock(index, player, *discard, melds, jokers, taken),
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

    #[allow(clippy::too_many_arguments)]
    fn knock(
        &mut self,
        index: usize,
        player: Seat,
        discard: Option<HandCard>,
        melds: &Option<Vec<Vec<HandCard>>>,
        jokers: &[(Joker, Card)],
        taken: Option<HandCard>,
    ) -> Result<(), Stop> {
        let mut kept = self.hand(player);
        if let Some(card) = discard {
            self.check_discard(player, card, taken, "discard")?;
            kept = kept.without(card);
        }
        if let (None, Some(&(joker, card))) = (melds, jokers.first()) {
            return violation_at(
                ViolationCode::InvalidMelds,
                format!(
                    "{player}'s knock says {joker} stands for {card}, but declares no melds: a \
                     joker's card is named only for the melds that hold it"
                ),
                "jokers",
            );
        }
        let defender = self.hand(player.other());
        let knocker_hand = KnockerHand {
            hand: kept.cards().collect(),
            melds: melds.clone(),
            jokers: (!jokers.is_empty()).then(|| jokers.to_vec()),
        };
        let defender_hand = DefenderHand::of_cards(defender.cards());
        // Scored as `/v1/hands/score` scores the same hands; the reply is
        // checked when it is played, after the knock.
        let score = score_hand(
            self.profile,
            Some(self.scoring_upcard()),
            &knocker_hand,
            &defender_hand,
        )
        .map_err(|e| score_fault(e, player, melds.is_some()))?;
        let hand = Box::new(ScoredHand {
            knocker: player,
            knock_action: index,
            knocker_hand,
            defender_hand,
            score,
        });
        if let Some(HandCard::Joker(joker)) = taken
            && self.pickup_must_meld()
            && !hand
                .score
                .showdown
                .knocker
                .melds
                .iter()
                .any(|m| m.stands_for(joker).is_some())
        {
            let how = if melds.is_some() {
                "the declared melds leave it out"
            } else {
                "the knocker's best arrangement leaves it out (declare melds holding it to show \
                 another)"
            };
            return Err(Stop::Violation(
                ViolationCode::JokerNotMelded,
                format!(
                    "{player} took {joker} from the discard pile, and under this profile a joker \
                     taken from the pile must be melded that turn, but {player} knocked with \
                     {joker} in deadwood: {how}"
                ),
                melds.is_some().then(|| "melds".to_owned()),
            ));
        }
        *self.hand_mut(player) = kept;
        if let Some(card) = discard {
            self.pile.push(card);
        }
        self.phase = Phase::Knocked {
            hand,
            replied: false,
        };
        Ok(())
    }

    /// The defender's declared reply, against the knocker's melds as laid down.
    fn reply(
        &mut self,
        melds: &Option<Vec<Vec<HandCard>>>,
        jokers: &[(Joker, Card)],
        layoffs: &Option<Vec<RecordedLayoff>>,
    ) -> Result<(), Stop> {
        let Phase::Knocked { hand, .. } = &self.phase else {
            return Ok(());
        };
        let hand = match joker_free(&hand.knocker_hand, &hand.defender_hand) {
            Some(_) => {
                let names_joker = melds
                    .iter()
                    .flatten()
                    .flatten()
                    .chain(layoffs.iter().flatten().map(|l| &l.card))
                    .any(|c| matches!(c, HandCard::Joker(_)));
                // A natural card said to stand for another.
                let stands_elsewhere = layoffs
                    .iter()
                    .flatten()
                    .any(|l| l.stands_for.is_some_and(|c| HandCard::Natural(c) != l.card));
                if names_joker || stands_elsewhere || !jokers.is_empty() {
                    // No hand holds a joker: the checks with jokers find the
                    // fault (a joker not held, a natural standing for another).
                    self.reply_check(hand, melds, jokers, layoffs)?;
                }
                Box::new(self.reply_natural(hand, melds, layoffs)?)
            }
            None => Box::new(self.reply_with_jokers(hand, melds, jokers, layoffs)?),
        };
        self.phase = Phase::Knocked {
            hand,
            replied: true,
        };
        Ok(())
    }

    /// The reply to a knock without jokers, as the joker-free scoring checks
    /// it: the knocker's melds as laid down, the recorded layoffs placed onto
    /// them ([`resolve_layoffs`]).
    fn reply_natural(
        &self,
        hand: &ScoredHand,
        melds: &Option<Vec<Vec<HandCard>>>,
        layoffs: &Option<Vec<RecordedLayoff>>,
    ) -> Result<ScoredHand, Stop> {
        let knocker = hand.knocker;
        let knocker_melds = &hand.score.showdown.knocker.melds;
        let knocker_hand = KnockerHand {
            hand: hand.knocker_hand.hand.clone(),
            melds: Some(
                knocker_melds
                    .iter()
                    .map(|m| m.cards().iter().map(HandCard::Natural).collect())
                    .collect(),
            ),
            jokers: None,
        };
        let natural_melds = melds.as_ref().map(|melds| naturals_of(melds));
        let held: Vec<Card> = hand
            .defender_hand
            .hand
            .iter()
            .filter_map(|c| c.natural())
            .collect();
        let layoffs = match layoffs {
            Some(recorded) => Some(resolve_layoffs(
                knocker_melds,
                recorded,
                &held,
                natural_melds.as_deref(),
                knocker.other(),
            )?),
            None => None,
        };
        let defender_hand = DefenderHand {
            hand: hand.defender_hand.hand.clone(),
            melds: natural_melds.map(|melds| {
                melds
                    .into_iter()
                    .map(|meld| meld.into_iter().map(HandCard::Natural).collect())
                    .collect()
            }),
            jokers: None,
            layoffs,
        };
        let score = score_hand(
            self.profile,
            Some(self.scoring_upcard()),
            &knocker_hand,
            &defender_hand,
        )
        .map_err(|e| score_fault(e, knocker, true))?;
        Ok(ScoredHand {
            knocker,
            knock_action: hand.knock_action,
            knocker_hand,
            defender_hand,
            score,
        })
    }

    /// The reply to a knock with jokers: the knocker's melds as laid down,
    /// the defender's declared parts checked ([`crate::declared_reply`]).
    fn reply_with_jokers(
        &self,
        hand: &ScoredHand,
        melds: &Option<Vec<Vec<HandCard>>>,
        jokers: &[(Joker, Card)],
        layoffs: &Option<Vec<RecordedLayoff>>,
    ) -> Result<ScoredHand, Stop> {
        let knocker = &hand.score.showdown.knocker;
        let declaration =
            declaration(&knocker.melds, melds, jokers, layoffs, hand.knocker.other())?;
        let score = score_laid_down(
            self.profile,
            Some(self.scoring_upcard()),
            hand_of(&hand.knocker_hand.hand),
            knocker.clone(),
            hand_of(&hand.defender_hand.hand),
            &declaration.declared,
        )
        .map_err(|e| declaration.locate(score_fault(e, hand.knocker, true)))?;
        Ok(ScoredHand {
            score,
            ..hand.clone()
        })
    }

    /// Checks a reply naming a joker to a knock where no hand holds one: the
    /// fault the checks with jokers find.
    fn reply_check(
        &self,
        hand: &ScoredHand,
        melds: &Option<Vec<Vec<HandCard>>>,
        jokers: &[(Joker, Card)],
        layoffs: &Option<Vec<RecordedLayoff>>,
    ) -> Result<(), Stop> {
        let knocker = hand.knocker;
        let arrangement = &hand.score.showdown.knocker;
        let declaration = declaration(&arrangement.melds, melds, jokers, layoffs, knocker.other())?;
        let rules = self.profile.joker_rules();
        let layoffs_allowed = arrangement.deadwood > 0 || self.profile.layoffs_on_gin();
        declared_reply(
            &arrangement.melds,
            hand_of(&hand.defender_hand.hand),
            &declaration.declared,
            &rules,
            layoffs_allowed,
        )
        .map(|_| ())
        .map_err(|e| declaration.locate(score_fault(e.into(), knocker, true)))
    }
}

/// A list of distinct cards as a hand (the replay keeps them distinct).
fn hand_of(cards: &[HandCard]) -> Hand {
    cards
        .iter()
        .fold(Hand::default(), |hand, &card| hand.with(card))
}

/// The cards of declared melds that are natural (the caller has found no
/// joker among them).
fn naturals_of(melds: &[Vec<HandCard>]) -> Vec<Vec<Card>> {
    melds
        .iter()
        .map(|meld| {
            meld.iter()
                .filter_map(|c| match c {
                    HandCard::Natural(card) => Some(*card),
                    HandCard::Joker(_) => None,
                })
                .collect()
        })
        .collect()
}

/// A recorded reply as the checks with jokers take it, and where each of its
/// layoffs was recorded (the checks may take them in another order).
struct Declared {
    declared: DeclaredReply,
    /// For each layoff given to the checks, its place in the record.
    recorded_at: Vec<usize>,
}

impl Declared {
    /// A layoff fault at the layoff's place in the record.
    fn locate(&self, stop: Stop) -> Stop {
        match stop {
            Stop::Violation(code, message, Some(field)) => {
                let moved = field
                    .strip_prefix("layoffs/")
                    .and_then(|i| i.parse::<usize>().ok())
                    .and_then(|i| self.recorded_at.get(i));
                match moved {
                    Some(&at) => Stop::Violation(
                        code,
                        // The message counts layoffs as the checks took them.
                        message,
                        Some(format!("layoffs/{at}")),
                    ),
                    None => Stop::Violation(code, message, Some(field)),
                }
            }
            other => other,
        }
    }
}

/// The recorded reply as a [`DeclaredReply`]. A layoff naming its meld by
/// index is played in the order recorded when all do (as without jokers); a
/// layoff naming it by cards (`onto`) names that meld, and such a record is
/// given to the checks in a playing order (each run grown outward), since
/// legality depends on which cards a meld ends with; a layoff naming no meld
/// is placed by the checks.
fn declaration(
    knocker_melds: &[Meld],
    melds: &Option<Vec<Vec<HandCard>>>,
    jokers: &[(Joker, Card)],
    layoffs: &Option<Vec<RecordedLayoff>>,
    defender: Seat,
) -> Result<Declared, Stop> {
    let mut recorded_at = Vec::new();
    let layoffs = match layoffs {
        None => None,
        Some(recorded) => {
            let mut list = Vec::with_capacity(recorded.len());
            for (index, layoff) in recorded.iter().enumerate() {
                let holds = |meld: &Meld, cards: &[HandCard]| {
                    cards.iter().all(|&c| match c {
                        HandCard::Natural(card) => meld.cards().contains(card),
                        HandCard::Joker(joker) => meld.stands_for(joker).is_some(),
                    })
                };
                let meld = match (&layoff.onto, layoff.meld) {
                    (None, meld) => meld,
                    (Some(onto), Some(meld))
                        if knocker_melds.get(meld).is_some_and(|m| holds(m, onto)) =>
                    {
                        Some(meld)
                    }
                    (Some(onto), None) if onto.is_empty() => None,
                    (Some(onto), None) => knocker_melds.iter().position(|m| holds(m, onto)),
                    (Some(_), Some(_)) => None,
                };
                if layoff.onto.as_ref().is_some_and(|onto| !onto.is_empty()) && meld.is_none() {
                    return Err(onto_not_found(defender, index, layoff));
                }
                list.push((
                    index,
                    DeclaredLayoff {
                        card: layoff.card,
                        stands_for: layoff.stands_for,
                        meld,
                    },
                ));
            }
            let by_cards = recorded.iter().any(|l| l.onto.is_some());
            if by_cards && list.iter().all(|(_, l)| l.meld.is_some()) {
                // Sets first, then each run's cards outward.
                list.sort_by_key(|(index, l)| {
                    let distance = l
                        .meld
                        .and_then(|m| knocker_melds.get(m))
                        .map_or(0, |m| outward_distance(m, l));
                    (distance, *index)
                });
            }
            recorded_at = list.iter().map(|(index, _)| *index).collect();
            Some(list.into_iter().map(|(_, l)| l).collect())
        }
    };
    Ok(Declared {
        declared: DeclaredReply {
            melds: melds.clone(),
            jokers: jokers.to_vec(),
            layoffs,
        },
        recorded_at,
    })
}

/// How far the card a layoff shows lies from a run's ends (0 for a set).
fn outward_distance(meld: &Meld, layoff: &DeclaredLayoff) -> u32 {
    let shows = match (layoff.card, layoff.stands_for) {
        (HandCard::Natural(card), _) | (HandCard::Joker(_), Some(card)) => card,
        (HandCard::Joker(_), None) => return 0,
    };
    if meld.kind() == crate::meld::MeldKind::Set {
        return 0;
    }
    let bits = meld.cards().bits();
    let at = CardSet::single(shows).bits().trailing_zeros();
    let low = bits.trailing_zeros();
    let high = 63 - bits.leading_zeros();
    if at < low {
        low - at
    } else {
        at.saturating_sub(high)
    }
}

/// The recorded layoffs as the scorer takes them, each onto a meld index (see
/// [`RecordedLayoff`]). All by index: as recorded, checked in order. Otherwise
/// placed where the record allows; when no placement is legal, each goes onto
/// its first possible meld in the order recorded, so that the scorer names the
/// first layoff that cannot be played.
fn resolve_layoffs(
    knocker_melds: &[crate::meld::Meld],
    recorded: &[RecordedLayoff],
    held: &[Card],
    own_melds: Option<&[Vec<Card>]>,
    defender: Seat,
) -> Result<Vec<DeclaredLayoff>, Stop> {
    let declared = |layoff: Layoff| DeclaredLayoff {
        card: HandCard::Natural(layoff.card),
        stands_for: None,
        meld: Some(layoff.meld),
    };
    let free = |card: Card| {
        held.contains(&card)
            && !own_melds
                .into_iter()
                .flatten()
                .flatten()
                .any(|&c| c == card)
    };
    // The caller found no joker among the cards laid off.
    let natural = |card: HandCard| match card {
        HandCard::Natural(card) => card,
        HandCard::Joker(_) => JOKER_UPCARD_STANDS_AS,
    };
    if recorded
        .iter()
        .all(|l| l.meld.is_some() && l.onto.is_none())
    {
        return Ok(recorded
            .iter()
            .map(|l| {
                declared(Layoff {
                    card: natural(l.card),
                    meld: l.meld.unwrap_or_default(),
                })
            })
            .collect());
    }
    let mut requests = Vec::with_capacity(recorded.len());
    for (index, layoff) in recorded.iter().enumerate() {
        let holds = |meld: usize| {
            layoff.onto.as_ref().is_none_or(|cards| {
                knocker_melds.get(meld).is_some_and(|m| {
                    cards.iter().all(|&c| match c {
                        HandCard::Natural(card) => m.cards().contains(card),
                        // No meld of a joker-free knock holds a joker.
                        HandCard::Joker(_) => false,
                    })
                })
            })
        };
        let candidates: Vec<usize> = match layoff.meld {
            Some(meld) => vec![meld],
            None => (0..knocker_melds.len()).filter(|&m| holds(m)).collect(),
        };
        if candidates.iter().all(|&m| !holds(m)) || candidates.is_empty() {
            return Err(onto_not_found(defender, index, layoff));
        }
        requests.push((natural(layoff.card), candidates));
    }
    // A card the defender cannot lay off is reported at its own index, in the
    // order recorded: only free cards are placed.
    let placed = if recorded.iter().all(|l| free(natural(l.card))) {
        place_layoffs(knocker_melds, &requests)
    } else {
        None
    };
    let layoffs = placed.unwrap_or_else(|| greedy_layoffs(knocker_melds, &requests));
    Ok(layoffs.into_iter().map(declared).collect())
}

/// Turns the scorer's refusal of a knock or a reply into a violation.
fn score_fault(error: HandError, knocker: Seat, melds_declared: bool) -> Stop {
    let defender = knocker.other();
    let melds_field = Some("melds".to_owned());
    let (code, message, field) = match &error {
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
                if melds_declared { melds_field } else { None },
            )
        }
        HandError::InvalidMelds { side, report } => {
            let seat = match side {
                crate::score::Side::Knocker => knocker,
                crate::score::Side::Defender => defender,
            };
            (
                ViolationCode::InvalidMelds,
                format!(
                    "{seat}'s declared melds are not legal: {}",
                    arrangement_faults(report)
                ),
                melds_field,
            )
        }
        HandError::BigGinNotPlayed => (
            ViolationCode::BigGinNotAllowed,
            format!(
                "{knocker} knocked without discarding, which is big gin (all 11 cards melded), \
                 but this profile does not play big gin: a knock must discard a card"
            ),
            None,
        ),
        HandError::NotBigGin { deadwood } => (
            ViolationCode::NotBigGin,
            format!(
                "{knocker} knocked without discarding (big gin), but the 11 cards do not all \
                 meld: {deadwood} deadwood is left"
            ),
            None,
        ),
        HandError::DeclaredMeldFaults(faults) => (
            ViolationCode::InvalidMelds,
            format!(
                "{knocker}'s declared melds are not legal: {}",
                faults_text(faults)
            ),
            melds_field,
        ),
        HandError::Reply(ReplyError::Melds(faults)) => (
            ViolationCode::InvalidMelds,
            format!(
                "{defender}'s declared melds are not legal: {}",
                faults_text(faults)
            ),
            melds_field,
        ),
        HandError::Reply(reply) => {
            let code = match reply {
                ReplyError::NotAllowedOnGin { .. } => ViolationCode::LayoffsNotAllowed,
                ReplyError::CardNotHeld { .. } | ReplyError::CardNotInHand { .. } => {
                    ViolationCode::LayoffCardNotInHand
                }
                ReplyError::AlreadyLaidOff { .. } => ViolationCode::LayoffCardRepeated,
                ReplyError::NoSuchMeld { .. } => ViolationCode::LayoffMeldNotFound,
                ReplyError::Melds(_)
                | ReplyError::StandsFor { .. }
                | ReplyError::JokerLayoffNotAllowed { .. }
                | ReplyError::DoesNotFit { .. } => ViolationCode::LayoffDoesNotFit,
            };
            let field = match reply {
                ReplyError::NotAllowedOnGin { .. } => "layoffs".to_owned(),
                other => format!("layoffs/{}", other.index().unwrap_or_default()),
            };
            (code, format!("{defender}'s {reply}"), Some(field))
        }
        // The deal and the replay keep every card in the deck and in one hand
        // only.
        HandError::DuplicateCard { .. }
        | HandError::WrongCardCount { .. }
        | HandError::Read { .. }
        | HandError::InBothHands { .. }
        | HandError::Profile(_) => return Stop::Inconsistent(error.to_string()),
    };
    Stop::Violation(code, message, field)
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

/// A layoff recorded onto a meld (by some of its cards) that no meld laid
/// down at the knock holds.
fn onto_not_found(defender: Seat, index: usize, layoff: &RecordedLayoff) -> Stop {
    let named = layoff
        .onto
        .as_deref()
        .unwrap_or_default()
        .iter()
        .map(HandCard::to_string)
        .collect::<Vec<_>>()
        .join(" ");
    Stop::Violation(
        ViolationCode::LayoffMeldNotFound,
        format!(
            "{defender}'s layoff {index}: {} is recorded onto the knocker's meld holding \
             {named}, and no meld laid down at the knock holds those cards",
            layoff.card
        ),
        Some(format!("layoffs/{index}/onto")),
    )
}
