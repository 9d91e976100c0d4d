//! `POST /v1/hands/analyze` (optimal deadwood, best discards) and
//! `POST /v1/hands/score` (score a knock, gin or big gin).

use crate::error_codes::ErrorCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::json::from_slice;
use crate::lines;
use crate::problem::Problem;
use crate::wire::jokers::{
    DeadwoodCards, DefenderHand, HandArrangement, KnockerHand, StandsFor, read_hand, score_knock,
};
use crate::wire::knock::ScoreResponse;
use crate::wire::profile_spec::{ProfileSpec, profile_problem, resolve_profile};
use crate::wire::receipt::Keys;
use gin_rules::{
    Arrangement, Card, CardSet, HandCard, Meld, analyze_drawn_hand, best_arrangement,
    optimal_arrangements,
};

/// A hand to analyse.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeRequest {
    /// 10 cards, or 11 right after the draw; under a profile with jokers, `X1`
    /// and `X2` among them (another count is a 422 `wrong_card_count`; more
    /// than a deck, a 400).
    #[serde(deserialize_with = "gin_rules::bounded::at_most::<_, _, 52>")]
    #[schema(max_items = 52,
             example = json!(["7S", "7H", "7D", "7C", "8H", "9H", "KS", "QD", "2C", "3D"]))]
    pub hand: Vec<HandCard>,
    pub profile: Option<ProfileSpec>,
    /// The first upcard, needed when the knock limit depends on it (Oklahoma).
    pub upcard: Option<Card>,
    /// For 10 cards, also list every optimal arrangement.
    #[serde(default)]
    pub all_arrangements: bool,
}

// Flat, unlike the rules' `Discard` (a card and an arrangement), and with what
// the knock limit makes of it, hence this type of its own.
/// One discard from 11 cards reaching the least deadwood.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BestDiscard {
    /// The card (or joker) discarded.
    #[schema(value_type = HandCard)]
    pub card: HandCard,
    pub deadwood: u32,
    /// The melds of the ten cards kept; a joker stands in the place of the
    /// card it stands for.
    #[schema(value_type = Vec<Vec<HandCard>>)]
    pub melds: Vec<Meld>,
    /// What each melded joker stands for; absent when no joker is melded.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub jokers: Option<StandsFor>,
    /// The cards in no meld, unmelded jokers last.
    #[schema(value_type = Vec<HandCard>)]
    pub deadwood_cards: DeadwoodCards,
    pub can_knock: bool,
    pub gin: bool,
}

/// The analysis. For 10 cards: `melds`, `deadwood_cards` (and `arrangements` on
/// request); for 11 cards: `discards` and `big_gin`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({
    "deadwood": 25, "melds": [["7S", "7D", "7C"], ["7H", "8H", "9H"]],
    "deadwood_cards": ["KS", "7H"], "knock_limit": 10, "can_knock": false, "gin": false
}))]
pub struct AnalyzeResponse {
    /// The minimum deadwood (for 11 cards: after the best discard).
    pub deadwood: u32,
    /// The knock limit under the profile (and upcard).
    pub knock_limit: u32,
    /// The hand may knock (for 11 cards: after some best discard).
    pub can_knock: bool,
    /// The minimum deadwood is 0.
    pub gin: bool,
    /// 10 cards: one optimal arrangement's melds. With jokers, a joker stands
    /// in the place of the card it stands for (`["5H", "X1", "7H"]`), and
    /// `jokers` says which card that is.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<Vec<HandCard>>>)]
    pub melds: Option<Vec<Meld>>,
    /// 10 cards: what each joker of `melds` stands for (`{"X1": "6H"}`);
    /// absent when no joker is melded.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub jokers: Option<StandsFor>,
    /// 10 cards: that arrangement's deadwood cards, unmelded jokers last.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<HandCard>>)]
    pub deadwood_cards: Option<DeadwoodCards>,
    /// 10 cards with `all_arrangements`: every optimal arrangement, in a fixed
    /// order (with jokers: every card each joker may stand for, and each order
    /// of `X1` and `X2`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<HandArrangement>>)]
    pub arrangements: Option<Vec<Arrangement>>,
    /// 11 cards: every discard reaching the minimum, in canonical card order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discards: Option<Vec<BestDiscard>>,
    /// 11 cards: all eleven meld without a discard.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub big_gin: Option<bool>,
}

