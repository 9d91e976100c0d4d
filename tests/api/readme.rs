//! Every request example of the README runs: each `curl` of the service in the
//! README is sent as written (path, and body after `-d`), and answered 200, or
//! exactly the JSON the README shows right after it, so the README cannot
//! drift from the service.

use serde_json::Value;

use crate::support::spawn_app;

const README: &str = include_str!("../../README.md");
const CURL: &str = "curl -s localhost:8080";

struct Example {
    path: String,
    body: Option<String>,
    /// An NDJSON body given as a here-document (`--data-binary @- <<'EOF'`).
    ndjson: Option<String>,
    /// The answer the README shows in a ```json block right after the command.
    shown: Option<Value>,
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

fn examples() -> Vec<Example> {
    let mut found = Vec::new();
    let mut rest = README;
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
        found.push(Example {
            path,
            body,
            ndjson,
            shown,
        });
    }
    found
}

#[tokio::test]
async fn every_readme_request_is_answered_as_shown() {
    let examples = examples();
    assert!(examples.len() >= 10, "{} examples found", examples.len());
    let app = spawn_app().await;
    for Example {
        path,
        body,
        ndjson,
        shown,
    } in examples
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
            (Some(body), None) => app.post_json(&path, body).await,
            (None, None) => app.get(&path).await,
        };
        let status = response.status().as_u16();
        let text = response.text().await.unwrap_or_default();
        match shown {
            Some(shown) => {
                let answered: Value = serde_json::from_str(&text).unwrap_or_default();
                assert_eq!(answered, shown, "{path} {body:?}");
            }
            None => assert_eq!(status, 200, "{path} {body:?}: {text}"),
        }
    }
}

/// The README's error table is the one in the code, row for row.
#[test]
fn the_readme_error_table_is_the_generated_one() {
    let start = README
        .find("<!-- error-codes:start -->\n")
        .expect("README marks the error table's start");
    let end = README
        .find("<!-- error-codes:end -->")
        .expect("README marks the error table's end");
    let documented = &README[start + "<!-- error-codes:start -->\n".len()..end];
    assert_eq!(
        documented,
        gin_referee::http::error_codes::markdown_table(),
        "the README's error table differs from the code's: paste `cargo run -q -- errors` between the markers"
    );
}
