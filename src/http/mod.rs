//! The transport: everything HTTP that no single resource owns, in layers
//! that import only the layers below them.
//!
//! - [`problem`] (problem+json; the problems themselves and the one table of
//!   codes are the contract's, `gin_contract::problem`), [`accept`] (which
//!   representation `Accept` asks for) and [`openapi`] (the route-free
//!   pieces of the OpenAPI document; the document itself is assembled from
//!   the routes by [`crate::routes::openapi_for`]): the ground floor;
//! - [`admission`]: API keys, the memory budget, the request ceilings and
//!   the draining of refused bodies: what a request must pass before its
//!   body is read;
//! - [`json`]: the JSON body extractor with problem pointers, its body
//!   limits and decoding;
//! - [`bulk`]: the bulk endpoints, answered as NDJSON lines or as a JSON
//!   array by their content type, and the spool that holds answers not
//!   yet read;
//! - [`signing`]: the server's keys as the request's API key may sign;
//! - [`observe`] (the middleware: request ids, access log, metrics),
//!   [`fallback`] (404, 405) and [`ops`] (the probes, `/metrics` and the
//!   `/docs` redirect).
//!
//! Nothing here imports a route or a wire type.

pub mod accept;
pub mod admission;
pub mod bulk;
pub mod fallback;
pub mod json;
pub mod observe;
pub mod openapi;
pub mod ops;
pub mod problem;
pub mod signing;
