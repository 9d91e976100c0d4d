//! Cards on the wire: the schema of a card string, the card lists of requests
//! and responses, and reading a hand that must not repeat a card.
//!
//! A card is (de)serialised by [`gin_rules::Card`] itself; this module only
//! documents that form for OpenAPI and turns the engine's sets and melds into
//! the lists responses show.

use std::borrow::Cow;

use serde_json::json;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

use super::problem::Problem;
use gin_rules::{Card, CardSet, Meld};

/// ECMA-262 pattern of the card notation (OpenAPI patterns are ECMA regexes, so no
/// inline case-insensitivity flag: both cases are spelled out).
pub const CARD_PATTERN: &str = "^([AaTtJjQqKk2-9]|10)([SsHhDdCc]|♠|♥|♦|♣|♤|♡|♢|♧)$";

/// Schema of a card string; fields holding a [`Card`] point at it with
/// `#[schema(value_type = CardSchema)]`.
pub struct CardSchema;

impl PartialSchema for CardSchema {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(Some(CARD_PATTERN))
            .description(Some(
                "A card: rank A 2-9 T (or 10) J Q K, then suit S H D C (or ♠ ♥ ♦ ♣), any case. \
                 Responses always use the canonical form, such as \"TS\".",
            ))
            .examples([json!("TS")])
            .into()
    }
}

impl ToSchema for CardSchema {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Card")
    }
}

/// A hand as sent: a list of cards.
pub type CardList = Vec<Card>;

/// Cards in canonical order.
pub fn card_list(cards: CardSet) -> Vec<Card> {
    cards.to_vec()
}

/// Melds as lists of canonical cards.
pub fn meld_lists(melds: &[Meld]) -> Vec<Vec<Card>> {
    melds.iter().map(|m| m.cards().to_vec()).collect()
}

/// A hand's cards as a set; a repeated card is a 422 pointing at its second place
/// (`{pointer}/{index}`).
pub fn distinct_hand(cards: &[Card], pointer: &str) -> Result<CardSet, Problem> {
    let mut set = CardSet::EMPTY;
    for (index, &card) in cards.iter().enumerate() {
        if !set.insert(card) {
            let detail = format!("the card {card} appears more than once");
            return Err(
                Problem::unprocessable("duplicate_card", &detail).with_error(
                    format!("{pointer}/{index}"),
                    "duplicate_card",
                    detail,
                ),
            );
        }
    }
    Ok(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_match_the_documented_pattern_in_every_notation() {
        // The pattern is checked by clients and schemathesis; keep it in step with
        // the parser for a sample of notations.
        for text in ["TS", "10s", "a♥", "K♣", "9d"] {
            assert!(text.parse::<Card>().is_ok(), "{text}");
        }
        assert!(CARD_PATTERN.contains("10") && CARD_PATTERN.contains('♠'));
    }

    #[test]
    fn a_repeated_card_is_pointed_at_where_it_comes_back() {
        let cards: Vec<Card> = ["7S", "8S", "7s"]
            .iter()
            .filter_map(|text| text.parse().ok())
            .collect();
        let problem = distinct_hand(&cards, "/hand").expect_err("7S is repeated");
        assert_eq!(problem.code, "duplicate_card");
        assert_eq!(problem.errors[0].pointer, "/hand/2");
        assert_eq!(distinct_hand(&cards[..2], "/hand").map(CardSet::len), Ok(2));
    }
}
