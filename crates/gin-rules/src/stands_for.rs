//! The map of what each melded joker stands for: `{"X1": "6H"}` beside
//! melds that hold jokers, read in a declared knock or reply and written in
//! every arrangement.

use crate::card::Card;
use crate::hand::Joker;
use crate::meld::Meld;

/// What each melded joker stands for, by joker: `{"X1": "6H"}`.
// Read through a map: a derived struct would also read `[null, null]` (serde
// reads a struct from a list of its fields) and `{"X1": null}`, neither of
// which the schema allows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        try_from = "std::collections::BTreeMap<String, Card>",
        deny_unknown_fields
    )
)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"X1": "6H"})))]
pub struct StandsFor {
    /// The card `X1` stands for.
    #[cfg_attr(
        feature = "serde",
        serde(rename = "X1", default, skip_serializing_if = "Option::is_none")
    )]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub x1: Option<Card>,
    /// The card `X2` stands for.
    #[cfg_attr(
        feature = "serde",
        serde(rename = "X2", default, skip_serializing_if = "Option::is_none")
    )]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub x2: Option<Card>,
}

#[cfg(feature = "serde")]
impl TryFrom<std::collections::BTreeMap<String, Card>> for StandsFor {
    type Error = String;

    fn try_from(map: std::collections::BTreeMap<String, Card>) -> Result<Self, String> {
        let mut stands_for = StandsFor::default();
        for (joker, card) in map {
            match joker.as_str() {
                "X1" => stands_for.x1 = Some(card),
                "X2" => stands_for.x2 = Some(card),
                other => return Err(format!("unknown field `{other}`, expected `X1` or `X2`")),
            }
        }
        Ok(stands_for)
    }
}

impl StandsFor {
    /// No joker is melded.
    pub const fn is_empty(&self) -> bool {
        self.x1.is_none() && self.x2.is_none()
    }

    /// The card a joker stands for, if given.
    pub const fn get(&self, joker: Joker) -> Option<Card> {
        match joker {
            Joker::X1 => self.x1,
            Joker::X2 => self.x2,
        }
    }

    /// Each joker given with its card, `X1` first.
    pub fn pairs(self) -> impl Iterator<Item = (Joker, Card)> {
        Joker::ALL
            .into_iter()
            .filter_map(move |joker| self.get(joker).map(|card| (joker, card)))
    }

    /// Gives `joker` the card `card` (a second call for the same joker
    /// replaces the first).
    pub fn set(&mut self, joker: Joker, card: Card) {
        match joker {
            Joker::X1 => self.x1 = Some(card),
            Joker::X2 => self.x2 = Some(card),
        }
    }

    /// What the jokers of these melds stand for.
    pub fn of<'a>(melds: impl IntoIterator<Item = &'a Meld>) -> StandsFor {
        let mut map = StandsFor::default();
        for meld in melds {
            for (joker, card) in meld.jokers() {
                map.set(joker, card);
            }
        }
        map
    }
}

/// The map of these pairs (a joker given twice stands for the last card
/// given).
impl FromIterator<(Joker, Card)> for StandsFor {
    fn from_iter<I: IntoIterator<Item = (Joker, Card)>>(pairs: I) -> StandsFor {
        let mut map = StandsFor::default();
        for (joker, card) in pairs {
            map.set(joker, card);
        }
        map
    }
}
