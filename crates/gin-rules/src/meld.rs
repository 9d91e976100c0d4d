//! Melds (sets and runs), why a group of cards is not one, and checking a declared
//! arrangement of melds against a hand.
//!
//! - A **set** is 3 or 4 cards of one rank.
//! - A **run** is 3 or more cards of one suit in consecutive rank order. The ace
//!   is low: A-2-3 is a run, Q-K-A and K-A-2 are not.

use std::cmp::Ordering;
use std::fmt;

#[cfg(feature = "serde")]
use serde::Serialize;

use super::card::{Card, CardSet, LANE, Rank, Suit};
use super::hand::{HandCard, Joker};
use super::profile::JokerRules;

/// Whether a meld is a set or a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum MeldKind {
    /// Three or four cards of one rank.
    Set,
    /// Three or more consecutive cards of one suit, ace low.
    Run,
}

/// A legal meld. The only way to get one is through a check, so holding a `Meld`
/// means holding a valid set or run.
///
/// ```
/// use gin_rules::{cards, Meld, MeldKind, MeldProblemCode};
/// let run = Meld::try_from(cards("AH 2H 3H").unwrap()).unwrap();
/// assert_eq!(run.kind(), MeldKind::Run);
/// let wrap = Meld::try_from(cards("QH KH AH").unwrap()).unwrap_err();
/// assert_eq!(wrap[0].code, MeldProblemCode::WrapAround);
/// ```
///
/// A meld may hold jokers (under a profile with jokers), each standing for
/// one definite card: [`Meld::with_jokers`] checks one. Its [`cards`](Meld::cards)
/// are the cards it shows, the jokers' included, which is what layoffs and
/// other melds are checked against.
// The jokers take two bytes in the padding beside the kind: a meld is 16
// bytes, joker or not, and a joker-free meld is built with one more store of
// zero, so the joker-free solver pays next to nothing for the jokers' fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Meld {
    kind: MeldKind,
    cards: CardSet,
    /// For `X1` and `X2`: 0 when the joker is not in the meld, else 1 + the
    /// bit index of the card of `cards` it stands for.
    stands: [u8; 2],
}

/// A joker's entry in [`Meld`]'s `stands`.
const fn stand(card: Card) -> u8 {
    // A bit index is below 64.
    card.bit_index() as u8 + 1
}

impl Meld {
    /// Set or run.
    pub const fn kind(self) -> MeldKind {
        self.kind
    }

    /// The cards the meld shows: its natural cards and the cards its jokers
    /// stand for. This is what other melds and layoffs must not repeat.
    pub const fn cards(self) -> CardSet {
        self.cards
    }

    /// The natural cards of the meld (its cards less those jokers stand for).
    pub fn naturals(self) -> CardSet {
        self.jokers().fold(self.cards, |acc, (_, card)| {
            acc.difference(CardSet::single(card))
        })
    }

    /// Each joker of the meld with the card it stands for, `X1` first.
    pub fn jokers(self) -> impl Iterator<Item = (Joker, Card)> {
        Joker::ALL
            .into_iter()
            .zip(self.stands)
            .filter(|&(_, stand)| stand != 0)
            .map(|(joker, stand)| (joker, Card::from_bit_index(u32::from(stand) - 1)))
    }

    /// The jokers' pairs packed `X1` first, for ordering.
    fn pairs(self) -> [Option<(Joker, Card)>; 2] {
        let mut pairs = [None; 2];
        for (slot, pair) in pairs.iter_mut().zip(self.jokers()) {
            *slot = Some(pair);
        }
        pairs
    }

    /// The number of jokers in the meld.
    pub fn joker_count(self) -> usize {
        self.jokers().count()
    }

    /// The card this joker stands for, if the meld holds it.
    pub fn stands_for(self, joker: Joker) -> Option<Card> {
        self.jokers()
            .find(|&(j, _)| j == joker)
            .map(|(_, card)| card)
    }

    /// The meld as it is held: its natural cards, then its jokers.
    pub fn held(self) -> impl Iterator<Item = HandCard> {
        self.naturals()
            .iter()
            .map(HandCard::Natural)
            .chain(self.jokers().map(|(joker, _)| HandCard::Joker(joker)))
    }

