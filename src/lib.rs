//! gin-referee: a referee for Gin Rummy, as a library and an HTTP service.
//!
//! The referee itself (cards, melds, deadwood, layoffs, scoring) is the
//! `gin_rules` crate, and the contract (every operation's request, answer
//! and problems, the error table, limits, receipts) the `gin_contract`
//! crate, both free of any HTTP concern; this crate is the contract's HTTP
//! transport (the Python module in `python/` is another), in layers, each
//! importing only the layers below it:
//!
//! - [`startup`]: assembling and running the server (the connection guard,
//!   the open-file budget);
//! - [`routes`]: one module of handlers per resource, none importing
//!   another, and the router and OpenAPI document they make;
//! - [`http`]: the transport: admission (keys, the memory budget, request
//!   limits), the JSON extractor, the bulk endpoints, problems as
//!   responses, the middleware, the fallback, the probes and `/metrics`;
//! - [`monitoring`]: metrics and logs, process-wide;
//! - [`config`]: the settings (flags and environment variables);
//! - [`batch`]: the `gin-referee batch` engine, NDJSON on stdin and stdout.
//!
//! The command line itself (`serve`, `openapi`, `errors`, `batch`) is the
//! binary's (`src/main.rs`, `src/cli.rs`).
//!
//! The server in a test, on a free port:
//!
//! ```no_run
//! # async fn example() -> Result<(), Box<dyn std::error::Error>> {
//! use gin_referee::config::Config;
//! use gin_referee::startup::Application;
//!
//! let config = Config { listen: "127.0.0.1:0".parse()?, ..Config::default() };
//! let app = Application::build(&config)?;
//! println!("serving on http://{}", app.addr());
//! app.run_until_stopped().await?;
//! # Ok(())
//! # }
//! ```

pub mod arena;
pub mod batch;
pub mod config;
pub mod http;
pub mod monitoring;
pub mod pictures;
pub mod routes;
pub mod startup;
