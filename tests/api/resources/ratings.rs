//! `POST /v1/ratings` over HTTP: the documented example, refusals with
//! pointers, and what the largest body within the limit costs.

use serde_json::{Value, json};

use crate::cost::{Server, assert_within_request_bounds};
use crate::support::{expect_problem, spawn_app};

const PATH: &str = "/v1/ratings";

#[tokio::test]
async fn results_applied_in_order_rate_every_player_and_rank_them() {
    let app = spawn_app().await;
    let body = json!({"results": [
        {"players": ["Ann", "Bob"], "winner": "Ann"},
        {"teams": [["Ann"], ["Bob"], ["Cy"]], "ranks": [1, 2, 2]}
    ]});
    let response = app.post_json(PATH, &body.to_string()).await;
    assert_eq!(response.status().as_u16(), 200);
    let answer: Value = response.json().await.expect("JSON");
    assert_eq!(answer["standings"], json!(["Ann", "Cy", "Bob"]));
    for (name, results) in [("Ann", 2), ("Bob", 2), ("Cy", 1)] {
        let rating = &answer["ratings"][name];
        assert_eq!(rating["results"], results, "{name}");
        let (mu, sigma) = (
            rating["mu"].as_f64().unwrap(),
            rating["sigma"].as_f64().unwrap(),
        );
        assert_eq!(rating["rating"].as_f64().unwrap(), mu - 3.0 * sigma);
    }
    // The order of the results matters: the same two, the other way round.
    let reversed = json!({"results": [body["results"][1], body["results"][0]]});
    let response = app.post_json(PATH, &reversed.to_string()).await;
    let other: Value = response.json().await.expect("JSON");
    assert_ne!(
        other["ratings"]["Ann"]["mu"],
        answer["ratings"]["Ann"]["mu"]
    );
}

#[tokio::test]
async fn bad_input_is_refused_with_a_pointer() {
    let app = spawn_app().await;
    let cases = [
        (
            json!({"results": [{"players": ["Ann", "Bob"], "winner": null},
                               {"players": ["Bob", "Bob"], "winner": "Bob"}]}),
            422,
            "duplicate_player_name",
            "/results/1/players/1",
        ),
        (
            json!({"results": [{"players": ["Ann", "Bob"], "winner": "Eve"}]}),
            422,
            "unknown_player",
            "/results/0/winner",
        ),
        (
            json!({"results": [{"teams": [["Ann", "Cy"], ["Bob", "Dee"]], "ranks": [1]}]}),
            422,
            "players_or_teams",
            "/results/0/ranks",
        ),
        (
            json!({"ratings": {"Ann": {"mu": 25, "sigma": -1}}, "results": []}),
            400,
            "invalid_body",
            "/ratings/Ann/sigma",
        ),
        (
            json!({"ratings": {"Ann": {"mu": 2e6, "sigma": 1}}, "results": []}),
            400,
            "invalid_body",
            "/ratings/Ann/mu",
        ),
        (
            json!({"results": [{"players": ["Ann", "Bob"], "winner": "Ann", "margin": 3}]}),
            400,
            "invalid_body",
            "/results/0/margin",
        ),
    ];
    for (body, status, code, pointer) in cases {
        let problem =
            expect_problem(app.post_json(PATH, &body.to_string()).await, status, code).await;
        assert_eq!(problem.errors[0].pointer, pointer, "{body}");
    }
}

/// The costliest body within the 64 KiB limit: results of sixteen teams of
/// one, every player new (so the answer holds the most players, each
/// result the most comparisons).
#[test]
fn the_costliest_body_within_the_limit_stays_within_the_request_bounds() {
    let server = Server::start(&[]);
    let mut results = Vec::new();
    let mut body = String::new();
    for n in 0.. {
        let teams: Vec<Value> = (0..16)
            .map(|p| json!([format!("{}", n * 16 + p)]))
            .collect();
        results.push(json!({"teams": teams, "ranks": (1..=16).collect::<Vec<u32>>()}));
        let next = json!({"results": results}).to_string();
        if next.len() > 64 * 1024 {
            break;
        }
        body = next;
    }
    let ((status, _, answer), cost) = server.measure(|| {
        server.post(
            PATH,
            &[("content-type", "application/json")],
            body.as_bytes(),
        )
    });
    assert_eq!(status, 200);
    assert_within_request_bounds("the costliest ratings", body.len(), answer.len(), cost);
}
