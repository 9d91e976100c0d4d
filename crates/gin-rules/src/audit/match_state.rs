//! The live referee of a whole match: where it stands and what may be done
//! now ([`match_state`], [`three_state`], [`partnership_state`]).
//!
//! An app that runs a match keeps its record (the hands as the match audit
//! takes them, the last one possibly in progress) and asks before every move.
//! The record is audited exactly as [`audit_match`](super::audit_match) and
//! its siblings audit it (one engine), but for a last hand stopped at its
//! knock, then:
//!
//! - **`over`**: the scored hands complete the match (a winner, or a tie
//!   that ends it, as Hollywood's can).
//! - **`play`**: the last hand (a partnership's last deal) has a table that
//!   has not ended, or whose record stops at its knock: the defender is
//!   still to reply, so that table is in `reply` and its hand is not scored
//!   yet (an earlier hand stopped at its knock is scored with the best
//!   reply, as the match audit scores it). Each table is answered as
//!   [`hand_state`] answers it, a partnership table that ended staying
//!   listed until its deal ends.
//! - **`deal`**: otherwise; [`NextDeal`] says who plays the next hand by the
//!   very rules the audit checks ([`next_dealer`] for two players, the
//!   three-player rotation, the partnership pairings), and for seeded deals
//!   the commitment, client seed and least nonce the next deal may use.
//!   Before the first hand nothing is fixed (the cut decides): `None`.
//!
//! After a violation nothing may be played: the phase is `over` when the
//! legal hands complete the match (a hand after its end), else `play`, and
//! the violating hand's tables are shown with no one to act and nothing
//! listed, the violating table carrying the violation.
//!
//! # Who sees what
//!
//! [`MatchViewer::Player`] sees its own table as its seat does and any other
//! table as the public does; [`MatchViewer::Spectator`] sees every table as
//! the public does ([`SpectatorTable`]: the pile, counts, the cards taken
//! from the pile, what is laid down, the result at the end);
//! [`MatchViewer::Referee`] sees everything (for the app's server only). A
//! violation message naming a card the viewer cannot know is replaced, as
//! the hand state replaces it: the public knows exactly the cards both
//! seats know, so a message both seats may read is the public's too.
//!
//! # Cost
//!
//! One match audit, then [`hand_state`] once per table in play (twice for a
//! table seen as the public sees it, which is built from both seats' views):
//! at most four hand states beyond the audit.

use super::matches::{
    LastKnock, MatchAudit, MatchAuditError, MatchViolation, RecordedHand, audit_partnership_as,
    audit_three_as, audit_two, awaits_reply, next_dealer,
};
use super::story::{StoryViewer, story};
use super::{Action, AuditError, HandState, Seat, View, Violation, ViolationCode, hand_state};
use crate::hand::{Hand, HandCard};
use crate::matches::{
    MatchScore, PartnershipScore, Player, Players, Team, ThreeScore, partnership_pairings,
    three_next_pair,
};
use crate::profile::Profile;

/// Where a match stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum MatchPhase {
    /// No hand in progress: the app deals the next one.
    Deal,
    /// A hand (a partnership deal's tables) in progress.
    Play,
    /// The match is complete.
    Over,
}

/// Whose view of the match to answer with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchViewer<'a> {
    /// Everything: for the app's server only.
    Referee,
    /// One player, by name: its own table as its seat, the others as the public.
    Player(&'a str),
    /// The public: every table as a spectator sees it.
    Spectator,
}

/// Who plays the next hand, as the rules seat it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seating {
    /// Two players: who deals, by the profile's `next_dealer`.
    Two {
        /// The next dealer.
        dealer: String,
        /// The other player.
        non_dealer: String,
    },
    /// Three players: the two who play (either may deal) and who sits out.
    Three {
        /// The two at the table.
        players: [String; 2],
        /// The third.
        sits_out: String,
    },
    /// A partnership deal: the pairings of its two tables (either may deal).
    Partnership {
        /// Each table's two players.
        tables: [[String; 2]; 2],
    },
}

/// The seeds the next hand's deal must use, when the match's deals are seeded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NextSeeds {
    /// The match's commitment.
    pub commitment: String,
    /// The match's client seed.
    pub client_seed: String,
    /// The least nonce the next deal may use (`None` once the last nonce is
    /// the largest there is: no seeded hand can follow).
    pub nonce: Option<u64>,
}

/// The next hand, in the `deal` phase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NextDeal {
    /// Who plays it.
    pub seating: Seating,
    /// Its seeds, when the match's deals are seeded.
    pub seeds: Option<NextSeeds>,
}

