//! Playing one match (or, with `--unit hand`, one hand) between two players:
//! deal each hand from the seeds, ask the player to act for each decision,
//! apply its move to the held hand ([`LiveHand`], the audit's own turn
//! machine), and write the record as `/v1/matches/audit` takes it.
//!
//! A hand past [`MAX_DECISIONS`] decisions ends its match as stalled, lost by
//! the player to act then; a match that reaches [`MAX_HANDS`] hands (two bots
//! that never knock play void hands for ever) ends as stalled with no player,
//! a tie. A forfeit's record stops before the refused move.

use std::time::Instant;

use gin_contract::answers::{match_state, state};
use gin_contract::wire::live::move_json;
use gin_rules::fair_deal::{self, ServerSeed};
use gin_rules::{HandEnd, LiveHand, MatchScore, Players, Profile, Seat, Side};
use serde_json::{Value, json};

use super::bots::Player;
use super::match_view::MatchView;
use super::standing::{Next, Standing};
use super::turn::{Fault, Turn};

/// Decisions a hand may take before its match ends as stalled.
pub const MAX_DECISIONS: usize = 1000;
/// Hands a match may take before it ends as stalled (a tie).
pub const MAX_HANDS: u64 = 1000;

/// Whole matches, or single hands.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    Match,
    Hand,
}

/// What every game of the run shares.
pub struct Setup<'a> {
    pub profile: &'a Profile,
    /// The profile as given (`--profile`), written into every record.
    pub profile_json: &'a Value,
    pub unit: Unit,
    pub seed: &'a ServerSeed,
    pub client_seed: &'a str,
}

/// One game to play: the two bots' names (the pairing's order), who deals
/// first (0 or 1: the leg), and the first nonce of its pair's block.
pub struct Game<'a> {
    pub names: [&'a str; 2],
    pub first_dealer: usize,
    pub nonce_base: u64,
}

/// How a game ended, for its record line and the report.
#[derive(Debug, Default)]
pub struct Played {
    pub record: Value,
    pub nonces: Vec<u64>,
    /// The player (0 or 1) who forfeited, why, and its stderr's tail.
    pub forfeit: Option<(usize, Fault, Option<String>)>,
    /// A stalled game: the player to act then (`None` for a match that ran
    /// out of hands).
    pub stalled: Option<Option<usize>>,
    /// With `--unit hand`: the dealer's index.
    pub dealer: Option<usize>,
    /// Games won: 1 and 0, or a half each.
    pub score: [f64; 2],
    /// Each player's hand points over the hands played.
    pub hand_points: [u64; 2],
    pub hands: u64,
    pub decisions: [u64; 2],
    pub nanos: [u64; 2],
}

/// How one hand ended.
enum HandOutcome {
    Over,
    /// The player who forfeited (the fault is in [`Played::forfeit`]).
    Forfeit(usize),
    Stalled(usize),
}

/// The index (0 or 1) of the player at `seat` when `dealer` deals.
pub(super) fn at(seat: Seat, dealer: usize) -> usize {
    match seat {
        Seat::Dealer => dealer,
        Seat::NonDealer => 1 - dealer,
    }
}

pub(super) fn hand_json(names: [&str; 2], dealer: usize, live: &LiveHand) -> Value {
    let name = |i: usize| names.get(i).copied().unwrap_or_default();
    json!({
        "dealer": name(dealer),
        "non_dealer": name(1 - dealer),
        "deal": live.deal(),
        "actions": live.actions().iter().map(move_json).collect::<Vec<_>>(),
    })
}

/// Plays one game (see the module docs).
pub fn play(setup: &Setup<'_>, game: &Game<'_>, players: [&mut Player; 2]) -> Played {
    let mut played = Played::default();
    let [first, second] = players;
    let mut players = [first, second];
    for (i, player) in players.iter_mut().enumerate() {
        if let Err(fault) = player.start_match() {
            let tail = player.stderr_tail();
            played.forfeit = Some((i, fault, tail));
            played.score = lost_by(i);
            played.record = empty_record(setup, game);
            return played;
        }
    }
    match setup.unit {
        Unit::Hand => play_hand_unit(setup, game, &mut players, &mut played),
        Unit::Match => play_match(setup, game, &mut players, &mut played),
    }
    played
}

