//! `POST /v1/ratings`: skill ratings for tournament software and matchmaking,
//! stateless: the ratings before, the results, the ratings after.
//!
//! **The model.** Weng and Lin's Bayesian approximation with the
//! Bradley-Terry model and full pairing (the one OpenSkill calls
//! `BradleyTerryFull`): each player's skill is a normal belief (`mu`,
//! `sigma`); a team's is the sum of its players'; every result compares each
//! team with every other (a win scores 1, a tie 1/2), with beta 25/6, kappa
//! 1e-4 (the least fraction of its variance a player keeps after one result)
//! and no drift between results (tau 0). Results are applied one by one in
//! the order given, each seeing the ratings the ones before it left. A new
//! player starts at mu 25, sigma 25/3; `rating` is the conservative
//! estimate mu - 3 sigma, by which `standings` are ordered. The `skillratings`
//! crate's `weng_lin_multi_team` does the arithmetic.
//!
//! **Translation.** A team's win probability depends only on the difference
//! of the team sums, and a player's update is added to their mu, so each
//! result is computed with every team's sum moved by the same amount, to a
//! mean of 0 (by moving one player of each team), and the update added back
//! to the player's own mu. The answer is the same; `exp(mu / c)` in the library then
//! overflows only when two teams of one result are thousands of points
//! apart (a result the model holds certain), which, like a sigma so small its
//! square is zero, is refused as `ratings_out_of_range` rather than answered
//! with a number that is not one.
//!
//! **Bounds.** At most [`MAX_RESULTS`] results, [`MAX_RESULT_PLAYERS`]
//! players in one result and [`MAX_RATED_PLAYERS`] ratings given. A result of
//! k teams costs k(k - 1) pair comparisons, at most 16 x 15 = 240, so a
//! request costs at most 2.4 million comparisons of a few floating-point
//! operations each (a few milliseconds), and the answer holds one entry per
//! player: at most 10,000 given plus 16 per result, each of about 100 bytes
//! plus its name (names are held to `--max-name-length`). The body limit
//! (64 KiB by default) reaches these ceilings only when raised.

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};
use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};
use utoipa::ToSchema;

use crate::limits::{RequestLimits, check_items, check_length};
use crate::problem::{ErrorCode, Problem};

/// Most results in one request.
pub const MAX_RESULTS: usize = 10_000;
/// Most players in one result (all teams together).
pub const MAX_RESULT_PLAYERS: usize = 16;
/// Most ratings given in `ratings`.
pub const MAX_RATED_PLAYERS: usize = 10_000;
/// The largest sigma and the largest |mu| a rating given may have.
pub const MAX_MAGNITUDE: f64 = 1e6;
/// The model's skill-class width: a player beta ahead wins about 2 in 3.
pub const BETA: f64 = 25.0 / 6.0;
/// The least fraction of a player's variance one result leaves.
pub const KAPPA: f64 = 1e-4;
/// A new player's mu.
pub const INITIAL_MU: f64 = 25.0;
/// A new player's sigma.
pub const INITIAL_SIGMA: f64 = 25.0 / 3.0;

/// The ratings before, and the results to apply, oldest first.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "ratings": {"Ann": {"mu": 27.5, "sigma": 6.0}},
    "results": [
        {"players": ["Ann", "Bob"], "winner": "Ann"},
        {"players": ["Bob", "Cy"], "winner": null},
        {"teams": [["Ann", "Bob"], ["Cy", "Dee"]], "ranks": [2, 1]}
    ]}))]
pub struct RatingsRequest {
    /// The ratings before the results, by player name (optional; a player
    /// not listed starts at mu 25, sigma 25/3); at most 10000.
    #[serde(default, deserialize_with = "crate::json::present")]
    #[schema(nullable = false, value_type = Option<RatingsBefore>)]
    pub ratings: Option<BTreeMap<String, RatingGiven>>,
    /// The results, oldest first, applied one by one.
    #[schema(max_items = 10000)]
    pub results: Vec<RatedResult>,
}

/// A player's rating before the results.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RatingGiven {
    /// The mean of the skill belief, from -1e6 to 1e6.
    #[schema(minimum = -1e6, maximum = 1e6, example = 27.5)]
    pub mu: f64,
    /// Its standard deviation: above 0, at most 1e6.
    #[schema(exclusive_minimum = 0.0, maximum = 1e6, example = 6.0)]
    pub sigma: f64,
}