    /// The meld's cards in order, each joker written in the place of the card
    /// it stands for: `5H X1 7H`.
    pub fn shown(self) -> impl Iterator<Item = HandCard> {
        self.cards
            .iter()
            .map(move |card| match self.jokers().find(|&(_, c)| c == card) {
                Some((joker, _)) => HandCard::Joker(joker),
                None => HandCard::Natural(card),
            })
    }

    /// Checks a meld of naturals and jokers with the card each joker stands
    /// for, under these rules.
    ///
    /// ```
    /// use gin_rules::{cards, Joker, JokerRules, Meld};
    /// let six: gin_rules::Card = "6H".parse().unwrap();
    /// let rules = JokerRules::TWO_JOKERS;
    /// let bridge = Meld::with_jokers(cards("5H 7H").unwrap(), &[(Joker::X1, six)], &rules).unwrap();
    /// assert_eq!(bridge.cards().to_string(), "5H 6H 7H");
    /// // Two natural cards at least, by default.
    /// let seven: gin_rules::Card = "7H".parse().unwrap();
    /// assert!(Meld::with_jokers(cards("5H").unwrap(), &[(Joker::X1, six), (Joker::X2, seven)], &rules).is_err());
    /// ```
    pub fn with_jokers(
        naturals: CardSet,
        jokers: &[(Joker, Card)],
        rules: &JokerRules,
    ) -> Result<Meld, MeldError> {
        let mut shown = naturals;
        let mut stands = [0; 2];
        if jokers.len() > 2 {
            return Err(MeldError::TooManyJokers);
        }
        for &(joker, card) in jokers {
            if !shown.insert(card) {
                return Err(MeldError::StandsForShownCard { joker, card });
            }
            match stands.get_mut(usize::from(joker.number() - 1)) {
                Some(slot) if *slot == 0 => *slot = stand(card),
                _ => return Err(MeldError::TooManyJokers),
            }
        }
        if !jokers.is_empty() && naturals.len() < usize::from(rules.joker_min_natural()) {
            return Err(MeldError::TooFewNaturals {
                needed: rules.joker_min_natural(),
            });
        }
        let kind = classify(shown).map_err(|_| MeldError::NotAMeld)?;
        Ok(Meld {
            kind,
            cards: shown,
            stands,
        })
    }

    /// A meld the joker solver built: `naturals` and each joker's card, known
    /// to make a meld of `kind`. Checked in debug builds.
    pub(crate) fn from_parts(
        kind: MeldKind,
        naturals: CardSet,
        jokers: [Option<(Joker, Card)>; 2],
    ) -> Meld {
        let cards = jokers
            .into_iter()
            .flatten()
            .fold(naturals, |acc, (_, card)| acc.union(CardSet::single(card)));
        debug_assert_eq!(classify(cards), Ok(kind), "{cards}");
        let mut stands = [0; 2];
        for (joker, card) in jokers.into_iter().flatten() {
            if let Some(slot) = stands.get_mut(usize::from(joker.number() - 1)) {
                *slot = stand(card);
            }
        }
        Meld {
            kind,
            cards,
            stands,
        }
    }

    /// The number of cards: at least 3.
    pub const fn len(self) -> usize {
        self.cards.len()
    }

    /// Always false: a meld has at least three cards.
    pub const fn is_empty(self) -> bool {
        self.cards.is_empty()
    }

    /// The lowest rank in the meld (the set's rank, or the run's bottom card).
    pub fn low_rank(self) -> Rank {
        self.cards.iter().map(Card::rank).min().unwrap_or(Rank::ACE)
    }

    /// The suit of a run; `None` for a set.
    pub fn suit(self) -> Option<Suit> {
        match self.kind {
            MeldKind::Run => self.cards.iter().next().map(Card::suit),
            MeldKind::Set => None,
        }
    }

    /// Builds a meld the solvers already know to be legal: a full set lane or one
    /// contiguous run of 3+ cards in one suit. Checked in debug builds.
    pub(crate) fn new_unchecked(kind: MeldKind, cards: CardSet) -> Meld {
        debug_assert_eq!(classify(cards), Ok(kind), "{cards}");
        Meld {
            kind,
            cards,
            stands: [0; 2],
        }
    }

