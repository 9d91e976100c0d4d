//! Where declared layoffs go: each checked (held, not laid twice, onto a
//! meld that exists, a joker standing for a card), played in the order given
//! when each names its meld, else placed by search so that every knocker
//! meld with its layoffs is still a meld; and the playing order of a
//! placement, each run grown outward ([`distance_from`]). Written once for
//! the scoring, the layoff checks and the audits.

use crate::card::{Card, CardSet, LANE};
use crate::hand::{Hand, HandCard};
use crate::meld::{Meld, MeldKind};
use crate::profile::JokerRules;

use super::reply::{DeclaredLayoff, Layoff, ReplyError};

/// The cards just beyond either end of a run's current cards.
pub(crate) fn run_extensions(run: CardSet) -> CardSet {
    let bits = run.bits();
    let lanes = (0..4).fold(0u64, |acc, s| {
        if bits >> (s * 16) & LANE != 0 {
            acc | LANE << (s * 16)
        } else {
            acc
        }
    });
    CardSet::from_bits(((bits << 1) | (bits >> 1)) & lanes & !bits)
}

/// Whether `card` extends a meld of this kind whose cards are now `cards`;
/// else why not. The one rule of what a meld takes, applied to the cards a
/// meld shows.
fn fit(kind: MeldKind, cards: CardSet, card: Card) -> Result<(), &'static str> {
    match kind {
        MeldKind::Set if cards.len() >= 4 => Err("a set of four takes nothing more"),
        MeldKind::Set if cards.of_rank(card.rank()).len() == cards.len() => Ok(()),
        MeldKind::Set => Err("a set takes only its own rank"),
        MeldKind::Run if run_extensions(cards).contains(card) => Ok(()),
        MeldKind::Run => Err("a run takes only the next card of its suit at either end"),
    }
}

/// Whether a card showing `shown` may be laid onto `meld`, whose cards on the
/// table are now `grown` (what it shows and what was laid on it), while
/// `taken` holds every card the table shows; else why not. The one test of a
/// layoff with jokers, for the best reply and for a declared one: every card
/// on the table stands for a distinct card, and what a meld takes is the
/// joker-free rule ([`crate::layoff`]'s `fit`) applied to the cards it shows
/// (a knocker's joker fixes the card it shows, so `5H X1=6H 7H` takes 4H).
pub(super) fn extends(
    meld: &Meld,
    grown: CardSet,
    taken: CardSet,
    shown: Card,
) -> Result<(), &'static str> {
    if taken.contains(shown) {
        return Err("that card is already on the table");
    }
    fit(meld.kind(), grown, shown)
}

/// Most layoffs a declared reply may place by search: a defender holds ten
/// cards, so a longer list repeats one (refused before any search).
const MAX_PLACED: usize = 10;

/// A declared layoff after the checks that need no placement: the card, the
/// card it shows, and the melds it may go onto.
struct Request {
    index: usize,
    card: HandCard,
    shows: Card,
    candidates: Vec<usize>,
}

/// Checks declared layoffs of cards from `available`, the cards of the
/// defender's hand `held` that its declared melds leave out (see
/// [`crate::declared_reply`]); `blocked` is every card the table shows before
/// them. Returns the layoffs in a legal playing order.
pub(super) fn check_declared_layoffs(
    knocker_melds: &[Meld],
    held: Hand,
    available: Hand,
    blocked: CardSet,
    layoffs: &[DeclaredLayoff],
    rules: &JokerRules,
    layoffs_allowed: bool,
) -> Result<Vec<Layoff>, ReplyError> {
    if !layoffs_allowed && !layoffs.is_empty() {
        return Err(ReplyError::NotAllowedOnGin { index: 0 });
    }
    let in_order = layoffs.iter().all(|l| l.meld.is_some());
    let mut grown: Vec<CardSet> = knocker_melds.iter().map(|m| m.cards()).collect();
    let mut taken = blocked;
    let mut laid = Hand::default();
    let mut played = Vec::with_capacity(layoffs.len());
    let mut requests = Vec::with_capacity(layoffs.len());
    for (index, declared) in layoffs.iter().enumerate() {
        let card = declared.card;
        if !available.contains(card) {
            let melded = held.contains(card);
            return Err(ReplyError::CardNotInHand {
                index,
                card,
                melded,
            });
        }
        if laid.contains(card) {
            return Err(ReplyError::AlreadyLaidOff { index, card });
        }
        laid = Hand::from_distinct(laid.cards().chain([card])).unwrap_or(laid);
        let shows = shown_by(index, declared, rules)?;
        let candidates: Vec<usize> = match declared.meld {
            Some(meld) if meld >= knocker_melds.len() => {
                return Err(ReplyError::NoSuchMeld { index, meld });
            }
            Some(meld) => vec![meld],
            None => (0..knocker_melds.len()).collect(),
        };
        if taken.contains(shows) {
            return Err(ReplyError::DoesNotFit {
                index,
                card,
                stands_for: shows,
                meld: candidates.first().copied().unwrap_or_default(),
                reason: "that card is already on the table",
            });
        }
        if in_order {
            let layoff = Layoff {
                card,
                meld: declared.meld.unwrap_or_default(),
                stands_for: shows,
            };
            played.push(play(knocker_melds, &mut grown, taken, index, layoff)?);
        }
        taken.insert(shows);
        requests.push(Request {
            index,
            card,
            shows,
            candidates,
        });
    }
    if in_order {
        return Ok(played);
    }
    if let Some(placed) = place(knocker_melds, &requests) {
        return Ok(placed);
    }
    greedy(knocker_melds, blocked, &requests)
}

