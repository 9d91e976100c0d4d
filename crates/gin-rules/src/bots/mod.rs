//! The referee plays: bots that choose one of the listed actions, each a
//! function of what one seat may know.
//!
//! # The API
//!
//! - [`SeatView`]: the only thing a bot receives. Its constructors
//!   ([`SeatView::of_live`] for a held [`LiveHand`], [`SeatView::of_record`]
//!   for a recorded hand, [`SeatView::from_state`] for a seat's
//!   [`HandState`](crate::HandState) and story, [`SeatView::with_score`] for
//!   a match's score) copy the seat's cards, the discard pile, the
//!   opponent's cards it saw taken, the counts, the first upcard, the
//!   knocker's laid-down melds, the seat's own log, the listed actions, the
//!   profile and the score. The opponent's hand and the stock are not in it,
//!   so no bot, and no search inside a bot, can read them.
//! - [`BotSpec`]: a bot by [`BotName`] (`random`, `simple`, `strong`), its
//!   `seed` and its [`Knobs`] (bounded, [`BotSpec::validate`]; the table of
//!   bounds is [`KNOBS`]).
//! - [`choose`]: the index in [`SeatView::legal_actions`] of the action the
//!   bot plays. Deterministic: the same spec and the same view give the same
//!   index, so two hands that differ only in cards the seat cannot know give
//!   the same move. [`choose_for`] does the same for a seat of a held hand
//!   and answers the listed action itself.
//! - [`HeldView`]: a seat's view kept up to date beside a held hand (each
//!   action told to the seat as it is applied), equal to
//!   [`SeatView::of_live`]'s at every decision; [`choose_held`] is
//!   [`choose_for`] on it, for callers that play many turns of one hand
//!   (self-play, the arena) and should not rebuild the view at each.
//!
//! # The bots
//!
//! - `random`: a listed action, uniformly.
//! - `simple`: the EAAI-2021 challenge's SimpleGinRummyPlayer's policy,
//!   ported from its description ([`simple`] has the rules and where the
//!   port differs).
//! - `strong`: a determinized search over the cards the seat cannot place
//!   ([`strong`] has the method and its budget, counted in samples, never
//!   in clock time).

use crate::audit::{AuditError, LegalAction, LiveHand, Seat, Violation};

mod held;
mod random;
mod rng;
pub mod simple;
pub mod strength;
pub mod strong;
mod view;

pub use held::{HeldView, choose_held};
pub use view::{ScoreContext, SeatView};

/// The bots, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum BotName {
    /// A listed action, uniformly, from the seed.
    Random,
    /// The EAAI-2021 challenge's SimpleGinRummyPlayer's policy.
    Simple,
    /// The strongest player the crate has (see [`strong`]).
    Strong,
}

impl BotName {
    /// Every bot, in the order of the docs.
    pub const ALL: [BotName; 3] = [BotName::Random, BotName::Simple, BotName::Strong];

    /// The stable name: `random`, `simple`, `strong`.
    pub const fn name(self) -> &'static str {
        match self {
            BotName::Random => "random",
            BotName::Simple => "simple",
            BotName::Strong => "strong",
        }
    }
}

impl std::str::FromStr for BotName {
    type Err = BotError;

    fn from_str(text: &str) -> Result<BotName, BotError> {
        BotName::ALL
            .into_iter()
            .find(|bot| bot.name() == text)
            .ok_or_else(|| BotError::UnknownBot(text.to_owned()))
    }
}

/// A knob's name, bounds and default, and the bots that read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnobBounds {
    /// The knob's name, as written in a request.
    pub name: &'static str,
    /// The least value allowed.
    pub min: u32,
    /// The greatest value allowed.
    pub max: u32,
    /// The value when the knob is not given.
    pub default: u32,
    /// The bot that reads it.
    pub bot: BotName,
    /// What it counts.
    pub meaning: &'static str,
}

/// Every knob, with its bounds (the docs and the HTTP layer read this table).
pub const KNOBS: [KnobBounds; 1] = [KnobBounds {
    name: "samples",
    min: 1,
    max: strong::MAX_SAMPLES,
    default: strong::DEFAULT_SAMPLES,
    bot: BotName::Strong,
    meaning: "deals of the cards the seat cannot place, sampled per decision; the first 16 are valued, all of them played out",
}];

