//! The tally of a run and its report (the same statistics as the rules
//! crate's bot_strength example).

use std::time::Duration;

use gin_rummy_engine::gin_rummy::{Player, RoundResult};

use crate::Args;
use crate::adapter::Adapter;

#[derive(Default)]
pub struct Tally {
    /// Games won by `--bot`, per pair: 0, 1 or 2.
    pub pair_wins: Vec<u8>,
    pub hands: u64,
    /// Points scored, ours first.
    pub points: [u64; 2],
    pub dead: u64,
    pub stalled: u64,
    /// Per player (ours first): hands won by knock, gin, undercut.
    pub wins: [[u64; 3]; 2],
    pub our_time: Vec<Duration>,
    pub their_time: Vec<Duration>,
    pub faults: u64,
    pub first_faults: Vec<String>,
}

impl Tally {
    pub fn count(&mut self, winner: Player, result: RoundResult) {
        let kind = match result {
            RoundResult::Gin { .. } | RoundResult::BigGin { .. } => 1,
            RoundResult::Undercut { .. } => 2,
            _ => 0,
        };
        if let Some(cell) = self
            .wins
            .get_mut(winner as usize)
            .and_then(|row| row.get_mut(kind))
        {
            *cell += 1;
        }
    }

    pub fn absorb(&mut self, adapter: &mut Adapter) {
        self.our_time.append(&mut adapter.times);
        self.faults += adapter.faults;
        for fault in adapter.first_faults.drain(..) {
            if self.first_faults.len() < 5 {
                self.first_faults.push(fault);
            }
        }
    }
}

fn quantiles(samples: &mut [Duration]) -> String {
    samples.sort();
    let at = |q: f64| {
        let i = ((samples.len() as f64 - 1.0) * q).round() as usize;
        samples.get(i).copied().unwrap_or_default()
    };
    format!(
        "{} decisions, median {:?}, p99 {:?}, max {:?}",
        samples.len(),
        at(0.5),
        at(0.99),
        at(1.0)
    )
}

pub fn report(args: &Args, tally: &Tally, elapsed: Duration) {
    let n = tally.pair_wins.len() as f64;
    let scores: Vec<f64> = tally
        .pair_wins
        .iter()
        .map(|&w| f64::from(w) / 2.0)
        .collect();
    let mean = scores.iter().sum::<f64>() / n.max(1.0);
    let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let half = 1.96 * var.sqrt() / n.max(1.0).sqrt();
    let swept = tally.pair_wins.iter().filter(|&&w| w == 2).count() as u64;
    let lost = tally.pair_wins.iter().filter(|&&w| w == 0).count() as u64;
    let p = sign_test(swept, lost);
    let hands = tally.hands.max(1) as f64;
    let against = match args.against.as_str() {
        "mc" => format!("MonteCarloBot mc:{}", args.mc_samples),
        "heuristic" => "HeuristicBot".into(),
        _ => "EaaiSimpleBot".into(),
    };
    println!(
        "| {}{} vs {against} | {} pairs | {:.1}% ({:.1}-{:.1}%) | {swept} swept, {lost} lost, p = {p:.2e} | {:.2} vs {:.2} points/hand | {} hands, {} dead, {} stalled | {:.0} s |",
        args.bot.name.name(),
        match args.bot.name {
            gin_rules::bots::BotName::Strong => format!(" (samples {})", args.bot.samples()),
            _ => String::new(),
        },
        tally.pair_wins.len(),
        100.0 * mean,
        100.0 * (mean - half),
        100.0 * (mean + half),
        tally.points[0] as f64 / hands,
        tally.points[1] as f64 / hands,
        tally.hands,
        tally.dead,
        tally.stalled,
        elapsed.as_secs_f64(),
    );
    for (index, name) in [args.bot.name.name(), against.as_str()].iter().enumerate() {
        let [knocks, gins, undercuts] = tally.wins.get(index).copied().unwrap_or_default();
        println!("{name}: hands won: {knocks} by knock, {gins} by gin, {undercuts} by undercut");
    }
    println!(
        "{}: {}",
        args.bot.name.name(),
        quantiles(&mut tally.our_time.clone())
    );
    println!(
        "{against}: {} (the table's steps)",
        quantiles(&mut tally.their_time.clone())
    );
    println!(
        "adapter faults: {} hands (played out by HeuristicBot){}",
        tally.faults,
        tally
            .first_faults
            .iter()
            .map(|fault| format!("\n  {fault}"))
            .collect::<String>()
    );
}

/// The exact two-sided sign test: the chance, with a fair coin, of a split
/// at least as uneven as `a` against `b`.
pub fn sign_test(a: u64, b: u64) -> f64 {
    let n = a + b;
    if n == 0 {
        return 1.0;
    }
    let k = a.min(b);
    let ln_half_n = n as f64 * 0.5f64.ln();
    let mut ln_choose = 0.0f64;
    let mut tail = 0.0f64;
    for i in 0..=k {
        if i > 0 {
            ln_choose += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        tail += (ln_choose + ln_half_n).exp();
    }
    (2.0 * tail).min(1.0)
}
