//! Hands with jokers on the wire, shared by the resources that read a hand
//! (`docs/RULES.md`, "Jokers").
//!
//! **Requests.** A hand's card is a [`HandCard`]: a card, or a joker written
//! `X1` or `X2` (any case). A joker is read only under a profile whose deck
//! holds it (`jokers: 1` holds `X1`, `jokers: 2` both): any other is a 422
//! `joker_not_in_deck` pointing at it. A hand without a joker is answered by
//! the joker-free referee, byte for byte as under a profile without jokers,
//! whatever the profile.
//!
//! **Answers.** A meld is still a list of card strings, in the order of the
//! cards it shows, with each joker written `X1`/`X2` in the place of the card
//! it stands for; next to the melds, `jokers` maps each melded joker to that
//! card: `"melds": [["5H", "X1", "7H"]], "jokers": {"X1": "6H"}`. A joker in
//! no meld is listed in `deadwood_cards` (after the natural cards) and counts
//! the profile's `joker_deadwood`. A joker laid off names the card it stands
//! for: `{"card": "X2", "meld": 0, "stands_for": "8H"}`. Answers without a
//! melded joker carry no `jokers` (nor `stands_for`).
//!
//! **Declared melds.** The knocker may declare melds holding jokers in the
//! same form: `"melds": [["6H", "7H", "X1"]], "jokers": {"X1": "8H"}` (it
//! matters for what the defender can lay off). They are checked with each
//! joker in place (`invalid_melds`, with the field codes of a joker-free
//! meld plus `too_few_naturals` and `joker_stands_for`). The defender
//! declares its melds the same way, and its layoffs as the answer writes
//! them (`{"card": "X2", "meld": 0, "stands_for": "8H"}`); what it leaves
//! out is played best for it.

use serde::{Deserialize, Serialize, Serializer};
use utoipa::ToSchema;

use super::hand_errors::{hand_problem, invalid_melds, read_problem};
use crate::error_codes::ErrorCode;
use crate::problem::Problem;
use gin_rules::{
    Arrangement, Card, CardSet, DeclaredLayoff, DefenderReply, Hand, HandCard, HandScore, Jokers,
    Meld, Profile, Side,
};

pub use gin_rules::StandsFor;

/// Reads a hand's cards under the profile's deck: a repeated card is a 422
/// `duplicate_card` at its second place, a joker the deck does not hold a
/// 422 `joker_not_in_deck` at the joker (`{pointer}/{index}`).
pub fn read_hand(cards: &[HandCard], pointer: &str, profile: &Profile) -> Result<Hand, Problem> {
    Hand::read(cards, profile.jokers()).map_err(|fault| read_problem(&fault, pointer))
}

/// The cards of an arrangement in no meld, as a client reads them: the
/// natural cards in canonical order, then the jokers. (Kept as the two parts
/// the rules give, so writing them allocates nothing.)
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeadwoodCards {
    pub naturals: CardSet,
    pub jokers: Jokers,
}

impl DeadwoodCards {
    /// The cards an arrangement leaves out of its melds.
    pub const fn of(arrangement: &Arrangement) -> DeadwoodCards {
        DeadwoodCards {
            naturals: arrangement.deadwood_cards,
            jokers: arrangement.deadwood_jokers,
        }
    }
}

impl Serialize for DeadwoodCards {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(
            self.naturals
                .iter()
                .map(HandCard::Natural)
                .chain(self.jokers.iter().map(HandCard::Joker)),
        )
    }
}

// The document's name for the rules' `Arrangement`: answers hold an
// `Arrangement` (with `value_type = HandArrangement`), whose one serialisation
// writes these fields; a test keeps the two in step.
/// One arrangement of a hand as laid down: its melds (a joker written in the
/// place of the card it stands for), what each melded joker stands for
/// (absent without one), the cards left and their count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct HandArrangement {
    /// The melds; a joker stands in the place of the card it stands for.
    #[schema(value_type = Vec<Vec<HandCard>>, example = json!([["5H", "X1", "7H"], ["9S", "9D", "9C"]]))]
    pub melds: Vec<Meld>,
    /// What each melded joker stands for; absent when no joker is melded.
    #[serde(skip_serializing_if = "StandsFor::is_empty")]
    pub jokers: StandsFor,
    /// The cards in no meld, unmelded jokers last.
    #[schema(value_type = Vec<HandCard>, example = json!(["2C", "X2"]))]
    pub deadwood_cards: DeadwoodCards,
    /// Their count: the natural cards' values plus `joker_deadwood` per joker.
    pub deadwood: u32,
}

