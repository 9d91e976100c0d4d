//! Match audit: replay every hand of a two-player match from its record, check
//! who dealt each one and how the deals were seeded, and score the match from
//! the hands as played.
//!
//! Tournament and casino software ask one question of a finished match: "given
//! this record, what is the true result?". [`audit_match`] answers it by
//! running [`audit_hand`] on each hand, then [`score_match`] on the hands that
//! ended, so the result is exactly what `score_match` gives for those hands
//! recorded as cards (a knock) or as void.
//!
//! # Checks beyond each hand's own
//!
//! In this order, for each hand, before its actions are judged:
//!
//! 1. The game (every Hollywood game) had not already ended:
//!    [`ViolationCode::HandAfterGameEnd`].
//! 2. The dealer is the one the profile's [`NextDealer`] rule seats. The first
//!    hand's dealer is free (the cut decides it). Under
//!    [`NextDealer::Alternate`] the deal passes after every hand, a void one
//!    too; under [`NextDealer::Winner`] the winner of a hand deals the next, and
//!    after a hand that scored nothing (void, or a tie won for 0) the same
//!    dealer deals again: [`ViolationCode::WrongDealer`].
//! 3. A deal given by its seeds: the server seed hashes to the commitment
//!    ([`ViolationCode::DealCommitmentMismatch`]); the commitment and the client
//!    seed are the first seeded hand's, and every hand is seeded once the first
//!    is ([`ViolationCode::DealSeedsDiffer`]); nonces strictly increase
//!    ([`ViolationCode::DealNonceNotIncreasing`]).
//! 4. The previous hand ended: a transcript that stops before its hand ends is
//!    a match in progress when it is the last hand, and
//!    [`ViolationCode::HandUnfinished`] otherwise (reported at the hand that
//!    stops early).
//!
//! # The verdict
//!
//! The audit stops at the first violation. [`MatchAudit::hands`] holds the
//! audited hands up to and including the violating one (a hand with a
//! hand-level fault is still replayed, so its table shows what was recorded),
//! and [`MatchAudit::score`] scores the complete legal hands before it.
//!
//! # Cost
//!
//! Each hand costs one [`audit_hand`] (constant time per action, one or two
//! scorer calls at the knock) and the match one [`score_match`]: linear in the
//! record.

use crate::audit::{Audit, AuditError, Deal, DealError, HandEnd, Seat, Violation, ViolationCode};
use crate::card::Card;
use crate::matches::{CardHand, MatchError, MatchHand, MatchScore, Player, Players, score_match};
use crate::profile::{NextDealer, Profile};
use crate::score::Side;
use crate::{Action, audit_hand};

/// Where a deal given by its seeds came from. The caller derives the cards
/// (see `fair_deal`) and says whether the server seed hashes to the
/// commitment; the audit checks the match's seeds against each other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DealSeeds {
    /// The client seed.
    pub client_seed: String,
    /// The commitment published before play, lowercase hexadecimal.
    pub commitment: String,
    /// The nonce: strictly increasing over the match's hands.
    pub nonce: u64,
    /// `None` when the server seed hashes to the commitment; otherwise what it
    /// hashes to.
    pub mismatch: Option<String>,
}

/// One hand of a match as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedHand {
    /// The name of the player who dealt.
    pub dealer: String,
    /// The cards as dealt.
    pub deal: Deal,
    /// The seeds the deal came from, when it was given by them.
    pub seeds: Option<DealSeeds>,
    /// The actions, seats named as in [`audit_hand`].
    pub actions: Vec<Action>,
}

/// The first violation in a match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchViolation {
    /// The hand's index.
    pub hand: usize,
    /// The violation; `action` is `None` for a fault of the whole hand.
    pub violation: Violation,
}

/// The verdict on a match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchAudit {
    /// Each hand's audit, up to and including the violating hand.
    pub hands: Vec<Audit>,
    /// Each audited hand's dealer.
    pub dealers: Vec<Player>,
    /// The first violation, if any.
    pub violation: Option<MatchViolation>,
    /// The match scored from the complete legal hands (before the violation).
    pub score: MatchScore,
}

impl MatchAudit {
    /// No violation was found (the last hand may still be in progress).
    pub fn is_legal(&self) -> bool {
        self.violation.is_none()
    }
}

