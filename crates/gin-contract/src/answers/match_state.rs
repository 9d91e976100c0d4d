//! `POST /v1/matches/state`: the live referee of a whole match. An app that
//! runs a match sends its record exactly as `/v1/matches/audit` takes it (the
//! last hand possibly in progress) and is told where the match stands
//! (`deal`, `play`, `over`), who plays the next hand, who may act now, each
//! table in play as `/v1/hands/state` answers it, and the score of the hands
//! that are over (the referee is [`gin_rules::match_state`],
//! the match audit's own engine). Stateless: the record is the state.
//!
//! With `seat` (a player's name) each table is seen as that player may see
//! it: their own table as their seat, another as the public; with
//! `"spectator": true` every table as the public. Without either, the
//! referee's whole tables: for the app's server only.
//!
//! # Cost
//!
//! The match audit's ceilings and body limit. One match audit, then at most
//! four hand states (two tables, each seen by both seats for the public's
//! view): the record's length bounds everything. No receipt is signed.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::limits::{RequestLimits, check_length};
use crate::problem::{ErrorCode, Problem};
use crate::wire::edge::{FormatOperation, WireFormat, dispatch};
use crate::wire::formats::{MatchAnswer, TeamSpec};

use crate::wire::live::{LaidDownWire, StateResponse, move_json};
use crate::wire::match_record::{
    MatchAuditViolation, RoundRecord, RoundRecordSchema, audit_problem, check_record_limits,
};
use crate::wire::profile_spec::{ProfileSpec, resolve_profile};
use crate::wire::request::record_request;
use crate::wire::transcript::{ActionSchema, ActionViolation, AuditResult};
use gin_rules::{
    LiveTable, MatchAuditError, MatchPhase, MatchState, MatchViewer, NextDeal, Profile, Seat,
    Seating, StatePhase,
};

record_request! { match:
    /// A match so far, and whose view to answer with.
    pub struct MatchStateRequest {
        /// A preset name (`standard` when absent) or an object overriding a
        /// preset's parameters, as for `/v1/matches/audit`.
        profile,
        /// The players' names: two, or three. Absent for partnership play.
        players,
        /// Partnership play: the two teams of two, instead of `players`.
        teams,
        /// The hands played, in order, as `/v1/matches/audit` takes them; the
        /// last may be in progress.
        hands,
        /// Answer with what this player may know: their own table as their seat
        /// sees it, any other table as the public does.
        #[serde(default, deserialize_with = "crate::json::present")]
        #[schema(nullable = false, example = "Ann")]
        pub seat: Option<String>,
        /// Answer with what the public may know (for broadcasting): every table
        /// as a spectator sees it. Not with `seat`.
        #[serde(default, deserialize_with = "crate::json::present")]
        #[schema(nullable = false, example = false)]
        pub spectator: Option<bool>,
        openspiel:
        /// Add OpenSpiel's `gin_rummy` action ids to the legal actions.
    }
}

/// Two players at one table of the next partnership deal.
#[derive(Debug, Serialize, ToSchema)]
pub struct NextTable {
    /// The two players (either may deal).
    #[schema(example = json!(["Ann", "Dee"]))]
    pub players: [String; 2],
}

/// Who plays the next hand, as the rules fix it, and its seeds.
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct NextDealWire {
    /// Two players: who deals (by the profile's `next_dealer`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, example = "Bob")]
    pub dealer: Option<String>,
    /// Two players: the other player.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, example = "Ann")]
    pub non_dealer: Option<String>,
    /// Three players: the two who play (either may deal).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub players: Option<[String; 2]>,
    /// Three players: who sits out.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub sits_out: Option<String>,
    /// Partnership: the pairings of the two tables (in either order).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub tables: Option<Vec<NextTable>>,
    /// Seeded deals: the match's commitment.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub commitment: Option<String>,
    /// Seeded deals: the match's client seed.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub client_seed: Option<String>,
    /// Seeded deals: the least nonce the next deal may use (null once no
    /// larger nonce exists).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub nonce: Option<Option<u64>>,
}

