//! The command line's grammar: `gin-referee` with the server's flags, and its
//! subcommands `openapi`, `errors` and `batch <operation>`. Only `main` reads
//! it: the settings it carries are the library's [`Config`], and each batch
//! operation answers a line with the function its endpoint calls.
//!
//! The settings a batch run reads ([`BATCH_READS`]) are global arguments: they
//! are accepted before the subcommand or after it (`gin-referee batch analyze
//! --workers 4`), and `gin-referee batch --help` lists them. The others stay
//! the server's alone, so the batch's help shows only what it uses.

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use gin_contract::answers::{audit, hands, layoffs, melds};
use gin_contract::json::from_slice;
use gin_contract::limits::RequestLimits;
use gin_contract::wire::receipt::Keys;
use gin_referee::batch::{AnswerLine, Answers};
use gin_referee::config::Config;

/// The `gin-referee` command line.
#[derive(Debug, Parser)]
#[command(name = "gin-referee", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub config: Config,
}

/// The flags (and their variables) that `gin-referee batch` reads: its
/// threads, the line limit, the ceilings its operations check, and the keys
/// that sign receipts. Written as the long flags, the public names.
pub const BATCH_READS: [&str; 6] = [
    "workers",
    "batch-max-line-bytes",
    "max-audit-actions",
    "max-melds",
    "signing-key",
    "retired-keys",
];

impl Cli {
    /// The grammar, with the settings a batch reads made global (see the
    /// module docs): clap derive has no way to mark the arguments of a
    /// flattened struct global from the outside, so it is done here, on the
    /// built command.
    pub fn grammar() -> clap::Command {
        <Cli as CommandFactory>::command().mut_args(|arg| {
            let read_by_batch = arg
                .get_long()
                .is_some_and(|long| BATCH_READS.contains(&long));
            if read_by_batch { arg.global(true) } else { arg }
        })
    }

    /// Parses the process's arguments; invalid ones end the process with
    /// clap's message and exit code 2, as `Cli::parse` would.
    pub fn from_args() -> Cli {
        Self::try_from_iter(std::env::args_os()).unwrap_or_else(|err| err.exit())
    }

    /// Parses `args` (the program's name first).
    pub fn try_from_iter<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let mut grammar = Self::grammar();
        let mut matches = grammar.try_get_matches_from_mut(args)?;
        Cli::from_arg_matches_mut(&mut matches).map_err(|err| err.format(&mut grammar))
    }
}

#[derive(Debug, Clone, PartialEq, Subcommand)]
pub enum Command {
    /// Print the OpenAPI document (pretty JSON) to stdout and exit.
    Openapi,
    /// Print the table of error codes (Markdown, as in docs/ERRORS.md) and exit.
    Errors,
    /// Answer NDJSON requests from stdin on stdout, one line each, as the
    /// bulk endpoints do (`POST /v1/{resource}/batch`), on every core.
    ///
    /// Its options may come before or after the subcommand (`gin-referee
    /// batch analyze --workers 4 < hands.ndjson`), or as their environment
    /// variables. A line over --batch-max-line-bytes ends the run with exit
    /// code 1; a progress line goes to stderr when it is a terminal.
    Batch {
        /// The operation each line asks for.
        #[arg(value_enum)]
        operation: Operation,
    },
    /// Play bots against each other in mirrored pairs of provably fair games,
    /// record every game and report who is better (docs/ARENA.md); `arena
    /// verify` checks a run. Reads --workers (default the cores) and
    /// --signing-key (a receipt for every record).
    Arena(gin_referee::arena::ArenaArgs),
    /// Manage API keys (see --api-keys).
    Keys {
        #[command(subcommand)]
        command: KeysCommand,
    },
}

/// `gin-referee keys ...`.
#[derive(Debug, Clone, PartialEq, Subcommand)]
pub enum KeysCommand {
    /// Make a new random API key: prints the key (once: it is kept nowhere)
    /// on the first line, and on the second the entry to add to the keys
    /// file, which holds only the key's SHA-256.
    New {
        /// The key's id: who holds it (1 to 64 letters, digits, '.', '_', '-').
        /// It names the key in log lines, metrics and receipts.
        #[arg(long)]
        id: String,
        /// An operationId the key may call (`analyze_hand`, `audit_match`,
        /// a batch's own `analyze_hands`, ...), `*` for every operation, or
        /// `sign` for signed receipts. Repeat it for more.
        #[arg(long = "scope", value_name = "SCOPE", required = true)]
        scopes: Vec<String>,
        /// Requests per second the key may make, per process.
        #[arg(long)]
        rate: Option<f64>,
        /// Requests the key may have in flight at once, per process.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
        concurrency: Option<u32>,
    },
}

