//! The replay of a hand: the deal (both hands and the upcard), every action in
//! order with its cards, the violating action marked with a word and its
//! message, and the melds, layoffs and deadwood at the end. Drawn from the
//! `/v1/hands/audit` request (the deal and the actions as recorded) and its
//! answer (the verdict and the result).

use serde_json::Value;

use super::text::{clean, field, figure, receipt_fingerprint, string};

/// One action as drawn.
#[derive(Debug, Clone)]
pub struct Step {
    /// Its index in the record (from 0; drawn from 1).
    pub index: usize,
    pub sentence: String,
    pub cards: Vec<String>,
    /// The violation's message, when this is the illegal action.
    pub violation: Option<String>,
}

/// The whole replay.
#[derive(Debug, Clone)]
pub struct Replay {
    pub title: String,
    pub notes: Vec<String>,
    /// Labelled lines of cards: the non-dealer's, the dealer's, the upcard.
    pub deal: Vec<(String, Vec<String>)>,
    pub steps: Vec<Step>,
    /// Labelled lines of cards at the end: melds, layoffs, deadwood.
    pub end: Vec<(String, Vec<String>)>,
    pub signed: Option<(String, String)>,
}

/// A card as the answer writes it (`TS`, `AH`), whatever notation the record
/// used (`10s`, `A♥`); anything that is not a card is shown as written.
pub fn canonical(value: &Value) -> String {
    let text = value.as_str().unwrap_or_default();
    text.parse::<gin_rules::Card>()
        .map(|card| card.to_string())
        .unwrap_or_else(|_| clean(&text.to_uppercase()))
}

fn cards(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|cards| cards.iter().map(canonical).collect())
        .unwrap_or_default()
}

fn seat(value: &Value) -> &'static str {
    match value.as_str() {
        Some("dealer") => "Dealer",
        Some("non_dealer") => "Non-dealer",
        _ => "?",
    }
}

/// The sentence and the cards of one recorded action; `stock` is the deal's
/// stock and `drawn` how many cards were drawn from it before.
fn describe(action: &Value, stock: &[String], drawn: &mut usize) -> (String, Vec<String>) {
    let who = seat(&action["player"]);
    let named = |field: &str| action.get(field).filter(|v| v.is_string()).map(canonical);
    match action["action"].as_str().unwrap_or_default() {
        "pass" => (format!("{who} passes"), Vec::new()),
        "draw" if action["from"] == "stock" => {
            let card = named("card").or_else(|| stock.get(*drawn).cloned());
            *drawn += 1;
            (
                format!("{who} draws from the stock"),
                card.into_iter().collect(),
            )
        }
        "draw" => (
            format!("{who} takes from the discard pile"),
            named("card").into_iter().collect(),
        ),
        "discard" => (
            format!("{who} discards"),
            named("card").into_iter().collect(),
        ),
        "knock" => match named("discard") {
            Some(card) => (format!("{who} knocks, discarding"), vec![card]),
            None => (format!("{who} knocks with big gin"), Vec::new()),
        },
        "lay_off" => {
            let laid: Vec<String> = action["layoffs"]
                .as_array()
                .map(|layoffs| layoffs.iter().map(|l| canonical(&l["card"])).collect())
                .unwrap_or_default();
            let sentence = if action["layoffs"].is_array() {
                format!("{who} replies, laying off")
            } else {
                format!("{who} replies (the best layoffs)")
            };
            (sentence, laid)
        }
        other => (format!("{who}: {}", clean(other)), Vec::new()),
    }
}

/// The lines of cards at the end of a scored hand.
fn end_lines(result: &Value, knocker: &str) -> Vec<(String, Vec<String>)> {
    let defender = if knocker == "Dealer" {
        "Non-dealer"
    } else {
        "Dealer"
    };
    let mut lines = Vec::new();
    for (role, name) in [("knocker", knocker), ("defender", defender)] {
        let side = &result[role];
        for (index, meld) in side["melds"].as_array().into_iter().flatten().enumerate() {
            lines.push((format!("{name} ({role}), meld {}", index + 1), cards(meld)));
        }
        for layoff in side["layoffs"].as_array().into_iter().flatten() {
            let onto = layoff["meld"].as_u64().map_or(0, |meld| meld + 1);
            lines.push((
                format!("{name} lays off onto the knocker's meld {onto}"),
                vec![canonical(&layoff["card"])],
            ));
        }
        let deadwood = figure(&side["deadwood"]).unwrap_or_default();
        lines.push((
            format!("{name} ({role}), deadwood {deadwood}"),
            cards(&side["deadwood_cards"]),
        ));
    }
    lines
}

