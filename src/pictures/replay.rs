//! The replay of a hand: the deal (both hands and the upcard), every action in
//! order with its cards, the violating action marked with a word and its
//! message, and the melds, layoffs and deadwood at the end. Drawn from the
//! `/v1/hands/audit` record as the route read it (the deal, dealt from its
//! seeds where the record gives seeds, and the actions) and from its typed
//! answer (the verdict and the result): no JSON is read again.

use gin_contract::answers::audit::AuditRequest;
use gin_contract::wire::transcript::{AuditResponse, AuditResult, TranscriptAction};
use gin_rules::{Deal, HandCard, Outcome, Seat, Side, Source};

use super::text::{clean, push_number};

/// The record a replay is drawn from, kept by the route before the audit
/// takes the request: the deal as cards and the actions as recorded.
#[derive(Debug, Clone)]
pub struct HandRecord {
    /// `None` when the record cannot be dealt (the audit then answers the
    /// problem, and nothing is drawn).
    pub deal: Option<Deal>,
    pub actions: Vec<TranscriptAction>,
}

impl HandRecord {
    /// The record's deal as cards (as given, or dealt from its seeds from the
    /// profile's deck: one more deal, as the audit itself makes) and a copy
    /// of its actions.
    pub fn of(request: &AuditRequest) -> HandRecord {
        use gin_contract::wire::profile_spec::resolve_profile;
        use gin_contract::wire::transcript::{DealInput, seeded_deal};
        let deal = match &request.deal {
            DealInput::Cards(deal) => Some(deal.clone()),
            DealInput::Seeds { seeds, commitment } => resolve_profile(request.profile.as_ref())
                .ok()
                .and_then(|profile| seeded_deal(seeds, commitment, "/deal", profile.jokers()).ok())
                .map(|(deal, _)| deal),
        };
        HandRecord {
            deal,
            actions: request.actions.clone(),
        }
    }
}

/// One action as drawn.
#[derive(Debug, Clone)]
pub struct Step {
    /// Its index in the record (from 0; drawn from 1).
    pub index: usize,
    /// Who: "Dealer" or "Non-dealer".
    pub who: &'static str,
    /// What, after who: "draws from the stock", ...
    pub what: &'static str,
    pub cards: Vec<HandCard>,
    /// The violation's message, when this is the illegal action.
    pub violation: Option<String>,
}

/// The whole replay.
#[derive(Debug, Clone)]
pub struct Replay {
    pub title: String,
    pub notes: Vec<String>,
    /// Labelled lines of cards: the non-dealer's, the dealer's, the upcard.
    pub deal: Vec<(&'static str, Vec<HandCard>)>,
    pub steps: Vec<Step>,
    /// Labelled lines of cards at the end: melds, layoffs, deadwood.
    pub end: Vec<(String, Vec<HandCard>)>,
}

const fn seat(seat: Seat) -> &'static str {
    match seat {
        Seat::Dealer => "Dealer",
        Seat::NonDealer => "Non-dealer",
    }
}

const fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Knock => "knock",
        Outcome::Undercut => "undercut",
        Outcome::Gin => "gin",
        Outcome::BigGin => "big_gin",
    }
}

/// Who acted, what the sentence says, and the cards of one recorded action;
/// `stock` is the deal's stock and `drawn` how many cards were drawn from it
/// before.
fn describe(
    action: &TranscriptAction,
    stock: &[HandCard],
    drawn: &mut usize,
) -> (Seat, &'static str, Vec<HandCard>) {
    match action {
        TranscriptAction::Pass { player } => (*player, "passes", Vec::new()),
        TranscriptAction::Draw {
            player,
            from: Source::Stock,
            card,
        } => {
            let card = card.or_else(|| stock.get(*drawn).copied());
            *drawn += 1;
            (*player, "draws from the stock", card.into_iter().collect())
        }
        TranscriptAction::Draw {
            player,
            from: Source::DiscardPile,
            card,
        } => (
            *player,
            "takes from the discard pile",
            card.iter().copied().collect(),
        ),
        TranscriptAction::Discard { player, card } => (*player, "discards", vec![*card]),
        TranscriptAction::Knock {
            player,
            discard: Some(card),
            ..
        } => (*player, "knocks, discarding", vec![*card]),
        TranscriptAction::Knock { player, .. } => (*player, "knocks with big gin", Vec::new()),
        TranscriptAction::LayOff {
            player,
            layoffs: Some(layoffs),
            ..
        } => (
            *player,
            "replies, laying off",
            layoffs.iter().map(|layoff| layoff.card).collect(),
        ),
        TranscriptAction::LayOff { player, .. } => {
            (*player, "replies (the best layoffs)", Vec::new())
        }
    }
}

fn numbered(prefix: &str, number: impl itoa::Integer, suffix: &str) -> String {
    let mut out = String::with_capacity(prefix.len() + suffix.len() + 4);
    out.push_str(prefix);
    push_number(&mut out, number);
    out.push_str(suffix);
    out
}

