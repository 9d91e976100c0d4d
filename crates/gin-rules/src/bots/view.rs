//! What a bot receives: one seat's view of a hand, and nothing else.
//!
//! [`SeatView`] has private fields and three constructors, each of which
//! copies only what the seat may know out of a seat's [`HandState`] (which
//! the referee already builds without the opponent's unseen cards or the
//! stock) and the seat's own story of the hand. No constructor takes a
//! [`LiveHand`] or a deal and keeps it: a search that needs the hidden cards
//! deals them again from the view ([`SeatView::unseen`]), so that the
//! opponent's hand and the stock are out of reach by construction.

use std::sync::Arc;

use crate::audit::{
    Action, Deal, HandState, LaidDown, LegalAction, LiveHand, Seat, StatePhase, StoryViewer, View,
    hand_state, story,
};
use crate::card::{Card, CardSet};
use crate::hand::{Hand, HandCard};
use crate::profile::Profile;

use super::BotError;

/// The match score as the seat's player sees it, for score-aware play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScoreContext {
    /// The seat's player's total before this hand.
    pub own: u32,
    /// The opponent's total before this hand.
    pub opponent: u32,
    /// The match's target (the profile's, unless the format says otherwise).
    pub target: u32,
}

/// One seat's view of a hand in progress: the only thing a bot receives (see
/// the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatView {
    pub(super) profile: Arc<Profile>,
    pub(super) seat: Seat,
    pub(super) phase: StatePhase,
    pub(super) upcard: HandCard,
    pub(super) hand: Hand,
    pub(super) discard_pile: Vec<HandCard>,
    pub(super) opponent_known: Hand,
    pub(super) opponent_cards: usize,
    pub(super) stock_remaining: usize,
    pub(super) laid_down: Option<LaidDown>,
    pub(super) log: Vec<Action>,
    pub(super) legal: Vec<LegalAction>,
    pub(super) score: Option<ScoreContext>,
}

impl SeatView {
    /// The view of `seat` from that seat's own state (a [`HandState`] asked
    /// for `Some(seat)`, whose view is [`View::Seat`]), its story of the hand
    /// (`log`, as [`story`] tells it to that seat) and the first upcard (face
    /// up at the deal). The state of another seat, or the referee's, is
    /// refused: it may hold cards this seat cannot know.
    pub fn from_state(
        profile: &Profile,
        upcard: HandCard,
        state: &HandState,
        log: Vec<Action>,
    ) -> Result<SeatView, BotError> {
        if let Some(violation) = &state.violation {
            return Err(BotError::Violation(violation.clone()));
        }
        let View::Seat {
            seat,
            hand,
            discard_pile,
            stock_remaining,
            opponent_cards,
            opponent_known,
        } = &state.view
        else {
            return Err(BotError::NotASeatsView);
        };
        Ok(SeatView {
            profile: Arc::new(profile.clone()),
            seat: *seat,
            phase: state.phase,
            upcard,
            hand: *hand,
            discard_pile: discard_pile.clone(),
            opponent_known: *opponent_known,
            opponent_cards: *opponent_cards,
            stock_remaining: *stock_remaining,
            laid_down: state.laid_down.clone(),
            log,
            legal: state.legal_actions.clone(),
            score: None,
        })
    }

    /// The view of `seat` in a held hand.
    pub fn of_live(live: &LiveHand, seat: Seat) -> Result<SeatView, BotError> {
        let state = live.state(Some(seat));
        let log = story(
            live.deal(),
            live.actions(),
            StoryViewer::Seat(seat),
            state.laid_down.as_ref(),
        );
        SeatView::from_state(live.profile(), live.deal().upcard, &state, log)
    }

    /// The view of `seat` in a recorded hand (the deal and the actions so
    /// far, as [`hand_state`] takes them); a record with a violation is
    /// refused with it.
    pub fn of_record(
        profile: &Profile,
        deal: &Deal,
        actions: &[Action],
        seat: Seat,
    ) -> Result<SeatView, BotError> {
        let state = hand_state(profile, deal, actions, Some(seat)).map_err(BotError::Record)?;
        if let Some(violation) = state.violation {
            return Err(BotError::Violation(violation));
        }
        let log = story(
            deal,
            actions,
            StoryViewer::Seat(seat),
            state.laid_down.as_ref(),
        );
        SeatView::from_state(profile, deal.upcard, &state, log)
    }

