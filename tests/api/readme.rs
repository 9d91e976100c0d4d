//! Every request example of the README and of the guides in `docs/` runs:
//! each `curl` of the service is sent as written (path, and body after `-d`),
//! and answered 200, or exactly the JSON the page shows right after it, so no
//! page can drift from the service. (`cli.rs` runs their command lines.)

use serde_json::Value;

use crate::support::spawn_app;

/// The README and every guide, by path. A guide added to `docs/` without a
/// line here fails [`every_guide_is_checked`].
pub const DOCS: &[(&str, &str)] = &[
    ("README.md", include_str!("../../README.md")),
    ("docs/HANDS.md", include_str!("../../docs/HANDS.md")),
    ("docs/MATCHES.md", include_str!("../../docs/MATCHES.md")),
    ("docs/JOKERS.md", include_str!("../../docs/JOKERS.md")),
    ("docs/AUDITS.md", include_str!("../../docs/AUDITS.md")),
    ("docs/LIVE.md", include_str!("../../docs/LIVE.md")),
    ("docs/BOTS.md", include_str!("../../docs/BOTS.md")),
    ("docs/RECEIPTS.md", include_str!("../../docs/RECEIPTS.md")),
    ("docs/BULK.md", include_str!("../../docs/BULK.md")),
    ("docs/ERRORS.md", include_str!("../../docs/ERRORS.md")),
    (
        "docs/OPERATIONS.md",
        include_str!("../../docs/OPERATIONS.md"),
    ),
    ("docs/DEPLOY.md", include_str!("../../docs/DEPLOY.md")),
    ("docs/PYTHON.md", include_str!("../../docs/PYTHON.md")),
    ("docs/PICTURES.md", include_str!("../../docs/PICTURES.md")),
    ("docs/RULES.md", include_str!("../../docs/RULES.md")),
    ("docs/ARENA.md", include_str!("../../docs/ARENA.md")),
];
const ERRORS_GUIDE: &str = include_str!("../../docs/ERRORS.md");
const CURL: &str = "curl -s localhost:8080";

struct Example {
    path: String,
    body: Option<String>,
    /// An NDJSON body given as a here-document (`--data-binary @- <<'EOF'`).
    ndjson: Option<String>,
    /// The answer the README shows in a ```json block right after the command.
    shown: Option<Value>,
    /// The `Accept` the command sends (`-H 'accept: image/svg+xml'`), whose
    /// answer must then come in that media type.
    accept: Option<String>,
}

/// The command's text: its line and the lines it continues onto with `\`.
fn command(text: &str) -> &str {
    let mut end = 0;
    for line in text.split_inclusive('\n') {
        end += line.len();
        if !line.trim_end().ends_with('\\') {
            break;
        }
    }
    &text[..end]
}

fn examples(page: &str) -> Vec<Example> {
    let mut found = Vec::new();
    let mut rest = page;
    while let Some(start) = rest.find(CURL) {
        rest = &rest[start + CURL.len()..];
        let path: String = rest.chars().take_while(|c| !c.is_whitespace()).collect();
        let head = command(rest);
        let body = head.find("-d '").map(|at| {
            let from = &rest[at + 4..];
            from[..from.find('\'').expect("a closing quote")].to_owned()
        });
        let ndjson = head.contains("--data-binary @- <<'EOF'").then(|| {
            let from = &rest[head.len()..];
            from[..from.find("\nEOF").expect("the here-document ends")].to_owned() + "\n"
        });
        // The answer's block follows the command's, a blank line between or not.
        let after = rest[rest.find("\n```").map_or(0, |at| at + 4)..].trim_start_matches('\n');
        let shown = after
            .strip_prefix("```json\n")
            .and_then(|json| json.split("\n```").next())
            .and_then(|json| serde_json::from_str(json).ok());
        let accept = head.find("-H 'accept: ").map(|at| {
            let from = &head[at + 12..];
            from[..from.find('\'').expect("a closing quote")].to_owned()
        });
        found.push(Example {
            path,
            body,
            ndjson,
            shown,
            accept,
        });
    }
    found
}

