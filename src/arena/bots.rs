//! The players: a bot's spec as `--bot NAME=SPEC` gives it, and the three
//! kinds of player it makes, each answering one decision at a time.
//!
//! - Built-in (`random`, `simple`, `strong[:knobs]`): called in process, on
//!   the seat's view only.
//! - A process (`cmd:PROGRAM ARGS...`, split on whitespace, no shell): one
//!   per worker, serving its matches in turn, protocol 1 over stdin/stdout
//!   (see [`super::protocol`]).
//! - A URL (`http://HOST:PORT/PATH`): one POST per decision on a kept-alive
//!   connection per worker, the same JSON as a process's line.

use gin_rules::bots::{self, BotError, BotName, BotSpec, HeldView};

use super::process::Process;
use super::turn::{Fault, Turn};
use super::web::WebBot;

/// A bot as given on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Spec {
    /// A built-in bot, its seed and knobs after `:` (`strong:samples=64,seed=3`).
    Builtin(BotSpec),
    /// A program and its arguments.
    Command(Vec<String>),
    /// An HTTP bot's URL.
    Url(String),
}

/// The built-in bots' names.
pub const BUILTIN: [&str; 3] = ["random", "simple", "strong"];

impl Spec {
    /// Reads `SPEC` (the part after `NAME=`).
    pub fn parse(text: &str) -> Result<Spec, String> {
        if let Some(command) = text.strip_prefix("cmd:") {
            let words: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
            if words.is_empty() {
                return Err("`cmd:` needs a program".into());
            }
            return Ok(Spec::Command(words));
        }
        if text.starts_with("http://") {
            return Ok(Spec::Url(text.to_owned()));
        }
        if text.starts_with("https://") {
            return Err(
                "HTTPS bots are not supported: use http:// (a local proxy may add TLS)".into(),
            );
        }
        let (name, knobs) = text.split_once(':').unwrap_or((text, ""));
        if BUILTIN.contains(&name) {
            return Builtin::parse(name, knobs).map(|bot| Spec::Builtin(bot.spec));
        }
        Err(format!(
            "unknown bot `{text}`: one of random, simple, strong[:knobs], cmd:PROGRAM ..., http://..."
        ))
    }

    /// Whether the bot is played in this process.
    pub fn is_builtin(&self) -> bool {
        matches!(self, Spec::Builtin(_))
    }
}

/// `NAME=SPEC`.
pub fn parse_named(text: &str) -> Result<(String, Spec), String> {
    let (name, spec) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}`: expected NAME=SPEC"))?;
    if name.trim().is_empty() || name.chars().count() > 40 {
        return Err(format!("`{name}`: a bot's name has 1 to 40 characters"));
    }
    Ok((name.to_owned(), Spec::parse(spec)?))
}

/// A player that answers decisions: an index into `turn.legal`.
pub enum Player {
    Builtin(Builtin),
    Process(Process),
    Web(WebBot),
}

impl Player {
    /// The player a worker keeps for `spec`.
    pub fn new(spec: &Spec, timeout: std::time::Duration) -> Player {
        match spec {
            Spec::Builtin(bot) => Player::Builtin(Builtin {
                spec: *bot,
                held: None,
            }),
            Spec::Command(words) => Player::Process(Process::new(words.clone(), timeout)),
            Spec::Url(url) => Player::Web(WebBot::new(url, timeout)),
        }
    }

    /// Before a match: a process bot that exited is started again here.
    pub fn start_match(&mut self) -> Result<(), Fault> {
        match self {
            Player::Process(process) => process.ensure_running(),
            _ => Ok(()),
        }
    }

    /// Before a hand: a built-in bot's held view of the last hand is dropped.
    pub fn start_hand(&mut self) {
        if let Player::Builtin(bot) = self {
            bot.held = None;
        }
    }

    /// The move chosen for this turn.
    pub fn decide(&mut self, turn: &Turn<'_>) -> Result<usize, Fault> {
        match self {
            Player::Builtin(bot) => bot.choose(turn),
            Player::Process(process) => {
                let line = super::protocol::request_line(turn)?;
                let answer = process.ask(&line)?;
                super::protocol::read_answer(&answer, turn.legal)
            }
            Player::Web(web) => {
                let line = super::protocol::request_line(turn)?;
                let answer = web.ask(&line)?;
                super::protocol::read_answer(&answer, turn.legal)
            }
        }
    }

    /// The tail of a process's stderr, for a forfeit's record.
    pub fn stderr_tail(&self) -> Option<String> {
        match self {
            Player::Process(process) => Some(process.stderr_tail()),
            _ => None,
        }
    }

    /// At the end of the run: a process's stdin closed, then the signals.
    pub fn finish(&mut self) {
        if let Player::Process(process) = self {
            process.stop();
        }
    }
}

/// A built-in bot: `gin_rules::bots`, on the seat's view only, held beside
/// the hand and told each action ([`HeldView`]) rather than built again at
/// each decision.
pub struct Builtin {
    spec: BotSpec,
    /// The seat's view of the hand in play (dropped at each hand's start).
    held: Option<HeldView>,
}

impl Builtin {
    /// Reads `NAME[:knob=value,...]`: the knobs of the rules crate's bots
    /// (`samples` for `strong`) and `seed` (default 0).
    pub fn parse(name: &str, knobs: &str) -> Result<Builtin, String> {
        let name: BotName = name.parse().map_err(|e: BotError| e.to_string())?;
        let mut spec = BotSpec::new(name, 0);
        for knob in knobs.split(',').filter(|knob| !knob.is_empty()) {
            let (key, value) = knob
                .split_once('=')
                .ok_or_else(|| format!("`{knob}`: a knob is KEY=VALUE"))?;
            match key {
                "seed" => {
                    spec.seed = value
                        .parse()
                        .map_err(|_| format!("seed `{value}`: a whole number"))?
                }
                "samples" => {
                    spec.knobs.samples = Some(
                        value
                            .parse()
                            .map_err(|_| format!("samples `{value}`: a whole number"))?,
                    );
                }
                other => return Err(format!("`{other}` is not a knob (seed, samples)")),
            }
        }
        spec.validate().map_err(|e| e.to_string())?;
        Ok(Builtin { spec, held: None })
    }

    /// The bot's choice, as an index into `turn.legal` (the held view lists
    /// the turn's own listing, in its order).
    fn choose(&mut self, turn: &Turn<'_>) -> Result<usize, Fault> {
        let illegal = |e: BotError| Fault::Illegal(e.to_string());
        let held = match &mut self.held {
            Some(held) if held.seat() == turn.seat => held,
            _ => self
                .held
                .insert(HeldView::new(turn.live, turn.seat).map_err(illegal)?),
        };
        let view = held
            .sync_listed(turn.live, turn.phase, Some(turn.seat), turn.legal)
            .map_err(illegal)?;
        bots::choose(&self.spec, view).map_err(illegal)
    }
}