/// A bot's knobs; a knob not given takes its default ([`KNOBS`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
pub struct Knobs {
    /// `strong`: the deals of the hidden cards sampled per decision (the
    /// first [`strong::VALUED`] valued, all of them played out).
    pub samples: Option<u32>,
}

/// A bot: its name, its seed and its knobs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BotSpec {
    /// Which bot.
    pub name: BotName,
    /// The seed of its random choices (ties, samples).
    pub seed: u64,
    /// Its knobs.
    pub knobs: Knobs,
}

impl BotSpec {
    /// The bot `name` with `seed` and default knobs.
    pub const fn new(name: BotName, seed: u64) -> BotSpec {
        BotSpec {
            name,
            seed,
            knobs: Knobs { samples: None },
        }
    }

    /// Checks every knob given: within its bounds, and read by this bot.
    pub fn validate(&self) -> Result<(), BotError> {
        let given = [("samples", self.knobs.samples)];
        for (name, value) in given {
            let Some(value) = value else { continue };
            let Some(bounds) = KNOBS.iter().find(|knob| knob.name == name) else {
                continue;
            };
            if bounds.bot != self.name {
                return Err(BotError::KnobNotRead {
                    knob: bounds.name,
                    bot: self.name,
                });
            }
            if !(bounds.min..=bounds.max).contains(&value) {
                return Err(BotError::KnobOutOfBounds {
                    knob: bounds.name,
                    value,
                    min: bounds.min,
                    max: bounds.max,
                });
            }
        }
        Ok(())
    }

    /// The `samples` knob, or its default.
    pub fn samples(&self) -> u32 {
        self.knobs.samples.unwrap_or(strong::DEFAULT_SAMPLES)
    }
}

/// Why a bot could not choose.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    /// The seat has nothing listed: it is not to act, or the hand is over.
    #[error("{seat} is not to act")]
    NotToAct {
        /// The seat asked for.
        seat: Seat,
    },
    /// The record has an illegal action: no bot plays after it.
    #[error("the record has an illegal action: {}", .0.message)]
    Violation(Violation),
    /// The record cannot be replayed.
    #[error(transparent)]
    Record(AuditError),
    /// A view was asked for from a state that is not one seat's.
    #[error("a bot's view is built from one seat's state only")]
    NotASeatsView,
    /// No bot has this name.
    #[error("no bot is named {0:?} (random, simple, strong)")]
    UnknownBot(String),
    /// A knob outside its bounds.
    #[error("{knob} must be within {min}..={max}, not {value}")]
    KnobOutOfBounds {
        /// The knob.
        knob: &'static str,
        /// The value given.
        value: u32,
        /// The least value allowed.
        min: u32,
        /// The greatest value allowed.
        max: u32,
    },
    /// A knob given to a bot that does not read it.
    #[error("{knob} is not a knob of {}", .bot.name())]
    KnobNotRead {
        /// The knob.
        knob: &'static str,
        /// The bot given it.
        bot: BotName,
    },
}

/// The index in `view`'s listed actions of the action `spec` plays (see the
/// module docs): deterministic for a spec and a view.
pub fn choose(spec: &BotSpec, view: &SeatView) -> Result<usize, BotError> {
    spec.validate()?;
    if view.legal_actions().is_empty() {
        return Err(BotError::NotToAct { seat: view.seat() });
    }
    let mut rng = rng::Rng::new(spec.seed, view.fingerprint());
    let index = match spec.name {
        BotName::Random => random::choose(view, &mut rng),
        BotName::Simple => simple::choose(view, &mut rng),
        BotName::Strong => strong::choose(view, spec.samples(), &mut rng),
    };
    // Each bot answers an index of the listing; this keeps it one whatever.
    Ok(index.min(view.legal_actions().len().saturating_sub(1)))
}

/// The listed action `spec` plays for `seat` in a held hand.
pub fn choose_for(live: &LiveHand, seat: Seat, spec: &BotSpec) -> Result<LegalAction, BotError> {
    let view = SeatView::of_live(live, seat)?;
    let index = choose(spec, &view)?;
    view.legal_actions()
        .get(index)
        .cloned()
        .ok_or(BotError::NotToAct { seat })
}
