//! OpenSpiel's `gin_rummy` numbering on a held hand, and what a
//! reinforcement-learning environment reads of it (the observation planes,
//! the outcome).
//!
//! Ids 0-51 discard the card of that id, 52 takes the upcard or the
//! discard, 53 draws from the stock, 54 passes, 55 knocks and the knock
//! card's id follows; at the 50th-card offer 55 takes the discard to knock
//! (OpenSpiel offers the take only for that). Between the 55 and its card,
//! nothing is applied: the state is the one before the knock and the ids
//! listed are the discards that knock allows. OpenSpiel's meld and layoff
//! steps are not numbered: the knock is played with the knocker's best
//! arrangement, then the defender's best reply at once. An id not listed
//! raises the audit's violation for the move it names, or `invalid_value`
//! where the audit would accept that move but OpenSpiel does not number it
//! (a second 55).

use gin_contract::problem::{ErrorCode, Problem as ContractProblem};
use gin_contract::wire::live::{OPENSPIEL_DRAW, OPENSPIEL_KNOCK, OPENSPIEL_PASS, OPENSPIEL_TAKE};
use gin_rules::{
    Action, Card, HandCard, HandEnd, LegalKind, Move, Refusal, Seat, Side, Source, StatePhase, View,
};
use pyo3::prelude::*;

use crate::held::Hand;
use crate::problem::{illegal, raise};

/// OpenSpiel's action count (ids 0-55; its meld ids are not used here).
pub const IDS: usize = 56;

/// A profile with jokers has no OpenSpiel numbering.
pub fn check_natural(py: Python<'_>, hand: &Hand) -> PyResult<()> {
    let jokers = hand.live.profile().jokers();
    if jokers == 0 {
        return Ok(());
    }
    let detail = format!(
        "the profile plays with {jokers} joker(s): OpenSpiel's gin_rummy ids number the 52 \
         natural cards only; use legal_actions() and apply()"
    );
    let code = ErrorCode::InvalidProfileCombination;
    Err(raise(
        py,
        ContractProblem::new(code, &detail).with_error("/profile/jokers", code, detail),
    ))
}

/// The ids listed now, ascending.
pub fn legal_ids(hand: &mut Hand) -> Vec<u32> {
    let knocking = hand.knocking;
    let (phase, _, listing) = hand.listing();
    let mut ids = Vec::with_capacity(listing.len() + 1);
    let mut knock = false;
    for legal in listing {
        let id = match (&legal.action.play, legal.kind) {
            (
                Move::Knock {
                    discard: Some(card),
                    ..
                },
                LegalKind::Knock,
            ) => {
                knock = true;
                if knocking { card.openspiel_id() } else { None }
            }
            _ if knocking => None,
            (_, LegalKind::Pass) => Some(OPENSPIEL_PASS),
            (_, LegalKind::TakeDiscard) if *phase == StatePhase::LastDiscardOffer => {
                Some(OPENSPIEL_KNOCK)
            }
            (_, LegalKind::TakeDiscard) => Some(OPENSPIEL_TAKE),
            (_, LegalKind::DrawStock) => Some(OPENSPIEL_DRAW),
            (Move::Discard { card }, LegalKind::Discard) => card.openspiel_id(),
            _ => None,
        };
        ids.extend(id);
    }
    if knock && !knocking {
        ids.push(OPENSPIEL_KNOCK);
    }
    ids.sort_unstable();
    ids
}

/// The card of a card id (0-51).
fn card(id: u32) -> Option<HandCard> {
    Card::from_openspiel_id(id).map(HandCard::from)
}

/// Applies a listed id (see the module docs).
pub fn apply_id(py: Python<'_>, hand: &mut Hand, id: i64) -> PyResult<()> {
    check_natural(py, hand)?;
    let listed = u32::try_from(id)
        .ok()
        .filter(|&id| legal_ids(hand).contains(&id));
    let Some(id) = listed else {
        return Err(refuse(py, hand, id));
    };
    let (phase, to_act, _) = hand.listing();
    let (phase, player) = (*phase, to_act.unwrap_or(Seat::NonDealer));
    let act = |play: Move| Action { player, play };
    let take = Move::Draw {
        from: Source::DiscardPile,
        card: None,
    };
    match (id, card(id)) {
        (_, Some(card)) if hand.knocking => {
            hand.step(py, act(knock_with(Some(card))))?;
            best_reply(py, hand)
        }
        (_, Some(card)) => hand.step(py, act(Move::Discard { card })),
        (OPENSPIEL_TAKE, _) => hand.step(py, act(take)),
        (OPENSPIEL_DRAW, _) => hand.step(
            py,
            act(Move::Draw {
                from: Source::Stock,
                card: None,
            }),
        ),
        (OPENSPIEL_PASS, _) => hand.step(py, act(Move::Pass)),
        _ if phase == StatePhase::LastDiscardOffer => {
            hand.step(py, act(take))?;
            hand.knocking = true;
            Ok(())
        }
        _ => {
            hand.knocking = true;
            Ok(())
        }
    }
}

