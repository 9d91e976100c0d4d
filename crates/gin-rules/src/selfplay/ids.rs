//! OpenSpiel's `gin_rummy` numbering on a held hand (see the module docs of
//! [`crate::selfplay`]).

use crate::audit::{
    Action, HandEnd, LegalAction, LegalKind, LiveHand, Move, Refusal, Seat, Source, StatePhase,
    View,
};
use crate::card::Card;
use crate::hand::HandCard;
use crate::score::Side;

/// OpenSpiel's action count used here (ids 0-55; its meld ids are not).
pub const ACTION_IDS: usize = 56;
/// Take the upcard or the discard.
pub const TAKE: u32 = 52;
/// Draw from the stock.
pub const DRAW: u32 = 53;
/// Pass.
pub const PASS: u32 = 54;
/// Knock (the card's id follows), or take the 50th-card discard to knock.
pub const KNOCK: u32 = 55;
/// The observation: five planes of the 52 card ids.
pub const PLANES: usize = 5 * 52;

/// OpenSpiel's ids for one listed action: the one id that plays it, or for
/// a knock the card's id that follows [`KNOCK`]. An action OpenSpiel does
/// not number (a joker, big gin, a reply, a knock with no card) has neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenSpielIds {
    /// The id that plays the action alone.
    pub single: Option<u32>,
    /// For a knock: the knock card's id, played after [`KNOCK`].
    pub knock_card: Option<u32>,
}

impl OpenSpielIds {
    /// The ids of `legal`, listed in `phase` (taking the 50th-card discard
    /// is OpenSpiel's [`KNOCK`]: it offers that card only in order to knock).
    pub fn of(legal: &LegalAction, phase: StatePhase) -> OpenSpielIds {
        let single = |id: Option<u32>| OpenSpielIds {
            single: id,
            knock_card: None,
        };
        match (&legal.action.play, legal.kind) {
            (
                Move::Knock {
                    discard: Some(card),
                    ..
                },
                LegalKind::Knock,
            ) => OpenSpielIds {
                single: None,
                knock_card: card.openspiel_id(),
            },
            (_, LegalKind::Pass) => single(Some(PASS)),
            (_, LegalKind::TakeDiscard) if phase == StatePhase::LastDiscardOffer => {
                single(Some(KNOCK))
            }
            (_, LegalKind::TakeDiscard) => single(Some(TAKE)),
            (_, LegalKind::DrawStock) => single(Some(DRAW)),
            (Move::Discard { card }, LegalKind::Discard) => single(card.openspiel_id()),
            _ => single(None),
        }
    }
}

/// The phase, who acts, and the listing now.
pub type Listing = (StatePhase, Option<Seat>, Vec<LegalAction>);

/// A [`LiveHand`] played by OpenSpiel's ids (see the module docs): the
/// hand, a knock awaiting its card, and what is listed now (computed once
/// per action).
///
/// The ids listed now are kept as two 56-bit masks (without and with a
/// knock pending), the whole listing only when asked for: a batch holds
/// thousands of hands, and a listing (a move per entry) read or dropped a
/// step after it was made is read from memory the other hands have pushed
/// out of the caches.
#[derive(Debug, Clone)]
pub struct IdHand {
    live: LiveHand,
    knocking: bool,
    listing: Option<Listing>,
    now: Option<Now>,
}

/// The phase, who acts and the ids listed now, compactly.
#[derive(Debug, Clone, Copy)]
struct Now {
    phase: StatePhase,
    to_act: Option<Seat>,
    /// Bit `id` set when `id` is listed: no knock pending, and knocking.
    ids: [u64; 2],
}

/// Why [`IdHand::apply_id`] refused an id; the hand is unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdRefusal {
    /// The id is not listed now.
    Unlisted,
    /// The hand refused the action the id names.
    Refused(Refusal),
}

impl IdHand {
    /// A hand played by ids, no knock pending.
    pub fn new(live: LiveHand) -> IdHand {
        IdHand {
            live,
            knocking: false,
            listing: None,
            now: None,
        }
    }

    /// The hand.
    pub fn live(&self) -> &LiveHand {
        &self.live
    }

    /// OpenSpiel's 55 was applied: the knock's card is awaited.
    pub fn knocking(&self) -> bool {
        self.knocking
    }

    /// Marks a knock as awaiting its card (a hand restored from its record).
    pub fn set_knocking(&mut self, knocking: bool) {
        self.knocking = knocking;
    }

