//! What a picture costs against the JSON answer of the same request (issue 35:
//! at most twice its CPU): each request read from bytes and answered, then
//! written as JSON or drawn as the SVG (and the HTML page), as the server does.
//! The match score of the OpenAPI example (six hands) and of a 100-hand match,
//! the match audit of its legal example, the hand audit of its legal knock.
//! The picture's cases start from the same bytes and do all the JSON case
//! does but write JSON: read the request, answer it (for the hand, keep its
//! record as the route does), lay out the picture and write it.

// A benchmark's fixtures are built once up front: a failure there is a bug in
// the benchmark, reported at once.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::indexing_slicing)]

use criterion::{Criterion, criterion_group, criterion_main};
use gin_contract::answers::{audit, match_audit, matches};
use gin_contract::json::from_slice;
use gin_contract::limits::RequestLimits;
use gin_contract::wire::receipt::Keys;
use gin_referee::pictures::replay::HandRecord;
use gin_referee::pictures::{Drawing, Picture};
use serde_json::{Value, json};

fn six_hands() -> Value {
    json!({"profile": "standard", "players": ["Mom", "Dad"], "hands": [
        {"knocker": "Mom", "knocker_deadwood": 5, "defender_deadwood": 15},
        {"knocker": "Mom", "knocker_deadwood": 0, "defender_deadwood": 6},
        {"knocker": "Mom", "knocker_deadwood": 4, "defender_deadwood": 2},
        {"knocker": "Mom", "knocker_deadwood": 10, "defender_deadwood": 43},
        {"knocker": "Dad", "knocker_deadwood": 0, "defender_deadwood": 10},
        {"knocker": "Mom", "knocker_deadwood": 0, "defender_deadwood": 11}]})
}

/// 100 hands won by one point each, in turn: the game never ends.
fn hundred_hands() -> Value {
    let hands: Vec<Value> = (0..100)
        .map(|i| {
            let knocker = if i % 2 == 0 { "Mom" } else { "Dad" };
            json!({"knocker": knocker, "knocker_deadwood": 9, "defender_deadwood": 10})
        })
        .collect();
    json!({"players": ["Mom", "Dad"], "hands": hands})
}

fn bench(c: &mut Criterion) {
    let limits = RequestLimits::default();
    let keys = Keys::none();
    let mut group = c.benchmark_group("pictures");
    for (name, request) in [("score_6", six_hands()), ("score_100", hundred_hands())] {
        let body = request.to_string().into_bytes();
        let answer = |body: &[u8]| {
            matches::respond(from_slice(body).unwrap(), body, &limits, &keys).unwrap()
        };
        group.bench_function(format!("{name}/json"), |b| {
            b.iter(|| serde_json::to_vec(&answer(&body)).unwrap())
        });
        let draw = |answer: &_| Drawing::of(Picture::MatchScore(answer)).unwrap();
        group.bench_function(format!("{name}/svg"), |b| {
            b.iter(|| draw(&answer(&body)).svg())
        });
        group.bench_function(format!("{name}/html"), |b| {
            b.iter(|| draw(&answer(&body)).page())
        });
    }
    let body = match_audit::examples::legal().to_string().into_bytes();
    let answer = |body: &[u8]| {
        match_audit::respond(&from_slice(body).unwrap(), body, &limits, &keys).unwrap()
    };
    group.bench_function("match_audit/json", |b| {
        b.iter(|| serde_json::to_vec(&answer(&body)).unwrap())
    });
    let draw = |answer: &_| Drawing::of(Picture::MatchAudit(answer)).unwrap();
    group.bench_function("match_audit/svg", |b| b.iter(|| draw(&answer(&body)).svg()));
    group.bench_function("match_audit/html", |b| {
        b.iter(|| draw(&answer(&body)).page())
    });
    let body = audit::examples::legal_knock().to_string().into_bytes();
    let answer =
        |body: &[u8]| audit::verdict(from_slice(body).unwrap(), body, &limits, &keys).unwrap();
    group.bench_function("hand_audit/json", |b| {
        b.iter(|| serde_json::to_vec(&answer(&body)).unwrap())
    });
    // As the route does: the record (the deal, the actions) kept before the
    // audit takes the request.
    let drawn = |body: &[u8]| {
        let request: audit::AuditRequest = from_slice(body).unwrap();
        let record = HandRecord::of(&request);
        let answer = audit::verdict(request, body, &limits, &keys).unwrap();
        (answer, record)
    };
    group.bench_function("hand_audit/svg", |b| {
        b.iter(|| {
            let (answer, record) = drawn(&body);
            Drawing::of(Picture::HandAudit(&answer, &record))
                .unwrap()
                .svg()
        })
    });
    group.bench_function("hand_audit/html", |b| {
        b.iter(|| {
            let (answer, record) = drawn(&body);
            Drawing::of(Picture::HandAudit(&answer, &record))
                .unwrap()
                .page()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
