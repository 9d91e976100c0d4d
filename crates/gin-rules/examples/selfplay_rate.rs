#![allow(clippy::expect_used, missing_docs)]
use gin_rules::Preset;
use gin_rules::selfplay::{ACTION_IDS, HandBatch, PLANES, Rows, random_ids};
fn cpu() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("stat");
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .expect("f")
        .split_whitespace()
        .collect();
    let t: f64 = fields[11].parse::<f64>().expect("u") + fields[12].parse::<f64>().expect("s");
    t / 100.0
}
fn main() {
    let threads: usize = std::env::args().nth(1).map_or(1, |a| a.parse().expect("n"));
    let hands = 4096;
    let mut batch = HandBatch::new(Preset::Standard.profile(), hands, 0).expect("b");
    let (mut o, mut r, mut te, mut tr, mut m, mut c) = (
        vec![0i8; hands * PLANES],
        vec![0f32; hands * 2],
        vec![false; hands],
        vec![false; hands],
        vec![false; hands * ACTION_IDS],
        vec![0i8; hands],
    );
    batch
        .reset(
            0,
            Rows {
                observation: &mut o,
                reward: &mut r,
                terminated: &mut te,
                truncated: &mut tr,
                mask: &mut m,
                current_player: &mut c,
            },
            threads,
        )
        .expect("r");
    let mut actions = vec![0i64; hands];
    let mut state = 7u64;
    let (w, c0) = (std::time::Instant::now(), cpu());
    let mut steps = 0;
    while w.elapsed().as_secs_f64() < 5.0 {
        let mask: Vec<bool> = m.clone();
        random_ids(&mask, &mut actions, &mut state);
        batch
            .step(
                &actions,
                Rows {
                    observation: &mut o,
                    reward: &mut r,
                    terminated: &mut te,
                    truncated: &mut tr,
                    mask: &mut m,
                    current_player: &mut c,
                },
                threads,
            )
            .expect("s");
        steps += hands;
    }
    let (wall, cpus) = (w.elapsed().as_secs_f64(), cpu() - c0);
    println!(
        "threads {threads}: {:.0} steps/s wall, {:.0} steps/CPU-s, {:.2} us CPU/step",
        steps as f64 / wall,
        steps as f64 / cpus,
        cpus * 1e6 / steps as f64
    );
}