impl From<NextDeal> for NextDealWire {
    fn from(next: NextDeal) -> NextDealWire {
        let mut wire = match next.seating {
            Seating::Two { dealer, non_dealer } => NextDealWire {
                dealer: Some(dealer),
                non_dealer: Some(non_dealer),
                ..NextDealWire::default()
            },
            Seating::Three { players, sits_out } => NextDealWire {
                players: Some(players),
                sits_out: Some(sits_out),
                ..NextDealWire::default()
            },
            Seating::Partnership { tables } => NextDealWire {
                tables: Some(
                    tables
                        .into_iter()
                        .map(|players| NextTable { players })
                        .collect(),
                ),
                ..NextDealWire::default()
            },
        };
        if let Some(seeds) = next.seeds {
            wire.commitment = Some(seeds.commitment);
            wire.client_seed = Some(seeds.client_seed);
            wire.nonce = Some(seeds.nonce);
        }
        wire
    }
}

/// A table as its seat (or the referee) sees it: `/v1/hands/state`'s answer
/// with the players' names.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatedTable {
    /// The dealer's name.
    #[schema(example = "Ann")]
    pub dealer: String,
    /// The non-dealer's name.
    #[schema(example = "Bob")]
    pub non_dealer: String,
    /// The table, as `/v1/hands/state` answers it.
    #[serde(flatten)]
    pub state: StateResponse,
}

/// What the public sees of a table: face-up cards and counts.
#[derive(Debug, Serialize, ToSchema)]
pub struct SpectatorView {
    /// Always `true`: the public's view.
    pub spectator: bool,
    /// The discard pile, top card first.
    pub discard_pile: Vec<gin_rules::HandCard>,
    /// Cards left in the stock.
    #[schema(example = 30)]
    pub stock_remaining: usize,
    /// How many cards the dealer holds.
    #[schema(example = 10)]
    pub dealer_cards: usize,
    /// How many cards the non-dealer holds.
    #[schema(example = 10)]
    pub non_dealer_cards: usize,
    /// The dealer's cards taken from the pile and not discarded since.
    pub dealer_known: Vec<gin_rules::HandCard>,
    /// The non-dealer's cards taken from the pile and not discarded since.
    pub non_dealer_known: Vec<gin_rules::HandCard>,
    /// Every action so far as the public knows it: no stock draw names its
    /// card.
    #[schema(value_type = Vec<ActionSchema>)]
    pub log: Vec<Value>,
}

/// A table as the public sees it: no listing, no `layable`, no hand.
#[derive(Debug, Serialize, ToSchema)]
pub struct SpectatorTableWire {
    /// The dealer's name.
    #[schema(example = "Ann")]
    pub dealer: String,
    /// The non-dealer's name.
    #[schema(example = "Bob")]
    pub non_dealer: String,
    /// As `/v1/hands/state`: no action so far is illegal.
    pub legal: bool,
    /// The first illegal action, its message naming no card the public has
    /// not seen.
    pub violation: Option<ActionViolation>,
    /// Where the hand stands.
    pub phase: StatePhase,
    /// Who acts now (a seat).
    pub to_act: Option<Seat>,
    /// The knocker's melds and deadwood once laid down.
    pub laid_down: Option<LaidDownWire>,
    /// What is face up.
    pub view: SpectatorView,
    /// Once the hand is over, as `/v1/hands/audit`'s `result`.
    pub result: Option<AuditResult>,
}

/// A table in play: seen by a seat (or the referee), or by the public.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum MatchTable {
    Seated(Box<SeatedTable>),
    Spectator(Box<SpectatorTableWire>),
}

