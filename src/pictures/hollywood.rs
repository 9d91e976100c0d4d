//! The Hollywood sheet: the three games side by side, a column group per game
//! and player; a hand's points in each game it `scored_in`, each game's
//! running totals from the hand's `games`, each game's tally and net under its
//! own columns; then a second grid with the match as a whole.

use gin_contract::answers::matches::{GameResult, MatchResponse};

use super::grid::{Grid, Key, Label, Mark, Row, game_tally, hand_sentence, match_tally};
use super::text::clean;

/// The two grids of a Hollywood match: the games, the match.
pub fn grids(answer: &MatchResponse, games: &[GameResult], names: &[&str]) -> Vec<Grid> {
    let mut groups = Vec::with_capacity(games.len() * names.len());
    for game in 1..=games.len() {
        for name in names {
            groups.push(format!("Game {game} · {}", clean(name)));
        }
    }
    let mut rows = Vec::with_capacity(answer.hands.len() + 7);
    for (index, hand) in answer.hands.iter().enumerate() {
        let winner = hand.winner.as_deref();
        let scored_in = |game: usize| {
            hand.scored_in
                .as_deref()
                .is_some_and(|games| games.contains(&game))
        };
        let mut cells = Vec::with_capacity(groups.len() * 2);
        for game in 1..=games.len() {
            let totals = hand
                .games
                .as_deref()
                .and_then(|totals| totals.get(game - 1));
            for name in names {
                let won = winner == Some(*name) && scored_in(game);
                cells.push(won.then_some(i128::from(hand.points)));
                cells.push(
                    totals
                        .and_then(|totals| totals.entries().iter().find(|(key, _)| key == name))
                        .map(|(_, total)| i128::from(*total)),
                );
            }
        }
        rows.push(Row {
            key: Key::Hand(index),
            label: Label::Number(index),
            detail: hand_sentence(hand),
            cells,
            mark: Mark::Hand,
        });
    }
    // Each game's tally under its own columns: line by line, the games' cells
    // side by side.
    let per_game: Vec<Vec<Row>> = games.iter().map(|game| game_tally(game, names)).collect();
    for (line, template) in per_game.first().into_iter().flatten().enumerate() {
        let cells = per_game
            .iter()
            .flat_map(|rows| {
                rows.get(line)
                    .map(|row| row.cells.as_slice())
                    .unwrap_or_default()
            })
            .copied()
            .collect();
        rows.push(Row {
            detail: String::new(),
            cells,
            ..template.clone()
        });
    }
    vec![
        Grid {
            caption: "Hollywood: the three games side by side",
            groups,
            rows,
        },
        match_tally(answer, names),
    ]
}
