//! Differential tests: the fast deadwood solver against a deliberately naive one.
//!
//! The oracle shares no code with the engine. It has its own card type (a
//! `(rank, suit)` pair of small numbers, hands as plain vectors), its own
//! notation, its own card values and its own meld check, and it finds melds by
//! trying every subset of the hand and arrangements by trying every collection of
//! pairwise disjoint melds. It is slow on purpose: nothing in it is clever enough
//! to share a bug with the bit tricks in `deadwood.rs`. The only bridge between the
//! two is the card notation: hands reach the engine as text, through the public
//! parser, and come back through the public `Card` accessors.

use std::collections::BTreeSet;

use proptest::prelude::*;
use proptest::sample::subsequence;

use gin_rules::{
    Arrangement, Card, CardSet, JokerRules, MeldKind, Suit, analyze_drawn_hand, best_arrangement,
    cards, melds_within, min_deadwood, optimal_arrangements,
};

/// `(rank, suit)`: rank 1 (ace) ..= 13 (king), suit 0..4 for S H D C.
type OCard = (u8, u8);

const RANK_SYMBOLS: [char; 13] = [
    'A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K',
];
const SUIT_SYMBOLS: [char; 4] = ['S', 'H', 'D', 'C'];

fn full_deck() -> Vec<OCard> {
    let mut deck = Vec::new();
    for suit in 0..4 {
        for rank in 1..=13 {
            deck.push((rank, suit));
        }
    }
    deck
}

fn pips((rank, _): OCard) -> u32 {
    if rank >= 10 { 10 } else { u32::from(rank) }
}

fn text_of((rank, suit): OCard) -> String {
    format!(
        "{}{}",
        RANK_SYMBOLS[usize::from(rank) - 1],
        SUIT_SYMBOLS[usize::from(suit)]
    )
}