/// A card laid off by the defender; a joker names the card it stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"card": "X2", "meld": 0, "stands_for": "8H"}))]
pub struct HandLayoff {
    /// The defender's card or joker.
    #[schema(value_type = HandCard)]
    pub card: HandCard,
    /// Index into the knocker's melds.
    #[serde(deserialize_with = "gin_rules::bounded::meld_index")]
    #[schema(format = Int64, minimum = 0, maximum = 4294967295_u64)]
    pub meld: usize,
    /// For a joker: the card it stands for on the table (absent for a
    /// natural card, which stands for itself).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::json::present"
    )]
    #[schema(value_type = Card, nullable = false)]
    pub stands_for: Option<Card>,
}

// The melds, jokers and cards left are the rules' own types, written as an
// `Arrangement` writes them.
/// The defender's side of a knock: its melds (a joker written in the place
/// of the card it stands for), its layoffs in the order played, and what is
/// left.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct HandReply {
    /// The defender's own melds; a joker stands in the place of the card it
    /// stands for.
    #[schema(value_type = Vec<Vec<HandCard>>, example = json!([["QS", "X2", "QD"]]))]
    pub melds: Vec<Meld>,
    /// What each joker of `melds` stands for; absent when none is melded.
    #[serde(skip_serializing_if = "StandsFor::is_empty")]
    pub jokers: StandsFor,
    /// Layoffs in the order played; `meld` indexes the knocker's melds.
    #[schema(example = json!([{"card": "4H", "meld": 2}, {"card": "8H", "meld": 2}]))]
    pub layoffs: Vec<HandLayoff>,
    /// The cards neither melded nor laid off, unmelded jokers last.
    #[schema(value_type = Vec<HandCard>, example = json!(["3S", "3D", "6C", "7C", "JC"]))]
    pub deadwood_cards: DeadwoodCards,
    /// The defender's count after layoffs.
    pub deadwood: u32,
}

impl From<DefenderReply> for HandReply {
    fn from(reply: DefenderReply) -> HandReply {
        let arrangement = reply.arrangement;
        let deadwood_cards = DeadwoodCards::of(&arrangement);
        HandReply {
            jokers: StandsFor::of(&arrangement.melds),
            melds: arrangement.melds,
            layoffs: reply
                .layoffs
                .iter()
                .map(|layoff| HandLayoff {
                    card: layoff.card,
                    meld: layoff.meld,
                    stands_for: matches!(layoff.card, HandCard::Joker(_))
                        .then_some(layoff.stands_for),
                })
                .collect(),
            deadwood_cards,
            deadwood: arrangement.deadwood,
        }
    }
}

/// The knocker's hand as sent to the operations that lay a knock down.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct KnockerHand {
    /// The cards kept after the knock discard: 10, or 11 for big gin; under a
    /// profile with jokers, `X1` and `X2` among them (another count is a 422
    /// `wrong_card_count`; more than a deck, a 400).
    #[serde(deserialize_with = "gin_rules::bounded::at_most::<_, _, 52>")]
    #[schema(max_items = 52,
        example = json!(["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "AH"]))]
    pub hand: Vec<HandCard>,
    /// Declared melds, checked (legal, disjoint, from the hand, within the
    /// knock limit). Absent: the arrangement best for the knocker is chosen.
    /// A joker is written in its meld (`["5H", "X1", "7H"]`) and `jokers`
    /// says which card it stands for.
    #[serde(default, deserialize_with = "gin_rules::bounded::declared_melds")]
    #[schema(value_type = Option<Vec<Vec<HandCard>>>,
        example = json!([["3H", "4H", "5H"], ["9S", "9H", "9D"], ["3C", "4C", "5C"]]))]
    pub melds: Option<Vec<Vec<HandCard>>>,
    /// With declared melds holding jokers: the card each joker stands for
    /// (`{"X1": "6H"}`), every melded joker and only those.
    #[serde(default, deserialize_with = "crate::json::present")]
    #[schema(nullable = false)]
    pub jokers: Option<StandsFor>,
}

