//! The tally of a run and its report (the same statistics as the rules
//! crate's bot_strength example).

use std::time::Duration;

use gin_rules::bots::strength::{clustered_ci, sign_test};
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
    let scores: Vec<f64> = tally
        .pair_wins
        .iter()
        .map(|&w| f64::from(w) / 2.0)
        .collect();
    let (mean, ci) = clustered_ci(&scores);
    let mean = mean.unwrap_or(0.0);
    let [low, high] = ci.unwrap_or([mean, mean]);
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
        "| {}{} vs {against} | {} pairs | {:.1}% ({:.1}-{:.1}%) | {swept} swept, {lost} lost, p = {p} | {:.2} vs {:.2} points/hand | {} hands, {} dead, {} stalled | {:.0} s |",
        args.bot.name.name(),
        match args.bot.name {
            gin_rules::bots::BotName::Strong => format!(" (samples {})", args.bot.samples()),
            _ => String::new(),
        },
        tally.pair_wins.len(),
        100.0 * mean,
        100.0 * low,
        100.0 * high,
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