/// Where a match stands and what may be done now.
#[derive(Debug, Serialize, ToSchema)]
pub struct MatchStateResponse {
    /// As `/v1/matches/audit`: no violation in any hand or between hands.
    pub legal: bool,
    /// As `/v1/matches/audit`: the first violation, or null (with `seat` or
    /// `spectator`, a message naming a card the viewer cannot know is
    /// replaced).
    pub violation: Option<MatchAuditViolation>,
    /// `deal` (the app deals the next hand), `play` (a hand or a deal's
    /// tables in progress) or `over` (the match is complete).
    pub phase: MatchPhase,
    /// In `deal`, after the first hand: who plays the next hand (and its
    /// seeds, for a seeded match); null otherwise.
    pub next_deal: Option<NextDealWire>,
    /// The names of the players who may act now (one per table in play).
    #[schema(example = json!(["Bob"]))]
    pub to_act: Vec<String>,
    /// Each table in play (`[]` outside `play`), with its players' names.
    pub tables: Vec<MatchTable>,
    /// The `/v1/matches/score` answer of the hands that are over.
    pub score: MatchAnswer,
}

// ---- The answer ------------------------------------------------------------

/// The record in the request.
/// The viewer the request names: a player of the match, the public, or the
/// referee.
fn viewer(request: &MatchStateRequest) -> Result<MatchViewer<'_>, Problem> {
    let spectator = request.spectator == Some(true);
    match (&request.seat, spectator) {
        // The schema lists both as optional (it cannot say "at most one" in
        // a form generators read), so this is a rule: 422.
        (Some(_), true) => {
            let message = "a view is a player's (`seat`) or the public's (`spectator`), not both";
            Err(
                Problem::new(ErrorCode::SeatOrSpectator, format!("/spectator: {message}"))
                    .with_error("/spectator", ErrorCode::SeatOrSpectator, message),
            )
        }
        (Some(name), false) => {
            let known = match (&request.players, &request.teams) {
                (Some(players), _) => players.contains(name),
                (None, Some(teams)) => teams.iter().any(|team| team.players.contains(name)),
                (None, None) => true,
            };
            if !known {
                let detail = format!("/seat: {name:?} is not a player of this match");
                return Err(Problem::new(ErrorCode::UnknownPlayer, &detail).with_error(
                    "/seat",
                    ErrorCode::UnknownPlayer,
                    detail.clone(),
                ));
            }
            Ok(MatchViewer::Player(name))
        }
        (None, true) => Ok(MatchViewer::Spectator),
        (None, false) => Ok(MatchViewer::Referee),
    }
}

/// One table on the wire.
fn table(table: LiveTable, openspiel: bool) -> MatchTable {
    let log: Vec<Value> = table.log.iter().map(move_json).collect();
    let state = StateResponse::new(table.state, openspiel);
    match table.spectator {
        None => {
            let mut state = state;
            state.view.log = log;
            MatchTable::Seated(Box::new(SeatedTable {
                dealer: table.dealer,
                non_dealer: table.non_dealer,
                state,
            }))
        }
        Some(public) => MatchTable::Spectator(Box::new(SpectatorTableWire {
            dealer: table.dealer,
            non_dealer: table.non_dealer,
            legal: state.legal,
            violation: state.violation,
            phase: state.phase,
            to_act: state.to_act,
            laid_down: state.laid_down,
            view: SpectatorView {
                spectator: true,
                discard_pile: public.discard_pile,
                stock_remaining: public.stock_remaining,
                dealer_cards: public.dealer_cards,
                non_dealer_cards: public.non_dealer_cards,
                dealer_known: public.dealer_known.cards().collect(),
                non_dealer_known: public.non_dealer_known.cards().collect(),
                log,
            },
            result: state.result,
        })),
    }
}

/// The answer from the rules' state.
fn response<S>(
    request: &MatchStateRequest,
    state: MatchState<S>,
    score: MatchAnswer,
) -> MatchStateResponse {
    let openspiel = request.openspiel == Some(true);
    let to_act = state.to_act().into_iter().map(str::to_owned).collect();
    let violation = state
        .violation
        .as_ref()
        .map(|found| MatchAuditViolation::of(&request.record(), found));
    MatchStateResponse {
        legal: violation.is_none(),
        violation,
        phase: state.phase,
        next_deal: state.next_deal.map(NextDealWire::from),
        to_act,
        tables: state
            .tables
            .into_iter()
            .map(|live| table(live, openspiel))
            .collect(),
        score,
    }
}

