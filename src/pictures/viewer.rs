//! `GET /viewer`: a page where a person pastes or drops a hand or match record
//! and sees its score sheet or replay, drawn by the service (the page sends the
//! record to the operation it fits, asking for `image/svg+xml`). A refused
//! record shows its problem: title, detail, code and each pointer. Where the
//! service asks for a key (401) or refuses the key given for the operation
//! (403), the page shows the problem and asks the person for a key, keeps it in
//! `sessionStorage` (this tab only) and sends it as `Authorization: Bearer`.
//!
//! The page, its script and its stylesheet are served from the binary, from
//! this origin: the page works with no route to the internet, and its
//! Content-Security-Policy admits nothing else. The script writes every text
//! it got from the service with `textContent`, never as markup, except the SVG
//! the service drew, which it parses as XML (where no script runs) and adopts.

use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, web};
use maud::{DOCTYPE, html};

use super::page::{CSS, ICON, ICON_SVG, STYLESHEET, content_security_policy};
use crate::http::problem::{NOSNIFF, X_CONTENT_TYPE_OPTIONS};

pub const PATH: &str = "/viewer";
pub const SCRIPT: &str = "/viewer/viewer.js";

/// The viewer's script.
pub const JS: &str = include_str!("viewer.js");

fn page() -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { "gin-referee viewer" }
                link rel="stylesheet" href=(STYLESHEET);
                link rel="icon" href=(ICON) type="image/svg+xml";
                script src=(SCRIPT) defer {}
            }
            body {
                main {
                    h1 { "Score sheets and hand replays" }
                    section class="controls" aria-label="The record" {
                        p {
                            "Paste or drop a hand record (as " code { "POST /v1/hands/audit" }
                            " takes it) or a match (as " code { "POST /v1/matches/score" } " or "
                            code { "POST /v1/matches/audit" } " takes it), then show it."
                        }
                        div id="drop" class="drop" { "Drop a .json file here" }
                        label for="record" { "Record (JSON)" }
                        textarea id="record" spellcheck="false" {}
                        p {
                            button id="show" type="button" { "Show" }
                            " "
                            span id="route" {}
                        }
                        div id="key-box" hidden {
                            label id="key-label" for="key" { "This service needs an API key (kept for this tab only): " }
                            input id="key" type="password" autocomplete="off";
                            " "
                            button id="use-key" type="button" { "Use key" }
                        }
                    }
                    div id="problem" class="problem" role="alert" hidden {}
                    div id="picture" class="picture" aria-live="polite" {}
                }
            }
        }
    }
    .into_string()
}

fn answer(media: &'static str, body: impl actix_web::body::MessageBody + 'static) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, HeaderValue::from_static(media)))
        .insert_header((X_CONTENT_TYPE_OPTIONS, NOSNIFF))
        .insert_header((super::CONTENT_SECURITY_POLICY, content_security_policy()))
        .insert_header((header::CACHE_CONTROL, HeaderValue::from_static("no-cache")))
        .body(body)
}

pub async fn viewer() -> HttpResponse {
    answer("text/html; charset=utf-8", page())
}

pub async fn script() -> HttpResponse {
    answer("text/javascript; charset=utf-8", JS)
}

pub async fn icon() -> HttpResponse {
    answer("image/svg+xml", ICON_SVG)
}

pub async fn stylesheet() -> HttpResponse {
    answer("text/css; charset=utf-8", CSS)
}

/// Registers the viewer, its script, and the pages' stylesheet and icon.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route(PATH, web::get().to(viewer))
        .route(SCRIPT, web::get().to(script))
        .route(STYLESHEET, web::get().to(stylesheet))
        .route(ICON, web::get().to(icon));
}
