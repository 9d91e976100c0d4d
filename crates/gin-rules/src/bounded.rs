//! Lists read with a ceiling: a request's card list longer than a deck, or
//! more declared melds than a deck can make, is not the documented shape, so it
//! is refused while it is read (serde's "invalid length" error), before any
//! rule looks at it. The ceilings are the ones the schemas state (`maxItems`).
//!
//! Use with `#[serde(deserialize_with = "...")]`.

use serde::de::{Deserialize, Deserializer, Error};

/// Cards in any one list: a deck (a longer list must repeat a card).
pub const MAX_CARDS: usize = 52;
/// Melds one hand can declare: 17 disjoint melds of three use 51 cards.
pub const MAX_DECLARED_MELDS: usize = 17;

/// A knocker meld's index as a layoff names it: read as a `u32`, so that the
/// range a client may send is the same on every platform and a schema can
/// state it exactly (`int64` from 0 to 2^32 - 1); an index past the
/// knocker's melds is a layoff error, not a shape error.
pub fn meld_index<'de, D: Deserializer<'de>>(deserializer: D) -> Result<usize, D::Error> {
    let index = u32::deserialize(deserializer)?;
    // On a 16-bit target an index this large names no meld anyway.
    Ok(usize::try_from(index).unwrap_or(usize::MAX))
}

/// A list of at most `N` items.
pub fn at_most<'de, D, T, const N: usize>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    let items = Vec::<T>::deserialize(deserializer)?;
    if items.len() > N {
        return Err(D::Error::invalid_length(
            items.len(),
            &format!("at most {N} items").as_str(),
        ));
    }
    Ok(items)
}

/// An optional list of at most `N` items (null reads as absent).
pub fn optional_at_most<'de, D, T, const N: usize>(
    deserializer: D,
) -> Result<Option<Vec<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    let items = Option::<Vec<T>>::deserialize(deserializer)?;
    match items {
        Some(items) if items.len() > N => Err(D::Error::invalid_length(
            items.len(),
            &format!("at most {N} items").as_str(),
        )),
        items => Ok(items),
    }
}

/// Declared melds: at most [`MAX_DECLARED_MELDS`] lists of at most
/// [`MAX_CARDS`] cards (of any card type, jokers included), for an optional
/// field (null reads as absent).
pub fn declared_melds<'de, D, C>(deserializer: D) -> Result<Option<Vec<Vec<C>>>, D::Error>
where
    D: Deserializer<'de>,
    C: Deserialize<'de>,
{
    let melds = optional_at_most::<D, Vec<C>, MAX_DECLARED_MELDS>(deserializer)?;
    if let Some(meld) = melds.iter().flatten().find(|meld| meld.len() > MAX_CARDS) {
        return Err(D::Error::invalid_length(
            meld.len(),
            &format!("melds of at most {MAX_CARDS} cards").as_str(),
        ));
    }
    Ok(melds)
}