/// The lines of cards at the end of a scored hand.
fn end_lines(
    result: &gin_contract::wire::knock::ScoreResponse,
    knocker: &'static str,
) -> Vec<(String, Vec<HandCard>)> {
    let defender = if knocker == "Dealer" {
        "Non-dealer"
    } else {
        "Dealer"
    };
    let mut lines = Vec::new();
    let knocking = &result.knocker;
    for (index, meld) in knocking.melds.iter().enumerate() {
        let label = format!("{knocker} (knocker), meld {}", index + 1);
        lines.push((label, meld.shown().collect()));
    }
    let label = format!("{knocker} (knocker), deadwood {}", knocking.deadwood);
    lines.push((label, knocking.unmelded().collect()));
    let reply = &result.defender;
    for (index, meld) in reply.melds.iter().enumerate() {
        let label = format!("{defender} (defender), meld {}", index + 1);
        lines.push((label, meld.shown().collect()));
    }
    for layoff in &reply.layoffs {
        let onto = layoff.meld.saturating_add(1);
        let label = format!("{defender} lays off onto the knocker's meld {onto}");
        lines.push((label, vec![layoff.card]));
    }
    let label = format!("{defender} (defender), deadwood {}", reply.deadwood);
    let cards = &reply.deadwood_cards;
    let deadwood = cards.naturals.iter().map(HandCard::Natural);
    lines.push((
        label,
        deadwood
            .chain(cards.jokers.iter().map(HandCard::Joker))
            .collect(),
    ));
    lines
}

/// The result in a sentence.
fn result_note(answer: &AuditResponse, knocker: &'static str) -> String {
    match &answer.result {
        Some(AuditResult::Void(_)) => "Result: a void hand, no points".to_owned(),
        None => "Result: none (the record stops before the hand ends, or an action is illegal)"
            .to_owned(),
        Some(AuditResult::Scored(result)) => {
            let winner = match result.winner {
                Side::Knocker => knocker,
                Side::Defender if knocker == "Dealer" => "Non-dealer",
                Side::Defender => "Dealer",
            };
            let mut out = String::with_capacity(64);
            for part in ["Result: ", outcome_name(result.outcome), "; ", winner] {
                out.push_str(part);
            }
            out.push_str(" scores ");
            push_number(&mut out, result.points);
            out.push_str(" points");
            out
        }
    }
}

impl Replay {
    /// The replay of `record`'s hand from its answer.
    pub fn of(record: &HandRecord, answer: &AuditResponse) -> Replay {
        let empty = Vec::new();
        let stock = record.deal.as_ref().map_or(&empty, |deal| &deal.stock);
        let violation = answer.violation.as_ref();
        let illegal_at = violation.and_then(|v| v.action);
        let mut drawn = 0;
        let mut steps = Vec::new();
        for (index, action) in record.actions.iter().enumerate() {
            let (player, what, cards) = describe(action, stock, &mut drawn);
            let here = illegal_at == Some(index);
            steps.push(Step {
                index,
                who: seat(player),
                what,
                cards,
                violation: violation
                    .filter(|_| here)
                    .map(|v| format!("{} ({})", clean(&v.message), v.code.as_str())),
            });
            if here {
                break;
            }
        }
        // No knocker (no scored result): "?", as a seat nobody has.
        let knocker = answer.knocker.map_or("?", seat);
        let mut notes = Vec::new();
        let title = match violation {
            Some(v) => {
                let at = v.action.map_or("the deal".to_owned(), |a| {
                    numbered("action ", a.saturating_add(1), "")
                });
                notes.push(format!(
                    "ILLEGAL at {at}: {} ({}, pointer {})",
                    clean(&v.message),
                    v.code.as_str(),
                    clean(&v.pointer)
                ));
                format!("Hand replay: illegal at {at}")
            }
            None => "Hand replay: legal".to_owned(),
        };
        notes.push(result_note(answer, knocker));
        if steps.len() < record.actions.len() {
            notes.push(numbered(
                "",
                record.actions.len() - steps.len(),
                " later actions not replayed (the audit stops at the first violation)",
            ));
        }
        let deal = match &record.deal {
            Some(deal) => vec![
                ("Non-dealer", deal.non_dealer.clone()),
                ("Dealer", deal.dealer.clone()),
                ("Upcard", vec![deal.upcard]),
            ],
            None => vec![
                ("Non-dealer", Vec::new()),
                ("Dealer", Vec::new()),
                ("Upcard", Vec::new()),
            ],
        };
        let end = match &answer.result {
            Some(AuditResult::Scored(result)) => end_lines(result, knocker),
            _ => Vec::new(),
        };
        Replay {
            title,
            notes,
            deal,
            steps,
            end,
        }
    }

    /// The most cards on one line, for the picture's width.
    pub fn widest_cards(&self) -> usize {
        self.deal
            .iter()
            .map(|(_, cards)| cards.len())
            .chain(self.end.iter().map(|(_, cards)| cards.len()))
            .chain(self.steps.iter().map(|step| step.cards.len()))
            .max()
            .unwrap_or(0)
    }
}