    /// Cards that could be added to this meld, one at a time, keeping it legal:
    /// the missing card of a 3-card set, or the cards just beyond each end of a run.
    /// A 4-card set takes nothing.
    pub fn extensions(self) -> CardSet {
        match self.kind {
            MeldKind::Set if self.len() == 3 => {
                let rank = self.low_rank();
                CardSet::FULL_DECK.of_rank(rank).difference(self.cards)
            }
            MeldKind::Set => CardSet::EMPTY,
            MeldKind::Run => {
                let bits = self.cards.bits();
                // Within-lane neighbours only: the zero gap above each king keeps
                // the shifts from wrapping into the next suit, and `from_bits` drops
                // anything shifted into a gap.
                let lane_bits = lane_mask_of(bits);
                CardSet::from_bits(((bits << 1) | (bits >> 1)) & lane_bits & !bits)
            }
        }
    }
}

/// The full 13-bit lanes of every suit present in `bits`.
fn lane_mask_of(bits: u64) -> u64 {
    let mut lanes = 0;
    for suit in 0..4 {
        if bits >> (suit * 16) & LANE != 0 {
            lanes |= LANE << (suit * 16);
        }
    }
    lanes
}

impl TryFrom<CardSet> for Meld {
    type Error = Vec<MeldProblem>;

    fn try_from(cards: CardSet) -> Result<Meld, Vec<MeldProblem>> {
        classify(cards).map(|kind| Meld {
            kind,
            cards,
            stands: [0; 2],
        })
    }
}

impl TryFrom<&[Card]> for Meld {
    type Error = Vec<MeldProblem>;

    /// Checks a list of cards as written by a client: repeated cards are a problem
    /// of their own, not silently merged.
    fn try_from(list: &[Card]) -> Result<Meld, Vec<MeldProblem>> {
        match CardSet::from_distinct(list.iter().copied()) {
            Ok(cards) => Meld::try_from(cards),
            Err(duplicate) => Err(vec![MeldProblem::new(
                MeldProblemCode::DuplicateCard,
                format!("{} appears more than once in the meld", duplicate.0),
            )]),
        }
    }
}

/// Melds order by their lowest rank, sets before runs, then by their cards: the
/// order in which arrangements list them. Melds showing the same cards order
/// by their natural cards, then their jokers.
impl Ord for Meld {
    fn cmp(&self, other: &Meld) -> Ordering {
        (self.low_rank(), self.kind, self.cards)
            .cmp(&(other.low_rank(), other.kind, other.cards))
            .then_with(|| (self.naturals(), self.pairs()).cmp(&(other.naturals(), other.pairs())))
    }
}

impl PartialOrd for Meld {
    fn partial_cmp(&self, other: &Meld) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Meld {
    /// The cards shown in order, a joker as `X1=6H`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for card in self.cards {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            match self.jokers().find(|&(_, c)| c == card) {
                Some((joker, _)) => write!(f, "{joker}={card}")?,
                None => card.fmt(f)?,
            }
        }
        Ok(())
    }
}

#[cfg(feature = "serde")]
impl Serialize for Meld {
    /// A meld serialises as its list of canonical card strings, each joker
    /// written in the place of the card it stands for (`["5H", "X1", "7H"]`).
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.shown())
    }
}

/// Why cards and jokers are not a meld.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MeldError {
    /// More than two jokers, or one joker twice.
    #[error("a meld holds at most the two jokers, each once")]
    TooManyJokers,
    /// A joker stands for a card the meld already shows.
    #[error("{joker} stands for {card}, which the meld already shows")]
    StandsForShownCard {
        /// The joker.
        joker: Joker,
        /// The card it stands for.
        card: Card,
    },
    /// Fewer natural cards than the rules ask of a meld holding a joker.
    #[error("a meld holding a joker needs at least {needed} natural cards")]
    TooFewNaturals {
        /// The rules' `joker_min_natural`.
        needed: u8,
    },
    /// With the jokers in place, the cards are not a set or a run.
    #[error("with each joker in place, the cards are not a set or a run")]
    NotAMeld,
}

/// Stable machine-readable reasons a group of cards is not a meld.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum MeldProblemCode {
    /// Fewer than three cards.
    TooShort,
    /// The same card is listed twice.
    DuplicateCard,
    /// Cards of different ranks where at least two share a rank: neither a set
    /// (one rank) nor a run (distinct ranks).
    MixedRanks,
    /// Distinct ranks but more than one suit: a run must be in one suit.
    MixedSuits,
    /// One suit, but the ranks are not consecutive.
    Gap,
    /// One suit, consecutive only if the king were followed by the ace.
    WrapAround,
}

