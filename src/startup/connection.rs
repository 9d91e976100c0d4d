//! Every accepted connection, guarded.
//!
//! actix-http bounds the head of a connection's *first* request
//! (`--client-request-timeout`) and idle time between requests
//! (`--keep-alive`), but nothing else: once a byte of a later request has
//! arrived, or after it has answered a request whose chunked body is still
//! coming, it waits for the client for ever. A client sending one byte now
//! and then held a connection (a file descriptor and a slot under
//! `--max-connections`) as long as it liked.
//!
//! [`Guarded`] wraps the socket and bounds all of these at once with one rule:
//! **once a client has sent something, the server must write within
//! `--stall-timeout`; once the server is writing, the client must take it
//! within `--stall-timeout`, or keep sending.** The clock starts at the first byte received
//! since the last write (at the accept, for a new connection) or at the last
//! write that made progress while one is blocked. Every legitimate exchange
//! writes well within that (see [`DEFAULT_STALL_TIMEOUT_SECS`]); a stalled or
//! dribbled head on any request, a body still arriving after its answer, or a
//! client that stops reading its answer all end with the socket closed. An
//! idle keep-alive connection (nothing received since the last answer) is left
//! to `--keep-alive`, which may be longer (behind a load balancer it should
//! be).
//!
//! **Under pressure the slowest go first.** When a worker holds
//! [`SHED_AT_PERCENT`] of its connection cap, and for [`PRESSURE_LINGERS`]
//! after, a connection that has been waiting for its client for
//! [`SHED_AFTER`] is cut: a flood of stalled connections then holds each slot
//! a second or two, not the stall timeout, and new clients (a health probe)
//! get a slot within a round or two instead of waiting in the backlog for the
//! timeouts. (Pressure lingers because shedding one connection takes the
//! worker under the mark while the backlog still waits: without it, a worker
//! would shed a few connections a second.) A request of this service is
//! answered in milliseconds once it has arrived, so only clients that are
//! slow to send or to read are cut. (The guard sees bytes, not requests: it
//! cannot tell a slow client from a slow handler. An endpoint that may take
//! longer than a second to answer must write as it goes, or it risks being
//! shed near the cap, and cut after the stall timeout.)
//!
//! The checks cost two clock reads per request and one timer per connection
//! that fires once a second (re-armed in place, never per request).
//!
//! It also gives actix-http's own refusals a body. actix-http answers a request
//! it cannot parse (400), a head over 128 KiB or 96 fields (431) and a first
//! head that does not arrive in time (408) itself, with an empty body and no
//! hook to change it. When such an answer is the first thing written on a
//! connection (where every such refusal of a new connection is: nothing else
//! can precede it), [`Guarded`] writes a problem+json answer with the same
//! status in its place. A malformed request later on a keep-alive connection
//! still gets actix-http's empty answer: there, the guard cannot tell an
//! answer's start from the middle of the previous one.
//!
//! Finally, [`GuardedConnections`] sees how each connection ended, and counts
//! and logs the client's faults (`http_malformed_requests_total`,
//! `http_connections_cut_total`, the `gin_referee::connection` log target)
//! with at most [`LOG_LINES_PER_SECOND`] lines a second, however many clients
//! misbehave. actix-http's own ERROR line per malformed request is turned off
//! in the default log filter ([`crate::monitoring::telemetry::filter`]).
//!
//! [`DEFAULT_STALL_TIMEOUT_SECS`]: crate::config::DEFAULT_STALL_TIMEOUT_SECS

use std::cell::Cell;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use actix_http::error::{DispatchError, ParseError};
use actix_service::{Service, ServiceFactory};
use actix_web::http::StatusCode;
use actix_web::rt::net::TcpStream;
use actix_web::rt::time::{Instant, Sleep, sleep_until};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::http::problem::{ErrorCode, PROBLEM_JSON, Problem};
use crate::monitoring::metrics::{Fault, Metrics};

/// Log target of the lines about connections (not requests) that went wrong.
pub const CONNECTION_LOG: &str = "gin_referee::connection";

/// At most this many connection warnings are logged a second; the next line
/// after a quiet second says how many were left out.
pub const LOG_LINES_PER_SECOND: u32 = 10;

