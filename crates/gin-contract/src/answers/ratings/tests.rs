use super::*;

fn read(body: serde_json::Value) -> RatingsRequest {
    serde_json::from_value(body).unwrap()
}

fn rated(body: serde_json::Value) -> Result<RatingsResponse, Problem> {
    rate(&read(body), &RequestLimits::default())
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * b.abs().max(1.0)
}

/// openskill 6.2.0 (Python), `BradleyTerryFull(beta=25/6, kappa=1e-4,
/// tau=0.0)`, rating the documented request's three results in order: a
/// second implementation that shares no code with the library.
#[test]
fn the_documented_request_agrees_with_openskill() {
    let answered = rated(serde_json::json!({
    "ratings": {"Ann": {"mu": 27.5, "sigma": 6.0}},
    "results": [
        {"players": ["Ann", "Bob"], "winner": "Ann"},
        {"players": ["Bob", "Cy"], "winner": null},
        {"teams": [["Ann", "Bob"], ["Cy", "Dee"]], "ranks": [2, 1]}
    ]}))
    .unwrap();
    let openskill = [
        ("Ann", 27.72969490704384, 5.844136386016475, 2),
        ("Bob", 20.68247028709556, 7.600931947790679, 3),
        ("Cy", 26.834165051164852, 7.875502906100589, 2),
        ("Dee", 27.2537553913177, 8.135756430360857, 1),
    ];
    for (name, mu, sigma, results) in openskill {
        let got = answered.ratings[name];
        assert!(close(got.mu, mu), "{name} mu {} v {mu}", got.mu);
        assert!(
            close(got.sigma, sigma),
            "{name} sigma {} v {sigma}",
            got.sigma
        );
        assert!(close(got.rating, mu - 3.0 * sigma));
        assert_eq!(got.results, results);
    }
    assert_eq!(answered.standings, ["Ann", "Cy", "Dee", "Bob"]);
}

/// The library's own published value (its `weng_lin` documentation): two
/// new players, the first wins.
#[test]
fn a_first_win_between_new_players_moves_them_as_published() {
    let answered =
        rated(serde_json::json!({"results": [{"players": ["A", "B"], "winner": "A"}]})).unwrap();
    assert!(close(answered.ratings["A"].mu, 27.63523138347365));
    assert!(close(answered.ratings["A"].sigma, 8.065506316323548));
    assert!(close(answered.ratings["B"].mu, 22.36476861652635));
}

#[test]
fn the_documented_answer_is_what_the_documented_request_gets() {
    let doc = crate::answers::openapi();
    let operation = &doc["paths"]["/v1/ratings"]["post"];
    let request = &operation["requestBody"]["content"]["application/json"]["example"];
    let documented = &operation["responses"]["200"]["content"]["application/json"]["example"];
    let answered = rated(request.clone()).unwrap();
    assert_eq!(serde_json::to_value(answered).unwrap(), *documented);
}

#[test]
fn moving_a_result_s_teams_changes_no_update() {
    let mut far = Table::new();
    let a = far.player(
        "a",
        Some(RatingGiven {
            mu: 900_000.0,
            sigma: 3.0,
        }),
    );
    let b = far.player(
        "b",
        Some(RatingGiven {
            mu: 900_004.0,
            sigma: 5.0,
        }),
    );
    let mut near = Table::new();
    let c = near.player(
        "a",
        Some(RatingGiven {
            mu: 0.0,
            sigma: 3.0,
        }),
    );
    let d = near.player(
        "b",
        Some(RatingGiven {
            mu: 4.0,
            sigma: 5.0,
        }),
    );
    let outcome = |x, y| Outcome {
        teams: vec![vec![x], vec![y]],
        ranks: vec![1, 2],
    };
    far.apply(&outcome(a, b)).unwrap();
    near.apply(&outcome(c, d)).unwrap();
    let (far, near) = (far.response(), near.response());
    for name in ["a", "b"] {
        let shift = far.ratings[name].mu - near.ratings[name].mu;
        assert!((shift - 900_000.0).abs() < 1e-6, "{name}: {shift}");
        assert!(close(far.ratings[name].sigma, near.ratings[name].sigma));
    }
}