/// The analysis of one hand, without HTTP (the single and the batch endpoint).
pub fn analysis(request: AnalyzeRequest) -> Result<AnalyzeResponse, Problem> {
    let profile = resolve_profile(request.profile.as_ref())?;
    let hand = read_hand(&request.hand, "/hand", &profile)?;
    let knock_limit = profile
        .knock_limit_for(request.upcard)
        .map_err(|e| profile_problem(&e))?;
    let rules = profile.joker_rules();
    match hand.len() {
        10 => {
            let best = best_arrangement(hand, &rules);
            let arrangements = request
                .all_arrangements
                .then(|| optimal_arrangements(hand, &rules));
            let jokers = StandsFor::of(&best.melds);
            let deadwood_cards = DeadwoodCards::of(&best);
            Ok(AnalyzeResponse {
                deadwood: best.deadwood,
                knock_limit,
                can_knock: best.deadwood <= knock_limit,
                gin: best.deadwood == 0,
                melds: Some(best.melds),
                jokers: (!jokers.is_empty()).then_some(jokers),
                deadwood_cards: Some(deadwood_cards),
                arrangements,
                discards: None,
                big_gin: None,
            })
        }
        11 => {
            let analysis = analyze_drawn_hand(hand, &rules);
            let discards = analysis
                .discards
                .into_iter()
                .map(|discard| {
                    let kept = discard.arrangement;
                    let jokers = StandsFor::of(&kept.melds);
                    let deadwood_cards = DeadwoodCards::of(&kept);
                    BestDiscard {
                        card: discard.card,
                        deadwood: kept.deadwood,
                        melds: kept.melds,
                        jokers: (!jokers.is_empty()).then_some(jokers),
                        deadwood_cards,
                        can_knock: kept.deadwood <= knock_limit,
                        gin: kept.deadwood == 0,
                    }
                })
                .collect();
            Ok(AnalyzeResponse {
                deadwood: analysis.deadwood,
                knock_limit,
                can_knock: analysis.deadwood <= knock_limit,
                gin: analysis.deadwood == 0,
                melds: None,
                jokers: None,
                deadwood_cards: None,
                arrangements: None,
                discards: Some(discards),
                big_gin: Some(analysis.big_gin),
            })
        }
        found => Err(wrong_card_count(found)),
    }
}

fn wrong_card_count(found: usize) -> Problem {
    let detail = format!("the hand must hold 10 or 11 cards, not {found}");
    Problem::new(ErrorCode::WrongCardCount, &detail).with_error(
        "/hand",
        ErrorCode::WrongCardCount,
        detail,
    )
}

/// Reads one line of an analyse batch. The line nearly every client sends,
/// `{"hand": [...]}` with cards in canonical two-letter notation and nothing
/// else, is read directly (a third of a line's cost through serde, most of it
/// checking and parsing card strings); any other line goes through the same
/// reader as the single endpoint, which also gives every problem its pointer.
/// A test checks that both readers agree.
pub fn read_analyze_line(line: &[u8]) -> Result<AnalyzeRequest, Problem> {
    match plain_hand(line) {
        Some(hand) => Ok(AnalyzeRequest {
            hand,
            profile: None,
            upcard: None,
            all_arrangements: false,
        }),
        None => from_slice(line),
    }
}

/// The cards of `{"hand": ["7S", ...]}` (any JSON whitespace, canonical cards
/// or their lower-case forms), or `None` for anything else.
fn plain_hand(line: &[u8]) -> Option<Vec<HandCard>> {
    let mut rest = line;
    let mut expect = |token: &[u8]| -> Option<()> {
        let trimmed = rest.trim_ascii_start();
        rest = trimmed.strip_prefix(token)?;
        Some(())
    };
    expect(b"{")?;
    expect(b"\"hand\"")?;
    expect(b":")?;
    expect(b"[")?;
    let mut cards = Vec::with_capacity(11);
    loop {
        let trimmed = rest.trim_ascii_start();
        let (text, after) = match trimmed {
            [b'"', rank, suit, b'"', after @ ..] => ((*rank, *suit), after),
            _ => return None,
        };
        // A joker (`X1`) is not read here: the line goes through serde.
        let card: Card = std::str::from_utf8(&[text.0, text.1]).ok()?.parse().ok()?;
        // A list longer than a deck is serde's to refuse, with its message.
        if cards.len() == gin_rules::bounded::MAX_CARDS {
            return None;
        }
        cards.push(HandCard::from(card));
        let after = after.trim_ascii_start();
        match after {
            [b',', more @ ..] => rest = more,
            [b']', more @ ..] => {
                rest = more;
                break;
            }
            _ => return None,
        }
    }
    let rest = rest.trim_ascii_start().strip_prefix(b"}")?;
    rest.trim_ascii().is_empty().then_some(cards)
}

