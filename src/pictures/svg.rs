//! The SVG documents: the score sheet and the hand replay, as maud templates.
//!
//! Standalone SVG (the SVG namespace, every element closed, so that it is
//! well-formed XML); text is `<text>` (searchable, copyable, read by screen
//! readers), the document has a `<title>` and a `<desc>`, and a cut text keeps
//! its whole in a `<title>` of its own (a text that fits has none: it would
//! say the same again). Colours are presentation attributes,
//! not a `<style>`: the pictures are served with `default-src 'self'`, under
//! which an inline `<style>` (in the SVG opened on its own, in the page, or
//! adopted by the viewer) would be refused without a hash in the policy, and
//! attributes set once on a group are inherited by its texts anyway.
//! Each figure of the sheet carries `data-grid`, `data-row` and `data-col`
//! (the group's index and `points` or `total`), so that a reader or a test can
//! find it without reading the layout.

use maud::{Markup, PreEscaped, html};

use gin_rules::HandCard;

use super::Signed;
use super::grid::{COLUMNS, Grid, Mark, Row};
use super::replay::{Replay, Step};
use super::sheet::Sheet;
use super::text::{Face, chars_across, fit, wrap};

/// Fonts that draw the four suit symbols as text, offline: DejaVu Sans (on
/// most Linux systems), Segoe UI Symbol (Windows), Apple Symbols (macOS,
/// iOS), Noto Sans Symbols 2 (Android), then any sans-serif.
pub const FONTS: &str =
    "DejaVu Sans, Segoe UI Symbol, Apple Symbols, Noto Sans Symbols 2, Noto Sans, sans-serif";
const SVG_NS: &str = "http://www.w3.org/2000/svg";
/// The namespace of the signed answer's elements in `<metadata>`.
pub const METADATA_NS: &str = "urn:gin-referee:pictures";
const RED: &str = "#b00020";
const INK: &str = "#1a1a1a";
const MARGIN: u32 = 16;
const LINE: u32 = 22;
const LABEL: u32 = 84;
const DETAIL: u32 = 340;
const CELL: u32 = 64;
/// The characters of a note under the title that fit the narrowest picture.
const NOTE_CHARS: usize = 96;
/// The characters of a detail that fit its column.
const DETAIL_CHARS: usize = 52;

fn grid_height(grid: &Grid) -> u32 {
    // Caption, the two heading lines, the lines, a gap.
    LINE * (3 + u32::try_from(grid.rows.len()).unwrap_or(u32::MAX / LINE - 4)) + LINE / 2
}

fn grid_markup(index: usize, grid: &Grid, top: u32) -> Markup {
    let left = MARGIN + LABEL + DETAIL;
    let width = left + CELL * 2 * u32::try_from(grid.groups.len()).unwrap_or(0) - MARGIN;
    html! {
        g data-grid=(index) {
            text x=(MARGIN) y=(top + 15) font-weight="bold" { (PreEscaped(grid.caption)) }
            @for (group, name) in grid.groups.iter().enumerate() {
                @let x = left + CELL * 2 * u32::try_from(group).unwrap_or(0);
                @let (shown, cut) = fit(name, 18);
                text x=(x + CELL) y=(top + LINE + 15) text-anchor="middle" font-weight="bold" {
                    @if cut { title { (name) } } (shown)
                }
                @for (column, heading) in COLUMNS.iter().enumerate() {
                    text x=(x + CELL * (u32::try_from(column).unwrap_or(0) + 1) - 6) y=(top + 2 * LINE + 15)
                        text-anchor="end" font-size="11" fill="#555" { (PreEscaped(heading)) }
                }
                line x1=(x) y1=(top + LINE) x2=(x) y2=(top + LINE * (3 + u32::try_from(grid.rows.len()).unwrap_or(0))) stroke="#999" {}
            }
            line x1=(MARGIN) y1=(top + 3 * LINE) x2=(MARGIN + width) y2=(top + 3 * LINE) stroke=(PreEscaped(INK)) {}
            @for (line, row) in grid.rows.iter().enumerate() {
                @let y = top + LINE * (3 + u32::try_from(line).unwrap_or(0));
                (row_markup(index, row, y, width, left))
            }
        }
    }
}

