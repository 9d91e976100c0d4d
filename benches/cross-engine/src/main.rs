//! Cross-engine strength: our bots against gin-rummy-engine 0.3.1's, in
//! whole EAAI games on the engine's own table.
//!
//! ```text
//! cd benches/cross-engine
//! nice -n 19 cargo run --release -- --bot simple --against eaai [--pairs 1000]
//!     [--seconds 1800] [--samples N] [--mc-samples 512] [--seed 1]
//! ```
//!
//! `--against`: `eaai` (its `EaaiSimpleBot`), `heuristic` (its
//! `HeuristicBot`), `mc` (its `MonteCarloBot`, `--mc-samples` worlds per
//! decision, 512 by default: its `mc:512`). Our `--bot` plays through the
//! adapter (src/adapter.rs) as the engine's `Strategy`, on the engine's
//! `Table` under its `eaai_rules()`: to 100, gin 25, undercut 25 (equal
//! deadwood an undercut), no big gin, box, game or shutout bonus. The
//! engine's `play_game` gives the deal to a hand's winner, so this loop
//! keeps the match itself as the challenge did: the deal passes after a
//! scored hand, a dead hand is dealt again by the same dealer (the table is
//! told so, `AlternateAfterScoredRound`, for the engine's score-aware bots).
//!
//! Each pair plays two games from the same deals with the seats swapped.
//! The report: games won by `--bot`, 95% CI clustered by pair (mean of the
//! pair scores, 0, 1/2 or 1, +- 1.96 sd(n-1)/sqrt(n)), the exact two-sided
//! sign test over the pairs one bot swept, points per hand, time per
//! decision, and the hands in which the adapter could not follow the table
//! (played out by the engine's `HeuristicBot` for our seat; 0 expected).
//! Pairs stop at `--pairs` or when `--seconds` have passed.

mod adapter;
mod cards;
mod replay;
mod stats;

use std::error::Error;
use std::sync::Arc;
use std::time::{Duration, Instant};

use gin_rules::bots::{BotName, BotSpec, Knobs, ScoreContext};
use gin_rules::{Card, Preset};
use gin_rummy_engine::gin_rummy::{Card as TheirCard, Hand, Player, Round, RoundResult};
use gin_rummy_engine::{
    DealerRotation, EaaiSimpleBot, HeuristicBot, MonteCarloBot, Strategy, Table, eaai_rules,
};
use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::adapter::Adapter;
use crate::cards::Cards;
use crate::stats::{Tally, report};

const TARGET: u16 = 100;
const STEPS_PER_HAND: usize = 2000;

pub struct Args {
    pub pairs: u64,
    pub seconds: u64,
    pub bot: BotSpec,
    pub against: String,
    pub mc_samples: u32,
    pub seed: u64,
}

fn args() -> Result<Args, Box<dyn Error>> {
    let mut args = Args {
        pairs: 1000,
        seconds: 3600,
        bot: BotSpec::new(BotName::Strong, 0),
        against: "eaai".into(),
        mc_samples: 512,
        seed: 1,
    };
    let mut words = std::env::args().skip(1);
    while let Some(flag) = words.next() {
        let value = words.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--pairs" => args.pairs = value.parse()?,
            "--seconds" => args.seconds = value.parse()?,
            "--bot" => args.bot.name = value.parse()?,
            "--against" => args.against = value,
            "--samples" => {
                args.bot.knobs = Knobs {
                    samples: Some(value.parse()?),
                }
            }
            "--mc-samples" => args.mc_samples = value.parse()?,
            "--seed" => args.seed = value.parse()?,
            other => return Err(format!("unknown flag {other}").into()),
        }
    }
    args.bot.validate()?;
    if !["eaai", "heuristic", "mc"].contains(&args.against.as_str()) {
        return Err("--against is eaai, heuristic or mc".into());
    }
    Ok(args)
}

/// SplitMix64, for the deals and the seeds.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The `index`th deal of a game: the dealer's ten, the non-dealer's ten,
/// the upcard, the stock (its first card drawn first).
fn deal(
    cards: &Cards,
    seed: u64,
    index: u64,
) -> Result<(Hand, Hand, TheirCard, Vec<TheirCard>), String> {
    let mut deck: Vec<Card> = Card::deck().collect();
    let mut state = mix(seed ^ mix(index));
    for last in (1..deck.len()).rev() {
        state = mix(state);
        let pick = usize::try_from((u128::from(state) * (last as u128 + 1)) >> 64).unwrap_or(0);
        deck.swap(last, pick);
    }
    let deck: Vec<TheirCard> = deck
        .into_iter()
        .map(|card| cards.theirs(card.into()))
        .collect::<Result<_, _>>()?;
    let hand = |cards: &[TheirCard]| {
        cards
            .iter()
            .fold(Hand::EMPTY, |hand, &card| hand | card.into())
    };
    let dealer = hand(deck.get(..10).ok_or("short deck")?);
    let non_dealer = hand(deck.get(10..20).ok_or("short deck")?);
    let upcard = *deck.get(20).ok_or("short deck")?;
    // The engine draws the stock's last card first.
    let stock = deck
        .get(21..)
        .ok_or("short deck")?
        .iter()
        .rev()
        .copied()
        .collect();
    Ok((dealer, non_dealer, upcard, stock))
}

