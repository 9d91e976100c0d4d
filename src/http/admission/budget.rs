//! One memory budget for the whole process (`--memory-budget`).
//!
//! Each request's cost is bounded by its limits; this bounds the sum. Every
//! piece of memory a request holds *across an await* (while the client sends
//! or reads) is reserved here before it is taken, from one pool shared by every
//! connection and worker:
//!
//! | what                                   | reserved                                              | until                          |
//! |----------------------------------------|-------------------------------------------------------|--------------------------------|
//! | a JSON body (`ValidJson`)              | its declared length, or its limit if undeclared        | the handler has answered       |
//! | the JSON answer of that request        | its serialised size (the body's share given back)       | the answer is written          |
//! | a JSON-array batch                     | its body (declared, or the limit) + [`STREAM_STATE`]    | its last answer is written     |
//! | an NDJSON batch                        | one line + [`STREAM_STATE`] + the spool's memory part   | its last answer is written     |
//!
//! What is *not* reserved is what lives only inside one synchronous stretch
//! of a worker (the parsed form of a body, an answer being built, one bulk
//! item and its answer): a worker runs one such stretch at a time, so all of
//! them together are bounded by the number of workers, whatever the number of
//! connections. That, the threads, the allocator and the buffers of each
//! connection are the process's *base*, measured in docs/DEPLOY.md.
//!
//! A reservation is taken before the first byte of the body is read. If the
//! budget has no room, the request reads nothing more and waits for room for
//! at most `--memory-wait-ms`, first come first served (so a large body is not
//! starved by small ones); then it is refused whole with 503 `overloaded` and
//! `Retry-After`. A declared length that could never fit (more than the whole
//! budget) is refused at once with 413 `payload_too_large`. The refusal
//! happens before any of the body is kept, so a refused request costs no body
//! memory: its answer is written, then its body is read and dropped as it
//! comes, within its limit and the body timeout, so that a client sending the
//! whole body before it reads gets the answer rather than a reset
//! ([`super::drain`]); then the connection closes.
//!
//! A JSON answer is built before its size is known: if it is larger than the
//! reservation and the budget has no room for the difference *at once*, it is
//! dropped and the request answered `overloaded` instead (never waited for
//! while held, so the answer cannot pass the budget while it waits).

use std::num::NonZeroU32;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::body::{BodySize, BoxBody, EitherBody, MessageBody};
use actix_web::dev::ServiceResponse;
use actix_web::web::Bytes;
use actix_web::{HttpMessage, HttpRequest, web};
use clap::Args;
use prometheus::core::{Collector, Desc};
use prometheus::proto::MetricFamily;
use prometheus::{IntCounter, IntGauge, Opts};
use tokio::sync::Semaphore;

use crate::http::problem::{ErrorCode, Problem, ProblemResponse};
use crate::monitoring::metrics::Metrics;

/// `--memory-budget`'s default: 256 MiB.
pub const DEFAULT_BUDGET: usize = 256 * 1024 * 1024;
/// The smallest budget accepted (1 MiB): below it not even one default body fits.
pub const MIN_BUDGET: usize = 1024 * 1024;
/// The largest budget accepted (1 TiB).
pub const MAX_BUDGET: usize = 1 << 40;
/// `--memory-wait-ms`'s default: how long a request waits for room.
pub const DEFAULT_WAIT_MS: u64 = 1000;
/// What a bulk answer stream holds besides its body: the chunk of answers
/// being written and the one handed to actix (32 KiB and one answer each).
pub const STREAM_STATE: usize = 2 * (32 * 1024 + 4096);
/// `Retry-After` of an `overloaded` answer, one second: requests in flight
/// are answered in milliseconds, so room is likely within a second.
const RETRY_AFTER: NonZeroU32 = NonZeroU32::MIN;

/// The budget's flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Args)]
pub struct BudgetSettings {
    /// Most bytes that request bodies held whole, answers not yet written and
    /// the bulk spool's memory may take together, across every connection
    /// (1048576 to 1099511627776). Size the memory limit as this plus the
    /// process's base (docs/DEPLOY.md).
    #[arg(id = "memory_budget", long = "memory-budget", env = "GIN_REFEREE_MEMORY_BUDGET", value_name = "BYTES",
          default_value_t = DEFAULT_BUDGET, value_parser = parse_budget)]
    pub bytes: usize,
    /// Milliseconds a request waits for room in the memory budget before it is
    /// refused with 503 `overloaded` (0 to 30000).
    #[arg(id = "memory_wait_ms", long = "memory-wait-ms", env = "GIN_REFEREE_MEMORY_WAIT_MS", value_name = "MS",
          default_value_t = DEFAULT_WAIT_MS,
          value_parser = clap::value_parser!(u64).range(0..=30_000))]
    pub wait_ms: u64,
}