    /// The phase, who acts and the listing now (cached until the next action).
    pub fn listing(&mut self) -> &Listing {
        let live = &self.live;
        self.listing.get_or_insert_with(|| live.now())
    }

    /// The listing now, taken out of the cache: a bot's held view keeps it
    /// rather than a copy (the next action would drop it anyway).
    pub(super) fn take_listing(&mut self) -> Listing {
        match self.listing.take() {
            Some(listing) => listing,
            None => self.live.now(),
        }
    }

    /// Puts back a listing taken now (the learner is to act, or nobody).
    pub(super) fn put_listing(&mut self, listing: Listing) {
        self.listing = Some(listing);
    }

    /// The phase, who acts and the ids listed now (cached until the next
    /// action); the listing it is read from is dropped at once unless it
    /// was kept already.
    fn now(&mut self) -> Now {
        if let Some(now) = self.now {
            return now;
        }
        let now = match &self.listing {
            Some(listing) => Now::of(listing),
            None => Now::of(&self.live.now()),
        };
        self.now = Some(now);
        now
    }

    /// The seat to act, `None` once the hand is over.
    pub fn to_act(&mut self) -> Option<Seat> {
        self.now().to_act
    }

    /// The listed ids as a mask, bit `id` for id `id`.
    fn ids(&mut self) -> u64 {
        let knocking = usize::from(self.knocking);
        self.now().ids.get(knocking).copied().unwrap_or(0)
    }

    /// Applies an action as [`LiveHand::apply`] does; a pending knock is
    /// dropped when it is accepted.
    pub fn apply(&mut self, action: Action) -> Result<(), Refusal> {
        self.live.apply(action)?;
        self.listing = None;
        self.now = None;
        self.knocking = false;
        Ok(())
    }

    /// The ids listed now, ascending.
    pub fn legal_ids(&mut self) -> Vec<u32> {
        let mut rest = self.ids();
        let mut ids = Vec::with_capacity(rest.count_ones() as usize);
        while rest != 0 {
            ids.push(rest.trailing_zeros());
            rest &= rest - 1;
        }
        ids
    }

    /// Writes the listed ids into `mask` (one flag per id, [`ACTION_IDS`]).
    pub fn write_mask(&mut self, mask: &mut [bool]) {
        let ids = self.ids();
        for (id, slot) in mask.iter_mut().enumerate() {
            *slot = id < 64 && ids >> id & 1 == 1;
        }
    }

    /// Whether `id` is listed now.
    pub fn lists(&mut self, id: i64) -> bool {
        match u32::try_from(id) {
            Ok(id) if (id as usize) < ACTION_IDS => self.ids() >> id & 1 == 1,
            _ => false,
        }
    }

    /// Applies a listed id (see the module docs); one not listed changes
    /// nothing.
    pub fn apply_id(&mut self, id: i64) -> Result<(), IdRefusal> {
        if !self.lists(id) {
            return Err(IdRefusal::Unlisted);
        }
        let Ok(id) = u32::try_from(id) else {
            return Err(IdRefusal::Unlisted);
        };
        let Now { phase, to_act, .. } = self.now();
        let player = to_act.unwrap_or(Seat::NonDealer);
        let act = |play: Move| Action { player, play };
        let take = Move::Draw {
            from: Source::DiscardPile,
            card: None,
        };
        let refused = IdRefusal::Refused;
        match (id, card(id)) {
            (_, Some(card)) if self.knocking => {
                self.apply(act(knock_with(Some(card)))).map_err(refused)?;
                self.best_reply().map_err(refused)
            }
            (_, Some(card)) => self.apply(act(Move::Discard { card })).map_err(refused),
            (TAKE, _) => self.apply(act(take)).map_err(refused),
            (DRAW, _) => self
                .apply(act(Move::Draw {
                    from: Source::Stock,
                    card: None,
                }))
                .map_err(refused),
            (PASS, _) => self.apply(act(Move::Pass)).map_err(refused),
            _ if phase == StatePhase::LastDiscardOffer => {
                self.apply(act(take)).map_err(refused)?;
                self.knocking = true;
                Ok(())
            }
            _ => {
                self.knocking = true;
                Ok(())
            }
        }
    }

