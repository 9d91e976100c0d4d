//! Self-play by numbers: a held hand played by OpenSpiel's `gin_rummy`
//! action ids, and many such hands stepped together (for reinforcement
//! learning, where the Python module's `Hand` and its vector environment
//! stand on these).
//!
//! # OpenSpiel's numbering ([`IdHand`])
//!
//! Ids 0-51 discard the card of that id, 52 takes the upcard or the
//! discard, 53 draws from the stock, 54 passes, 55 knocks and the knock
//! card's id follows; at the 50th-card offer 55 takes the discard to knock
//! (OpenSpiel offers the take only for that). Between the 55 and its card,
//! nothing is applied: the state is the one before the knock and the ids
//! listed are the discards that knock allows. OpenSpiel's meld and layoff
//! steps are not numbered: the knock is played with the knocker's best
//! arrangement, then the defender's best reply at once. Every id is one
//! [`LiveHand::apply`](crate::LiveHand::apply) (or two: a knock and the
//! reply), so a hand played by ids is the referee's hand, and an id not
//! listed changes nothing.
//!
//! # What a seat may know ([`IdHand::write_planes`])
//!
//! Five planes of the 52 card ids: the seat's hand, the top of the discard
//! pile, the rest of the pile, the opponent's cards it saw taken, and every
//! card it cannot see. Built from the seat's [`View`](crate::View), so two
//! deals that differ only in cards the seat cannot know give equal planes.
//!
//! # Many hands ([`HandBatch`])
//!
//! See [`batch`]; one learner against a bot of [`crate::bots`]:
//! [`Opponent`].

pub mod batch;
mod error;
mod ids;
mod opponent;
mod seed;

pub use batch::{HandBatch, Rows, random_ids, seat_index};
pub use error::BatchError;
pub use ids::{
    ACTION_IDS, DRAW, IdHand, IdRefusal, KNOCK, Listing, OpenSpielIds, PASS, PLANES, TAKE,
};
pub use opponent::Opponent;
pub use seed::{CLIENT_SEED, deal_server_seed, resample_order, seeded_deal};
