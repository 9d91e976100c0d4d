//! A knock on the wire, shared by `/v1/layoffs`, `/v1/hands/score`,
//! `/v1/matches/score` (hands given as cards) and `/v1/hands/audit` (the scored
//! result): the knocker's and the defender's hands as sent, and both sides as
//! laid down and scored.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::cards::{CardList, CardSchema, card_list, meld_lists};
use gin_rules::{
    Card, DefenderHand, DefenderReply, HandScore, KnockerArrangement, KnockerHand, Layoff, Outcome,
    Side,
};

/// The knocker's cards and, optionally, the melds it declares.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct KnockerInput {
    /// The cards kept after the knock discard: 10, or 11 for big gin.
    #[schema(value_type = Vec<CardSchema>, min_items = 10, max_items = 11,
             example = json!(["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "AH"]))]
    pub hand: CardList,
    /// Declared melds, checked (legal, disjoint, from the hand, within the knock
    /// limit). Absent: the arrangement best for the knocker is chosen.
    #[schema(value_type = Option<Vec<Vec<CardSchema>>>,
             example = json!([["3H", "4H", "5H"], ["9S", "9H", "9D"], ["3C", "4C", "5C"]]))]
    pub melds: Option<Vec<CardList>>,
}

impl KnockerInput {
    pub fn to_domain(&self) -> KnockerHand {
        KnockerHand {
            hand: self.hand.clone(),
            melds: self.melds.clone(),
        }
    }
}

/// One card laid off onto a knocker meld.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"card": "6H", "meld": 0}))]
pub struct LayoffDto {
    #[schema(value_type = CardSchema)]
    pub card: Card,
    /// Index into the knocker's melds.
    // A u32 on the wire so the service reads exactly the range the schema states
    // (an index past the knocker's melds is then a 422, not a 400). utoipa would
    // call a u32 `int32`, whose range ends at 2^31 - 1: state the range exactly.
    #[schema(format = Int64, minimum = 0, maximum = 4294967295_u64)]
    pub meld: u32,
}

impl From<Layoff> for LayoffDto {
    fn from(layoff: Layoff) -> LayoffDto {
        LayoffDto {
            card: layoff.card,
            // Indexes of real melds (at most a handful) always fit.
            meld: u32::try_from(layoff.meld).unwrap_or(u32::MAX),
        }
    }
}

impl From<LayoffDto> for Layoff {
    fn from(layoff: LayoffDto) -> Layoff {
        Layoff {
            card: layoff.card,
            // On a 16-bit target an index this large names no meld anyway.
            meld: usize::try_from(layoff.meld).unwrap_or(usize::MAX),
        }
    }
}

/// The defender's cards and, optionally, its declared melds and layoffs.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DefenderInput {
    /// The defender's 10 cards.
    #[schema(value_type = Vec<CardSchema>, min_items = 10, max_items = 10,
             example = json!(["6H", "2H", "JS", "JH", "JD", "7S", "7H", "7C", "4D", "5S"]))]
    pub hand: CardList,
    /// Declared melds, checked. Absent: the best reply is chosen.
    #[schema(value_type = Option<Vec<Vec<CardSchema>>>)]
    pub melds: Option<Vec<CardList>>,
    /// Declared layoffs in the order played, each checked against the knocker's
    /// melds as they grow. Absent: the best layoffs are chosen.
    pub layoffs: Option<Vec<LayoffDto>>,
}

impl DefenderInput {
    pub fn to_domain(&self) -> DefenderHand {
        DefenderHand {
            hand: self.hand.clone(),
            melds: self.melds.clone(),
            layoffs: self
                .layoffs
                .as_ref()
                .map(|list| list.iter().copied().map(Layoff::from).collect()),
        }
    }
}

/// The knocker's side as laid down.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct KnockerOutput {
    /// The knocker's melds (declared, or chosen as best for the knocker).
    #[schema(value_type = Vec<Vec<CardSchema>>, example = json!([["3H", "4H", "5H"], ["9S", "9H", "9D"], ["3C", "4C", "5C"]]))]
    pub melds: Vec<Vec<Card>>,
    #[schema(value_type = Vec<CardSchema>, example = json!(["AH"]))]
    pub deadwood_cards: Vec<Card>,
    /// The knocker's count (the knocker never lays off).
    #[schema(example = 1)]
    pub deadwood: u32,
}

