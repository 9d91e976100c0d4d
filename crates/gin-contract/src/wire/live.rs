//! The live referee's answer on the wire (`POST /v1/hands/state`): the phase,
//! the legal actions with each `move` written exactly as `/v1/hands/audit`
//! reads an action (so that an app appends it as it is), OpenSpiel's action
//! ids, and the table as a seat (or the referee) sees it.
//!
//! OpenSpiel's `gin_rummy` numbers its actions: a card `suit * 13 + rank`
//! (suits in the order spades, clubs, diamonds, hearts; ranks A..K as
//! 0..12) to discard it, 52 to take the upcard or the discard, 53 to draw
//! from the stock, 54 to pass, 55 to knock (then the knock card's id), and 55
//! again to take the 50th-card discard, which it offers only to knock. It has
//! no jokers, no big gin, and plays the reply as a sequence of its own: those
//! entries carry no id.

use serde::Serialize;
use serde_json::{Map, Value, json};
use utoipa::ToSchema;

use super::jokers::HandArrangement;
use super::knock::ScoreResponse;
use super::transcript::{ActionSchema, ActionViolation, AuditResult, VoidResult};
use gin_rules::StandsFor;
use gin_rules::selfplay::OpenSpielIds;
use gin_rules::{
    Action, Arrangement, Hand, HandCard, HandEnd, HandState, LaidDown, LegalAction, LegalKind,
    Move, Seat, Source, StatePhase, View,
};

/// OpenSpiel's id for taking the upcard or the discard.
pub const OPENSPIEL_TAKE: u32 = gin_rules::selfplay::TAKE;
/// OpenSpiel's id for drawing from the stock.
pub const OPENSPIEL_DRAW: u32 = gin_rules::selfplay::DRAW;
/// OpenSpiel's id for a pass.
pub const OPENSPIEL_PASS: u32 = gin_rules::selfplay::PASS;
/// OpenSpiel's id for a knock (then the card), and for taking the 50th-card
/// discard, which OpenSpiel offers only in order to knock.
pub const OPENSPIEL_KNOCK: u32 = gin_rules::selfplay::KNOCK;

/// One action the player to act may take now.
#[derive(Debug, Serialize, ToSchema)]
pub struct LegalEntry {
    /// What it does.
    pub kind: LegalKind,
    /// The action exactly as `/v1/hands/audit` takes it: append it to
    /// `actions` as it is.
    #[serde(rename = "move")]
    #[schema(value_type = ActionSchema)]
    pub play: Value,
    /// A knock: the knocker's least deadwood after it. A reply: the
    /// defender's count after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, example = 4)]
    pub deadwood: Option<u32>,
    /// A knock: whether it is gin (no deadwood).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub gin: Option<bool>,
    /// With `"openspiel": true`: OpenSpiel's `gin_rummy` action id, where
    /// OpenSpiel has the action in one id.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, example = 53)]
    pub openspiel_action: Option<u32>,
    /// With `"openspiel": true`, for a knock: OpenSpiel's two ids, 55 then
    /// the knock card.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, example = json!([55, 12]))]
    pub openspiel_actions: Option<[u32; 2]>,
    /// A knock: `true`. The listed `move` has no `melds` (the referee then
    /// arranges the knocker's cards); the same knock with `melds` (and
    /// `jokers`) the player chose is legal too when they are a legal
    /// arrangement of the cards kept whose deadwood is within the knock
    /// limit. So every well-formed action that is neither listed nor such a
    /// knock is refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, example = true)]
    pub melds_optional: Option<bool>,
}

impl LegalEntry {
    /// The entry for `legal`, in `phase`, with OpenSpiel's ids if asked.
    pub fn new(legal: &LegalAction, phase: StatePhase, openspiel: bool) -> LegalEntry {
        let knock = matches!(legal.kind, LegalKind::Knock | LegalKind::BigGin);
        let (single, pair) = if openspiel {
            let ids = OpenSpielIds::of(legal, phase);
            (ids.single, ids.knock_card.map(|id| [OPENSPIEL_KNOCK, id]))
        } else {
            (None, None)
        };
        LegalEntry {
            kind: legal.kind,
            play: move_json(&legal.action),
            deadwood: legal.deadwood,
            gin: knock.then(|| legal.is_gin()),
            openspiel_action: single,
            openspiel_actions: pair,
            melds_optional: knock.then_some(true),
        }
    }
}

