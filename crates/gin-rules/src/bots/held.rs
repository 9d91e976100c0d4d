//! A seat's view kept up to date beside a held hand, so that a bot's turn
//! costs the bot's choice and a little bookkeeping rather than a rebuilt
//! view ([`SeatView::of_live`] tells the seat's whole story again and builds
//! the seat's whole state at every turn).
//!
//! [`HeldView`] is built once per hand from the seat's own view
//! ([`SeatView::of_live`] at the deal) and then follows the hand's actions:
//! each new action is told to the seat as [`story`] tells it (its own stock
//! draws with their cards, the opponent's without), and its face-up effect
//! is applied to what the seat sees (its cards, the pile, the opponent's
//! count and the cards it saw the opponent take, the stock's count). Those
//! effects are the only information a draw, a discard or a pass gives the
//! seat, so the view holds nothing the seat could not know: it never reads
//! the opponent's hand or the stock, only the listed stock's next card for
//! the seat's own stock draw (the card [`story`] names for it). A knock or
//! a reply (once a hand) changes the hands by the referee's arrangements:
//! the view is then read again from the seat's own state, as
//! [`SeatView::of_live`] reads it. The listing is the referee's, given by
//! the caller when it has it already.
//!
//! The crate's tests check, at every decision of many seeded hands, that the
//! held view equals [`SeatView::of_live`]'s.

use crate::audit::{Action, LegalAction, LiveHand, Move, Seat, Source, StatePhase, StoryViewer};
use crate::hand::HandCard;

use super::{BotError, BotSpec, SeatView, choose};

/// One seat's [`SeatView`] of a held hand, kept up to date (see the module
/// docs).
#[derive(Debug, Clone)]
pub struct HeldView {
    view: SeatView,
    /// Listed stock cards drawn so far: the next one is the card a stock
    /// draw naming none takes.
    stock_drawn: usize,
}

impl HeldView {
    /// `seat`'s view of `live` as it stands (at the deal, the cheapest time
    /// to build it).
    pub fn new(live: &LiveHand, seat: Seat) -> Result<HeldView, BotError> {
        let view = SeatView::of_live(live, seat)?;
        let stock_drawn = view
            .log
            .iter()
            .filter(|action| {
                matches!(
                    action.play,
                    Move::Draw {
                        from: Source::Stock,
                        ..
                    }
                )
            })
            .count();
        Ok(HeldView { view, stock_drawn })
    }

    /// The seat.
    pub fn seat(&self) -> Seat {
        self.view.seat
    }

    /// The view as last brought up to date.
    pub fn view(&self) -> &SeatView {
        &self.view
    }

    /// Brings the view up to date with `live`'s actions and the referee's
    /// listing now (computed here).
    pub fn sync(&mut self, live: &LiveHand) -> Result<&SeatView, BotError> {
        let (phase, to_act, legal) = live.now();
        self.sync_listed(live, phase, to_act, &legal)
    }

    /// Brings the view up to date with `live`'s actions, given the
    /// referee's listing now (`live.now()`, which the caller may hold).
    /// A hand with fewer actions than the view has seen is another hand:
    /// the view is built again.
    pub fn sync_listed(
        &mut self,
        live: &LiveHand,
        phase: StatePhase,
        to_act: Option<Seat>,
        legal: &[LegalAction],
    ) -> Result<&SeatView, BotError> {
        self.catch_up(live)?;
        self.view.phase = phase;
        self.view.legal.clear();
        if to_act == Some(self.view.seat) {
            self.view.legal.extend_from_slice(legal);
        }
        Ok(&self.view)
    }

    /// [`HeldView::sync_listed`] with the listing given away rather than
    /// lent: the view keeps it, no copy made.
    pub fn sync_owned(
        &mut self,
        live: &LiveHand,
        phase: StatePhase,
        to_act: Option<Seat>,
        mut legal: Vec<LegalAction>,
    ) -> Result<&SeatView, BotError> {
        self.catch_up(live)?;
        self.view.phase = phase;
        if to_act != Some(self.view.seat) {
            legal.clear();
        }
        self.view.legal = legal;
        Ok(&self.view)
    }