/// The analyse batch's lines: read by [`read_analyze_line`], answered by
/// [`analysis`], and the common answer (ten cards: melds and deadwood cards)
/// written without serde, byte for byte what serde writes (a test checks).
#[derive(Debug, Clone, Copy)]
pub struct AnalyzeLines;

impl lines::LineAnswer for AnalyzeLines {
    type Answer = AnalyzeResponse;

    fn answer(&self, line: &[u8]) -> Result<AnalyzeResponse, Problem> {
        analysis(read_analyze_line(line)?)
    }

    fn write(&self, answer: &AnalyzeResponse, out: &mut Vec<u8>) -> serde_json::Result<()> {
        if !write_ten_card_analysis(answer, out) {
            serde_json::to_writer(out, answer)?;
        }
        Ok(())
    }
}

/// Writes a ten-card analysis without jokers (melds and deadwood cards,
/// nothing optional besides) as serde_json writes it; `false`, writing
/// nothing, for any other shape. Card notations need no escaping.
fn write_ten_card_analysis(answer: &AnalyzeResponse, out: &mut Vec<u8>) -> bool {
    let (Some(melds), Some(deadwood_cards), None, None, None, None) = (
        &answer.melds,
        &answer.deadwood_cards,
        &answer.jokers,
        &answer.arrangements,
        &answer.discards,
        &answer.big_gin,
    ) else {
        return false;
    };
    if !deadwood_cards.jokers.is_empty() {
        return false;
    }
    let cards = |out: &mut Vec<u8>, set: CardSet| {
        out.push(b'[');
        for (index, card) in set.iter().enumerate() {
            if index > 0 {
                out.push(b',');
            }
            out.push(b'"');
            out.extend_from_slice(card.notation().as_bytes());
            out.push(b'"');
        }
        out.push(b']');
    };
    let flag = |value: bool| if value { "true" } else { "false" };
    let _ = std::io::Write::write_fmt(
        out,
        format_args!(
            "{{\"deadwood\":{},\"knock_limit\":{},\"can_knock\":{},\"gin\":{},\"melds\":[",
            answer.deadwood,
            answer.knock_limit,
            flag(answer.can_knock),
            flag(answer.gin)
        ),
    );
    for (index, meld) in melds.iter().enumerate() {
        if index > 0 {
            out.push(b',');
        }
        cards(out, meld.cards());
    }
    out.extend_from_slice(b"],\"deadwood_cards\":");
    cards(out, deadwood_cards.naturals);
    out.push(b'}');
    true
}

/// A knock to score.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ScoreRequest {
    pub profile: Option<ProfileSpec>,
    /// The first upcard: sets the Oklahoma knock limit and spade doubling.
    pub upcard: Option<Card>,
    pub knocker: KnockerHand,
    pub defender: DefenderHand,
    /// Ask for a signed receipt of the answer (see `GET /v1/keys`).
    #[serde(default, deserialize_with = "crate::json::present")]
    #[schema(nullable = false, example = false)]
    pub receipt: Option<bool>,
}

