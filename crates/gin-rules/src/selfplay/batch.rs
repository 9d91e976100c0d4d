//! Many hands stepped together: one [`IdHand`] per row, every row's arrays
//! written in place, the rows split over threads.
//!
//! Row `i` of a batch of `n` reset with seed `s` is dealt from the int
//! `s + i` ([`seeded_deal`]), its `k`-th deal after that from
//! `s + i + k * n` (modulo 2^64). A step applies each row's id with
//! [`IdHand::apply_id`], the one stepping of a held hand. A row whose hand
//! ends (over, or an unlisted id: -1 to its sender, 0 to the other) is
//! marked terminated and shows the final view of the seat that moved; on
//! the next step its id is ignored and it is dealt again (Gymnasium's
//! next-step autoreset).
//!
//! # Cost
//!
//! A step costs one [`IdHand::apply_id`] per row (the referee's own step,
//! and the listing after it), the planes of one view, and nothing else: the
//! arrays are the caller's, written in place, and a thread per extra chunk
//! is spawned for the step and joined before it returns.

use std::sync::Arc;

use super::error::BatchError;
use super::ids::{ACTION_IDS, IdHand, PLANES};
use super::opponent::{MAX_UNSEEN, Opponent, bot_turns};
use super::seed::seeded_deal;
use crate::audit::{LiveHand, Seat};
use crate::bots::{BotSpec, HeldView};
use crate::profile::Profile;

/// The arrays one reset or step writes, one row per hand, row-major.
#[derive(Debug)]
pub struct Rows<'a> {
    /// The planes of the seat to act (or of the seat that moved last, on the
    /// step that ends a hand): rows of [`PLANES`].
    pub observation: &'a mut [i8],
    /// The hand's points to the non-dealer and the dealer as it ends, else 0
    /// (against a bot: one column, the learner's points).
    pub reward: &'a mut [f32],
    /// The hand ended on this step.
    pub terminated: &'a mut [bool],
    /// Never set: a hand always ends.
    pub truncated: &'a mut [bool],
    /// The listed ids (rows of [`ACTION_IDS`]); none on a terminated row.
    pub mask: &'a mut [bool],
    /// The seat the row's observation is for: 0 the non-dealer, 1 the dealer.
    pub current_player: &'a mut [i8],
}

impl<'a> Rows<'a> {
    /// The same arrays, borrowed again (for one more step).
    pub fn reborrow(&mut self) -> Rows<'_> {
        Rows {
            observation: self.observation,
            reward: self.reward,
            terminated: self.terminated,
            truncated: self.truncated,
            mask: self.mask,
            current_player: self.current_player,
        }
    }

    fn check(&self, rows: usize, columns: usize) -> Result<(), BatchError> {
        let lengths = [
            ("observation", self.observation.len(), rows * PLANES),
            ("reward", self.reward.len(), rows * columns),
            ("terminated", self.terminated.len(), rows),
            ("truncated", self.truncated.len(), rows),
            ("action_mask", self.mask.len(), rows * ACTION_IDS),
            ("current_player", self.current_player.len(), rows),
        ];
        match lengths.into_iter().find(|(_, got, want)| got != want) {
            Some((what, got, want)) => Err(BatchError::Shape { what, got, want }),
            None => Ok(()),
        }
    }

    /// The arrays in chunks of `size` rows.
    fn chunks(self, size: usize, columns: usize) -> Vec<Rows<'a>> {
        let size = size.max(1);
        let mut observation = self.observation.chunks_mut(size * PLANES);
        let mut reward = self.reward.chunks_mut(size * columns);
        let mut terminated = self.terminated.chunks_mut(size);
        let mut truncated = self.truncated.chunks_mut(size);
        let mut mask = self.mask.chunks_mut(size * ACTION_IDS);
        let mut current_player = self.current_player.chunks_mut(size);
        let mut chunks = Vec::new();
        while let (Some(o), Some(r), Some(te), Some(tr), Some(m), Some(c)) = (
            observation.next(),
            reward.next(),
            terminated.next(),
            truncated.next(),
            mask.next(),
            current_player.next(),
        ) {
            chunks.push(Rows {
                observation: o,
                reward: r,
                terminated: te,
                truncated: tr,
                mask: m,
                current_player: c,
            });
        }
        chunks
    }
}