/// The whole operation, without HTTP.
pub fn answer(request: &MatchStateRequest) -> Result<MatchStateResponse, Problem> {
    let profile: Profile = resolve_profile(request.profile.as_ref())?;
    let viewer = viewer(request)?;
    dispatch(
        request.players.as_deref(),
        request.teams.as_deref(),
        State {
            request,
            profile,
            viewer,
        },
    )
}

/// The live match state, for any format.
struct State<'a> {
    request: &'a MatchStateRequest,
    profile: Profile,
    viewer: MatchViewer<'a>,
}

impl FormatOperation for State<'_> {
    type Output = MatchStateResponse;

    fn run<F: WireFormat>(self, format: F) -> Result<MatchStateResponse, Problem> {
        let State {
            request,
            profile,
            viewer,
        } = self;
        let record = request.record();
        let deals = F::record_deals(&record, profile.jokers())?;
        let problem = |e: MatchAuditError| audit_problem(&record, &e);
        let state = gin_rules::match_state(&profile, &format, &deals, viewer).map_err(problem)?;
        let score = format.answer(&state.score, &profile);
        Ok(response(request, state, score))
    }
}

/// `/v1/matches/state`: the match audit's ceilings checked, then the state.
pub fn respond(
    request: &MatchStateRequest,
    limits: &RequestLimits,
) -> Result<MatchStateResponse, Problem> {
    check_record_limits(&request.record(), limits)?;
    if let Some(seat) = &request.seat {
        check_length("/seat", seat, limits.name_length)?;
    }
    answer(request)
}

/// Examples for the OpenAPI document and the guides, each run through the
/// real referee so that they cannot drift from what the service answers.
pub mod examples {
    use gin_rules::fair_deal::{ServerSeed, deal_with_jokers};
    use serde_json::{Value, json};

    use crate::wire::transcript::examples::{
        first_actions as first, knock_actions, match_hand as hand,
    };

    /// Two players, one hand over: Bob deals the next (the deal alternates).
    pub fn two_deal() -> Value {
        json!({"players": ["Ann", "Bob"], "hands": [hand("Ann", "Bob", knock_actions())]})
    }

    /// Two players, the second hand in play, as Ann sees it: she drew 2H and
    /// may discard or knock (OpenSpiel's ids added).
    pub fn two_play() -> Value {
        json!({
            "players": ["Ann", "Bob"],
            "hands": [hand("Ann", "Bob", knock_actions()), hand("Bob", "Ann", first(3))],
            "seat": "Ann",
            "openspiel": true,
        })
    }

    /// A game to 25: Bob's 60 points end it.
    pub fn two_over() -> Value {
        json!({
            "profile": {"base": "standard", "target": 25},
            "players": ["Ann", "Bob"],
            "hands": [hand("Ann", "Bob", knock_actions())],
        })
    }

    /// Three players: Bob beat Ann, so Ann sits out and Bob meets Cy.
    pub fn three_deal() -> Value {
        json!({
            "players": ["Ann", "Bob", "Cy"],
            "hands": [hand("Ann", "Bob", knock_actions())],
        })
    }

    /// A partnership deal in play, as the public sees it: Ann and Bob's
    /// table in the discard phase, Cy and Dee's over.
    pub fn partnership_play() -> Value {
        json!({
            "profile": "partnership",
            "teams": [
                {"name": "North-South", "players": ["Ann", "Cy"]},
                {"name": "East-West", "players": ["Bob", "Dee"]},
            ],
            "hands": [{"tables": [
                hand("Ann", "Bob", first(3)),
                hand("Cy", "Dee", knock_actions()),
            ]}],
            "spectator": true,
        })
    }