#[test]
fn teams_too_far_apart_are_refused_not_answered_with_nan() {
    let problem = rated(serde_json::json!({
        "ratings": {"A": {"mu": 1e6, "sigma": 1.0}, "B": {"mu": -1e6, "sigma": 1.0}},
        "results": [{"players": ["A", "B"], "winner": "B"}]}))
    .unwrap_err();
    assert_eq!(problem.code, ErrorCode::RatingsOutOfRange);
    assert_eq!(problem.errors[0].pointer, "/results/0");
}

#[test]
fn bad_results_are_problems_with_pointers() {
    let cases = [
        (
            serde_json::json!({"results": [{"players": ["A", "A"], "winner": "A"}]}),
            422,
            "duplicate_player_name",
            "/results/0/players/1",
        ),
        (
            serde_json::json!({"results": [{"players": ["A", "B"], "winner": null},
                {"teams": [["A", "B"], ["C", "A"]], "ranks": [1, 2]}]}),
            422,
            "duplicate_player_name",
            "/results/1/teams/1/1",
        ),
        (
            serde_json::json!({"results": [{"players": ["A", "B"], "winner": "C"}]}),
            422,
            "unknown_player",
            "/results/0/winner",
        ),
        (
            serde_json::json!({"results": [{"teams": [["A"], ["B"], ["C"]], "ranks": [1, 2]}]}),
            422,
            "players_or_teams",
            "/results/0/ranks",
        ),
        (
            serde_json::json!({"results": [{"players": ["A", "B"]}]}),
            422,
            "players_or_teams",
            "/results/0/winner",
        ),
        (
            serde_json::json!({"results": [{"players": ["A", "B", "C"], "winner": "A"}]}),
            400,
            "invalid_length",
            "/results/0/players",
        ),
        (
            serde_json::json!({"results": [{"winner": "A"}]}),
            422,
            "players_or_teams",
            "/results/0",
        ),
        (
            serde_json::json!({"ratings": {"A": {"mu": 25.0, "sigma": 0.0}}, "results": []}),
            400,
            "invalid_value",
            "/ratings/A/sigma",
        ),
        (
            serde_json::json!({"ratings": {"a/b": {"mu": 25.0, "sigma": 1e6 + 1.0}}, "results": []}),
            400,
            "invalid_value",
            "/ratings/a~1b/sigma",
        ),
        (
            serde_json::json!({"ratings": {"A": {"mu": -1.5e6, "sigma": 1.0}}, "results": []}),
            400,
            "invalid_value",
            "/ratings/A/mu",
        ),
        (
            serde_json::json!({"results": [{"players": [" ", "B"], "winner": null}]}),
            422,
            "blank_player_name",
            "/results/0/players/0",
        ),
    ];
    for (body, status, code, pointer) in cases {
        let problem = rated(body.clone()).unwrap_err();
        assert_eq!(problem.status.as_u16(), status, "{body}");
        assert_eq!(
            (
                problem.errors[0].code.as_str(),
                problem.errors[0].pointer.as_str()
            ),
            (code, pointer),
            "{body}"
        );
    }
}

#[test]
fn more_results_than_the_ceiling_are_refused() {
    let request = RatingsRequest {
        ratings: None,
        results: vec![RatedResult::default(); MAX_RESULTS + 1],
    };
    let problem = rate(&request, &RequestLimits::default()).unwrap_err();
    assert_eq!(
        (
            problem.errors[0].code.as_str(),
            problem.errors[0].pointer.as_str()
        ),
        ("too_many_items", "/results")
    );
}

#[test]
fn a_player_without_results_keeps_the_rating_given() {
    let answered = rated(serde_json::json!({
        "ratings": {"Ann": {"mu": 30.0, "sigma": 2.0}}, "results": []}))
    .unwrap();
    assert_eq!(
        answered.ratings["Ann"],
        PlayerRating {
            mu: 30.0,
            sigma: 2.0,
            rating: 24.0,
            results: 0
        }
    );
    assert_eq!(answered.standings, ["Ann"]);
}
