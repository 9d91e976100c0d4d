//! gin-referee: a referee for Gin Rummy, as a library and an HTTP service.
//!
//! The referee itself (cards, melds, deadwood, layoffs, scoring) is the
//! `gin_rules` crate, free of any HTTP concern; this crate is its HTTP edge:
//!
//! - [`api`]: the HTTP edge: resources, the problem+json error shape, the JSON
//!   extractor, metrics and the OpenAPI document;
//! - [`config`], [`telemetry`], [`startup`]: flags, logs, and assembling the server.
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

pub mod api;
pub mod batch;
pub mod config;
pub mod receipts;
pub mod startup;
pub mod telemetry;
