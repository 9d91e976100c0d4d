"""rate_players against a second implementation of the same model: openskill's
BradleyTerryFull with beta 25/6, kappa 1e-4 and tau 0, applying the same
random results (two players, ties, three players, partnerships) in order."""

from __future__ import annotations

import random

import pytest

import gin_referee as gr

openskill_models = pytest.importorskip("openskill.models")


def _random_results(rng: random.Random, names, count):
    results = []
    for _ in range(count):
        kind = rng.choice(["two", "two", "tie", "three", "pairs"])
        if kind in ("two", "tie"):
            a, b = rng.sample(names, 2)
            winner = None if kind == "tie" else rng.choice([a, b])
            results.append({"players": [a, b], "winner": winner})
        elif kind == "three":
            three = rng.sample(names, 3)
            results.append({"teams": [[n] for n in three], "ranks": [rng.randint(1, 3) for _ in three]})
        else:
            four = rng.sample(names, 4)
            results.append({"teams": [four[:2], four[2:]], "ranks": rng.choice([[1, 2], [2, 1], [1, 1]])})
    return results


def _openskill(before, results):
    model = openskill_models.BradleyTerryFull(beta=25 / 6, kappa=1e-4, tau=0.0)
    players = {name: model.rating(mu=r["mu"], sigma=r["sigma"], name=name) for name, r in before.items()}
    for result in results:
        if "players" in result:
            teams = [[name] for name in result["players"]]
            winner = result["winner"]
            ranks = [1, 1] if winner is None else [1 if name == winner else 2 for name in result["players"]]
        else:
            teams, ranks = result["teams"], result["ranks"]
        for team in teams:
            for name in team:
                players.setdefault(name, model.rating(name=name))
        rated = model.rate([[players[name] for name in team] for team in teams], ranks=ranks)
        for team, new in zip(teams, rated):
            for name, player in zip(team, new):
                players[name] = player
    return {name: (p.mu, p.sigma) for name, p in players.items()}


@pytest.mark.parametrize("seed", range(5))
def test_ratings_agree_with_openskill_bradley_terry_full(seed):
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(8)]
    before = {n: {"mu": rng.uniform(10, 40), "sigma": rng.uniform(1, 9)} for n in names[:3]}
    results = _random_results(rng, names, 60)
    answer = gr.rate_players({"ratings": before, "results": results})
    expected = _openskill(before, results)
    assert set(answer["ratings"]) == set(expected)
    for name, (mu, sigma) in expected.items():
        got = answer["ratings"][name]
        assert got["mu"] == pytest.approx(mu, rel=1e-9, abs=1e-9), name
        assert got["sigma"] == pytest.approx(sigma, rel=1e-9, abs=1e-9), name
        assert got["rating"] == pytest.approx(mu - 3 * sigma, rel=1e-9, abs=1e-9), name
    ranked = sorted(expected, key=lambda n: (-(expected[n][0] - 3 * expected[n][1]), n))
    assert answer["standings"] == ranked


def test_a_winner_not_playing_is_a_problem_with_a_pointer():
    with pytest.raises(gr.Problem) as caught:
        gr.rate_players({"results": [{"players": ["Ann", "Bob"], "winner": "Eve"}]})
    assert (caught.value.code, caught.value.status) == ("unknown_player", 422)
    assert caught.value.problem["errors"][0]["pointer"] == "/results/0/winner"