/// One reason a group of cards is not a meld, with a human sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MeldProblem {
    /// `too_short`, `duplicate_card`, `mixed_ranks`, `mixed_suits`, `gap` or `wrap_around`.
    #[cfg_attr(feature = "openapi", schema(value_type = String, example = "wrap_around"))]
    pub code: MeldProblemCode,
    /// A sentence naming the cards.
    #[cfg_attr(
        feature = "openapi",
        schema(example = "the ace is low: a run cannot go from the king round to the ace")
    )]
    pub message: String,
}

impl MeldProblem {
    fn new(code: MeldProblemCode, message: String) -> MeldProblem {
        MeldProblem { code, message }
    }
}

/// Decides what a group of distinct cards is, or every reason it is not a meld.
fn classify(cards: CardSet) -> Result<MeldKind, Vec<MeldProblem>> {
    let mut problems = Vec::new();
    if cards.len() < 3 {
        problems.push(MeldProblem::new(
            MeldProblemCode::TooShort,
            format!(
                "a meld needs at least 3 cards, this one has {}",
                cards.len()
            ),
        ));
    }
    let lanes: Vec<u16> = Suit::ALL
        .iter()
        .map(|&s| cards.lane(s))
        .filter(|&l| l != 0)
        .collect();
    let rank_union = lanes.iter().fold(0u16, |acc, &l| acc | l);
    let rank_count = rank_union.count_ones() as usize;

    let shape = if cards.is_empty() {
        None
    } else if rank_count == 1 {
        // One rank: a set of at most 4 cards, since the cards are distinct.
        Some(MeldKind::Set)
    } else if let &[lane] = lanes.as_slice() {
        let span = 16 - lane.leading_zeros() - lane.trailing_zeros();
        if span as usize == rank_count {
            Some(MeldKind::Run)
        } else {
            problems.push(run_gap_problem(lane));
            None
        }
    } else if rank_count == cards.len() {
        problems.push(MeldProblem::new(
            MeldProblemCode::MixedSuits,
            format!(
                "a run must be in one suit, these cards are in {} suits",
                lanes.len()
            ),
        ));
        None
    } else {
        problems.push(MeldProblem::new(
            MeldProblemCode::MixedRanks,
            format!(
                "a set must be all one rank and a run cannot repeat a rank; these cards have {rank_count} ranks"
            ),
        ));
        None
    };
    match shape {
        Some(kind) if problems.is_empty() => Ok(kind),
        _ => Err(problems),
    }
}

/// Explains why cards of one suit with non-consecutive ranks are not a run.
fn run_gap_problem(lane: u16) -> MeldProblem {
    let has_ace = lane & 1 != 0;
    let has_king = lane & (1 << 12) != 0;
    // Rotating the ace to the top (rank 14) tests whether the cards would be
    // consecutive if the king wrapped round to the ace.
    if has_ace && has_king {
        let low = u32::from(lane);
        for shift in 1..13 {
            let rotated = ((low >> shift) | (low << (13 - shift))) & 0x1FFF;
            let span = 16 - (rotated as u16).leading_zeros() - rotated.trailing_zeros();
            if span == lane.count_ones() {
                return MeldProblem::new(
                    MeldProblemCode::WrapAround,
                    "the ace is low: a run cannot go from the king round to the ace".into(),
                );
            }
        }
    }
    let low = lane.trailing_zeros();
    let high = 15 - lane.leading_zeros();
    let missing: Vec<String> = (low..=high)
        .filter(|bit| lane & (1 << bit) == 0)
        .filter_map(|bit| Rank::new(bit as u8 + 1))
        .map(|r| r.symbol().to_string())
        .collect();
    MeldProblem::new(
        MeldProblemCode::Gap,
        format!("the run is not consecutive: missing {}", missing.join(", ")),
    )
}

/// A fault that spans melds or the hand rather than one meld.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "code", rename_all = "snake_case"))]
pub enum ArrangementProblem {
    /// A card appears in more than one meld.
    CardInTwoMelds {
        /// The card.
        card: Card,
        /// The first two melds holding it.
        melds: [usize; 2],
    },
    /// A meld uses a card the hand does not hold.
    CardNotInHand {
        /// The card.
        card: Card,
        /// The meld using it.
        meld: usize,
    },
}

