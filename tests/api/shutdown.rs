//! Graceful shutdown under load loses no accepted request.
//!
//! Forty clients keep requests in flight against a scoring route that takes a
//! little while (the real extractor and engine, plus 30 ms), half of them on
//! keep-alive connections and half on a new connection per request. The server
//! is then stopped gracefully (the path SIGTERM and SIGINT take). The route
//! counts the requests that reach it; every one of them must come back to its
//! client as a complete 200, failures must all be connection-level and come
//! after the stop began, and once the server has stopped it refuses new
//! connections.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use actix_web::{HttpResponse, web};
use gin_contract::answers::hands::ScoreRequest;
use gin_contract::wire::knock::ScoreResponse;
use gin_contract::wire::profile_spec::resolve_profile;
use gin_referee::http::json::ValidJson;
use gin_referee::startup::{Application, Shared, app, with_documented_routes};
use gin_rules::score_hand;
use tokio::time::{Instant, sleep, timeout};

use crate::support::test_config;

const BODY: &str = r#"{
    "knocker":  {"hand": ["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "AH"]},
    "defender": {"hand": ["6H", "2H", "JS", "JH", "JD", "7S", "7H", "7C", "4D", "5S"]}
}"#;

/// Requests that reached the handler.
#[derive(Default)]
struct Entered(AtomicUsize);

async fn counted_score(entered: web::Data<Entered>, body: ValidJson<ScoreRequest>) -> HttpResponse {
    entered.0.fetch_add(1, Ordering::SeqCst);
    actix_web::rt::time::sleep(Duration::from_millis(30)).await;
    let request = body.into_inner();
    let scored = resolve_profile(request.profile.as_ref())
        .ok()
        .and_then(|profile| {
            score_hand(
                &profile,
                request.upcard,
                &request.knocker.rules().ok()?,
                &request.defender.rules(),
            )
            .ok()
        });
    match scored {
        Some(scored) => HttpResponse::Ok().json(ScoreResponse::from(scored)),
        None => HttpResponse::UnprocessableEntity().finish(),
    }
}

#[derive(Debug, Default)]
struct Outcomes {
    ok: usize,
    bad_status: Vec<u16>,
    incomplete_bodies: usize,
    errors_before_stop: Vec<String>,
    errors_after_stop: usize,
}

#[tokio::test]
async fn a_graceful_stop_under_load_answers_every_accepted_request() {
    let entered = Arc::new(Entered::default());
    let config = gin_referee::config::Config {
        workers: Some(2),
        shutdown_timeout: 10,
        ..test_config()
    };
    let shared = Shared::new(&config).expect("the shared state builds");
    let (for_workers, counter) = (shared.clone(), entered.clone());
    let app = Application::serve(&config, &shared, move || {
        let counted = app(&for_workers)
            .app_data(web::Data::from(counter.clone()))
            .route("/test/counted-score", web::post().to(counted_score));
        with_documented_routes(counted, &for_workers)
    })
    .expect("the app builds");
    let (addr, handle) = (app.addr(), app.handle());
    let server = tokio::spawn(app.run_until_stopped());
    let url = format!("http://{addr}/test/counted-score");

    let stopping = Arc::new(AtomicBool::new(false));
    let outcomes = Arc::new(std::sync::Mutex::new(Outcomes::default()));
    let mut clients = Vec::new();
    for i in 0..40 {
        let keep_alive = i % 2 == 0;
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(15))
            .pool_max_idle_per_host(if keep_alive { 1 } else { 0 })
            .build()
            .expect("client builds");
        let (url, stopping, outcomes) = (url.clone(), stopping.clone(), outcomes.clone());
        clients.push(tokio::spawn(async move {
            let deadline = Instant::now() + Duration::from_secs(20);
            while Instant::now() < deadline {
                let sent_after_stop = stopping.load(Ordering::SeqCst);
                let result = client
                    .post(&url)
                    .header("content-type", "application/json")
                    .body(BODY)
                    .send()
                    .await;
                let mut seen = outcomes.lock().expect("not poisoned");
                match result {
                    Ok(response) => {
                        let status = response.status().as_u16();
                        drop(seen);
                        let body = response.bytes().await;
                        let mut seen = outcomes.lock().expect("not poisoned");
                        match body
                            .ok()
                            .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
                        {
                            Some(json) if status == 200 && json["points"] == 8 => seen.ok += 1,
                            Some(_) => seen.bad_status.push(status),
                            None => seen.incomplete_bodies += 1,
                        }
                    }
                    Err(err) => {
                        if sent_after_stop || stopping.load(Ordering::SeqCst) {
                            seen.errors_after_stop += 1;
                            // Refused or reset: the server is going away. Stop.
                            return;
                        }
                        seen.errors_before_stop.push(err.to_string());
                        return;
                    }
                }
            }
        }));
    }

    // Let the load settle, then stop while requests are in flight.
    sleep(Duration::from_millis(400)).await;
    let entered_before = entered.0.load(Ordering::SeqCst);
    stopping.store(true, Ordering::SeqCst);
    let in_flight_at_stop =
        entered_before.saturating_sub(outcomes.lock().expect("not poisoned").ok);
    timeout(Duration::from_secs(15), handle.stop(true))
        .await
        .expect("the server stops within its shutdown timeout");
    timeout(Duration::from_secs(5), server)
        .await
        .expect("the server task ends")
        .expect("the server task joins")
        .expect("the server ran without error");
    for client in clients {
        timeout(Duration::from_secs(20), client)
            .await
            .expect("every client finishes")
            .expect("client task joins");
    }

    let outcomes = std::mem::take(&mut *outcomes.lock().expect("not poisoned"));
    let entered = entered.0.load(Ordering::SeqCst);
    // Shown with --nocapture: how much the test exercised.
    eprintln!(
        "entered {entered} ({entered_before} before the stop, about {in_flight_at_stop} in flight), \
         answered {}, refused or reset after the stop {}",
        outcomes.ok, outcomes.errors_after_stop
    );
    assert!(
        entered_before > 40,
        "load was running: {entered_before} requests before the stop"
    );
    assert!(in_flight_at_stop > 0, "requests were in flight at the stop");
    assert!(
        outcomes.errors_before_stop.is_empty(),
        "{:?}",
        outcomes.errors_before_stop
    );
    assert!(outcomes.bad_status.is_empty(), "{:?}", outcomes.bad_status);
    assert_eq!(outcomes.incomplete_bodies, 0, "truncated responses");
    assert_eq!(
        outcomes.ok, entered,
        "every request that reached the handler was answered 200 in full ({outcomes:?})"
    );
    assert!(
        reqwest::Client::new()
            .get(format!("http://{addr}/healthz"))
            .send()
            .await
            .is_err_and(|err| err.is_connect()),
        "a stopped server refuses new connections"
    );
}
