//! Pictures of answers: the score sheet of a match (`POST /v1/matches/score`,
//! `POST /v1/matches/audit`) and the replay of a hand (`POST /v1/hands/audit`),
//! as one standalone SVG or as a printable HTML page holding it, for a client
//! that asks with `Accept` (see [`crate::http::accept`]); and the viewer page
//! (`GET /viewer`) that asks the service for them.
//!
//! A picture is drawn from the JSON answer the same request would get (its
//! serialised value, so every figure on it is the answer's) and from the
//! request's own JSON (the players' order, the deal and the actions). The
//! templates are maud's, compiled into the binary; every text from the request
//! is spliced in through maud, which escapes it, after [`text::clean`] has
//! removed what XML cannot hold at all.
//!
//! Cost: each picture is one pass over the answer and the request, writing a
//! bounded number of elements per hand, action or card, so its size and time
//! are linear in the answer's, which the request ceilings already bound.

mod openapi;
pub mod page;
pub mod replay;
pub mod sheet;
pub mod svg;
pub mod text;
pub mod viewer;

use actix_web::HttpResponse;
use actix_web::http::header::{self, HeaderName, HeaderValue};
use serde::Serialize;
use serde_json::Value;

use crate::http::accept::Representation;
use crate::http::problem::{ErrorCode, HttpProblem, NOSNIFF, Problem, X_CONTENT_TYPE_OPTIONS};
pub use openapi::document;

/// The picture a route draws from its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A match's score sheet from `/v1/matches/score`'s answer.
    MatchScore,
    /// A match's score sheet from `/v1/matches/audit`'s answer (its `match`),
    /// with the first violation at its hand.
    MatchAudit,
    /// A hand replayed from `/v1/hands/audit`'s request and answer.
    HandAudit,
}

pub const CONTENT_SECURITY_POLICY: HeaderName = HeaderName::from_static("content-security-policy");

/// The picture as an SVG document (its text) and the page's title.
pub struct Drawn {
    pub svg: String,
    pub title: String,
    /// The figures again as HTML tables, for the page.
    pub tables: String,
}

/// The response for `wanted`: the answer as JSON, or its picture.
/// `request` is the request's JSON as received (decoded), `deal` the hand's
/// deal as cards when `kind` is [`Kind::HandAudit`].
pub fn respond<T: Serialize>(
    wanted: Representation,
    answer: &T,
    request: &[u8],
    kind: Kind,
    deal: Option<Value>,
) -> Result<HttpResponse, HttpProblem> {
    if wanted == Representation::Json {
        return Ok(HttpResponse::Ok().json(answer));
    }
    let drawn = draw(answer, request, kind, deal)?;
    let (body, media) = match wanted {
        Representation::Html => (
            page::html(&drawn),
            HeaderValue::from_static("text/html; charset=utf-8"),
        ),
        _ => (drawn.svg, HeaderValue::from_static("image/svg+xml")),
    };
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, media))
        .insert_header((X_CONTENT_TYPE_OPTIONS, NOSNIFF))
        .insert_header((CONTENT_SECURITY_POLICY, page::content_security_policy()))
        .insert_header((header::VARY, HeaderValue::from_static("Accept")))
        .body(body))
}

/// Draws the picture of `answer`.
pub fn draw<T: Serialize>(
    answer: &T,
    request: &[u8],
    kind: Kind,
    deal: Option<Value>,
) -> Result<Drawn, Problem> {
    let unexpected = |_| {
        Problem::new(
            ErrorCode::InvalidBody,
            "the answer could not be drawn from this request",
        )
    };
    let answer = serde_json::to_value(answer).map_err(unexpected)?;
    let request: Value = serde_json::from_slice(request).map_err(unexpected)?;
    Ok(match kind {
        Kind::MatchScore | Kind::MatchAudit => {
            let sheet = sheet::Sheet::of(&request, &answer, kind == Kind::MatchAudit);
            Drawn {
                svg: svg::sheet(&sheet),
                title: sheet.title.clone(),
                tables: page::tables(&sheet),
            }
        }
        Kind::HandAudit => {
            let replay = replay::Replay::of(&request, &answer, deal.as_ref());
            Drawn {
                svg: svg::replay(&replay),
                title: replay.title.clone(),
                tables: page::replay_table(&replay),
            }
        }
    })
}
