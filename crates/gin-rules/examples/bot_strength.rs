//! Strength of the bots: whole `eaai` matches in mirrored pairs.
//!
//! ```text
//! cargo run --release -p gin-rules --example bot_strength -- \
//!     [--pairs 2000] [--bot strong] [--against simple] [--samples N] [--seed 1]
//! ```
//!
//! Each pair plays two matches dealt from the same seeds with the seats
//! swapped (common random numbers, so that the luck of the deal cancels).
//! A match is the EAAI-2021 challenge's game: hands to 100 points, gin 25,
//! undercut 25 (equal deadwood an undercut), no big gin, knock limit 10, no
//! box, game or shutout bonus; the deal passes after a scored hand and a
//! dead hand (the stock down to two cards) is dealt again by the same
//! dealer: the `eaai` preset, whose `next_dealer` (`alternate_after_scored`)
//! this loop follows as the match audit does. A hand that passes 1,000
//! decisions counts as dead (reported as stalled).
//!
//! The report: games won by `--bot` with a 95% confidence interval
//! clustered by pair (the mean of the pairs' scores, 0, 1/2 or 1, plus or
//! minus 1.96 times their standard deviation with n - 1 over the root of
//! n), the exact two-sided sign test over the pairs one bot swept, points
//! per hand, and time per decision of each bot. One core; not run by CI.

use std::error::Error;
use std::time::{Duration, Instant};

use gin_rules::bots::strength::{clustered_ci, sign_test};
use gin_rules::bots::{BotName, BotSpec, Knobs, ScoreContext, SeatView, choose};
use gin_rules::{Card, Deal, HandCard, HandEnd, LiveHand, NextDealer, Preset, Profile, Seat, Side};

const TARGET: u32 = 100;
const DECISIONS_PER_HAND: usize = 1000;

struct Args {
    pairs: u64,
    bot: BotSpec,
    against: BotSpec,
    seed: u64,
}

fn args() -> Result<Args, Box<dyn Error>> {
    let mut args = Args {
        pairs: 2000,
        bot: BotSpec::new(BotName::Strong, 0),
        against: BotSpec::new(BotName::Simple, 0),
        seed: 1,
    };
    let mut words = std::env::args().skip(1);
    while let Some(flag) = words.next() {
        let value = words.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--pairs" => args.pairs = value.parse()?,
            "--bot" => args.bot.name = value.parse()?,
            "--against" => args.against.name = value.parse()?,
            "--samples" => {
                args.bot.knobs = Knobs {
                    samples: Some(value.parse()?),
                }
            }
            "--seed" => args.seed = value.parse()?,
            other => return Err(format!("unknown flag {other}").into()),
        }
    }
    args.bot.validate()?;
    Ok(args)
}

fn eaai() -> Result<Profile, Box<dyn Error>> {
    let profile = Preset::Eaai.profile();
    if profile.target() != TARGET || profile.next_dealer() != NextDealer::AlternateAfterScored {
        return Err("the eaai preset is not the challenge's game".into());
    }
    Ok(profile)
}

/// SplitMix64, for the deals.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The `index`th deal of a pair, shuffled from its seed.
fn deal(seed: u64, index: u64) -> Deal {
    let mut deck: Vec<HandCard> = Card::deck().map(HandCard::from).collect();
    let mut state = mix(seed ^ mix(index));
    for last in (1..deck.len()).rev() {
        state = mix(state);
        let pick = usize::try_from((u128::from(state) * (last as u128 + 1)) >> 64).unwrap_or(0);
        deck.swap(last, pick);
    }
    let mut cards = deck.into_iter();
    let dealer = cards.by_ref().take(10).collect();
    let non_dealer = cards.by_ref().take(10).collect();
    let upcard = cards
        .next()
        .unwrap_or(HandCard::Joker(gin_rules::Joker::X1));
    Deal {
        dealer,
        non_dealer,
        upcard,
        stock: cards.collect(),
    }
}

#[derive(Default)]
struct Tally {
    /// Games won by `--bot`, per pair: 0, 1 or 2.
    pair_wins: Vec<u8>,
    hands: u64,
    points: [u64; 2],
    dead: u64,
    stalled: u64,
    decisions: [u64; 2],
    time: [Duration; 2],
    samples: [Vec<Duration>; 2],
    /// Per bot: knocks, gins, knocks undercut.
    knocks: [[u64; 3]; 2],
}