    /// The same view with the match score, for score-aware play.
    #[must_use]
    pub fn with_score(mut self, score: ScoreContext) -> SeatView {
        self.score = Some(score);
        self
    }

    /// The profile the hand is played under.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// The seat.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// Where the hand stands.
    pub fn phase(&self) -> StatePhase {
        self.phase
    }

    /// The first upcard (turned face up at the deal).
    pub fn upcard(&self) -> HandCard {
        self.upcard
    }

    /// The seat's cards.
    pub fn hand(&self) -> Hand {
        self.hand
    }

    /// The discard pile, top card first.
    pub fn discard_pile(&self) -> &[HandCard] {
        &self.discard_pile
    }

    /// The opponent's cards this seat saw taken from the pile and not
    /// discarded since.
    pub fn opponent_known(&self) -> Hand {
        self.opponent_known
    }

    /// How many cards the opponent holds.
    pub fn opponent_cards(&self) -> usize {
        self.opponent_cards
    }

    /// Cards left in the stock.
    pub fn stock_remaining(&self) -> usize {
        self.stock_remaining
    }

    /// The knocker's melds as laid down, once a knock is made.
    pub fn laid_down(&self) -> Option<&LaidDown> {
        self.laid_down.as_ref()
    }

    /// The hand's actions as this seat knows them, oldest first: its own
    /// stock draws name their cards, the opponent's do not.
    pub fn log(&self) -> &[Action] {
        &self.log
    }

    /// What the seat may do now, as the referee lists it (empty when the
    /// seat is not to act).
    pub fn legal_actions(&self) -> &[LegalAction] {
        &self.legal
    }

    /// The match score, when the hand is played in a match.
    pub fn score(&self) -> Option<ScoreContext> {
        self.score
    }

    /// Every natural card the seat knows the place of: its own, the pile,
    /// the opponent's known cards and the knocker's laid-down cards.
    pub fn seen(&self) -> CardSet {
        let mut seen = self.hand.naturals().union(self.opponent_known.naturals());
        for card in &self.discard_pile {
            if let HandCard::Natural(card) = card {
                seen.insert(*card);
            }
        }
        if let Some(laid) = &self.laid_down {
            seen = seen.union(laid.arrangement.melded());
            for card in laid.arrangement.unmelded() {
                if let HandCard::Natural(card) = card {
                    seen.insert(card);
                }
            }
        }
        seen
    }

    /// The natural cards the seat cannot place: each is in the opponent's
    /// unseen cards or in the stock. A search deals these again; it has
    /// nothing else to deal from.
    pub fn unseen(&self) -> CardSet {
        let deck = Card::deck().fold(CardSet::default(), |mut set, card| {
            set.insert(card);
            set
        });
        deck.difference(self.seen())
    }

    /// How many of the opponent's cards this seat has not seen.
    pub fn opponent_unseen(&self) -> usize {
        self.opponent_cards
            .saturating_sub(self.opponent_known.len())
    }

    /// A number that is the same for equal views: decisions' random
    /// streams start from it and the bot's seed, so that a view alone fixes
    /// the move.
    pub(super) fn fingerprint(&self) -> u64 {
        let mut mix = Mix::default();
        mix.add(u64::from(self.seat == Seat::Dealer));
        mix.add(self.log.len() as u64);
        mix.add(self.hand.naturals().bits());
        mix.add(u64::from(self.hand.joker_count()));
        mix.add(self.opponent_known.naturals().bits());
        mix.add(self.stock_remaining as u64);
        for card in &self.discard_pile {
            mix.add(card_code(*card));
        }
        mix.finish()
    }
}

fn card_code(card: HandCard) -> u64 {
    match card {
        HandCard::Natural(card) => u64::from(card.bit_index()),
        HandCard::Joker(joker) => 64 + u64::from(joker.number()),
    }
}

/// FNV-1a over 64-bit words: a fingerprint, not a secret.
struct Mix(u64);

impl Default for Mix {
    fn default() -> Mix {
        Mix(0xcbf2_9ce4_8422_2325)
    }
}

impl Mix {
    fn add(&mut self, word: u64) {
        for byte in word.to_le_bytes() {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
