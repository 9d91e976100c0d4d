//! Differential tests: the wild-card solver against a deliberately naive one.
//!
//! The oracle shares no code with the engine (nor with `oracle.rs`): its own
//! card type, values and meld check. It finds every meld by trying every
//! subset of the hand's cards and jokers, and every card each joker of the
//! subset could stand for (any card sharing a rank or a suit with a natural of
//! the subset: the cards of a set share a rank, those of a run a suit); then
//! every collection of melds that use distinct cards and show distinct cards.
//! Hands reach the engine as text through the public parser (`parse_hand`),
//! and come back through the public accessors.
//!
//! Each property prints how many cases it checked (`--nocapture` shows it).
//! The default counts keep the debug test run short; a deeper run goes in
//! release, e.g. `PROPTEST_CASES=20000 cargo test --release -p gin-rules
//! --test properties wild -- --nocapture`.

use std::collections::BTreeSet;

use proptest::prelude::*;
use proptest::sample::subsequence;
use proptest::test_runner::{Config, TestRunner};

use gin_rules::{
    Arrangement, Card, HandCard, Joker, JokerRules, MeldKind, StandsFor, Suit, analyze_drawn_hand,
    best_arrangement, min_deadwood, optimal_arrangements, parse_hand,
};
use gin_rules::{DeclaredLayoff, DeclaredReply, declared_reply};

/// `(rank, suit)`: rank 1 (ace) ..= 13 (king), suit 0..4 for S H D C.
type OCard = (u8, u8);

/// A card of the hand: a natural, or joker 1 or 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Item {
    Natural(OCard),
    Joker(u8),
}

const RANKS: &str = "A23456789TJQK";
const SUITS: &str = "SHDC";

fn worth((rank, _): OCard) -> u32 {
    u32::from(rank.min(10))
}

fn spell((rank, suit): OCard) -> String {
    format!(
        "{}{}",
        RANKS.as_bytes()[usize::from(rank) - 1] as char,
        SUITS.as_bytes()[usize::from(suit)] as char
    )
}

fn spell_item(item: Item) -> String {
    match item {
        Item::Natural(card) => spell(card),
        Item::Joker(n) => format!("X{n}"),
    }
}

fn spell_hand(items: &[Item]) -> String {
    items
        .iter()
        .map(|&i| spell_item(i))
        .collect::<Vec<_>>()
        .join(" ")
}

fn from_engine(card: Card) -> OCard {
    let suit = match card.suit() {
        Suit::Spades => 0,
        Suit::Hearts => 1,
        Suit::Diamonds => 2,
        Suit::Clubs => 3,
    };
    (card.rank().number(), suit)
}

fn joker_number(joker: Joker) -> u8 {
    match joker {
        Joker::X1 => 1,
        Joker::X2 => 2,
    }
}

