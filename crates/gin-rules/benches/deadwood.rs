//! The deadwood solver's hot path, side by side with the public `gin-rummy` crate
//! on the same hands in the same run.
//!
//! ```text
//! cargo bench -p gin-rules --bench deadwood                      # the benchmarks
//! WORST_CASE_SEARCH=1 cargo bench -p gin-rules --bench deadwood  # search for the slowest hand
//! ```
//!
//! Batches of 1000 hands are generated once from a fixed seed; each batch is
//! measured whole with `Throughput::Elements`, so criterion's "thrpt" reads as
//! hands per second and the time divided by 1000 is the time per hand. Before
//! measuring, both crates must agree on the deadwood of every hand: a second,
//! independent check of the solver.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput};
use gin_rules::{CardSet, JokerRules, analyze_drawn_hand, cards, min_deadwood};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

const SEED: u64 = 0x61E_2026;
const BATCH: usize = 1000;

/// The slowest 10-card hand for gin-referee found by `WORST_CASE_SEARCH` (every
/// 10-card hand from 4 or 5 adjacent ranks, timed; see BENCHMARKS.md): four
/// fours, four fives, and the sixes of diamonds and clubs. Each set has two
/// cards a run could take (4 x 4 = 16 choices of sets), and the best leaves 6
/// while the floor is 0, so the search cannot stop early. Hands with the most
/// choices (20, such as `9S 8H 9H TH 8D 9D TD 8C 9C TC`) reach gin and stop.
const WORST_CASE: &str = "4S 5S 4H 5H 4D 5D 6D 4C 5C 6C";

/// The slowest hand for `gin-rummy` found by the same search: its branch and
/// bound explores many packings of the small sets and short runs here.
const GIN_RUMMY_WORST_CASE: &str = "2S 3S 2H 3H 2D 3D 2C 3C 4C 6C";

/// `gin-rummy` lays a suit's ranks out at bits 1..=13 where we use 0..=12; its
/// suit order differs too (clubs first), which does not matter for deadwood: a
/// suit permutation maps melds to melds and keeps every card's value.
fn to_gin_rummy(hand: CardSet) -> gin_rummy::Hand {
    gin_rummy::Hand::from_bits_retain(hand.bits() << 1)
}

fn random_hands(rng: &mut StdRng, len: usize) -> Vec<CardSet> {
    let deck = CardSet::FULL_DECK.to_vec();
    (0..BATCH)
        .map(|_| CardSet::from_bits(pick(rng, &deck, len)))
        .collect()
}

/// Hands from 3 or 4 adjacent ranks in all suits: sets and runs overlap on
/// nearly every card, the hard case for any search over sets.
fn adversarial_hands(rng: &mut StdRng, len: usize) -> Vec<CardSet> {
    let deck = CardSet::FULL_DECK.to_vec();
    (0..BATCH)
        .map(|_| {
            let width = rng.gen_range(3..=4u8);
            let low = rng.gen_range(1..=14 - width);
            let pool: Vec<_> = deck
                .iter()
                .copied()
                .filter(|c| (low..low + width).contains(&c.rank().number()))
                .collect();
            CardSet::from_bits(pick(rng, &pool, len.min(pool.len())))
        })
        .collect()
}

fn pick(rng: &mut StdRng, pool: &[gin_rules::Card], len: usize) -> u64 {
    pool.choose_multiple(rng, len)
        .fold(CardSet::EMPTY, |set, &card| set.union(card.into()))
        .bits()
}

fn assert_both_crates_agree(hands: &[CardSet]) {
    for &hand in hands {
        assert_eq!(
            min_deadwood(hand, &JokerRules::NONE),
            u32::from(gin_rummy::deadwood(to_gin_rummy(hand))),
            "{hand}"
        );
    }
}

/// The least 10-card deadwood after each of the 11 discards, with `gin-rummy`'s
/// fastest public API (it has no 11-card analysis of its own).
fn gin_rummy_after_best_discard(hand: gin_rummy::Hand) -> u8 {
    let bits = hand.to_bits();
    let mut rest = bits;
    let mut best = u8::MAX;
    while rest != 0 {
        let card = rest & rest.wrapping_neg();
        best = best.min(gin_rummy::deadwood(gin_rummy::Hand::from_bits_retain(
            bits & !card,
        )));
        rest &= rest - 1;
    }
    best
}

fn configure<'a>(
    c: &'a mut Criterion,
    name: &str,
    elements: usize,
) -> BenchmarkGroup<'a, WallTime> {
    let mut group = c.benchmark_group(name);
    group
        .sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Elements(elements as u64));
    group
}

fn ten_card_batch(c: &mut Criterion, name: &str, hands: &[CardSet]) {
    assert_both_crates_agree(hands);
    let theirs: Vec<gin_rummy::Hand> = hands.iter().map(|&h| to_gin_rummy(h)).collect();
    let mut group = configure(c, name, hands.len());
    group.bench_function("gin_referee", |b| {
        b.iter(|| {
            black_box(hands)
                .iter()
                .map(|&h| min_deadwood(black_box(h), &JokerRules::NONE))
                .sum::<u32>()
        })
    });
    group.bench_function("gin_rummy", |b| {
        b.iter(|| {
            black_box(&theirs)
                .iter()
                .map(|&h| u32::from(gin_rummy::deadwood(black_box(h))))
                .sum::<u32>()
        })
    });
    group.finish();
}

