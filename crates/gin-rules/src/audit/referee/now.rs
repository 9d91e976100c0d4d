//! What may be done now: the referee's phase turned into the actions it
//! accepts next (the argument is in [`crate::audit::live`]'s docs).

use super::*;
use crate::StandsFor;
use crate::audit::Violation;
use crate::audit::live::{HandState, LaidDown, LegalAction, LegalKind, StatePhase, View};
use crate::deadwood::min_deadwood;

impl Referee<'_> {
    /// Whether a copy of the referee accepts `play` by `player` now.
    fn accepts(&self, player: Seat, play: Move) -> bool {
        self.after(player, play).is_some()
    }

    /// A copy of the referee after `play`, if it accepts it.
    fn after(&self, player: Seat, play: Move) -> Option<Referee<'_>> {
        let mut copy = self.borrowed();
        copy.step(0, &Action { player, play }).ok().map(|()| copy)
    }

    fn legal(player: Seat, kind: LegalKind, play: Move, deadwood: Option<u32>) -> LegalAction {
        LegalAction {
            kind,
            action: Action { player, play },
            deadwood,
        }
    }

    /// Take the top of the pile, naming it (it is face up).
    fn take(&self) -> Move {
        Move::Draw {
            from: Source::DiscardPile,
            card: self.pile.last().copied(),
        }
    }

    /// The phase, who acts, and every action the referee accepts now.
    pub(in crate::audit) fn state(
        &self,
        violation: Option<Violation>,
        seat: Option<Seat>,
    ) -> HandState {
        let (phase, to_act) = self.phase_now();
        let (to_act, mut legal_actions, mut layable) = match violation {
            // An illegal transcript has no state past its violation.
            Some(_) => (None, Vec::new(), None),
            None => {
                let (actions, layable) = self.legal_now();
                (to_act, actions, layable)
            }
        };
        if seat.is_some() && seat != to_act {
            // A waiting seat sees none of the opponent's options.
            legal_actions.clear();
            layable = None;
        }
        let laid_down = match &self.phase {
            Phase::Knocked { hand, .. } => Some(LaidDown {
                knocker: hand.knocker,
                arrangement: hand.score.showdown.knocker.clone(),
            }),
            _ => None,
        };
        let end = (phase == StatePhase::Over).then(|| self.end()).flatten();
        let violation = match (violation, seat) {
            (Some(violation), Some(seat)) => Some(self.scrubbed(violation, seat)),
            (violation, _) => violation,
        };
        HandState {
            violation,
            phase,
            to_act,
            legal_actions,
            layable,
            laid_down,
            view: self.view(seat),
            end,
        }
    }

    pub(super) fn phase_now(&self) -> (StatePhase, Option<Seat>) {
        match &self.phase {
            Phase::UpcardOffer { to } => (StatePhase::UpcardOffer, Some(*to)),
            Phase::OpeningDraw => (StatePhase::Draw, Some(Seat::NonDealer)),
            Phase::ToDraw { player } => (StatePhase::Draw, Some(*player)),
            Phase::Drew { player, .. } => (StatePhase::Discard, Some(*player)),
            Phase::FiftiethOffer { to } => (StatePhase::LastDiscardOffer, Some(*to)),
            Phase::Knocked {
                hand,
                replied: false,
            } => (StatePhase::Reply, Some(hand.knocker.other())),
            Phase::Knocked { replied: true, .. } | Phase::Void { .. } => (StatePhase::Over, None),
        }
    }

    /// The listing, and in the reply the cards a single layoff accepts.
    pub(super) fn legal_now(&self) -> (Vec<LegalAction>, Option<Vec<HandCard>>) {
        let mut legal = Vec::new();
        match &self.phase {
            Phase::UpcardOffer { to } => {
                if self.accepts(*to, Move::Pass) {
                    legal.push(Self::legal(*to, LegalKind::Pass, Move::Pass, None));
                }
                self.push_take(*to, false, &mut legal);
            }
            Phase::OpeningDraw | Phase::ToDraw { .. } => {
                let player = self.to_act().unwrap_or(Seat::NonDealer);
                // The stock draw names no card: past a partly listed stock the
                // app names the card it dealt. The phase allows it whenever
                // more than the reserve is left, which a turn always has.
                if self.stock_remaining() > STOCK_RESERVE {
                    let draw = Move::Draw {
                        from: Source::Stock,
                        card: None,
                    };
                    legal.push(Self::legal(player, LegalKind::DrawStock, draw, None));
                }
                self.push_take(player, false, &mut legal);
            }
            Phase::Drew { player, taken, .. } => {
                legal = self.after_draw_options(*player, *taken);
            }
            Phase::FiftiethOffer { to } => {
                if self.accepts(*to, Move::Pass) {
                    legal.push(Self::legal(*to, LegalKind::Pass, Move::Pass, None));
                }
                self.push_take(*to, true, &mut legal);
            }
            Phase::Knocked {
                hand,
                replied: false,
            } => return self.replies(hand),
            Phase::Knocked { replied: true, .. } | Phase::Void { .. } => {}
        }
        (legal, None)
    }

    /// The take of the pile's top, listed when the referee accepts it and an
    /// action can follow it: at the 50th-card offer (`fiftieth`), and for a
    /// joker that must be melded that turn, only a knock can, so the take is
    /// listed only when one is possible (see the module docs of `live`).
    fn push_take(&self, player: Seat, fiftieth: bool, legal: &mut Vec<LegalAction>) {
        let take = self.take();
        let Some(after) = self.after(player, take.clone()) else {
            return;
        };
        let must_meld =
            matches!(self.pile.last(), Some(HandCard::Joker(_))) && self.pickup_must_meld();
        let listed = !(fiftieth || must_meld)
            || match after.phase {
                Phase::Drew { taken, .. } => after
                    .after_draw_options(player, taken)
                    .iter()
                    .any(|a| matches!(a.kind, LegalKind::Knock | LegalKind::BigGin)),
                _ => false,
            };
        if listed {
            legal.push(Self::legal(player, LegalKind::TakeDiscard, take, None));
        }
    }

    /// After the draw: each discard the referee accepts, each knock within the
    /// limit, and big gin where the profile plays it.
    fn after_draw_options(&self, player: Seat, taken: Option<HandCard>) -> Vec<LegalAction> {
        let hand = self.hand(player);
        let rules = self.profile.joker_rules();
        let limit = self
            .profile
            .knock_limit_for(Some(self.scoring_upcard()))
            .ok();
        // A joker taken from the pile that must be melded: whether the
        // referee's best arrangement melds it is the scorer's to say.
        let joker_must_meld = matches!(taken, Some(HandCard::Joker(_))) && self.pickup_must_meld();
        let mut discards = Vec::with_capacity(hand.len());
        let mut knocks = Vec::new();
        for card in hand.cards() {
            let discard = Move::Discard { card };
            if self.accepts(player, discard.clone()) {
                discards.push(Self::legal(player, LegalKind::Discard, discard, None));
            }
            if taken == Some(card) {
                continue;
            }
            let deadwood = min_deadwood(hand.without(card), &rules);
            let knock = Move::Knock {
                discard: Some(card),
                melds: None,
                jokers: StandsFor::default(),
            };
            if limit.is_some_and(|limit| deadwood <= limit)
                && (!joker_must_meld || self.accepts(player, knock.clone()))
            {
                knocks.push(Self::legal(player, LegalKind::Knock, knock, Some(deadwood)));
            }
        }
        if self.profile.big_gin_bonus().is_some() && min_deadwood(hand, &rules) == 0 {
            let knock = Move::Knock {
                discard: None,
                melds: None,
                jokers: StandsFor::default(),
            };
            if !joker_must_meld || self.accepts(player, knock.clone()) {
                knocks.push(Self::legal(player, LegalKind::BigGin, knock, Some(0)));
            }
        }
        discards.extend(knocks);
        discards
    }

    /// The defender's best reply (its melds and layoffs declared, as the
    /// referee plays them), the reply laying nothing off, and the cards a
    /// single layoff accepts.
    fn replies(&self, hand: &ScoredHand) -> (Vec<LegalAction>, Option<Vec<HandCard>>) {
        let defender = hand.knocker.other();
        let best = &hand.score.showdown.defender;
        let declared = Move::LayOff {
            melds: Some(
                best.arrangement
                    .melds
                    .iter()
                    .map(|m| m.held().collect())
                    .collect(),
            ),
            jokers: best
                .arrangement
                .melds
                .iter()
                .flat_map(|m| m.jokers())
                .collect(),
            layoffs: Some(
                best.layoffs
                    .iter()
                    .copied()
                    .map(RecordedLayoff::from)
                    .collect(),
            ),
        };
        // The declared form should always be accepted; the undeclared reply
        // (played best by the referee) stands in if it is not.
        let undeclared = Move::LayOff {
            melds: None,
            jokers: StandsFor::default(),
            layoffs: None,
        };
        let none = Move::LayOff {
            melds: None,
            jokers: StandsFor::default(),
            layoffs: Some(Vec::new()),
        };
        let mut legal = Vec::with_capacity(2);
        for (kind, plays) in [
            (LegalKind::BestReply, vec![declared, undeclared]),
            (LegalKind::NoLayoffs, vec![none]),
        ] {
            let accepted = plays.into_iter().find_map(|play| {
                let count = self.reply_count(defender, play.clone())?;
                Some((play, count))
            });
            if let Some((play, count)) = accepted {
                legal.push(Self::legal(defender, kind, play, Some(count)));
            }
        }
        let knocker_melds = &hand.score.showdown.knocker.melds;
        let layable = self
            .hand(defender)
            .cards()
            .filter(|&card| {
                let single = |meld: Option<usize>, stands_for: Option<Card>| Move::LayOff {
                    melds: None,
                    jokers: StandsFor::default(),
                    layoffs: Some(vec![RecordedLayoff {
                        card,
                        stands_for,
                        meld,
                        onto: None,
                    }]),
                };
                match card {
                    HandCard::Natural(_) => self.accepts(defender, single(None, None)),
                    // A joker names the card it shows: try each meld's ends.
                    HandCard::Joker(_) => knocker_melds.iter().enumerate().any(|(index, meld)| {
                        meld.extensions()
                            .iter()
                            .any(|shows| self.accepts(defender, single(Some(index), Some(shows))))
                    }),
                }
            })
            .collect();
        (legal, Some(layable))
    }

    /// The defender's count after the reply `play`, if the referee accepts it.
    fn reply_count(&self, defender: Seat, play: Move) -> Option<u32> {
        match self.after(defender, play)?.phase {
            Phase::Knocked { hand, .. } => Some(hand.score.showdown.defender.deadwood()),
            _ => None,
        }
    }

    /// The table as `seat` sees it, or the referee's whole table.
    pub(in crate::audit) fn view(&self, seat: Option<Seat>) -> View {
        let discard_pile = self.pile.iter().rev().copied().collect();
        let stock_remaining = self.stock_remaining();
        match seat {
            Some(seat) => View::Seat {
                seat,
                hand: self.hand(seat),
                discard_pile,
                stock_remaining,
                opponent_cards: self.hand(seat.other()).len(),
                opponent_known: self.taken(seat.other()),
            },
            None => View::Referee {
                dealer: self.hand(Seat::Dealer),
                non_dealer: self.hand(Seat::NonDealer),
                discard_pile,
                stock_remaining,
                stock: self.stock.get(self.drawn..).unwrap_or_default().to_vec(),
            },
        }
    }

    /// Every card `seat` may know now (see the module docs of `live`).
    pub(super) fn knowable(&self, seat: Seat) -> Hand {
        let seen = self
            .pile
            .iter()
            .copied()
            .chain(self.taken(seat.other()).cards());
        let mut known = seen.fold(self.hand(seat), Hand::with);
        if let Phase::Knocked { hand, replied } = &self.phase {
            for &card in &hand.knocker_hand.hand {
                known = known.with(card);
            }
            if *replied {
                for &card in &hand.defender_hand.hand {
                    known = known.with(card);
                }
            }
        }
        known
    }

    /// `violation` with its message replaced when it names a card `seat`
    /// cannot know (a stock card the transcript expected, say).
    fn scrubbed(&self, mut violation: Violation, seat: Seat) -> Violation {
        let known = self.knowable(seat);
        let names_unknown = violation
            .message
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter_map(|word| {
                // Only a card as the messages write one: canonical.
                let card = word.parse::<HandCard>().ok()?;
                (card.to_string() == word).then_some(card)
            })
            .any(|card| !known.contains(card));
        if names_unknown {
            violation.message = format!(
                "action {} is illegal ({}); the message names a card {seat} has not seen",
                violation.action.map_or("?".to_owned(), |a| a.to_string()),
                violation.code.as_str()
            );
        }
        violation
    }
}
