//! A hand held between calls: the referee's own turn machine kept alive, for
//! bots, self-play and search, where replaying the whole transcript before
//! every move ([`hand_state`](super::hand_state)) costs as much as the game.
//!
//! [`LiveHand`] holds the profile, the deal, the actions applied so far and
//! the [`Referee`] after them. [`LiveHand::apply`] steps a copy of that
//! referee with one action (the audit's own `step`, so one action costs what
//! the audit pays for it) and keeps the copy only when the action is legal:
//! an illegal action leaves the hand exactly as it was. [`LiveHand::state`]
//! is the referee's own answer ([`HandState`]), built by the code that
//! answers `hand_state` after a replay, so the two agree by construction;
//! the crate's tests check it on random hands all the same.
//!
//! # Dealing again what a seat cannot know
//!
//! [`LiveHand::resample`] is for search bots (OpenSpiel's
//! `ResampleFromInfostate`): the cards `seat` cannot know (the opponent's
//! cards it has not seen, the stock not drawn) are permuted among
//! themselves, the permutation applied to the deal and to every card the
//! transcript names. No card the seat knows moves, and no action names a
//! card the seat does not know but a stock draw's own card (a knock lays
//! the knocker's cards down, a reply ends the hand), so the same actions
//! replay on the new deal and the seat sees exactly what it saw.

use std::sync::Arc;

use super::deal::{check_action_jokers, check_jokers};
use super::live::{HandState, LegalAction, StatePhase, View};
use super::referee::{Referee, Stop};
use super::{
    Action, AuditError, Deal, DealError, HandEnd, Move, RecordedLayoff, Seat, Source, Violation,
    check_deal_with,
};
use crate::hand::HandCard;
use crate::profile::Profile;

/// A hand in progress, held between calls (see the module docs).
#[derive(Clone)]
pub struct LiveHand {
    profile: Arc<Profile>,
    deal: Arc<Deal>,
    actions: Vec<Action>,
    referee: Referee<'static>,
    /// The cards drawn from the stock, in order (the deal may list only
    /// the stock's first cards; a draw past them names its card).
    stock_drawn: Vec<HandCard>,
}

impl std::fmt::Debug for LiveHand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveHand")
            .field("profile", &self.profile.name())
            .field("actions", &self.actions.len())
            .finish_non_exhaustive()
    }
}

/// Why [`LiveHand::apply`] refused an action; the hand is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The action is illegal, as the audit would report it at this index.
    #[error("{}", .0.message)]
    Illegal(Violation),
    /// The action cannot be replayed (a draw past a partly listed stock
    /// naming no card or a card in play, a joker the deck does not hold).
    #[error(transparent)]
    Record(#[from] AuditError),
}

impl LiveHand {
    /// A hand about to begin: `deal` checked as the audit checks it.
    pub fn new(profile: Profile, deal: Deal) -> Result<LiveHand, DealError> {
        LiveHand::dealt(Arc::new(profile), deal)
    }

    /// A hand about to begin under a profile other hands share (a batch of
    /// hands under one profile holds it once).
    pub fn with_profile(profile: Arc<Profile>, deal: Deal) -> Result<LiveHand, DealError> {
        LiveHand::dealt(profile, deal)
    }

    fn dealt(profile: Arc<Profile>, deal: Deal) -> Result<LiveHand, DealError> {
        check_jokers(profile.jokers(), &deal, &[])?;
        check_deal_with(&deal, profile.jokers())?;
        let referee = Referee::held(Arc::clone(&profile), &deal);
        Ok(LiveHand {
            profile,
            deal: Arc::new(deal),
            actions: Vec::new(),
            referee,
            stock_drawn: Vec::new(),
        })
    }

    /// Applies one action, or refuses it leaving the hand unchanged.
    pub fn apply(&mut self, action: Action) -> Result<(), Refusal> {
        let index = self.actions.len();
        // The deal was checked when the hand was made: only the action is.
        check_action_jokers(self.profile.jokers(), std::slice::from_ref(&action), index)
            .map_err(AuditError::Deal)?;
        let mut next = self.referee.borrowed();
        match next.step(index, &action) {
            Ok(()) => {}
            Err(Stop::Violation(code, message, field)) => {
                return Err(Refusal::Illegal(Violation {
                    action: Some(index),
                    code,
                    message,
                    field,
                }));
            }
            Err(Stop::Inconsistent(error)) => return Err(AuditError::Inconsistent(error).into()),
            Err(Stop::Deal(error)) => return Err(AuditError::Deal(error).into()),
        }
        if let Move::Draw {
            from: Source::Stock,
            ..
        } = action.play
        {
            let before = self.referee.cards_of(action.player);
            let drawn = next
                .cards_of(action.player)
                .cards()
                .find(|&card| !before.contains(card));
            self.stock_drawn.extend(drawn);
        }
        let table = next.into_table();
        self.referee.take_table(table);
        self.actions.push(action);
        Ok(())
    }