fn notation(hand: &[OCard]) -> String {
    hand.iter()
        .map(|&c| text_of(c))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Parses the oracle's own notation (`"7H 8H 9H"`, upper case, `T` for ten).
fn parse_hand(text: &str) -> Vec<OCard> {
    text.split_whitespace()
        .map(|word| {
            let chars: Vec<char> = word.chars().collect();
            assert_eq!(chars.len(), 2, "{word}");
            let rank = RANK_SYMBOLS.iter().position(|&r| r == chars[0]).unwrap();
            let suit = SUIT_SYMBOLS.iter().position(|&s| s == chars[1]).unwrap();
            (rank as u8 + 1, suit as u8)
        })
        .collect()
}

fn to_engine(hand: &[OCard]) -> CardSet {
    cards(&notation(hand)).unwrap_or_else(|e| panic!("{}: {e}", notation(hand)))
}

fn from_engine_card(card: Card) -> OCard {
    let suit = match card.suit() {
        Suit::Spades => 0,
        Suit::Hearts => 1,
        Suit::Diamonds => 2,
        Suit::Clubs => 3,
    };
    (card.rank().number(), suit)
}

fn from_engine(set: CardSet) -> Vec<OCard> {
    sorted(set.iter().map(from_engine_card).collect())
}

fn sorted(mut cards: Vec<OCard>) -> Vec<OCard> {
    cards.sort_unstable();
    cards
}

/// A set (3 or 4 cards, one rank, so distinct suits) or a run (3+ cards, one
/// suit, ranks consecutive with the ace low and no wrap). `None`: not a meld.
fn meld_kind(cards: &[OCard]) -> Option<MeldKind> {
    if cards.len() < 3 {
        return None;
    }
    let mut distinct = cards.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() != cards.len() {
        return None;
    }
    if cards.iter().all(|c| c.0 == cards[0].0) {
        return (cards.len() <= 4).then_some(MeldKind::Set);
    }
    if cards.iter().any(|c| c.1 != cards[0].1) {
        return None;
    }
    let mut ranks: Vec<u8> = cards.iter().map(|c| c.0).collect();
    ranks.sort_unstable();
    ranks
        .windows(2)
        .all(|w| w[1] == w[0] + 1)
        .then_some(MeldKind::Run)
}

/// A hand with every meld in it, each meld a mask over positions in `cards`.
struct Oracle {
    cards: Vec<OCard>,
    melds: Vec<u32>,
}

impl Oracle {
    fn new(cards: &[OCard]) -> Oracle {
        assert!(cards.len() <= 20, "the oracle tries every subset");
        let mut melds = Vec::new();
        for subset in 0u32..1 << cards.len() {
            if subset.count_ones() >= 3 && meld_kind(&Self::pick(cards, subset)).is_some() {
                melds.push(subset);
            }
        }
        Oracle {
            cards: cards.to_vec(),
            melds,
        }
    }

    fn pick(cards: &[OCard], subset: u32) -> Vec<OCard> {
        (0..cards.len())
            .filter(|i| subset >> i & 1 == 1)
            .map(|i| cards[i])
            .collect()
    }

    /// Calls `visit` with every collection of pairwise disjoint melds avoiding
    /// `excluded` (the empty one included), each collection once.
    fn for_each_packing(&self, excluded: u32, visit: &mut impl FnMut(&[u32])) {
        fn go(
            melds: &[u32],
            start: usize,
            used: u32,
            chosen: &mut Vec<u32>,
            visit: &mut impl FnMut(&[u32]),
        ) {
            visit(chosen);
            for (i, &meld) in melds.iter().enumerate().skip(start) {
                if meld & used == 0 {
                    chosen.push(meld);
                    go(melds, i + 1, used | meld, chosen, visit);
                    chosen.pop();
                }
            }
        }
        go(&self.melds, 0, excluded, &mut Vec::new(), visit);
    }

    fn deadwood_of(&self, packing: &[u32], excluded: u32) -> u32 {
        let melded = packing.iter().fold(excluded, |acc, m| acc | m);
        (0..self.cards.len())
            .filter(|i| melded >> i & 1 == 0)
            .map(|i| pips(self.cards[i]))
            .sum()
    }

    /// The least deadwood over every packing of the cards not in `excluded`.
    fn min_without(&self, excluded: u32) -> u32 {
        let mut best = u32::MAX;
        self.for_each_packing(excluded, &mut |p| {
            best = best.min(self.deadwood_of(p, excluded))
        });
        best
    }

    fn min_deadwood(&self) -> u32 {
        self.min_without(0)
    }

    /// The minimum and every packing reaching it, each as a list of melds.
    fn optimal(&self) -> (u32, Vec<Vec<Vec<OCard>>>) {
        let mut best = u32::MAX;
        let mut all = Vec::new();
        self.for_each_packing(0, &mut |p| {
            let count = self.deadwood_of(p, 0);
            if count < best {
                best = count;
                all.clear();
            }
            if count == best {
                all.push(p.iter().map(|&m| Self::pick(&self.cards, m)).collect());
            }
        });
        (best, all)
    }

    fn meld_card_lists(&self) -> Vec<Vec<OCard>> {
        let mut all: Vec<Vec<OCard>> = self
            .melds
            .iter()
            .map(|&m| sorted(Self::pick(&self.cards, m)))
            .collect();
        all.sort();
        all
    }
}

/// An arrangement in a comparable form: runs of one suit that touch end to end
/// merged into one block (the engine reports a block as one run), each meld's
/// cards sorted, the melds sorted.
fn canonical(melds: Vec<Vec<OCard>>) -> Vec<Vec<OCard>> {
    let mut melds: Vec<Vec<OCard>> = melds.into_iter().map(sorted).collect();
    'merge: loop {
        for i in 0..melds.len() {
            for j in 0..melds.len() {
                let (a, b) = (&melds[i], &melds[j]);
                let both_runs = i != j
                    && meld_kind(a) == Some(MeldKind::Run)
                    && meld_kind(b) == Some(MeldKind::Run);
                let touching = both_runs
                    && a[0].1 == b[0].1
                    && a.iter().map(|c| c.0).max().unwrap() + 1
                        == b.iter().map(|c| c.0).min().unwrap();
                if touching {
                    let joined = sorted([melds[i].clone(), melds[j].clone()].concat());
                    melds[i] = joined;
                    melds.remove(j);
                    continue 'merge;
                }
            }
        }
        break;
    }
    melds.sort();
    melds
}

fn engine_melds(arrangement: &Arrangement) -> Vec<Vec<OCard>> {
    arrangement
        .melds
        .iter()
        .map(|m| from_engine(m.cards()))
        .collect()
}