fn knock_with(discard: Option<HandCard>) -> Move {
    Move::Knock {
        discard,
        melds: None,
        jokers: Vec::new(),
    }
}

/// After a knock by id: the defender's best reply, as the referee lists it.
fn best_reply(py: Python<'_>, hand: &mut Hand) -> PyResult<()> {
    let (_, _, listing) = hand.listing();
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
        Some(action) => hand.step(py, action),
        None => Ok(()),
    }
}

/// The problem of an id not listed: the audit's violation of the move it
/// names, else `invalid_value`.
fn refuse(py: Python<'_>, hand: &mut Hand, id: i64) -> PyErr {
    let ids = legal_ids(hand);
    let knocking = hand.knocking;
    let (_, to_act, listing) = hand.listing();
    let first_discard = listing.iter().find_map(|legal| match legal.action.play {
        Move::Discard { card } => Some(card),
        _ => None,
    });
    let play = match u32::try_from(id).ok() {
        Some(id) if id < OPENSPIEL_TAKE => card(id).map(|card| match knocking {
            true => knock_with(Some(card)),
            false => Move::Discard { card },
        }),
        Some(OPENSPIEL_TAKE) => Some(Move::Draw {
            from: Source::DiscardPile,
            card: None,
        }),
        Some(OPENSPIEL_DRAW) => Some(Move::Draw {
            from: Source::Stock,
            card: None,
        }),
        Some(OPENSPIEL_PASS) => Some(Move::Pass),
        Some(OPENSPIEL_KNOCK) => Some(knock_with(first_discard)),
        _ => None,
    };
    if let Some(play) = play {
        let player = to_act.unwrap_or(Seat::NonDealer);
        let mut probe = hand.live.clone();
        if let Err(Refusal::Illegal(violation)) = probe.apply(Action { player, play }) {
            return illegal(py, &violation);
        }
    }
    let detail = format!("OpenSpiel action id {id} is not legal now; the legal ids are {ids:?}");
    raise(
        py,
        ContractProblem::new(ErrorCode::InvalidBody, &detail).with_error(
            "",
            ErrorCode::InvalidValue,
            detail,
        ),
    )
}

/// The five planes of 52 cards (OpenSpiel card ids) `seat` may know: its
/// hand, the top of the discard pile, the rest of the pile, the opponent's
/// cards it saw taken, and every other card (unknown), as 0/1.
pub fn planes(hand: &Hand, seat: Seat) -> Vec<u8> {
    let mut planes = vec![0u8; 5 * 52];
    let View::Seat {
        hand: held,
        discard_pile,
        opponent_known,
        ..
    } = hand.live.view(Some(seat))
    else {
        return planes;
    };
    let mut known = [false; 52];
    let mut mark = |plane: usize, card: HandCard| {
        if let Some(id) = card.openspiel_id().map(|id| id as usize) {
            if let Some(slot) = planes.get_mut(plane * 52 + id) {
                *slot = 1;
            }
            if let Some(seen) = known.get_mut(id) {
                *seen = true;
            }
        }
    };
    held.cards().for_each(|card| mark(0, card));
    for (index, &card) in discard_pile.iter().enumerate() {
        mark(if index == 0 { 1 } else { 2 }, card);
    }
    opponent_known.cards().for_each(|card| mark(3, card));
    for (id, seen) in known.iter().enumerate() {
        if let (false, Some(slot)) = (*seen, planes.get_mut(4 * 52 + id)) {
            *slot = 1;
        }
    }
    planes
}

/// Once the hand is over: the winner (`None` for a void hand) and the
/// points it scores.
pub fn outcome(hand: &mut Hand) -> Option<(Option<Seat>, u32)> {
    if hand.listing().0 != StatePhase::Over {
        return None;
    }
    match hand.live.end()? {
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
