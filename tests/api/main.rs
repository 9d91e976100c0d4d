//! Black-box tests of the HTTP service: the real server on a free port, spoken
//! to over a socket. One test binary (submodules below) so it links once.

mod audit;
mod cli;
mod cost;
mod encodings;
mod errors;
mod hostile;
mod matches;
mod openapi;
mod ops;
mod referee;
mod shutdown;
mod support;
