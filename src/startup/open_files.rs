//! How many connections the process can hold, from its open-file limit.
//!
//! Each connection is a file descriptor. A server that accepts more than its
//! open-file limit allows gets `EMFILE` from `accept`: actix-server then logs
//! an ERROR and stops accepting for half a second, over and over, and a new
//! client (a health probe) cannot get in for as long as the connections are
//! held. With the cap below the limit, a connection over it waits in the
//! listen backlog instead, and is accepted as soon as another one closes.

use rustix::process::{Resource, getrlimit};

/// Descriptors kept for everything that is not a client connection: standard
/// streams, the listening socket, the accept thread's poller, signal handling,
/// what `/metrics` opens under `/proc`, and a margin.
pub const RESERVED_FILES: u64 = 64;
/// ... and for each worker: its event loop's poller and waker.
pub const RESERVED_FILES_PER_WORKER: u64 = 4;

/// The connection cap of one server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionBudget {
    /// The soft limit on open files (`None`: unlimited).
    pub open_file_limit: Option<u64>,
    /// Connections each worker accepts at most.
    pub per_worker: usize,
    /// What `--max-connections` asked for, per worker.
    pub requested: usize,
}

impl ConnectionBudget {
    /// The cap for `workers` workers, from the process's current limit.
    pub fn for_this_process(requested: usize, workers: usize) -> Self {
        Self::within(getrlimit(Resource::Nofile).current, requested, workers)
    }

    /// The cap under `open_file_limit`: what `--max-connections` asks, but no
    /// more than the descriptors left after the reserve, shared by the workers.
    pub fn within(open_file_limit: Option<u64>, requested: usize, workers: usize) -> Self {
        let per_worker = match open_file_limit {
            None => requested,
            Some(limit) => {
                let workers = workers.max(1) as u64;
                let reserved = RESERVED_FILES + RESERVED_FILES_PER_WORKER * workers;
                let available = limit.saturating_sub(reserved) / workers;
                let available = usize::try_from(available).unwrap_or(usize::MAX);
                requested.min(available).max(1)
            }
        };
        ConnectionBudget {
            open_file_limit,
            per_worker,
            requested,
        }
    }

    /// Whether the open-file limit lowered `--max-connections`.
    pub fn is_lowered(&self) -> bool {
        self.per_worker < self.requested
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_leaves_the_reserve_and_is_shared_by_the_workers() {
        let budget = ConnectionBudget::within(Some(1024), 25_000, 2);
        assert_eq!(budget.per_worker, (1024 - 64 - 8) / 2);
        assert!(budget.is_lowered());
        // Every worker full, plus the reserve, is still under the limit.
        assert!(
            budget.per_worker as u64 * 2 + RESERVED_FILES + 2 * RESERVED_FILES_PER_WORKER <= 1024
        );
    }

    #[test]
    fn a_smaller_request_or_no_limit_is_kept() {
        assert_eq!(
            ConnectionBudget::within(Some(1_048_576), 25_000, 8).per_worker,
            25_000
        );
        assert_eq!(ConnectionBudget::within(None, 25_000, 2).per_worker, 25_000);
        assert!(!ConnectionBudget::within(None, 25_000, 2).is_lowered());
    }

    #[test]
    fn a_tiny_limit_still_leaves_one_connection_per_worker() {
        assert_eq!(ConnectionBudget::within(Some(16), 25_000, 4).per_worker, 1);
    }

    #[test]
    fn this_process_has_a_limit_to_read() {
        let budget = ConnectionBudget::for_this_process(25_000, 1);
        assert!(budget.per_worker >= 1);
    }
}