    /// In the reply: the defender's best reply, as the referee lists it
    /// (after a knock by id; nothing outside the reply).
    pub(super) fn best_reply(&mut self) -> Result<(), Refusal> {
        let (_, _, listing) = self.listing();
        let reply = listing
            .iter()
            .find(|legal| legal.kind == LegalKind::BestReply)
            .or_else(|| {
                listing
                    .iter()
                    .find(|legal| legal.kind == LegalKind::NoLayoffs)
            })
            .map(|legal| legal.action.clone());
        match reply {
            Some(action) => self.apply(action),
            None => Ok(()),
        }
    }

    /// The move an id names now, listed or not (`None` for an id that names
    /// none): for a caller that explains why an unlisted id is refused.
    pub fn id_move(&mut self, id: i64) -> Option<Move> {
        let knocking = self.knocking;
        let (_, _, listing) = self.listing();
        let first_discard = listing.iter().find_map(|legal| match legal.action.play {
            Move::Discard { card } => Some(card),
            _ => None,
        });
        match u32::try_from(id).ok()? {
            id if id < TAKE => card(id).map(|card| match knocking {
                true => knock_with(Some(card)),
                false => Move::Discard { card },
            }),
            TAKE => Some(Move::Draw {
                from: Source::DiscardPile,
                card: None,
            }),
            DRAW => Some(Move::Draw {
                from: Source::Stock,
                card: None,
            }),
            PASS => Some(Move::Pass),
            KNOCK => Some(knock_with(first_discard)),
            _ => None,
        }
    }

    /// Writes the five planes of 52 (OpenSpiel card ids) `seat` may know
    /// into `out` ([`PLANES`] values, 0 or 1): its hand, the top of the
    /// discard pile, the rest of the pile, the opponent's cards it saw
    /// taken, and every other card (unknown).
    pub fn write_planes(&self, seat: Seat, out: &mut [i8]) {
        out.fill(0);
        let View::Seat {
            hand: held,
            discard_pile,
            opponent_known,
            ..
        } = self.live.view(Some(seat))
        else {
            return;
        };
        let mut known = 0u64;
        let mut mark = |plane: usize, card: HandCard| {
            if let Some(id) = card.openspiel_id() {
                if let Some(slot) = out.get_mut(plane * 52 + id as usize) {
                    *slot = 1;
                }
                known |= 1 << id;
            }
        };
        held.cards().for_each(|card| mark(0, card));
        for (index, &card) in discard_pile.iter().enumerate() {
            mark(if index == 0 { 1 } else { 2 }, card);
        }
        opponent_known.cards().for_each(|card| mark(3, card));
        if let Some(unknown) = out.get_mut(4 * 52..5 * 52) {
            for (id, slot) in unknown.iter_mut().enumerate() {
                *slot = i8::from(known >> id & 1 == 0);
            }
        }
    }

    /// Once the hand is over: the winner (`None` for a void hand) and the
    /// points it scores.
    pub fn outcome(&mut self) -> Option<(Option<Seat>, u32)> {
        if self.now().phase != StatePhase::Over {
            return None;
        }
        match self.live.end()? {
            HandEnd::Void { .. } => Some((None, 0)),
            HandEnd::Scored(scored) => {
                let settlement = &scored.score.settlement;
                let winner = match settlement.winner {
                    Side::Knocker => scored.knocker,
                    Side::Defender => scored.knocker.other(),
                };
                Some((Some(winner), settlement.points))
            }
        }
    }
}

impl Now {
    /// What `listing` lists, as ids.
    fn of((phase, to_act, listing): &Listing) -> Now {
        let mut ids = [0u64; 2];
        let mut knock = false;
        for legal in listing {
            let numbered = OpenSpielIds::of(legal, *phase);
            knock |= numbered.knock_card.is_some();
            for (mask, id) in ids.iter_mut().zip([numbered.single, numbered.knock_card]) {
                if let Some(id) = id.filter(|&id| (id as usize) < ACTION_IDS) {
                    *mask |= 1 << id;
                }
            }
        }
        if knock {
            ids[0] |= 1 << KNOCK;
        }
        Now {
            phase: *phase,
            to_act: *to_act,
            ids,
        }
    }
}

/// The card of a card id (0-51).
fn card(id: u32) -> Option<HandCard> {
    Card::from_openspiel_id(id).map(HandCard::from)
}

fn knock_with(discard: Option<HandCard>) -> Move {
    Move::Knock {
        discard,
        melds: None,
        jokers: crate::StandsFor::default(),
    }
}