fn cards_json(cards: impl IntoIterator<Item = HandCard>) -> Value {
    Value::Array(cards.into_iter().map(|c| json!(c.to_string())).collect())
}

/// An action as `/v1/hands/audit` reads it: `{"player", "action", ...}`.
pub fn move_json(action: &Action) -> Value {
    let mut object = Map::new();
    object.insert("player".into(), json!(action.player.name()));
    let mut put = |key: &str, value: Value| {
        object.insert(key.into(), value);
    };
    match &action.play {
        Move::Pass => put("action", json!("pass")),
        Move::Draw { from, card } => {
            put("action", json!("draw"));
            put(
                "from",
                json!(match from {
                    Source::Stock => "stock",
                    Source::DiscardPile => "discard_pile",
                }),
            );
            if let Some(card) = card {
                put("card", json!(card.to_string()));
            }
        }
        Move::Discard { card } => {
            put("action", json!("discard"));
            put("card", json!(card.to_string()));
        }
        Move::Knock {
            discard,
            melds,
            jokers,
        } => {
            put("action", json!("knock"));
            if let Some(card) = discard {
                put("discard", json!(card.to_string()));
            }
            if let Some(melds) = melds {
                put("melds", melds_json(melds));
            }
            if !jokers.is_empty() {
                put("jokers", jokers_json(jokers));
            }
        }
        Move::LayOff {
            melds,
            jokers,
            layoffs,
        } => {
            put("action", json!("lay_off"));
            if let Some(melds) = melds {
                put("melds", melds_json(melds));
            }
            if !jokers.is_empty() {
                put("jokers", jokers_json(jokers));
            }
            if let Some(layoffs) = layoffs {
                let list = layoffs
                    .iter()
                    .map(|layoff| {
                        let mut entry = Map::new();
                        entry.insert("card".into(), json!(layoff.card.to_string()));
                        if let Some(card) = layoff.stands_for {
                            entry.insert("stands_for".into(), json!(card.to_string()));
                        }
                        if let Some(meld) = layoff.meld {
                            entry.insert("meld".into(), json!(meld));
                        }
                        if let Some(onto) = &layoff.onto {
                            entry.insert("onto".into(), cards_json(onto.iter().copied()));
                        }
                        Value::Object(entry)
                    })
                    .collect();
                put("layoffs", Value::Array(list));
            }
        }
    }
    Value::Object(object)
}

fn melds_json(melds: &[Vec<HandCard>]) -> Value {
    Value::Array(
        melds
            .iter()
            .map(|meld| cards_json(meld.iter().copied()))
            .collect(),
    )
}

fn jokers_json(jokers: &StandsFor) -> Value {
    let map: Map<String, Value> = jokers
        .pairs()
        .map(|(joker, card)| (joker.notation().to_owned(), json!(card.to_string())))
        .collect();
    Value::Object(map)
}

fn cards_of(hand: Hand) -> Vec<HandCard> {
    hand.cards().collect()
}

/// The table as `seat` sees it, or, with `seat` null, as the referee does
/// (both hands and the stock: for the app's server only).
#[derive(Debug, Serialize, ToSchema)]
pub struct StateView {
    /// The seat whose view this is; null for the referee's whole table.
    pub seat: Option<Seat>,
    /// The seat's cards.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub hand: Option<Vec<HandCard>>,
    /// The referee's view: the dealer's cards.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub dealer: Option<Vec<HandCard>>,
    /// The referee's view: the non-dealer's cards.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub non_dealer: Option<Vec<HandCard>>,
    /// The discard pile, top card first (each discard was seen by both).
    pub discard_pile: Vec<HandCard>,
    /// Cards left in the stock.
    #[schema(example = 30)]
    pub stock_remaining: usize,
    /// The referee's view: the listed stock cards not drawn yet, top first.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub stock: Option<Vec<HandCard>>,
    /// A seat's view: how many cards the opponent holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, example = 10)]
    pub opponent_cards: Option<usize>,
    /// A seat's view: the opponent's cards this seat saw, taken from the pile
    /// and not discarded since.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub opponent_known: Option<Vec<HandCard>>,
    /// The seat's own story: every action so far as this seat may know it,
    /// oldest first, in the transcript's shape (its own stock draws with the
    /// card drawn, the opponent's with no `card`; a knock with the melds laid
    /// down). Without `seat`, the transcript.
    #[schema(value_type = Vec<ActionSchema>)]
    pub log: Vec<Value>,
}