/// The operations a batch can run: one per bulk endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Operation {
    /// `POST /v1/hands/analyze`, one request per line.
    Analyze,
    /// `POST /v1/hands/score`.
    Score,
    /// `POST /v1/melds/validate`.
    Validate,
    /// `POST /v1/layoffs`.
    Layoffs,
    /// `POST /v1/hands/audit`.
    Audit,
}

/// A batch operation with what it needs besides the line: the server's
/// ceilings and keys.
pub struct BatchJob {
    pub operation: Operation,
    pub limits: RequestLimits,
    pub keys: Keys,
}

impl AnswerLine for BatchJob {
    fn answer_line(&self, line: u64, bytes: &[u8], answers: &mut Answers) {
        let (limits, keys) = (&self.limits, &self.keys);
        match self.operation {
            Operation::Analyze => answers.answer(&hands::AnalyzeLines, line, bytes),
            Operation::Score => answers.answer(
                &|l: &[u8]| hands::scored(from_slice(l)?, l, keys),
                line,
                bytes,
            ),
            Operation::Validate => answers.answer(
                &|l: &[u8]| melds::validation(from_slice(l)?, limits),
                line,
                bytes,
            ),
            Operation::Layoffs => answers.answer(
                &|l: &[u8]| layoffs::optimal_layoffs(from_slice(l)?),
                line,
                bytes,
            ),
            Operation::Audit => answers.answer(
                &|l: &[u8]| audit::verdict(from_slice(l)?, l, limits, keys),
                line,
                bytes,
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_from_iter(std::iter::once("gin-referee").chain(args.iter().copied()))
    }

    #[test]
    fn the_clap_definition_is_consistent() {
        Cli::grammar().debug_assert();
    }

    #[test]
    fn every_setting_a_batch_reads_is_a_flag_of_the_server() {
        let grammar = Cli::grammar();
        for long in BATCH_READS {
            let arg = grammar
                .get_arguments()
                .find(|arg| arg.get_long() == Some(long))
                .unwrap_or_else(|| panic!("--{long} is not a flag"));
            assert!(arg.is_global_set(), "--{long}");
        }
    }

    #[test]
    fn batch_settings_are_read_before_or_after_the_subcommand() {
        for args in [
            &[
                "--workers",
                "3",
                "--batch-max-line-bytes",
                "2048",
                "batch",
                "analyze",
            ][..],
            &[
                "batch",
                "analyze",
                "--workers",
                "3",
                "--batch-max-line-bytes",
                "2048",
            ],
            &[
                "batch",
                "--workers",
                "3",
                "analyze",
                "--batch-max-line-bytes=2048",
            ],
            &[
                "--workers",
                "3",
                "batch",
                "analyze",
                "--batch-max-line-bytes",
                "2048",
            ],
        ] {
            let cli = parse(args).unwrap_or_else(|err| panic!("{args:?}: {err}"));
            assert_eq!(cli.config.worker_count(), 3, "{args:?}");
            assert_eq!(cli.config.batch.line_bytes, 2048, "{args:?}");
        }
        let cli = parse(&[
            "batch",
            "validate",
            "--max-melds",
            "7",
            "--max-audit-actions",
            "9",
        ])
        .expect("ceilings after the subcommand");
        assert_eq!(
            (cli.config.limits.melds, cli.config.limits.audit_actions),
            (7, 9)
        );
    }

    #[test]
    fn server_only_flags_stay_before_the_subcommand() {
        assert!(parse(&["batch", "analyze", "--listen", "127.0.0.1:1"]).is_err());
        assert!(parse(&["--listen", "127.0.0.1:1", "batch", "analyze"]).is_ok());
    }

    #[test]
    fn the_batch_help_lists_the_settings_it_reads() {
        let mut grammar = Cli::grammar();
        grammar.build();
        let batch = grammar
            .find_subcommand_mut("batch")
            .expect("the batch subcommand");
        let help = batch.render_long_help().to_string();
        for long in BATCH_READS {
            assert!(
                help.contains(&format!("--{long}")),
                "--{long} missing:\n{help}"
            );
        }
        assert!(!help.contains("--listen"), "{help}");
    }

    #[test]
    fn without_a_subcommand_the_flags_are_the_server_settings() {
        let cli =
            parse(&["--listen", "127.0.0.1:9000", "--workers", "3"]).expect("valid flags parse");
        assert_eq!(cli.command, None);
        assert_eq!(cli.config.worker_count(), 3);
    }

    #[test]
    fn the_openapi_subcommand_is_recognised() {
        let cli = parse(&["openapi"]).expect("subcommand parses");
        assert_eq!(cli.command, Some(Command::Openapi));
    }

    #[test]
    fn the_batch_subcommand_takes_an_operation() {
        let cli = parse(&["batch", "analyze"]).expect("subcommand parses");
        assert_eq!(
            cli.command,
            Some(Command::Batch {
                operation: Operation::Analyze
            })
        );
        assert!(parse(&["batch", "shuffle"]).is_err());
    }
}
