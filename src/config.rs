//! The settings: flags and their environment variables.
//!
//! Every setting is a flag with an environment-variable twin (`--listen` /
//! `GIN_REFEREE_LISTEN`, ...); a flag wins over its variable. Values are validated
//! while parsing, so a bad setting stops the process before it binds a socket,
//! with clap's message naming the flag and the accepted range, and exit code 2.

use std::net::{SocketAddr, ToSocketAddrs};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::http::admission::limits::BatchLimits;
use crate::http::admission::limits::RequestLimits;

/// Default listen address: every interface, port 8080 (what a container expects).
pub const DEFAULT_LISTEN: &str = "0.0.0.0:8080";
/// Default request-body limit (`--body-limit`): the transport's own, which
/// the JSON extractor also falls back to.
pub use crate::http::json::DEFAULT_BODY_LIMIT;
/// How log lines are written (`--log-format`): the telemetry's own.
pub use crate::monitoring::telemetry::LogFormat;
/// Default body limit of the match audit: a 20-hand match's record with full
/// transcripts is about 60 KiB, so 1 MiB takes a few hundred hands.
pub const DEFAULT_MATCH_AUDIT_BODY_LIMIT: usize = 1024 * 1024;
/// Smallest accepted body limit: below 1 KiB even a valid two-hand request would
/// be refused, which is a misconfiguration rather than a policy.
pub const MIN_BODY_LIMIT: usize = 1024;
/// Largest accepted body limit (64 MiB): bodies are buffered whole in memory.
pub const MAX_BODY_LIMIT: usize = 64 * 1024 * 1024;
pub const DEFAULT_SHUTDOWN_TIMEOUT_SECS: u64 = 30;
pub const DEFAULT_CLIENT_REQUEST_TIMEOUT_MS: u64 = 5000;
pub const DEFAULT_CLIENT_DISCONNECT_TIMEOUT_MS: u64 = 1000;
pub const DEFAULT_KEEP_ALIVE_SECS: u64 = 5;
/// A legitimate request is answered well within this from its first byte: its
/// first head must arrive within `--client-request-timeout` (5 s), its body
/// again within it (5 s), and the referee answers in milliseconds. 15 s leaves
/// room for a slow network on top.
pub const DEFAULT_STALL_TIMEOUT_SECS: u64 = 15;
pub const DEFAULT_MAX_CONNECTIONS: usize = 25_000;
pub const DEFAULT_LOG_LEVEL: &str = "info";

