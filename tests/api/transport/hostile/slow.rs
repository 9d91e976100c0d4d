//! Slow clients: a request head, a body or an answer that stalls or
//! dribbles is cut off by `--client-request-timeout` or `--stall-timeout`,
//! while a client that is merely idle, or slow within the limits, is served.

use super::*;

#[tokio::test]
async fn a_client_stalling_its_request_head_is_cut_off_while_others_are_served() {
    let app = spawn_app_with(hostile_config()).await;
    let mut slow = connect(app.addr).await;
    slow.write_all(b"POST /v1/hands/analyze HTTP/1.1\r\nHost: lo")
        .await
        .expect("partial head sent");
    // Meanwhile another client is served as usual.
    let response = app
        .post_json("/v1/hands/analyze", &format!(r#"{{"hand": {HAND}}}"#))
        .await;
    assert_eq!(response.status(), 200);
    let cut = read_response(&mut slow, Duration::from_millis(REQUEST_TIMEOUT_MS * 10))
        .await
        .expect("the server answers the stalled client");
    assert_eq!(cut.status, 408);
    // actix-http's own 408, given a problem body by the connection guard.
    assert_eq!(cut.json()["code"], "request_timeout");
    assert!(closed_within(&mut slow, Duration::from_secs(2)).await);
    assert_metric(
        &app,
        r#"http_connections_cut_total{reason="request_head_timeout"} 1"#,
    )
    .await;
    assert_still_serving(&app).await;
}

#[tokio::test]
async fn a_client_stalling_its_body_is_cut_off_while_others_are_served() {
    let app = spawn_app_with(hostile_config()).await;
    let started = Instant::now();
    // Headers announce 200 bytes; 10 arrive, then nothing.
    let mut stalled = connect(app.addr).await;
    let head = post_head(
        "/v1/hands/analyze",
        "Content-Type: application/json\r\nContent-Length: 200\r\n",
    );
    stalled
        .write_all(format!("{head}{{\"hand\": [").as_bytes())
        .await
        .expect("sent");
    // A second one dribbles its body a byte at a time, never finishing in time.
    let mut dribbling = connect(app.addr).await;
    dribbling.write_all(head.as_bytes()).await.expect("sent");
    let dribble = tokio::spawn(async move {
        for byte in format!(r#"{{"hand": {HAND}}}"#).bytes().cycle().take(200) {
            if dribbling.write_all(&[byte]).await.is_err() {
                break;
            }
            sleep(Duration::from_millis(REQUEST_TIMEOUT_MS / 10)).await;
        }
        dribbling
    });
    let response = app
        .post_json("/v1/hands/analyze", &format!(r#"{{"hand": {HAND}}}"#))
        .await;
    assert_eq!(response.status(), 200, "others are served meanwhile");

    let cut = read_response(&mut stalled, Duration::from_millis(REQUEST_TIMEOUT_MS * 10))
        .await
        .expect("the stalled client is answered");
    assert_eq!(cut.status, 408);
    assert_eq!(cut.json()["code"], "request_timeout");
    assert!(cut.closes());
    assert!(closed_within(&mut stalled, Duration::from_secs(2)).await);

    let mut dribbling = dribble.await.expect("dribbler joins");
    assert!(
        closed_within(&mut dribbling, Duration::from_secs(2)).await,
        "the dribbling client is cut off too"
    );
    // 200 bytes at 10 per second would take 20 s: the cut came from the limit.
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_still_serving(&app).await;
}

#[tokio::test]
async fn a_body_arriving_in_parts_within_the_limit_is_answered() {
    // A pause shorter than the body timeout is not a stall.
    let app = spawn_app_with(hostile_config()).await;
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
    stream
        .write_all(format!("{head}{first}").as_bytes())
        .await
        .expect("sent");
    sleep(Duration::from_millis(REQUEST_TIMEOUT_MS / 4)).await;
    stream.write_all(rest.as_bytes()).await.expect("sent");
    let response = read_response(&mut stream, Duration::from_secs(10))
        .await
        .expect("answered");
    assert_eq!(response.status, 200, "{}", response.head);
    assert_eq!(response.json()["deadwood"], 22, "KH QD 2S");
}

#[tokio::test]
async fn a_client_stalling_a_chunked_body_is_cut_off() {
    let app = spawn_app_with(hostile_config()).await;
    let mut stalled = connect(app.addr).await;
    let head = post_head(
        "/v1/hands/analyze",
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n",
    );
    stalled
        .write_all(format!("{head}4\r\n{{\"ha\r\n").as_bytes())
        .await
        .expect("sent");
    let started = Instant::now();
    let cut = read_response(&mut stalled, Duration::from_millis(REQUEST_TIMEOUT_MS * 10))
        .await
        .expect("the stalled client is answered");
    assert_eq!(cut.status, 408);
    assert_eq!(cut.json()["code"], "request_timeout");
    // actix-http would read the rest of a chunked body to reuse the
    // connection, with no timer: the answer closes it instead, after reading
    // what the client still sends for the disconnect timeout.
    assert!(cut.closes(), "{}", cut.head);
    assert!(
        closed_within(&mut stalled, Duration::from_millis(REQUEST_TIMEOUT_MS * 3)).await,
        "the connection is closed after the disconnect timeout"
    );
    assert!(started.elapsed() < Duration::from_millis(REQUEST_TIMEOUT_MS * 4));
    assert_still_serving(&app).await;
}

#[tokio::test]
async fn every_refusal_before_the_end_of_a_body_closes_the_connection() {
    let app = spawn_app_with(hostile_config()).await;
    let chunked = "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n";
    // Each refused on a chunked body whose end never comes (the first chunk is
    // not gzip); each client keeps sending.
    let cases = [
        (
            "Content-Type: text/plain\r\nTransfer-Encoding: chunked\r\n",
            415,
        ),
        (&format!("{chunked}Content-Encoding: br\r\n"), 415),
        (&format!("{chunked}Content-Encoding: gzip\r\n"), 400),
    ];
    for (headers, status) in cases {
        let mut stream = connect(app.addr).await;
        let head = post_head("/v1/hands/analyze", headers);
        stream
            .write_all(format!("{head}15\r\nthis is not gzip data\r\n").as_bytes())
            .await
            .expect("sent");
        let refused = read_response(&mut stream, Duration::from_secs(5))
            .await
            .expect("answered before the end of the body");
        assert_eq!(refused.status, status, "{headers}");
        assert!(refused.closes(), "{headers}: {}", refused.head);
        // The client keeps sending: the server reads and discards it for the
        // disconnect timeout, then closes.
        let _ = stream.write_all(b"400\r\n").await;
        let _ = stream.write_all(&[b' '; 1024]).await;
        assert!(
            closed_within(&mut stream, Duration::from_millis(REQUEST_TIMEOUT_MS * 3)).await,
            "{headers}"
        );
    }
    // A body over the limit, sent whole: refused at the limit, closed.
    let mut stream = connect(app.addr).await;
    let head = post_head("/v1/hands/analyze", chunked);
    let chunk = format!("8000\r\n{}\r\n", " ".repeat(0x8000));
    let _ = stream.write_all(head.as_bytes()).await;
    for _ in 0..3 {
        let _ = stream.write_all(chunk.as_bytes()).await;
    }
    let refused = read_response(&mut stream, Duration::from_secs(5))
        .await
        .expect("answered");
    assert_eq!(refused.status, 413);
    assert!(refused.closes());
    assert!(closed_within(&mut stream, Duration::from_millis(REQUEST_TIMEOUT_MS * 3)).await);
    assert_still_serving(&app).await;
}

#[tokio::test]
async fn a_body_read_whole_keeps_the_connection_whatever_the_verdict() {
    let app = spawn_app_with(hostile_config()).await;
    let mut stream = connect(app.addr).await;
    // Not JSON, the wrong shape, then a valid body: three answers, one connection.
    for (body, status) in [
        ("{".to_owned(), 400),
        (r#"{"hand": 5}"#.to_owned(), 400),
        (format!(r#"{{"hand": {HAND}}}"#), 200),
    ] {
        let head = post_head(
            "/v1/hands/analyze",
            &format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                body.len()
            ),
        );
        stream
            .write_all(format!("{head}{body}").as_bytes())
            .await
            .expect("the connection is still open");
        let response = read_response(&mut stream, Duration::from_secs(5))
            .await
            .expect("answered on the same connection");
        assert_eq!(response.status, status, "{body}");
        assert!(!response.closes(), "{body}: {}", response.head);
    }
}

#[tokio::test]
async fn a_request_head_dribbled_on_a_keep_alive_connection_is_cut_off() {
    // actix-http times only the first head of a connection: the stall guard
    // bounds the later ones.
    let app = spawn_app_with(gin_referee::config::Config {
        stall_timeout: STALL_TIMEOUT_SECS,
        keep_alive: 30,
        ..hostile_config()
    })
    .await;
    let mut stream = connect(app.addr).await;
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .expect("sent");
    let first = read_response(&mut stream, Duration::from_secs(5))
        .await
        .expect("the first request is answered");
    assert_eq!(first.status, 200);
    let started = Instant::now();
    let head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ";
    let mut cut_after = None;
    for byte in head.iter().chain(std::iter::repeat(&b'a')).take(200) {
        if stream.write_all(&[*byte]).await.is_err()
            || closed_within(&mut stream, Duration::from_millis(100)).await
        {
            cut_after = Some(started.elapsed());
            break;
        }
    }
    let cut_after = cut_after.expect("the dribbling client is cut off");
    assert!(
        cut_after < Duration::from_secs(STALL_TIMEOUT_SECS * 3),
        "{cut_after:?}"
    );
    assert_metric(&app, r#"http_connections_cut_total{reason="stalled"} 1"#).await;
    assert_still_serving(&app).await;
}

#[tokio::test]
async fn an_idle_keep_alive_connection_outlives_the_stall_timeout() {
    // Idle is `--keep-alive`'s business (behind a load balancer it should be
    // the longer one): nothing was received, nothing is owed.
    let app = spawn_app_with(gin_referee::config::Config {
        stall_timeout: STALL_TIMEOUT_SECS,
        keep_alive: 30,
        ..hostile_config()
    })
    .await;
    let mut stream = connect(app.addr).await;
    for _ in 0..2 {
        stream
            .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .expect("the connection is still open");
        let response = read_response(&mut stream, Duration::from_secs(5))
            .await
            .expect("answered");
        assert_eq!(response.status, 200);
        sleep(Duration::from_secs(STALL_TIMEOUT_SECS * 2)).await;
    }
    assert_metric(&app, r#"http_connections_cut_total{reason="stalled"} 0"#).await;
}

#[tokio::test]
async fn a_client_that_stops_reading_its_answer_is_cut_off() {
    let app = spawn_app_with(gin_referee::config::Config {
        stall_timeout: STALL_TIMEOUT_SECS,
        ..hostile_config()
    })
    .await;
    // The OpenAPI document, asked for again and again, never read: the
    // answers fill the socket buffers and the server's writes stall.
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket.set_recv_buffer_size(4096).expect("small buffer");
    let mut stream = socket.connect(app.addr).await.expect("connects");
    let request = b"GET /api-docs/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n".repeat(400);
    let started = Instant::now();
    let _ = timeout(Duration::from_secs(10), stream.write_all(&request)).await;
    sleep(Duration::from_secs(STALL_TIMEOUT_SECS * 2)).await;
    assert!(
        closed_within(&mut stream, Duration::from_secs(10)).await,
        "the server gave up on the client"
    );
    assert!(started.elapsed() < Duration::from_secs(STALL_TIMEOUT_SECS * 2 + 10));
    assert_still_serving(&app).await;
}
