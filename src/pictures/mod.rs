//! Pictures of answers: the score sheet of a match (`POST /v1/matches/score`,
//! `POST /v1/matches/audit`) and the replay of a hand (`POST /v1/hands/audit`),
//! as one standalone SVG or as a printable HTML page holding it, for a client
//! that asks with `Accept` (see [`crate::http::accept`]); and the viewer page
//! (`GET /viewer`) that asks the service for them.
//!
//! A picture is drawn from the typed answer the route already has, the very
//! value its JSON answer is written from (so every figure on it is the
//! answer's), and, for a hand, from the record the route read (the deal and
//! the actions): nothing is serialised or parsed again, except the JSON of a
//! signed answer, which the SVG carries. The templates are maud's, compiled
//! into the binary; every text from the request is spliced in through maud,
//! which escapes it, after [`text::clean`] has removed what XML cannot hold at
//! all.
//!
//! Cost: each picture is one pass over the answer and the record, writing a
//! bounded number of elements per hand, action or card, so its size and time
//! are linear in the answer's, which the request ceilings already bound. The
//! HTML tables are written only for the page.

mod grid;
mod hollywood;
mod openapi;
pub mod page;
pub mod replay;
pub mod sheet;
pub mod svg;
pub mod text;
pub mod viewer;

use actix_web::HttpResponse;
use actix_web::http::header::{self, HeaderName, HeaderValue};
use gin_contract::answers::match_audit::MatchAuditResponse;
use gin_contract::wire::formats::MatchAnswer;
use gin_contract::wire::transcript::AuditResponse;
use serde::Serialize;

use crate::http::accept::Representation;
use crate::http::problem::{ErrorCode, HttpProblem, NOSNIFF, Problem, X_CONTENT_TYPE_OPTIONS};
pub use openapi::document;
use replay::{HandRecord, Replay};
use sheet::Sheet;
use text::receipt_fingerprint;

/// What a route draws: its typed answer (and a hand's record).
#[derive(Debug, Clone, Copy)]
pub enum Picture<'a> {
    /// A match's score sheet from `/v1/matches/score`'s answer.
    MatchScore(&'a MatchAnswer),
    /// A match's score sheet from `/v1/matches/audit`'s answer (its `match`),
    /// with the first violation at its hand.
    MatchAudit(&'a MatchAuditResponse),
    /// A hand replayed from `/v1/hands/audit`'s record and answer.
    HandAudit(&'a AuditResponse, &'a HandRecord),
}

pub const CONTENT_SECURITY_POLICY: HeaderName = HeaderName::from_static("content-security-policy");

/// A signed answer, as the SVG's `<metadata>` carries it: the JSON answer
/// (the receipt included) and the receipt.
#[derive(Debug, Clone)]
pub struct Signed {
    pub answer: String,
    pub receipt: String,
}

#[derive(Debug, Clone)]
enum Model {
    Sheet(Sheet),
    Replay(Replay),
}

/// A picture ready to be written as SVG or as the page.
#[derive(Debug, Clone)]
pub struct Drawing {
    model: Model,
    signed: Option<Signed>,
}

/// The signature of `answer`, when it carries `receipt`: its JSON for the
/// metadata, and a line under the title with the receipt's `kid` and digest.
fn signed<T: Serialize>(
    answer: &T,
    receipt: Option<&String>,
    notes: &mut Vec<String>,
) -> Result<Option<Signed>, Problem> {
    let Some(receipt) = receipt else {
        return Ok(None);
    };
    let json = serde_json::to_string(answer).map_err(|_| {
        Problem::new(
            ErrorCode::InvalidBody,
            "the answer could not be drawn from this request",
        )
    })?;
    let (kid, digest) = receipt_fingerprint(receipt);
    notes.push(format!(
        "Signed: kid {kid} · SHA-256 of the receipt {digest}"
    ));
    Ok(Some(Signed {
        answer: json,
        receipt: receipt.clone(),
    }))
}

impl Drawing {
    /// Lays out the picture of an answer.
    pub fn of(picture: Picture<'_>) -> Result<Drawing, Problem> {
        Ok(match picture {
            Picture::MatchScore(answer) => {
                let mut sheet = Sheet::score(answer);
                let signed = signed(answer, answer.receipt(), &mut sheet.notes)?;
                Drawing {
                    model: Model::Sheet(sheet),
                    signed,
                }
            }
            Picture::MatchAudit(answer) => {
                let mut sheet = Sheet::audit(answer);
                let signed = signed(answer, answer.receipt.as_ref(), &mut sheet.notes)?;
                Drawing {
                    model: Model::Sheet(sheet),
                    signed,
                }
            }
            Picture::HandAudit(answer, record) => {
                let mut replay = Replay::of(record, answer);
                let signed = signed(answer, answer.receipt.as_ref(), &mut replay.notes)?;
                Drawing {
                    model: Model::Replay(replay),
                    signed,
                }
            }
        })
    }

    /// The picture's title.
    pub fn title(&self) -> &str {
        match &self.model {
            Model::Sheet(sheet) => &sheet.title,
            Model::Replay(replay) => &replay.title,
        }
    }

    /// The picture as one standalone SVG document.
    pub fn svg(&self) -> String {
        match &self.model {
            Model::Sheet(sheet) => svg::sheet(sheet, self.signed.as_ref()),
            Model::Replay(replay) => svg::replay(replay, self.signed.as_ref()),
        }
    }

    /// The printable HTML page: the SVG and the figures again as tables.
    pub fn page(&self) -> String {
        let tables = match &self.model {
            Model::Sheet(sheet) => page::tables(sheet),
            Model::Replay(replay) => page::replay_table(replay),
        };
        page::html(self.title(), &self.svg(), &tables)
    }
}

/// The response for `wanted`: the answer as JSON, or its picture (`picture`
/// gives it; `None` answers JSON).
pub fn respond<'a, T: Serialize>(
    wanted: Representation,
    answer: &'a T,
    picture: impl FnOnce(&'a T) -> Option<Picture<'a>>,
) -> Result<HttpResponse, HttpProblem> {
    let picture = match wanted {
        Representation::Json => None,
        _ => picture(answer),
    };
    let Some(picture) = picture else {
        return Ok(HttpResponse::Ok().json(answer));
    };
    let drawing = Drawing::of(picture)?;
    let (body, media) = match wanted {
        Representation::Html => (
            drawing.page(),
            HeaderValue::from_static("text/html; charset=utf-8"),
        ),
        _ => (drawing.svg(), HeaderValue::from_static("image/svg+xml")),
    };
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, media))
        .insert_header((X_CONTENT_TYPE_OPTIONS, NOSNIFF))
        .insert_header((CONTENT_SECURITY_POLICY, page::content_security_policy()))
        .insert_header((header::VARY, HeaderValue::from_static("Accept")))
        .body(body))
}
