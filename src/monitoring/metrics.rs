//! Prometheus metrics, which the transport serves at `GET /metrics`.
//!
//! Each [`Metrics`] owns its registry (no process-wide default registry), so two
//! servers in one process, as in the tests, never share or double-register.
//!
//! Requests are labelled by `method`, `route` and `status`, where `route` is the
//! matched route *pattern* (`/v1/profiles/{name}`), never the raw path: a client
//! cannot grow the label set. Paths that match no route share the single value
//! `unmatched` (requests lost to a panic, `unknown`); methods outside the
//! standard nine share `OTHER`.
//!
//! Connections that end before a request reaches the app are counted apart,
//! by reason: `http_malformed_requests_total` (heads actix-http refused) and
//! `http_connections_cut_total` (clients too slow: see
//! [`crate::startup::connection`], which reports them as a [`Fault`]). Every reason is exported from the start,
//! at zero.

use actix_web::http::{Method, StatusCode};
use prometheus::process_collector::ProcessCollector;
use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntCounterVec, Opts, Registry, TextEncoder,
};

use gin_contract::problem::ErrorCode;

/// Route label of requests that matched no route.
pub const UNMATCHED: &str = "unmatched";
/// Route label of requests lost to a panic or a middleware error, whose matched
/// route can no longer be read (they always answer 500).
pub const UNKNOWN_ROUTE: &str = "unknown";

/// A client fault that ended a connection before any request reached the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Not HTTP/1.1 (400).
    MalformedRequest,
    /// A head over 128 KiB or 96 fields (431).
    RequestHeadTooLarge,
    /// No first request head within `--client-request-timeout` (408).
    RequestHeadTimeout,
    /// No progress for `--stall-timeout`: cut off.
    Stalled,
    /// Waiting for its client for
    /// [`SHED_AFTER`](crate::startup::connection::SHED_AFTER) while the worker
    /// was near its connection cap: cut off.
    Shed,
}

impl Fault {
    /// The `reason` label, which is also the problem code of the answer.
    pub fn label(self) -> &'static str {
        match self {
            Fault::MalformedRequest => ErrorCode::MalformedRequest.as_str(),
            Fault::RequestHeadTooLarge => ErrorCode::RequestHeadTooLarge.as_str(),
            Fault::RequestHeadTimeout => "request_head_timeout",
            Fault::Stalled => "stalled",
            Fault::Shed => "shed",
        }
    }
}

/// Latency buckets in seconds, from 50 µs: the referee answers most requests in
/// well under a millisecond, and a histogram starting at 5 ms (Prometheus'
/// default) would put every request in its first bucket.
const LATENCY_BUCKETS: &[f64] = &[
    0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
    1.0, 2.5,
];

/// The server's metrics: HTTP request counters and latencies, plus the process
/// collector (CPU, memory, open file descriptors, threads).
pub struct Metrics {
    registry: Registry,
    requests: IntCounterVec,
    latency: HistogramVec,
    malformed: IntCounterVec,
    cut: IntCounterVec,
    batch_items: IntCounterVec,
    problems: IntCounterVec,
}

impl Metrics {
    pub fn new() -> Result<Self, prometheus::Error> {
        let registry = Registry::new();
        let labels = ["method", "route", "status"];
        let requests = IntCounterVec::new(
            Opts::new("http_requests_total", "HTTP requests answered."),
            &labels,
        )?;
        let latency = HistogramVec::new(
            HistogramOpts::new(
                "http_request_duration_seconds",
                "Time from receiving a request to having its response ready.",
            )
            .buckets(LATENCY_BUCKETS.to_vec()),
            &labels,
        )?;
        let malformed = IntCounterVec::new(
            Opts::new(
                "http_malformed_requests_total",
                "Requests refused before reaching the app: not HTTP/1.1, or a head too large.",
            ),
            &["reason"],
        )?;
        let cut = IntCounterVec::new(
            Opts::new(
                "http_connections_cut_total",
                "Connections closed because the client was too slow: no request head in time, no progress for the stall timeout, or slow while the worker was near its connection cap.",
            ),
            &["reason"],
        )?;
        let batch_items = IntCounterVec::new(
            Opts::new(
                "batch_items_total",
                "Lines of bulk (NDJSON) requests answered, by operation and outcome (result or problem); its rate is the lines per second.",
            ),
            &["operation", "outcome"],
        )?;
        let problems = IntCounterVec::new(
            Opts::new(
                "http_problems_total",
                "Problem answers, by error code and route (the route label as in http_requests_total).",
            ),
            &["code", "route"],
        )?;
        for fault in [Fault::MalformedRequest, Fault::RequestHeadTooLarge] {
            malformed.with_label_values(&[fault.label()]);
        }
        for fault in [Fault::RequestHeadTimeout, Fault::Stalled, Fault::Shed] {
            cut.with_label_values(&[fault.label()]);
        }
        registry.register(Box::new(requests.clone()))?;
        registry.register(Box::new(latency.clone()))?;
        registry.register(Box::new(malformed.clone()))?;
        registry.register(Box::new(cut.clone()))?;
        registry.register(Box::new(batch_items.clone()))?;
        registry.register(Box::new(problems.clone()))?;
        registry.register(Box::new(ProcessCollector::for_self()))?;
        Ok(Metrics {
            registry,
            requests,
            latency,
            malformed,
            cut,
            batch_items,
            problems,
        })
    }

