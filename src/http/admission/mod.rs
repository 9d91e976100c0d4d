//! Admission: what a request must pass, and what it may hold, before its
//! body is read or its answer is written.
//!
//! - [`auth`]: who may call (API keys, scopes, rates), checked before a
//!   body is read;
//! - [`budget`]: the one memory budget that bodies, answers not yet
//!   written and the spool's memory share, across every connection;
//! - [`limits`]: the ceilings on a request's lists and strings, and on a
//!   batch (as flags and in the served document);
//! - [`drain`]: how a body refused before it was read to its end is
//!   answered (the answer, then the rest read and dropped, or the
//!   connection closed).
//!
//! Nothing here reads a body or answers an operation; it imports only
//! [`super::problem`] and the process's metrics.

pub mod auth;
pub mod budget;
pub mod drain;
pub mod limits;
