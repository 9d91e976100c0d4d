//! The printable HTML page around a picture: the SVG inline, then the same
//! figures as HTML tables with headers (for screen readers and copying), a
//! `lang`, a title, and the shared stylesheet (served by the service itself,
//! print styles included). Its Content-Security-Policy admits the service's own
//! origin only: no inline script or style, nothing from another host.

use maud::{Markup, PreEscaped, html};

use gin_rules::HandCard;

use super::grid::{COLUMNS, Mark};
use super::replay::Replay;
use super::sheet::Sheet;
use super::text::Face;

/// Where the stylesheet of the pages is served.
pub const STYLESHEET: &str = "/viewer/pictures.css";
/// The pages' icon (else a browser asks for `/favicon.ico` and logs a 404).
pub const ICON: &str = "/viewer/icon.svg";
pub const ICON_SVG: &str = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 16 16\">\
<rect width=\"16\" height=\"16\" rx=\"3\" fill=\"#1d6b3a\"/>\
<text x=\"8\" y=\"13\" font-size=\"13\" text-anchor=\"middle\" fill=\"#fff\">\u{2663}\u{fe0e}</text></svg>";

/// The policy of every picture and page: the service's own origin, nothing
/// else; no plugins, no `<base>`, not framed by another site.
pub fn content_security_policy() -> actix_web::http::header::HeaderValue {
    actix_web::http::header::HeaderValue::from_static(
        "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'",
    )
}

/// The stylesheet: screen and print.
pub const CSS: &str = r#"
:root { color-scheme: light; }
body { font-family: "DejaVu Sans", "Segoe UI Symbol", "Apple Symbols", "Noto Sans Symbols 2", "Noto Sans", sans-serif;
  margin: 1rem; color: #1a1a1a; background: #fff; }
main { max-width: 80rem; }
h1 { font-size: 1.4rem; }
.picture svg { max-width: 100%; height: auto; border: 1px solid #ccc; }
table { border-collapse: collapse; margin: 1rem 0; font-size: 0.9rem; }
caption { text-align: left; font-weight: bold; padding: 0.25rem 0; }
th, td { border: 1px solid #bbb; padding: 0.2rem 0.4rem; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
tr.violation th, tr.violation td { background: #fde7ea; color: #b00020; font-weight: bold; }
.red { color: #b00020; }
.problem { border: 2px solid #b00020; background: #fde7ea; padding: 0.5rem 1rem; }
.controls textarea { width: 100%; min-height: 12rem; font-family: monospace; }
.drop { border: 2px dashed #888; padding: 0.75rem; margin: 0.5rem 0; }
.drop.over { background: #eef3fb; }
[hidden] { display: none !important; }
@media (max-width: 600px) { body { margin: 0.5rem; } table { font-size: 0.8rem; } }
@media print {
  .controls, .no-print { display: none; }
  .picture svg { border: none; }
  body { margin: 0; }
  table { page-break-inside: auto; }
  tr { page-break-inside: avoid; }
}
"#;

/// The whole page of a picture: its title, its SVG and its tables (both
/// written by maud, escaped there). The page's head and heading are maud's
/// too; the tags around them are constants, so that the page is put
/// together in one buffer of its exact size, copying the SVG and the tables
/// once (a template holding them would copy them again as its buffer grows).
pub fn html(title: &str, svg: &str, tables: &str) -> String {
    let head = html! {
        head {
            meta charset="utf-8";
            meta name="viewport" content="width=device-width, initial-scale=1";
            title { (title) }
            link rel="stylesheet" href=(PreEscaped(STYLESHEET));
            link rel="icon" href=(PreEscaped(ICON)) type="image/svg+xml";
        }
    };
    let heading = html! { h1 { (title) } };
    let parts = [
        "<!DOCTYPE html><html lang=\"en\">",
        head.0.as_str(),
        "<body><main>",
        heading.0.as_str(),
        "<div class=\"picture\">",
        svg,
        "</div>",
        tables,
        "</main></body></html>",
    ];
    let mut page = String::with_capacity(parts.iter().map(|part| part.len()).sum());
    parts.iter().for_each(|part| page.push_str(part));
    page
}

/// The sheet's figures as HTML tables, one per grid.
pub fn tables(sheet: &Sheet) -> String {
    let markup: Markup = html! {
        @for note in &sheet.notes { p { (note) } }
        @if let Some(violation) = &sheet.violation { p class="red" { strong { (violation) } } }
        @for grid in &sheet.grids {
            table {
                caption { (grid.caption) }
                thead {
                    tr {
                        th scope="col" rowspan="2" { "Line" }
                        th scope="col" rowspan="2" { "Detail" }
                        @for group in &grid.groups { th scope="colgroup" colspan="2" { (group) } }
                    }
                    tr {
                        @for _ in &grid.groups {
                            @for heading in COLUMNS { th scope="col" { (heading) } }
                        }
                    }
                }
                tbody {
                    @for row in &grid.rows {
                        tr class=[(row.mark == Mark::Violation).then_some("violation")] {
                            th scope="row" { (row.label) }
                            td { (row.detail) }
                            @for cell in &row.cells {
                                td class="n" { @if let Some(value) = cell { (value) } }
                            }
                        }
                    }
                }
            }
        }
    };
    markup.into_string()
}

fn card_list(cards: &[HandCard]) -> Markup {
    html! {
        @for (index, card) in cards.iter().enumerate() {
            @let face = Face(*card);
            @if index > 0 { " " }
            span class=[face.red().then_some("red")] { (face) }
        }
    }
}

/// The replay's deal, steps and end as HTML tables.
pub fn replay_table(replay: &Replay) -> String {
    let markup: Markup = html! {
        @for note in &replay.notes { p { (note) } }
        table {
            caption { "The deal" }
            tbody {
                @for (label, cards) in &replay.deal {
                    tr { th scope="row" { (PreEscaped(label)) } td { (card_list(cards)) } }
                }
            }
        }
        table {
            caption { "The actions" }
            thead { tr { th scope="col" { "#" } th scope="col" { "Action" } th scope="col" { "Cards" } th scope="col" { "Verdict" } } }
            tbody {
                @for step in &replay.steps {
                    tr class=[step.violation.is_some().then_some("violation")] {
                        th scope="row" { (step.index + 1) }
                        td { (PreEscaped(step.who)) " " (PreEscaped(step.what)) }
                        td { (card_list(&step.cards)) }
                        td { @if let Some(message) = &step.violation { "VIOLATION: " (message) } @else { "legal" } }
                    }
                }
            }
        }
        @if !replay.end.is_empty() {
            table {
                caption { "At the end" }
                tbody {
                    @for (label, cards) in &replay.end {
                        tr { th scope="row" { (label) } td { (card_list(cards)) } }
                    }
                }
            }
        }
    };
    markup.into_string()
}
