//! The request of `POST /v1/matches/score`: the players and the hands, each
//! hand read as one flat object and then classified into its shape (see the
//! parent module for why).

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer};
use utoipa::ToSchema;

pub use crate::wire::edge::RecordedHand;
use crate::wire::formats::TeamSpec;
use crate::wire::jokers::{DefenderHand, KnockerHand};
use crate::wire::profile_spec::ProfileSpec;
use gin_rules::{Card, CardHand, CountHand, MatchHand, SeatedHand};

/// A match to score.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MatchRequest {
    pub profile: Option<ProfileSpec>,
    /// The players' names, distinct and not blank: two, or three for
    /// three-player play (hands then name their `knocker` and `defender`).
    /// Absent for partnership play (`teams`). The response is keyed by them.
    #[serde(default, deserialize_with = "crate::json::present")]
    #[schema(nullable = false, min_items = 2, max_items = 3, example = json!(["Mom", "Dad"]))]
    pub players: Option<Vec<String>>,
    /// Partnership play: the two teams of two, instead of `players`. Each hand
    /// is then a deal of two tables.
    #[serde(default, deserialize_with = "crate::json::present")]
    #[schema(value_type = Option<Vec<TeamSpec>>, nullable = false, min_items = 2, max_items = 2)]
    pub teams: Option<Vec<TeamSpec>>,
    /// The hands in the order played. Each is counts after layoffs, full cards, or
    /// a void hand; in partnership play, a deal `{"tables": [hand, hand]}`.
    #[serde(deserialize_with = "match_hands")]
    #[schema(value_type = Vec<MatchHandSchema>)]
    pub hands: Vec<RecordedHand>,
    /// Ask for a signed receipt of the answer (see `GET /v1/keys`).
    #[serde(default, deserialize_with = "crate::json::present")]
    #[schema(nullable = false, example = false)]
    pub receipt: Option<bool>,
}

/// Reads the hands one [`FlatHand`] at a time, each classified into its shape.
fn match_hands<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<RecordedHand>, D::Error> {
    let hands = Vec::<ClassifiedHand>::deserialize(deserializer)?;
    Ok(hands.into_iter().map(|ClassifiedHand(hand)| hand).collect())
}

struct ClassifiedHand(RecordedHand);

/// Every field any hand shape has; [`FlatHand::classify`] decides the shape.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "struct MatchHand")]
struct FlatHand {
    knocker: Option<String>,
    defender: Option<String>,
    knocker_deadwood: Option<u32>,
    defender_deadwood: Option<u32>,
    big_gin: Option<bool>,
    knocker_hand: Option<KnockerHand>,
    defender_hand: Option<DefenderHand>,
    upcard: Option<Card>,
    void: Option<bool>,
    players: Option<Vec<String>>,
    tables: Option<Vec<ClassifiedHand>>,
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
    fn classify(self) -> Result<RecordedHand, ShapeError> {
        if let Some(tables) = self.tables {
            return Self::deal(tables, self.knocker.is_some() || self.void.is_some());
        }
        if self.void == Some(true) {
            return self.void_hand();
        }
        if self.players.is_some() {
            return Err(ShapeError::PlayersOnPlayedHand);
        }
        let (card_fields, count_fields) =
            (present(&self.card_fields()), present(&self.count_fields()));
        let knocker = self.knocker.ok_or(ShapeError::Missing("knocker"))?;
        let hand = match (card_fields.is_empty(), count_fields.is_empty()) {
            (false, false) => {
                return Err(ShapeError::Mixed {
                    counts: count_fields,
                    cards: card_fields,
                });
            }
            (false, true) => card_hand(
                knocker.clone(),
                self.knocker_hand
                    .ok_or(ShapeError::Missing("knocker_hand"))?,
                self.defender_hand
                    .ok_or(ShapeError::Missing("defender_hand"))?,
                self.upcard,
            ),
            (true, _) => MatchHand::Counts(CountHand {
                knocker: knocker.clone(),
                knocker_deadwood: self
                    .knocker_deadwood
                    .ok_or(ShapeError::Missing("knocker_deadwood"))?,
                defender_deadwood: self
                    .defender_deadwood
                    .ok_or(ShapeError::Missing("defender_deadwood"))?,
                big_gin: self.big_gin.unwrap_or(false),
                upcard: self.upcard,
            }),
        };
        Ok(match self.defender {
            None => RecordedHand::Plain(hand),
            Some(defender) => RecordedHand::Seated(SeatedHand {
                players: [knocker, defender],
                hand,
            }),
        })
    }

