//! The HTTP machinery every route shares: body decoding and limits, errors
//! and their table, hostile clients, the OpenAPI document, the operational
//! endpoints.

mod encodings;
mod error_codes;
mod errors;
mod hostile;
mod limits;
mod openapi;
mod ops;
