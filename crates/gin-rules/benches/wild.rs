//! The wild-card (joker) solver's least count on 10-card hands with two
//! jokers, beside the joker-free solver on 10-card hands in the same run.
//!
//! ```text
//! cargo bench -p gin-rules --bench wild                           # the benchmarks
//! WILD_WORST_CASE_SEARCH=1 cargo bench -p gin-rules --bench wild  # search for the slowest hand
//! ```
//!
//! Batches of 1000 hands are generated once from a fixed seed and measured
//! whole (`Throughput::Elements`): the time divided by 1000 is the time per
//! hand. Goals: 100 ns per random hand, 1 us for the slowest.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use gin_rules::{Card, CardSet, Hand, Joker, JokerRules, min_deadwood};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

const SEED: u64 = 0x61E_2026;
const BATCH: usize = 1000;

/// The slowest 10-card hand with two jokers `WILD_WORST_CASE_SEARCH` found
/// for the footprint search under the `jokers` preset's rules (see the
/// search below): three ranks in three suits, nearly every card in a natural
/// meld and in several footprints, and a best count (7) above 0, so no early
/// stop. Kept as the row's hand so figures compare across versions; for the
/// lane tables (`src/deadwood/jokers/lanes.rs`) it is one of the dense hands with two
/// ranks of three, the slowest kind (about 36 combinations of set shapes).
const WORST_CASE: &str = "7H 9H TH 7D TD 7C 8C TC X1 X2";

/// The slowest found for the footprint search under `joker_min_natural` 1
/// (the loosest rule: a natural and two jokers meld), kept likewise.
const WORST_CASE_MIN_NATURAL_1: &str = "9S TS JS JH 8D 9D 9C JC X1 X2";

/// The slowest hands `WILD_WORST_CASE_SEARCH` finds for the lane tables
/// (dense hands with two ranks of three naturals, about 1.2 us each in the
/// search's own loop, 2026-11-23), one per rule set, timed by criterion here.
const LANE_WORST: [(&str, &str); 2] = [
    ("jokers", "JS QS TH QH JD KD JC QC X1 X2"),
    ("min_natural_1", "6S 8S TS 6H 7H 8H 6D 8D X1 X2"),
];

fn pick(rng: &mut StdRng, pool: &[Card], len: usize) -> CardSet {
    pool.choose_multiple(rng, len)
        .fold(CardSet::EMPTY, |set, &card| set.union(card.into()))
}

fn with_jokers(naturals: CardSet) -> Hand {
    Hand::new(naturals, &Joker::ALL)
}

/// Eight random naturals and both jokers.
fn random_hands(rng: &mut StdRng) -> Vec<Hand> {
    let deck = CardSet::FULL_DECK.to_vec();
    (0..BATCH)
        .map(|_| with_jokers(pick(rng, &deck, 8)))
        .collect()
}

/// Eight naturals from 3 or 4 adjacent ranks, or from one or two suits, and
/// both jokers: sets, runs and footprints overlap on nearly every card.
fn adversarial_hands(rng: &mut StdRng) -> Vec<Hand> {
    let deck = CardSet::FULL_DECK.to_vec();
    (0..BATCH)
        .map(|_| {
            let pool: Vec<Card> = if rng.gen_bool(0.5) {
                let width = rng.gen_range(3..=4u8);
                let low = rng.gen_range(1..=14 - width);
                deck.iter()
                    .copied()
                    .filter(|c| (low..low + width).contains(&c.rank().number()))
                    .collect()
            } else {
                let suits = rng.gen_range(1..=2usize);
                let chosen: Vec<gin_rules::Suit> = gin_rules::Suit::ALL
                    .choose_multiple(rng, suits)
                    .copied()
                    .collect();
                deck.iter()
                    .copied()
                    .filter(|c| chosen.contains(&c.suit()))
                    .collect()
            };
            with_jokers(pick(rng, &pool, 8))
        })
        .collect()
}

fn configure<'a>(
    c: &'a mut Criterion,
    name: &str,
    elements: usize,
) -> criterion::BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut group = c.benchmark_group(name);
    group
        .sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Elements(elements as u64));
    group
}

