//! Log output: JSON lines (default) or readable text, filtered by `RUST_LOG` when
//! it is set and by `--log-level` otherwise.
//!
//! The writer is a parameter so that tests can send logs to `std::io::sink`
//! (or to a buffer they inspect) instead of the terminal.

use tracing::Subscriber;
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Registry};

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// One JSON object per line, for log collectors.
    Json,
    /// Human-readable lines, for a terminal.
    Text,
}

#[derive(Debug, thiserror::Error)]
pub enum TelemetryError {
    #[error("RUST_LOG is not a valid filter: {0}")]
    InvalidRustLog(String),
    #[error("log level is not a valid filter: {0}")]
    InvalidLevel(String),
    #[error("a global log subscriber is already installed: {0}")]
    AlreadyInstalled(#[from] tracing_subscriber::util::TryInitError),
}

/// actix-http's HTTP/1 dispatcher logs an ERROR line for every request it
/// cannot parse: a client's fault, and a lever to flood the logs with. The
/// server reports those itself, counted and rate-limited (see
/// [`crate::startup::connection`]), and also every other error the dispatcher
/// ends a connection with, so its own lines are turned off unless the filter
/// names `actix_http` itself.
const QUIET_ACTIX_DISPATCHER: &str = "actix_http::h1::dispatcher=off";

/// The filter: `RUST_LOG` wins when set and non-empty, then `level`; either
/// way with actix-http's dispatcher turned off unless it mentions `actix_http`.
pub fn filter(level: &str) -> Result<EnvFilter, TelemetryError> {
    let (directives, error): (String, fn(String) -> TelemetryError) =
        match std::env::var(EnvFilter::DEFAULT_ENV) {
            Ok(rust_log) if !rust_log.trim().is_empty() => {
                (rust_log, TelemetryError::InvalidRustLog)
            }
            _ => (level.to_owned(), TelemetryError::InvalidLevel),
        };
    let mut filter = EnvFilter::builder()
        .parse(&directives)
        .map_err(|err| error(err.to_string()))?;
    if !directives.contains("actix_http")
        && let Ok(quiet) = QUIET_ACTIX_DISPATCHER.parse()
    {
        filter = filter.add_directive(quiet);
    }
    Ok(filter)
}

/// A subscriber writing `format` lines to `sink`; `ansi` colours text lines
/// (pass whether the sink is a terminal).
///
/// JSON lines are flat: `timestamp`, `level`, `message` and the event's own
/// fields (the access line's `key`), `target`, then the fields of the
/// enclosing request span (`method`, `path`, `route`, `status`, `latency_ms`,
/// `request_id`) under `span`.
pub fn subscriber<W>(
    format: LogFormat,
    filter: EnvFilter,
    sink: W,
    ansi: bool,
) -> impl Subscriber + Send + Sync
where
    W: for<'a> MakeWriter<'a> + Send + Sync + 'static,
{
    // Both layers are optional so one concrete subscriber type serves both formats.
    let (json, text) = match format {
        LogFormat::Json => (
            Some(
                tracing_subscriber::fmt::layer()
                    .json()
                    .flatten_event(true)
                    .with_current_span(true)
                    .with_span_list(false)
                    .with_writer(sink),
            ),
            None,
        ),
        LogFormat::Text => (
            None,
            Some(
                tracing_subscriber::fmt::layer()
                    .with_ansi(ansi)
                    .with_writer(sink),
            ),
        ),
    };
    Registry::default().with(filter).with(json).with(text)
}

/// Installs `subscriber` for the whole process, also capturing the `log` records
/// that actix emits.
pub fn init(subscriber: impl Subscriber + Send + Sync + 'static) -> Result<(), TelemetryError> {
    subscriber.try_init()?;
    Ok(())
}

/// Routes panic messages through the log, so a panic is a log line in the
/// configured format rather than loose text on stderr. For the server only:
/// tests need the default hook, which shows why an assertion failed.
pub fn log_panics() {
    std::panic::set_hook(Box::new(|info| {
        let location = info
            .location()
            .map(|l| format!("{}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let payload = info.payload();
        let message = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("(non-string panic payload)");
        tracing::error!(panic = message, location, "panic");
    }));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    /// A writer that keeps what it is given, to inspect the log lines.
    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .map_err(|_| std::io::Error::other("poisoned"))?
                .extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl<'a> MakeWriter<'a> for Buffer {
        type Writer = Buffer;
        fn make_writer(&'a self) -> Buffer {
            self.clone()
        }
    }

    impl Buffer {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().map(|b| b.clone()).unwrap_or_default())
                .unwrap_or_default()
        }
    }

    fn log_one_request(format: LogFormat) -> String {
        let buffer = Buffer::default();
        let filter = EnvFilter::new("info");
        let subscriber = subscriber(format, filter, buffer.clone(), false);
        tracing::subscriber::with_default(subscriber, || {
            let span = tracing::info_span!(
                "request",
                method = "GET",
                route = "/healthz",
                status = 200,
                latency_ms = 0.25,
                request_id = "abc-123"
            );
            tracing::info!(parent: &span, "request completed");
            tracing::debug!("filtered out");
        });
        buffer.text()
    }

    #[test]
    fn json_lines_carry_the_request_span_fields() {
        let text = log_one_request(LogFormat::Json);
        let line: serde_json::Value =
            serde_json::from_str(text.trim()).expect("exactly one JSON line");
        assert_eq!(line["message"], "request completed");
        assert_eq!(line["level"], "INFO");
        assert_eq!(line["span"]["request_id"], "abc-123");
        assert_eq!(line["span"]["route"], "/healthz");
        assert_eq!(line["span"]["status"], 200);
    }

    #[test]
    fn text_lines_are_readable() {
        let text = log_one_request(LogFormat::Text);
        assert!(text.contains("request completed"), "{text}");
        assert!(text.contains("request_id=\"abc-123\""), "{text}");
        assert!(!text.contains("filtered out"), "{text}");
    }

    #[test]
    fn actix_https_per_request_errors_are_off_unless_asked_for() {
        // RUST_LOG may be set in the developer's shell; only check when it is not.
        if std::env::var_os(EnvFilter::DEFAULT_ENV).is_some() {
            return;
        }
        let quiet = filter("info").expect("valid").to_string();
        assert!(quiet.contains(QUIET_ACTIX_DISPATCHER), "{quiet}");
        let asked = filter("info,actix_http=debug").expect("valid").to_string();
        assert!(!asked.contains("=off"), "{asked}");
    }

    #[test]
    fn a_malformed_level_is_an_error() {
        // RUST_LOG may be set in the developer's shell; only check when it is not.
        if std::env::var_os(EnvFilter::DEFAULT_ENV).is_none() {
            assert!(matches!(
                filter("gin_referee=loud"),
                Err(TelemetryError::InvalidLevel(_))
            ));
        }
    }
}