/// A table as the public sees it: what is face up and what was taken from
/// the pile, never a card in a hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpectatorTable {
    /// The discard pile, top card first.
    pub discard_pile: Vec<HandCard>,
    /// Cards left in the stock.
    pub stock_remaining: usize,
    /// How many cards the dealer holds.
    pub dealer_cards: usize,
    /// How many cards the non-dealer holds.
    pub non_dealer_cards: usize,
    /// The dealer's cards taken from the pile and not discarded since.
    pub dealer_known: Hand,
    /// The non-dealer's cards taken from the pile and not discarded since.
    pub non_dealer_known: Hand,
}

/// One table of the hand (the deal) in play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveTable {
    /// The dealer's name.
    pub dealer: String,
    /// The non-dealer's name.
    pub non_dealer: String,
    /// The table as the viewer's seat (or the referee) sees it; for the
    /// public, a seat's state with no listing and no hand in its view (the
    /// public's view is `spectator`).
    pub state: HandState,
    /// The public's view, when the viewer does not sit at this table.
    pub spectator: Option<SpectatorTable>,
    /// The actions so far as the viewer may know them.
    pub log: Vec<Action>,
}

/// Where a match stands and what may be done now (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchState<S> {
    /// The first violation, as the match audit reports it (its message
    /// replaced when it names a card the viewer cannot know).
    pub violation: Option<MatchViolation>,
    /// Where the match stands.
    pub phase: MatchPhase,
    /// In `deal`, after the first hand: who plays the next hand.
    pub next_deal: Option<NextDeal>,
    /// The tables in play (or the violating hand's).
    pub tables: Vec<LiveTable>,
    /// The match scored from the hands that are over.
    pub score: S,
}

impl<S> MatchState<S> {
    /// The players who may act now, by name (one per table in play).
    pub fn to_act(&self) -> Vec<&str> {
        self.tables
            .iter()
            .filter_map(|table| match table.state.to_act? {
                Seat::Dealer => Some(table.dealer.as_str()),
                Seat::NonDealer => Some(table.non_dealer.as_str()),
            })
            .collect()
    }
}

/// The live state of a two-player match (see the module docs).
pub fn match_state(
    profile: &Profile,
    players: &Players<String>,
    hands: &[RecordedHand],
    viewer: MatchViewer<'_>,
) -> Result<MatchState<MatchScore>, MatchAuditError> {
    let audit = audit_two(profile, players, hands, LastKnock::AwaitsReply)?;
    let [first, second] = players.clone().into_array();
    let names = |hand: &RecordedHand| {
        let other = if hand.dealer == first {
            &second
        } else {
            &first
        };
        (hand.dealer.clone(), other.clone())
    };
    let seating = |score: &MatchScore| {
        let last = hands.get(score.hands.len().checked_sub(1)?)?;
        let scored = score.hands.last()?;
        let seat = |index: usize| match index {
            0 => Player::First,
            _ => Player::Second,
        };
        let last_dealer = seat(usize::from(last.dealer != first));
        let scorer = scored.winner.filter(|_| scored.points > 0).map(seat);
        let dealer = next_dealer(profile, last_dealer, scorer);
        Some(Seating::Two {
            dealer: players.get(dealer).clone(),
            non_dealer: players.get(dealer.other()).clone(),
        })
    };
    let deals: Vec<&[RecordedHand]> = hands.iter().map(std::slice::from_ref).collect();
    let complete = audit.score.complete;
    let live = Live {
        profile,
        viewer,
        deals: &deals,
    };
    live.answer(audit, complete, names, seating)
}

/// The live state of a three-player match (see the module docs).
pub fn three_state(
    profile: &Profile,
    players: &[String; 3],
    hands: &[RecordedHand],
    viewer: MatchViewer<'_>,
) -> Result<MatchState<ThreeScore>, MatchAuditError> {
    let audit = audit_three_as(profile, players, hands, LastKnock::AwaitsReply)?;
    let seating = |score: &ThreeScore| {
        let (last, _) = score.hands.last()?;
        let pair = three_next_pair(last);
        let name = |index: usize| players.get(index).cloned().unwrap_or_default();
        let out = (0..3).find(|p| !pair.contains(p))?;
        Some(Seating::Three {
            players: pair.map(name),
            sits_out: name(out),
        })
    };
    let deals: Vec<&[RecordedHand]> = hands.iter().map(std::slice::from_ref).collect();
    let complete = audit.score.complete;
    let live = Live {
        profile,
        viewer,
        deals: &deals,
    };
    live.answer(audit, complete, seated_names, seating)
}