/// A worker holding this share of its connection cap is under pressure...
pub const SHED_AT_PERCENT: usize = 90;
/// ...and then, and for this long after, ...
pub const PRESSURE_LINGERS: Duration = Duration::from_secs(2);
/// ...cuts a connection that has waited this long for its client.
pub const SHED_AFTER: Duration = Duration::from_secs(1);
/// How often a connection looks at its deadlines and the worker's pressure.
const CHECK_EVERY: Duration = Duration::from_secs(1);

thread_local! {
    /// Guarded connections open on this worker (a worker is one thread, and a
    /// connection lives on the worker that accepted it).
    static OPEN_ON_THIS_WORKER: Cell<usize> = const { Cell::new(0) };
    /// When this worker was last seen at its shedding mark.
    static PRESSURE_SEEN: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// One open connection on this worker, for as long as it lives.
struct OpenConnection;

impl OpenConnection {
    fn new() -> Self {
        OPEN_ON_THIS_WORKER.with(|open| open.set(open.get() + 1));
        OpenConnection
    }

    fn count() -> usize {
        OPEN_ON_THIS_WORKER.with(Cell::get)
    }

    /// Whether this worker is at `shed_at` connections, or was lately.
    fn under_pressure(shed_at: usize, now: Instant) -> bool {
        if Self::count() >= shed_at {
            PRESSURE_SEEN.with(|seen| seen.set(Some(now)));
            return true;
        }
        PRESSURE_SEEN
            .with(Cell::get)
            .is_some_and(|seen| now.saturating_duration_since(seen) < PRESSURE_LINGERS)
    }
}

impl Drop for OpenConnection {
    fn drop(&mut self) {
        OPEN_ON_THIS_WORKER.with(|open| open.set(open.get().saturating_sub(1)));
    }
}

/// What every guarded connection of a server is held to.
#[derive(Debug, Clone, Copy)]
pub struct GuardSettings {
    /// Longest wait for the client (`None`: no limit, and no shedding).
    pub stall_timeout: Option<Duration>,
    /// Connections on one worker from which slow ones are shed.
    pub shed_at: usize,
    /// actix-http's first-head timeout, for the text of its 408.
    pub client_request_timeout: Duration,
}

/// A socket whose client may keep the server waiting at most the stall
/// timeout (a second, near the connection cap).
pub struct Guarded {
    io: TcpStream,
    /// When the connection was accepted or last written to.
    last_write: Instant,
    /// When the first byte since the last write came in (the accept, for a
    /// new connection); `None` while idle.
    busy_since: Option<Instant>,
    /// Whether the last write could not go out (the client is not reading).
    write_blocked: bool,
    /// Wakes the connection once a second to look at its deadlines; re-armed
    /// in place when it fires, never per request.
    timer: Option<Pin<Box<Sleep>>>,
    wrote: bool,
    /// The problem+json answer written in place of actix-http's bare refusal,
    /// and how much of it is written.
    replacement: Option<(Vec<u8>, usize)>,
    settings: GuardSettings,
    peer: Option<SocketAddr>,
    faults: Arc<Faults>,
    _open: OpenConnection,
}

impl GuardSettings {
    /// `shed_at` for a worker cap of `per_worker` connections.
    pub fn shed_at(per_worker: usize) -> usize {
        (per_worker * SHED_AT_PERCENT / 100).max(1)
    }
}

/// The error a stalled connection ends with.
#[derive(Debug, thiserror::Error)]
pub enum Stalled {
    #[error("the client kept the server waiting for {0:?}")]
    TimedOut(Duration),
    #[error(
        "the client kept the server waiting for {0:?} while the worker was near its connection cap"
    )]
    Shed(Duration),
}

impl Stalled {
    fn into_error(self) -> io::Error {
        io::Error::new(io::ErrorKind::TimedOut, self)
    }
}

impl Guarded {
    fn new(
        io: TcpStream,
        settings: GuardSettings,
        peer: Option<SocketAddr>,
        faults: Arc<Faults>,
    ) -> Self {
        let accepted = Instant::now();
        let open = OpenConnection::new();
        // Noted at the accept, so that the connections already waiting are
        // shed at their next look, before this one has waited a second.
        OpenConnection::under_pressure(settings.shed_at, accepted);
        Guarded {
            io,
            last_write: accepted,
            busy_since: Some(accepted),
            write_blocked: false,
            timer: None,
            wrote: false,
            replacement: None,
            settings,
            peer,
            faults,
            _open: open,
        }
    }

    /// Since when the connection has been waiting for its client (`None`:
    /// idle, nothing owed either way).
    fn waiting_since(&self) -> Option<Instant> {
        match self.write_blocked {
            true => Some(self.last_write),
            false => self.busy_since,
        }
    }