fn eleven_card_batch(c: &mut Criterion, name: &str, hands: &[CardSet]) {
    let theirs: Vec<gin_rummy::Hand> = hands.iter().map(|&h| to_gin_rummy(h)).collect();
    for (&hand, &their) in hands.iter().zip(&theirs) {
        assert_eq!(
            analyze_drawn_hand(hand, &JokerRules::NONE).deadwood,
            u32::from(gin_rummy_after_best_discard(their)),
            "{hand}"
        );
    }
    let mut group = configure(c, name, hands.len());
    group.bench_function("gin_referee", |b| {
        b.iter(|| {
            black_box(hands)
                .iter()
                .map(|&h| {
                    analyze_drawn_hand(black_box(h), &JokerRules::NONE)
                        .discards
                        .len()
                })
                .sum::<usize>()
        })
    });
    group.bench_function("gin_rummy", |b| {
        b.iter(|| {
            black_box(&theirs)
                .iter()
                .map(|&h| u32::from(gin_rummy_after_best_discard(black_box(h))))
                .sum::<u32>()
        })
    });
    group.finish();
}

fn deadwood_benches(c: &mut Criterion) {
    let mut rng = StdRng::seed_from_u64(SEED);
    let random = random_hands(&mut rng, 10);
    let adversarial = adversarial_hands(&mut rng, 10);
    let random_11 = random_hands(&mut rng, 11);
    let adversarial_11 = adversarial_hands(&mut rng, 11);

    ten_card_batch(c, "random", &random);
    ten_card_batch(c, "adversarial", &adversarial);

    for (name, text) in [
        ("worst_case", WORST_CASE),
        ("gin_rummy_worst_case", GIN_RUMMY_WORST_CASE),
    ] {
        // The hands are constants above: a typo must stop the benchmark at once.
        #[allow(clippy::expect_used)]
        let ours = cards(text).expect("a valid hand");
        assert_both_crates_agree(&[ours]);
        let theirs = to_gin_rummy(ours);
        let mut group = configure(c, name, 1);
        group.bench_function("gin_referee", |b| {
            b.iter(|| min_deadwood(black_box(ours), &JokerRules::NONE))
        });
        group.bench_function("gin_rummy", |b| {
            b.iter(|| gin_rummy::deadwood(black_box(theirs)))
        });
        group.finish();
    }

    eleven_card_batch(c, "drawn_random", &random_11);
    eleven_card_batch(c, "drawn_adversarial", &adversarial_11);
}

/// Every 10-card hand from 4 or 5 adjacent ranks (about 1.7 million), each timed
/// over a short loop; the slowest 2000 are timed again, keeping the fastest of
/// several long loops so that time lost to other processes does not count.
/// Prints the slowest hands for both crates.
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
    let mut candidates: Vec<CardSet> = Vec::new();
    for width in 4..=5u8 {
        for low in 1..=14 - width {
            let pool: Vec<u64> = deck
                .iter()
                .filter(|c| (low..low + width).contains(&c.rank().number()))
                .map(|&c| CardSet::from(c).bits())
                .collect();
            for subset in 0u32..1 << pool.len() {
                if subset.count_ones() == 10 {
                    let bits = pool
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| subset >> i & 1 == 1)
                        .fold(0, |acc, (_, card)| acc | card);
                    candidates.push(CardSet::from_bits(bits));
                }
            }
        }
    }
    println!("{} candidate hands", candidates.len());
    let report = |label: &str, solve: &dyn Fn(CardSet) -> u32| {
        let mut timed: Vec<(f64, CardSet)> = candidates
            .iter()
            .map(|&h| (best_of(2, 16, &|| solve(black_box(h))), h))
            .collect();
        timed.sort_by(|a, b| b.0.total_cmp(&a.0));
        let median = timed.get(timed.len() / 2).map_or(0.0, |t| t.0);
        let mut slowest: Vec<(f64, CardSet)> = timed
            .iter()
            .take(2000)
            .map(|&(_, h)| (best_of(5, 1000, &|| solve(black_box(h))), h))
            .collect();
        slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
        println!("{label}: median {median:.0} ns/hand over the candidates; slowest:");
        for (ns, hand) in slowest.iter().take(12) {
            println!(
                "  {ns:7.0} ns  {hand}  (deadwood {})",
                min_deadwood(*hand, &JokerRules::NONE)
            );
        }
    };
    report("gin_referee", &|h| min_deadwood(h, &JokerRules::NONE));
    report("gin_rummy", &|h| {
        u32::from(gin_rummy::deadwood(to_gin_rummy(h)))
    });
}

fn main() {
    if std::env::var_os("WORST_CASE_SEARCH").is_some() {
        search_worst_case();
        return;
    }
    let mut criterion = Criterion::default().configure_from_args();
    deadwood_benches(&mut criterion);
    criterion.final_summary();
}