impl ArrangementProblem {
    /// A sentence naming the card and the melds.
    pub fn message(&self) -> String {
        match self {
            ArrangementProblem::CardInTwoMelds { card, melds } => {
                format!(
                    "{card} is in meld {} and meld {}; a card belongs to at most one meld",
                    melds[0], melds[1]
                )
            }
            ArrangementProblem::CardNotInHand { card, meld } => {
                format!("{card} in meld {meld} is not in the hand")
            }
        }
    }
}

/// The verdict on one declared meld.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MeldVerdict {
    /// The cards as declared (canonical, in the client's order).
    pub cards: Vec<Card>,
    /// The meld, when the cards form one.
    pub meld: Option<Meld>,
    /// Every reason the cards are not a meld (empty for a meld).
    pub problems: Vec<MeldProblem>,
}

/// The verdict on a whole declared arrangement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArrangementReport {
    /// One verdict per declared meld, in order.
    pub melds: Vec<MeldVerdict>,
    /// Faults across melds or against the hand.
    pub problems: Vec<ArrangementProblem>,
    /// With a hand: the hand's cards in no declared meld, and their count.
    pub deadwood: Option<(CardSet, u32)>,
}

impl ArrangementReport {
    /// True when every meld is legal and no cross-meld problem was found.
    pub fn is_valid(&self) -> bool {
        self.problems.is_empty() && self.melds.iter().all(|m| m.meld.is_some())
    }

    /// The legal melds, when the whole arrangement is valid.
    pub fn valid_melds(&self) -> Option<Vec<Meld>> {
        if self.is_valid() {
            self.melds.iter().map(|m| m.meld).collect()
        } else {
            None
        }
    }
}

/// Checks declared melds: each on its own, then together (disjoint) and, given a
/// hand, against it (every meld card held). Deadwood is reported with a hand, even
/// when the arrangement is invalid (it is then the hand less the declared cards).
///
/// ```
/// use gin_rules::{cards, check_arrangement, Card};
/// let hand = cards("7S 7H 7D 3C 4C 5C 6C KD QH 2S").unwrap();
/// let melds: Vec<Vec<Card>> = vec![
///     cards("7S 7H 7D").unwrap().to_vec(),
///     cards("3C 4C 5C 6C").unwrap().to_vec(),
/// ];
/// let report = check_arrangement(&melds, Some(hand));
/// assert!(report.is_valid());
/// assert_eq!(report.deadwood.unwrap().1, 22);
/// ```
pub fn check_arrangement(melds: &[Vec<Card>], hand: Option<CardSet>) -> ArrangementReport {
    let mut verdicts = Vec::with_capacity(melds.len());
    let mut problems = Vec::new();
    let mut owner: Vec<(Card, usize)> = Vec::new();
    let mut declared = CardSet::EMPTY;
    for (index, list) in melds.iter().enumerate() {
        let (meld, meld_problems) = match Meld::try_from(list.as_slice()) {
            Ok(meld) => (Some(meld), Vec::new()),
            Err(problems) => (None, problems),
        };
        let mut seen_here = CardSet::EMPTY;
        for &card in list {
            if !seen_here.insert(card) {
                continue;
            }
            if let Some(&(_, first)) = owner.iter().find(|(c, _)| *c == card) {
                problems.push(ArrangementProblem::CardInTwoMelds {
                    card,
                    melds: [first, index],
                });
            } else {
                owner.push((card, index));
            }
            if let Some(hand) = hand
                && !hand.contains(card)
            {
                problems.push(ArrangementProblem::CardNotInHand { card, meld: index });
            }
            declared.insert(card);
        }
        verdicts.push(MeldVerdict {
            cards: list.clone(),
            meld,
            problems: meld_problems,
        });
    }
    let deadwood = hand.map(|hand| {
        let rest = hand.difference(declared);
        (rest, rest.value())
    });
    ArrangementReport {
        melds: verdicts,
        problems,
        deadwood,
    }
}