/// One result: two players and the winner, or teams and their ranks.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RatedResult {
    /// Two players (with `winner`).
    #[serde(default, deserialize_with = "crate::json::present")]
    #[schema(nullable = false, min_items = 2, max_items = 2)]
    pub players: Option<Vec<String>>,
    /// The winner, one of `players`, or null for a tie.
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub winner: Option<Option<String>>,
    /// Teams of one or more players (three players are three teams of one;
    /// partnerships two teams of two), with `ranks`.
    #[serde(default, deserialize_with = "crate::json::present")]
    #[schema(nullable = false, min_items = 2, max_items = 16)]
    pub teams: Option<Vec<Vec<String>>>,
    /// Each team's place, in the order of `teams`: lower is better, equal
    /// ranks tie.
    #[serde(default, deserialize_with = "crate::json::present")]
    #[schema(nullable = false, min_items = 2, max_items = 16)]
    pub ranks: Option<Vec<u32>>,
}

/// Reads a field that may be null: absent is `None`, null `Some(None)`.
fn nullable<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

/// Ratings before the results, by player name.
// A component of its own, so that generated clients name the map as the
// document does.
#[derive(Debug, Clone, ToSchema)]
pub struct RatingsBefore(pub BTreeMap<String, RatingGiven>);

/// Ratings after the results, by player name.
#[derive(Debug, Clone, ToSchema)]
pub struct RatingsAfter(pub BTreeMap<String, PlayerRating>);

/// The ratings after, and the standings.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct RatingsResponse {
    /// Every player named in `ratings` or in a result.
    #[schema(value_type = RatingsAfter)]
    pub ratings: BTreeMap<String, PlayerRating>,
    /// The players' names by `rating`, best first (equal ratings by name).
    pub standings: Vec<String>,
}

/// A player's rating after the results.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ToSchema)]
pub struct PlayerRating {
    /// The mean of the skill belief.
    pub mu: f64,
    /// Its standard deviation.
    pub sigma: f64,
    /// The conservative estimate mu - 3 sigma.
    pub rating: f64,
    /// How many of the request's results the player took part in.
    pub results: u32,
}

/// One result in the model's terms: teams of player indices and their ranks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Each team's players, as indices into the rated players.
    pub teams: Vec<Vec<usize>>,
    /// Each team's rank (lower is better).
    pub ranks: Vec<u32>,
}

/// Players and their ratings as results are applied: the arena rates its
/// matches with this, in record order, as the route rates a request.
#[derive(Debug, Clone, Default)]
pub struct Table {
    names: Vec<String>,
    index: HashMap<String, usize>,
    ratings: Vec<WengLinRating>,
    results: Vec<u32>,
}

/// A result the arithmetic could not answer within a double's range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutOfRange;

impl Table {
    /// No players yet.
    pub fn new() -> Table {
        Table::default()
    }

    /// The player's index, adding them at `rating` (the initial rating when
    /// `None`) if new.
    pub fn player(&mut self, name: &str, rating: Option<RatingGiven>) -> usize {
        if let Some(&at) = self.index.get(name) {
            return at;
        }
        let at = self.names.len();
        let given = rating.unwrap_or(RatingGiven {
            mu: INITIAL_MU,
            sigma: INITIAL_SIGMA,
        });
        self.names.push(name.to_owned());
        self.index.insert(name.to_owned(), at);
        self.ratings.push(WengLinRating {
            rating: given.mu,
            uncertainty: given.sigma,
        });
        self.results.push(0);
        at
    }

    /// Applies one result; on [`OutOfRange`] the table is left as it was.
    pub fn apply(&mut self, outcome: &Outcome) -> Result<(), OutOfRange> {
        let before: Vec<Vec<WengLinRating>> = outcome
            .teams
            .iter()
            .map(|team| {
                team.iter()
                    .filter_map(|&at| self.ratings.get(at).copied())
                    .collect()
            })
            .collect();
        let sums: Vec<f64> = before
            .iter()
            .map(|team| team.iter().map(|p| p.rating).sum())
            .collect();
        let mean = sums.iter().sum::<f64>() / sums.len().max(1) as f64;
        // Every team's sum moved by the same amount, so that their mean is 0
        // (see the module docs).
        let moved: Vec<Vec<WengLinRating>> = before
            .iter()
            .map(|team| {
                let mut team = team.clone();
                if let Some(first) = team.first_mut() {
                    first.rating -= mean;
                }
                team
            })
            .collect();
        let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = moved
            .iter()
            .zip(&outcome.ranks)
            .map(|(team, &rank)| (team.as_slice(), MultiTeamOutcome::new(rank as usize)))
            .collect();
        let config = WengLinConfig {
            beta: BETA,
            uncertainty_tolerance: KAPPA,
        };
        let after = weng_lin_multi_team(&ranked, &config);
        let mut updates = Vec::new();
        for ((team, moved_team), after_team) in outcome.teams.iter().zip(&moved).zip(&after) {
            for ((&at, moved), new) in team.iter().zip(moved_team).zip(after_team) {
                let old = self.ratings.get(at).copied().ok_or(OutOfRange)?;
                let mu = old.rating + (new.rating - moved.rating);
                if !(mu.is_finite() && new.uncertainty.is_finite() && new.uncertainty > 0.0) {
                    return Err(OutOfRange);
                }
                updates.push((at, mu, new.uncertainty));
            }
        }
        for (at, mu, sigma) in updates {
            if let (Some(rating), Some(count)) =
                (self.ratings.get_mut(at), self.results.get_mut(at))
            {
                *rating = WengLinRating {
                    rating: mu,
                    uncertainty: sigma,
                };
                *count += 1;
            }
        }
        Ok(())
    }