    /// Three players, the second hand in play, as Cy sees it: Bob beat Ann,
    /// so Ann sits out and watches; Bob deals to Cy, who drew 2H.
    pub fn three_play() -> Value {
        json!({
            "players": ["Ann", "Bob", "Cy"],
            "hands": [hand("Ann", "Bob", knock_actions()), hand("Bob", "Cy", first(3))],
            "seat": "Cy",
        })
    }

    /// Three players, a game to 50: Bob's 60 points end it.
    pub fn three_over() -> Value {
        json!({
            "profile": {"base": "standard", "target": 50},
            "players": ["Ann", "Bob", "Cy"],
            "hands": [hand("Ann", "Bob", knock_actions())],
        })
    }

    /// Partnerships: one deal over at both tables; the next deal's pairings
    /// (each player meets the other side's other player).
    pub fn partnership_deal() -> Value {
        json!({
            "profile": "partnership",
            "teams": teams(),
            "hands": [{"tables": [
                hand("Ann", "Bob", knock_actions()),
                hand("Cy", "Dee", knock_actions()),
            ]}],
        })
    }

    /// Partnerships, a game to 100: East-West win both tables (60 + 60) and
    /// the match.
    pub fn partnership_over() -> Value {
        json!({
            "profile": {"base": "partnership", "target": 100},
            "teams": teams(),
            "hands": [{"tables": [
                hand("Ann", "Bob", knock_actions()),
                hand("Cy", "Dee", knock_actions()),
            ]}],
        })
    }

    /// Hollywood: three games scored at once; Bob's first win opens his
    /// first game only, and the match goes on.
    pub fn hollywood_deal() -> Value {
        json!({
            "profile": "hollywood",
            "players": ["Ann", "Bob"],
            "hands": [hand("Ann", "Bob", knock_actions())],
        })
    }

    fn teams() -> Value {
        json!([
            {"name": "North-South", "players": ["Ann", "Cy"]},
            {"name": "East-West", "players": ["Bob", "Dee"]},
        ])
    }

    /// The server seed of the seeded example (published after the match).
    pub const SERVER_SEED: &str =
        "0f1e2d3c4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff0";

    /// A hand dealt from the seeds (`nonce`) and played to a void: both pass
    /// the upcard, then each draws from the stock and discards that card
    /// until two cards are left.
    pub fn seeded_void_hand(dealer: &str, non_dealer: &str, nonce: u64) -> Value {
        let Ok(seed) = ServerSeed::from_hex(SERVER_SEED) else {
            return Value::Null;
        };
        let Ok(dealt) = deal_with_jokers(&seed, "table-7", nonce, 0) else {
            return Value::Null;
        };
        let mut actions = vec![
            json!({"player": "non_dealer", "action": "pass"}),
            json!({"player": "dealer", "action": "pass"}),
        ];
        let stock = dealt
            .stock
            .len()
            .saturating_sub(gin_rules::audit::STOCK_RESERVE);
        for (turn, card) in dealt.stock.iter().take(stock).enumerate() {
            let player = if turn.is_multiple_of(2) {
                "non_dealer"
            } else {
                "dealer"
            };
            actions.push(json!({"player": player, "action": "draw", "from": "stock"}));
            actions.push(json!({"player": player, "action": "discard", "card": card.to_string()}));
        }
        json!({
            "dealer": dealer,
            "non_dealer": non_dealer,
            "deal": {
                "seeds": {"server_seed": SERVER_SEED, "client_seed": "table-7", "nonce": nonce},
                "commitment": seed.commitment(),
            },
            "actions": actions,
        })
    }

    /// A seeded match after a void hand: the same dealer's turn passes, and
    /// the next deal uses the match's commitment and client seed with a
    /// nonce of at least 2.
    pub fn seeded_deal() -> Value {
        json!({
            "players": ["Ann", "Bob"],
            "hands": [seeded_void_hand("Ann", "Bob", 1)],
            "seat": "Bob",
        })
    }