fn empty_record(setup: &Setup<'_>, game: &Game<'_>) -> Value {
    match setup.unit {
        Unit::Match => json!({"profile": setup.profile_json, "players": game.names, "hands": []}),
        Unit::Hand => json!({"profile": setup.profile_json, "deal": null, "actions": []}),
    }
}

pub(super) fn deal(setup: &Setup<'_>, nonce: u64) -> Option<LiveHand> {
    let deal =
        fair_deal::deal_with_jokers(setup.seed, setup.client_seed, nonce, setup.profile.jokers())
            .ok()?;
    LiveHand::new(setup.profile.clone(), deal).ok()
}

fn play_hand_unit(
    setup: &Setup<'_>,
    game: &Game<'_>,
    players: &mut [&mut Player; 2],
    played: &mut Played,
) {
    let dealer = game.first_dealer;
    played.dealer = Some(dealer);
    played.nonces.push(game.nonce_base);
    let Some(mut live) = deal(setup, game.nonce_base) else {
        return;
    };
    let outcome = play_one_hand(
        setup,
        game,
        players,
        played,
        &mut live,
        dealer,
        &|live, seat| {
            serde_json::to_string(&state::held_answer(live, Some(seat), false))
                .map_err(|e| e.to_string())
        },
    );
    let mut record = json!({"profile": setup.profile_json, "deal": live.deal(),
        "actions": live.actions().iter().map(move_json).collect::<Vec<_>>()});
    if setup.profile_json.is_null()
        && let Some(object) = record.as_object_mut()
    {
        object.remove("profile");
    }
    played.record = record;
    played.hands = 1;
    settle(played, outcome, |played| {
        let Some(HandEnd::Scored(scored)) = live.end() else {
            return [0.5, 0.5];
        };
        let knocker = at(scored.knocker, dealer);
        let settlement = &scored.score.settlement;
        let winner = match settlement.winner {
            Side::Knocker => knocker,
            Side::Defender => 1 - knocker,
        };
        if let Some(points) = played.hand_points.get_mut(winner) {
            *points += u64::from(settlement.points);
        }
        if winner == 0 { [1.0, 0.0] } else { [0.0, 1.0] }
    });
}

/// Sets the score from a forfeit or a stall, or else from `decided`.
fn settle(
    played: &mut Played,
    outcome: HandOutcome,
    decided: impl FnOnce(&mut Played) -> [f64; 2],
) {
    played.score = match outcome {
        HandOutcome::Forfeit(loser) => lost_by(loser),
        HandOutcome::Stalled(loser) => {
            played.stalled = Some(Some(loser));
            lost_by(loser)
        }
        HandOutcome::Over => decided(played),
    };
}

fn lost_by(loser: usize) -> [f64; 2] {
    if loser == 0 { [0.0, 1.0] } else { [1.0, 0.0] }
}

/// The state a remote player is sent, built for one seat of a held hand.
type StateOf<'s> = dyn Fn(&LiveHand, Seat) -> Result<String, String> + 's;

fn play_one_hand(
    _setup: &Setup<'_>,
    game: &Game<'_>,
    players: &mut [&mut Player; 2],
    played: &mut Played,
    live: &mut LiveHand,
    dealer: usize,
    state_of: &StateOf<'_>,
) -> HandOutcome {
    for player in players.iter_mut() {
        player.start_hand();
    }
    for decision in 0.. {
        let (phase, to_act, legal) = live.now();
        let Some(seat) = to_act else {
            return HandOutcome::Over;
        };
        let who = at(seat, dealer);
        if decision >= MAX_DECISIONS {
            return HandOutcome::Stalled(who);
        }
        let you = game.names.get(who).copied().unwrap_or_default();
        let view: &LiveHand = live;
        let state = || state_of(view, seat);
        let turn = Turn {
            live: view,
            phase,
            seat,
            legal: &legal,
            you,
            state: &state,
        };
        let Some(player) = players.get_mut(who) else {
            return HandOutcome::Over;
        };
        let started = Instant::now();
        let chosen = player.decide(&turn);
        let nanos = started.elapsed().as_nanos() as u64;
        if let (Some(count), Some(time)) =
            (played.decisions.get_mut(who), played.nanos.get_mut(who))
        {
            *count += 1;
            *time += nanos;
        }
        let action = chosen.and_then(|i| {
            legal
                .get(i)
                .map(|entry| entry.action.clone())
                .ok_or_else(|| Fault::Illegal("no such move".into()))
        });
        let fault = match action.map(|action| live.apply(action)) {
            Ok(Ok(())) => continue,
            Ok(Err(refused)) => Fault::Illegal(refused.to_string()),
            Err(fault) => fault,
        };
        let tail = match fault {
            Fault::Exited(_) | Fault::Timeout => player.stderr_tail(),
            _ => None,
        };
        played.forfeit = Some((who, fault, tail));
        return HandOutcome::Forfeit(who);
    }
    HandOutcome::Over
}

