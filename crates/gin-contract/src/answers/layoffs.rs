//! `POST /v1/layoffs`: the knocker's arrangement and the defender's best reply.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::problem::Problem;
use crate::wire::jokers::{DefenderHand, HandArrangement, HandReply, KnockerHand, score_knock};
use crate::wire::profile_spec::{ProfileSpec, resolve_profile};
use gin_rules::{Arrangement, Card, HandCard};

/// The defender's cards.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DefenderCards {
    /// The defender's 10 cards; under a profile with jokers, `X1` and `X2`
    /// among them (another count is a 422 `wrong_card_count`; more than a
    /// deck, a 400).
    #[serde(deserialize_with = "gin_rules::bounded::at_most::<_, _, 52>")]
    #[schema(max_items = 52,
             example = json!(["6H", "2H", "JS", "JH", "JD", "7S", "7H", "7C", "4D", "5S"]))]
    pub hand: Vec<HandCard>,
}

/// A knock and the defender's hand.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LayoffsRequest {
    pub knocker: KnockerHand,
    pub defender: DefenderCards,
    pub profile: Option<ProfileSpec>,
    /// The first upcard, needed under Oklahoma.
    pub upcard: Option<Card>,
}

/// Both sides laid down.
#[derive(Debug, Serialize, ToSchema)]
pub struct LayoffsResponse {
    /// The knocker's melds, deadwood cards and count; with jokers, a joker
    /// stands in a meld in the place of the card it stands for, named in
    /// `jokers`.
    #[schema(value_type = HandArrangement)]
    pub knocker: Arrangement,
    /// The defender's melds, layoffs, deadwood cards and count.
    pub defender: HandReply,
}

/// The layoffs of one knock, without HTTP (the single and the batch endpoint).
pub fn optimal_layoffs(request: LayoffsRequest) -> Result<LayoffsResponse, Problem> {
    let profile = resolve_profile(request.profile.as_ref())?;
    let defender = DefenderHand {
        hand: request.defender.hand,
        ..DefenderHand::default()
    };
    let laid_down = score_knock(&profile, request.upcard, &request.knocker, &defender)?.showdown;
    Ok(LayoffsResponse {
        knocker: laid_down.knocker,
        defender: HandReply::from(laid_down.defender),
    })
}