/// `arrangement` is a legal arrangement of `hand` with deadwood `minimum`: every
/// meld legal by the oracle's check and of the kind it claims, the melds
/// disjoint and in the hand, the deadwood cards exactly the rest, counted right.
fn assert_optimal_arrangement_of(hand: &[OCard], arrangement: &Arrangement, minimum: u32) {
    let text = notation(hand);
    let mut melded: Vec<OCard> = Vec::new();
    for meld in &arrangement.melds {
        let meld_cards = from_engine(meld.cards());
        assert_eq!(
            meld_kind(&meld_cards),
            Some(meld.kind()),
            "{text}: {} is not a {:?}",
            notation(&meld_cards),
            meld.kind()
        );
        assert_eq!(meld.cards().len(), meld_cards.len());
        melded.extend(meld_cards);
    }
    let melded = sorted(melded);
    let distinct: BTreeSet<OCard> = melded.iter().copied().collect();
    assert_eq!(distinct.len(), melded.len(), "{text}: melds overlap");
    let hand_set: BTreeSet<OCard> = hand.iter().copied().collect();
    assert!(distinct.is_subset(&hand_set), "{text}: meld card not held");
    let rest: Vec<OCard> = hand_set.difference(&distinct).copied().collect();
    assert_eq!(
        from_engine(arrangement.deadwood_cards),
        rest,
        "{text}: deadwood cards"
    );
    let count: u32 = rest.iter().map(|&c| pips(c)).sum();
    assert_eq!(arrangement.deadwood, count, "{text}: deadwood count");
    assert_eq!(arrangement.deadwood, minimum, "{text}: not the minimum");
}

fn assert_min_deadwood_matches_oracle(hand: &[OCard]) {
    let oracle = Oracle::new(hand);
    assert_eq!(
        min_deadwood(to_engine(hand), &JokerRules::NONE),
        oracle.min_deadwood(),
        "min_deadwood of {}",
        notation(hand)
    );
}

fn assert_min_and_arrangements_match_oracle(hand: &[OCard]) {
    let text = notation(hand);
    let set = to_engine(hand);
    let oracle = Oracle::new(hand);
    let (minimum, packings) = oracle.optimal();
    assert_eq!(
        min_deadwood(set, &JokerRules::NONE),
        minimum,
        "min_deadwood of {text}"
    );

    let best = best_arrangement(set, &JokerRules::NONE);
    assert_optimal_arrangement_of(hand, &best, minimum);

    // Every arrangement is listed for a hand: eleven cards at most.
    let listed = optimal_arrangements(set, &JokerRules::NONE);
    if hand.len() > 11 {
        assert!(listed.is_empty(), "{text}: listed beyond a hand");
        return;
    }
    assert_eq!(listed.first(), Some(&best), "{text}: first is not the best");
    let mut seen = BTreeSet::new();
    for arrangement in &listed {
        assert_optimal_arrangement_of(hand, arrangement, minimum);
        let as_listed = sorted_melds(engine_melds(arrangement));
        let canon = canonical(engine_melds(arrangement));
        assert_eq!(as_listed, canon, "{text}: runs not reported as blocks");
        assert!(seen.insert(canon), "{text}: listed twice: {as_listed:?}");
    }
    let expected: BTreeSet<Vec<Vec<OCard>>> = packings.into_iter().map(canonical).collect();
    let missing: Vec<_> = expected.difference(&seen).collect();
    assert!(
        missing.is_empty(),
        "{text}: optimal but not listed: {missing:?}"
    );
    assert_eq!(seen, expected, "{text}");
}

fn sorted_melds(melds: Vec<Vec<OCard>>) -> Vec<Vec<OCard>> {
    let mut melds: Vec<Vec<OCard>> = melds.into_iter().map(sorted).collect();
    melds.sort();
    melds
}

fn assert_melds_within_matches_oracle(hand: &[OCard]) {
    let oracle = Oracle::new(hand);
    let listed = melds_within(to_engine(hand));
    for meld in &listed {
        assert_eq!(meld_kind(&from_engine(meld.cards())), Some(meld.kind()));
    }
    let mut got: Vec<Vec<OCard>> = listed.iter().map(|m| from_engine(m.cards())).collect();
    got.sort();
    assert_eq!(
        got,
        oracle.meld_card_lists(),
        "melds_within of {}",
        notation(hand)
    );
}

