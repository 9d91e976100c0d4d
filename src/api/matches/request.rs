//! The request of `POST /v1/matches/score`: the players and the hands, each
//! hand read as one flat object and then classified into its shape (see the
//! parent module for why).

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer};
use utoipa::ToSchema;

use crate::api::profile_spec::ProfileSpec;
use gin_rules::{Card, CardHand, CountHand, DefenderHand, KnockerHand, MatchHand};

/// A match to score.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MatchRequest {
    pub profile: Option<ProfileSpec>,
    /// The two players' names: distinct, not blank. Hands name their knocker
    /// with one of them and the response is keyed by them.
    #[schema(value_type = Vec<String>, min_items = 2, max_items = 2, example = json!(["Mom", "Dad"]))]
    pub players: [String; 2],
    /// The hands in the order played. Each is counts after layoffs, full cards, or
    /// `{"void": true}`.
    #[serde(deserialize_with = "match_hands")]
    #[schema(value_type = Vec<MatchHandSchema>)]
    pub hands: Vec<MatchHand>,
}

/// Reads the hands one [`FlatHand`] at a time, each classified into its shape.
fn match_hands<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<MatchHand>, D::Error> {
    let hands = Vec::<ClassifiedHand>::deserialize(deserializer)?;
    Ok(hands.into_iter().map(|ClassifiedHand(hand)| hand).collect())
}

/// One hand as sent: counts, cards, or void (see [`MatchHandSchema`]).
struct ClassifiedHand(MatchHand);

/// Every field any hand shape may carry; [`FlatHand::classify`] tells the shape.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
// A shape error names what was expected: the schema clients see, `MatchHand`
// (serde's `rename` does not reach that message).
#[serde(expecting = "struct MatchHand")]
struct FlatHand {
    knocker: Option<String>,
    knocker_deadwood: Option<u32>,
    defender_deadwood: Option<u32>,
    big_gin: Option<bool>,
    knocker_hand: Option<KnockerHand>,
    defender_hand: Option<DefenderHand>,
    upcard: Option<Card>,
    void: Option<bool>,
}

impl<'de> Deserialize<'de> for ClassifiedHand {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ClassifiedHand, D::Error> {
        let flat = FlatHand::deserialize(deserializer)?;
        flat.classify()
            .map(ClassifiedHand)
            .map_err(de::Error::custom)
    }
}