/// The score of one hand, signed when asked, without HTTP (the single and the
/// batch endpoint); `body` is the request as received.
pub fn scored(request: ScoreRequest, body: &[u8], keys: &Keys) -> Result<ScoreResponse, Problem> {
    let profile = resolve_profile(request.profile.as_ref())?;
    let mut answer = ScoreResponse::from(score_knock(
        &profile,
        request.upcard,
        &request.knocker,
        &request.defender,
    )?);
    if request.receipt == Some(true) {
        answer.receipt = Some(keys.sign("score_hand", &profile, body, &answer)?);
    }
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;

    fn both(line: &str) -> (Option<Vec<HandCard>>, Option<Vec<HandCard>>) {
        let fast = plain_hand(line.as_bytes());
        let general = from_slice::<AnalyzeRequest>(line.as_bytes())
            .ok()
            .filter(|r| r.profile.is_none() && r.upcard.is_none() && !r.all_arrangements)
            .map(|r| r.hand);
        (fast, general)
    }

    #[test]
    fn the_plain_reader_takes_only_plain_hands() {
        let plain = r#" { "hand" : [ "7S","7h" ,"TD"] } "#;
        let (fast, general) = both(plain);
        assert_eq!(fast, general);
        assert!(fast.is_some());
        for other in [
            r#"{"hand": ["10S"]}"#,
            r#"{"hand": ["7\u0053"]}"#,
            r#"{"hand": [], "upcard": "2C"}"#,
            r#"{"hand": ["7S"]} x"#,
            r#"{"hand": ["7S",]}"#,
            r#"{"hand": ["XX"]}"#,
            r#"{"hand": []}"#,
            r#"[]"#,
        ] {
            assert_eq!(plain_hand(other.as_bytes()), None, "{other}");
        }
    }

    fn deck() -> Vec<Card> {
        Card::deck().collect()
    }

    #[test]
    fn a_hand_longer_than_a_deck_is_left_to_serde() {
        let mut cards: Vec<String> = Card::deck()
            .map(|c| json!(c.to_string()).to_string())
            .collect();
        cards.push(cards[0].clone());
        let line = format!("{{\"hand\": [{}]}}", cards.join(","));
        assert_eq!(plain_hand(line.as_bytes()), None);
        let cards52 = &cards[..52];
        let line = format!("{{\"hand\": [{}]}}", cards52.join(","));
        assert_eq!(plain_hand(line.as_bytes()).map(|hand| hand.len()), Some(52));
    }

    proptest! {
        #[test]
        fn the_ten_card_writer_writes_what_serde_writes(
            hand in prop::sample::subsequence(deck(), 10),
            upcard in prop::sample::select(deck()),
        ) {
            let hand = hand.into_iter().map(HandCard::from).collect();
            let request = AnalyzeRequest { hand, profile: None, upcard: Some(upcard), all_arrangements: false };
            let answer = analysis(request).unwrap();
            let mut fast = Vec::new();
            prop_assert!(write_ten_card_analysis(&answer, &mut fast));
            prop_assert_eq!(String::from_utf8(fast).unwrap(), serde_json::to_string(&answer).unwrap());
        }

        #[test]
        fn other_answers_are_left_to_serde(hand in prop::sample::subsequence(deck(), 11)) {
            let hand = hand.into_iter().map(HandCard::from).collect();
            let answer = analysis(AnalyzeRequest { hand, profile: None, upcard: None, all_arrangements: false }).unwrap();
            let mut fast = Vec::new();
            prop_assert!(!write_ten_card_analysis(&answer, &mut fast));
            prop_assert!(fast.is_empty());
        }

        #[test]
        fn the_plain_reader_agrees_with_the_general_one(
            cards in prop::collection::vec((0usize..13, 0usize..4, any::<bool>()), 1..12),
            spaces in prop::collection::vec(prop::sample::select(vec!["", " ", "\n", "\t"]), 8),
        ) {
            let cards: Vec<String> = cards
                .iter()
                .map(|&(rank, suit, lower)| {
                    let text = format!("{}{}", &"A23456789TJQK"[rank..=rank], &"SHDC"[suit..=suit]);
                    if lower { text.to_lowercase() } else { text }
                })
                .collect();
            let list = cards.iter().map(|c| json!(c).to_string()).collect::<Vec<_>>().join(&format!(",{}", spaces[0]));
            let line = format!("{}{{{}\"hand\"{}:{}[{}{}]{}}}{}", spaces[1], spaces[2], spaces[3], spaces[4], spaces[5], list, spaces[6], spaces[7]);
            let (fast, general) = both(&line);
            prop_assert!(fast.is_some(), "{}", line);
            prop_assert_eq!(fast, general);
        }
    }
}