/// Server settings. Without a subcommand, `gin-referee` serves HTTP with these
/// (the subcommands themselves are the binary's, in `src/cli.rs`).
#[derive(Debug, Clone, Args)]
pub struct Config {
    /// Address to listen on, HOST:PORT (a host name is resolved once, at start).
    #[arg(long, env = "GIN_REFEREE_LISTEN", value_name = "HOST:PORT",
          default_value = DEFAULT_LISTEN, value_parser = parse_listen)]
    pub listen: SocketAddr,

    /// Number of worker threads [default: number of CPUs].
    #[arg(long, env = "GIN_REFEREE_WORKERS", value_name = "N",
          value_parser = clap::value_parser!(u16).range(1..))]
    pub workers: Option<u16>,

    /// Largest accepted request body, in bytes (1024 to 67108864).
    #[arg(long, env = "GIN_REFEREE_BODY_LIMIT", value_name = "BYTES",
          default_value_t = DEFAULT_BODY_LIMIT, value_parser = parse_body_limit)]
    pub body_limit: usize,

    /// Largest request body of POST /v1/matches/audit and POST
    /// /v1/matches/state, a whole match's record, in bytes (1024 to 67108864).
    #[arg(long, env = "GIN_REFEREE_MATCH_AUDIT_BODY_LIMIT", value_name = "BYTES",
          default_value_t = DEFAULT_MATCH_AUDIT_BODY_LIMIT, value_parser = parse_body_limit)]
    pub match_audit_body_limit: usize,

    /// The Ed25519 private key that signs receipts: a PKCS#8 PEM file (e.g.
    /// from `openssl genpkey -algorithm ed25519`). Without one the service
    /// generates a key at start, and its receipts verify only while it runs.
    #[arg(long, env = "GIN_REFEREE_SIGNING_KEY", value_name = "FILE")]
    pub signing_key: Option<PathBuf>,

    /// Public keys of earlier signing keys, still listed in GET /v1/keys so
    /// that their receipts verify after a rotation: a file of PEM `PUBLIC KEY`
    /// blocks.
    #[arg(long, env = "GIN_REFEREE_RETIRED_KEYS", value_name = "FILE")]
    pub retired_keys: Option<PathBuf>,

    /// The API keys file: a JSON array of {"id", "sha256", "scopes", "rate"?,
    /// "concurrency"?} (make entries with `gin-referee keys new`). With it,
    /// every operation but the probes, metrics, keys, profiles and error
    /// descriptions needs `Authorization: Bearer <key>`; the file is read
    /// again when it changes. Without it, every operation is open.
    #[arg(long, env = "GIN_REFEREE_API_KEYS", value_name = "FILE")]
    pub api_keys: Option<PathBuf>,

    /// Log line format.
    #[arg(long, env = "GIN_REFEREE_LOG_FORMAT", value_enum, default_value_t = LogFormat::Json)]
    pub log_format: LogFormat,

    /// Log level or tracing filter directives (e.g. `info`, `gin_referee=debug`);
    /// RUST_LOG wins when set.
    #[arg(long, env = "GIN_REFEREE_LOG_LEVEL", value_name = "FILTER",
          default_value = DEFAULT_LOG_LEVEL, value_parser = parse_log_level)]
    pub log_level: String,

    /// Seconds that in-flight requests get to finish after SIGTERM/SIGINT.
    #[arg(long, env = "GIN_REFEREE_SHUTDOWN_TIMEOUT", value_name = "SECONDS",
          default_value_t = DEFAULT_SHUTDOWN_TIMEOUT_SECS,
          value_parser = clap::value_parser!(u64).range(0..=3600))]
    pub shutdown_timeout: u64,

    /// Milliseconds a client has to send a whole request head, and then again to
    /// send its body, before it is cut off with 408 (0 disables the limit; else
    /// 1000 to 600000).
    #[arg(long, env = "GIN_REFEREE_CLIENT_REQUEST_TIMEOUT", value_name = "MS",
          default_value_t = DEFAULT_CLIENT_REQUEST_TIMEOUT_MS,
          value_parser = parse_client_request_timeout)]
    pub client_request_timeout: u64,

    /// Milliseconds the server keeps reading (and discarding) what a client still
    /// sends after an answer that ends its connection (a refused body), so that
    /// the client reads the answer rather than a reset; then the socket closes
    /// (0 closes at once; else 1000 to 60000).
    #[arg(long, env = "GIN_REFEREE_CLIENT_DISCONNECT_TIMEOUT", value_name = "MS",
          default_value_t = DEFAULT_CLIENT_DISCONNECT_TIMEOUT_MS,
          value_parser = parse_client_disconnect_timeout)]
    pub client_disconnect_timeout: u64,

    /// Seconds a connection may go without progress: from a request's first
    /// byte to the server's next write, or while the client does not take an
    /// answer. Cuts off a request head or body stalled or dribbled on any
    /// request of a connection, and a client that stops reading; an idle
    /// keep-alive connection is left to --keep-alive (0 disables this, and
    /// the shedding of slow connections near --max-connections).
    #[arg(long, env = "GIN_REFEREE_STALL_TIMEOUT", value_name = "SECONDS",
          default_value_t = DEFAULT_STALL_TIMEOUT_SECS,
          value_parser = clap::value_parser!(u64).range(0..=3600))]
    pub stall_timeout: u64,

    /// Seconds an idle keep-alive connection stays open (0 disables keep-alive).
    #[arg(long, env = "GIN_REFEREE_KEEP_ALIVE", value_name = "SECONDS",
          default_value_t = DEFAULT_KEEP_ALIVE_SECS,
          value_parser = clap::value_parser!(u64).range(0..=3600))]
    pub keep_alive: u64,

    /// Concurrent connections per worker; further connections wait in the
    /// backlog. Lowered at start to what the open-file limit allows (see the
    /// "gin-referee listening" log line).
    #[arg(long, env = "GIN_REFEREE_MAX_CONNECTIONS", value_name = "N",
          default_value_t = DEFAULT_MAX_CONNECTIONS, value_parser = parse_max_connections)]
    pub max_connections: usize,

    /// Ceilings on the lists and strings of a request (`--max-match-hands`, ...).
    #[command(flatten)]
    pub limits: RequestLimits,

    /// The limits of one bulk (NDJSON) request (`--batch-max-lines`, ...).
    #[command(flatten)]
    pub batch: BatchLimits,

    /// Where a bulk request's unread answers wait (`--batch-spool-dir`, ...).
    #[command(flatten)]
    pub spool: crate::http::bulk::spool::SpoolSettings,

    /// The body limit of a bulk request sent as a JSON array.
    #[command(flatten)]
    pub json_batch: crate::http::bulk::json_batch::JsonBatchLimit,

    /// The one memory budget of every request in flight (`--memory-budget`, ...).
    #[command(flatten)]
    pub memory: crate::http::admission::budget::BudgetSettings,
}