impl Default for BudgetSettings {
    fn default() -> Self {
        BudgetSettings {
            bytes: DEFAULT_BUDGET,
            wait_ms: DEFAULT_WAIT_MS,
        }
    }
}

fn parse_budget(value: &str) -> Result<usize, String> {
    let bytes: usize = value
        .parse()
        .map_err(|_| "expected a number of bytes".to_owned())?;
    if !(MIN_BUDGET..=MAX_BUDGET).contains(&bytes) {
        return Err(format!(
            "{bytes} is not in {MIN_BUDGET}..={MAX_BUDGET} bytes"
        ));
    }
    Ok(bytes)
}

/// The process's budget (app data, shared by every worker).
#[derive(Debug)]
pub struct MemoryBudget {
    capacity: usize,
    wait: Duration,
    /// One permit per byte free (shared with the `in_use` metric, which
    /// reads it when scraped).
    free: Arc<Semaphore>,
    waited: IntCounter,
    refused: IntCounter,
}

impl MemoryBudget {
    /// A budget of `settings`, its metrics registered with the server's.
    pub fn new(settings: &BudgetSettings, metrics: &Metrics) -> Result<Self, prometheus::Error> {
        let capacity = settings.bytes.min(Semaphore::MAX_PERMITS);
        let size = IntGauge::with_opts(Opts::new(
            "memory_budget_bytes",
            "The memory budget (--memory-budget): the most bytes request bodies, answers not yet written and the spool's memory may hold together.",
        ))?;
        size.set(i64::try_from(capacity).unwrap_or(i64::MAX));
        let free = Arc::new(Semaphore::new(capacity));
        let in_use = InUse {
            gauge: IntGauge::with_opts(Opts::new(
                "memory_budget_in_use_bytes",
                "Bytes of the memory budget reserved by requests in flight now.",
            ))?,
            capacity,
            free: free.clone(),
        };
        let waited = IntCounter::with_opts(Opts::new(
            "memory_budget_waited_total",
            "Requests that found the memory budget full and waited for room.",
        ))?;
        let refused = IntCounter::with_opts(Opts::new(
            "memory_budget_refused_total",
            "Requests refused for the memory budget: 503 overloaded after waiting, or an answer with no room.",
        ))?;
        metrics.register(Box::new(size))?;
        metrics.register(Box::new(in_use))?;
        for metric in [&waited, &refused] {
            metrics.register(Box::new(metric.clone()))?;
        }
        Ok(MemoryBudget {
            capacity,
            wait: Duration::from_millis(settings.wait_ms),
            free,
            waited,
            refused,
        })
    }

    /// The budget in bytes.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Bytes reserved now.
    pub fn in_use(&self) -> usize {
        self.capacity.saturating_sub(self.free.available_permits())
    }

    /// Reserves `bytes`, waiting for room up to the wait bound; `Err` is the
    /// refusal to answer (413 if it can never fit, else 503 `overloaded`).
    pub async fn reserve(self: &Arc<Self>, bytes: usize) -> Result<Reservation, Problem> {
        let permits = match u32::try_from(bytes) {
            Ok(permits) if bytes <= self.capacity => permits,
            _ => return Err(self.never_fits(bytes)),
        };
        // The permits are taken out of the semaphore (`forget`) and given
        // back by the reservation's drop: no permit object, and no second
        // `Arc` besides the reservation's own.
        if let Ok(permit) = self.free.try_acquire_many(permits) {
            permit.forget();
            return Ok(self.granted(permits));
        }
        self.waited.inc();
        let waiting = self.free.acquire_many(permits);
        match actix_web::rt::time::timeout(self.wait, waiting).await {
            Ok(Ok(permit)) => {
                permit.forget();
                Ok(self.granted(permits))
            }
            // The semaphore is never closed; a timeout is the refusal.
            Ok(Err(_)) | Err(_) => Err(self.overloaded()),
        }
    }

    fn granted(self: &Arc<Self>, permits: u32) -> Reservation {
        Reservation {
            held: permits,
            budget: self.clone(),
        }
    }

