//! The transport: everything HTTP that no single resource owns.
//!
//! - reading bodies: [`json`] (the JSON extractor with problem pointers, its
//!   body limits and decoding) and [`ndjson`] (the bulk endpoints' line engine),
//!   reached through [`bulk`], which answers a batch as NDJSON or as a JSON
//!   array ([`json_batch`]) by its content type;
//! - [`auth`]: who may call (API keys, scopes, rates), checked before a
//!   body is read;
//! - [`budget`]: the one memory budget that bodies, answers not yet
//!   written and the spool's memory share, across every connection;
//! - answering errors: [`problem`] (problem+json; the problems themselves and
//!   the one table of codes are the contract's, `gin_contract::problem`);
//! - [`limits`]: the ceilings on a request's lists and strings;
//! - [`observe`] (the middleware: request ids, access log, metrics) and
//!   [`fallback`] (404, 405);
//! - [`ops`]: the probes (`/healthz`, `/readyz`) and the `/docs` redirect;
//! - [`openapi`]: the route-free pieces of the OpenAPI document (the document
//!   itself is assembled from the routes by [`crate::routes::openapi_for`]).
//!
//! Nothing here imports a route or a wire type.

pub mod accept;
pub mod auth;
pub mod budget;
pub mod bulk;
pub mod drain;
pub mod fallback;
pub mod json;
pub mod json_batch;
pub mod limits;
pub mod ndjson;
pub mod observe;
pub mod openapi;
pub mod ops;
pub mod problem;
pub mod signing;
pub mod spool;