/// Property 4 on one 11-card hand.
fn assert_drawn_hand_matches_oracle(hand: &[OCard]) {
    let text = notation(hand);
    let set = to_engine(hand);
    let oracle = Oracle::new(hand);
    let after_discard: Vec<u32> = (0..hand.len())
        .map(|i| oracle.min_without(1 << i))
        .collect();
    let best = after_discard.iter().copied().min().unwrap_or(u32::MAX);
    let mut best_discards: Vec<OCard> = (0..hand.len())
        .filter(|&i| after_discard[i] == best)
        .map(|i| hand[i])
        .collect();
    // Canonical order: suit (S H D C), then rank.
    best_discards.sort_by_key(|&(rank, suit)| (suit, rank));

    let analysis = analyze_drawn_hand(set, &JokerRules::NONE);
    assert_eq!(analysis.deadwood, best, "{text}: deadwood after discard");
    let listed: Vec<OCard> = analysis
        .discards
        .iter()
        .filter_map(|d| d.card.natural().map(from_engine_card))
        .collect();
    assert_eq!(listed, best_discards, "{text}: best discards");
    for discard in &analysis.discards {
        let kept: Vec<OCard> = hand
            .iter()
            .copied()
            .filter(|&c| Some(c) != discard.card.natural().map(from_engine_card))
            .collect();
        assert_optimal_arrangement_of(&kept, &discard.arrangement, best);
        assert_eq!(
            discard.arrangement,
            best_arrangement(to_engine(&kept), &JokerRules::NONE)
        );
    }
    assert_eq!(
        analysis.big_gin,
        oracle.min_deadwood() == 0,
        "{text}: big gin"
    );
}

// ---------------------------------------------------------------------------
// Hand generators

/// Any `len` distinct cards.
fn random_hand(len: impl Into<proptest::sample::SizeRange>) -> impl Strategy<Value = Vec<OCard>> {
    subsequence(full_deck(), len).prop_shuffle()
}

/// `len` cards out of 3-5 adjacent ranks in all four suits: sets and runs
/// overlap on almost every card.
fn dense_hand(len: usize) -> impl Strategy<Value = Vec<OCard>> {
    (3u8..=5)
        .prop_flat_map(|width| (Just(width), 1..=14 - width))
        .prop_flat_map(move |(width, low)| {
            let pool: Vec<OCard> = (low..low + width)
                .flat_map(|rank| (0..4).map(move |suit| (rank, suit)))
                .collect();
            let take = len.min(pool.len());
            subsequence(pool, take).prop_shuffle()
        })
}

/// A dense cluster of 6-9 cards topped up with random cards from the rest.
fn clustered_hand(len: usize) -> impl Strategy<Value = Vec<OCard>> {
    (3u8..=4, 6usize..=9)
        .prop_flat_map(|(width, core)| (Just(width), 1..=14 - width, Just(core)))
        .prop_flat_map(move |(width, low, core)| {
            let (pool, rest): (Vec<OCard>, Vec<OCard>) = full_deck()
                .into_iter()
                .partition(|&(rank, _)| rank >= low && rank < low + width);
            let core = core.min(len);
            (subsequence(pool, core), subsequence(rest, len - core))
                .prop_map(|(a, b)| [a, b].concat())
                .prop_shuffle()
        })
}

fn ten_card_hand() -> impl Strategy<Value = Vec<OCard>> {
    prop_oneof![random_hand(10), dense_hand(10), clustered_hand(10)]
}

fn eleven_card_hand() -> impl Strategy<Value = Vec<OCard>> {
    prop_oneof![random_hand(11), dense_hand(11), clustered_hand(11)]
}

fn small_hand() -> impl Strategy<Value = Vec<OCard>> {
    prop_oneof![random_hand(0..=10), (0usize..=10).prop_flat_map(dense_hand)]
}

