//! Pictures over HTTP: which `Accept` gets which answer, the headers of a
//! picture, hostile names kept as text, the audit's violation on the sheet and
//! on the replay, the signed sheet's metadata verified, the viewer, and the
//! README's committed sheet kept current.

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::support::{TestApp, spawn_app};

pub const SVG: &str = "image/svg+xml";
const HTML: &str = "text/html";

/// The README's match example (the sheet committed beside it is its picture).
pub fn readme_match() -> Value {
    json!({
        "players": ["Mom", "Dad"],
        "hands": [
            {"knocker": "Mom", "knocker_deadwood": 5, "defender_deadwood": 15},
            {"void": true},
            {"knocker": "Dad", "knocker_deadwood": 0, "defender_deadwood": 31}
        ]
    })
}

/// POSTs `body` with `accept` (none when empty): status, content type, body.
pub async fn post(app: &TestApp, path: &str, accept: &str, body: &Value) -> (u16, String, String) {
    let mut request = app
        .client
        .post(app.url(path))
        .header("content-type", "application/json")
        .body(body.to_string());
    if !accept.is_empty() {
        request = request.header("accept", accept);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let media = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (status, media, response.text().await.unwrap())
}

/// Every text node of the document, in order, joined by spaces.
pub fn all_text(document: &roxmltree::Document) -> String {
    document
        .descendants()
        .filter(|node| node.is_text())
        .filter_map(|node| node.text())
        .collect::<Vec<_>>()
        .join(" ")
}

#[tokio::test]
async fn accept_chooses_json_or_a_picture_as_pinned() {
    let app = spawn_app().await;
    let body = readme_match();
    let path = "/v1/matches/score";
    for (accept, expected) in [
        ("", "application/json"),
        ("*/*", "application/json"),
        ("application/json", "application/json"),
        // Java's default, and a browser's navigation: a wildcard keeps JSON.
        (
            "text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2",
            "application/json",
        ),
        (
            "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
            "application/json",
        ),
        (
            "image/svg+xml, image/*, application/json;q=0.1",
            "application/json",
        ),
        ("image/svg+xml;q=0.5, application/json", "application/json"),
        (SVG, SVG),
        ("image/svg+xml, application/json;q=0.9", SVG),
        (HTML, "text/html; charset=utf-8"),
        ("text/html;q=0.8, image/svg+xml;q=0.9", SVG),
    ] {
        let (status, media, _) = post(&app, path, accept, &body).await;
        assert_eq!(
            (status, media.as_str()),
            (200, expected),
            "Accept: {accept}"
        );
    }
    for accept in [
        "image/png",
        "text/*",
        "image/svg+xml;q=0",
        "application/json;q=0",
    ] {
        let (status, media, text) = post(&app, path, accept, &body).await;
        assert_eq!(
            (status, media.as_str()),
            (406, "application/problem+json"),
            "{accept}"
        );
        let problem: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(problem["code"], "not_acceptable");
    }
    // An operation that answers JSON only refuses a client that wants only SVG.
    let analyze = json!({"hand": ["AS", "2S", "3S", "4H", "5H", "6H", "9C", "9D", "9H", "KC"]});
    let (status, _, text) = post(&app, "/v1/hands/analyze", SVG, &analyze).await;
    assert_eq!(status, 406);
    assert!(text.contains("not_acceptable"), "{text}");
    let (status, _, _) = post(&app, "/v1/hands/analyze", "text/html, */*", &analyze).await;
    assert_eq!(status, 200);
    // Errors are problem+json whatever the Accept.
    let bad = json!({"players": ["Mom"], "hands": "no"});
    for accept in [SVG, HTML] {
        let (status, media, _) = post(&app, path, accept, &bad).await;
        assert_eq!((status, media.as_str()), (400, "application/problem+json"));
    }
}

#[tokio::test]
async fn a_picture_carries_its_policy_and_nosniff() {
    let app = spawn_app().await;
    for accept in [SVG, HTML] {
        let response = app
            .client
            .post(app.url("/v1/matches/score"))
            .header("content-type", "application/json")
            .header("accept", accept)
            .body(readme_match().to_string())
            .send()
            .await
            .unwrap();
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .map(|v| v.to_str().unwrap().to_owned())
                .unwrap_or_default()
        };
        assert_eq!(header("x-content-type-options"), "nosniff");
        let policy = header("content-security-policy");
        assert!(policy.starts_with("default-src 'self';"), "{policy}");
        assert!(!policy.contains("http"), "no other host: {policy}");
        assert!(
            !policy.contains("unsafe"),
            "no inline script or style: {policy}"
        );
        assert_eq!(header("vary"), "Accept");
    }
}

