//! Every kind of bad request answers problem+json with a stable code.

use crate::support::{expect_problem, spawn_app};

#[tokio::test]
async fn a_valid_body_reaches_the_handler() {
    let app = spawn_app().await;
    let response = app
        .post_json("/test/echo", r#"{"knocker": {"hand": ["7S", "TD"]}}"#)
        .await;
    assert_eq!(response.status(), 200);
    let echoed: serde_json::Value = response.json().await.expect("json");
    assert_eq!(echoed["knocker"]["hand"][1], "TD");
}

#[tokio::test]
async fn bad_bodies_are_rejected_with_a_code_and_a_pointer() {
    let app = spawn_app().await;
    // (body, code, (pointer, code) of the first entry in `errors`)
    let cases = [
        ("{\"knocker\": ", "malformed_json", None),
        ("not json at all", "malformed_json", None),
        ("", "malformed_json", None),
        (
            r#"{"knocker": {"hand": []}} trailing"#,
            "malformed_json",
            None,
        ),
        (
            r#"{"knocker": {"hand": ["7S", "8S", "9S", "1X"]}}"#,
            "invalid_body",
            Some(("/knocker/hand/3", "invalid_value")),
        ),
        (
            r#"{"knocker": {"hand": "7S"}}"#,
            "invalid_body",
            Some(("/knocker/hand", "invalid_type")),
        ),
        (
            r#"{"knocker": {"hand": [7]}}"#,
            "invalid_body",
            Some(("/knocker/hand/0", "invalid_type")),
        ),
        (
            r#"{"knocker": {}}"#,
            "invalid_body",
            Some(("/knocker/hand", "missing_field")),
        ),
        (
            r#"{"knocker": {"hand": []}, "jokers": 2}"#,
            "invalid_body",
            Some(("/jokers", "unknown_field")),
        ),
        ("42", "invalid_body", Some(("", "invalid_type"))),
    ];
    for (body, code, first_error) in cases {
        let response = app.post_json("/test/echo", body).await;
        let problem = expect_problem(response, 400, code).await;
        match first_error {
            Some((pointer, error_code)) => {
                let error = problem.errors.first().expect("an error entry");
                assert_eq!(error.pointer, pointer, "body {body}");
                assert_eq!(error.code, error_code, "body {body}");
            }
            None => assert!(problem.errors.is_empty(), "body {body}"),
        }
    }
}

#[tokio::test]
async fn the_card_parsers_message_is_passed_on() {
    let app = spawn_app().await;
    let response = app
        .post_json("/test/echo", r#"{"knocker": {"hand": ["1X"]}}"#)
        .await;
    let problem = expect_problem(response, 400, "invalid_body").await;
    assert_eq!(problem.errors[0].message, "invalid card \"1X\"");
    assert!(
        problem.detail.contains("/knocker/hand/0"),
        "{}",
        problem.detail
    );
}

#[tokio::test]
async fn a_non_json_content_type_is_415() {
    let app = spawn_app().await;
    for content_type in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "not a type",
    ] {
        let response = app
            .client
            .post(app.url("/test/echo"))
            .header("content-type", content_type)
            .body(r#"{"knocker": {"hand": []}}"#)
            .send()
            .await
            .expect("answered");
        expect_problem(response, 415, "unsupported_media_type").await;
    }
}

#[tokio::test]
async fn json_content_types_and_a_missing_one_are_accepted() {
    let app = spawn_app().await;
    for content_type in [
        Some("application/json"),
        Some("application/json; charset=utf-8"),
        Some("application/vnd.gin+json"),
        None,
    ] {
        let mut request = app
            .client
            .post(app.url("/test/echo"))
            .body(r#"{"knocker": {"hand": []}}"#);
        if let Some(content_type) = content_type {
            request = request.header("content-type", content_type);
        }
        let response = request.send().await.expect("answered");
        assert_eq!(response.status(), 200, "{content_type:?}");
    }
}

#[tokio::test]
async fn a_body_over_the_limit_is_413() {
    let app = spawn_app().await;
    let padding = " ".repeat(70 * 1024);
    let body = format!(r#"{{"knocker": {{"hand": []}}{padding}}}"#);
    let response = app.post_json("/test/echo", &body).await;
    let problem = expect_problem(response, 413, "payload_too_large").await;
    assert!(problem.detail.contains("65536"), "{}", problem.detail);
}

#[tokio::test]
async fn a_chunked_body_over_the_limit_is_413() {
    let app = spawn_app().await;
    let chunk = " ".repeat(16 * 1024);
    let mut request =
        b"POST /test/echo HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n\
        Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            .to_vec();
    for _ in 0..5 {
        request.extend_from_slice(format!("{:x}\r\n{chunk}\r\n", chunk.len()).as_bytes());
    }
    request.extend_from_slice(b"0\r\n\r\n");
    let response = app.raw(&request).await;
    assert!(response.starts_with("HTTP/1.1 413"), "{response}");
    assert!(
        response.contains("\"code\":\"payload_too_large\""),
        "{response}"
    );
}

#[tokio::test]
async fn the_body_limit_is_configurable() {
    let mut config = crate::support::test_config();
    config.body_limit = 1024;
    let app = crate::support::spawn_app_with(config).await;
    let body = format!(
        r#"{{"knocker": {{"hand": []}}, "profile": "{}"}}"#,
        "x".repeat(1100)
    );
    let response = app.post_json("/test/echo", &body).await;
    expect_problem(response, 413, "payload_too_large").await;
}

#[tokio::test]
async fn an_unknown_path_is_404() {
    let app = spawn_app().await;
    for path in [
        "/nope",
        "/v1/nothing/here",
        "/healthz/extra",
        "/docs/no-such-file.js",
    ] {
        let problem = expect_problem(app.get(path).await, 404, "not_found").await;
        assert_eq!(problem.instance.as_deref(), Some(path));
    }
}

#[tokio::test]
async fn a_wrong_method_on_a_known_path_is_405_with_allow() {
    let app = spawn_app().await;
    for (method, path) in [
        (reqwest::Method::POST, "/healthz"),
        (reqwest::Method::DELETE, "/metrics"),
        (reqwest::Method::PUT, "/api-docs/openapi.json"),
        (reqwest::Method::POST, "/docs/index.html"),
    ] {
        let response = app
            .client
            .request(method.clone(), app.url(path))
            .send()
            .await
            .expect("answered");
        let allow = response
            .headers()
            .get("allow")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        assert_eq!(allow.as_deref(), Some("GET"), "{method} {path}");
        expect_problem(response, 405, "method_not_allowed").await;
    }
}

#[tokio::test]
async fn a_panicking_handler_answers_500_and_the_server_keeps_serving() {
    let app = spawn_app().await;
    let problem = expect_problem(app.get("/test/panic").await, 500, "internal_error").await;
    assert!(!problem.detail.contains("a bug in a handler"));
    assert_eq!(app.get("/healthz").await.status(), 200);
}

#[tokio::test]
async fn a_panicking_extractor_answers_500_too() {
    let app = spawn_app().await;
    expect_problem(
        app.get("/test/panic-extractor").await,
        500,
        "internal_error",
    )
    .await;
    let metrics = app.get("/metrics").await.text().await.expect("text");
    assert!(
        metrics.contains(r#"http_requests_total{method="GET",route="unknown",status="500"} 1"#),
        "{metrics}"
    );
}

#[tokio::test]
async fn errors_carry_the_request_id_too() {
    let app = spawn_app().await;
    let response = app
        .client
        .get(app.url("/nope"))
        .header("x-request-id", "trace-me")
        .send()
        .await
        .expect("answered");
    assert_eq!(
        response.headers().get("x-request-id").map(|v| v.as_bytes()),
        Some(&b"trace-me"[..])
    );
}

#[tokio::test]
async fn a_malformed_request_line_is_refused_without_a_crash() {
    let app = spawn_app().await;
    let response = app.raw(b"BLAH\r\n\r\n").await;
    assert!(response.starts_with("HTTP/1.1 400"), "{response}");
    assert_eq!(app.get("/healthz").await.status(), 200);
}

#[tokio::test]
async fn a_query_string_is_not_read() {
    // No operation takes query parameters: one sent changes nothing.
    let app = spawn_app().await;
    let body = r#"{"hand": ["7S","7H","7D","3C","4C","5C","6C","KH","QD","2S"]}"#;
    let plain = app.post_json("/v1/hands/analyze", body).await;
    let with_query = app
        .post_json("/v1/hands/analyze?profile=oklahoma&x=%zz", body)
        .await;
    assert_eq!(
        (plain.status().as_u16(), with_query.status().as_u16()),
        (200, 200)
    );
    assert_eq!(
        plain.text().await.unwrap_or_default(),
        with_query.text().await.unwrap_or_default()
    );
}