/// The result in a sentence.
fn result_note(answer: &Value, knocker: &str) -> String {
    let result = &answer["result"];
    if result["void"] == true {
        return "Result: a void hand, no points".to_owned();
    }
    if result.is_null() {
        return "Result: none (the record stops before the hand ends, or an action is illegal)"
            .to_owned();
    }
    let winner = match result["winner"].as_str() {
        Some("knocker") => knocker,
        _ if knocker == "Dealer" => "Non-dealer",
        _ => "Dealer",
    };
    format!(
        "Result: {}; {winner} scores {} points",
        string(&result["outcome"]),
        figure(&result["points"]).unwrap_or_default()
    )
}

impl Replay {
    /// The replay of `request`'s hand from its answer; `deal` is the deal as
    /// cards (dealt from the seeds when the record gives seeds).
    pub fn of(request: &Value, answer: &Value, deal: Option<&Value>) -> Replay {
        let deal = deal.unwrap_or(&request["deal"]);
        let stock = cards(&deal["stock"]);
        let violation = answer.get("violation").filter(|v| v.is_object());
        let illegal_at = violation.and_then(|v| v["action"].as_u64());
        let mut drawn = 0;
        let mut steps = Vec::new();
        let actions = request["actions"].as_array().map_or(&[][..], Vec::as_slice);
        for (index, action) in actions.iter().enumerate() {
            let (sentence, cards) = describe(action, &stock, &mut drawn);
            let here = illegal_at == Some(index as u64);
            steps.push(Step {
                index,
                sentence,
                cards,
                violation: here
                    .then(|| {
                        violation
                            .map(|v| format!("{} ({})", string(&v["message"]), string(&v["code"])))
                    })
                    .flatten(),
            });
            if here {
                break;
            }
        }
        let knocker = seat(&answer["knocker"]);
        let mut notes = Vec::new();
        let title = match violation {
            Some(v) => {
                let at = v["action"]
                    .as_u64()
                    .map_or("the deal".to_owned(), |a| format!("action {}", a + 1));
                notes.push(format!(
                    "ILLEGAL at {at}: {} ({}, pointer {})",
                    string(&v["message"]),
                    string(&v["code"]),
                    string(&v["pointer"])
                ));
                format!("Hand replay: illegal at {at}")
            }
            None => "Hand replay: legal".to_owned(),
        };
        notes.push(result_note(answer, knocker));
        if steps.len() < actions.len() {
            notes.push(format!(
                "{} later actions not replayed (the audit stops at the first violation)",
                actions.len() - steps.len()
            ));
        }
        let signed = answer["receipt"].as_str().map(|jws| {
            let (kid, digest) = receipt_fingerprint(jws);
            notes.push(format!(
                "Signed: kid {kid} · SHA-256 of the receipt {digest}"
            ));
            (answer.to_string(), jws.to_owned())
        });
        let upcard: Vec<String> = deal.get("upcard").map(canonical).into_iter().collect();
        Replay {
            title,
            notes,
            deal: vec![
                ("Non-dealer".to_owned(), cards(&deal["non_dealer"])),
                ("Dealer".to_owned(), cards(&deal["dealer"])),
                ("Upcard".to_owned(), upcard),
            ],
            steps,
            end: if field(&answer["result"], "knocker").is_object() {
                end_lines(&answer["result"], knocker)
            } else {
                Vec::new()
            },
            signed,
        }
    }

    /// The most cards on one line, for the picture's width.
    pub fn widest_cards(&self) -> usize {
        self.deal
            .iter()
            .chain(&self.end)
            .map(|(_, cards)| cards.len())
            .chain(self.steps.iter().map(|step| step.cards.len()))
            .max()
            .unwrap_or(0)
    }
}

/// The record's deal as cards (its JSON): as given, or dealt from its seeds
/// from the profile's deck. `None` when the record cannot be dealt (the audit
/// then answers the problem, and nothing is drawn).
pub fn dealt_cards(request: &gin_contract::answers::audit::AuditRequest) -> Option<Value> {
    use gin_contract::wire::profile_spec::resolve_profile;
    use gin_contract::wire::transcript::{DealInput, seeded_deal};
    match &request.deal {
        DealInput::Cards(deal) => serde_json::to_value(deal).ok(),
        DealInput::Seeds { seeds, commitment } => {
            let jokers = resolve_profile(request.profile.as_ref()).ok()?.jokers();
            let (deal, _) = seeded_deal(seeds, commitment, "/deal", jokers).ok()?;
            serde_json::to_value(deal).ok()
        }
    }
}