    /// Every player's rating, and the standings.
    pub fn response(&self) -> RatingsResponse {
        let mut ratings = BTreeMap::new();
        for ((name, rating), &results) in self.names.iter().zip(&self.ratings).zip(&self.results) {
            ratings.insert(
                name.clone(),
                PlayerRating {
                    mu: rating.rating,
                    sigma: rating.uncertainty,
                    rating: rating.rating - 3.0 * rating.uncertainty,
                    results,
                },
            );
        }
        let mut standings: Vec<(&String, f64)> =
            ratings.iter().map(|(name, r)| (name, r.rating)).collect();
        standings.sort_by(|a, b| {
            b.1.partial_cmp(&a.1)
                .unwrap_or(Ordering::Equal)
                .then_with(|| a.0.cmp(b.0))
        });
        let standings = standings
            .into_iter()
            .map(|(name, _)| name.clone())
            .collect();
        RatingsResponse { ratings, standings }
    }
}

/// Answers a request: checks it, then applies its results in order.
pub fn rate(request: &RatingsRequest, limits: &RequestLimits) -> Result<RatingsResponse, Problem> {
    check_items("/results", "results", request.results.len(), MAX_RESULTS)?;
    let mut table = Table::new();
    if let Some(given) = &request.ratings {
        check_items("/ratings", "ratings", given.len(), MAX_RATED_PLAYERS)?;
        for (name, rating) in given {
            let pointer = format!("/ratings/{}", escape(name));
            check_name(&pointer, name, limits)?;
            check_rating(&pointer, rating)?;
            table.player(name, Some(*rating));
        }
    }
    for (i, result) in request.results.iter().enumerate() {
        let pointer = format!("/results/{i}");
        let outcome = read_result(&pointer, result, &mut table, limits)?;
        table.apply(&outcome).map_err(|OutOfRange| {
            let message = "the ratings of this result's teams are too far apart (or a sigma too \
                           small) for the model's arithmetic"
                .to_owned();
            Problem::new(
                ErrorCode::RatingsOutOfRange,
                format!("{pointer}: {message}"),
            )
            .with_error(pointer.clone(), ErrorCode::RatingsOutOfRange, message)
        })?;
    }
    Ok(table.response())
}

/// A JSON Pointer reference token for a name (RFC 6901: `~` and `/` escaped).
fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

fn check_name(pointer: &str, name: &str, limits: &RequestLimits) -> Result<(), Problem> {
    check_length(pointer, name, limits.name_length)?;
    if name.trim().is_empty() {
        let message = "a player's name may not be blank";
        return Err(
            Problem::new(ErrorCode::BlankPlayerName, format!("{pointer}: {message}")).with_error(
                pointer,
                ErrorCode::BlankPlayerName,
                message,
            ),
        );
    }
    Ok(())
}

/// A result whose parts do not go together: the schema states each part,
/// not which go with which, so this is a 422 rather than a shape fault.
fn mismatched(pointer: String, message: &str) -> Problem {
    Problem::new(ErrorCode::PlayersOrTeams, format!("{pointer}: {message}")).with_error(
        pointer,
        ErrorCode::PlayersOrTeams,
        message,
    )
}

fn invalid(pointer: String, message: String) -> Problem {
    Problem::new(ErrorCode::InvalidBody, format!("{pointer}: {message}")).with_error(
        pointer,
        ErrorCode::InvalidValue,
        message,
    )
}

fn check_rating(pointer: &str, rating: &RatingGiven) -> Result<(), Problem> {
    // JSON has no NaN, so every mu compares.
    if rating.mu.abs() > MAX_MAGNITUDE {
        return Err(invalid(
            format!("{pointer}/mu"),
            format!("mu {} is beyond ±1e6", rating.mu),
        ));
    }
    if !(rating.sigma > 0.0 && rating.sigma <= MAX_MAGNITUDE) {
        return Err(invalid(
            format!("{pointer}/sigma"),
            format!("sigma {} is not above 0 and at most 1e6", rating.sigma),
        ));
    }
    Ok(())
}