    /// Registers a collector kept by another module (the batch spool's).
    pub fn register(
        &self,
        collector: Box<dyn prometheus::core::Collector>,
    ) -> Result<(), prometheus::Error> {
        self.registry.register(collector)
    }

    /// Counts the lines of one batch, once it ends.
    pub fn count_batch_items(&self, operation: &str, results: u64, problems: u64) {
        for (outcome, count) in [("result", results), ("problem", problems)] {
            if let Ok(counter) = self
                .batch_items
                .get_metric_with_label_values(&[operation, outcome])
            {
                counter.inc_by(count);
            }
        }
    }

    /// Counts one problem answer. Both labels are bounded: codes come from the
    /// error table, routes are patterns.
    pub fn count_problem(&self, code: ErrorCode, route: &str) {
        if let Ok(counter) = self
            .problems
            .get_metric_with_label_values(&[code.as_str(), route])
        {
            counter.inc();
        }
    }

    /// Counts a connection that a client fault ended.
    pub fn count_fault(&self, fault: Fault) {
        let counter = match fault {
            Fault::MalformedRequest | Fault::RequestHeadTooLarge => &self.malformed,
            Fault::RequestHeadTimeout | Fault::Stalled | Fault::Shed => &self.cut,
        };
        if let Ok(counter) = counter.get_metric_with_label_values(&[fault.label()]) {
            counter.inc();
        }
    }

    /// Counts one answered request. `route` is the matched pattern or [`UNMATCHED`].
    pub fn observe(&self, method: &Method, route: &str, status: StatusCode, seconds: f64) {
        let labels = [method_label(method), route, status.as_str()];
        // The label count is fixed above, so these lookups cannot fail; a metric
        // is still not worth a panic on the request path.
        if let Ok(counter) = self.requests.get_metric_with_label_values(&labels) {
            counter.inc();
        }
        if let Ok(histogram) = self.latency.get_metric_with_label_values(&labels) {
            histogram.observe(seconds);
        }
    }

    /// The Prometheus text exposition of every metric.
    pub fn render(&self) -> Result<String, prometheus::Error> {
        let mut buffer = Vec::new();
        TextEncoder::new().encode(&self.registry.gather(), &mut buffer)?;
        String::from_utf8(buffer).map_err(|err| prometheus::Error::Msg(err.to_string()))
    }
}

/// Standard methods by name; anything else folded, since a client can send any token.
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        Method::PATCH => "PATCH",
        Method::CONNECT => "CONNECT",
        Method::TRACE => "TRACE",
        _ => "OTHER",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extension_methods_are_folded_into_one_label() {
        let custom = Method::from_bytes(b"BREW").expect("valid token");
        assert_eq!(method_label(&custom), "OTHER");
        assert_eq!(method_label(&Method::GET), "GET");
    }

    #[test]
    fn an_observed_request_appears_in_the_rendering() {
        let metrics = Metrics::new().expect("metrics register");
        metrics.observe(&Method::GET, "/healthz", StatusCode::OK, 0.000_12);
        let text = metrics.render().expect("renders");
        assert!(
            text.contains(r#"http_requests_total{method="GET",route="/healthz",status="200"} 1"#),
            "{text}"
        );
        assert!(
            text.contains("http_request_duration_seconds_bucket"),
            "{text}"
        );
        assert!(text.contains("le=\"0.00005\""), "{text}");
    }

    #[test]
    fn two_registries_do_not_share_counts() {
        let a = Metrics::new().expect("a");
        let b = Metrics::new().expect("b");
        a.observe(&Method::GET, "/healthz", StatusCode::OK, 0.001);
        assert!(!b.render().expect("renders").contains("route=\"/healthz\""));
    }

    #[test]
    fn client_faults_are_counted_by_reason_from_zero() {
        let metrics = Metrics::new().expect("metrics");
        let shows = |series: &[&str]| {
            let text = metrics.render().expect("renders");
            for line in series {
                assert!(text.contains(line), "{line} in {text}");
            }
        };
        shows(&[
            r#"http_malformed_requests_total{reason="malformed_request"} 0"#,
            r#"http_connections_cut_total{reason="stalled"} 0"#,
        ]);
        metrics.count_fault(Fault::RequestHeadTooLarge);
        metrics.count_fault(Fault::RequestHeadTimeout);
        shows(&[
            r#"http_malformed_requests_total{reason="request_head_too_large"} 1"#,
            r#"http_connections_cut_total{reason="request_head_timeout"} 1"#,
        ]);
    }

    #[test]
    fn process_metrics_are_exported() {
        let text = Metrics::new().expect("metrics").render().expect("renders");
        assert!(text.contains("process_resident_memory_bytes"), "{text}");
    }
}