fn opponent(args: &Args, seed: u64) -> Box<dyn Strategy> {
    let rng = StdRng::seed_from_u64(seed);
    match args.against.as_str() {
        "heuristic" => Box::new(HeuristicBot::new()),
        "mc" => Box::new(MonteCarloBot::new(rng).samples(args.mc_samples)),
        _ => Box::new(EaaiSimpleBot::new(rng)),
    }
}

/// Plays one hand on the engine's table; `None` if it stalled.
fn play_hand(
    table: &mut Table,
    ours: &mut Adapter,
    theirs: &mut dyn Strategy,
    tally: &mut Tally,
) -> Result<Option<RoundResult>, Box<dyn Error>> {
    for _ in 0..STEPS_PER_HAND {
        let Some(player) = table.turn() else {
            return Ok(table.round().result());
        };
        let result = if player == Player::One {
            table.step(ours)?
        } else {
            let started = Instant::now();
            let result = table.step(theirs)?;
            tally.their_time.push(started.elapsed());
            result
        };
        if result.is_some() {
            return Ok(result);
        }
    }
    Ok(None)
}

/// One game; our bot is Player::One. Answers whether it won.
fn play_game(
    args: &Args,
    cards: &Cards,
    ours: &mut Adapter,
    seed: u64,
    first_dealer: Player,
    tally: &mut Tally,
) -> Result<bool, Box<dyn Error>> {
    let rules = eaai_rules();
    let mut theirs = opponent(args, mix(seed ^ 0xff ^ first_dealer as u64));
    let mut totals = [0u16; 2];
    let mut dealer = first_dealer;
    for index in 0.. {
        let (dealt, other, upcard, stock) = deal(cards, seed, index)?;
        let hands = match dealer {
            Player::One => [dealt, other],
            Player::Two => [other, dealt],
        };
        let round = Round::from_deal(rules, dealer, hands, upcard, stock)?;
        let mut table = Table::new(round)
            .scores(totals)
            .dealer_rotation(DealerRotation::AlternateAfterScoredRound);
        ours.new_hand(ScoreContext {
            own: u32::from(totals[0]),
            opponent: u32::from(totals[1]),
            target: u32::from(TARGET),
        });
        let result = play_hand(&mut table, ours, theirs.as_mut(), tally)?;
        tally.hands += 1;
        match result {
            Some(result) => {
                if let Some(winner) = result.winner() {
                    let points = result.points(&rules);
                    let index = winner as usize;
                    if let (Some(total), Some(sum)) =
                        (totals.get_mut(index), tally.points.get_mut(index))
                    {
                        *total += points;
                        *sum += u64::from(points);
                    }
                    tally.count(winner, result);
                    dealer = dealer.opponent();
                } else {
                    tally.dead += 1;
                }
            }
            None => tally.stalled += 1,
        }
        if let Some(winner) = totals.iter().position(|&total| total >= TARGET) {
            return Ok(winner == 0);
        }
    }
    Ok(false)
}

fn main() -> Result<(), Box<dyn Error>> {
    let args = args()?;
    let profile = Arc::new(Preset::Eaai.profile());
    let cards = Cards::new()?;
    let mut tally = Tally::default();
    let started = Instant::now();
    let budget = Duration::from_secs(args.seconds);
    for pair in 0..args.pairs {
        if started.elapsed() >= budget {
            break;
        }
        let seed = mix(args.seed ^ mix(pair));
        let mut wins = 0u8;
        for (leg, first_dealer) in [(0u64, Player::One), (1, Player::Two)] {
            let spec = BotSpec {
                seed: mix(seed ^ leg),
                ..args.bot
            };
            let mut ours = Adapter::new(spec, Arc::clone(&profile))?;
            if play_game(&args, &cards, &mut ours, seed, first_dealer, &mut tally)? {
                wins += 1;
            }
            tally.absorb(&mut ours);
        }
        tally.pair_wins.push(wins);
    }
    report(&args, &tally, started.elapsed());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(bot: BotName, against: &str, pairs: u64) -> Tally {
        let args = Args {
            pairs,
            seconds: 600,
            bot: BotSpec::new(bot, 0),
            against: against.into(),
            mc_samples: 8,
            seed: 7,
        };
        let profile = Arc::new(Preset::Eaai.profile());
        let cards = Cards::new().unwrap();
        let mut tally = Tally::default();
        for pair in 0..pairs {
            for first_dealer in [Player::One, Player::Two] {
                let mut ours = Adapter::new(args.bot, Arc::clone(&profile)).unwrap();
                play_game(
                    &args,
                    &cards,
                    &mut ours,
                    mix(pair),
                    first_dealer,
                    &mut tally,
                )
                .unwrap();
                tally.absorb(&mut ours);
            }
        }
        tally
    }

    #[test]
    fn every_decision_of_our_bots_is_made_on_a_replay_that_agrees_with_the_table() {
        for (bot, against) in [
            (BotName::Simple, "eaai"),
            (BotName::Strong, "heuristic"),
            (BotName::Random, "mc"),
        ] {
            let tally = run(bot, against, 3);
            assert!(tally.hands >= 6, "{bot:?}: {} hands", tally.hands);
            assert!(!tally.our_time.is_empty());
            assert_eq!(
                tally.faults, 0,
                "{bot:?} vs {against}: {:?}",
                tally.first_faults
            );
        }
    }
}