fn row_markup(grid: usize, row: &Row, y: u32, width: u32, left: u32) -> Markup {
    let violation = row.mark == Mark::Violation;
    let detail_chars = if violation { 200 } else { DETAIL_CHARS };
    let (shown, cut) = fit(&row.detail, detail_chars);
    html! {
        g data-row=(row.key) {
            @if violation {
                rect x=(MARGIN) y=(y) width=(width) height=(LINE) fill="#fde7ea" stroke=(PreEscaped(RED)) {}
            } @else if row.mark == Mark::Tally && row.key.is_total() {
                rect x=(MARGIN) y=(y) width=(width) height=(LINE) fill="#eef3fb" {}
            }
            text x=(MARGIN + 4) y=(y + 15) font-weight=[(row.mark != Mark::Hand).then_some("bold")]
                fill=(PreEscaped(if violation { RED } else { INK })) { (row.label) }
            text x=(MARGIN + LABEL) y=(y + 15) font-size="12" fill=(PreEscaped(if violation { RED } else { "#333" })) {
                @if cut { title { (row.detail) } } (shown)
            }
            @for (column, cell) in row.cells.iter().enumerate() {
                @if let Some(value) = cell {
                    @let group = column / 2;
                    @let x = left + CELL * u32::try_from(column + 1).unwrap_or(0) - 6;
                    text x=(x) y=(y + 15) text-anchor="end"
                        font-weight=[(column % 2 == 1).then_some("bold")]
                        data-grid=(grid) data-row=(row.key)
                        data-col={ (group) "." (PreEscaped(COLUMNS.get(column % 2).copied().unwrap_or_default())) } { (value) }
                }
            }
        }
    }
}

/// The signed answer in `<metadata>`: its JSON and its receipt.
fn metadata(signed: Option<&Signed>) -> Markup {
    html! {
        @if let Some(signed) = signed {
            metadata {
                answer xmlns=(PreEscaped(METADATA_NS)) media-type="application/json" { (signed.answer) }
                receipt xmlns=(PreEscaped(METADATA_NS)) media-type="application/jose" { (signed.receipt) }
            }
        }
    }
}

/// The score sheet as one standalone SVG document.
pub fn sheet(sheet: &Sheet, signed: Option<&Signed>) -> String {
    let widest = sheet
        .grids
        .iter()
        .map(|grid| grid.groups.len())
        .max()
        .unwrap_or(0);
    let width = MARGIN * 2 + LABEL + DETAIL + CELL * 2 * u32::try_from(widest).unwrap_or(0);
    let head = 40 + LINE * u32::try_from(sheet.notes.len()).unwrap_or(0);
    let mut tops = Vec::with_capacity(sheet.grids.len());
    let mut height = head;
    for grid in &sheet.grids {
        tops.push(height);
        height += grid_height(grid);
    }
    height += MARGIN;
    html! {
        svg xmlns=(PreEscaped(SVG_NS)) width=(width) height=(height) viewBox={ "0 0 " (width) " " (height) }
            role="img" aria-labelledby="picture-title" font-family=(PreEscaped(FONTS)) font-size="14" fill=(PreEscaped(INK)) {
            title id="picture-title" { (sheet.title) }
            desc { @for note in &sheet.notes { (note) ". " } @if let Some(v) = &sheet.violation { (v) } }
            (metadata(signed))
            rect x="0" y="0" width=(width) height=(height) fill="#fff" {}
            text x=(MARGIN) y="30" font-size="20" font-weight="bold" { (sheet.title) }
            @for (line, note) in sheet.notes.iter().enumerate() {
                text x=(MARGIN) y=(52 + LINE * u32::try_from(line).unwrap_or(0)) font-size="13" fill="#333" {
                    @let (shown, cut) = fit(note, NOTE_CHARS);
                    @if cut { title { (note) } } (shown)
                }
            }
            @for (index, (grid, top)) in sheet.grids.iter().zip(&tops).enumerate() {
                (grid_markup(index, grid, *top))
            }
        }
    }
    .into_string()
}

