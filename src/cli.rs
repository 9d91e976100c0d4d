//! The command line's grammar: `gin-referee` with the server's flags, and its
//! subcommands `openapi`, `errors` and `batch <operation>`. Only `main` reads
//! it: the settings it carries are the library's [`Config`], and each batch
//! operation answers a line with the function its endpoint calls.

use clap::{Parser, Subcommand, ValueEnum};
use gin_referee::batch::AnswerLine;
use gin_referee::config::Config;
use gin_referee::http::json::from_slice;
use gin_referee::http::limits::RequestLimits;
use gin_referee::http::ndjson::{self, Tally};
use gin_referee::routes::{audit, hands, layoffs, melds};
use gin_referee::wire::receipt::Keys;

/// The `gin-referee` command line.
#[derive(Debug, Parser)]
#[command(name = "gin-referee", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub config: Config,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Subcommand)]
pub enum Command {
    /// Print the OpenAPI document (pretty JSON) to stdout and exit.
    Openapi,
    /// Print the table of error codes (Markdown, as in the README) and exit.
    Errors,
    /// Answer NDJSON requests from stdin on stdout, one line each, as the
    /// bulk endpoints do (`POST /v1/{resource}/batch`), on every core.
    Batch {
        /// The operation each line asks for.
        #[arg(value_enum)]
        operation: Operation,
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
    fn answer_line(
        &self,
        line: u64,
        bytes: &[u8],
        scratch: &mut Vec<u8>,
        out: &mut Vec<u8>,
        tally: &mut Tally,
    ) {
        let (limits, keys) = (&self.limits, &self.keys);
        match self.operation {
            Operation::Analyze => {
                ndjson::answer_line(&hands::AnalyzeLines, line, bytes, scratch, out, tally)
            }
            Operation::Score => ndjson::answer_line(
                &|l: &[u8]| hands::scored(from_slice(l)?, l, keys),
                line,
                bytes,
                scratch,
                out,
                tally,
            ),
            Operation::Validate => ndjson::answer_line(
                &|l: &[u8]| melds::validation(from_slice(l)?, limits),
                line,
                bytes,
                scratch,
                out,
                tally,
            ),
            Operation::Layoffs => ndjson::answer_line(
                &|l: &[u8]| layoffs::optimal_layoffs(from_slice(l)?),
                line,
                bytes,
                scratch,
                out,
                tally,
            ),
            Operation::Audit => ndjson::answer_line(
                &|l: &[u8]| audit::verdict(from_slice(l)?, l, limits, keys),
                line,
                bytes,
                scratch,
                out,
                tally,
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("gin-referee").chain(args.iter().copied()))
    }

    #[test]
    fn the_clap_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
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