    /// Why the connection must end now, if it must.
    fn stalled(&self, limit: Duration, now: Instant) -> Option<Stalled> {
        let waited = now.saturating_duration_since(self.waiting_since()?);
        if waited >= limit {
            return Some(Stalled::TimedOut(limit));
        }
        let shed =
            waited >= SHED_AFTER && OpenConnection::under_pressure(self.settings.shed_at, now);
        shed.then_some(Stalled::Shed(SHED_AFTER))
    }

    /// `Ready` with the error to end the connection with once it has stalled;
    /// otherwise `Pending`, with the timer set to look again within a second.
    fn poll_stall(&mut self, cx: &mut Context<'_>) -> Poll<io::Error> {
        let Some(limit) = self.settings.stall_timeout else {
            return Poll::Pending;
        };
        let timer = self
            .timer
            .get_or_insert_with(|| Box::pin(sleep_until(Instant::now() + CHECK_EVERY)));
        if timer.as_mut().poll(cx).is_pending() {
            return Poll::Pending;
        }
        let now = Instant::now();
        if let Some(stalled) = self.stalled(limit, now) {
            return Poll::Ready(stalled.into_error());
        }
        // A deadline ahead, or idle: look again in a second (`--keep-alive`
        // ends an idle connection).
        if let Some(timer) = &mut self.timer {
            timer.as_mut().reset(now + CHECK_EVERY);
            // Registers the waker; a second away, the timer is pending.
            let _ = timer.as_mut().poll(cx);
        }
        Poll::Pending
    }

    /// Progress: a write went out.
    fn made_progress(&mut self) {
        self.wrote = true;
        self.last_write = Instant::now();
        self.busy_since = None;
        self.write_blocked = false;
    }

    /// A write could not go out: stalled unless the client takes it in time.
    fn poll_write_blocked(&mut self, cx: &mut Context<'_>) -> Poll<io::Error> {
        self.write_blocked = true;
        self.poll_stall(cx)
    }

    /// Whether the timer has fired and the connection stalled, checked before
    /// an operation that completes at once (a dribbling client always has a
    /// byte to read).
    fn stalled_now(&mut self, cx: &mut Context<'_>) -> Option<io::Error> {
        let elapsed = self.timer.as_ref().is_some_and(|timer| timer.is_elapsed());
        match elapsed {
            true => match self.poll_stall(cx) {
                Poll::Ready(err) => Some(err),
                Poll::Pending => None,
            },
            false => None,
        }
    }

    /// Writes what is left of the replacement answer.
    fn poll_write_replacement(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some((bytes, written)) = &mut self.replacement {
            let Some(rest) = bytes.get(*written..).filter(|rest| !rest.is_empty()) else {
                self.replacement = None;
                break;
            };
            match Pin::new(&mut self.io).poll_write(cx, rest) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => {
                    *written += n;
                    self.made_progress();
                }
                Poll::Ready(Err(err)) => return Poll::Ready(Err(err)),
                Poll::Pending => {
                    return match self.poll_write_blocked(cx) {
                        Poll::Ready(err) => Poll::Ready(Err(err)),
                        Poll::Pending => Poll::Pending,
                    };
                }
            }
        }
        Poll::Ready(Ok(()))
    }
}

