//! Many connections: thousands of idle ones, more than `--max-connections`,
//! and the slowest shed near the cap, while a real client is still served.

use super::*;

/// The soft limit on open files of this process, from `/proc` (no libc crate).
fn open_file_limit() -> usize {
    std::fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|limits| {
            limits
                .lines()
                .find(|l| l.starts_with("Max open files"))
                .and_then(|l| l.split_whitespace().nth(3))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(1024)
}

#[tokio::test]
async fn thousands_of_idle_connections_do_not_starve_a_real_client() {
    let app = spawn_app_with(hostile_config()).await;
    // Both ends of every connection live in this process: two descriptors each.
    let count = 2_000.min(open_file_limit().saturating_sub(256) / 2);
    let mut idle = Vec::with_capacity(count);
    for _ in 0..count {
        match timeout(Duration::from_secs(2), TcpStream::connect(app.addr)).await {
            Ok(Ok(stream)) => idle.push(stream),
            _ => break,
        }
    }
    assert!(idle.len() >= count / 2, "opened {} of {count}", idle.len());
    let response = app
        .post_json("/v1/hands/analyze", &format!(r#"{{"hand": {HAND}}}"#))
        .await;
    assert_eq!(response.status(), 200);
    // Idle connections that never send a request are closed by the request
    // timeout (with a 408), so they cannot pile up for ever.
    sleep(Duration::from_millis(REQUEST_TIMEOUT_MS)).await;
    let mut closed = 0;
    for stream in idle.iter_mut().take(50) {
        if closed_within(stream, Duration::from_millis(REQUEST_TIMEOUT_MS * 2)).await {
            closed += 1;
        }
    }
    assert_eq!(
        closed, 50,
        "idle connections are closed by the request timeout"
    );
    drop(idle);
    assert_still_serving(&app).await;
}

#[tokio::test]
async fn over_max_connections_new_clients_wait_and_are_then_served() {
    // 20 connections per worker (one worker): the 21st waits in the backlog
    // until the request timeout frees a slot.
    let app = spawn_app_with(gin_referee::config::Config {
        max_connections: 20,
        ..hostile_config()
    })
    .await;
    let mut idle = Vec::new();
    for _ in 0..40 {
        idle.push(connect(app.addr).await);
    }
    let response = timeout(
        Duration::from_millis(REQUEST_TIMEOUT_MS * 20),
        app.client.get(app.url("/healthz")).send(),
    )
    .await
    .expect("served once the idle connections time out")
    .expect("answered");
    assert_eq!(response.status(), 200);
    drop(idle);
    assert_still_serving(&app).await;
}

#[tokio::test]
async fn near_the_connection_cap_the_slowest_connections_are_shed() {
    // Request timeouts of 10 s would keep 40 silent connections for 10 s; near
    // the cap of 20 (shedding from 18), each is cut after a second instead.
    let app = spawn_app_with(gin_referee::config::Config {
        max_connections: 20,
        client_request_timeout: 10_000,
        ..test_config()
    })
    .await;
    let mut silent = Vec::new();
    for _ in 0..40 {
        silent.push(connect(app.addr).await);
    }
    let started = Instant::now();
    let response = timeout(
        Duration::from_secs(8),
        app.client.get(app.url("/healthz")).send(),
    )
    .await
    .expect("served long before the request timeout")
    .expect("answered");
    assert_eq!(response.status(), 200);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    let metrics = app.get("/metrics").await.text().await.expect("text");
    let shed: u64 = metrics
        .lines()
        .find_map(|l| l.strip_prefix(r#"http_connections_cut_total{reason="shed"} "#))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(shed >= 20, "{metrics}");
    drop(silent);
    assert_still_serving(&app).await;
}

#[tokio::test]
async fn away_from_the_cap_a_slow_client_has_the_whole_stall_timeout() {
    let app = spawn_app_with(gin_referee::config::Config {
        stall_timeout: 5,
        client_request_timeout: 5000,
        ..test_config()
    })
    .await;
    // A body sent in two parts 2 s apart is read whole: not near the cap,
    // nothing is shed.
    let body = format!(r#"{{"hand": {HAND}}}"#);
    let (first, rest) = body.split_at(10);
    let mut stream = connect(app.addr).await;
    let head = post_head(
        "/v1/hands/analyze",
        &format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ),
    );
    stream.write_all(head.as_bytes()).await.expect("sent");
    sleep(Duration::from_millis(1500)).await;
    stream.write_all(first.as_bytes()).await.expect("sent");
    sleep(Duration::from_millis(REQUEST_TIMEOUT_MS / 2)).await;
    stream.write_all(rest.as_bytes()).await.expect("sent");
    let response = read_response(&mut stream, Duration::from_secs(10))
        .await
        .expect("answered");
    assert_eq!(response.status, 200);
    assert_metric(&app, r#"http_connections_cut_total{reason="shed"} 0"#).await;
}
