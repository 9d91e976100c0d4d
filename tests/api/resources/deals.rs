//! `POST /v1/deals` over HTTP: the published vector, deals that feed the hand
//! audit as they are, refusals with pointers, and the cost of the largest
//! client seed and nonce.

use serde_json::{Value, json};

use crate::cost::{Server, assert_within_request_bounds};
use crate::support::{expect_problem, spawn_app};

const PATH: &str = "/v1/deals";

#[tokio::test]
async fn the_published_vector_comes_out_and_the_deal_audits_as_given() {
    let app = spawn_app().await;
    let body = json!({"server_seed": "00".repeat(32), "client_seed": "player", "nonce": 0});
    let response = app.post_json(PATH, &body.to_string()).await;
    assert_eq!(response.status().as_u16(), 200);
    let answer: Value = response.json().await.expect("JSON");
    assert_eq!(answer["algorithm"], "hmac-sha256-fisher-yates-v1");
    assert_eq!(
        answer["commitment"],
        "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    );
    assert_eq!(
        answer["deal"]["non_dealer"],
        json!(["3D", "4C", "6S", "4H", "6H", "2D", "2C", "AS", "QH", "9D"])
    );
    assert_eq!(answer["deal"]["upcard"], "8S");
    // The deal is in the audit's shape: an empty transcript is legal so far.
    let audit = json!({"deal": answer["deal"], "actions": []});
    let response = app.post_json("/v1/hands/audit", &audit.to_string()).await;
    assert_eq!(response.status().as_u16(), 200);
    let verdict: Value = response.json().await.expect("JSON");
    assert_eq!(verdict["legal"], true, "{verdict}");
}

#[tokio::test]
async fn bad_seeds_are_refused_with_pointers() {
    let app = spawn_app().await;
    let seed = "00".repeat(32);
    let cases = [
        (
            json!({"server_seed": "00", "client_seed": "", "nonce": 0}),
            400,
            "invalid_body",
            "/server_seed",
        ),
        (
            json!({"server_seed": "zz".repeat(32), "client_seed": "", "nonce": 0}),
            400,
            "invalid_body",
            "/server_seed",
        ),
        (
            json!({"server_seed": seed, "client_seed": "", "nonce": 9007199254740992_u64}),
            400,
            "invalid_body",
            "/nonce",
        ),
        (
            json!({"server_seed": seed, "client_seed": "", "nonce": -1}),
            400,
            "invalid_body",
            "/nonce",
        ),
        (
            json!({"server_seed": seed, "client_seed": "é".repeat(129), "nonce": 0}),
            422,
            "client_seed_too_long",
            "/client_seed",
        ),
    ];
    for (body, status, code, pointer) in cases {
        let problem =
            expect_problem(app.post_json(PATH, &body.to_string()).await, status, code).await;
        assert_eq!(problem.errors[0].pointer, pointer, "{body}");
    }
}

#[test]
fn the_largest_seeds_cost_one_shuffle() {
    // At most 256 bytes of client seed and a 16-digit nonce: the HMAC input
    // stays under 300 bytes, and a shuffle draws 51 values (a few more on
    // rejection), under ten HMAC blocks.
    let server = Server::start(&[]);
    let body = json!({"server_seed": "ff".repeat(32), "client_seed": "x".repeat(256),
                      "nonce": 9007199254740991_u64})
    .to_string();
    let ((status, _, answer), cost) = server.measure(|| {
        server.post(
            PATH,
            &[("content-type", "application/json")],
            body.as_bytes(),
        )
    });
    assert_eq!(status, 200);
    assert_within_request_bounds("the largest seeds", body.len(), answer.len(), cost);
}

#[tokio::test]
async fn the_audit_takes_a_deal_by_its_seeds_and_checks_the_commitment() {
    let app = spawn_app().await;
    let seeds = json!({"server_seed": "00".repeat(32), "client_seed": "player", "nonce": 0});
    let commitment = "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925";
    // The non-dealer of that deal passes the upcard 8S: legal so far.
    let pass = json!([{"player": "non_dealer", "action": "pass"}]);
    let audit = |commitment: &str| {
        json!({"deal": {"seeds": seeds, "commitment": commitment}, "actions": pass}).to_string()
    };
    let response = app.post_json("/v1/hands/audit", &audit(commitment)).await;
    assert_eq!(response.status().as_u16(), 200);
    let verdict: Value = response.json().await.expect("JSON");
    assert_eq!(verdict["legal"], true, "{verdict}");
    assert_eq!(verdict["table"]["discard_top"], "8S", "{verdict}");
    assert_eq!(verdict["table"]["to_act"], "dealer", "{verdict}");
    // Another commitment: the whole hand is judged, at no action.
    let wrong = "11".repeat(32);
    let response = app.post_json("/v1/hands/audit", &audit(&wrong)).await;
    assert_eq!(response.status().as_u16(), 200);
    let verdict: Value = response.json().await.expect("JSON");
    assert_eq!(verdict["legal"], false);
    assert_eq!(verdict["violation"]["code"], "deal_commitment_mismatch");
    assert_eq!(verdict["violation"]["action"], Value::Null);
    assert_eq!(verdict["result"], Value::Null);
    // A commitment that is not a SHA-256 is a shape error.
    let response = app.post_json("/v1/hands/audit", &audit("abc")).await;
    let problem = expect_problem(response, 400, "invalid_body").await;
    assert_eq!(problem.errors[0].pointer, "/deal/commitment");
    // Half of each form is neither.
    let mixed = json!({"deal": {"seeds": seeds, "upcard": "8S"}, "actions": []}).to_string();
    let response = app.post_json("/v1/hands/audit", &mixed).await;
    let problem = expect_problem(response, 400, "invalid_body").await;
    assert_eq!(problem.errors[0].pointer, "/deal");
}
