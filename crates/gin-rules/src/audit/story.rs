//! The seat's own story: a hand's actions as one viewer may know them.
//!
//! A player at a real table remembers what it drew from the stock and sees
//! everything else that is done face up: the opponent's draw from the stock
//! (but not the card), each discard, each take from the pile, a pass, a
//! knock with the melds laid down, the layoffs. [`story`] writes the
//! transcript that way, so that an app can show a seat its history as it is,
//! without comparing hands to learn what was drawn.
//!
//! The card of a stock draw is the one the action names, or else the next
//! card of the listed stock: the replay accepts a named card only when it is
//! the listed one, so the two agree on any transcript the referee accepts.
//!
//! # Cost
//!
//! One pass over the actions, each copied once.

use super::{Action, Deal, LaidDown, Move, Seat, Source};

/// Whose story to tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoryViewer {
    /// The transcript itself: for the app's server only.
    Referee,
    /// One seat: its own stock draws with their cards, the opponent's without.
    Seat(Seat),
    /// The public at the table: no stock draw names its card.
    Spectator,
}

/// The actions so far as `viewer` may know them, oldest first, each in the
/// transcript's shape. `laid_down` is the knocker's arrangement once the
/// hand was knocked: a knock that declared no melds is told with the melds
/// the referee laid down for it (every viewer saw them).
pub fn story(
    deal: &Deal,
    actions: &[Action],
    viewer: StoryViewer,
    laid_down: Option<&LaidDown>,
) -> Vec<Action> {
    let mut stock = deal.stock.iter();
    actions
        .iter()
        .map(|action| {
            let play = match &action.play {
                Move::Draw {
                    from: Source::Stock,
                    card,
                } => {
                    let drawn = card.or_else(|| stock.next().copied());
                    if card.is_some() {
                        // A named card still uses up the listed stock's slot.
                        stock.next();
                    }
                    let shown = match viewer {
                        StoryViewer::Referee => *card,
                        StoryViewer::Seat(seat) if seat == action.player => drawn,
                        StoryViewer::Seat(_) | StoryViewer::Spectator => None,
                    };
                    Move::Draw {
                        from: Source::Stock,
                        card: shown,
                    }
                }
                Move::Knock {
                    discard,
                    melds: None,
                    ..
                } if viewer != StoryViewer::Referee => match laid_down {
                    Some(laid) if laid.knocker == action.player => {
                        let melds = &laid.arrangement.melds;
                        Move::Knock {
                            discard: *discard,
                            melds: Some(melds.iter().map(|m| m.held().collect()).collect()),
                            jokers: melds.iter().flat_map(|m| m.jokers()).collect(),
                        }
                    }
                    _ => action.play.clone(),
                },
                other => other.clone(),
            };
            Action {
                player: action.player,
                play,
            }
        })
        .collect()
}