fn play_match(
    setup: &Setup<'_>,
    game: &Game<'_>,
    players: &mut [&mut Player; 2],
    played: &mut Played,
) {
    let [a, b] = game.names;
    let names = Players::new(a.to_owned(), b.to_owned());
    let Some(mut standing) = Standing::new(setup.profile, &names) else {
        return;
    };
    let mut hands_json: Vec<Value> = Vec::new();
    let mut dealer = game.first_dealer;
    let mut outcome = HandOutcome::Over;
    for k in 0..MAX_HANDS {
        let nonce = game.nonce_base + k;
        played.nonces.push(nonce);
        let Some(mut live) = deal(setup, nonce) else {
            break;
        };
        let done = &hands_json;
        // The score of the hands over, kept for the hand; without it (not
        // reached: the standing scores every hand it enters) the operation
        // over the record.
        let held = standing
            .score()
            .map(|score| MatchView::new(game.names, &score, setup.profile.hollywood()));
        let state_of = |live: &LiveHand, seat: Seat| match &held {
            Some(held) => held.answer(dealer, live, at(seat, dealer), seat),
            None => match_view(setup, game.names, done, dealer, live, at(seat, dealer)),
        };
        outcome = play_one_hand(setup, game, players, played, &mut live, dealer, &state_of);
        played.hands += 1;
        hands_json.push(hand_json(game.names, dealer, &live));
        if !matches!(outcome, HandOutcome::Over) {
            break;
        }
        match standing.after(setup.profile, &names, dealer, &live) {
            Some(Next::Deal(next)) => dealer = next,
            _ => break,
        }
        if k + 1 == MAX_HANDS {
            played.stalled = Some(None);
        }
    }
    let score = standing.score();
    finish_match(setup, game, played, hands_json, score.as_ref(), outcome);
}

/// The match's record and score, once it is over (or stopped).
fn finish_match(
    setup: &Setup<'_>,
    game: &Game<'_>,
    played: &mut Played,
    hands_json: Vec<Value>,
    score: Option<&MatchScore>,
    outcome: HandOutcome,
) {
    played.record =
        json!({"profile": setup.profile_json, "players": game.names, "hands": hands_json});
    if setup.profile_json.is_null()
        && let Some(object) = played.record.as_object_mut()
    {
        object.remove("profile");
    }
    if let Some(score) = score {
        for hand in &score.hands {
            if let Some(points) = hand
                .result
                .winner
                .and_then(|w| played.hand_points.get_mut(w))
            {
                *points += u64::from(hand.result.points);
            }
        }
    }
    settle(played, outcome, |_| {
        match score.and_then(|s| s.complete.then_some(s.winner)) {
            Some(Some(0)) => [1.0, 0.0],
            Some(Some(_)) => [0.0, 1.0],
            _ => [0.5, 0.5],
        }
    });
}

/// The `/v1/matches/state` answer for player `who` of a match whose hands
/// `done` are over and whose hand `live` is in play: built from the record by
/// the route's own function.
pub(super) fn match_view(
    setup: &Setup<'_>,
    names: [&str; 2],
    done: &[Value],
    dealer: usize,
    live: &LiveHand,
    who: usize,
) -> Result<String, String> {
    let mut hands = done.to_vec();
    hands.push(hand_json(names, dealer, live));
    let mut body = json!({"players": names, "hands": hands,
        "seat": names.get(who).copied().unwrap_or_default()});
    if !setup.profile_json.is_null()
        && let Some(object) = body.as_object_mut()
    {
        object.insert("profile".into(), setup.profile_json.clone());
    }
    let request: match_state::MatchStateRequest =
        serde_json::from_value(body).map_err(|e| e.to_string())?;
    let answer = match_state::answer(&request).map_err(|problem| problem.detail)?;
    serde_json::to_string(&answer).map_err(|e| e.to_string())
}