/// Plays layoff `index` onto its meld as grown so far, every card the table
/// shows being `taken`; else why it does not fit.
fn play(
    knocker_melds: &[Meld],
    grown: &mut [CardSet],
    taken: CardSet,
    index: usize,
    layoff: Layoff,
) -> Result<Layoff, ReplyError> {
    let Layoff {
        card,
        meld,
        stands_for,
    } = layoff;
    let (Some(target), Some(cards)) = (knocker_melds.get(meld), grown.get_mut(meld)) else {
        return Err(ReplyError::NoSuchMeld { index, meld });
    };
    if let Err(reason) = extends(target, *cards, taken, stands_for) {
        return Err(ReplyError::DoesNotFit {
            index,
            card,
            stands_for,
            meld,
            reason,
        });
    }
    cards.insert(stands_for);
    Ok(layoff)
}

/// The card a declared layoff shows on the table: a natural card itself, a
/// joker the card it is declared to stand for (where the rules let jokers be
/// laid off); else why the layoff is refused.
fn shown_by(
    index: usize,
    declared: &DeclaredLayoff,
    rules: &JokerRules,
) -> Result<Card, ReplyError> {
    let card = declared.card;
    let stands_for = |reason| ReplyError::StandsFor {
        index,
        card,
        reason,
    };
    match (card, declared.stands_for) {
        (HandCard::Natural(natural), None) => Ok(natural),
        (HandCard::Natural(natural), Some(other)) if other == natural => Ok(natural),
        (HandCard::Natural(_), Some(_)) => {
            Err(stands_for("is a natural card: it stands only for itself"))
        }
        (HandCard::Joker(_), None) => Err(stands_for(
            "is laid off without saying which card it stands for",
        )),
        (HandCard::Joker(joker), Some(_)) if !rules.joker_layoff() => {
            Err(ReplyError::JokerLayoffNotAllowed { index, joker })
        }
        (HandCard::Joker(_), Some(target)) => Ok(target),
    }
}

/// The first placement of `requests` (depth first, candidates in meld order)
/// under which every knocker meld with its layoffs is still a meld, in a
/// playing order: meld by meld, each run outward one card at a time. Bound: at
/// most ten requests, each onto a meld of its rank (a set) or of its suit (a
/// run), so a few thousand partial placements at most.
fn place(knocker_melds: &[Meld], requests: &[Request]) -> Option<Vec<Layoff>> {
    if requests.len() > MAX_PLACED {
        return None;
    }
    // Only melds of the card's rank (sets) or suit (runs) can take it.
    let options: Vec<Vec<usize>> = requests
        .iter()
        .map(|r| {
            r.candidates
                .iter()
                .copied()
                .filter(|&m| {
                    knocker_melds.get(m).is_some_and(|meld| match meld.kind() {
                        MeldKind::Set => meld.cards().iter().all(|c| c.rank() == r.shows.rank()),
                        MeldKind::Run => meld.cards().iter().all(|c| c.suit() == r.shows.suit()),
                    })
                })
                .collect()
        })
        .collect();
    let mut assigned = vec![CardSet::EMPTY; knocker_melds.len()];
    let mut choice = Vec::with_capacity(requests.len());
    if !assign(
        knocker_melds,
        requests,
        &options,
        &mut assigned,
        &mut choice,
    ) {
        return None;
    }
    // Play order: meld by meld in the order they were laid down; within a
    // meld, by distance from it as laid down (so a run grows outward, each
    // card legal when played), then by card. Which meld goes first does not
    // affect legality; the joker-free audit reports this order too, so clients
    // see one order whether or not the hand has jokers.
    let mut order: Vec<((usize, u32, u32), Layoff)> = requests
        .iter()
        .zip(&choice)
        .filter_map(|(request, &meld)| {
            let target = knocker_melds.get(meld)?;
            let card_order = request.shows.bit_index();
            Some((
                (meld, distance_from(target, request.shows), card_order),
                Layoff {
                    card: request.card,
                    meld,
                    stands_for: request.shows,
                },
            ))
        })
        .collect();
    order.sort_by_key(|&(key, _)| key);
    Some(order.into_iter().map(|(_, layoff)| layoff).collect())
}