impl AsyncRead for Guarded {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if let Some(err) = this.stalled_now(cx) {
            return Poll::Ready(Err(err));
        }
        let before = buf.filled().len();
        match Pin::new(&mut this.io).poll_read(cx, buf) {
            Poll::Pending => match this.poll_stall(cx) {
                Poll::Ready(err) => Poll::Ready(Err(err)),
                Poll::Pending => Poll::Pending,
            },
            Poll::Ready(Ok(())) => {
                if this.busy_since.is_none() && buf.filled().len() > before {
                    // A new request (or more of an answered body) begins.
                    this.busy_since = Some(Instant::now());
                }
                if this.write_blocked && buf.filled().len() > before {
                    // A client that sends its whole batch before it reads
                    // (urllib, requests) makes progress while its answers
                    // wait (the batch spool, `crate::api::spool`); one that
                    // neither sends nor reads is still cut.
                    this.last_write = Instant::now();
                }
                Poll::Ready(Ok(()))
            }
            err => err,
        }
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if let Some(err) = this.stalled_now(cx) {
            return Poll::Ready(Err(err));
        }
        if this.replacement.is_some() {
            // Nothing follows a refusal, but if it did it must come after it.
            if let Poll::Ready(Err(err)) = this.poll_write_replacement(cx) {
                return Poll::Ready(Err(err));
            }
            if this.replacement.is_some() {
                return Poll::Pending;
            }
        }
        if !this.wrote
            && let Some(refusal) = BareRefusal::recognise(buf)
        {
            this.made_progress();
            if refusal.status == StatusCode::REQUEST_TIMEOUT {
                // The only trace of actix-http's head timeout: it ends the
                // connection without an error.
                this.faults.report(
                    Fault::RequestHeadTimeout,
                    this.peer,
                    "no request head in time",
                );
            }
            let answer = refusal.problem_answer(buf, this.settings.client_request_timeout);
            this.replacement = Some((answer, 0));
            // The bytes actix-http gave are accounted for: what it asked to
            // write is written, in another form.
            return match this.poll_write_replacement(cx) {
                Poll::Ready(Err(err)) => Poll::Ready(Err(err)),
                _ => Poll::Ready(Ok(buf.len())),
            };
        }
        match Pin::new(&mut this.io).poll_write(cx, buf) {
            Poll::Ready(Ok(n)) => {
                if n > 0 {
                    this.made_progress();
                }
                Poll::Ready(Ok(n))
            }
            Poll::Pending => match this.poll_write_blocked(cx) {
                Poll::Ready(err) => Poll::Ready(Err(err)),
                Poll::Pending => Poll::Pending,
            },
            err => err,
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.replacement.is_some() {
            match this.poll_write_replacement(cx) {
                Poll::Ready(Ok(())) => {}
                other => return other,
            }
        }
        match Pin::new(&mut this.io).poll_flush(cx) {
            Poll::Pending => match this.poll_write_blocked(cx) {
                Poll::Ready(err) => Poll::Ready(Err(err)),
                Poll::Pending => Poll::Pending,
            },
            ready => ready,
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.replacement.is_some() {
            match this.poll_write_replacement(cx) {
                Poll::Ready(Ok(())) => {}
                other => return other,
            }
        }
        match Pin::new(&mut this.io).poll_shutdown(cx) {
            Poll::Pending => match this.poll_write_blocked(cx) {
                Poll::Ready(err) => Poll::Ready(Err(err)),
                Poll::Pending => Poll::Pending,
            },
            ready => ready,
        }
    }
}

/// One of actix-http's empty-bodied refusals, as it writes them: the whole
/// write is one head with `content-length: 0`.
struct BareRefusal {
    status: StatusCode,
}

impl BareRefusal {
    fn recognise(written: &[u8]) -> Option<Self> {
        let status = match written.get(..13)? {
            b"HTTP/1.1 400 " | b"HTTP/1.0 400 " => StatusCode::BAD_REQUEST,
            b"HTTP/1.1 431 " | b"HTTP/1.0 431 " => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            b"HTTP/1.1 408 " | b"HTTP/1.0 408 " => StatusCode::REQUEST_TIMEOUT,
            _ => return None,
        };
        let head_end = written.windows(4).position(|w| w == b"\r\n\r\n")?;
        let empty = written
            .split(|&b| b == b'\n')
            .any(|line| line.eq_ignore_ascii_case(b"content-length: 0\r"));
        (head_end + 4 == written.len() && empty).then_some(BareRefusal { status })
    }