/// The defender's hand as sent, with its reply where it declares one.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DefenderHand {
    /// The defender's 10 cards; under a profile with jokers, `X1` and `X2`
    /// among them (another count is a 422 `wrong_card_count`; more than a
    /// deck, a 400).
    #[serde(deserialize_with = "gin_rules::bounded::at_most::<_, _, 52>")]
    #[schema(max_items = 52,
        example = json!(["6H", "2H", "JS", "JH", "JD", "7S", "7H", "7C", "4D", "5S"]))]
    pub hand: Vec<HandCard>,
    /// Declared melds, checked. Absent: the best reply is chosen. A joker is
    /// written in its meld and `jokers` says which card it stands for.
    #[serde(default, deserialize_with = "gin_rules::bounded::declared_melds")]
    #[schema(value_type = Option<Vec<Vec<HandCard>>>)]
    pub melds: Option<Vec<Vec<HandCard>>>,
    /// With declared melds holding jokers: the card each joker stands for.
    #[serde(default, deserialize_with = "crate::json::present")]
    #[schema(nullable = false)]
    pub jokers: Option<StandsFor>,
    /// Declared layoffs in the order played, each checked against the
    /// knocker's melds as they grow; a joker names the card it stands for
    /// (`{"card": "X2", "meld": 0, "stands_for": "8H"}`). Absent: the best
    /// layoffs are chosen; `[]` lays off nothing.
    #[serde(
        default,
        deserialize_with = "gin_rules::bounded::optional_at_most::<_, _, 52>"
    )]
    #[schema(max_items = 52)]
    pub layoffs: Option<Vec<HandLayoff>>,
}

// The wire's knocker and defender hands mirror the rules' `KnockerHand` and
// `DefenderHand` rather than being them: the wire bounds every list as it is
// read and makes a layoff name its meld by index, neither of which the
// rules' types (unbounded lists, an optional meld) need; the joker map is
// the rules' own `StandsFor`. Each `rules()`
// destructures both sides in full, so that a field added to either does not
// compile until it is carried across here.
impl DefenderHand {
    /// The hand and its declared reply, for the rules.
    pub fn rules(&self) -> gin_rules::DefenderHand {
        let DefenderHand {
            hand,
            melds,
            jokers,
            layoffs,
        } = self;
        gin_rules::DefenderHand {
            hand: hand.clone(),
            melds: melds.clone(),
            jokers: *jokers,
            layoffs: layoffs.as_ref().map(|layoffs| {
                layoffs
                    .iter()
                    .map(
                        |&HandLayoff {
                             card,
                             meld,
                             stands_for,
                         }| DeclaredLayoff {
                            card,
                            stands_for,
                            meld: Some(meld),
                        },
                    )
                    .collect()
            }),
        }
    }
}

impl KnockerHand {
    /// The hand and its declared melds, for the rules; `jokers` without
    /// `melds` is a 422 `invalid_melds`.
    pub fn rules(&self) -> Result<gin_rules::KnockerHand, Problem> {
        if let (None, Some(_)) = (&self.melds, &self.jokers) {
            return Err(invalid_melds(
                Side::Knocker,
                vec![(
                    "/knocker/jokers".to_owned(),
                    ErrorCode::JokerStandsFor,
                    "`jokers` is given without declared melds".to_owned(),
                )],
            ));
        }
        let KnockerHand {
            hand,
            melds,
            jokers,
        } = self;
        Ok(gin_rules::KnockerHand {
            hand: hand.clone(),
            melds: melds.clone(),
            jokers: *jokers,
        })
    }
}

/// Lays a knock down and scores it, as `/v1/hands/score` does: the hands and
/// declarations read for the rules, then [`gin_rules::score_hand`], whose
/// refusal is a problem pointing into the request.
pub fn score_knock(
    profile: &Profile,
    upcard: Option<Card>,
    knocker: &KnockerHand,
    defender: &DefenderHand,
) -> Result<HandScore, Problem> {
    let knocker = knocker.rules()?;
    let defender = defender.rules();
    gin_rules::score_hand(profile, upcard, &knocker, &defender)
        .map_err(|error| hand_problem(&error, &knocker))
}