#[test]
fn every_guide_is_checked() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/docs");
    let mut guides: Vec<String> = std::fs::read_dir(dir)
        .expect("docs/ is readable")
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    guides.sort();
    let mut checked: Vec<String> = DOCS
        .iter()
        .map(|(name, _)| (*name).to_owned())
        .filter(|name| name.starts_with("docs/"))
        .collect();
    checked.sort();
    assert_eq!(guides, checked, "list every guide in readme::DOCS");
}

/// Every link from the README and the guides to a file of the project leads
/// to one: a reader finds each capability in one click.
#[test]
fn every_relative_link_resolves() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for (name, page) in DOCS {
        let dir = root.join(name).parent().expect("a directory").to_owned();
        for target in page.split("](").skip(1).filter_map(|s| s.split(')').next()) {
            if target.contains("://") || target.starts_with('#') || target.starts_with('/') {
                continue;
            }
            let file = target.split('#').next().unwrap_or(target);
            assert!(dir.join(file).exists(), "{name}: {target} does not exist");
        }
    }
}

#[tokio::test]
async fn every_request_of_the_readme_and_the_guides_is_answered_as_shown() {
    // Every page but the deployment guide, the rules and the Python guide
    // (whose examples are Python, run by python/tests/test_readme.py) has
    // requests to run.
    for (name, page) in DOCS {
        let bare = ["docs/DEPLOY.md", "docs/RULES.md", "docs/PYTHON.md"].contains(name);
        assert!(bare || !examples(page).is_empty(), "{name} has no example");
    }
    let all: Vec<(&str, Example)> = DOCS
        .iter()
        .flat_map(|(name, page)| examples(page).into_iter().map(move |e| (*name, e)))
        .collect();
    assert!(all.len() >= 30, "{} examples found", all.len());
    let app = spawn_app().await;
    for (
        name,
        Example {
            path,
            body,
            ndjson,
            shown,
            accept,
        },
    ) in all
    {
        let response = match (&body, &ndjson) {
            (_, Some(lines)) => app
                .client
                .post(app.url(&path))
                .header("content-type", "application/x-ndjson")
                .body(lines.clone())
                .send()
                .await
                .expect("an answer"),
            (Some(body), None) => {
                let mut request = app
                    .client
                    .post(app.url(&path))
                    .header("content-type", "application/json");
                if let Some(accept) = &accept {
                    request = request.header("accept", accept);
                }
                request.body(body.clone()).send().await.expect("an answer")
            }
            (None, None) => app.get(&path).await,
        };
        let status = response.status().as_u16();
        let media = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        // A picture asked for comes as that picture (unless the page shows
        // the problem answered instead).
        if let Some(picture) = accept.as_deref().filter(|_| shown.is_none()) {
            assert!(
                media.starts_with(picture) && status == 200,
                "{name}: {path} with Accept {picture} answered {status} {media}"
            );
        }
        let text = response.text().await.unwrap_or_default();
        match shown {
            Some(shown) => {
                let answered: Value = serde_json::from_str(&text).unwrap_or_default();
                assert_eq!(answered, shown, "{name}: {path} {body:?}");
            }
            None => assert_eq!(status, 200, "{name}: {path} {body:?}: {text}"),
        }
    }
}

/// The errors guide's table is the one in the code, row for row.
#[test]
fn the_error_table_of_the_errors_guide_is_the_generated_one() {
    let start = ERRORS_GUIDE
        .find("<!-- error-codes:start -->\n")
        .expect("docs/ERRORS.md marks the error table's start");
    let end = ERRORS_GUIDE
        .find("<!-- error-codes:end -->")
        .expect("docs/ERRORS.md marks the error table's end");
    let documented = &ERRORS_GUIDE[start + "<!-- error-codes:start -->\n".len()..end];
    assert_eq!(
        documented,
        gin_contract::error_codes::markdown_table(),
        "docs/ERRORS.md's error table differs from the code's: paste `cargo run -q -- errors` between the markers"
    );
}
