//! The vector environment's stepping in Rust alone: 4,096 hands of
//! [`HandBatch`] stepped with a random listed id per hand (drawn from the
//! masks the previous step wrote, as a Python loop draws them with NumPy),
//! on one thread and on two, and the same against the `simple` bot (a
//! learner step: the learner's id, then the bot's turns until the learner is
//! to act again). A step's time over 4,096 is the time per hand step; `scripts/python/vector_bench.py` compares the Python loop with it
//! (BENCHMARKS.md, "Many hands at once").

// A benchmark's fixtures are built once up front: a failure there is a bug in
// the benchmark, reported at once.
#![allow(clippy::expect_used)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gin_rules::bots::{BotName, BotSpec};
use gin_rules::selfplay::{ACTION_IDS, HandBatch, Opponent, PLANES, Rows, random_ids};
use gin_rules::{Preset, Profile};

const HANDS: usize = 4096;

/// The arrays a step writes (a Python caller's NumPy arrays).
struct Arrays {
    observation: Vec<i8>,
    reward: Vec<f32>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    mask: Vec<bool>,
    current_player: Vec<i8>,
}

impl Arrays {
    fn new(hands: usize, reward_columns: usize) -> Arrays {
        Arrays {
            observation: vec![0; hands * PLANES],
            reward: vec![0.0; hands * reward_columns],
            terminated: vec![false; hands],
            truncated: vec![false; hands],
            mask: vec![false; hands * ACTION_IDS],
            current_player: vec![0; hands],
        }
    }

    fn rows(&mut self) -> Rows<'_> {
        Rows {
            observation: &mut self.observation,
            reward: &mut self.reward,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            mask: &mut self.mask,
            current_player: &mut self.current_player,
        }
    }
}

fn stepping(c: &mut Criterion) {
    let mut group = c.benchmark_group("selfplay_4096_hands");
    group.throughput(Throughput::Elements(HANDS as u64));
    group.sample_size(30);
    for threads in [1, 2] {
        let profile: Profile = Preset::Standard.profile();
        let mut batch = HandBatch::new(profile, HANDS, 0).expect("batch");
        let mut arrays = Arrays::new(HANDS, 2);
        batch.reset(0, arrays.rows(), threads).expect("reset");
        let mut actions = vec![0i64; HANDS];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        group.bench_function(format!("step_threads_{threads}"), |b| {
            b.iter(|| {
                random_ids(&arrays.mask, &mut actions, &mut state);
                batch.step(&actions, arrays.rows(), threads).expect("step");
            })
        });
    }
    for threads in [1, 2] {
        let profile: Profile = Preset::Standard.profile();
        let opponent = Opponent {
            bot: BotSpec::new(BotName::Simple, 0),
            learner: None,
        };
        let mut batch = HandBatch::against(profile, HANDS, 0, Some(opponent)).expect("batch");
        let mut arrays = Arrays::new(HANDS, batch.reward_columns());
        batch.reset(0, arrays.rows(), threads).expect("reset");
        let mut actions = vec![0i64; HANDS];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        group.bench_function(format!("against_simple_threads_{threads}"), |b| {
            b.iter(|| {
                random_ids(&arrays.mask, &mut actions, &mut state);
                batch.step(&actions, arrays.rows(), threads).expect("step");
            })
        });
    }
    // The draw alone, to take from the figures above: the stepping's own cost.
    let mask = Arrays::new(HANDS, 2)
        .mask
        .iter()
        .enumerate()
        .map(|(i, _)| i % 7 == 0)
        .collect::<Vec<_>>();
    let mut actions = vec![0i64; HANDS];
    let mut state = 1u64;
    group.bench_function("choose_only", |b| {
        b.iter(|| random_ids(&mask, &mut actions, &mut state))
    });
    group.finish();
}

criterion_group!(benches, stepping);
criterion_main!(benches);