impl Default for Config {
    /// The documented defaults, without reading flags or the environment (tests use
    /// this so a developer's shell variables cannot change what they check).
    fn default() -> Self {
        Config {
            listen: SocketAddr::from(([0, 0, 0, 0], 8080)),
            workers: None,
            body_limit: DEFAULT_BODY_LIMIT,
            match_audit_body_limit: DEFAULT_MATCH_AUDIT_BODY_LIMIT,
            signing_key: None,
            api_keys: None,
            retired_keys: None,
            log_format: LogFormat::Json,
            log_level: DEFAULT_LOG_LEVEL.to_owned(),
            shutdown_timeout: DEFAULT_SHUTDOWN_TIMEOUT_SECS,
            client_request_timeout: DEFAULT_CLIENT_REQUEST_TIMEOUT_MS,
            client_disconnect_timeout: DEFAULT_CLIENT_DISCONNECT_TIMEOUT_MS,
            stall_timeout: DEFAULT_STALL_TIMEOUT_SECS,
            keep_alive: DEFAULT_KEEP_ALIVE_SECS,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            limits: RequestLimits::default(),
            batch: BatchLimits::default(),
            spool: crate::http::bulk::spool::SpoolSettings::default(),
            json_batch: crate::http::bulk::json_batch::JsonBatchLimit::default(),
            memory: crate::http::admission::budget::BudgetSettings::default(),
        }
    }
}

impl Config {
    /// Worker threads to start: the flag, or one per available CPU.
    pub fn worker_count(&self) -> usize {
        match self.workers {
            Some(n) => usize::from(n),
            None => std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
        }
    }

    pub fn shutdown_timeout(&self) -> Duration {
        Duration::from_secs(self.shutdown_timeout)
    }

    pub fn client_request_timeout(&self) -> Duration {
        Duration::from_millis(self.client_request_timeout)
    }

    /// How long a handler waits for a request body: the client request timeout
    /// again, counted from when the handler starts reading.
    pub fn body_timeout(&self) -> Option<Duration> {
        (self.client_request_timeout > 0).then(|| self.client_request_timeout())
    }

    pub fn client_disconnect_timeout(&self) -> Duration {
        Duration::from_millis(self.client_disconnect_timeout)
    }

    /// How long a connection may go without the server writing to it (`None`:
    /// no limit).
    pub fn stall_timeout(&self) -> Option<Duration> {
        (self.stall_timeout > 0).then(|| Duration::from_secs(self.stall_timeout))
    }

