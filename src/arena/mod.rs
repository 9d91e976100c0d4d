//! `gin-referee arena`: who is better, measured so that luck cancels and
//! every game can be checked afterwards (docs/ARENA.md is the guide).
//!
//! Every pair of bots (a *pairing*, in the order the bots are given) plays
//! `--pairs` mirrored pairs: two games dealt from the same seeds, the seats
//! swapped (in the second the other bot deals first), so that a lucky deal
//! is lucky for both. The deals are provably fair ([`seeds`]); the games are
//! played across `--workers` threads ([`run`]), written to the records file
//! in (pairing, pair, leg) order whatever the threads' timing ([`records`]),
//! and summed up in the report ([`report`]); `arena verify` re-derives every
//! deal and audits every record ([`verify`]).
//!
//! The layers: [`bots`] (the players: built-in, process, HTTP) and
//! [`protocol`] (what a remote bot is sent and answers), [`play`] (one
//! game), and this module, which plans the games and runs the workers.

pub mod bots;
mod html;
mod match_view;
pub mod play;
mod process;
pub mod protocol;
pub mod records;
pub mod report;
pub mod seeds;
mod standing;
pub mod turn;
pub mod verify;
mod web;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use gin_contract::wire::profile_spec::{ProfileSpec, resolve_profile};
use gin_rules::Profile;
use gin_rules::fair_deal::{MAX_CLIENT_SEED_BYTES, ServerSeed};
use serde_json::Value;

use bots::{Player, Spec};
use play::{Game, Setup, Unit};
use records::Signer;

/// `gin-referee arena ...`.
#[derive(Debug, Clone, PartialEq, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ArenaArgs {
    #[command(subcommand)]
    pub command: Option<ArenaCommand>,
    /// A bot: NAME=SPEC, SPEC being `random`, `simple`, `strong[:knobs]`,
    /// `cmd:PROGRAM ARGS...` (split on whitespace) or `http://HOST:PORT/PATH`.
    /// Give two or more.
    #[arg(long = "bot", value_name = "NAME=SPEC")]
    pub bots: Vec<String>,
    /// Mirrored pairs each pairing plays.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub pairs: u32,
    /// A preset name or a profile object in JSON (`{"base": "eaai"}`); two players.
    #[arg(long)]
    pub profile: Option<String>,
    /// The client seed: any text of at most 256 bytes.
    #[arg(long, default_value = "")]
    pub seed: String,
    /// Whole matches, or single hands.
    #[arg(long, value_enum, default_value_t = Unit::Match)]
    pub unit: Unit,
    /// The records file (NDJSON, one game a line).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The report (JSON, schema `gin-referee-arena/1`).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// The report as an HTML page too.
    #[arg(long, value_name = "FILE")]
    pub report_html: Option<PathBuf>,
    /// Where the server seed is kept (mode 0600); default the records' path
    /// plus `.seed`.
    #[arg(long, value_name = "FILE")]
    pub seed_file: Option<PathBuf>,
    /// Seconds a bot has for one move.
    #[arg(long, default_value_t = 10.0)]
    pub move_timeout: f64,
    /// Carry on a run that was stopped: the games already written are kept,
    /// the others played.
    #[arg(long)]
    pub resume: bool,
}

#[derive(Debug, Clone, PartialEq, clap::Subcommand)]
pub enum ArenaCommand {
    /// Re-derive every deal from the report's revealed seed and audit every
    /// record. Exit code 0 when all hold, 1 otherwise.
    Verify {
        /// The report of a complete run.
        #[arg(long, value_name = "FILE")]
        report: PathBuf,
        /// Its records.
        records: PathBuf,
    },
}

/// What the workers share.
pub struct Plan {
    pub names: Vec<String>,
    pub specs: Vec<Spec>,
    pub spec_texts: Vec<String>,
    pub pairings: Vec<[usize; 2]>,
    pub pairs: usize,
    pub unit: Unit,
    pub profile: Profile,
    pub profile_json: Value,
    pub client_seed: String,
    pub timeout: Duration,
}

impl Plan {
    /// Games in the whole run.
    pub fn games(&self) -> usize {
        self.pairings.len() * self.pairs * 2
    }

    /// The game at `index`: pairing, pair, leg.
    pub fn locate(&self, index: usize) -> (usize, usize, usize) {
        let pairs = self.pairs.max(1);
        (index / (2 * pairs), (index / 2) % pairs, index % 2)
    }

