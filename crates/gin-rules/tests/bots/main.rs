//! The bots, black-box: every move listed and legal (`legal`), every move a
//! function of the seat's view (`information`), a held view equal to the
//! view built again at every decision (`held`), and `simple` checked against
//! an independent reading of its policy (`simple_policy`).
//!
//! The modules are `cfg(test)` so that their helpers, like the tests, may
//! panic: a failed unwrap is how a test reports a failure.

#[cfg(test)]
mod common;
#[cfg(test)]
mod held;
#[cfg(test)]
mod information;
#[cfg(test)]
mod legal;
#[cfg(test)]
mod simple_policy;