const CARD_W: u32 = 34;
const CARD_H: u32 = 26;

/// A line of cards, each a small white rectangle with its rank and suit, red
/// or black: the rectangles in one group and the faces in another, which set
/// what every card of the line shares.
fn cards_markup(cards: &[HandCard], x: u32, y: u32) -> Markup {
    let at = |index: usize| x + CARD_W * u32::try_from(index).unwrap_or(0);
    html! {
        @if !cards.is_empty() {
            g fill="#fff" stroke="#777" {
                @for index in 0..cards.len() {
                    rect x=(at(index)) y=(y) width=(CARD_W - 4) height=(CARD_H) rx="3" {}
                }
            }
            g text-anchor="middle" font-size="13" {
                @for (index, card) in cards.iter().enumerate() {
                    @let face = Face(*card);
                    text x=(at(index) + (CARD_W - 4) / 2) y=(y + 18)
                        fill=(PreEscaped(if face.red() { RED } else { INK })) { (face) }
                }
            }
        }
    }
}

/// The width a line of `cards` cards takes.
fn cards_width(cards: usize) -> u32 {
    CARD_W * u32::try_from(cards).unwrap_or(0)
}

const STEP: u32 = 34;
/// Where an action's sentence and its violation message start.
const STEP_TEXT: u32 = MARGIN + 36;
/// The violation message's size and line height, and the most lines it
/// takes (the audit's longest messages take three at the narrowest width).
const MESSAGE_SIZE: u32 = 12;
const MESSAGE_LINE: u32 = 16;
const MESSAGE_LINES: usize = 6;

/// An action's violation message in lines that fit the picture's `width`,
/// and whether it was cut.
fn message_lines(message: &str, width: u32) -> (Vec<String>, bool) {
    let across = width.saturating_sub(STEP_TEXT + MARGIN + 4);
    wrap(message, chars_across(across, MESSAGE_SIZE), MESSAGE_LINES)
}

/// The height an action takes: its cards, and under them its message's lines.
fn step_height(lines: usize) -> u32 {
    match lines {
        0 => STEP,
        lines => STEP + LINE + MESSAGE_LINE * u32::try_from(lines - 1).unwrap_or(0),
    }
}

fn step_markup(step: &Step, y: u32, width: u32, message: &(Vec<String>, bool)) -> Markup {
    let marked = step.violation.is_some();
    let (lines, cut) = message;
    html! {
        g data-action=(step.index) {
            @if marked {
                rect x=(MARGIN) y=(y - 2) width=(width - 2 * MARGIN) height=(step_height(lines.len())) fill="#fde7ea" stroke=(PreEscaped(RED)) {}
            }
            text x=(MARGIN + 4) y=(y + 18) font-weight="bold" fill=(if marked { RED } else { INK }) {
                (step.index + 1) "."
            }
            text x=(STEP_TEXT) y=(y + 18) fill=(if marked { RED } else { INK }) {
                @if marked { tspan font-weight="bold" { "VIOLATION " } }
                (PreEscaped(step.who)) " " (PreEscaped(step.what))
            }
            (cards_markup(&step.cards, MARGIN + 360, y))
            @if let Some(message) = &step.violation {
                text x=(STEP_TEXT) y=(y + STEP + 14) font-size=(MESSAGE_SIZE) fill=(PreEscaped(RED)) {
                    @if *cut { title { (message) } }
                    @for (index, line) in lines.iter().enumerate() {
                        @if index == 0 { (line) } @else { tspan x=(STEP_TEXT) dy=(MESSAGE_LINE) { (line) } }
                    }
                }
            }
        }
    }
}