/// Plays `hand` out (at most `DECISIONS_PER_HAND` decisions), `seats` the
/// players of the dealer and the non-dealer; answers whether it ended.
fn play_hand(
    hand: &mut LiveHand,
    bots: [BotSpec; 2],
    seats: [usize; 2],
    totals: [u32; 2],
    tally: &mut Tally,
) -> Result<bool, Box<dyn Error>> {
    for _ in 0..DECISIONS_PER_HAND {
        let Some(seat) = hand.now().1 else {
            return Ok(true);
        };
        let player = match seat {
            Seat::Dealer => seats[0],
            Seat::NonDealer => seats[1],
        };
        let own = totals.get(player).copied().unwrap_or(0);
        let opponent = totals.get(1 - player).copied().unwrap_or(0);
        let started = Instant::now();
        let view = SeatView::of_live(hand, seat)?.with_score(ScoreContext {
            own,
            opponent,
            target: TARGET,
        });
        let bot = bots.get(player).ok_or("no bot")?;
        let choice = choose(bot, &view)?;
        let spent = started.elapsed();
        if let (Some(time), Some(count), Some(samples)) = (
            tally.time.get_mut(player),
            tally.decisions.get_mut(player),
            tally.samples.get_mut(player),
        ) {
            *time += spent;
            *count += 1;
            samples.push(spent);
        }
        let action = view.legal_actions().get(choice).ok_or("no such action")?;
        hand.apply(action.action.clone())?;
    }
    Ok(hand.now().1.is_none())
}

/// Plays one match; `bots[0]` is `--bot`. Answers whether it won.
fn play_match(
    profile: &Profile,
    bots: [BotSpec; 2],
    seed: u64,
    first_dealer: usize,
    tally: &mut Tally,
) -> Result<bool, Box<dyn Error>> {
    let mut totals = [0u32; 2];
    let mut dealer = first_dealer;
    for index in 0.. {
        let mut hand = LiveHand::new(profile.clone(), deal(seed, index))?;
        let player_of = |seat: Seat| match seat {
            Seat::Dealer => dealer,
            Seat::NonDealer => 1 - dealer,
        };
        let seats = [player_of(Seat::Dealer), player_of(Seat::NonDealer)];
        let finished = play_hand(&mut hand, bots, seats, totals, tally)?;
        tally.hands += 1;
        match hand.end() {
            Some(HandEnd::Scored(scored)) if finished => {
                let settlement = &scored.score.settlement;
                let knocker = player_of(scored.knocker);
                if let Some(row) = tally.knocks.get_mut(knocker) {
                    row[0] += 1;
                    match settlement.outcome {
                        gin_rules::Outcome::Gin | gin_rules::Outcome::BigGin => row[1] += 1,
                        gin_rules::Outcome::Undercut => row[2] += 1,
                        _ => {}
                    }
                }
                let winner = match settlement.winner {
                    Side::Knocker => knocker,
                    Side::Defender => 1 - knocker,
                };
                if let (Some(total), Some(points)) =
                    (totals.get_mut(winner), tally.points.get_mut(winner))
                {
                    *total += settlement.points;
                    *points += u64::from(settlement.points);
                }
                if settlement.points > 0 {
                    dealer = 1 - dealer;
                }
            }
            _ if !finished => tally.stalled += 1,
            _ => tally.dead += 1,
        }
        if let Some(winner) = totals.iter().position(|&total| total >= TARGET) {
            return Ok(winner == 0);
        }
    }
    Ok(false)
}

fn main() -> Result<(), Box<dyn Error>> {
    let args = args()?;
    let profile = eaai()?;
    let mut tally = Tally::default();
    let started = Instant::now();
    for pair in 0..args.pairs {
        let seed = mix(args.seed ^ mix(pair));
        let mut wins = 0u8;
        for leg in 0..2u64 {
            let bot = BotSpec {
                seed: mix(seed ^ leg),
                ..args.bot
            };
            let against = BotSpec {
                seed: mix(seed ^ leg ^ 0xff),
                ..args.against
            };
            // Leg 0: `--bot` deals first; leg 1: the other does, same deals.
            let first_dealer = usize::try_from(leg).unwrap_or(0);
            if play_match(&profile, [bot, against], seed, first_dealer, &mut tally)? {
                wins += 1;
            }
        }
        tally.pair_wins.push(wins);
    }
    report(&args, &tally, started.elapsed());
    Ok(())
}

fn report(args: &Args, tally: &Tally, elapsed: Duration) {
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
    println!(
        "| {} (samples {}) vs {} | {} pairs | {:.1}% ({:.1}-{:.1}%) | {swept} swept, {lost} lost, p = {p} | {:.2} vs {:.2} points/hand | {} hands, {} dead, {} stalled | {:.0} s |",
        args.bot.name.name(),
        args.bot.samples(),
        args.against.name.name(),
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
    for (index, name) in [args.bot.name, args.against.name].iter().enumerate() {
        let mut samples = tally.samples.get(index).cloned().unwrap_or_default();
        samples.sort();
        let at = |q: f64| {
            let i = ((samples.len() as f64 - 1.0) * q).round() as usize;
            samples.get(i).copied().unwrap_or_default()
        };
        let [knocks, gins, undercut] = tally.knocks.get(index).copied().unwrap_or_default();
        println!(
            "{}: {knocks} knocks, {gins} gins, {undercut} undercut; {} decisions, median {:?}, p99 {:?}, max {:?}",
            name.name(),
            samples.len(),
            at(0.5),
            at(0.99),
            at(1.0)
        );
    }
}