    /// Ann deals the second hand too: refused as the match audit refuses it.
    pub fn wrong_dealer() -> Value {
        json!({
            "players": ["Ann", "Bob"],
            "hands": [hand("Ann", "Bob", knock_actions()), hand("Ann", "Bob", json!([]))],
        })
    }

    /// What the service answers to `request` (null if it does not answer 200).
    pub fn answer(request: Value) -> Value {
        crate::wire::example_answer(request, |r| super::answer(&r))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_documented_examples_are_answered_as_documented() {
        let deal = examples::answer(examples::two_deal());
        assert_eq!(deal["phase"], "deal", "{deal}");
        assert_eq!(
            deal["next_deal"],
            json!({"dealer": "Bob", "non_dealer": "Ann"})
        );
        assert_eq!(deal["to_act"], json!([]));
        let play = examples::answer(examples::two_play());
        assert_eq!(play["phase"], "play", "{play}");
        assert_eq!(play["to_act"], json!(["Ann"]));
        assert_eq!(play["tables"][0]["dealer"], "Bob");
        assert_eq!(play["tables"][0]["phase"], "discard");
        let knock = play["tables"][0]["legal_actions"]
            .as_array()
            .and_then(|all| all.iter().find(|a| a["kind"] == "knock"))
            .cloned()
            .unwrap_or_default();
        assert_eq!(knock["melds_optional"], true);
        assert_eq!(
            play["tables"][0]["view"]["log"][2],
            json!({"player": "non_dealer", "action": "draw", "from": "stock", "card": "2H"})
        );
        let over = examples::answer(examples::two_over());
        assert_eq!(over["phase"], "over", "{over}");
        assert_eq!(over["score"]["winner"], "Bob");
        let three = examples::answer(examples::three_deal());
        assert_eq!(
            three["next_deal"],
            json!({"players": ["Bob", "Cy"], "sits_out": "Ann"})
        );
        let teams = examples::answer(examples::partnership_play());
        assert_eq!(teams["to_act"], json!(["Bob"]), "{teams}");
        assert_eq!(teams["tables"][1]["phase"], "over");
        assert!(teams["tables"][0].get("legal_actions").is_none());
        assert_eq!(teams["tables"][0]["view"]["spectator"], true);
        assert_eq!(
            teams["tables"][0]["view"]["log"][2],
            json!({"player": "non_dealer", "action": "draw", "from": "stock"})
        );
        let seeded = examples::answer(examples::seeded_deal());
        assert_eq!(seeded["phase"], "deal", "{seeded}");
        assert_eq!(seeded["next_deal"]["dealer"], "Bob");
        assert_eq!(seeded["next_deal"]["client_seed"], "table-7");
        assert_eq!(seeded["next_deal"]["nonce"], 2);
        assert!(!seeded.to_string().contains(examples::SERVER_SEED));
        let wrong = examples::answer(examples::wrong_dealer());
        assert_eq!(wrong["violation"]["code"], "wrong_dealer");
        assert_eq!(wrong["violation"]["pointer"], "/hands/1/dealer");
    }

    #[test]
    fn every_format_has_an_example_per_phase() {
        let phase = |request| examples::answer(request)["phase"].clone();
        let three = examples::answer(examples::three_play());
        assert_eq!(three["phase"], "play", "{three}");
        assert_eq!(three["to_act"], json!(["Cy"]));
        assert_eq!(three["tables"][0]["non_dealer"], "Cy", "{three}");
        let over = examples::answer(examples::three_over());
        assert_eq!(over["phase"], "over", "{over}");
        assert_eq!(over["score"]["winner"], "Bob", "{over}");
        let deal = examples::answer(examples::partnership_deal());
        assert_eq!(deal["phase"], "deal", "{deal}");
        assert!(deal["next_deal"].is_object(), "{deal}");
        let over = examples::answer(examples::partnership_over());
        assert_eq!(over["phase"], "over", "{over}");
        assert_eq!(over["score"]["winner"], "East-West", "{over}");
        assert_eq!(phase(examples::hollywood_deal()), "deal");
    }
}