/// Whether two runs of one suit touch (`5H 6H 7H` and `8H 9H TH`): together
/// they are one run, so an arrangement listing them apart is listed once, as
/// the single run.
pub(crate) fn has_touching_runs(melds: impl IntoIterator<Item = Meld>) -> bool {
    let runs: Vec<u64> = melds
        .into_iter()
        .filter(|m| m.kind() == MeldKind::Run)
        .map(|m| m.cards().bits())
        .collect();
    runs.iter().enumerate().any(|(i, a)| {
        runs.iter()
            .skip(i + 1)
            .any(|b| (a << 1) & b != 0 || (a >> 1) & b != 0)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::cards;

    fn codes(text: &str) -> Vec<MeldProblemCode> {
        match Meld::try_from(cards(text).unwrap()) {
            Ok(_) => Vec::new(),
            Err(problems) => problems.into_iter().map(|p| p.code).collect(),
        }
    }

    fn kind(text: &str) -> MeldKind {
        Meld::try_from(cards(text).unwrap()).unwrap().kind()
    }

    #[test]
    fn sets_of_three_and_four_are_melds() {
        assert_eq!(kind("7S 7H 7D"), MeldKind::Set);
        assert_eq!(kind("KS KH KD KC"), MeldKind::Set);
    }

    #[test]
    fn runs_are_consecutive_in_one_suit_with_the_ace_low() {
        assert_eq!(kind("AH 2H 3H"), MeldKind::Run);
        assert_eq!(kind("9C TC JC QC KC"), MeldKind::Run);
        assert_eq!(
            kind("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"),
            MeldKind::Run
        );
    }

    #[test]
    fn invalid_groups_name_their_problem() {
        assert_eq!(codes("7S 7H"), [MeldProblemCode::TooShort]);
        assert_eq!(codes(""), [MeldProblemCode::TooShort]);
        assert_eq!(codes("3H 4S 5H"), [MeldProblemCode::MixedSuits]);
        assert_eq!(codes("7S 7H 8S"), [MeldProblemCode::MixedRanks]);
        assert_eq!(codes("3H 4H 6H"), [MeldProblemCode::Gap]);
        assert_eq!(codes("QH KH AH"), [MeldProblemCode::WrapAround]);
        assert_eq!(codes("KH AH 2H"), [MeldProblemCode::WrapAround]);
        assert_eq!(codes("AH 3H KH"), [MeldProblemCode::Gap]);
        assert_eq!(
            codes("3H 4S"),
            [MeldProblemCode::TooShort, MeldProblemCode::MixedSuits]
        );
    }

    #[test]
    fn a_repeated_card_in_a_declared_meld_is_a_problem_of_its_own() {
        let list: Vec<Card> = ["7S", "7H", "7s"]
            .iter()
            .map(|c| c.parse().unwrap())
            .collect();
        let problems = Meld::try_from(list.as_slice()).unwrap_err();
        assert_eq!(problems[0].code, MeldProblemCode::DuplicateCard);
    }

    #[test]
    fn extensions_of_a_three_card_set_is_its_missing_card_and_a_four_card_set_takes_none() {
        let set = Meld::try_from(cards("9S 9H 9C").unwrap()).unwrap();
        assert_eq!(set.extensions(), cards("9D").unwrap());
        let full = Meld::try_from(cards("9S 9H 9D 9C").unwrap()).unwrap();
        assert_eq!(full.extensions(), CardSet::EMPTY);
    }

    #[test]
    fn extensions_of_a_run_are_its_neighbours_without_wrapping() {
        let run = Meld::try_from(cards("3H 4H 5H").unwrap()).unwrap();
        assert_eq!(run.extensions(), cards("2H 6H").unwrap());
        let low = Meld::try_from(cards("AC 2C 3C").unwrap()).unwrap();
        assert_eq!(low.extensions(), cards("4C").unwrap());
        let high = Meld::try_from(cards("JS QS KS").unwrap()).unwrap();
        assert_eq!(high.extensions(), cards("TS").unwrap());
    }

    #[test]
    fn an_arrangement_reports_shared_cards_foreign_cards_and_deadwood() {
        let hand = cards("7S 7H 7D 8S 9S KD").unwrap();
        let melds = vec![
            cards("7S 7H 7D").unwrap().to_vec(),
            cards("7S 8S 9S").unwrap().to_vec(),
            cards("QH KH AH").unwrap().to_vec(),
        ];
        let report = check_arrangement(&melds, Some(hand));
        assert!(!report.is_valid());
        let shared: Vec<bool> = report
            .problems
            .iter()
            .map(|problem| matches!(problem, ArrangementProblem::CardInTwoMelds { .. }))
            .collect();
        // 7S in two melds, then QH, KH and AH not in the hand.
        assert_eq!(shared, [true, false, false, false]);
        assert_eq!(
            report.melds[2].problems[0].code,
            MeldProblemCode::WrapAround
        );
        assert_eq!(report.deadwood, Some((cards("KD").unwrap(), 10)));
    }
}