/// One hand of the batch.
#[derive(Debug, Clone)]
struct Row {
    /// The row's place in the batch.
    index: u64,
    hand: IdHand,
    /// Deals since the last reset (0 for the first).
    deals: u64,
    /// The last step ended the hand: the next one deals again.
    ended: bool,
    /// Against a bot: the learner's seat and the bot for this deal.
    learner: Option<(Seat, BotSpec)>,
    /// Against a bot: the bot's view of this deal, kept up to date.
    bot_view: Option<HeldView>,
}

impl Row {
    /// Deals the row's deal number `deals` (against a bot: the first one
    /// after it in which the learner acts).
    fn deal(&mut self, dealer: &Dealer, deals: u64) -> Result<(), BatchError> {
        self.deals = deals;
        self.ended = false;
        let Some(opponent) = &dealer.opponent else {
            self.hand = dealer.deal(self.index, deals)?.1;
            return Ok(());
        };
        for _ in 0..MAX_UNSEEN {
            let (seed, hand) = dealer.deal(self.index, self.deals)?;
            let (learner, bot) = opponent.for_deal(seed);
            self.hand = hand;
            self.learner = Some((learner, bot));
            self.bot_view = None;
            bot_turns(&mut self.hand, learner, &bot, &mut self.bot_view)?;
            if self.hand.to_act().is_some() {
                return Ok(());
            }
            self.deals = self.deals.wrapping_add(1);
        }
        Err(BatchError::Bot(format!(
            "{MAX_UNSEEN} deals in a row ended before the learner acted"
        )))
    }
}

/// What every row reads: the profile and the seeds.
#[derive(Debug, Clone)]
struct Dealer {
    profile: Arc<Profile>,
    seed: u64,
    hands: u64,
    opponent: Option<Opponent>,
}

impl Dealer {
    /// The reward's columns: both seats, or the learner's.
    fn columns(&self) -> usize {
        if self.opponent.is_some() { 1 } else { 2 }
    }

    /// The int and the hand of row `index`'s deal number `deals`.
    fn deal(&self, index: u64, deals: u64) -> Result<(u64, IdHand), BatchError> {
        let seed = self
            .seed
            .wrapping_add(index)
            .wrapping_add(deals.wrapping_mul(self.hands));
        let deal = seeded_deal(seed, self.profile.jokers())
            .map_err(|error| BatchError::Deal(error.to_string()))?;
        let live = LiveHand::with_profile(Arc::clone(&self.profile), deal)
            .map_err(|error| BatchError::Deal(error.to_string()))?;
        Ok((seed, IdHand::new(live)))
    }
}

/// The seat's row index: 0 the non-dealer (OpenSpiel's player 0), 1 the dealer.
pub fn seat_index(seat: Seat) -> usize {
    match seat {
        Seat::NonDealer => 0,
        Seat::Dealer => 1,
    }
}

/// Many hands stepped together (see the module docs).
#[derive(Debug, Clone)]
pub struct HandBatch {
    dealer: Dealer,
    rows: Vec<Row>,
}

impl HandBatch {
    /// `hands` hands under `profile` (joker-free), dealt from `seed`.
    pub fn new(profile: Profile, hands: usize, seed: u64) -> Result<HandBatch, BatchError> {
        HandBatch::against(profile, hands, seed, None)
    }

