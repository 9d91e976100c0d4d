//! What a defender's reply is made of: its [`Layoff`]s, the [`DefenderReply`]
//! [`super::best_reply`] answers, a reply as declared ([`DeclaredReply`]) and
//! why one is refused ([`ReplyError`]).

use crate::StandsFor;
use crate::card::Card;
use crate::deadwood::Arrangement;
use crate::declared::{DeclaredFault, faults_text};
use crate::hand::{HandCard, Joker};

/// One card or joker laid off onto a knocker's meld. Written as a client
/// reads it: `{"card": "6H", "meld": 0}`, and for a joker the card it stands
/// for, `{"card": "X2", "meld": 0, "stands_for": "8H"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Layoff {
    /// The defender's card or joker.
    pub card: HandCard,
    /// Index into the knocker's melds.
    pub meld: usize,
    /// The card it shows on the table: the card itself for a natural, the
    /// card a joker stands for.
    pub stands_for: Card,
}

/// The defender's side of a knock: its own melds and what is left (the
/// arrangement), and its layoffs in the order played.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DefenderReply {
    /// The defender's own melds and what is left, after the layoffs.
    pub arrangement: Arrangement,
    /// The layoffs in an order in which each is legal when played.
    pub layoffs: Vec<Layoff>,
}

impl DefenderReply {
    /// The defender's count after layoffs.
    pub fn deadwood(&self) -> u32 {
        self.arrangement.deadwood
    }
}

impl From<Layoff> for DeclaredLayoff {
    /// A layoff as played, declared: onto its meld, a joker with its card.
    fn from(layoff: Layoff) -> DeclaredLayoff {
        DeclaredLayoff {
            card: layoff.card,
            stands_for: matches!(layoff.card, HandCard::Joker(_)).then_some(layoff.stands_for),
            meld: Some(layoff.meld),
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Layoff {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let joker = matches!(self.card, HandCard::Joker(_));
        let mut state = serializer.serialize_struct("Layoff", 2 + usize::from(joker))?;
        state.serialize_field("card", &self.card)?;
        state.serialize_field("meld", &self.meld)?;
        if joker {
            state.serialize_field("stands_for", &self.stands_for)?;
        }
        state.end()
    }
}

/// One layoff as a defender declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DeclaredLayoff {
    /// The defender's card or joker.
    pub card: HandCard,
    /// For a joker, the card it stands for on the table (required). A
    /// natural card stands for itself: `None`, or the card itself.
    pub stands_for: Option<Card>,
    /// The knocker's meld it goes onto, by index; `None` lets the referee
    /// place it (see [`declared_reply`](super::declared_reply)).
    pub meld: Option<usize>,
}

/// A defender's reply as declared, each part optional: what is not declared
/// is played best for the defender.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeclaredReply {
    /// The defender's own melds, jokers written in place; `None` plays them
    /// best (no meld showing a card on the table).
    pub melds: Option<Vec<Vec<HandCard>>>,
    /// The card each joker of `melds` stands for.
    pub jokers: StandsFor,
    /// The layoffs; `None` plays them best, an empty list declares none.
    pub layoffs: Option<Vec<DeclaredLayoff>>,
}

/// Why a declared reply is refused: the first layoff at fault (by its place
/// in the list), or every fault of the declared melds.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplyError {
    /// The declared melds are not legal: every fault found (see
    /// [`crate::declared_arrangement`]), a meld showing a card already on the
    /// table among them.
    #[error("the defender's declared melds are not legal: {}", faults_text(.0))]
    Melds(Vec<DeclaredFault>),
    /// The knocker went gin and the profile allows no layoffs on gin.
    #[error("layoff {index}: the knocker went gin, so nothing may be laid off")]
    NotAllowedOnGin {
        /// The layoff's position in the list.
        index: usize,
    },
    /// The card is not among the defender's cards left out of its declared
    /// melds: not held at all, or held in one of those melds.
    #[error("layoff {index}: {card} {}", not_held(*melded))]
    CardNotInHand {
        /// The layoff's position in the list.
        index: usize,
        /// The card or joker.
        card: HandCard,
        /// Whether the defender holds it, in one of its declared melds.
        melded: bool,
    },
    /// The card was laid off earlier in the list.
    #[error("layoff {index}: {card} was already laid off")]
    AlreadyLaidOff {
        /// The layoff's position in the list.
        index: usize,
        /// The card or joker.
        card: HandCard,
    },
    /// The meld index is past the knocker's melds.
    #[error("layoff {index}: there is no knocker meld {meld}")]
    NoSuchMeld {
        /// The layoff's position in the list.
        index: usize,
        /// The meld index given.
        meld: usize,
    },
    /// A joker laid off without the card it stands for, or a natural card
    /// said to stand for another.
    #[error("layoff {index}: {card} {reason}")]
    StandsFor {
        /// The layoff's position in the list.
        index: usize,
        /// The card or joker.
        card: HandCard,
        /// What is wrong, in words.
        reason: &'static str,
    },
    /// A joker laid off where the rules (`joker_layoff` false) forbid it.
    #[error("layoff {index}: {joker} may not be laid off under these rules (joker_layoff is off)")]
    JokerLayoffNotAllowed {
        /// The layoff's position in the list.
        index: usize,
        /// The joker.
        joker: Joker,
    },
    /// The card the layoff shows does not extend the meld as it stands at
    /// that point, or is already on the table.
    #[error("layoff {index}: {} does not fit meld {meld} ({reason})", shows(*card, *stands_for))]
    DoesNotFit {
        /// The layoff's position in the list.
        index: usize,
        /// The card or joker.
        card: HandCard,
        /// The card it shows.
        stands_for: Card,
        /// The knocker meld it was laid onto.
        meld: usize,
        /// Why it does not fit, in words.
        reason: &'static str,
    },
}

/// Why a card laid off is not the defender's to lay off.
const fn not_held(melded: bool) -> &'static str {
    if melded {
        "is in one of the defender's declared melds"
    } else {
        "is not in the defender's hand"
    }
}

/// "8H", or "X1 standing for 8H".
pub(crate) fn shows(card: HandCard, stands_for: Card) -> String {
    match card {
        HandCard::Natural(card) => card.to_string(),
        HandCard::Joker(joker) => format!("{joker} standing for {stands_for}"),
    }
}

impl ReplyError {
    /// The layoff at fault, by its place in the list (`None` for the melds).
    pub const fn index(&self) -> Option<usize> {
        match self {
            ReplyError::Melds(_) => None,
            ReplyError::NotAllowedOnGin { index }
            | ReplyError::CardNotInHand { index, .. }
            | ReplyError::AlreadyLaidOff { index, .. }
            | ReplyError::NoSuchMeld { index, .. }
            | ReplyError::StandsFor { index, .. }
            | ReplyError::JokerLayoffNotAllowed { index, .. }
            | ReplyError::DoesNotFit { index, .. } => Some(*index),
        }
    }
}