fn wild_benches(c: &mut Criterion) {
    let mut rng = StdRng::seed_from_u64(SEED);
    let random = random_hands(&mut rng);
    let adversarial = adversarial_hands(&mut rng);
    let deck = CardSet::FULL_DECK.to_vec();
    let joker_free: Vec<CardSet> = (0..BATCH).map(|_| pick(&mut rng, &deck, 10)).collect();
    let presets = [
        ("jokers", JokerRules::TWO_JOKERS),
        (
            "min_natural_1",
            JokerRules::new(2, 25, 1).unwrap_or_default(),
        ),
    ];

    let mut group = configure(c, "joker_free_random", BATCH);
    group.bench_function("min_deadwood", |b| {
        b.iter(|| {
            black_box(&joker_free)
                .iter()
                .map(|&h| min_deadwood(black_box(h), &JokerRules::NONE))
                .sum::<u32>()
        })
    });
    group.finish();

    for (batch_name, hands) in [("wild_random", &random), ("wild_adversarial", &adversarial)] {
        let mut group = configure(c, batch_name, BATCH);
        for (rules_name, rules) in presets {
            group.bench_function(rules_name, |b| {
                b.iter(|| {
                    black_box(hands)
                        .iter()
                        .map(|&h| min_deadwood(black_box(h), &rules))
                        .sum::<u32>()
                })
            });
        }
        group.finish();
    }

    let mut group = configure(c, "wild_worst_case", 1);
    for ((rules_name, rules), text) in presets
        .into_iter()
        .zip([WORST_CASE, WORST_CASE_MIN_NATURAL_1])
    {
        // The hands are constants above: a typo must stop the benchmark at once.
        #[allow(clippy::expect_used)]
        let worst = gin_rules::parse_hand(text).expect("a valid hand");
        group.bench_function(rules_name, |b| {
            b.iter(|| min_deadwood(black_box(worst), &rules))
        });
    }
    for ((rules_name, rules), (name, text)) in presets.into_iter().zip(LANE_WORST) {
        debug_assert_eq!(rules_name, name);
        // The hands are constants above: a typo must stop the benchmark at once.
        #[allow(clippy::expect_used)]
        let worst = gin_rules::parse_hand(text).expect("a valid hand");
        group.bench_function(format!("lane_{rules_name}"), |b| {
            b.iter(|| min_deadwood(black_box(worst), &rules))
        });
    }
    group.finish();
}

/// Times dense families of 8 naturals with both jokers: every 8 of 3 to 5
/// adjacent ranks in all suits, every 8 of one suit, and random 8 of two
/// suits, under joker_min_natural 1, 2 and 3; the slowest 2000 are timed
/// again (best of several long loops) and the slowest printed.
fn search_worst_case() {
    fn time_per_call(reps: u32, f: &dyn Fn() -> u32) -> f64 {
        let start = Instant::now();
        let mut sink = 0u32;
        for _ in 0..reps {
            sink = sink.wrapping_add(f());
        }
        black_box(sink);
        start.elapsed().as_nanos() as f64 / f64::from(reps)
    }
    fn best_of(rounds: u32, reps: u32, f: &dyn Fn() -> u32) -> f64 {
        (0..rounds)
            .map(|_| time_per_call(reps, f))
            .fold(f64::INFINITY, f64::min)
    }
    let deck = CardSet::FULL_DECK.to_vec();
    let subsets_of_eight = |pool: &[Card], out: &mut Vec<CardSet>| {
        for subset in 0u32..1 << pool.len() {
            if subset.count_ones() == 8 {
                let set = pool
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| subset >> i & 1 == 1)
                    .fold(CardSet::EMPTY, |acc, (_, &c)| acc.union(c.into()));
                out.push(set);
            }
        }
    };
    let mut candidates: Vec<CardSet> = Vec::new();
    for width in 3..=5u8 {
        for low in 1..=14 - width {
            let pool: Vec<Card> = deck
                .iter()
                .copied()
                .filter(|c| (low..low + width).contains(&c.rank().number()))
                .collect();
            subsets_of_eight(&pool, &mut candidates);
        }
    }
    let hearts: Vec<Card> = deck
        .iter()
        .copied()
        .filter(|c| c.suit() == gin_rules::Suit::Hearts)
        .collect();
    subsets_of_eight(&hearts, &mut candidates);
    let mut rng = StdRng::seed_from_u64(SEED);
    let two_suits: Vec<Card> = deck
        .iter()
        .copied()
        .filter(|c| c.suit() <= gin_rules::Suit::Hearts)
        .collect();
    for _ in 0..100_000 {
        candidates.push(pick(&mut rng, &two_suits, 8));
    }
    println!("{} candidate naturals, each with X1 X2", candidates.len());
    for min_natural in 1..=3u8 {
        let Ok(rules) = JokerRules::new(2, 15, min_natural) else {
            continue;
        };
        let mut timed: Vec<(f64, CardSet)> = candidates
            .iter()
            .map(|&h| {
                let hand = with_jokers(h);
                (best_of(2, 8, &|| min_deadwood(black_box(hand), &rules)), h)
            })
            .collect();
        timed.sort_by(|a, b| b.0.total_cmp(&a.0));
        let median = timed.get(timed.len() / 2).map_or(0.0, |t| t.0);
        let mut slowest: Vec<(f64, CardSet)> = timed
            .iter()
            .take(2000)
            .map(|&(_, h)| {
                let hand = with_jokers(h);
                (
                    best_of(5, 500, &|| min_deadwood(black_box(hand), &rules)),
                    h,
                )
            })
            .collect();
        slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
        println!("min natural {min_natural}: median {median:.0} ns/hand; slowest:");
        for (ns, hand) in slowest.iter().take(8) {
            println!(
                "  {ns:7.0} ns  {hand} X1 X2  (deadwood {})",
                min_deadwood(with_jokers(*hand), &rules)
            );
        }
    }
}

fn main() {
    if std::env::var_os("WILD_WORST_CASE_SEARCH").is_some() {
        search_worst_case();
        return;
    }
    let mut criterion = Criterion::default().configure_from_args();
    wild_benches(&mut criterion);
    criterion.final_summary();
}