    fn never_fits(&self, bytes: usize) -> Problem {
        self.refused.inc();
        Problem::new(
            ErrorCode::PayloadTooLarge,
            format!(
                "the body needs {bytes} bytes of memory, more than this server's whole memory \
                 budget of {} bytes (--memory-budget)",
                self.capacity
            ),
        )
    }

    /// 503 `overloaded`, counted.
    pub fn overloaded(&self) -> Problem {
        self.refused.inc();
        overloaded(self.wait)
    }
}

/// The refusal of a request the budget had no room for within `wait`.
pub fn overloaded(wait: Duration) -> Problem {
    Problem::new(
        ErrorCode::Overloaded,
        format!(
            "the server's memory budget is in use by other requests and had no room for this \
             one within {} ms: none of it was processed; send it again after {RETRY_AFTER} s",
            wait.as_millis()
        ),
    )
    .with_retry_after(RETRY_AFTER)
}

/// Bytes of the budget held by one request (permits taken out of its
/// semaphore); given back when dropped.
#[derive(Debug)]
pub struct Reservation {
    held: u32,
    budget: Arc<MemoryBudget>,
}

impl Reservation {
    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.held as usize
    }

    /// Holds exactly `bytes` from now on: gives back the excess, or takes the
    /// difference if the budget has room for it at once. `false` (and nothing
    /// changed) when it has not.
    pub fn resize(&mut self, bytes: usize) -> bool {
        let held = self.held as usize;
        if bytes <= held {
            self.budget.free.add_permits(held - bytes);
            self.held = bytes as u32;
            return true;
        }
        let Ok(extra) = u32::try_from(bytes - held) else {
            return false;
        };
        match self.budget.free.try_acquire_many(extra) {
            Ok(more) => {
                more.forget();
                self.held += extra;
                true
            }
            Err(_) => false,
        }
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        if self.held > 0 {
            self.budget.free.add_permits(self.held as usize);
        }
    }
}

/// `memory_budget_in_use_bytes`, read from the semaphore when scraped rather
/// than kept up to date by every reservation.
struct InUse {
    gauge: IntGauge,
    capacity: usize,
    free: Arc<Semaphore>,
}

impl Collector for InUse {
    fn desc(&self) -> Vec<&Desc> {
        self.gauge.desc()
    }

    fn collect(&self) -> Vec<MetricFamily> {
        let in_use = self.capacity.saturating_sub(self.free.available_permits());
        self.gauge.set(i64::try_from(in_use).unwrap_or(i64::MAX));
        self.gauge.collect()
    }
}

/// The server's budget (none registered: an app without one, such as a
/// test's, reserves nothing).
pub fn of(request: &HttpRequest) -> Option<Arc<MemoryBudget>> {
    request
        .app_data::<web::Data<MemoryBudget>>()
        .map(|budget| budget.clone().into_inner())
}

/// Reserves `bytes` in `budget`, if there is one.
pub async fn reserve(
    budget: Option<Arc<MemoryBudget>>,
    bytes: usize,
) -> Result<Option<Reservation>, Problem> {
    match budget {
        Some(budget) => budget.reserve(bytes).await.map(Some),
        None => Ok(None),
    }
}

/// Keeps a JSON body's reservation with its request, for [`hold_answer`].
pub fn keep_with_request(request: &HttpRequest, reservation: Option<Reservation>) {
    if let Some(reservation) = reservation {
        request.extensions_mut().insert(reservation);
    }
}

/// Moves a request's reservation (taken by the JSON extractor) to its answer:
/// resized to the answer's bytes and held until they are written. An answer
/// the budget has no room for is replaced by `overloaded`.
pub fn hold_answer<B: MessageBody + Unpin + 'static>(
    response: ServiceResponse<EitherBody<B>>,
) -> ServiceResponse<EitherBody<B>> {
    let Some(mut reservation) = response.request().extensions_mut().remove::<Reservation>() else {
        return response;
    };
    let answer = match response.response().body().size() {
        BodySize::Sized(bytes) => usize::try_from(bytes).unwrap_or(usize::MAX),
        BodySize::None => 0,
        // Not a JSON answer of known size: keep what the body took.
        BodySize::Stream => reservation.bytes(),
    };
    if !reservation.resize(answer) {
        let problem = reservation.budget.overloaded();
        let (request, _) = response.into_parts();
        return ServiceResponse::new(request, problem.to_response()).map_into_right_body();
    }
    response.map_body(|_, body| {
        EitherBody::right(BoxBody::new(Held {
            body,
            _reservation: reservation,
        }))
    })
}

