//! The two engines' cards: ours (`gin_rules::Card`, `HandCard`) and the
//! engine's (`gin_rummy::Card`), matched by their two-letter notation.

use gin_rules::{Card, HandCard};
use gin_rummy_engine::gin_rummy::Card as TheirCard;

/// The 52 cards, each as both engines write it.
pub struct Cards {
    pairs: Vec<(Card, TheirCard)>,
}

impl Cards {
    pub fn new() -> Result<Cards, String> {
        let pairs = Card::deck()
            .map(|card| {
                let theirs: TheirCard = card
                    .notation()
                    .parse()
                    .map_err(|error| format!("{}: {error}", card.notation()))?;
                Ok((card, theirs))
            })
            .collect::<Result<Vec<_>, String>>()?;
        if pairs.len() != 52 {
            return Err("not a deck of 52".into());
        }
        Ok(Cards { pairs })
    }

    pub fn ours(&self, card: TheirCard) -> Result<Card, String> {
        self.pairs
            .iter()
            .find(|(_, theirs)| *theirs == card)
            .map(|(ours, _)| *ours)
            .ok_or_else(|| format!("no card {card}"))
    }

    pub fn hand_card(&self, card: TheirCard) -> Result<HandCard, String> {
        self.ours(card).map(HandCard::from)
    }

    pub fn theirs(&self, card: HandCard) -> Result<TheirCard, String> {
        let natural = card.natural().ok_or("a joker in the engine's deck")?;
        self.pairs
            .iter()
            .find(|(ours, _)| *ours == natural)
            .map(|(_, theirs)| *theirs)
            .ok_or_else(|| format!("no card {natural}"))
    }

    /// Every card of the engine's deck, in our deck order.
    pub fn all_theirs(&self) -> impl Iterator<Item = TheirCard> + '_ {
        self.pairs.iter().map(|(_, theirs)| *theirs)
    }
}