/// The hand replay as one standalone SVG document.
pub fn replay(replay: &Replay, signed: Option<&Signed>) -> String {
    let widest = replay.widest_cards();
    let width = (MARGIN * 2 + 360 + cards_width(widest)).max(MARGIN * 2 + 120 + cards_width(11));
    let deal_top = 40 + LINE * u32::try_from(replay.notes.len()).unwrap_or(0);
    let steps_top = deal_top + 3 * STEP + LINE;
    let mut y = steps_top;
    let mut step_tops = Vec::with_capacity(replay.steps.len());
    let no_message = (Vec::new(), false);
    let mut message = None;
    for step in &replay.steps {
        step_tops.push(y);
        let lines = step
            .violation
            .as_deref()
            .map(|text| message_lines(text, width));
        y += step_height(lines.as_ref().map_or(0, |(lines, _)| lines.len()));
        message = message.or(lines);
    }
    let message = message.unwrap_or_default();
    let note_chars = chars_across(width - 2 * MARGIN, 13);
    let end_top = y + LINE;
    let height = end_top + STEP * u32::try_from(replay.end.len()).unwrap_or(0) + LINE + MARGIN;
    html! {
        svg xmlns=(PreEscaped(SVG_NS)) width=(width) height=(height) viewBox={ "0 0 " (width) " " (height) }
            role="img" aria-labelledby="picture-title" font-family=(PreEscaped(FONTS)) font-size="14" fill=(PreEscaped(INK)) {
            title id="picture-title" { (replay.title) }
            desc { @for note in &replay.notes { (note) ". " } }
            (metadata(signed))
            rect x="0" y="0" width=(width) height=(height) fill="#fff" {}
            text x=(MARGIN) y="30" font-size="20" font-weight="bold" { (replay.title) }
            @for (line, note) in replay.notes.iter().enumerate() {
                text x=(MARGIN) y=(52 + LINE * u32::try_from(line).unwrap_or(0)) font-size="13"
                    fill=(PreEscaped(if note.starts_with("ILLEGAL") { RED } else { "#333" })) {
                    @let (shown, cut) = fit(note, note_chars);
                    @if cut { title { (note) } } (shown)
                }
            }
            g data-part="deal" {
                @for (line, (label, cards)) in replay.deal.iter().enumerate() {
                    @let top = deal_top + STEP * u32::try_from(line).unwrap_or(0);
                    text x=(MARGIN) y=(top + 18) font-weight="bold" { (PreEscaped(label)) }
                    (cards_markup(cards, MARGIN + 120, top))
                }
            }
            line x1=(MARGIN) y1=(steps_top - 8) x2=(width - MARGIN) y2=(steps_top - 8) stroke="#999" {}
            @for (step, top) in replay.steps.iter().zip(&step_tops) {
                (step_markup(step, *top, width, if step.violation.is_some() { &message } else { &no_message }))
            }
            g data-part="end" {
                @if !replay.end.is_empty() {
                    text x=(MARGIN) y=(end_top - 4) font-weight="bold" { "At the end" }
                }
                @for (line, (label, cards)) in replay.end.iter().enumerate() {
                    @let top = end_top + 4 + STEP * u32::try_from(line).unwrap_or(0);
                    @let (shown, cut) = fit(label, 44);
                    text x=(MARGIN) y=(top + 18) font-size="13" { @if cut { title { (label) } } (shown) }
                    (cards_markup(cards, MARGIN + 360, top))
                }
            }
        }
    }
    .into_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The constants spliced as written (`PreEscaped`) hold nothing that
    /// escaping would change: a new one that did would fail here.
    #[test]
    fn the_constants_spliced_unescaped_need_no_escaping() {
        let constants = [FONTS, SVG_NS, METADATA_NS, RED, INK, "#333"]
            .into_iter()
            .chain(COLUMNS);
        for constant in constants {
            assert_eq!(html! { (constant) }.into_string(), constant);
        }
    }
}