    /// [`HandBatch::new`], each hand played by a learner against
    /// `opponent` when one is given (see [`Opponent`]).
    pub fn against(
        profile: Profile,
        hands: usize,
        seed: u64,
        opponent: Option<Opponent>,
    ) -> Result<HandBatch, BatchError> {
        if profile.jokers() > 0 {
            return Err(BatchError::Jokers(profile.jokers()));
        }
        let dealer = Dealer {
            profile: Arc::new(profile),
            seed,
            hands: hands as u64,
            opponent,
        };
        let rows = (0..hands as u64)
            .map(|index| {
                let mut row = Row {
                    index,
                    hand: dealer.deal(index, 0)?.1,
                    deals: 0,
                    ended: false,
                    learner: None,
                    bot_view: None,
                };
                row.deal(&dealer, 0)?;
                Ok(row)
            })
            .collect::<Result<_, BatchError>>()?;
        Ok(HandBatch { dealer, rows })
    }

    /// The reward's columns: 2 (non-dealer, dealer), or 1 against a bot
    /// (the learner's).
    pub fn reward_columns(&self) -> usize {
        self.dealer.columns()
    }

    /// Row `index`'s learner seat against a bot.
    pub fn learner(&self, index: usize) -> Option<Seat> {
        self.rows.get(index)?.learner.map(|(seat, _)| seat)
    }

    /// How many hands.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// No hands at all.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Row `index`'s hand.
    pub fn hand(&self, index: usize) -> Option<&IdHand> {
        self.rows.get(index).map(|row| &row.hand)
    }

    /// Deals every hand again from `seed` (the first deals), writing the
    /// first views.
    pub fn reset(&mut self, seed: u64, out: Rows<'_>, threads: usize) -> Result<(), BatchError> {
        self.dealer.seed = seed;
        self.run(None, out, threads)
    }

    /// Applies `actions` (one id per row), writing every row's arrays.
    pub fn step(
        &mut self,
        actions: &[i64],
        out: Rows<'_>,
        threads: usize,
    ) -> Result<(), BatchError> {
        if actions.len() != self.rows.len() {
            return Err(BatchError::Shape {
                what: "actions",
                got: actions.len(),
                want: self.rows.len(),
            });
        }
        self.run(Some(actions), out, threads)
    }

    /// Steps (or, without actions, resets) the rows over `threads` threads:
    /// this one and `threads - 1` spawned for the call.
    fn run(
        &mut self,
        actions: Option<&[i64]>,
        out: Rows<'_>,
        threads: usize,
    ) -> Result<(), BatchError> {
        let columns = self.dealer.columns();
        out.check(self.rows.len(), columns)?;
        let size = self.rows.len().div_ceil(threads.max(1)).max(1);
        let dealer = &self.dealer;
        let mut work: Vec<_> = self
            .rows
            .chunks_mut(size)
            .zip(out.chunks(size, columns))
            .enumerate()
            .map(|(chunk, (rows, out))| {
                let actions = actions.map(|all| all.get(chunk * size..).unwrap_or_default());
                (rows, actions, out)
            })
            .collect();
        let Some((rows, actions, out)) = work.pop() else {
            return Ok(());
        };
        std::thread::scope(|scope| {
            let spawned: Vec<_> = work
                .into_iter()
                .map(|(rows, actions, out)| {
                    scope.spawn(move || step_rows(dealer, rows, actions, out))
                })
                .collect();
            let mine = step_rows(dealer, rows, actions, out);
            spawned
                .into_iter()
                .map(|handle| handle.join().unwrap_or(Err(BatchError::Thread)))
                .chain(std::iter::once(mine))
                .collect::<Result<(), BatchError>>()
        })
    }
}

/// One row's slots in the arrays.
struct Slots<'r> {
    observation: &'r mut [i8],
    reward: &'r mut [f32],
    terminated: &'r mut bool,
    mask: &'r mut [bool],
    current_player: &'r mut i8,
}