    /// The fields of a hand given as counts, and whether each is present.
    fn count_fields(&self) -> [(&'static str, bool); 3] {
        [
            ("knocker_deadwood", self.knocker_deadwood.is_some()),
            ("defender_deadwood", self.defender_deadwood.is_some()),
            ("big_gin", self.big_gin.is_some()),
        ]
    }

    /// The fields of a hand given as cards, and whether each is present.
    fn card_fields(&self) -> [(&'static str, bool); 2] {
        [
            ("knocker_hand", self.knocker_hand.is_some()),
            ("defender_hand", self.defender_hand.is_some()),
        ]
    }

    /// A void hand: `{"void": true}`, with its two `players` when the match
    /// has more than two, and nothing else.
    fn void_hand(self) -> Result<RecordedHand, ShapeError> {
        let mut extra = present(&self.count_fields());
        extra.extend(present(&self.card_fields()));
        extra.extend(present(&[
            ("knocker", self.knocker.is_some()),
            ("defender", self.defender.is_some()),
            ("upcard", self.upcard.is_some()),
        ]));
        if !extra.is_empty() {
            return Err(ShapeError::VoidWithFields(extra));
        }
        match self.players {
            None => Ok(RecordedHand::Plain(MatchHand::Void)),
            Some(players) => match <[String; 2]>::try_from(players) {
                Ok(players) => Ok(RecordedHand::Seated(SeatedHand {
                    players,
                    hand: MatchHand::Void,
                })),
                Err(players) => Err(ShapeError::VoidPlayers(players.len())),
            },
        }
    }

    /// A deal: exactly two tables and nothing beside them.
    fn deal(tables: Vec<ClassifiedHand>, other_fields: bool) -> Result<RecordedHand, ShapeError> {
        if other_fields {
            return Err(ShapeError::DealWithFields);
        }
        let count = tables.len();
        let tables: Vec<RecordedHand> = tables.into_iter().map(|ClassifiedHand(h)| h).collect();
        <[RecordedHand; 2]>::try_from(tables)
            .map(|tables| RecordedHand::Deal(Box::new(tables)))
            .map_err(|_| ShapeError::TableCount(count))
    }
}

/// The names of the fields present, in order.
fn present(fields: &[(&'static str, bool)]) -> Vec<&'static str> {
    fields
        .iter()
        .filter(|(_, given)| *given)
        .map(|(name, _)| *name)
        .collect()
}

/// A hand given as the cards, scored as `/v1/hands/score` scores them (the
/// rules choose the path; the profile decides later whether its deck holds
/// the jokers named).
fn card_hand(
    knocker: String,
    knocker_hand: KnockerHand,
    defender_hand: DefenderHand,
    upcard: Option<Card>,
) -> MatchHand {
    MatchHand::Cards(CardHand {
        knocker,
        knocker_hand: gin_rules::KnockerHand {
            hand: knocker_hand.hand,
            melds: knocker_hand.melds,
            jokers: knocker_hand.jokers,
        },
        defender_hand: defender_hand.rules(),
        upcard,
    })
}

enum ShapeError {
    Missing(&'static str),
    VoidPlayers(usize),
    PlayersOnPlayedHand,
    DealWithFields,
    TableCount(usize),
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
                "a void hand is just {{\"void\": true}} (with `players` when the match has more \
                 than two), but it also has {}",
                fields.join(", ")
            ),
            ShapeError::VoidPlayers(found) => {
                write!(f, "a void hand names its two players, not {found}")
            }
            ShapeError::PlayersOnPlayedHand => f.write_str(
                "`players` names the two players of a void hand; a played hand names its \
                 `knocker` and `defender`",
            ),
            ShapeError::DealWithFields => {
                f.write_str("a partnership deal is just {\"tables\": [hand, hand]}")
            }
            ShapeError::TableCount(found) => {
                write!(f, "a partnership deal has two tables, not {found}")
            }
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
    Deal(DealSchema),
}

/// Partnership play: one deal, two hands at two tables, each naming its
/// `knocker` and `defender` (a void table: `{"void": true, "players": [a, b]}`).
#[derive(ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = PartnershipDeal, example = json!({"tables": [
    {"knocker": "Ann", "defender": "Bob", "knocker_deadwood": 3, "defender_deadwood": 15},
    {"knocker": "Dee", "defender": "Cy", "knocker_deadwood": 2, "defender_deadwood": 12}
]}))]
#[allow(dead_code)]
pub struct DealSchema {
    /// The two tables, in either order.
    #[schema(min_items = 2, max_items = 2, no_recursion)]
    tables: Vec<MatchHandSchema>,
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
    /// Three-player and partnership play: the defender's name (required
    /// there, absent with two players).
    defender: Option<String>,
    /// The knocker's count: 0 is gin; at most the hand's knock limit (10, or
    /// the upcard's value under Oklahoma).
    #[schema(minimum = 0, maximum = 10, example = 5)]
    knocker_deadwood: u32,
    /// The defender's count after layoffs: at most 98 (two cards of each of
    /// T J Q K and two nines is the most 10 cards can count with their melds
    /// laid down). Under a profile with jokers, at most the largest of 98 and
    /// 10 x (10 - k) + k x `joker_deadwood` for k up to the deck's jokers
    /// (110 under the `jokers` preset, 130 at most).
    #[schema(minimum = 0, maximum = 130, example = 15)]
    defender_deadwood: u32,
    /// The knocker melded all 11 cards (profiles with a big gin bonus only);
    /// `knocker_deadwood` is then 0. False when absent.
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
    /// Three-player and partnership play: the defender's name (required
    /// there, absent with two players).
    defender: Option<String>,
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
    /// Three-player and partnership play: the hand's two players (required
    /// there, absent with two players).
    #[schema(min_items = 2, max_items = 2)]
    players: Option<Vec<String>>,
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