impl From<View> for StateView {
    fn from(view: View) -> StateView {
        match view {
            View::Seat {
                seat,
                hand,
                discard_pile,
                stock_remaining,
                opponent_cards,
                opponent_known,
            } => StateView {
                seat: Some(seat),
                hand: Some(cards_of(hand)),
                dealer: None,
                non_dealer: None,
                discard_pile,
                stock_remaining,
                stock: None,
                opponent_cards: Some(opponent_cards),
                opponent_known: Some(cards_of(opponent_known)),
                log: Vec::new(),
            },
            View::Referee {
                dealer,
                non_dealer,
                discard_pile,
                stock_remaining,
                stock,
            } => StateView {
                seat: None,
                hand: None,
                dealer: Some(cards_of(dealer)),
                non_dealer: Some(cards_of(non_dealer)),
                discard_pile,
                stock_remaining,
                stock: Some(stock),
                opponent_cards: None,
                opponent_known: None,
                log: Vec::new(),
            },
        }
    }
}

/// The knocker's cards as laid down at the knock, seen by both players.
#[derive(Debug, Serialize, ToSchema)]
pub struct LaidDownWire {
    pub knocker: Seat,
    /// The melds, deadwood cards and count.
    #[serde(flatten)]
    #[schema(value_type = HandArrangement)]
    pub arrangement: Arrangement,
}

/// Where a hand stands and what may be done now.
#[derive(Debug, Serialize, ToSchema)]
pub struct StateResponse {
    /// As `/v1/hands/audit`: no action so far is illegal.
    pub legal: bool,
    /// As `/v1/hands/audit`: the first illegal action, or null. With a
    /// `seat`, a message naming a card that seat has not seen is replaced by
    /// one that names none.
    pub violation: Option<ActionViolation>,
    /// Where the hand stands (after a violation: where the replay stopped).
    pub phase: StatePhase,
    /// Who acts now; null once the hand is over, or after a violation.
    pub to_act: Option<Seat>,
    /// Every action `to_act` may take now (empty for a `seat` that waits).
    pub legal_actions: Vec<LegalEntry>,
    /// In the reply, for the defender: each of its cards a single layoff
    /// accepts (one that fits a knocker meld as laid down; none after gin
    /// unless the profile lays off on gin).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub layable: Option<Vec<HandCard>>,
    /// The knocker's melds and deadwood once laid down (reply, over).
    pub laid_down: Option<LaidDownWire>,
    /// The table as `seat` sees it; without `seat`, the referee's whole
    /// table, for the app's server only.
    pub view: StateView,
    /// Once the hand is over: as `/v1/hands/audit`'s `result` (the score with
    /// both hands as laid down, or `{"void": true}`); null before.
    pub result: Option<AuditResult>,
}

impl StateResponse {
    /// The answer with `log`, the actions as its viewer may know them
    /// ([`gin_rules::story`]), as `view.log`.
    pub fn with_log(mut self, log: &[Action]) -> StateResponse {
        self.view.log = log.iter().map(move_json).collect();
        self
    }

    /// The answer for `state`, with OpenSpiel's ids if asked.
    pub fn new(state: HandState, openspiel: bool) -> StateResponse {
        let result = state.end.map(|end| match end {
            HandEnd::Void { .. } => AuditResult::Void(VoidResult { void: true }),
            HandEnd::Scored(scored) => AuditResult::Scored(ScoreResponse::from(scored.score)),
        });
        StateResponse {
            legal: state.violation.is_none(),
            violation: state.violation.map(ActionViolation::from),
            phase: state.phase,
            to_act: state.to_act,
            legal_actions: state
                .legal_actions
                .iter()
                .map(|legal| LegalEntry::new(legal, state.phase, openspiel))
                .collect(),
            layable: state.layable,
            laid_down: state.laid_down.map(
                |LaidDown {
                     knocker,
                     arrangement,
                 }| LaidDownWire {
                    knocker,
                    arrangement,
                },
            ),
            view: state.view.into(),
            result,
        }
    }
}
