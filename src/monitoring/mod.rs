//! Process-wide observability: [`metrics`] (Prometheus, `GET /metrics`) and
//! [`telemetry`] (the log subscriber and panic logging).

pub mod metrics;
pub mod telemetry;
