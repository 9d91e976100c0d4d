//! Operational endpoints: probes, metrics, the OpenAPI document, Swagger UI,
//! request ids and graceful shutdown.

use std::time::Duration;

use crate::support::{spawn_app, test_config};

#[tokio::test]
async fn healthz_answers_ok() {
    let app = spawn_app().await;
    let response = app.get("/healthz").await;
    assert_eq!(response.status(), 200);
    let body: serde_json::Value = response.json().await.expect("json");
    assert_eq!(body, serde_json::json!({"status": "ok"}));
}

#[tokio::test]
async fn readyz_answers_ready() {
    let app = spawn_app().await;
    let response = app.get("/readyz").await;
    assert_eq!(response.status(), 200);
    let body: serde_json::Value = response.json().await.expect("json");
    assert_eq!(body, serde_json::json!({"status": "ready"}));
}

async fn metrics_text(app: &crate::support::TestApp) -> String {
    let response = app.get("/metrics").await;
    assert_eq!(response.status(), 200);
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    assert!(content_type.starts_with("text/plain"), "{content_type}");
    response.text().await.expect("text")
}

#[tokio::test]
async fn metrics_count_requests_by_route_pattern() {
    let app = spawn_app().await;
    app.get("/healthz").await;
    app.get("/healthz").await;
    let text = metrics_text(&app).await;
    assert!(
        text.contains(r#"http_requests_total{method="GET",route="/healthz",status="200"} 2"#),
        "{text}"
    );
    assert!(
        text.contains(
            r#"http_request_duration_seconds_bucket{method="GET",route="/healthz",status="200",le="0.00005"}"#
        ),
        "{text}"
    );
}

#[tokio::test]
async fn unknown_paths_share_one_label() {
    let app = spawn_app().await;
    app.get("/wp-admin/setup.php").await;
    app.get("/another/random/path").await;
    let text = metrics_text(&app).await;
    assert!(
        text.contains(r#"http_requests_total{method="GET",route="unmatched",status="404"} 2"#),
        "{text}"
    );
    assert!(
        !text.contains("wp-admin") && !text.contains("random"),
        "{text}"
    );
}

#[tokio::test]
async fn a_wrong_method_is_labelled_with_the_known_route() {
    let app = spawn_app().await;
    app.client
        .post(app.url("/healthz"))
        .send()
        .await
        .expect("answered");
    let text = metrics_text(&app).await;
    assert!(
        text.contains(r#"http_requests_total{method="POST",route="/healthz",status="405"} 1"#),
        "{text}"
    );
}

#[tokio::test]
async fn process_metrics_are_exported() {
    let app = spawn_app().await;
    let text = metrics_text(&app).await;
    for metric in [
        "process_cpu_seconds_total",
        "process_resident_memory_bytes",
        "process_open_fds",
    ] {
        assert!(text.contains(metric), "{metric} missing from\n{text}");
    }
}

/// A server started without a keys file admits everyone, and its document
/// says so: no operation requires a key, no scheme to authorize with, no
/// refusal for a key it never asks for; otherwise it is the committed one
/// (which describes a server with keys, and says so).
#[tokio::test]
async fn a_server_without_keys_serves_a_document_that_requires_no_key() {
    let app = spawn_app().await;
    let response = app.get("/api-docs/openapi.json").await;
    assert_eq!(response.status(), 200);
    let served: serde_json::Value = response.json().await.expect("json");
    let text = served.to_string();
    assert!(
        !text.contains("\"security\""),
        "a key requirement is declared"
    );
    assert!(served["components"].get("securitySchemes").is_none());
    for (path, item) in served["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("operations") {
            for status in ["401", "403", "429"] {
                assert!(
                    operation["responses"].get(status).is_none(),
                    "{method} {path} documents {status}, which only a key refuses"
                );
            }
        }
    }
    let description = served["info"]["description"].as_str().unwrap_or_default();
    assert!(
        description.contains("This server was started without a keys file"),
        "{description}"
    );
    let committed: serde_json::Value =
        serde_json::from_str(include_str!("../../../openapi/openapi.json"))
            .expect("committed json");
    let described = committed["info"]["description"]
        .as_str()
        .unwrap_or_default();
    assert!(
        described.contains("This document describes a server started with `--api-keys`"),
        "{described}"
    );
    let paths = |doc: &serde_json::Value| doc["paths"].as_object().map(|p| p.len());
    assert_eq!(paths(&served), paths(&committed));
}

#[tokio::test]
async fn docs_redirects_to_the_swagger_ui() {
    let app = spawn_app().await;
    let response = app.get("/docs").await;
    assert!(response.status().is_redirection(), "{}", response.status());
    assert_eq!(
        response.headers().get("location").map(|v| v.as_bytes()),
        Some(&b"/docs/"[..])
    );
}

#[tokio::test]
async fn swagger_ui_is_served_offline_and_points_at_the_document() {
    let app = spawn_app().await;
    let response = app.get("/docs/").await;
    assert_eq!(response.status(), 200);
    let html = response.text().await.expect("html");
    assert!(html.contains("swagger-ui"), "{html}");

    let initializer = app.get("/docs/swagger-initializer.js").await;
    assert_eq!(initializer.status(), 200);
    let script = initializer.text().await.expect("script");
    assert!(script.contains("/api-docs/openapi.json"), "{script}");
}

#[tokio::test]
async fn a_request_id_is_echoed() {
    let app = spawn_app().await;
    let response = app
        .client
        .get(app.url("/healthz"))
        .header("x-request-id", "req-42.a:b")
        .send()
        .await
        .expect("answered");
    assert_eq!(
        response.headers().get("x-request-id").map(|v| v.as_bytes()),
        Some(&b"req-42.a:b"[..])
    );
}

fn request_id(response: &reqwest::Response) -> String {
    response
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn a_request_id_is_generated_when_absent_or_unusable() {
    let app = spawn_app().await;
    let without = app.get("/healthz").await;
    let generated = request_id(&without);
    assert!(uuid_like(&generated), "{generated:?}");

    let too_long = app
        .client
        .get(app.url("/healthz"))
        .header("x-request-id", "x".repeat(200))
        .send()
        .await
        .expect("answered");
    let replaced = request_id(&too_long);
    assert!(uuid_like(&replaced), "{replaced:?}");
    assert_ne!(generated, replaced);
}

fn uuid_like(id: &str) -> bool {
    id.len() == 36 && id.chars().filter(|c| *c == '-').count() == 4
}

#[tokio::test]
async fn a_graceful_stop_lets_an_in_flight_request_finish() {
    let app = spawn_app().await;
    let client = app.client.clone();
    let url = app.url("/test/slow");
    let in_flight = tokio::spawn(async move { client.get(url).send().await });
    // Let the request reach the handler before stopping.
    actix_web::rt::time::sleep(Duration::from_millis(150)).await;
    let stopped = tokio::spawn(app.handle.stop(true));
    let response = in_flight
        .await
        .expect("task joins")
        .expect("the in-flight request is answered");
    assert_eq!(response.status(), 200);
    assert_eq!(response.text().await.expect("body"), "done");
    stopped.await.expect("server stops");
    assert!(
        app.client.get(app.url("/healthz")).send().await.is_err(),
        "a stopped server accepts no new connection"
    );
}

#[tokio::test]
async fn the_listen_address_is_the_bound_one() {
    let app = crate::support::spawn_app_with(test_config()).await;
    assert_ne!(app.addr.port(), 0);
    assert!(app.addr.ip().is_loopback());
}

#[tokio::test]
async fn every_response_forbids_content_sniffing() {
    let app = spawn_app().await;
    let mut responses = Vec::new();
    for path in [
        "/healthz",
        "/metrics",
        "/api-docs/openapi.json",
        "/docs",
        "/docs/",
        "/docs/index.css",
        "/nope",
        "/test/panic",
    ] {
        responses.push((path, app.get(path).await));
    }
    responses.push((
        "POST /healthz",
        app.client
            .post(app.url("/healthz"))
            .send()
            .await
            .expect("answered"),
    ));
    responses.push(("a bad body", app.post_json("/v1/hands/analyze", "{").await));
    for (what, response) in responses {
        assert_eq!(
            response
                .headers()
                .get("x-content-type-options")
                .map(|v| v.as_bytes()),
            Some(&b"nosniff"[..]),
            "{what} ({})",
            response.status()
        );
    }
}

#[tokio::test]
async fn client_faults_are_exported_from_zero() {
    let app = spawn_app().await;
    let response = app.get("/metrics").await;
    let text = response.text().await.expect("text");
    for line in [
        r#"http_malformed_requests_total{reason="malformed_request"} 0"#,
        r#"http_malformed_requests_total{reason="request_head_too_large"} 0"#,
        r#"http_connections_cut_total{reason="request_head_timeout"} 0"#,
        r#"http_connections_cut_total{reason="stalled"} 0"#,
    ] {
        assert!(text.contains(line), "{line} missing from\n{text}");
    }
}