/// Why a match cannot be audited at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatchAuditError {
    /// The players, or a dealer who is not one of them, or too many hands.
    #[error(transparent)]
    Match(#[from] MatchError),
    /// A deal that cannot be replayed.
    #[error("hands[{hand}]: {error}")]
    Deal {
        /// The hand's index.
        hand: usize,
        /// Why.
        error: DealError,
    },
    /// The referee's own bookkeeping is inconsistent (a bug, never the client's).
    #[error("the referee's own bookkeeping is inconsistent: {0}")]
    Inconsistent(String),
}

/// The last hand's facts the next hand's checks need.
struct Previous {
    dealer: Player,
    /// The player who won points, `None` for a hand that scored nothing.
    scorer: Option<Player>,
}

/// Audits a whole match (see the module docs).
pub fn audit_match(
    profile: &Profile,
    players: &Players<String>,
    hands: &[RecordedHand],
) -> Result<MatchAudit, MatchAuditError> {
    // Validates the names and the count once, with the scorer's own errors.
    score_match(profile, players, &[])?;
    if hands.len() > crate::MAX_MATCH_HANDS {
        return Err(MatchError::TooManyHands {
            found: hands.len(),
            max: crate::MAX_MATCH_HANDS,
        }
        .into());
    }
    let mut audits = Vec::with_capacity(hands.len());
    let mut dealers = Vec::with_capacity(hands.len());
    let mut scored: Vec<MatchHand> = Vec::with_capacity(hands.len());
    let mut previous: Option<Previous> = None;
    let mut first_seeds: Option<&DealSeeds> = None;
    let mut last_nonce: Option<u64> = None;
    let mut violation = None;

    for (index, hand) in hands.iter().enumerate() {
        let dealer =
            player_named(players, &hand.dealer).ok_or_else(|| MatchError::UnknownPlayer {
                hand: index,
                name: hand.dealer.clone(),
            })?;
        let fault = |code, message: String| {
            Some(MatchViolation {
                hand: index,
                violation: Violation {
                    action: None,
                    code,
                    message,
                },
            })
        };
        let hand_fault = match wrong_dealer(profile, players, previous.as_ref(), dealer) {
            Some(message) => Some((ViolationCode::WrongDealer, message)),
            None => seeds_fault(index, hand, &mut first_seeds, &mut last_nonce),
        };
        // A deal that does not match its commitment is judged before any action.
        let replayed = match &hand_fault {
            Some((ViolationCode::DealCommitmentMismatch, _)) => &[][..],
            _ => &hand.actions[..],
        };
        let audit = audit_hand(profile, &hand.deal, replayed).map_err(|e| match e {
            AuditError::Deal(error) => MatchAuditError::Deal { hand: index, error },
            AuditError::Inconsistent(error) => MatchAuditError::Inconsistent(error.to_string()),
        })?;
        let own_violation = audit.violation.clone();
        let end = audit.end.clone();
        audits.push(audit);
        dealers.push(dealer);
        if let Some((code, message)) = hand_fault {
            violation = fault(code, message);
            break;
        }
        if let Some(own) = own_violation {
            violation = Some(MatchViolation {
                hand: index,
                violation: own,
            });
            break;
        }
        let Some(end) = end else {
            if index + 1 < hands.len() {
                violation = fault(
                    ViolationCode::HandUnfinished,
                    format!(
                        "hands[{index}] stops before the hand ends (no knock, and the stock \
                         not down to its last two cards), yet hands[{}] follows it",
                        index + 1
                    ),
                );
            }
            break;
        };
        let (hand_record, scorer) = match_hand(players, dealer, hand.deal.upcard, &end);
        scored.push(hand_record);
        previous = Some(Previous { dealer, scorer });
    }

    // A hand after the end of the game outranks any fault of its own, and
    // ends the audit there.
    if let Some((ended_at, hand)) = game_over(profile, players, &scored)?
        && hand < audits.len()
    {
        audits.truncate(hand + 1);
        dealers.truncate(hand + 1);
        scored.truncate(hand);
        let message = format!(
            "hands[{hand}] was played after the {} ended at hands[{ended_at}]",
            if profile.hollywood() {
                "last of the three Hollywood games"
            } else {
                "game"
            }
        );
        violation = Some(MatchViolation {
            hand,
            violation: Violation {
                action: None,
                code: ViolationCode::HandAfterGameEnd,
                message,
            },
        });
    }
    let score = score_match(profile, players, &scored)?;
    Ok(MatchAudit {
        hands: audits,
        dealers,
        violation,
        score,
    })
}

fn player_named(players: &Players<String>, name: &str) -> Option<Player> {
    players
        .iter()
        .find(|(_, player)| player.as_str() == name)
        .map(|(player, _)| player)
}