/// How far a card laid off lies from the meld as laid down: 0 for a set,
/// and for a run the number of cards between it and the run's nearer end,
/// plus one. Layoffs played by this distance grow every run outward, each
/// legal when played.
pub(crate) fn distance_from(meld: &Meld, shows: Card) -> u32 {
    if meld.kind() == MeldKind::Set {
        return 0;
    }
    let bits = meld.cards().bits();
    let at = shows.bit_index();
    let low = bits.trailing_zeros();
    let high = 63 - bits.leading_zeros();
    if at < low {
        low - at
    } else {
        at.saturating_sub(high)
    }
}

/// Depth-first assignment for [`place`]: `choice` gets each request's meld.
fn assign(
    knocker_melds: &[Meld],
    requests: &[Request],
    options: &[Vec<usize>],
    assigned: &mut [CardSet],
    choice: &mut Vec<usize>,
) -> bool {
    let at = choice.len();
    let (Some(request), Some(melds)) = (requests.get(at), options.get(at)) else {
        // Every meld with what it took is still a meld of its kind.
        return knocker_melds
            .iter()
            .zip(assigned.iter())
            .all(|(meld, laid)| {
                laid.is_empty()
                    || Meld::try_from(meld.cards().union(*laid))
                        .is_ok_and(|m| m.kind() == meld.kind())
            });
    };
    for &meld in melds {
        let Some(slot) = assigned.get_mut(meld) else {
            continue;
        };
        slot.insert(request.shows);
        choice.push(meld);
        if assign(knocker_melds, requests, options, assigned, choice) {
            return true;
        }
        choice.pop();
        if let Some(slot) = assigned.get_mut(meld) {
            slot.remove(request.shows);
        }
    }
    false
}

/// No placement is legal: plays the layoffs in the order given, each onto
/// the first of its melds that takes it as the melds stand by then, and
/// reports the first that none takes.
fn greedy(
    knocker_melds: &[Meld],
    blocked: CardSet,
    requests: &[Request],
) -> Result<Vec<Layoff>, ReplyError> {
    let mut grown: Vec<CardSet> = knocker_melds.iter().map(|m| m.cards()).collect();
    let mut taken = blocked;
    let mut played = Vec::with_capacity(requests.len());
    for request in requests {
        let fits = |meld: usize| -> Result<(), &'static str> {
            match (knocker_melds.get(meld), grown.get(meld)) {
                (Some(target), Some(cards)) => extends(target, *cards, taken, request.shows),
                _ => Err("there is no such meld"),
            }
        };
        let mut first_reason = None;
        let mut chosen = None;
        for &meld in &request.candidates {
            match fits(meld) {
                Ok(()) => {
                    chosen = Some(meld);
                    break;
                }
                Err(reason) => {
                    first_reason.get_or_insert((meld, reason));
                }
            }
        }
        let Some(meld) = chosen else {
            let (meld, reason) = first_reason.unwrap_or((0, "there is no knocker meld"));
            return Err(ReplyError::DoesNotFit {
                index: request.index,
                card: request.card,
                stands_for: request.shows,
                meld,
                reason,
            });
        };
        if let Some(cards) = grown.get_mut(meld) {
            cards.insert(request.shows);
        }
        taken.insert(request.shows);
        played.push(Layoff {
            card: request.card,
            meld,
            stands_for: request.shows,
        });
    }
    Ok(played)
}
