//! The per-line cost of the bulk analyse endpoint, and its floor: the same
//! lines read and the same answers written with no solving, so that
//! `floor / full` says how close to its limit the line path is.

// A benchmark's fixtures are built once up front: a failure there is a bug in
// the benchmark, reported at once.
#![allow(clippy::expect_used)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gin_contract::answers::hands::{AnalyzeLines, AnalyzeResponse, analysis, read_analyze_line};
use gin_contract::lines::{LineAnswer, Tally, answer_line};
use gin_referee::http::problem::Problem;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

fn lines(count: usize) -> Vec<Vec<u8>> {
    let deck: Vec<String> = "A23456789TJQK"
        .chars()
        .flat_map(|r| "SHDC".chars().map(move |s| format!("{r}{s}")))
        .collect();
    let mut rng = StdRng::seed_from_u64(7);
    (0..count)
        .map(|_| {
            let hand: Vec<&String> = deck.choose_multiple(&mut rng, 10).collect();
            serde_json::to_vec(&serde_json::json!({ "hand": hand })).expect("json")
        })
        .collect()
}

/// The floor's line: read as the endpoint reads it, answered by a copy of the
/// answer computed beforehand, written as the endpoint writes it.
struct Floor<'a>(&'a AnalyzeResponse);

impl LineAnswer for Floor<'_> {
    type Answer = AnalyzeResponse;

    fn answer(&self, line: &[u8]) -> Result<AnalyzeResponse, Problem> {
        read_analyze_line(line).map(|_| self.0.clone())
    }

    fn write(&self, answer: &AnalyzeResponse, out: &mut Vec<u8>) -> serde_json::Result<()> {
        AnalyzeLines.write(answer, out)
    }
}

/// Answers every line into `out` as the endpoint does, line `n` by
/// `answerer(n)`.
fn answer_all<A: LineAnswer>(
    lines: &[Vec<u8>],
    answerer: impl Fn(usize) -> A,
    scratch: &mut Vec<u8>,
    out: &mut Vec<u8>,
) -> Tally {
    out.clear();
    let mut tally = Tally::default();
    for (n, line) in lines.iter().enumerate() {
        answer_line(&answerer(n), n as u64 + 1, line, scratch, out, &mut tally);
    }
    tally
}

fn bench(c: &mut Criterion) {
    let lines = lines(1000);
    let answers: Vec<_> = lines
        .iter()
        .map(|l| analysis(read_analyze_line(l).expect("a request")).expect("an analysis"))
        .collect();
    let mut group = c.benchmark_group("batch_line");
    group.throughput(Throughput::Elements(lines.len() as u64));
    let (mut out, mut scratch) = (Vec::with_capacity(1 << 20), Vec::new());
    group.bench_function("analyze", |b| {
        b.iter(|| answer_all(&lines, |_| AnalyzeLines, &mut scratch, &mut out))
    });
    // The floor: the same reading and writing, the answer looked up instead
    // of solved.
    group.bench_function("floor_no_solving", |b| {
        b.iter(|| {
            let floor = |n: usize| Floor(answers.get(n).expect("one answer per line"));
            answer_all(&lines, floor, &mut scratch, &mut out)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
