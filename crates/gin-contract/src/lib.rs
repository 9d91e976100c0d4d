//! The gin-referee contract: every operation's request and answer, read,
//! answered and refused exactly one way, with no transport.
//!
//! The rules are the `gin_rules` crate; this crate is what a caller of the
//! referee sees of them: the JSON requests and answers, the problems with
//! their stable codes, the ceilings on a request, and signed receipts. Three
//! transports carry it, and none adds to it: the HTTP service (the root
//! package), its `batch` command, and the Python module. Layers, each
//! importing only those below it:
//!
//! - [`referee`]: one entry for every operation, a JSON body in and a JSON
//!   answer (or a problem) out, as the Python module calls it;
//! - [`answers`]: the operations, one module per resource;
//! - [`wire`]: request and answer pieces several operations share;
//! - [`lines`]: the bulk line format (`{"line": N, "id": ..., "result": ...}`);
//! - [`json`]: reading a body into its request, with a pointer to each fault;
//! - [`limits`]: the ceilings on a request's lists and strings, and what a
//!   request within them can cost;
//! - [`receipts`]: canonical JSON and the signing of answers;
//! - [`problem`] and [`error_codes`]: the problem document and the one table
//!   every code, status and title comes from.
//!
//! ```
//! use gin_contract::referee::{Operation, Referee};
//!
//! let referee = Referee::new();
//! let answer = referee
//!     .answer(
//!         Operation::AnalyzeHand,
//!         br#"{"hand": ["7S", "7H", "7D", "7C", "8H", "9H", "KS", "QD", "2C", "3D"]}"#,
//!     )
//!     .unwrap();
//! assert!(answer.starts_with(br#"{"deadwood":25,"#));
//!
//! let problem = referee
//!     .answer(Operation::AnalyzeHand, br#"{"hand": ["7S", "7S"]}"#)
//!     .unwrap_err();
//! assert_eq!((problem.status.as_u16(), problem.code.as_str()), (422, "duplicate_card"));
//! ```

pub mod answers;
pub mod error_codes;
pub mod json;
pub mod limits;
pub mod lines;
pub mod problem;
pub mod receipts;
pub mod referee;
pub mod rule_errors;
pub mod wire;