    /// The same answer with a problem+json body: actix-http's status line and
    /// `date`, then the body's headers.
    fn problem_answer(&self, bare: &[u8], head_timeout: Duration) -> Vec<u8> {
        let problem = match self.status {
            StatusCode::BAD_REQUEST => Problem::new(
                ErrorCode::MalformedRequest,
                "the request is not valid HTTP/1.1: its request line, a header or its \
                 framing (Content-Length, Transfer-Encoding) could not be read",
            ),
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => Problem::new(
                ErrorCode::RequestHeadTooLarge,
                "the request head is over 128 KiB or has more than 96 header fields",
            ),
            _ => Problem::new(
                ErrorCode::RequestTimeout,
                format!(
                    "the request head did not arrive within {} ms",
                    head_timeout.as_millis()
                ),
            ),
        };
        let body = problem.body();
        let mut answer = Vec::with_capacity(bare.len() + body.len() + 160);
        for line in bare.split_inclusive(|&b| b == b'\n') {
            let name = line.split(|&b| b == b':').next().unwrap_or_default();
            let dropped = [&b"content-length"[..], b"connection", b"\r\n"]
                .iter()
                .any(|drop| name.eq_ignore_ascii_case(drop));
            if !dropped {
                answer.extend_from_slice(line);
            }
        }
        answer.extend_from_slice(
            format!(
                "content-type: {PROBLEM_JSON}\r\nx-content-type-options: nosniff\r\n\
                 connection: close\r\ncontent-length: {}\r\n\r\n",
                body.len()
            )
            .as_bytes(),
        );
        answer.extend_from_slice(&body);
        answer
    }
}

/// Counts client faults and logs them, within [`LOG_LINES_PER_SECOND`].
pub struct Faults {
    metrics: Arc<Metrics>,
    log_budget: Mutex<LogBudget>,
}

struct LogBudget {
    window: Instant,
    logged: u32,
    suppressed: u64,
}

impl Faults {
    pub fn new(metrics: Arc<Metrics>) -> Self {
        Faults {
            metrics,
            log_budget: Mutex::new(LogBudget {
                window: Instant::now(),
                logged: 0,
                suppressed: 0,
            }),
        }
    }

    pub fn report(&self, fault: Fault, peer: Option<SocketAddr>, cause: &str) {
        self.metrics.count_fault(fault);
        let Some(suppressed) = self.may_log() else {
            return;
        };
        let peer = peer.map_or_else(|| "unknown".to_owned(), |peer| peer.to_string());
        tracing::warn!(
            target: CONNECTION_LOG,
            reason = fault.label(),
            peer,
            cause,
            suppressed,
            "connection ended by a client fault"
        );
    }

    /// `Some(lines left out since the last one logged)` when a line may be
    /// logged now.
    fn may_log(&self) -> Option<u64> {
        // A poisoned lock only means a panic elsewhere while logging: the
        // budget is still a pair of counters.
        let mut budget = self
            .log_budget
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let now = Instant::now();
        if now.duration_since(budget.window) >= Duration::from_secs(1) {
            budget.window = now;
            budget.logged = 0;
        }
        if budget.logged >= LOG_LINES_PER_SECOND {
            budget.suppressed += 1;
            return None;
        }
        budget.logged += 1;
        Some(std::mem::take(&mut budget.suppressed))
    }