/// The live state of a partnership match (see the module docs).
pub fn partnership_state(
    profile: &Profile,
    teams: &[Team; 2],
    deals: &[[RecordedHand; 2]],
    viewer: MatchViewer<'_>,
) -> Result<MatchState<PartnershipScore>, MatchAuditError> {
    let audit = audit_partnership_as(profile, teams, deals, LastKnock::AwaitsReply)?;
    let order = Team::seat_order(teams);
    let seating = |score: &PartnershipScore| {
        // Nothing is announced before the first deal, as for the other formats.
        let played = score.deals.len();
        if played == 0 {
            return None;
        }
        let name = |index: usize| order.get(index).cloned().unwrap_or_default();
        Some(Seating::Partnership {
            tables: partnership_pairings(played).map(|pair| pair.map(name)),
        })
    };
    let deals: Vec<&[RecordedHand]> = deals.iter().map(|deal| &deal[..]).collect();
    let complete = audit.score.complete;
    let live = Live {
        profile,
        viewer,
        deals: &deals,
    };
    live.answer(audit, complete, seated_names, seating)
}

fn seated_names(hand: &RecordedHand) -> (String, String) {
    (
        hand.dealer.clone(),
        hand.non_dealer.clone().unwrap_or_default(),
    )
}

/// What every format shares: the record as deals of one or two tables.
struct Live<'a> {
    profile: &'a Profile,
    viewer: MatchViewer<'a>,
    deals: &'a [&'a [RecordedHand]],
}

