//! The declarations a record carries at the knock: melds and layoffs as
//! written (cards, jokers standing for cards), read into the library's
//! terms ([`declaration`]) and located back at their fields when they are at
//! fault.

use super::*;
use crate::StandsFor;
use crate::layoff::placement::distance_from;

/// A recorded reply as the checks with jokers take it, and where each of its
/// layoffs was recorded (the checks may take them in another order).
pub(super) struct Declared {
    pub(super) declared: DeclaredReply,
    /// For each layoff given to the checks, its place in the record.
    recorded_at: Vec<usize>,
}

impl Declared {
    /// A layoff fault at the layoff's place in the record.
    pub(super) fn locate(&self, stop: Stop) -> Stop {
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
pub(super) fn declaration(
    knocker_melds: &[Meld],
    melds: &Option<Vec<Vec<HandCard>>>,
    jokers: StandsFor,
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
                    let shows = match (l.card, l.stands_for) {
                        (HandCard::Natural(card), _) | (HandCard::Joker(_), Some(card)) => {
                            Some(card)
                        }
                        (HandCard::Joker(_), None) => None,
                    };
                    let meld = l.meld.and_then(|m| knocker_melds.get(m));
                    let distance = meld.zip(shows).map_or(0, |(m, c)| distance_from(m, c));
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
            jokers,
            layoffs,
        },
        recorded_at,
    })
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