impl FlatHand {
    fn classify(self) -> Result<MatchHand, ShapeError> {
        let counts = [
            ("knocker_deadwood", self.knocker_deadwood.is_some()),
            ("defender_deadwood", self.defender_deadwood.is_some()),
            ("big_gin", self.big_gin.is_some()),
        ];
        let cards = [
            ("knocker_hand", self.knocker_hand.is_some()),
            ("defender_hand", self.defender_hand.is_some()),
        ];
        let present = |fields: &[(&'static str, bool)]| {
            fields
                .iter()
                .filter(|(_, p)| *p)
                .map(|(n, _)| *n)
                .collect::<Vec<_>>()
        };
        if self.void == Some(true) {
            let mut extra = present(&counts);
            extra.extend(present(&cards));
            if self.knocker.is_some() {
                extra.push("knocker");
            }
            if self.upcard.is_some() {
                extra.push("upcard");
            }
            return if extra.is_empty() {
                Ok(MatchHand::Void)
            } else {
                Err(ShapeError::VoidWithFields(extra))
            };
        }
        let knocker = self.knocker.ok_or(ShapeError::Missing("knocker"))?;
        let (card_fields, count_fields) = (present(&cards), present(&counts));
        match (card_fields.is_empty(), count_fields.is_empty()) {
            (false, false) => Err(ShapeError::Mixed {
                counts: count_fields,
                cards: card_fields,
            }),
            (false, true) => Ok(MatchHand::Cards(CardHand {
                knocker,
                knocker_hand: self
                    .knocker_hand
                    .ok_or(ShapeError::Missing("knocker_hand"))?,
                defender_hand: self
                    .defender_hand
                    .ok_or(ShapeError::Missing("defender_hand"))?,
                upcard: self.upcard,
            })),
            (true, _) => Ok(MatchHand::Counts(CountHand {
                knocker,
                knocker_deadwood: self
                    .knocker_deadwood
                    .ok_or(ShapeError::Missing("knocker_deadwood"))?,
                defender_deadwood: self
                    .defender_deadwood
                    .ok_or(ShapeError::Missing("defender_deadwood"))?,
                big_gin: self.big_gin.unwrap_or(false),
                upcard: self.upcard,
            })),
        }
    }
}

/// Why a hand object fits none of the three shapes.
enum ShapeError {
    Missing(&'static str),
    Mixed {
        counts: Vec<&'static str>,
        cards: Vec<&'static str>,
    },
    VoidWithFields(Vec<&'static str>),
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::Missing(field) => write!(
                f,
                "missing field `{field}`: a hand is counts (knocker, knocker_deadwood, \
                 defender_deadwood), cards (knocker, knocker_hand, defender_hand) or {{\"void\": true}}"
            ),
            ShapeError::Mixed { counts, cards } => write!(
                f,
                "a hand is given as counts or as cards, not both: {} with {}",
                counts.join(", "),
                cards.join(", ")
            ),
            ShapeError::VoidWithFields(fields) => write!(
                f,
                "a void hand is just {{\"void\": true}}, but it also has {}",
                fields.join(", ")
            ),
        }
    }
}

/// A hand of a match: counts after layoffs, full cards, or void.
#[derive(ToSchema)]
#[schema(as = MatchHand)]
#[serde(untagged)]
#[allow(dead_code)] // A schema only: requests are read through `FlatHand`.
pub enum MatchHandSchema {
    Counts(CountHandSchema),
    Cards(CardHandSchema),
    Void(VoidHandSchema),
}

/// A hand given as the counts after layoffs.
#[derive(ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = CountHand, example = json!({"knocker": "Mom", "knocker_deadwood": 5, "defender_deadwood": 15}))]
#[allow(dead_code)]
pub struct CountHandSchema {
    /// The knocking player's name.
    #[schema(example = "Mom")]
    knocker: String,
    /// The knocker's count: 0 is gin; at most the hand's knock limit (10, or
    /// the upcard's value under Oklahoma).
    #[schema(minimum = 0, maximum = 10, example = 5)]
    knocker_deadwood: u32,
    /// The defender's count after layoffs: at most 98 (two cards of each of
    /// T J Q K and two nines is the most 10 cards can count with their melds
    /// laid down).
    #[schema(minimum = 0, maximum = 98, example = 15)]
    defender_deadwood: u32,
    /// The knocker melded all 11 cards (profiles with a big gin bonus only);
    /// `knocker_deadwood` is then 0.
    #[schema(default = false)]
    big_gin: Option<bool>,
    /// The first upcard: sets the knock limit and spade doubling under Oklahoma.
    upcard: Option<Card>,
}

/// A hand given as the cards, scored exactly as `POST /v1/hands/score` does.
#[derive(ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = CardHand, example = json!({
    "knocker": "Elder",
    "knocker_hand": {"hand": ["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "AH"]},
    "defender_hand": {"hand": ["6H", "2H", "JS", "JH", "JD", "7S", "7H", "7C", "4D", "5S"]}
}))]
#[allow(dead_code)]
pub struct CardHandSchema {
    /// The knocking player's name.
    knocker: String,
    /// As `knocker` of `POST /v1/hands/score`.
    knocker_hand: KnockerHand,
    /// As `defender` of `POST /v1/hands/score`.
    defender_hand: DefenderHand,
    /// The first upcard: sets the knock limit and spade doubling under Oklahoma.
    upcard: Option<Card>,
}

/// A void hand (no knock before the stock ran out): no points, no box.
#[derive(ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = VoidHand, example = json!({"void": true}))]
#[allow(dead_code)]
pub struct VoidHandSchema {
    /// Always `true` (a played hand is given as counts or cards instead).
    #[schema(schema_with = only_true)]
    void: bool,
}

/// `true` and nothing else.
fn only_true() -> utoipa::openapi::schema::Object {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::Boolean)
        .enum_values(Some([true]))
        .description(Some(
            "Always `true` (a played hand is given as counts or cards instead).",
        ))
        .build()
}
