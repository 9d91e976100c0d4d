//! `random`: a listed action, uniformly, from the seed.

use super::SeatView;
use super::rng::Rng;

/// The index of a listed action drawn uniformly (the listing is not empty).
pub(super) fn choose(view: &SeatView, rng: &mut Rng) -> usize {
    rng.below(view.legal_actions().len())
}