    fn read(args: &ArenaArgs) -> Result<Plan, String> {
        let mut names = Vec::new();
        let mut specs = Vec::new();
        let mut spec_texts = Vec::new();
        for text in &args.bots {
            let (name, spec) = bots::parse_named(text)?;
            if names.contains(&name) {
                return Err(format!("two bots are named {name}"));
            }
            spec_texts.push(
                text.split_once('=')
                    .map(|(_, s)| s)
                    .unwrap_or_default()
                    .to_owned(),
            );
            names.push(name);
            specs.push(spec);
        }
        if names.len() < 2 {
            return Err("give at least two bots (--bot NAME=SPEC)".into());
        }
        if args.seed.len() > MAX_CLIENT_SEED_BYTES {
            return Err(format!("--seed: at most {MAX_CLIENT_SEED_BYTES} bytes"));
        }
        if !(args.move_timeout > 0.0 && args.move_timeout <= 3600.0) {
            return Err("--move-timeout: seconds above 0, at most 3600".into());
        }
        let (profile, profile_json) = read_profile(args.profile.as_deref())?;
        let mut pairings = Vec::new();
        for i in 0..names.len() {
            for j in i + 1..names.len() {
                pairings.push([i, j]);
            }
        }
        Ok(Plan {
            names,
            specs,
            spec_texts,
            pairings,
            pairs: args.pairs as usize,
            unit: args.unit,
            profile,
            profile_json,
            client_seed: args.seed.clone(),
            timeout: Duration::from_secs_f64(args.move_timeout),
        })
    }
}

/// `--profile`: a preset's name or a JSON object, as a request's `profile`.
fn read_profile(text: Option<&str>) -> Result<(Profile, Value), String> {
    let Some(text) = text else {
        return Ok((Profile::default(), Value::Null));
    };
    let json: Value = if text.trim_start().starts_with('{') {
        serde_json::from_str(text).map_err(|e| format!("--profile: {e}"))?
    } else {
        Value::String(text.to_owned())
    };
    let spec: ProfileSpec =
        serde_json::from_value(json.clone()).map_err(|e| format!("--profile: {e}"))?;
    let profile =
        resolve_profile(Some(&spec)).map_err(|problem| format!("--profile: {}", problem.detail))?;
    Ok((profile, json))
}

/// The paths of a run.
struct Paths {
    out: PathBuf,
    report: PathBuf,
    html: Option<PathBuf>,
    seed: PathBuf,
}

fn paths(args: &ArenaArgs) -> Result<Paths, String> {
    let out = args.out.clone().ok_or("--out FILE is required")?;
    let report = args.report.clone().ok_or("--report FILE is required")?;
    let seed = args.seed_file.clone().unwrap_or_else(|| {
        let mut path = out.clone().into_os_string();
        path.push(".seed");
        PathBuf::from(path)
    });
    Ok(Paths {
        out,
        report,
        html: args.report_html.clone(),
        seed,
    })
}

/// How a run ended.
pub enum Ended {
    /// Every planned game played; the report reveals the seed.
    Complete,
    /// Stopped by SIGINT: the report so far, commitment only.
    Interrupted,
}

/// `gin-referee arena` (or `arena verify`).
pub fn run(args: &ArenaArgs, workers: usize, signing_key: Option<&Path>) -> Result<Ended, String> {
    if let Some(ArenaCommand::Verify { report, records }) = &args.command {
        return verify::run(report, records).map(|()| Ended::Complete);
    }
    let plan = Plan::read(args)?;
    let paths = paths(args)?;
    let signer = Signer::load(signing_key)?;
    let (seed, seed_hex) = if args.resume {
        seeds::read(&paths.seed)?
    } else {
        seeds::create(&paths.seed)?
    };
    let started = std::time::Instant::now();
    let commitment = seed.commitment();
    println!("commitment {commitment}");
    let done = records::prepare(&paths.out, &plan, args.resume)?;
    let stop = Arc::new(AtomicBool::new(false));
    watch_interrupt(Arc::clone(&stop));
    play_all(
        &plan,
        &seed,
        &paths.out,
        done,
        workers.max(1),
        &stop,
        &signer,
    )?;
    let (wall, cpu) = (started.elapsed().as_secs_f64(), own_cpu_seconds());
    let lines = records::read_summaries(&paths.out)?;
    let complete = lines.len() == plan.games();
    let revealed = complete.then_some(seed_hex.as_str());
    let mut report = report::build(&plan, &lines, &commitment, revealed);
    if let Some(object) = report.as_object_mut() {
        object.insert(
            "run".into(),
            serde_json::json!({
                "workers": workers.max(1),
                "games_played": lines.len().saturating_sub(done),
                "wall_seconds": wall,
                "cpu_seconds": cpu,
            }),
        );
    }
    let text = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
    std::fs::write(&paths.report, text + "\n")
        .map_err(|e| format!("cannot write {}: {e}", paths.report.display()))?;
    if let Some(html) = &paths.html {
        let lines = records::read_all(&paths.out)?;
        std::fs::write(html, html::page(&report, &lines))
            .map_err(|e| format!("cannot write {}: {e}", html.display()))?;
    }
    Ok(if complete {
        Ended::Complete
    } else {
        Ended::Interrupted
    })
}

