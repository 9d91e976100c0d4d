//! The declarations a record carries at the knock: melds and layoffs as
//! written (cards, jokers standing for cards), read into the library's
//! terms ([`declaration`], [`resolve_layoffs`]) and located back at their
//! fields when they are at fault.

use super::*;

/// The cards of declared melds that are natural (the caller has found no
/// joker among them).
pub(super) fn naturals_of(melds: &[Vec<HandCard>]) -> Vec<Vec<Card>> {
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
pub(super) fn resolve_layoffs(
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
