//! What a signed receipt costs per request: the two RFC 8785 digests and the
//! Ed25519 signature, on a `/v1/hands/score` request and answer.

// A benchmark's fixtures are built once up front: a failure there is a bug in
// the benchmark, reported at once.
#![allow(clippy::expect_used)]

use criterion::{Criterion, criterion_group, criterion_main};
use gin_contract::receipts::{KeyRing, digest, digest_text};
use serde_json::json;

fn bench(c: &mut Criterion) {
    let ring = KeyRing::load(None, None).expect("a key");
    let request = br#"{"receipt": true, "knocker": {"hand": ["3H","4H","5H","9S","9H","9D","3C","4C","5C","AH"]}, "defender": {"hand": ["6H","2H","JS","JH","JD","7S","7H","7C","4D","5S"]}}"#;
    let answer = json!({
        "outcome": "knock", "winner": "knocker", "points": 8,
        "breakdown": {"deadwood_difference": 8, "gin_bonus": 0, "big_gin_bonus": 0, "undercut_bonus": 0, "multiplier": 1},
        "knocker": {"melds": [["3H", "4H", "5H"], ["3C", "4C", "5C"], ["9S", "9H", "9D"]], "deadwood_cards": ["AH"], "deadwood": 1},
        "defender": {"melds": [["7S", "7H", "7C"], ["JS", "JH", "JD"]], "layoffs": [{"card": "2H", "meld": 0}, {"card": "6H", "meld": 0}],
            "deadwood_cards": ["5S", "4D"], "deadwood": 9}
    });
    let profile = gin_rules::Preset::Standard.profile();
    c.bench_function("receipt/digest_request", |b| {
        b.iter(|| digest_text(std::hint::black_box(request)))
    });
    c.bench_function("receipt/digest_answer", |b| {
        b.iter(|| digest(std::hint::black_box(&answer)))
    });
    let claims = json!({"request": "x".repeat(43), "response": "y".repeat(43), "op": "score_hand",
                        "version": "0.1.0", "profile": profile, "iat": 1_795_000_000});
    c.bench_function("receipt/sign", |b| {
        b.iter(|| ring.sign(std::hint::black_box(&claims)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