    pub fn keep_alive(&self) -> Duration {
        Duration::from_secs(self.keep_alive)
    }
}

fn parse_listen(value: &str) -> Result<SocketAddr, String> {
    if let Ok(addr) = value.parse::<SocketAddr>() {
        return Ok(addr);
    }
    // Not a literal address: allow `localhost:8080` and other names, resolved once.
    let resolved = value
        .to_socket_addrs()
        .map_err(|err| format!("expected HOST:PORT such as {DEFAULT_LISTEN} ({err})"))?;
    resolved
        .into_iter()
        .next()
        .ok_or_else(|| format!("`{value}` resolves to no address"))
}

fn parse_body_limit(value: &str) -> Result<usize, String> {
    let bytes: usize = value
        .parse()
        .map_err(|_| "expected a number of bytes".to_owned())?;
    if !(MIN_BODY_LIMIT..=MAX_BODY_LIMIT).contains(&bytes) {
        return Err(format!(
            "{bytes} is not in {MIN_BODY_LIMIT}..={MAX_BODY_LIMIT} bytes"
        ));
    }
    Ok(bytes)
}

/// Smallest non-zero client request timeout. actix-http computes the deadline
/// from a clock it refreshes every 500 ms, so a shorter timeout can be already
/// past when a connection starts, and actix (3.x) never fires a timer that is
/// due at creation: the connection would then never time out at all. From one
/// second on, the deadline is always in the future.
pub const MIN_CLIENT_REQUEST_TIMEOUT_MS: u64 = 1000;

fn parse_client_request_timeout(value: &str) -> Result<u64, String> {
    let ms: u64 = value
        .parse()
        .map_err(|_| "expected a number of milliseconds".to_owned())?;
    if ms != 0 && !(MIN_CLIENT_REQUEST_TIMEOUT_MS..=600_000).contains(&ms) {
        return Err(format!(
            "{ms} is neither 0 (no limit) nor in {MIN_CLIENT_REQUEST_TIMEOUT_MS}..=600000 ms"
        ));
    }
    Ok(ms)
}

/// The disconnect timeout is an actix-http deadline like the request timeout,
/// taken from the same coarse clock: under a second it may never fire, and the
/// server would then read a closing connection until the stall timeout.
fn parse_client_disconnect_timeout(value: &str) -> Result<u64, String> {
    let ms: u64 = value
        .parse()
        .map_err(|_| "expected a number of milliseconds".to_owned())?;
    if ms != 0 && !(MIN_CLIENT_REQUEST_TIMEOUT_MS..=60_000).contains(&ms) {
        return Err(format!(
            "{ms} is neither 0 (close at once) nor in {MIN_CLIENT_REQUEST_TIMEOUT_MS}..=60000 ms"
        ));
    }
    Ok(ms)
}

fn parse_max_connections(value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(0) => Err("must be at least 1".to_owned()),
        Ok(n) => Ok(n),
        Err(_) => Err("expected a number of connections".to_owned()),
    }
}