/// A set (3-4 cards of one rank, distinct suits) or a run (3+ cards of one
/// suit, consecutive ranks, ace low, no wrap), by the oracle's own check.
fn is_meld(cards: &[OCard]) -> Option<MeldKind> {
    if cards.len() < 3 {
        return None;
    }
    let distinct: BTreeSet<OCard> = cards.iter().copied().collect();
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

/// One way to meld some of the hand: which items, the cards it shows, and
/// what each joker in it stands for.
#[derive(Debug, Clone)]
struct OMeld {
    items: u32,
    shown: Vec<OCard>,
    kind: MeldKind,
    jokers: Vec<(u8, OCard)>,
}

struct WildOracle {
    items: Vec<Item>,
    melds: Vec<OMeld>,
    joker_deadwood: u32,
}

impl WildOracle {
    fn new(items: &[Item], min_natural: usize, joker_deadwood: u32) -> WildOracle {
        WildOracle::avoiding(items, min_natural, joker_deadwood, &[])
    }

    /// The oracle where no meld may show a card of `forbidden` (cards already
    /// on the table).
    fn avoiding(
        items: &[Item],
        min_natural: usize,
        joker_deadwood: u32,
        forbidden: &[OCard],
    ) -> WildOracle {
        let mut melds = Vec::new();
        for subset in 0u32..1 << items.len() {
            if subset.count_ones() < 3 {
                continue;
            }
            let chosen: Vec<Item> = (0..items.len())
                .filter(|i| subset >> i & 1 == 1)
                .map(|i| items[i])
                .collect();
            let naturals: Vec<OCard> = chosen
                .iter()
                .filter_map(|i| match i {
                    Item::Natural(c) => Some(*c),
                    Item::Joker(_) => None,
                })
                .collect();
            let jokers: Vec<u8> = chosen
                .iter()
                .filter_map(|i| match i {
                    Item::Joker(n) => Some(*n),
                    Item::Natural(_) => None,
                })
                .collect();
            if naturals.is_empty() || (!jokers.is_empty() && naturals.len() < min_natural) {
                continue;
            }
            let first = naturals[0];
            let candidates: Vec<OCard> = (1..=13u8)
                .flat_map(|rank| (0..4u8).map(move |suit| (rank, suit)))
                .filter(|&(rank, suit)| rank == first.0 || suit == first.1)
                .collect();
            // Every assignment of a candidate card to each joker of the subset.
            let mut assignments: Vec<Vec<OCard>> = vec![Vec::new()];
            for _ in &jokers {
                assignments = assignments
                    .into_iter()
                    .flat_map(|partial| {
                        candidates.iter().map(move |&c| {
                            let mut next = partial.clone();
                            next.push(c);
                            next
                        })
                    })
                    .collect();
            }
            for stands_for in assignments {
                let mut shown = naturals.clone();
                shown.extend(&stands_for);
                if shown.iter().any(|c| forbidden.contains(c)) {
                    continue;
                }
                if let Some(kind) = is_meld(&shown) {
                    shown.sort_unstable();
                    melds.push(OMeld {
                        items: subset,
                        shown,
                        kind,
                        jokers: jokers.iter().copied().zip(stands_for).collect(),
                    });
                }
            }
        }
        WildOracle {
            items: items.to_vec(),
            melds,
            joker_deadwood,
        }
    }

    fn count(&self, used: u32) -> u32 {
        (0..self.items.len())
            .filter(|i| used >> i & 1 == 0)
            .map(|i| match self.items[i] {
                Item::Natural(c) => worth(c),
                Item::Joker(_) => self.joker_deadwood,
            })
            .sum()
    }

    /// Every collection of melds using distinct items and showing distinct
    /// cards, with its count.
    fn for_each_packing(&self, visit: &mut impl FnMut(&[usize], u32)) {
        fn go(
            oracle: &WildOracle,
            start: usize,
            used: u32,
            shown: &mut Vec<OCard>,
            chosen: &mut Vec<usize>,
            visit: &mut impl FnMut(&[usize], u32),
        ) {
            visit(chosen, oracle.count(used));
            for i in start..oracle.melds.len() {
                let meld = &oracle.melds[i];
                if meld.items & used != 0 || meld.shown.iter().any(|c| shown.contains(c)) {
                    continue;
                }
                let before = shown.len();
                shown.extend(&meld.shown);
                chosen.push(i);
                go(oracle, i + 1, used | meld.items, shown, chosen, visit);
                chosen.pop();
                shown.truncate(before);
            }
        }
        go(self, 0, 0, &mut Vec::new(), &mut Vec::new(), visit);
    }

    fn least(&self) -> u32 {
        let mut best = u32::MAX;
        self.for_each_packing(&mut |_, count| best = best.min(count));
        best
    }

    /// Whether some packing melds every item.
    fn melds_everything(&self) -> bool {
        let all = (1u32 << self.items.len()) - 1;
        let mut found = false;
        self.for_each_packing(&mut |chosen, _| {
            let used = chosen.iter().fold(0, |acc, &i| acc | self.melds[i].items);
            found |= used == all;
        });
        found
    }

    /// The least count and every packing reaching it, canonical.
    fn optimal(&self) -> (u32, BTreeSet<Canon>) {
        let mut best = u32::MAX;
        let mut all = BTreeSet::new();
        self.for_each_packing(&mut |chosen, count| {
            if count < best {
                best = count;
                all.clear();
            }
            if count == best {
                all.insert(canonical(
                    chosen
                        .iter()
                        .map(|&i| {
                            let m = &self.melds[i];
                            (m.kind, m.shown.clone(), m.jokers.clone())
                        })
                        .collect(),
                ));
            }
        });
        (best, all)
    }
}

/// A meld in comparable form: kind, sorted shown cards, sorted joker
/// assignments.
type CanonMeld = (MeldKind, Vec<OCard>, Vec<(u8, OCard)>);
type Canon = Vec<CanonMeld>;

/// Runs of one suit that touch merged into one (the engine lists a block as
/// one run), everything sorted.
fn canonical(mut melds: Vec<CanonMeld>) -> Canon {
    'merge: loop {
        for i in 0..melds.len() {
            for j in 0..melds.len() {
                let (a, b) = (&melds[i], &melds[j]);
                let touching = i != j
                    && a.0 == MeldKind::Run
                    && b.0 == MeldKind::Run
                    && a.1[0].1 == b.1[0].1
                    && a.1.iter().map(|c| c.0).max().unwrap() + 1
                        == b.1.iter().map(|c| c.0).min().unwrap();
                if touching {
                    let mut shown = [a.1.clone(), b.1.clone()].concat();
                    let mut jokers = [a.2.clone(), b.2.clone()].concat();
                    shown.sort_unstable();
                    jokers.sort_unstable();
                    melds[i] = (MeldKind::Run, shown, jokers);
                    melds.remove(j);
                    continue 'merge;
                }
            }
        }
        break;
    }
    for meld in &mut melds {
        meld.1.sort_unstable();
        meld.2.sort_unstable();
    }
    melds.sort();
    melds
}

