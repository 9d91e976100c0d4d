//! The referee: the state machine that replays a hand action by action.

use super::RecordedLayoff;
use super::{
    Action, Deal, DealError, HandEnd, Move, STOCK_RESERVE, STOCK_SIZE, ScoredHand, Seat, Source,
    Table, ViolationCode,
};
use crate::card::{Card, CardSet};
use crate::layoff::{Layoff, LayoffError, greedy_layoffs, place_layoffs};
use crate::meld::ArrangementReport;
use crate::profile::{Profile, StockEnd};
use crate::score::{DefenderHand, HandError, KnockerHand, score_hand};

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
pub(super) enum Stop {
    /// An illegal action: its code, the sentence, and the part of the action
    /// at fault (a pointer within the action: `card`, `layoffs/2`), if one is.
    Violation(ViolationCode, String, Option<String>),
    Inconsistent(HandError),
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
    upcard: Card,
    hands: [CardSet; 2],
    /// The stock as listed: all of it, or only its first cards.
    stock: &'a [Card],
    /// Stock cards drawn so far: the next one is `stock[drawn]`, when listed.
    drawn: usize,
    /// Every card known to be in play: dealt, listed in the stock, or named by a
    /// draw past the listed stock.
    seen: CardSet,
    /// The discard pile, top card last.
    pile: Vec<Card>,
    phase: Phase,
}

impl<'a> Referee<'a> {
    /// A referee for a deal already checked by [`check_deal`].
    pub(super) fn new(profile: &'a Profile, deal: &'a Deal) -> Referee<'a> {
        let hand = |cards: &[Card]| {
            cards
                .iter()
                .fold(CardSet::EMPTY, |set, &c| set.union(c.into()))
        };
        let seen = hand(&deal.dealer)
            .union(hand(&deal.non_dealer))
            .union(hand(&deal.stock))
            .union(deal.upcard.into());
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

    fn hand(&self, seat: Seat) -> CardSet {
        let [dealer, non_dealer] = self.hands;
        match seat {
            Seat::Dealer => dealer,
            Seat::NonDealer => non_dealer,
        }
    }

    fn hand_mut(&mut self, seat: Seat) -> &mut CardSet {
        let [dealer, non_dealer] = &mut self.hands;
        match seat {
            Seat::Dealer => dealer,
            Seat::NonDealer => non_dealer,
        }
    }

    /// The stock always holds 31 cards at the deal, listed or not.
    fn stock_remaining(&self) -> usize {
        STOCK_SIZE.saturating_sub(self.drawn)
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
        expected: Option<Card>,
        actual: Card,
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
        expected: Option<Card>,
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
                self.seen.insert(card);
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
                self.check_discard(player, *card, taken, "card")?;
                self.hand_mut(player).remove(*card);
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
            Move::Knock { discard, melds } => self.knock(index, player, *discard, melds, taken),
            Move::LayOff { .. } => lay_off_without_knock(player),
        }
    }

    /// `field` names the card in the action: `card` of a discard, `discard`
    /// of a knock.
    fn check_discard(
        &self,
        player: Seat,
        card: Card,
        taken: Option<Card>,
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
            self.check_discard(player, card, taken, "discard")?;
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
        layoffs: &Option<Vec<RecordedLayoff>>,
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
        let knocker_melds = &hand.score.showdown.knocker.melds;
        let layoffs = match layoffs {
            Some(recorded) => Some(resolve_layoffs(
                knocker_melds,
                recorded,
                &hand.defender_hand.hand,
                melds.as_deref(),
                knocker.other(),
            )?),
            None => None,
        };
        let defender_hand = DefenderHand {
            hand: hand.defender_hand.hand.clone(),
            melds: melds.clone(),
            layoffs,
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
) -> Result<Vec<Layoff>, Stop> {
    let free = |card: Card| {
        held.contains(&card)
            && !own_melds
                .into_iter()
                .flatten()
                .flatten()
                .any(|&c| c == card)
    };
    if recorded
        .iter()
        .all(|l| l.meld.is_some() && l.onto.is_none())
    {
        return Ok(recorded
            .iter()
            .map(|l| Layoff {
                card: l.card,
                meld: l.meld.unwrap_or_default(),
            })
            .collect());
    }
    let mut requests = Vec::with_capacity(recorded.len());
    for (index, layoff) in recorded.iter().enumerate() {
        let holds = |meld: usize| {
            layoff.onto.as_ref().is_none_or(|cards| {
                knocker_melds
                    .get(meld)
                    .is_some_and(|m| cards.iter().all(|&c| m.cards().contains(c)))
            })
        };
        let candidates: Vec<usize> = match layoff.meld {
            Some(meld) => vec![meld],
            None => (0..knocker_melds.len()).filter(|&m| holds(m)).collect(),
        };
        if candidates.iter().all(|&m| !holds(m)) || candidates.is_empty() {
            let named = layoff
                .onto
                .as_deref()
                .unwrap_or_default()
                .iter()
                .map(Card::to_string)
                .collect::<Vec<_>>()
                .join(" ");
            return Err(Stop::Violation(
                ViolationCode::LayoffMeldNotFound,
                format!(
                    "{defender}'s layoff {index}: {} is recorded onto the knocker's meld holding \
                     {named}, and no meld laid down at the knock holds those cards",
                    layoff.card
                ),
                Some(format!("layoffs/{index}/onto")),
            ));
        }
        requests.push((layoff.card, candidates));
    }
    // A card the defender cannot lay off is reported at its own index, in the
    // order recorded: only free cards are placed.
    let placed = if recorded.iter().all(|l| free(l.card)) {
        place_layoffs(knocker_melds, &requests)
    } else {
        None
    };
    Ok(placed.unwrap_or_else(|| greedy_layoffs(knocker_melds, &requests)))
}

/// Turns the scorer's refusal of a knock or a reply into a violation.
fn hand_fault(error: HandError, knocker: Seat, melds_declared: bool) -> Stop {
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
        HandError::Layoff(layoff) => {
            let code = match layoff {
                LayoffError::NotAllowedOnGin { .. } => ViolationCode::LayoffsNotAllowed,
                LayoffError::CardNotInHand { .. } => ViolationCode::LayoffCardNotInHand,
                LayoffError::AlreadyLaidOff { .. } => ViolationCode::LayoffCardRepeated,
                LayoffError::NoSuchMeld { .. } => ViolationCode::LayoffMeldNotFound,
                LayoffError::DoesNotFit { .. } => ViolationCode::LayoffDoesNotFit,
            };
            let field = match layoff {
                LayoffError::NotAllowedOnGin { .. } => "layoffs".to_owned(),
                _ => format!("layoffs/{}", layoff.index()),
            };
            (code, format!("{defender}'s {layoff}"), Some(field))
        }
        HandError::DuplicateCard { .. }
        | HandError::WrongCardCount { .. }
        | HandError::Profile(_) => return Stop::Inconsistent(error),
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