#[tokio::test]
async fn hostile_names_stay_text() {
    let app = spawn_app().await;
    let evil = "<script>alert(1)</script>";
    let quoted = "A&B \"q\" 'x' ]]> \u{1}";
    let body = json!({
        "players": [evil, quoted],
        "hands": [{"knocker": evil, "knocker_deadwood": 0, "defender_deadwood": 12}]
    });
    let (status, _, svg) = post(&app, "/v1/matches/score", SVG, &body).await;
    assert_eq!(status, 200);
    let document = roxmltree::Document::parse(&svg).expect("well-formed XML");
    assert!(
        document
            .descendants()
            .all(|node| node.tag_name().name() != "script"),
        "no element from a name"
    );
    let text = all_text(&document);
    assert!(text.contains(evil), "the name is shown as text: {text}");
    assert!(text.contains("A&B \"q\" 'x' ]]> \u{fffd}"), "{text}");
    let (status, _, page) = post(&app, "/v1/matches/score", HTML, &body).await;
    assert_eq!(status, 200);
    assert!(!page.contains("<script>alert"), "the page escapes names");
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(!page.contains("<script"), "the page has no script at all");
}

#[tokio::test]
async fn the_page_has_lang_a_title_the_table_and_print_styles() {
    let app = spawn_app().await;
    let (_, _, page) = post(&app, "/v1/matches/score", HTML, &readme_match()).await;
    assert!(page.starts_with("<!DOCTYPE html><html lang=\"en\">"));
    assert!(page.contains("<title>Score sheet: Mom, Dad</title>"));
    assert!(page.contains("<th scope=\"colgroup\" colspan=\"2\">Mom</th>"));
    assert!(page.contains("<th scope=\"row\">Total</th>"));
    assert!(page.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    let css = app.get("/viewer/pictures.css").await.text().await.unwrap();
    assert!(css.contains("@media print"));
}

#[tokio::test]
async fn the_audit_sheet_names_its_violation_and_its_signed_answer_verifies() {
    use gin_contract::answers::match_audit::examples;
    let app = spawn_app().await;
    let (status, _, svg) = post(&app, "/v1/matches/audit", SVG, &examples::wrong_dealer()).await;
    assert_eq!(status, 200);
    let document = roxmltree::Document::parse(&svg).unwrap();
    let violation = document
        .descendants()
        .find(|node| node.attribute("data-row") == Some("violation"))
        .expect("a violation line");
    let line = all_text(&roxmltree::Document::parse(&svg[violation.range()]).unwrap());
    assert!(line.contains("VIOLATION at hand 2"), "{line}");
    assert!(line.contains("wrong_dealer"), "{line}");

    // The audit signs: the metadata holds the answer and its receipt, and the
    // sheet prints the kid and the receipt's digest.
    let request = examples::legal();
    let (_, _, svg) = post(&app, "/v1/matches/audit", SVG, &request).await;
    let document = roxmltree::Document::parse(&svg).unwrap();
    let metadata = |name: &str| {
        document
            .descendants()
            .find(|node| {
                node.tag_name().name() == name
                    && node.tag_name().namespace() == Some("urn:gin-referee:pictures")
            })
            .and_then(|node| node.text())
            .unwrap_or_default()
            .to_owned()
    };
    let answer: Value = serde_json::from_str(&metadata("answer")).expect("the answer's JSON");
    let receipt = metadata("receipt");
    assert_eq!(answer["receipt"], receipt.as_str());
    assert_eq!(answer["match"]["final"]["Bob"]["total"], 60);
    let keys: Value = app.get("/v1/keys").await.json().await.unwrap();
    super::receipts::verify(&receipt, request.to_string().as_bytes(), &answer, &keys)
        .expect("the receipt in the picture verifies against the request");
    let digest = format!("{:x}", Sha256::digest(receipt.as_bytes()));
    let kid = keys["keys"][0]["kid"].as_str().unwrap();
    let text = all_text(&document);
    assert!(text.contains(&format!("kid {kid}")), "{text}");
    assert!(text.contains(&digest[..16]), "{text}");
    assert!(!text.contains(&digest[..17]), "16 digits, not more");
}

/// The JSON in the SVG's metadata and the receipt beside it.
fn signed_metadata(svg: &str) -> (Value, String) {
    let document = roxmltree::Document::parse(svg).unwrap();
    let metadata = |name: &str| {
        document
            .descendants()
            .find(|node| {
                node.tag_name().name() == name
                    && node.tag_name().namespace() == Some("urn:gin-referee:pictures")
            })
            .and_then(|node| node.text())
            .unwrap_or_else(|| panic!("no {name} in the metadata"))
            .to_owned()
    };
    let answer = serde_json::from_str(&metadata("answer")).expect("the answer's JSON");
    (answer, metadata("receipt"))
}

#[tokio::test]
async fn a_signed_score_sheet_and_a_signed_replay_carry_the_answer_that_verifies() {
    use gin_contract::answers::audit::examples;
    let app = spawn_app().await;
    let keys: Value = app.get("/v1/keys").await.json().await.unwrap();
    let mut score = readme_match();
    score["receipt"] = json!(true);
    let mut hand = examples::legal_knock();
    hand["receipt"] = json!(true);
    for (path, request) in [("/v1/matches/score", score), ("/v1/hands/audit", hand)] {
        let (status, _, svg) = post(&app, path, SVG, &request).await;
        assert_eq!(status, 200, "{path}: {svg}");
        let (answer, receipt) = signed_metadata(&svg);
        assert_eq!(answer["receipt"], receipt.as_str(), "{path}");
        super::receipts::verify(&receipt, request.to_string().as_bytes(), &answer, &keys)
            .unwrap_or_else(|why| panic!("{path}: the picture's receipt: {why}"));
        // The same answer as the JSON one, but for the receipt's own bytes.
        let (_, _, json) = post(&app, path, "application/json", &request).await;
        let mut json: Value = serde_json::from_str(&json).unwrap();
        let mut drawn = answer.clone();
        json.as_object_mut().unwrap().remove("receipt");
        drawn.as_object_mut().unwrap().remove("receipt");
        assert_eq!(drawn, json, "{path}");
        assert!(
            all_text(&roxmltree::Document::parse(&svg).unwrap()).contains("Signed: kid "),
            "{path}: the kid printed under the title"
        );
    }
}

#[tokio::test]
async fn the_replay_draws_cards_and_marks_the_violation_by_a_word() {
    use gin_contract::answers::audit::examples;
    let app = spawn_app().await;
    let (status, _, svg) = post(&app, "/v1/hands/audit", SVG, &examples::illegal_discard()).await;
    assert_eq!(status, 200);
    let document = roxmltree::Document::parse(&svg).unwrap();
    let text = all_text(&document);
    assert!(text.contains("VIOLATION"), "{text}");
    assert!(text.contains("discard_just_taken"), "{text}");
    // Cards as rank and suit (text presentation), hearts red, clubs black.
    let card = |face: &str| {
        document
            .descendants()
            .find(|node| node.text() == Some(face))
            .unwrap_or_else(|| panic!("{face} is drawn"))
    };
    assert_eq!(card("4\u{2665}\u{fe0e}").attribute("fill"), Some("#b00020"));
    assert_eq!(card("K\u{2663}\u{fe0e}").attribute("fill"), Some("#1a1a1a"));

    let (_, _, legal) = post(&app, "/v1/hands/audit", SVG, &examples::legal_knock()).await;
    let document = roxmltree::Document::parse(&legal).unwrap();
    let text = all_text(&document);
    assert!(text.contains("Hand replay: legal"), "{text}");
    assert!(text.contains("scores 60 points"), "{text}");
    assert!(
        text.contains("lays off onto the knocker's meld 2"),
        "{text}"
    );
    assert!(!text.contains("VIOLATION"));

    // A deal from seeds is drawn as the cards it dealt.
    let readme_hand = json!({
        "deal": {"seeds": {"server_seed": "0000000000000000000000000000000000000000000000000000000000000000",
                           "client_seed": "player", "nonce": 0},
                 "commitment": "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"},
        "actions": [{"player": "non_dealer", "action": "pass"}]
    });
    let (status, _, page) = post(&app, "/v1/hands/audit", HTML, &readme_hand).await;
    assert_eq!(status, 200);
    let cards = page.matches("\u{fe0e}").count();
    assert!(
        cards >= 2 * 21,
        "both hands and the upcard, in the SVG and the table: {cards}"
    );
}

#[tokio::test]
async fn the_viewer_is_served_offline_with_its_policy() {
    let app = spawn_app().await;
    let response = app.get("/viewer").await;
    assert_eq!(response.status().as_u16(), 200);
    let policy = response.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(policy.starts_with("default-src 'self'"));
    let page = response.text().await.unwrap();
    assert!(page.contains("<html lang=\"en\">"));
    for source in ["http://", "https://", "//cdn", "<script>", "style="] {
        assert!(!page.contains(source), "{source} in the viewer page");
    }
    let script = app.get("/viewer/viewer.js").await;
    assert!(
        script.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/javascript")
    );
    let script = script.text().await.unwrap();
    assert!(script.contains("sessionStorage") && script.contains("Bearer"));
    assert!(!script.contains("innerHTML"), "text is written as text");
}

#[tokio::test]
async fn the_readme_sheet_is_the_one_the_service_draws() {
    let app = spawn_app().await;
    let (status, _, svg) = post(&app, "/v1/matches/score", SVG, &readme_match()).await;
    assert_eq!(status, 200);
    let committed = include_str!("../../../docs/pictures/readme-match.svg");
    if committed != svg {
        if std::env::var_os("UPDATE_PICTURES").is_some() {
            std::fs::write(
                concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/docs/pictures/readme-match.svg"
                ),
                &svg,
            )
            .unwrap();
        }
        panic!("docs/pictures/readme-match.svg is stale: rerun with UPDATE_PICTURES=1 to write it");
    }
}