fn engine_canon(arrangement: &Arrangement) -> Canon {
    let mut melds: Canon = arrangement
        .melds
        .iter()
        .map(|m| {
            let mut shown: Vec<OCard> = m.cards().iter().map(from_engine).collect();
            shown.sort_unstable();
            let mut jokers: Vec<(u8, OCard)> = m
                .jokers()
                .map(|(j, c)| (joker_number(j), from_engine(c)))
                .collect();
            jokers.sort_unstable();
            (m.kind(), shown, jokers)
        })
        .collect();
    melds.sort();
    melds
}

/// The engine's arrangement is legal for the hand under the oracle's own
/// checks, and counts `least`.
fn assert_legal_and_least(
    items: &[Item],
    arrangement: &Arrangement,
    rules: (usize, u32),
    least: u32,
) {
    let text = spell_hand(items);
    let (min_natural, joker_deadwood) = rules;
    let mut shown_all: Vec<OCard> = Vec::new();
    let mut used: Vec<Item> = Vec::new();
    for meld in &arrangement.melds {
        let naturals: Vec<OCard> = meld.naturals().iter().map(from_engine).collect();
        let jokers: Vec<(u8, OCard)> = meld
            .jokers()
            .map(|(j, c)| (joker_number(j), from_engine(c)))
            .collect();
        let mut shown = naturals.clone();
        shown.extend(jokers.iter().map(|j| j.1));
        assert_eq!(
            is_meld(&shown),
            Some(meld.kind()),
            "{text}: {meld} is no meld"
        );
        if !jokers.is_empty() {
            assert!(
                naturals.len() >= min_natural,
                "{text}: {meld} too few naturals"
            );
        }
        used.extend(naturals.iter().map(|&c| Item::Natural(c)));
        used.extend(jokers.iter().map(|j| Item::Joker(j.0)));
        shown_all.extend(shown);
    }
    let distinct_shown: BTreeSet<OCard> = shown_all.iter().copied().collect();
    assert_eq!(
        distinct_shown.len(),
        shown_all.len(),
        "{text}: a card shown twice"
    );
    let distinct_used: BTreeSet<Item> = used.iter().copied().collect();
    assert_eq!(
        distinct_used.len(),
        used.len(),
        "{text}: an item used twice"
    );
    let held: BTreeSet<Item> = items.iter().copied().collect();
    assert!(
        distinct_used.is_subset(&held),
        "{text}: a melded card not held"
    );
    let rest: Vec<Item> = held.difference(&distinct_used).copied().collect();
    let rest_naturals: Vec<OCard> = rest
        .iter()
        .filter_map(|i| match i {
            Item::Natural(c) => Some(*c),
            Item::Joker(_) => None,
        })
        .collect();
    let rest_jokers: Vec<u8> = rest
        .iter()
        .filter_map(|i| match i {
            Item::Joker(n) => Some(*n),
            Item::Natural(_) => None,
        })
        .collect();
    let mut engine_dead: Vec<OCard> = arrangement.deadwood_cards.iter().map(from_engine).collect();
    engine_dead.sort_unstable();
    let mut rest_sorted = rest_naturals.clone();
    rest_sorted.sort_unstable();
    assert_eq!(engine_dead, rest_sorted, "{text}: deadwood cards");
    let engine_jokers: Vec<u8> = arrangement
        .deadwood_jokers
        .iter()
        .map(joker_number)
        .collect();
    assert_eq!(engine_jokers, rest_jokers, "{text}: deadwood jokers");
    let count: u32 = rest_naturals.iter().map(|&c| worth(c)).sum::<u32>()
        + joker_deadwood * rest_jokers.len() as u32;
    assert_eq!(arrangement.deadwood, count, "{text}: deadwood count");
    assert_eq!(arrangement.deadwood, least, "{text}: not the least");
}