    /// Tells the view the actions of `live` it has not seen.
    fn catch_up(&mut self, live: &LiveHand) -> Result<(), BotError> {
        let seen = self.view.log.len();
        if live.actions().len() < seen {
            *self = HeldView::new(live, self.view.seat)?;
        }
        let mut reread = false;
        for action in live.actions().get(seen..).unwrap_or_default() {
            reread |= self.follow(live, action);
        }
        if reread {
            self.reread(live)?;
        }
        Ok(())
    }

    /// Tells the seat one action and applies what it sees of it; `true`
    /// when the action changes the hands by the referee's arrangements (a
    /// knock, a reply) and the view must be read again.
    fn follow(&mut self, live: &LiveHand, action: &Action) -> bool {
        let view = &mut self.view;
        let own = action.player == view.seat;
        let play = match &action.play {
            Move::Draw {
                from: Source::Stock,
                card,
            } => {
                let listed = live.deal().stock.get(self.stock_drawn).copied();
                self.stock_drawn += 1;
                let drawn = card.or(listed);
                view.stock_remaining = view.stock_remaining.saturating_sub(1);
                if own {
                    if let Some(drawn) = drawn {
                        view.hand = view.hand.with(drawn);
                    }
                } else {
                    view.opponent_cards += 1;
                }
                Move::Draw {
                    from: Source::Stock,
                    card: if own { drawn } else { None },
                }
            }
            Move::Draw {
                from: Source::DiscardPile,
                card,
            } => {
                let top = (!view.discard_pile.is_empty()).then(|| view.discard_pile.remove(0));
                if let Some(taken) = card.or(top) {
                    if own {
                        view.hand = view.hand.with(taken);
                    } else {
                        view.opponent_cards += 1;
                        view.opponent_known = view.opponent_known.with(taken);
                    }
                }
                action.play.clone()
            }
            Move::Discard { card } => {
                view.discard_pile.insert(0, *card);
                discard(view, own, *card);
                action.play.clone()
            }
            Move::Pass => Move::Pass,
            Move::Knock { .. } | Move::LayOff { .. } => {
                // Told once the knocker's arrangement is read (`reread`).
                view.log.push(action.clone());
                return true;
            }
        };
        view.log.push(Action {
            player: action.player,
            play,
        });
        false
    }

    /// Reads the seat's cards, the table and the knocker's melds again from
    /// the seat's own state, and tells the knock with them.
    fn reread(&mut self, live: &LiveHand) -> Result<(), BotError> {
        let state = live.state(Some(self.view.seat));
        let log = std::mem::take(&mut self.view.log);
        let score = self.view.score;
        let mut fresh =
            SeatView::from_state(live.profile(), live.deal().upcard, &state, Vec::new())?;
        fresh.profile = std::sync::Arc::clone(&self.view.profile);
        fresh.score = score;
        fresh.log = log;
        for (told, action) in fresh.log.iter_mut().zip(live.actions()) {
            if matches!(action.play, Move::Knock { .. } | Move::LayOff { .. }) {
                let one = crate::audit::story(
                    live.deal(),
                    std::slice::from_ref(action),
                    StoryViewer::Seat(fresh.seat),
                    fresh.laid_down.as_ref(),
                );
                if let Some(retold) = one.into_iter().next() {
                    *told = retold;
                }
            }
        }
        self.view = fresh;
        Ok(())
    }
}

/// `card` leaves the seat's hand, or the opponent's.
fn discard(view: &mut SeatView, own: bool, card: HandCard) {
    if own {
        view.hand = view.hand.without(card);
    } else {
        view.opponent_cards = view.opponent_cards.saturating_sub(1);
        view.opponent_known = view.opponent_known.without(card);
    }
}

/// The listed action `spec` plays for the held view's seat in `live`, the
/// view brought up to date first: [`super::choose_for`] without rebuilding
/// the view.
pub fn choose_held(
    held: &mut HeldView,
    live: &LiveHand,
    spec: &BotSpec,
) -> Result<LegalAction, BotError> {
    let seat = held.seat();
    let view = held.sync(live)?;
    let index = choose(spec, view)?;
    view.legal_actions()
        .get(index)
        .cloned()
        .ok_or(BotError::NotToAct { seat })
}