    /// How a connection ended, when it ended with an error.
    fn connection_failed(&self, err: &DispatchError, peer: Option<SocketAddr>) {
        match err {
            DispatchError::Parse(ParseError::TooLarge) => {
                self.report(Fault::RequestHeadTooLarge, peer, &err.to_string());
            }
            DispatchError::Parse(ParseError::Io(_)) | DispatchError::Io(_)
                if stalled(err).is_none() =>
            {
                // The client went away or reset the connection: its business.
                tracing::debug!(target: CONNECTION_LOG, error = %err, "connection lost");
            }
            DispatchError::Parse(_) => {
                self.report(Fault::MalformedRequest, peer, &err.to_string());
            }
            DispatchError::Io(_) => {
                let fault = match stalled(err) {
                    Some(Stalled::Shed(_)) => Fault::Shed,
                    _ => Fault::Stalled,
                };
                self.report(fault, peer, &err.to_string());
            }
            DispatchError::DisconnectTimeout => {
                tracing::debug!(target: CONNECTION_LOG, error = %err, "client slow to disconnect");
            }
            _ => tracing::error!(target: CONNECTION_LOG, error = %err, "connection failed"),
        }
    }
}

fn stalled(err: &DispatchError) -> Option<&Stalled> {
    match err {
        DispatchError::Io(err) => err.get_ref()?.downcast_ref::<Stalled>(),
        _ => None,
    }
}

/// The per-worker service factory: accepts a socket, guards it, and hands it
/// to actix-http's HTTP/1 service `H1`.
pub struct GuardedConnections<H1> {
    h1: H1,
    settings: GuardSettings,
    faults: Arc<Faults>,
}

impl<H1> GuardedConnections<H1> {
    pub fn new(h1: H1, settings: GuardSettings, faults: Arc<Faults>) -> Self {
        GuardedConnections {
            h1,
            settings,
            faults,
        }
    }
}

type Boxed<T> = Pin<Box<dyn Future<Output = T>>>;

impl<H1> ServiceFactory<TcpStream> for GuardedConnections<H1>
where
    H1: ServiceFactory<
            (Guarded, Option<SocketAddr>),
            Config = (),
            Response = (),
            Error = DispatchError,
        >,
    H1::Service: 'static,
    H1::Future: 'static,
{
    type Response = ();
    type Error = ();
    type Config = ();
    type Service = GuardedConnection<H1::Service>;
    type InitError = H1::InitError;
    type Future = Boxed<Result<Self::Service, Self::InitError>>;

    fn new_service(&self, (): ()) -> Self::Future {
        let h1 = self.h1.new_service(());
        let (settings, faults) = (self.settings, self.faults.clone());
        Box::pin(async move {
            Ok(GuardedConnection {
                h1: h1.await?,
                settings,
                faults,
            })
        })
    }
}

pub struct GuardedConnection<S> {
    h1: S,
    settings: GuardSettings,
    faults: Arc<Faults>,
}

impl<S> Service<TcpStream> for GuardedConnection<S>
where
    S: Service<(Guarded, Option<SocketAddr>), Response = (), Error = DispatchError>,
    S::Future: 'static,
{
    type Response = ();
    type Error = ();
    type Future = Boxed<Result<(), ()>>;

    fn poll_ready(&self, cx: &mut Context<'_>) -> Poll<Result<(), ()>> {
        self.h1.poll_ready(cx).map_err(|err| {
            tracing::error!(target: CONNECTION_LOG, error = %err, "HTTP service not ready");
        })
    }

    fn call(&self, io: TcpStream) -> Self::Future {
        let peer = io.peer_addr().ok();
        let guarded = Guarded::new(io, self.settings, peer, self.faults.clone());
        let connection = self.h1.call((guarded, peer));
        let faults = self.faults.clone();
        Box::pin(async move {
            if let Err(err) = connection.await {
                faults.connection_failed(&err, peer);
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BARE_400: &[u8] =
        b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\ndate: Sun, 22 Nov 2026 10:00:00 GMT\r\n\r\n";

    #[test]
    fn actix_https_bare_refusals_are_recognised_and_nothing_else() {
        let refusal = BareRefusal::recognise(BARE_400).expect("a bare 400");
        assert_eq!(refusal.status, StatusCode::BAD_REQUEST);
        let bare_431 = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n\r\n";
        assert!(BareRefusal::recognise(bare_431).is_some());
        for not_bare in [
            // An answer of the app: a body follows the head.
            &b"HTTP/1.1 400 Bad Request\r\ncontent-length: 2\r\n\r\n{}"[..],
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\nHTTP/1.1 200 OK\r\n",
            b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 10\r\n\r\n",
            b"HTTP/1.1 4",
        ] {
            assert!(
                BareRefusal::recognise(not_bare).is_none(),
                "{}",
                String::from_utf8_lossy(not_bare)
            );
        }
    }

    #[test]
    fn the_replacement_is_a_complete_problem_answer_that_closes() {
        let refusal = BareRefusal::recognise(BARE_400).expect("a bare 400");
        let answer = refusal.problem_answer(BARE_400, Duration::from_secs(5));
        let text = String::from_utf8(answer).expect("utf-8");
        let (head, body) = text.split_once("\r\n\r\n").expect("a head and a body");
        assert!(head.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{head}");
        assert!(head.contains("\r\ndate: Sun, 22 Nov 2026"), "{head}");
        assert!(
            head.contains("\r\ncontent-type: application/problem+json"),
            "{head}"
        );
        assert!(
            head.contains("\r\nx-content-type-options: nosniff"),
            "{head}"
        );
        assert_eq!(head.matches("connection: close").count(), 1, "{head}");
        assert!(
            head.contains(&format!("\r\ncontent-length: {}", body.len())),
            "{head}"
        );
        assert!(!head.contains("content-length: 0"), "{head}");
        let problem: serde_json::Value = serde_json::from_str(body).expect("json");
        assert_eq!(problem["code"], "malformed_request");
        assert_eq!(problem["status"], 400);
    }

    #[test]
    fn the_log_budget_allows_a_few_lines_a_second_and_counts_the_rest() {
        let faults = Faults::new(Arc::new(Metrics::new().expect("metrics")));
        let allowed = (0..100).filter(|_| faults.may_log().is_some()).count();
        assert_eq!(allowed, LOG_LINES_PER_SECOND as usize);
        if let Ok(mut budget) = faults.log_budget.lock() {
            budget.window -= Duration::from_secs(1);
        }
        assert_eq!(
            faults.may_log(),
            Some(100 - u64::from(LOG_LINES_PER_SECOND))
        );
    }
}