impl Live<'_> {
    fn answer<S>(
        &self,
        audit: MatchAudit<S>,
        complete: bool,
        names: impl Fn(&RecordedHand) -> (String, String),
        seating: impl Fn(&S) -> Option<Seating>,
    ) -> Result<MatchState<S>, MatchAuditError> {
        let mut state = MatchState {
            violation: None,
            phase: MatchPhase::Deal,
            next_deal: None,
            tables: Vec::new(),
            score: audit.score,
        };
        if let Some(found) = audit.violation {
            let deal = self.deals.get(found.hand).copied().unwrap_or_default();
            state.tables = self.tables(deal, &names, Some(&found))?;
            state.phase = if complete {
                MatchPhase::Over
            } else {
                MatchPhase::Play
            };
            state.violation = Some(self.scrubbed(found, &state.tables));
            return Ok(state);
        }
        let last = self.deals.last().copied().unwrap_or_default();
        let in_play = audit.hands.len() == self.deals.len()
            && audit.hands.last().is_some_and(|tables| {
                tables.iter().zip(last).any(|(table, record)| {
                    table.end.is_none() || awaits_reply(table.end.as_ref(), &record.actions)
                })
            });
        if in_play {
            let deal = self.deals.last().copied().unwrap_or_default();
            state.tables = self.tables(deal, &names, None)?;
            state.phase = MatchPhase::Play;
        } else if complete {
            state.phase = MatchPhase::Over;
        } else {
            state.next_deal = seating(&state.score).map(|seating| NextDeal {
                seating,
                seeds: self.next_seeds(),
            });
        }
        Ok(state)
    }

    /// The seeds of a seeded match's next deal: the first deal's commitment
    /// and client seed (the audit found every deal's the same), the nonce
    /// past the last one.
    fn next_seeds(&self) -> Option<NextSeeds> {
        let mut recorded = self.deals.iter().flat_map(|deal| deal.iter());
        let first = recorded.next()?.seeds.as_ref()?;
        let last = self
            .deals
            .iter()
            .flat_map(|deal| deal.iter())
            .filter_map(|hand| hand.seeds.as_ref().map(|seeds| seeds.nonce))
            .max()?;
        Some(NextSeeds {
            commitment: first.commitment.clone(),
            client_seed: first.client_seed.clone(),
            nonce: last.checked_add(1),
        })
    }

    /// The tables of `deal` as the viewer sees them; after a violation, with
    /// nothing to act on.
    fn tables(
        &self,
        deal: &[RecordedHand],
        names: &impl Fn(&RecordedHand) -> (String, String),
        violation: Option<&MatchViolation>,
    ) -> Result<Vec<LiveTable>, MatchAuditError> {
        let mut tables = Vec::with_capacity(deal.len());
        for (index, record) in deal.iter().enumerate() {
            let (dealer, non_dealer) = names(record);
            let here = violation.filter(|v| v.table.unwrap_or(0) == index);
            // A deal that does not match its commitment is judged before any
            // action, as the audit judges it.
            let actions = match here.map(|v| v.violation.code) {
                Some(ViolationCode::DealCommitmentMismatch) => &[][..],
                _ => &record.actions[..],
            };
            let seat = match self.viewer {
                MatchViewer::Referee => Some(None),
                MatchViewer::Player(name) if name == dealer => Some(Some(Seat::Dealer)),
                MatchViewer::Player(name) if name == non_dealer => Some(Some(Seat::NonDealer)),
                MatchViewer::Player(_) | MatchViewer::Spectator => None,
            };
            let mut table = match seat {
                Some(seat) => self.seated(record, actions, seat)?,
                None => self.public(record, actions)?,
            };
            table.dealer = dealer;
            table.non_dealer = non_dealer;
            if violation.is_some() {
                let state = &mut table.state;
                state.to_act = None;
                state.legal_actions.clear();
                state.layable = None;
                if state.violation.is_none()
                    && let Some(found) = here
                {
                    state.violation = Some(found.violation.clone());
                }
            }
            tables.push(table);
        }
        Ok(tables)
    }

    fn state(
        &self,
        record: &RecordedHand,
        actions: &[Action],
        seat: Option<Seat>,
    ) -> Result<HandState, MatchAuditError> {
        hand_state(self.profile, &record.deal, actions, seat).map_err(|error| match error {
            AuditError::Inconsistent(error) => MatchAuditError::Inconsistent(error.to_string()),
            // The audit replayed this deal already.
            AuditError::Deal(error) => MatchAuditError::Inconsistent(error.to_string()),
        })
    }

    /// A table as a seat (or the referee, `None`) sees it.
    fn seated(
        &self,
        record: &RecordedHand,
        actions: &[Action],
        seat: Option<Seat>,
    ) -> Result<LiveTable, MatchAuditError> {
        let state = self.state(record, actions, seat)?;
        let viewer = seat.map_or(StoryViewer::Referee, StoryViewer::Seat);
        let log = story(
            &record.deal,
            told(actions, &state),
            viewer,
            state.laid_down.as_ref(),
        );
        Ok(LiveTable {
            dealer: String::new(),
            non_dealer: String::new(),
            state,
            spectator: None,
            log,
        })
    }

    /// A table as the public sees it, from both seats' views.
    fn public(
        &self,
        record: &RecordedHand,
        actions: &[Action],
    ) -> Result<LiveTable, MatchAuditError> {
        let dealer = self.state(record, actions, Some(Seat::Dealer))?;
        let non_dealer = self.state(record, actions, Some(Seat::NonDealer))?;
        let (
            View::Seat {
                discard_pile,
                stock_remaining,
                opponent_cards: non_dealer_cards,
                opponent_known: non_dealer_known,
                ..
            },
            View::Seat {
                opponent_cards: dealer_cards,
                opponent_known: dealer_known,
                ..
            },
        ) = (dealer.view.clone(), non_dealer.view.clone())
        else {
            return Err(MatchAuditError::Inconsistent(
                "a seat's state has no seat view".into(),
            ));
        };
        let log = story(
            &record.deal,
            told(actions, &dealer),
            StoryViewer::Spectator,
            dealer.laid_down.as_ref(),
        );
        let mut state = dealer;
        state.legal_actions.clear();
        state.layable = None;
        // The public holds no hand: the seat's cards leave the state.
        if let View::Seat { hand, .. } = &mut state.view {
            *hand = Hand::default();
        }
        state.violation = public_violation(state.violation, non_dealer.violation);
        Ok(LiveTable {
            dealer: String::new(),
            non_dealer: String::new(),
            state,
            spectator: Some(SpectatorTable {
                discard_pile,
                stock_remaining,
                dealer_cards,
                non_dealer_cards,
                dealer_known,
                non_dealer_known,
            }),
            log,
        })
    }

    /// The match violation as the viewer may read it: an action's message as
    /// its table's state (scrubbed for the viewer) has it.
    fn scrubbed(&self, mut found: MatchViolation, tables: &[LiveTable]) -> MatchViolation {
        if found.violation.action.is_some()
            && let Some(shown) = tables
                .get(found.table.unwrap_or(0))
                .and_then(|table| table.state.violation.as_ref())
        {
            found.violation.message = shown.message.clone();
        }
        found
    }
}

/// The actions a state stands on: those before its violation.
fn told<'a>(actions: &'a [Action], state: &HandState) -> &'a [Action] {
    let upto = state
        .violation
        .as_ref()
        .and_then(|v| v.action)
        .unwrap_or(actions.len());
    actions.get(..upto).unwrap_or(actions)
}

/// The public's violation: the message both seats may read (the public knows
/// exactly the cards both seats know), or one naming no card.
fn public_violation(dealer: Option<Violation>, non_dealer: Option<Violation>) -> Option<Violation> {
    let mut violation = dealer?;
    if non_dealer.is_some_and(|other| other.message != violation.message) {
        violation.message = format!(
            "action {} is illegal ({}); the message names a card the public has not seen",
            violation.action.map_or("?".to_owned(), |a| a.to_string()),
            violation.code.as_str()
        );
    }
    Some(violation)
}