/// Where the game (every Hollywood game) ended and the first hand after it,
/// if one follows the hands that ended: the scorer refuses a hand after the
/// end, so a void hand appended to them asks it without changing any total.
fn game_over(
    profile: &Profile,
    players: &Players<String>,
    scored: &[MatchHand],
) -> Result<Option<(usize, usize)>, MatchError> {
    let mut probe = Vec::with_capacity(scored.len() + 1);
    probe.extend_from_slice(scored);
    probe.push(MatchHand::Void);
    match score_match(profile, players, &probe) {
        Ok(_) => Ok(None),
        Err(MatchError::GameOver { hand, ended_at, .. }) => Ok(Some((ended_at, hand))),
        Err(error) => Err(error),
    }
}

/// The message when `dealer` is not the player the rule seats.
fn wrong_dealer(
    profile: &Profile,
    players: &Players<String>,
    previous: Option<&Previous>,
    dealer: Player,
) -> Option<String> {
    let previous = previous?;
    let (expected, why) = match (profile.next_dealer(), previous.scorer) {
        (NextDealer::Alternate, _) => (previous.dealer.other(), "the deal alternates"),
        (NextDealer::Winner, Some(winner)) => (winner, "the winner of a hand deals the next"),
        (NextDealer::Winner, None) => (
            previous.dealer,
            "after a hand that scores nothing the same dealer deals again",
        ),
    };
    (dealer != expected).then(|| {
        format!(
            "{} dealt, but {} should have ({why})",
            players.get(dealer),
            players.get(expected)
        )
    })
}

/// The fault of a seeded deal, if any; records the match's seeds and nonce.
fn seeds_fault<'a>(
    index: usize,
    hand: &'a RecordedHand,
    first: &mut Option<&'a DealSeeds>,
    last_nonce: &mut Option<u64>,
) -> Option<(ViolationCode, String)> {
    let Some(seeds) = &hand.seeds else {
        return first.map(|_| {
            (
                ViolationCode::DealSeedsDiffer,
                format!("hands[{index}] gives its cards, but the match's deals are seeded"),
            )
        });
    };
    if let Some(message) = &seeds.mismatch {
        return Some((ViolationCode::DealCommitmentMismatch, message.clone()));
    }
    match first {
        None if index > 0 => {
            return Some((
                ViolationCode::DealSeedsDiffer,
                format!("hands[{index}] is seeded, but the match's earlier deals are not"),
            ));
        }
        None => *first = Some(seeds),
        Some(first) => {
            if !first.commitment.eq_ignore_ascii_case(&seeds.commitment) {
                return Some((
                    ViolationCode::DealSeedsDiffer,
                    format!(
                        "hands[{index}] is dealt under commitment {}, not the match's {}",
                        seeds.commitment, first.commitment
                    ),
                ));
            }
            if first.client_seed != seeds.client_seed {
                return Some((
                    ViolationCode::DealSeedsDiffer,
                    format!("hands[{index}] has a client seed other than the match's"),
                ));
            }
        }
    }
    if let Some(last) = *last_nonce
        && seeds.nonce <= last
    {
        return Some((
            ViolationCode::DealNonceNotIncreasing,
            format!(
                "hands[{index}] has nonce {}, not more than the previous hand's {last}",
                seeds.nonce
            ),
        ));
    }
    *last_nonce = Some(seeds.nonce);
    None
}

/// A legal ended hand as the scorer takes it, and the player who scored.
fn match_hand(
    players: &Players<String>,
    dealer: Player,
    upcard: Card,
    end: &HandEnd,
) -> (MatchHand, Option<Player>) {
    match end {
        HandEnd::Void { .. } => (MatchHand::Void, None),
        HandEnd::Scored(scored) => {
            let seat_player = |seat: Seat| match seat {
                Seat::Dealer => dealer,
                Seat::NonDealer => dealer.other(),
            };
            let knocker = seat_player(scored.knocker);
            let settlement = &scored.score.settlement;
            let winner = match settlement.winner {
                Side::Knocker => knocker,
                Side::Defender => knocker.other(),
            };
            let hand = MatchHand::Cards(CardHand {
                knocker: players.get(knocker).clone(),
                knocker_hand: scored.knocker_hand.clone(),
                defender_hand: scored.defender_hand.clone(),
                upcard: Some(upcard),
            });
            (hand, (settlement.points > 0).then_some(winner))
        }
    }
}

#[cfg(test)]
#[path = "match_audit_tests.rs"]
mod tests;
