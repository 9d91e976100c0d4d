//! Reading a hand that must not repeat a card, shared by the resources that
//! take a bare list of cards.
//!
//! A card goes on the wire as [`gin_rules::Card`] itself: its serde form is the
//! card notation and its OpenAPI schema (`Card`) the pattern of that notation.

use crate::error_codes::ErrorCode;
use crate::problem::Problem;
use gin_rules::{Card, CardSet};

/// A hand's cards as a set; a repeated card is a 422 pointing at its second place
/// (`{pointer}/{index}`).
pub fn distinct_hand(cards: &[Card], pointer: &str) -> Result<CardSet, Problem> {
    let mut set = CardSet::EMPTY;
    for (index, &card) in cards.iter().enumerate() {
        if !set.insert(card) {
            let detail = format!("the card {card} appears more than once");
            return Err(Problem::new(ErrorCode::DuplicateCard, &detail).with_error(
                format!("{pointer}/{index}"),
                ErrorCode::DuplicateCard,
                detail,
            ));
        }
    }
    Ok(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_card_is_pointed_at_where_it_comes_back() {
        let cards: Vec<Card> = ["7S", "8S", "7s"]
            .iter()
            .filter_map(|text| text.parse().ok())
            .collect();
        let problem = distinct_hand(&cards, "/hand").expect_err("7S is repeated");
        assert_eq!(problem.code.as_str(), "duplicate_card");
        assert_eq!(problem.errors[0].pointer, "/hand/2");
        assert_eq!(distinct_hand(&cards[..2], "/hand").map(CardSet::len), Ok(2));
    }
}
