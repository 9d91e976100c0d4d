//! OpenAPI schemas written by hand (feature `openapi`), for the types whose JSON
//! form a derive cannot describe: a [`Card`] is a string in card notation. The
//! other wire types derive their schemas where they are declared.

use std::borrow::Cow;

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

use crate::card::Card;
use crate::hand::HandCard;

/// ECMA-262 pattern of the card notation that [`Card`]'s parser reads (OpenAPI
/// patterns are ECMA regexes, so no inline case-insensitivity flag: both cases
/// are spelled out).
pub const CARD_PATTERN: &str = "^([AaTtJjQqKk2-9]|10)([SsHhDdCc]|♠|♥|♦|♣|♤|♡|♢|♧)$";

impl PartialSchema for Card {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(Some(CARD_PATTERN))
            .description(Some(
                "A card: rank A 2-9 T (or 10) J Q K, then suit S H D C (or ♠ ♥ ♦ ♣), any case. \
                 Responses always use the canonical form, such as \"TS\".",
            ))
            .examples(["TS"])
            .into()
    }
}

impl ToSchema for Card {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Card")
    }
}

/// The notation a [`HandCard`] reads: the card pattern, or `X1`/`X2`.
pub const WILD_CARD_PATTERN: &str = "^(([AaTtJjQqKk2-9]|10)([SsHhDdCc]|♠|♥|♦|♣|♤|♡|♢|♧)|[Xx][12])$";

/// A card of a hand or of a deck with jokers: named `HandCard` in the
/// document, where every resource reading a hand uses it.
impl PartialSchema for HandCard {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(Some(WILD_CARD_PATTERN))
            .description(Some(
                "A card of a hand: rank A 2-9 T (or 10) J Q K, then suit S H D C (or ♠ ♥ ♦ ♣), any \
                 case; or, under a profile with jokers, a joker `X1` or `X2` (any case). In a meld \
                 of an answer a joker stands in the place of the card it stands for (see the \
                 meld's `jokers`). Responses always use the canonical form, such as \"TS\".",
            ))
            .examples(["TS", "X1"])
            .into()
    }
}

impl ToSchema for HandCard {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("HandCard")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_documented_notation_parses_and_matches_the_pattern_shape() {
        // The pattern is what clients and schemathesis check; keep it in step
        // with the parser for a sample of notations.
        for text in ["TS", "10s", "a♥", "K♣", "9d", "Q♤"] {
            assert!(text.parse::<Card>().is_ok(), "{text}");
        }
        assert!(CARD_PATTERN.contains("10") && CARD_PATTERN.contains('♠'));
    }
}