/// Reads one result into teams of indices, adding new players to `table`.
fn read_result(
    pointer: &str,
    result: &RatedResult,
    table: &mut Table,
    limits: &RequestLimits,
) -> Result<Outcome, Problem> {
    let (names, ranks, key) = match (&result.players, &result.teams) {
        (Some(players), None) => two_players(pointer, result, players)?,
        (None, Some(teams)) => teams_and_ranks(pointer, result, teams)?,
        _ => {
            let message = "a result names `players` (with `winner`) or `teams` (with `ranks`)";
            return Err(
                Problem::new(ErrorCode::PlayersOrTeams, format!("{pointer}: {message}"))
                    .with_error(pointer, ErrorCode::PlayersOrTeams, message),
            );
        }
    };
    let count: usize = names.iter().map(Vec::len).sum();
    check_items(
        &format!("{pointer}/{key}"),
        "players",
        count,
        MAX_RESULT_PLAYERS,
    )?;
    let mut seen: Vec<&str> = Vec::with_capacity(count);
    let mut teams = Vec::with_capacity(names.len());
    for (t, team) in names.iter().enumerate() {
        if team.is_empty() {
            return Err(mismatched(
                format!("{pointer}/teams/{t}"),
                "a team has at least one player",
            ));
        }
        let mut indices = Vec::with_capacity(team.len());
        for (p, name) in team.iter().enumerate() {
            let at = match key {
                "players" => format!("{pointer}/players/{t}"),
                _ => format!("{pointer}/teams/{t}/{p}"),
            };
            check_name(&at, name, limits)?;
            if seen.contains(&name.as_str()) {
                let message = format!("{name} is named twice in one result");
                return Err(Problem::new(
                    ErrorCode::DuplicatePlayerName,
                    format!("{at}: {message}"),
                )
                .with_error(at, ErrorCode::DuplicatePlayerName, message));
            }
            seen.push(name);
            indices.push(table.player(name, None));
        }
        teams.push(indices);
    }
    Ok(Outcome { teams, ranks })
}

fn length(pointer: String, message: String) -> Problem {
    Problem::new(ErrorCode::InvalidBody, format!("{pointer}: {message}")).with_error(
        pointer,
        ErrorCode::InvalidLength,
        message,
    )
}

type Read = (Vec<Vec<String>>, Vec<u32>, &'static str);

fn two_players(pointer: &str, result: &RatedResult, players: &[String]) -> Result<Read, Problem> {
    if result.ranks.is_some() {
        return Err(mismatched(
            format!("{pointer}/ranks"),
            "`ranks` goes with `teams`; two players take `winner`",
        ));
    }
    let [a, b] = players else {
        return Err(length(
            format!("{pointer}/players"),
            format!("{} players; a result of players names two", players.len()),
        ));
    };
    let ranks = match &result.winner {
        None => {
            return Err(mismatched(
                format!("{pointer}/winner"),
                "`winner` is required with `players` (null for a tie)",
            ));
        }
        Some(None) => vec![1, 1],
        Some(Some(w)) if w == a => vec![1, 2],
        Some(Some(w)) if w == b => vec![2, 1],
        Some(Some(w)) => {
            let at = format!("{pointer}/winner");
            let message = format!("the winner {w} is not among the result's players");
            return Err(
                Problem::new(ErrorCode::UnknownPlayer, format!("{at}: {message}")).with_error(
                    at,
                    ErrorCode::UnknownPlayer,
                    message,
                ),
            );
        }
    };
    Ok((vec![vec![a.clone()], vec![b.clone()]], ranks, "players"))
}

fn teams_and_ranks(
    pointer: &str,
    result: &RatedResult,
    teams: &[Vec<String>],
) -> Result<Read, Problem> {
    if result.winner.is_some() {
        return Err(mismatched(
            format!("{pointer}/winner"),
            "`winner` goes with `players`; teams take `ranks`",
        ));
    }
    let Some(ranks) = &result.ranks else {
        return Err(mismatched(
            format!("{pointer}/ranks"),
            "`ranks` is required with `teams`",
        ));
    };
    if teams.len() < 2 || teams.len() > MAX_RESULT_PLAYERS {
        return Err(length(
            format!("{pointer}/teams"),
            format!("{} teams; a result has 2 to 16", teams.len()),
        ));
    }
    if ranks.len() != teams.len() {
        return Err(mismatched(
            format!("{pointer}/ranks"),
            &format!(
                "{} ranks for {} teams; one rank per team",
                ranks.len(),
                teams.len()
            ),
        ));
    }
    Ok((teams.to_vec(), ranks.clone(), "teams"))
}

#[cfg(test)]
mod tests;