/// An answer body holding its reservation until it is written (or dropped).
struct Held<B> {
    body: B,
    _reservation: Reservation,
}

impl<B: MessageBody + Unpin> MessageBody for Held<B> {
    type Error = B::Error;

    fn size(&self) -> BodySize {
        self.body.size()
    }

    fn poll_next(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Bytes, Self::Error>>> {
        Pin::new(&mut self.body).poll_next(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(bytes: usize, wait_ms: u64) -> (Arc<MemoryBudget>, Metrics) {
        let metrics = Metrics::new().expect("metrics");
        let settings = BudgetSettings { bytes, wait_ms };
        let budget = MemoryBudget::new(&settings, &metrics).expect("budget");
        (Arc::new(budget), metrics)
    }

    #[actix_web::test]
    async fn reservations_share_the_budget_and_give_it_back_when_dropped() {
        let (budget, metrics) = budget(MIN_BUDGET, 0);
        let first = budget.reserve(MIN_BUDGET / 2).await.expect("fits");
        let second = budget.reserve(MIN_BUDGET / 2).await.expect("fits");
        assert_eq!(budget.in_use(), MIN_BUDGET);
        // The metric reads the semaphore when scraped.
        let scraped = metrics.render().expect("rendered");
        assert!(
            scraped.contains(&format!("\nmemory_budget_in_use_bytes {MIN_BUDGET}\n")),
            "{scraped}"
        );
        let refused = budget.reserve(1).await.expect_err("full");
        assert_eq!(refused.code, ErrorCode::Overloaded);
        assert_eq!(refused.retry_after, Some(RETRY_AFTER));
        drop(first);
        assert_eq!(budget.in_use(), MIN_BUDGET / 2);
        let third = budget.reserve(MIN_BUDGET / 2).await.expect("room again");
        drop((second, third));
        assert_eq!(budget.in_use(), 0);
        assert_eq!((budget.waited.get(), budget.refused.get()), (1, 1));
    }

    #[actix_web::test]
    async fn a_request_waits_for_room_up_to_the_bound() {
        let (budget, _metrics) = budget(MIN_BUDGET, 2000);
        let held = budget.reserve(MIN_BUDGET).await.expect("fits");
        let waiting = {
            let budget = budget.clone();
            actix_web::rt::spawn(async move { budget.reserve(MIN_BUDGET).await.map(|r| r.bytes()) })
        };
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
        drop(held);
        let granted = waiting
            .await
            .expect("joined")
            .expect("room came within the wait");
        assert_eq!(granted, MIN_BUDGET);
        assert_eq!(budget.waited.get(), 1);
        assert_eq!(budget.refused.get(), 0);
    }

    #[actix_web::test]
    async fn more_than_the_whole_budget_is_413_at_once() {
        let (budget, _metrics) = budget(MIN_BUDGET, 30_000);
        let refused = budget
            .reserve(MIN_BUDGET + 1)
            .await
            .expect_err("never fits");
        assert_eq!(refused.code, ErrorCode::PayloadTooLarge);
        assert!(
            refused.detail.contains("--memory-budget"),
            "{}",
            refused.detail
        );
        assert_eq!(budget.waited.get(), 0);
    }

    #[actix_web::test]
    async fn a_reservation_resizes_to_its_answer_only_with_room_at_once() {
        let (budget, _metrics) = budget(MIN_BUDGET, 0);
        let mut reservation = budget.reserve(1000).await.expect("fits");
        assert!(reservation.resize(10));
        assert_eq!((reservation.bytes(), budget.in_use()), (10, 10));
        assert!(reservation.resize(MIN_BUDGET));
        assert_eq!(budget.in_use(), MIN_BUDGET);
        let other = budget.reserve(0).await.expect("nothing to reserve");
        assert!(reservation.resize(100));
        let _taken = budget.reserve(MIN_BUDGET - 100).await.expect("the rest");
        assert!(!reservation.resize(101), "no room for one more byte");
        assert_eq!(reservation.bytes(), 100);
        drop((reservation, other));
        assert_eq!(budget.in_use(), MIN_BUDGET - 100);
    }

    #[test]
    fn the_budget_flag_takes_bytes_within_its_range() {
        assert_eq!(parse_budget("1048576"), Ok(MIN_BUDGET));
        assert!(parse_budget("1048575").is_err());
        assert!(parse_budget("256MiB").is_err());
    }
}