/// Steps (without actions: deals afresh) a chunk of rows.
fn step_rows(
    dealer: &Dealer,
    rows: &mut [Row],
    actions: Option<&[i64]>,
    out: Rows<'_>,
) -> Result<(), BatchError> {
    out.truncated.fill(false);
    let slots = out
        .observation
        .chunks_exact_mut(PLANES)
        .zip(out.reward.chunks_exact_mut(dealer.columns()))
        .zip(out.terminated.iter_mut())
        .zip(out.mask.chunks_exact_mut(ACTION_IDS))
        .zip(out.current_player.iter_mut());
    for (index, (row, ((((observation, reward), terminated), mask), current_player))) in
        rows.iter_mut().zip(slots).enumerate()
    {
        let slots = Slots {
            observation,
            reward,
            terminated,
            mask,
            current_player,
        };
        match actions {
            None => {
                row.deal(dealer, 0)?;
                show(row, slots);
            }
            Some(actions) => {
                let action = actions.get(index).copied().unwrap_or(-1);
                step_row(dealer, row, action, slots)?;
            }
        }
    }
    Ok(())
}

/// One row's step (see the module docs).
fn step_row(
    dealer: &Dealer,
    row: &mut Row,
    action: i64,
    slots: Slots<'_>,
) -> Result<(), BatchError> {
    if row.ended {
        row.deal(dealer, row.deals.wrapping_add(1))?;
        show(row, slots);
        return Ok(());
    }
    let Some(mover) = row.hand.to_act() else {
        // Not reached: a hand that is over is marked ended.
        row.ended = true;
        return Ok(());
    };
    let rewards = match row.hand.apply_id(action) {
        Ok(()) => {
            if let Some((learner, bot)) = &row.learner {
                bot_turns(&mut row.hand, *learner, bot, &mut row.bot_view)?;
            }
            row.hand.outcome().map(|(winner, points)| {
                let points = points as f32;
                match winner {
                    None => [0.0, 0.0],
                    Some(winner) if seat_index(winner) == 0 => [points, -points],
                    Some(_) => [-points, points],
                }
            })
        }
        Err(_) if seat_index(mover) == 0 => Some([-1.0, 0.0]),
        Err(_) => Some([0.0, -1.0]),
    };
    match rewards {
        Some(rewards) => {
            row.ended = true;
            // Against a bot, the mover is the learner: its column alone.
            let column = if row.learner.is_some() {
                seat_index(mover)
            } else {
                0
            };
            let rewards = rewards.get(column..).unwrap_or_default();
            for (slot, value) in slots.reward.iter_mut().zip(rewards) {
                *slot = *value;
            }
            *slots.terminated = true;
            slots.mask.fill(false);
            row.hand.write_planes(mover, slots.observation);
            *slots.current_player = seat_index(mover) as i8;
        }
        None => show(row, slots),
    }
    Ok(())
}

/// A row in play: the view and the ids of the seat to act, no reward.
fn show(row: &mut Row, slots: Slots<'_>) {
    slots.reward.fill(0.0);
    *slots.terminated = false;
    let seat = row.hand.to_act().unwrap_or(Seat::NonDealer);
    row.hand.write_mask(slots.mask);
    row.hand.write_planes(seat, slots.observation);
    *slots.current_player = seat_index(seat) as i8;
}

/// A random listed id per row of `mask` (rows of [`ACTION_IDS`]; 0 where
/// none is listed), from the xorshift64* generator `state`: the benchmarks'
/// player, the same draw a Python loop makes with NumPy from the masks.
pub fn random_ids(mask: &[bool], actions: &mut [i64], state: &mut u64) {
    for (row, action) in mask.chunks_exact(ACTION_IDS).zip(actions.iter_mut()) {
        *state ^= *state >> 12;
        *state ^= *state << 25;
        *state ^= *state >> 27;
        let draw = state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32;
        let listed = row.iter().filter(|&&on| on).count() as u64;
        let mut pick = if listed == 0 { 0 } else { draw % listed };
        *action = 0;
        for (id, _) in row.iter().enumerate().filter(|(_, on)| **on) {
            if pick == 0 {
                *action = id as i64;
                break;
            }
            pick -= 1;
        }
    }
}
