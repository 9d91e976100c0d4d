//! `simple` checked decision by decision against an independent reading of
//! the SimpleGinRummyPlayer's policy: a naive re-implementation here that
//! shares no code with the bot (its melds enumerated card by card, its
//! least deadwood by trying every collection of disjoint melds).

use gin_rules::bots::{BotName, BotSpec, SeatView};
use gin_rules::{Card, HandCard, LegalKind, Move, Preset, Source, StatePhase};

use super::common::{deal, play};

/// A card as (rank 1-13, suit 0-3).
type Plain = (u8, u8);

fn plain(card: HandCard) -> Plain {
    match card {
        HandCard::Natural(card) => (card.rank().number(), card.suit() as u8),
        HandCard::Joker(_) => panic!("no jokers in this test"),
    }
}

fn value((rank, _): Plain) -> u32 {
    u32::from(rank.min(10))
}

/// Every meld within `cards`: each set of 3 or 4 of a rank, each run of 3 or
/// more of a suit.
fn melds(cards: &[Plain]) -> Vec<Vec<Plain>> {
    let mut found = Vec::new();
    for rank in 1..=13u8 {
        let same: Vec<Plain> = cards.iter().copied().filter(|c| c.0 == rank).collect();
        let n = same.len();
        for mask in 0u32..(1 << n) {
            if mask.count_ones() >= 3 {
                found.push(
                    (0..n)
                        .filter(|i| mask >> i & 1 == 1)
                        .map(|i| same[i])
                        .collect(),
                );
            }
        }
    }
    for suit in 0..4u8 {
        for low in 1..=11u8 {
            for high in low + 2..=13u8 {
                let run: Vec<Plain> = (low..=high).map(|rank| (rank, suit)).collect();
                if run.iter().all(|c| cards.contains(c)) {
                    found.push(run);
                }
            }
        }
    }
    found
}

/// The least deadwood of `cards`, by trying every collection of disjoint melds.
fn least_deadwood(cards: &[Plain]) -> u32 {
    fn search(left: &[Plain], melds: &[Vec<Plain>]) -> u32 {
        let mut best: u32 = left.iter().map(|&c| value(c)).sum();
        for (i, meld) in melds.iter().enumerate() {
            if meld.iter().all(|c| left.contains(c)) {
                let rest: Vec<Plain> = left.iter().copied().filter(|c| !meld.contains(c)).collect();
                best = best.min(search(&rest, &melds[i + 1..]));
            }
        }
        best
    }
    search(cards, &melds(cards))
}

fn cards_of(view: &SeatView) -> Vec<Plain> {
    view.hand().cards().map(plain).collect()
}

/// This turn's drawn card and the (drawn, discarded) pairs of the seat's
/// earlier turns, as sorted pairs, replaying the pile from the upcard.
fn history(view: &SeatView) -> (Option<Plain>, Vec<(Plain, Plain)>) {
    let mut pile = vec![plain(view.upcard())];
    let mut drawn = None;
    let mut pairs = Vec::new();
    for action in view.log() {
        let mine = action.player == view.seat();
        match &action.play {
            Move::Draw {
                from: Source::DiscardPile,
                ..
            } => {
                let card = pile.pop();
                if mine {
                    drawn = card;
                }
            }
            Move::Draw {
                from: Source::Stock,
                card,
            } if mine => drawn = card.map(plain),
            Move::Discard { card }
            | Move::Knock {
                discard: Some(card),
                ..
            } => {
                pile.push(plain(*card));
                if mine {
                    let (a, b) = (drawn.take().unwrap(), plain(*card));
                    pairs.push((a.min(b), a.max(b)));
                }
            }
            _ => {}
        }
    }
    (drawn, pairs)
}

/// What the policy allows at this decision: the listed indices.
fn allowed(view: &SeatView) -> Vec<usize> {
    let legal = view.legal_actions();
    let of_kind = |kind: LegalKind| -> Vec<usize> {
        (0..legal.len())
            .filter(|&i| legal[i].kind == kind)
            .collect()
    };
    match view.phase() {
        StatePhase::Reply => of_kind(LegalKind::BestReply),
        StatePhase::UpcardOffer | StatePhase::Draw => {
            let top = plain(view.discard_pile()[0]);
            let mut eleven = cards_of(view);
            eleven.push(top);
            let wanted = melds(&eleven).iter().any(|meld| meld.contains(&top));
            let take = of_kind(LegalKind::TakeDiscard);
            if wanted && !take.is_empty() {
                take
            } else {
                let mut other = of_kind(LegalKind::DrawStock);
                other.extend(of_kind(LegalKind::Pass));
                other
            }
        }
        StatePhase::Discard => {
            let hand = cards_of(view);
            let (drawn, pairs) = history(view);
            let listed: Vec<Plain> = legal
                .iter()
                .filter_map(|a| match a.action.play {
                    Move::Discard { card } => Some(plain(card)),
                    _ => None,
                })
                .collect();
            let drawn = drawn.unwrap();
            let open: Vec<Plain> = listed
                .iter()
                .copied()
                .filter(|&c| !pairs.contains(&(c.min(drawn), c.max(drawn))))
                .collect();
            let pool = if open.is_empty() { listed } else { open };
            let count = |card: Plain| {
                let rest: Vec<Plain> = hand.iter().copied().filter(|&c| c != card).collect();
                least_deadwood(&rest)
            };
            let least = pool.iter().map(|&c| count(c)).min().unwrap();
            let kind = if least <= 10 {
                LegalKind::Knock
            } else {
                LegalKind::Discard
            };
            (0..legal.len())
                .filter(|&i| {
                    let card = match legal[i].action.play {
                        Move::Discard { card } => card,
                        Move::Knock {
                            discard: Some(card),
                            ..
                        } => card,
                        _ => return false,
                    };
                    legal[i].kind == kind
                        && pool.contains(&plain(card))
                        && count(plain(card)) == least
                })
                .collect()
        }
        StatePhase::LastDiscardOffer | StatePhase::Over => (0..legal.len()).collect(),
    }
}

#[test]
fn simple_plays_as_an_independent_reading_of_its_policy_at_every_decision() {
    let profile = Preset::Standard.profile();
    let mut checked = 0;
    let mut discards = 0;
    for seed in 0..40 {
        let bots = [
            BotSpec::new(BotName::Simple, seed),
            BotSpec::new(BotName::Simple, seed + 100),
        ];
        play(&profile, deal(seed), bots, 1000, |_, view, index| {
            let allowed = allowed(view);
            assert!(
                allowed.contains(&index),
                "seed {seed}: {:?} chose {:?}, the policy allows {:?}",
                view.phase(),
                view.legal_actions()[index].action,
                allowed
                    .iter()
                    .map(|&i| &view.legal_actions()[i].action)
                    .collect::<Vec<_>>()
            );
            checked += 1;
            discards += usize::from(view.phase() == StatePhase::Discard);
        });
    }
    assert!(checked > 1000 && discards > 400, "{checked} {discards}");
    let _ = Card::deck();
}