/// Checks the filter syntax now, so a typo fails the start instead of silencing logs.
fn parse_log_level(value: &str) -> Result<String, String> {
    tracing_subscriber::EnvFilter::builder()
        .parse(value)
        .map(|_| value.to_owned())
        .map_err(|err| format!("not a log level or filter: {err}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// The settings alone, parsed as the command line parses them.
    #[derive(Debug, Parser)]
    struct Flags {
        #[command(flatten)]
        config: Config,
    }

    fn parse(args: &[&str]) -> Result<Flags, clap::Error> {
        Flags::try_parse_from(std::iter::once("gin-referee").chain(args.iter().copied()))
    }

    #[test]
    fn the_clap_definition_is_consistent() {
        use clap::CommandFactory;
        Flags::command().debug_assert();
    }

    #[test]
    fn defaults_match_the_documented_values() {
        let defaults = Config::default();
        assert_eq!(defaults.listen.to_string(), DEFAULT_LISTEN);
        assert_eq!(defaults.body_limit, 65536);
        assert_eq!(defaults.log_format, LogFormat::Json);
        assert_eq!(defaults.shutdown_timeout(), Duration::from_secs(30));
        assert_eq!(
            defaults.client_request_timeout(),
            Duration::from_millis(5000)
        );
        assert_eq!(defaults.keep_alive(), Duration::from_secs(5));
        assert_eq!(
            defaults.client_disconnect_timeout(),
            Duration::from_millis(1000)
        );
        assert_eq!(defaults.stall_timeout(), Some(Duration::from_secs(15)));
        assert_eq!(defaults.max_connections, 25_000);
        assert!(defaults.worker_count() >= 1);
    }

    #[test]
    fn flags_override_defaults() {
        let cli = parse(&[
            "--listen",
            "127.0.0.1:9000",
            "--workers",
            "3",
            "--body-limit",
            "2048",
            "--log-format",
            "text",
            "--log-level",
            "gin_referee=debug,warn",
        ])
        .expect("valid flags parse");
        assert_eq!(cli.config.listen, SocketAddr::from(([127, 0, 0, 1], 9000)));
        assert_eq!(cli.config.worker_count(), 3);
        assert_eq!(cli.config.body_limit, 2048);
        assert_eq!(cli.config.log_format, LogFormat::Text);
    }

    #[test]
    fn zero_workers_are_rejected() {
        let err = parse(&["--workers", "0"]).expect_err("0 workers is invalid");
        assert!(err.to_string().contains("--workers"), "{err}");
    }

    #[test]
    fn a_body_limit_under_one_kib_is_rejected() {
        let err = parse(&["--body-limit", "1023"]).expect_err("too small");
        assert!(err.to_string().contains("1024"), "{err}");
    }

    #[test]
    fn an_unparseable_listen_address_is_rejected() {
        let err = parse(&["--listen", "no port here"]).expect_err("not HOST:PORT");
        assert!(err.to_string().contains("HOST:PORT"), "{err}");
    }

    #[test]
    fn a_malformed_log_filter_is_rejected() {
        assert!(parse(&["--log-level", "gin_referee=loud"]).is_err());
    }

    #[test]
    fn a_client_request_timeout_under_one_second_is_rejected() {
        // Found by the hostile HTTP tests: 400 ms let some idle connections
        // live for ever (see MIN_CLIENT_REQUEST_TIMEOUT_MS).
        let err = parse(&["--client-request-timeout", "400"]).expect_err("too short");
        assert!(err.to_string().contains("1000"), "{err}");
        for ok in ["0", "1000", "600000"] {
            let cli = parse(&["--client-request-timeout", ok]).expect("accepted");
            assert_eq!(cli.config.client_request_timeout.to_string(), ok);
        }
        assert_eq!(
            parse(&["--client-request-timeout", "0"])
                .expect("accepted")
                .config
                .body_timeout(),
            None
        );
    }

    #[test]
    fn a_client_disconnect_timeout_under_one_second_is_rejected() {
        let err = parse(&["--client-disconnect-timeout", "500"]).expect_err("too short");
        assert!(err.to_string().contains("1000"), "{err}");
        for ok in ["0", "1000", "60000"] {
            let cli = parse(&["--client-disconnect-timeout", ok]).expect("accepted");
            assert_eq!(cli.config.client_disconnect_timeout.to_string(), ok);
        }
    }

    #[test]
    fn a_zero_stall_timeout_disables_it() {
        let cli = parse(&["--stall-timeout", "0"]).expect("accepted");
        assert_eq!(cli.config.stall_timeout(), None);
        assert!(parse(&["--stall-timeout", "3601"]).is_err());
    }

    #[test]
    fn zero_max_connections_are_rejected() {
        assert!(parse(&["--max-connections", "0"]).is_err());
    }
}