/// The case count: `default`, sized to keep the debug test run short, unless
/// `PROPTEST_CASES` asks for a deeper run (`with_cases` would otherwise ignore it),
/// e.g. `PROPTEST_CASES=200000 cargo test --release -p gin-rules --test properties
/// oracle`.
pub(crate) fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(3000)))]

    #[test]
    fn min_deadwood_equals_the_brute_force_minimum(hand in ten_card_hand()) {
        assert_min_deadwood_matches_oracle(&hand);
    }

    #[test]
    fn min_deadwood_equals_the_brute_force_minimum_on_small_hands(hand in small_hand()) {
        assert_min_deadwood_matches_oracle(&hand);
    }

    #[test]
    fn melds_within_lists_exactly_the_melds_found_by_trying_every_subset(
        hand in prop_oneof![ten_card_hand(), small_hand()]
    ) {
        assert_melds_within_matches_oracle(&hand);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(1500)))]

    #[test]
    fn best_and_optimal_arrangements_are_legal_minimal_and_complete(hand in ten_card_hand()) {
        assert_min_and_arrangements_match_oracle(&hand);
    }

    #[test]
    fn best_and_optimal_arrangements_match_the_oracle_on_small_hands(hand in small_hand()) {
        assert_min_and_arrangements_match_oracle(&hand);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(1000)))]

    #[test]
    fn the_best_discards_of_an_eleven_card_hand_are_the_brute_force_argmin(
        hand in eleven_card_hand()
    ) {
        assert_drawn_hand_matches_oracle(&hand);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(150)))]

    /// The solver claims to work for any number of cards, not only game hands.
    #[test]
    fn min_deadwood_is_exact_on_hands_of_twelve_to_fourteen_cards(
        hand in prop_oneof![random_hand(12..=14), dense_hand(12), clustered_hand(13)]
    ) {
        assert_min_deadwood_matches_oracle(&hand);
    }
}

// ---------------------------------------------------------------------------
// Exhaustive: every hand drawn from three adjacent ranks.