/// The CPU time this process has used (its threads, not its children's:
/// the bots' processes), from `/proc/self/stat`, in clock ticks of 1/100 s.
fn own_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after = stat.get(stat.rfind(')')? + 2..)?;
    let fields: Vec<&str> = after.split_whitespace().collect();
    // utime and stime: fields 14 and 15 of the line, 12 and 13 after `)`.
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// SIGINT sets `stop`: no new game is dealt, those in progress finish.
fn watch_interrupt(stop: Arc<AtomicBool>) {
    std::thread::spawn(move || {
        let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        else {
            return;
        };
        if runtime.block_on(tokio::signal::ctrl_c()).is_ok() {
            eprintln!("interrupted: finishing the games in progress, dealing no new one");
            stop.store(true, Ordering::SeqCst);
        }
    });
}

/// Plays the games from `done` on, across `workers` threads; the lines are
/// appended to `out` in order as they come.
fn play_all(
    plan: &Plan,
    seed: &ServerSeed,
    out: &Path,
    done: usize,
    workers: usize,
    stop: &AtomicBool,
    signer: &Signer,
) -> Result<(), String> {
    let setup = Setup {
        profile: &plan.profile,
        profile_json: &plan.profile_json,
        unit: plan.unit,
        seed,
        client_seed: &plan.client_seed,
    };
    let next = AtomicUsize::new(done);
    let total = plan.games();
    let progress = records::Progress::new(total, done);
    let mut writer = records::Writer::open(out, done)?;
    let failed: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        let (send, receive) = channel::<(usize, String)>();
        for _ in 0..workers {
            let send = send.clone();
            let (setup, next) = (&setup, &next);
            scope.spawn(move || {
                let mut players: HashMap<usize, Player> = HashMap::new();
                loop {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= total {
                        break;
                    }
                    let line = play_game(plan, setup, index, &mut players, signer);
                    if send.send((index, line)).is_err() {
                        break;
                    }
                }
                for player in players.values_mut() {
                    player.finish();
                }
            });
        }
        drop(send);
        let mut waiting: BTreeMap<usize, String> = BTreeMap::new();
        for (index, line) in receive {
            waiting.insert(index, line);
            while let Some(line) = waiting.remove(&writer.next()) {
                if let Err(e) = writer.write(&line) {
                    stop.store(true, Ordering::SeqCst);
                    if let Ok(mut failed) = failed.lock() {
                        *failed = Some(e);
                    }
                }
                progress.advance();
            }
        }
    });
    progress.finish();
    match failed.into_inner().ok().flatten() {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// Plays the game at `index` with this worker's players; its record line.
fn play_game(
    plan: &Plan,
    setup: &Setup<'_>,
    index: usize,
    players: &mut HashMap<usize, Player>,
    signer: &Signer,
) -> String {
    let (pairing, pair, leg) = plan.locate(index);
    let [a, b] = plan.pairings.get(pairing).copied().unwrap_or([0, 1]);
    let name = |i: usize| plan.names.get(i).map(String::as_str).unwrap_or_default();
    for bot in [a, b] {
        if !players.contains_key(&bot)
            && let Some(spec) = plan.specs.get(bot)
        {
            players.insert(bot, Player::new(spec, plan.timeout));
        }
    }
    let game = Game {
        names: [name(a), name(b)],
        first_dealer: leg,
        nonce_base: seeds::nonce_base(pairing, plan.pairs, pair),
    };
    // Two distinct keys of the map, borrowed at once.
    let mut taken_a = players.remove(&a);
    let mut taken_b = players.remove(&b);
    let played = match (&mut taken_a, &mut taken_b) {
        (Some(first), Some(second)) => Some(play::play(setup, &game, [first, second])),
        _ => None,
    };
    if let Some(player) = taken_a {
        players.insert(a, player);
    }
    if let Some(player) = taken_b {
        players.insert(b, player);
    }
    records::line(
        &game,
        pair,
        leg,
        plan.unit,
        played.unwrap_or_default(),
        signer,
    )
}