/// A hand: naturals and jokers, with the rules to play it under.
#[derive(Debug, Clone)]
struct Case {
    items: Vec<Item>,
    min_natural: u8,
    joker_deadwood: u8,
}

impl Case {
    fn rules(&self) -> JokerRules {
        JokerRules::new(2, self.joker_deadwood, self.min_natural).unwrap()
    }

    fn oracle(&self, items: &[Item]) -> WildOracle {
        WildOracle::new(
            items,
            usize::from(self.min_natural),
            u32::from(self.joker_deadwood),
        )
    }

    fn text(&self) -> String {
        format!(
            "{} (min natural {}, joker {})",
            spell_hand(&self.items),
            self.min_natural,
            self.joker_deadwood
        )
    }
}

fn full_deck() -> Vec<OCard> {
    (0..4u8)
        .flat_map(|suit| (1..=13u8).map(move |rank| (rank, suit)))
        .collect()
}

/// Naturals: random, or from a few adjacent ranks (sets and runs crossing),
/// or a long stretch of two suits (runs the jokers bridge and extend).
fn naturals(len: usize) -> impl Strategy<Value = Vec<OCard>> {
    let dense = (3u8..=5)
        .prop_flat_map(|width| (Just(width), 1..=14 - width))
        .prop_flat_map(move |(width, low)| {
            let pool: Vec<OCard> = full_deck()
                .into_iter()
                .filter(|c| c.0 >= low && c.0 < low + width)
                .collect();
            subsequence(pool, len.min(4 * usize::from(width)))
        });
    let suited = (0u8..4, 0u8..4).prop_flat_map(move |(a, b)| {
        let pool: Vec<OCard> = full_deck()
            .into_iter()
            .filter(|c| c.1 == a || c.1 == b)
            .collect();
        subsequence(pool, len)
    });
    prop_oneof![
        2 => subsequence(full_deck(), len),
        2 => dense,
        1 => suited,
    ]
}

/// A hand of `total` cards with 1 or 2 jokers, under random joker rules.
fn case(total: usize) -> impl Strategy<Value = Case> {
    (
        prop_oneof![Just(vec![1u8]), Just(vec![2u8]), Just(vec![1u8, 2])],
        1u8..=3,
        prop::sample::select(vec![0u8, 15, 25]),
    )
        .prop_flat_map(move |(jokers, min_natural, joker_deadwood)| {
            let count = jokers.len();
            (
                naturals(total - count),
                Just(jokers),
                Just(min_natural),
                Just(joker_deadwood),
            )
        })
        .prop_map(|(naturals, jokers, min_natural, joker_deadwood)| {
            let mut items: Vec<Item> = naturals.into_iter().map(Item::Natural).collect();
            items.extend(jokers.into_iter().map(Item::Joker));
            Case {
                items,
                min_natural,
                joker_deadwood,
            }
        })
}

/// Runs `check` on `cases` generated cases and prints how many it checked.
fn run(name: &str, cases: u32, strategy: impl Strategy<Value = Case>, check: impl Fn(&Case)) {
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let checked = std::cell::Cell::new(0u32);
    let result = runner.run(&strategy, |case| {
        check(&case);
        checked.set(checked.get() + 1);
        Ok(())
    });
    if let Err(error) = result {
        panic!("{name}: {error}");
    }
    println!("wild oracle, {name}: {} cases checked", checked.get());
}

fn cases(default: u32) -> u32 {
    super::oracle::cases(default)
}

fn check_ten(case: &Case) {
    let hand = parse_hand(&spell_hand(&case.items)).unwrap();
    let rules = case.rules();
    let oracle = case.oracle(&case.items);
    let least = oracle.least();
    assert_eq!(min_deadwood(hand, &rules), least, "{}", case.text());
    let best = best_arrangement(hand, &rules);
    let checks = (
        usize::from(case.min_natural),
        u32::from(case.joker_deadwood),
    );
    assert_legal_and_least(&case.items, &best, checks, least);
}