#[cfg(test)]
mod tests {
    use super::*;
    use gin_rules::Preset;

    fn read(cards: &[&str], profile: &Profile) -> Result<Hand, Problem> {
        let cards: Vec<HandCard> = cards
            .iter()
            .map(|c| serde_json::from_value(serde_json::json!(c)).unwrap())
            .collect();
        read_hand(&cards, "/hand", profile)
    }

    #[test]
    fn jokers_are_read_only_when_the_deck_holds_them() {
        let standard = Preset::Standard.profile();
        let jokers = Preset::Jokers.profile();
        assert_eq!(read(&["7S", "8S"], &standard).map(Hand::joker_count), Ok(0));
        assert_eq!(read(&["7S", "x1"], &jokers).map(Hand::joker_count), Ok(1));
        let problem = read(&["7S", "X1"], &standard).unwrap_err();
        assert_eq!(problem.code.as_str(), "joker_not_in_deck");
        assert_eq!(problem.errors[0].pointer, "/hand/1");
        let one = gin_rules::ProfileOverrides {
            jokers: Some(1),
            ..Default::default()
        }
        .resolve()
        .unwrap();
        assert!(read(&["X1", "7S"], &one).is_ok());
        assert_eq!(
            read(&["X1", "X2"], &one).unwrap_err().errors[0].pointer,
            "/hand/1"
        );
        let twice = read(&["X1", "x1"], &jokers).unwrap_err();
        assert_eq!(
            (twice.code.as_str(), twice.errors[0].pointer.as_str()),
            ("duplicate_card", "/hand/1")
        );
    }

    #[test]
    fn every_hand_card_of_a_request_is_refused_with_one_message() {
        let expected = "invalid type: integer `7`, expected a card such as \"TS\" \
                        (rank A 2-9 T J Q K, suit S H D C), or a joker \"X1\" or \"X2\"";
        let hand = serde_json::from_value::<DefenderHand>(serde_json::json!({"hand": [7]}));
        let layoff =
            serde_json::from_value::<HandLayoff>(serde_json::json!({"card": 7, "meld": 0}));
        let meld = serde_json::from_value::<KnockerHand>(
            serde_json::json!({"hand": [], "melds": [["7S", 7]]}),
        );
        for message in [
            hand.unwrap_err().to_string(),
            layoff.unwrap_err().to_string(),
            meld.unwrap_err().to_string(),
        ] {
            assert!(message.starts_with(expected), "{message}");
        }
    }

    #[test]
    fn an_arrangement_writes_the_documented_fields() {
        use utoipa::PartialSchema;
        use utoipa::openapi::schema::Schema;
        let documented = match HandArrangement::schema() {
            utoipa::openapi::RefOr::T(Schema::Object(object)) => object,
            _ => panic!("the arrangement is documented as an object"),
        };
        let rules = Preset::Jokers.profile().joker_rules();
        for hand in [
            "5H X1 7H 9S 9D 9C 2C X2 KD QD",
            "5H 6H 7H 9S 9D 9C 2C KS KD QD",
        ] {
            let arrangement =
                gin_rules::best_arrangement(gin_rules::parse_hand(hand).unwrap(), &rules);
            let written = serde_json::to_value(&arrangement).unwrap();
            let written = written.as_object().unwrap();
            for key in written.keys() {
                assert!(
                    documented.properties.contains_key(key),
                    "{key} is undocumented"
                );
            }
            for key in &documented.required {
                assert!(written.contains_key(key), "{hand}: {key} is required");
            }
        }
        // The jokers' map is written only when a joker is melded.
        let melded = gin_rules::parse_hand("5H X1 7H 9S 9D 9C 2C X2 KD QD").unwrap();
        let written = serde_json::to_value(gin_rules::best_arrangement(melded, &rules)).unwrap();
        assert!(written["jokers"].is_object(), "{written}");
    }

    #[test]
    fn the_pattern_reads_cards_and_jokers() {
        for text in ["TS", "10s", "X1", "x2"] {
            assert!(
                serde_json::from_value::<HandCard>(serde_json::json!(text)).is_ok(),
                "{text}"
            );
        }
        assert!(serde_json::from_value::<HandCard>(serde_json::json!("X3")).is_err());
    }
}