#[test]
fn every_hand_of_ten_or_eleven_cards_from_three_adjacent_ranks_matches_the_oracle() {
    for low in 1..=11u8 {
        let pool: Vec<OCard> = (low..low + 3)
            .flat_map(|rank| (0..4).map(move |suit| (rank, suit)))
            .collect();
        for left_out in 0u32..1 << pool.len() {
            let hand = Oracle::pick(&pool, !left_out & 0xFFF);
            match hand.len() {
                10 => {
                    assert_min_and_arrangements_match_oracle(&hand);
                }
                11 => assert_drawn_hand_matches_oracle(&hand),
                _ => {}
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Card notation

/// The oracle's reading of the card grammar: a rank (`A 2-9 T 10 J Q K`, either
/// case) followed by a suit (`S H D C` either case, or a filled or outlined suit
/// symbol), nothing else.
fn oracle_parse(text: &str) -> Option<OCard> {
    let suit_char = text.chars().last()?;
    let rank_text = &text[..text.len() - suit_char.len_utf8()];
    let suit = match suit_char {
        'S' | 's' | '♠' | '♤' => 0,
        'H' | 'h' | '♥' | '♡' => 1,
        'D' | 'd' | '♦' | '♢' => 2,
        'C' | 'c' | '♣' | '♧' => 3,
        _ => return None,
    };
    let rank = if rank_text == "10" {
        10
    } else {
        let mut chars = rank_text.chars();
        let (Some(r), None) = (chars.next(), chars.next()) else {
            return None;
        };
        RANK_SYMBOLS
            .iter()
            .position(|&s| s == r.to_ascii_uppercase())? as u8
            + 1
    };
    Some((rank, suit))
}

#[test]
fn every_card_round_trips_through_its_canonical_text() {
    for card in full_deck() {
        let text = text_of(card);
        let parsed: Card = text.parse().unwrap();
        assert_eq!(from_engine_card(parsed), card, "{text}");
        assert_eq!(parsed.to_string(), text);
        let lower: Card = text.to_lowercase().parse().unwrap();
        assert_eq!(lower, parsed);
        assert_eq!(u32::from(parsed.value()), pips(card), "{text}");
    }
    assert_eq!(parse_hand("TS AH KC"), vec![(10, 0), (1, 1), (13, 3)]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(4000)))]

    #[test]
    fn any_string_parses_exactly_when_the_oracle_grammar_accepts_it(
        text in prop_oneof![
            any::<String>(),
            "[0-9AaTtJjQqKkXx]{0,3}[SsHhDdCc♠♥♦♣♤♡♢♧X ]{0,2}",
        ]
    ) {
        let parsed = text.parse::<Card>().ok();
        prop_assert_eq!(parsed.map(from_engine_card), oracle_parse(&text), "{:?}", text);
        if let Some(card) = parsed {
            prop_assert_eq!(card.to_string().parse::<Card>().ok(), Some(card));
        }
        // A list never panics either; it is all cards or an error.
        let _ = cards(&text);
    }
}

// ---------------------------------------------------------------------------
// Hand-made edge cases, each compared with the oracle and pinned to a value.

/// Properties 1-3 on one hand (minimum, best arrangement, every optimal
/// arrangement); returns the minimum. `melds_within` has its own tests below.
fn check(text: &str) -> u32 {
    let hand = parse_hand(text);
    assert_min_and_arrangements_match_oracle(&hand);
    Oracle::new(&hand).min_deadwood()
}

#[test]
fn ace_two_three_is_a_run_and_queen_king_ace_is_not() {
    assert_eq!(check("AS 2S 3S"), 0);
    assert_eq!(check("QS KS AS"), 21);
    assert_eq!(check("AH 2H 3H QD KD AD 9C 9S"), 1 + 10 + 10 + 9 + 9);
}

#[test]
fn king_ace_two_is_not_a_run() {
    assert_eq!(check("KC AC 2C"), 13);
    assert_eq!(check("QC KC AC 2C 3C 7S 7H 7D JD 4C"), 10 + 10 + 10);
}

#[test]
fn a_four_card_set_crossing_two_runs_gives_away_the_card_that_saves_most() {
    // 7S can finish 5-6-7S, 7H can start 7-8-9H; only one leaves the set.
    assert_eq!(check("7S 7H 7D 7C 5S 6S 8H 9H KD QC"), 5 + 6 + 20);
    // 6H joins the four sixes or bridges two heart runs: gin either way.
    assert_eq!(check("6S 6D 6C 6H 3H 4H 5H 7H 8H 9H"), 0);
}

#[test]
fn a_thirteen_card_run_is_one_meld() {
    assert_eq!(check("AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"), 0);
    let arrangement = best_arrangement(
        to_engine(&parse_hand("AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD")),
        &JokerRules::NONE,
    );
    assert_eq!(arrangement.melds.len(), 1);
}

#[test]
fn a_hand_with_two_four_card_sets_is_solved_exactly() {
    assert_eq!(check("4S 4H 4D 4C 5S 5H 5D 5C 3H 6H"), 0);
    // 4-5-6S, the other fours, the other sixes: only 5H is left.
    assert_eq!(check("4S 4H 4D 4C 6S 6H 6D 6C 5S 5H"), 5);
    assert_eq!(check("9S 9H 9D 9C KS KH KD KC 2S 3D"), 5);
}

#[test]
fn three_sets_beat_three_runs_over_the_same_cards() {
    // Runs 4-5-6 in three suits leave 6C; the three sets meld all ten.
    assert_eq!(check("4S 4H 4D 5S 5H 5D 6S 6H 6D 6C"), 0);
    assert_eq!(check("4S 4H 4D 5S 5H 5D 5C 6S 6H 6D"), 0);
}

#[test]
fn an_empty_hand_and_a_lone_card_are_all_deadwood() {
    assert_eq!(check(""), 0);
    assert_eq!(check("KH"), 10);
    assert_eq!(check("7S 7H"), 14);
}

#[test]
fn melds_within_lists_the_set_of_a_rank_held_three_times() {
    let hand = to_engine(&parse_hand("9S 9H 9D 2C"));
    let listed: Vec<String> = melds_within(hand).iter().map(|m| m.to_string()).collect();
    assert_eq!(listed, ["9S 9H 9D"]);
}

#[test]
fn an_eleven_card_hand_reports_every_best_discard() {
    assert_drawn_hand_matches_oracle(&parse_hand("3S 4S 5S 6S KS KH KD KC 2D 6C 9C"));
    assert_drawn_hand_matches_oracle(&parse_hand("AS 2S 3S 4S 7H 7D 7C JC QC KC 5S"));
    assert_drawn_hand_matches_oracle(&parse_hand("4S 4H 4D 4C 5S 5H 5D 5C 6S 6H 6D"));
}