fn check_listing(case: &Case) {
    let hand = parse_hand(&spell_hand(&case.items)).unwrap();
    let rules = case.rules();
    let (least, expected) = case.oracle(&case.items).optimal();
    let listed = optimal_arrangements(hand, &rules);
    let checks = (
        usize::from(case.min_natural),
        u32::from(case.joker_deadwood),
    );
    let mut seen = BTreeSet::new();
    for arrangement in &listed {
        assert_legal_and_least(&case.items, arrangement, checks, least);
        let canon = engine_canon(arrangement);
        assert_eq!(
            canonical(canon.clone()),
            canon,
            "{}: touching runs",
            case.text()
        );
        assert!(seen.insert(canon), "{}: listed twice", case.text());
    }
    assert!(
        listed.contains(&best_arrangement(hand, &rules)),
        "{}",
        case.text()
    );
    assert_eq!(seen, expected, "{}: the optimal arrangements", case.text());
}

fn check_eleven(case: &Case) {
    let hand = parse_hand(&spell_hand(&case.items)).unwrap();
    let rules = case.rules();
    let analysis = analyze_drawn_hand(hand, &rules);
    let per_discard: Vec<(Item, u32)> = case
        .items
        .iter()
        .map(|&discard| {
            let kept: Vec<Item> = case
                .items
                .iter()
                .copied()
                .filter(|&i| i != discard)
                .collect();
            (discard, case.oracle(&kept).least())
        })
        .collect();
    let least = per_discard.iter().map(|d| d.1).min().unwrap();
    assert_eq!(analysis.deadwood, least, "{}", case.text());
    let mut expected: Vec<Item> = per_discard
        .iter()
        .filter(|d| d.1 == least)
        .map(|d| d.0)
        .collect();
    // The engine's order: naturals by suit then rank, then X1, X2.
    expected.sort_by_key(|&item| match item {
        Item::Natural((rank, suit)) => (0, suit, rank),
        Item::Joker(n) => (1, n, 0),
    });
    let listed: Vec<Item> = analysis
        .discards
        .iter()
        .map(|d| match d.card {
            HandCard::Natural(card) => Item::Natural(from_engine(card)),
            HandCard::Joker(joker) => Item::Joker(joker_number(joker)),
        })
        .collect();
    assert_eq!(listed, expected, "{}: best discards", case.text());
    let checks = (
        usize::from(case.min_natural),
        u32::from(case.joker_deadwood),
    );
    for discard in &analysis.discards {
        let kept: Vec<Item> = case
            .items
            .iter()
            .copied()
            .filter(|&i| spell_item(i) != discard.card.to_string())
            .collect();
        assert_legal_and_least(&kept, &discard.arrangement, checks, least);
    }
    assert_eq!(
        analysis.big_gin,
        case.oracle(&case.items).melds_everything(),
        "{}: big gin",
        case.text()
    );
}

#[test]
fn wild_least_count_and_best_arrangement_match_the_oracle_on_ten_cards() {
    run("10 cards", cases(150), case(10), check_ten);
}

#[test]
fn wild_least_count_matches_the_oracle_on_small_hands() {
    run(
        "3-9 cards",
        cases(150),
        (3usize..=9).prop_flat_map(case),
        check_ten,
    );
}

#[test]
fn every_optimal_wild_arrangement_is_listed_once() {
    run("listing, 10 cards", cases(40), case(10), check_listing);
}

#[test]
fn wild_best_discards_of_eleven_cards_match_the_oracle() {
    run("11 cards", cases(20), case(11), check_eleven);
}

/// A diagnostic, not a property: the differences between the oracle's and the
/// engine's optimal arrangements of one hand, e.g.
/// `WILD_HAND="5H 7H X1 X2 KS" WILD_M=2 WILD_D=15 cargo test -p gin-rules
/// --test properties wild_listing_difference -- --ignored --nocapture`.
#[test]
#[ignore]
fn wild_listing_difference() {
    let text = std::env::var("WILD_HAND").unwrap();
    let m: u8 = std::env::var("WILD_M").unwrap().parse().unwrap();
    let d: u8 = std::env::var("WILD_D").unwrap().parse().unwrap();
    let hand = parse_hand(&text).unwrap();
    let items: Vec<Item> = hand
        .cards()
        .map(|c| match c {
            HandCard::Natural(card) => Item::Natural(from_engine(card)),
            HandCard::Joker(j) => Item::Joker(joker_number(j)),
        })
        .collect();
    let case = Case {
        items,
        min_natural: m,
        joker_deadwood: d,
    };
    let (least, expected) = case.oracle(&case.items).optimal();
    let listed: BTreeSet<Canon> = optimal_arrangements(hand, &case.rules())
        .iter()
        .map(engine_canon)
        .collect();
    println!("least {least}");
    for e in expected.difference(&listed) {
        println!("oracle only: {e:?}");
    }
    for e in listed.difference(&expected) {
        println!("engine only: {e:?}");
    }
}

mod layoffs;
