//! Black-box tests of the HTTP service: the real server on a free port, spoken
//! to over a socket. One test binary (submodules below) so it links once.

// Test code throughout: a failed unwrap, expect or index, or a panic, is how a
// test reports a failure. clippy.toml allows these inside `#[test]` functions;
// the helpers and fixtures outside them are test code as well.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod arena;
mod batch;
mod bulk;
mod cli;
mod cost;
mod fuzz;
mod keys;
mod memory;
mod readme;
mod resources;
mod shutdown;
mod support;
mod transport;