    /// Where the hand stands and what may be done now, exactly as
    /// [`hand_state`](super::hand_state) answers for [`LiveHand::deal`] and
    /// [`LiveHand::actions`].
    pub fn state(&self, seat: Option<Seat>) -> HandState {
        self.referee.state(None, seat)
    }

    /// The phase, who acts, and the actions listed now: the listing of
    /// [`LiveHand::state`] without building the view.
    pub fn now(&self) -> (StatePhase, Option<Seat>, Vec<LegalAction>) {
        self.referee.now()
    }

    /// The table as `seat` sees it (or the referee, with `None`): the
    /// `view` of [`LiveHand::state`] without the listing.
    pub fn view(&self, seat: Option<Seat>) -> View {
        self.referee.view(seat)
    }

    /// How the hand ended (a knock is scored with the defender's best reply
    /// until the reply is played); `None` while it is played.
    pub fn end(&self) -> Option<HandEnd> {
        self.referee.end()
    }

    /// The profile the hand is played under.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// The deal.
    pub fn deal(&self) -> &Deal {
        &self.deal
    }

    /// The actions applied so far.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// The cards `seat` cannot know now, in deck order.
    pub fn hidden_from(&self, seat: Seat) -> Vec<HandCard> {
        self.referee.hidden_from(seat)
    }

    /// A copy in which the cards `seat` cannot know are dealt again: they
    /// take, in [`LiveHand::hidden_from`]'s order, the places of the same
    /// cards ranked by their position in `order` (a shuffled deck; a card it
    /// does not list ranks last). The new deal lists the whole stock.
    pub fn resample(&self, seat: Seat, order: &[HandCard]) -> Result<LiveHand, AuditError> {
        let hidden = self.referee.hidden_from(seat);
        let rank = |card: &HandCard| order.iter().position(|c| c == card).unwrap_or(order.len());
        let mut dealt = hidden.clone();
        dealt.sort_by_key(rank);
        let moved = |card: HandCard| {
            hidden
                .iter()
                .position(|&c| c == card)
                .and_then(|index| dealt.get(index).copied())
                .unwrap_or(card)
        };
        let deal = Deal {
            dealer: self.deal.dealer.iter().copied().map(moved).collect(),
            non_dealer: self.deal.non_dealer.iter().copied().map(moved).collect(),
            upcard: moved(self.deal.upcard),
            stock: self.whole_stock().into_iter().map(moved).collect(),
        };
        let broken = |what: String| AuditError::Inconsistent(format!("a resampled hand {what}"));
        let mut hand = LiveHand::dealt(Arc::clone(&self.profile), deal)
            .map_err(|error| broken(format!("has an impossible deal: {error}")))?;
        for action in &self.actions {
            let action = Action {
                player: action.player,
                play: moved_play(&action.play, &moved),
            };
            hand.apply(action)
                .map_err(|refusal| broken(format!("does not replay: {refusal}")))?;
        }
        Ok(hand)
    }

    /// The stock in drawing order, whole: the cards drawn, the listed cards
    /// not drawn, then every card never in play (in deck order).
    fn whole_stock(&self) -> Vec<HandCard> {
        let mut stock = self.stock_drawn.clone();
        stock.extend_from_slice(self.referee.stock_left());
        let deal = &self.deal;
        let in_play = |card: &HandCard| {
            deal.dealer.contains(card)
                || deal.non_dealer.contains(card)
                || deal.upcard == *card
                || deal.stock.contains(card)
                || self.stock_drawn.contains(card)
        };
        // A card never in play is in no hand: hidden from either seat.
        stock.extend(
            self.referee
                .hidden_from(Seat::Dealer)
                .into_iter()
                .filter(|card| !in_play(card)),
        );
        stock
    }
}

/// `play` with every card it holds passed through `moved` (a joker's
/// stand-in card is a rank and suit, not a card's place: it stays).
fn moved_play(play: &Move, moved: &impl Fn(HandCard) -> HandCard) -> Move {
    let melds = |melds: &Option<Vec<Vec<HandCard>>>| {
        melds.as_ref().map(|melds| {
            melds
                .iter()
                .map(|meld| meld.iter().copied().map(moved).collect())
                .collect()
        })
    };
    match play {
        Move::Pass => Move::Pass,
        Move::Draw { from, card } => Move::Draw {
            from: *from,
            card: card.map(moved),
        },
        Move::Discard { card } => Move::Discard { card: moved(*card) },
        Move::Knock {
            discard,
            melds: declared,
            jokers,
        } => Move::Knock {
            discard: discard.map(moved),
            melds: melds(declared),
            jokers: *jokers,
        },
        Move::LayOff {
            melds: declared,
            jokers,
            layoffs,
        } => Move::LayOff {
            melds: melds(declared),
            jokers: *jokers,
            layoffs: layoffs.as_ref().map(|layoffs| {
                layoffs
                    .iter()
                    .map(|layoff| RecordedLayoff {
                        card: moved(layoff.card),
                        stands_for: layoff.stands_for,
                        meld: layoff.meld,
                        onto: layoff
                            .onto
                            .as_ref()
                            .map(|onto| onto.iter().copied().map(moved).collect()),
                    })
                    .collect()
            }),
        },
    }
}