impl From<&KnockerArrangement> for KnockerOutput {
    fn from(k: &KnockerArrangement) -> KnockerOutput {
        KnockerOutput {
            melds: meld_lists(&k.melds),
            deadwood_cards: card_list(k.deadwood_cards),
            deadwood: k.deadwood,
        }
    }
}

/// The defender's reply.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DefenderOutput {
    /// The defender's own melds.
    #[schema(value_type = Vec<Vec<CardSchema>>, example = json!([["JS", "JH", "JD"], ["7S", "7H", "7C"]]))]
    pub melds: Vec<Vec<Card>>,
    /// Layoffs in the order played; `meld` indexes the knocker's melds.
    #[schema(example = json!([{"card": "2H", "meld": 0}, {"card": "6H", "meld": 0}]))]
    pub layoffs: Vec<LayoffDto>,
    #[schema(value_type = Vec<CardSchema>, example = json!(["5S", "4D"]))]
    pub deadwood_cards: Vec<Card>,
    /// The defender's count after layoffs.
    #[schema(example = 9)]
    pub deadwood: u32,
}

impl From<&DefenderReply> for DefenderOutput {
    fn from(d: &DefenderReply) -> DefenderOutput {
        DefenderOutput {
            melds: meld_lists(&d.melds),
            layoffs: d.layoffs.iter().copied().map(LayoffDto::from).collect(),
            deadwood_cards: card_list(d.deadwood_cards),
            deadwood: d.deadwood,
        }
    }
}

/// How the hand ended.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeDto {
    Knock,
    Undercut,
    Gin,
    BigGin,
}

impl From<Outcome> for OutcomeDto {
    fn from(outcome: Outcome) -> OutcomeDto {
        match outcome {
            Outcome::Knock => OutcomeDto::Knock,
            Outcome::Undercut => OutcomeDto::Undercut,
            Outcome::Gin => OutcomeDto::Gin,
            Outcome::BigGin => OutcomeDto::BigGin,
        }
    }
}

/// Which player.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SideDto {
    Knocker,
    Defender,
}

impl From<Side> for SideDto {
    fn from(side: Side) -> SideDto {
        match side {
            Side::Knocker => SideDto::Knocker,
            Side::Defender => SideDto::Defender,
        }
    }
}

/// Where the points came from: `points = (deadwood_difference + gin_bonus +
/// big_gin_bonus + undercut_bonus) * multiplier`.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[schema(example = json!({"deadwood_difference": 8, "gin_bonus": 0, "big_gin_bonus": 0, "undercut_bonus": 0, "multiplier": 1}))]
pub struct BreakdownDto {
    pub deadwood_difference: u32,
    pub gin_bonus: u32,
    pub big_gin_bonus: u32,
    pub undercut_bonus: u32,
    /// 2 when spades double and the first upcard is a spade, else 1.
    pub multiplier: u32,
}

/// A scored hand.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HandScoreOutput {
    pub outcome: OutcomeDto,
    pub winner: SideDto,
    /// Points won by the winner.
    #[schema(example = 8)]
    pub points: u32,
    pub breakdown: BreakdownDto,
    pub knocker: KnockerOutput,
    pub defender: DefenderOutput,
}

impl From<&HandScore> for HandScoreOutput {
    fn from(score: &HandScore) -> HandScoreOutput {
        let s = &score.settlement;
        let b = s.breakdown;
        HandScoreOutput {
            outcome: s.outcome.into(),
            winner: s.winner.into(),
            points: s.points,
            breakdown: BreakdownDto {
                deadwood_difference: b.deadwood_difference,
                gin_bonus: b.gin_bonus,
                big_gin_bonus: b.big_gin_bonus,
                undercut_bonus: b.undercut_bonus,
                multiplier: b.multiplier,
            },
            knocker: (&score.showdown.knocker).into(),
            defender: (&score.showdown.defender).into(),
        }
    }
}
