//! Match audit: replay every hand of a match (two players, three players, or a
//! partnership) from its record, check who dealt each one and how the deals
//! were seeded, and score the match from the hands as played.
//!
//! Tournament and casino software ask one question of a finished match: "given
//! this record, what is the true result?". [`audit_match`] answers it by
//! running [`audit_hand`] on each hand (each table of a partnership deal),
//! then feeding the hands that ended to the format's tally ([`MatchTally`],
//! [`ThreeTally`], [`PartnershipTally`]), so the result is exactly what the
//! scorer ([`score_match`](crate::score_match), over the format) gives for those hands
//! recorded as cards (a knock) or as void.
//!
//! # Checks beyond each hand's own
//!
//! In this order, for each hand, before its actions are judged:
//!
//! 1. The game (every Hollywood game) had not already ended:
//!    [`ViolationCode::HandAfterGameEnd`].
//! 2. Three players: the two at the table follow the rotation
//!    ([`ViolationCode::RotationBroken`]); a partnership deal seats the pairings
//!    of its position ([`ViolationCode::PairingBroken`], at the deal).
//! 3. Two players: the dealer is the one the profile's [`NextDealer`] rule seats. The first
//!    hand's dealer is free (the cut decides it). Under
//!    [`NextDealer::Alternate`] the deal passes after every hand, a void one
//!    too; under [`NextDealer::Winner`] the winner of a hand deals the next, and
//!    after a hand that scored nothing (void, or a tie won for 0) the same
//!    dealer deals again; under [`NextDealer::AlternateAfterScored`] the deal
//!    passes after a hand that scored and stays after one that did not:
//!    [`ViolationCode::WrongDealer`]. With three players or
//!    teams no source says who deals, so the dealer is only checked to be one
//!    of the two at the table (each hand names both: `dealer` and `non_dealer`).
//! 4. A deal given by its seeds: the server seed hashes to the commitment
//!    ([`ViolationCode::DealCommitmentMismatch`]); the commitment and the client
//!    seed are the first seeded hand's, and every hand is seeded once the first
//!    is ([`ViolationCode::DealSeedsDiffer`]); nonces strictly increase
//!    ([`ViolationCode::DealNonceNotIncreasing`]), hand by hand and table by
//!    table.
//! 5. The previous hand ended: a transcript that stops before its hand ends is
//!    a match in progress when it is the last hand, and
//!    [`ViolationCode::HandUnfinished`] otherwise (reported at the hand that
//!    stops early). In the last deal of a partnership either table may be in
//!    progress; the deal is then not scored. A hand whose record stops right
//!    after its knock has ended (the defender's reply is optional): it is
//!    scored with the best reply. Only the live match state
//!    (`LastKnock::AwaitsReply`) takes the last hand (a table of the last
//!    deal) stopped at its knock as in progress, its defender still to reply.
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
//! scorer calls at the knock) and one hand recorded on the tally; the hand
//! after the last one scored is asked of the tally without being recorded, to
//! learn whether the game had ended or the seating breaks: linear in the
//! record.

use crate::audit::{
    Audit, AuditError, Deal, DealError, HandEnd, Seat, Violation, ViolationCode, scoring_upcard,
};
use crate::card::Card;
use crate::matches::{
    CardHand, CountHand, FormatTally, MatchError, MatchFormat, MatchHand, MatchScore, MatchTally,
    PartnershipDeal, PartnershipScore, PartnershipTally, Player, Players, SeatedHand, Team,
    ThreeScore, ThreeTally,
};
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

/// One hand as recorded (one table of a partnership deal).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedHand {
    /// The name of the player who dealt.
    pub dealer: String,
    /// The name of the other player: optional with two players (it must then
    /// be the other one), required with three players and in partnerships.
    pub non_dealer: Option<String>,
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
    /// The hand's (the deal's) index.
    pub hand: usize,
    /// The table of a partnership deal; `None` for the other formats and for a
    /// fault of the whole deal (`pairing_broken`, `hand_after_game_end`).
    pub table: Option<usize>,
    /// The violation; `action` is `None` for a fault of the whole hand.
    pub violation: Violation,
}

/// The verdict on a match; `S` is the format's score.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchAudit<S> {
    /// Each audited hand's tables (one, or two in a partnership deal), up to
    /// and including the violating hand.
    pub hands: Vec<Vec<Audit>>,
    /// The first violation, if any.
    pub violation: Option<MatchViolation>,
    /// The match scored from the complete legal hands (before the violation).
    pub score: S,
}

impl<S> MatchAudit<S> {
    /// No violation was found (the last hand may still be in progress).
    pub fn is_legal(&self) -> bool {
        self.violation.is_none()
    }
}

/// Why a match cannot be audited at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatchAuditError {
    /// The players, a dealer who is not one of them, or too many hands.
    #[error(transparent)]
    Match(#[from] MatchError),
    /// A deal that cannot be replayed.
    #[error("{}: {error}", at(*hand, *table))]
    Deal {
        /// The hand's index.
        hand: usize,
        /// The table of a partnership deal.
        table: Option<usize>,
        /// Why.
        error: DealError,
    },
    /// A hand of three-player or partnership play that does not name its
    /// non-dealer.
    #[error("{}: a hand with more than two players in the match names its `non_dealer`", at(*hand, *table))]
    NonDealerRequired {
        /// The hand's index.
        hand: usize,
        /// The table of a partnership deal.
        table: Option<usize>,
    },
    /// The referee's own bookkeeping is inconsistent (a bug, never the client's).
    #[error("the referee's own bookkeeping is inconsistent: {0}")]
    Inconsistent(String),
}

fn at(hand: usize, table: Option<usize>) -> String {
    match table {
        Some(table) => format!("hands[{hand}].tables[{table}]"),
        None => format!("hands[{hand}]"),
    }
}

/// How the last hand (a table of the last deal) stopped right after its
/// knock is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LastKnock {
    /// Ended, scored with the defender's best reply: a recorder's record,
    /// whose reply is optional (the audit).
    Completed,
    /// In progress, the defender still to reply (the live state).
    AwaitsReply,
}

/// Whether `end` is a knock that the record `actions` stops right after (no
/// reply recorded).
pub(crate) fn awaits_reply(end: Option<&HandEnd>, actions: &[Action]) -> bool {
    end.and_then(HandEnd::knock)
        .is_some_and(|(_, knock, _)| knock.saturating_add(1) >= actions.len())
}

/// A match format as the match audit and the live match state take it: a
/// [`MatchFormat`] whose deals are recorded hands, one per deal or a
/// partnership's two tables. The crate's three formats are recorded formats.
pub trait RecordedFormat: MatchFormat {
    /// A deal as recorded, as its tables: one hand, or a partnership's two.
    type Deal: AsRef<[RecordedHand]>;
    /// Audits `deals` (see the module docs), the last hand stopped at its
    /// knock taken as `last` says.
    fn audit(&self, profile: &Profile, deals: &[Self::Deal], last: LastKnock) -> Audited<Self>;
}

/// A format's match audit, or why the match cannot be audited at all.
pub type Audited<F> = Result<MatchAudit<<F as MatchFormat>::Score>, MatchAuditError>;

/// A hand of a format with one table a deal is that deal's only table.
impl AsRef<[RecordedHand]> for RecordedHand {
    fn as_ref(&self) -> &[RecordedHand] {
        std::slice::from_ref(self)
    }
}

impl RecordedFormat for Players<String> {
    type Deal = RecordedHand;
    fn audit(&self, profile: &Profile, deals: &[RecordedHand], last: LastKnock) -> Audited<Self> {
        audit_two(profile, self, deals, last)
    }
}

impl RecordedFormat for [String; 3] {
    type Deal = RecordedHand;
    fn audit(&self, profile: &Profile, deals: &[RecordedHand], last: LastKnock) -> Audited<Self> {
        audit_three(profile, self, deals, last)
    }
}

impl RecordedFormat for [Team; 2] {
    type Deal = [RecordedHand; 2];
    fn audit(&self, profile: &Profile, deals: &[Self::Deal], last: LastKnock) -> Audited<Self> {
        audit_partnership(profile, self, deals, last)
    }
}

/// Audits a match of any recorded format, deal by deal and table by table
/// (see the module docs): the seats name the format.
pub fn audit_match<F: RecordedFormat + ?Sized>(
    profile: &Profile,
    seats: &F,
    deals: &[F::Deal],
) -> Result<MatchAudit<F::Score>, MatchAuditError> {
    seats.audit(profile, deals, LastKnock::Completed)
}

/// A two-player match's audit, the last hand stopped at its knock taken as
/// `last_knock` says.
fn audit_two(
    profile: &Profile,
    players: &Players<String>,
    hands: &[RecordedHand],
    last_knock: LastKnock,
) -> Result<MatchAudit<MatchScore>, MatchAuditError> {
    // Validates the names with the scorer's own errors.
    let tally = MatchTally::new(profile, players.clone())?;
    let names = players.clone().into_array();
    let mut replay = Replay::new(profile, &names, hands.len(), last_knock)?;
    let mut previous: Option<(Player, Option<Player>)> = None;
    let mut scored: Vec<MatchHand> = Vec::with_capacity(hands.len());
    for (index, hand) in hands.iter().enumerate() {
        let dealer = match replay.seat(&hand.dealer, index)? {
            0 => Player::First,
            _ => Player::Second,
        };
        if let Some(name) = &hand.non_dealer
            && replay.seat(name, index)? != dealer.other().index()
        {
            return Err(MatchError::SamePlayerTwice {
                hand: index,
                name: name.clone(),
            }
            .into());
        }
        let fault = previous.and_then(|(last, scorer)| {
            wrong_dealer(profile, players, last, scorer, dealer)
                .map(|message| (ViolationCode::WrongDealer, message))
        });
        let Some(end) = replay.table(index, None, hand, fault, index + 1 == hands.len())? else {
            break;
        };
        let (record, scorer) =
            two_player_hand(players, dealer, scoring_upcard(hand.deal.upcard), &end);
        scored.push(record);
        previous = Some((dealer, scorer));
    }
    replay.finish(tally, scored, Some(MatchHand::Void))
}

/// A three-player match's audit, the last hand stopped at its knock taken as
/// `last_knock` says.
fn audit_three(
    profile: &Profile,
    players: &[String; 3],
    hands: &[RecordedHand],
    last_knock: LastKnock,
) -> Result<MatchAudit<ThreeScore>, MatchAuditError> {
    let tally = ThreeTally::new(profile, players.clone())?;
    let mut replay = Replay::new(profile, players, hands.len(), last_knock)?;
    let mut scored: Vec<SeatedHand> = Vec::with_capacity(hands.len());
    for (index, hand) in hands.iter().enumerate() {
        let seats = replay.both_seats(hand, index, None)?;
        let Some(end) = replay.table(index, None, hand, None, index + 1 == hands.len())? else {
            break;
        };
        scored.push(seated_hand(
            players,
            seats,
            scoring_upcard(hand.deal.upcard),
            &end,
        ));
    }
    let probe = match hands.get(scored.len()) {
        Some(next) => Some(void_between(
            players,
            replay.both_seats(next, scored.len(), None)?,
        )),
        None => None,
    };
    replay.finish(tally, scored, probe)
}

/// A partnership match's audit, a table of the last deal stopped at its knock
/// taken as `last_knock` says.
fn audit_partnership(
    profile: &Profile,
    teams: &[Team; 2],
    deals: &[[RecordedHand; 2]],
    last_knock: LastKnock,
) -> Result<MatchAudit<PartnershipScore>, MatchAuditError> {
    let tally = PartnershipTally::new(profile, teams)?;
    let names = Team::seat_order(teams);
    let mut replay = Replay::new(profile, &names, deals.len(), last_knock)?;
    let mut scored: Vec<PartnershipDeal> = Vec::with_capacity(deals.len());
    'deals: for (index, deal) in deals.iter().enumerate() {
        let last = index + 1 == deals.len();
        let mut tables = Vec::with_capacity(2);
        for (table, hand) in deal.iter().enumerate() {
            let seats = replay.both_seats(hand, index, Some(table))?;
            match replay.table(index, Some(table), hand, None, last)? {
                Some(end) => tables.push(seated_hand(
                    &names,
                    seats,
                    scoring_upcard(hand.deal.upcard),
                    &end,
                )),
                None if replay.violation.is_some() => break 'deals,
                // The last deal, in progress at this table.
                None => {}
            }
        }
        if let Ok(tables) = <[SeatedHand; 2]>::try_from(tables) {
            scored.push(PartnershipDeal { tables });
        }
    }
    let probe = match deals.get(scored.len()) {
        Some([one, two]) => Some(PartnershipDeal {
            tables: [
                void_between(&names, replay.both_seats(one, scored.len(), Some(0))?),
                void_between(&names, replay.both_seats(two, scored.len(), Some(1))?),
            ],
        }),
        None => None,
    };
    replay.finish(tally, scored, probe)
}

/// The state of a replay: the tables audited so far, the first violation,
/// and the seeds seen.
struct Replay<'a> {
    profile: &'a Profile,
    names: &'a [String],
    hands: Vec<Vec<Audit>>,
    violation: Option<MatchViolation>,
    /// A table of the last deal stopped before its end (partnership).
    in_progress: bool,
    last_knock: LastKnock,
    seeds: SeedCheck<'a>,
}

impl<'a> Replay<'a> {
    fn new(
        profile: &'a Profile,
        names: &'a [String],
        count: usize,
        last_knock: LastKnock,
    ) -> Result<Self, MatchError> {
        if count > crate::MAX_MATCH_HANDS {
            return Err(MatchError::TooManyHands {
                found: count,
                max: crate::MAX_MATCH_HANDS,
            });
        }
        Ok(Replay {
            profile,
            names,
            hands: Vec::with_capacity(count),
            violation: None,
            in_progress: false,
            last_knock,
            seeds: SeedCheck::default(),
        })
    }

    /// The index of the player `name`.
    fn seat(&self, name: &str, hand: usize) -> Result<usize, MatchError> {
        self.names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| MatchError::UnknownPlayer {
                hand,
                name: name.to_owned(),
            })
    }

    /// The dealer's and the non-dealer's indices, when the hand names both.
    fn both_seats(
        &self,
        hand: &RecordedHand,
        index: usize,
        table: Option<usize>,
    ) -> Result<[usize; 2], MatchAuditError> {
        let non_dealer = hand
            .non_dealer
            .as_deref()
            .ok_or(MatchAuditError::NonDealerRequired { hand: index, table })?;
        let seats = [
            self.seat(&hand.dealer, index)?,
            self.seat(non_dealer, index)?,
        ];
        if seats.first() == seats.get(1) {
            return Err(MatchError::SamePlayerTwice {
                hand: index,
                name: non_dealer.to_owned(),
            }
            .into());
        }
        Ok(seats)
    }

    /// Replays one table: `fault` is a fault of the whole hand found by the
    /// caller (the dealer), the seeds are checked here. The end of the hand
    /// when it is legal and ended; `None` when the replay stops here (a
    /// violation, recorded) or the hand is in progress (`last`).
    fn table(
        &mut self,
        hand: usize,
        table: Option<usize>,
        record: &'a RecordedHand,
        fault: Option<(ViolationCode, String)>,
        last: bool,
    ) -> Result<Option<HandEnd>, MatchAuditError> {
        let fault = fault.or_else(|| self.seeds.check(hand, table, record));
        // A deal that does not match its commitment is judged before any action.
        let replayed = match &fault {
            Some((ViolationCode::DealCommitmentMismatch, _)) => &[][..],
            _ => &record.actions[..],
        };
        let audit = audit_hand(self.profile, &record.deal, replayed).map_err(|e| match e {
            AuditError::Deal(error) => MatchAuditError::Deal { hand, table, error },
            AuditError::Inconsistent(error) => MatchAuditError::Inconsistent(error.to_string()),
        })?;
        let own = audit.violation.clone();
        let end = audit.end.clone();
        match table {
            Some(0) | None => self.hands.push(vec![audit]),
            Some(_) => match self.hands.last_mut() {
                Some(tables) => tables.push(audit),
                None => self.hands.push(vec![audit]),
            },
        }
        let violation = |violation| MatchViolation {
            hand,
            table,
            violation,
        };
        if let Some((code, message)) = fault {
            self.violation = Some(violation(Violation {
                action: None,
                code,
                message,
                field: None,
            }));
            return Ok(None);
        }
        if let Some(own) = own {
            self.violation = Some(violation(own));
            return Ok(None);
        }
        let awaited = last
            && self.last_knock == LastKnock::AwaitsReply
            && awaits_reply(end.as_ref(), replayed);
        if awaited {
            self.in_progress = true;
            return Ok(None);
        }
        if end.is_none() {
            if last {
                self.in_progress = true;
            } else {
                self.violation = Some(violation(Violation {
                    action: None,
                    code: ViolationCode::HandUnfinished,
                    message: format!(
                        "{} stops before the hand ends (no knock, and the stock not down to \
                         its last two cards), yet hands[{}] follows it",
                        at(hand, table),
                        hand + 1
                    ),
                    field: None,
                }));
            }
        }
        Ok(end)
    }

    /// Scores the hands that ended on the format's tally, one at a time; a
    /// hand the tally refuses for its seating or for coming after the end of
    /// the game is the match's violation. `probe` stands for the next recorded
    /// hand (audited, but not ended or not legal): a void hand between its
    /// players, asked of the tally without being recorded.
    fn finish<F: FormatTally>(
        mut self,
        mut tally: F,
        scored: Vec<F::Hand>,
        probe: Option<F::Hand>,
    ) -> Result<MatchAudit<F::Score>, MatchAuditError> {
        let mut found = None;
        for hand in &scored {
            if let Err(error) = tally.record(hand) {
                found = Some(seating_fault(error)?);
                break;
            }
        }
        if found.is_none()
            && scored.len() < self.hands.len()
            && let Some(probe) = probe
            && let Err(error) = tally.admits(&probe)
        {
            found = Some(seating_fault(error)?);
        }
        if let Some((hand, code, error)) = found {
            self.hands.truncate(hand + 1);
            self.violation = Some(MatchViolation {
                hand,
                table: None,
                violation: Violation {
                    action: None,
                    code,
                    message: error.to_string(),
                    field: None,
                },
            });
        }
        Ok(MatchAudit {
            hands: self.hands,
            violation: self.violation,
            score: tally.into_score(),
        })
    }
}

/// A hand the tally refuses for the match's sake (after the end of the game,
/// off the rotation or the pairings) as the violation at that hand; any
/// other refusal is the audit's error.
fn seating_fault(error: MatchError) -> Result<(usize, ViolationCode, MatchError), MatchAuditError> {
    let (hand, code) = match &error {
        MatchError::GameOver { hand, .. } => (*hand, ViolationCode::HandAfterGameEnd),
        MatchError::RotationBroken { hand, .. } => (*hand, ViolationCode::RotationBroken),
        MatchError::PairingBroken { deal, .. } => (*deal, ViolationCode::PairingBroken),
        _ => return Err(error.into()),
    };
    Ok((hand, code, error))
}

/// The seeds of a match's deals: the first seeded deal's commitment and
/// client seed, and the last nonce.
#[derive(Default)]
struct SeedCheck<'a> {
    first: Option<&'a DealSeeds>,
    seen_cards: bool,
    last_nonce: Option<u64>,
}

impl<'a> SeedCheck<'a> {
    fn check(
        &mut self,
        hand: usize,
        table: Option<usize>,
        record: &'a RecordedHand,
    ) -> Option<(ViolationCode, String)> {
        let here = at(hand, table);
        let Some(seeds) = &record.seeds else {
            self.seen_cards = true;
            return self.first.map(|_| {
                (
                    ViolationCode::DealSeedsDiffer,
                    format!("{here} gives its cards, but the match's deals are seeded"),
                )
            });
        };
        if let Some(message) = &seeds.mismatch {
            return Some((ViolationCode::DealCommitmentMismatch, message.clone()));
        }
        match self.first {
            None if self.seen_cards => {
                return Some((
                    ViolationCode::DealSeedsDiffer,
                    format!("{here} is seeded, but the match's earlier deals are not"),
                ));
            }
            None => self.first = Some(seeds),
            Some(first) => {
                if !first.commitment.eq_ignore_ascii_case(&seeds.commitment) {
                    return Some((
                        ViolationCode::DealSeedsDiffer,
                        format!(
                            "{here} is dealt under commitment {}, not the match's {}",
                            seeds.commitment, first.commitment
                        ),
                    ));
                }
                if first.client_seed != seeds.client_seed {
                    return Some((
                        ViolationCode::DealSeedsDiffer,
                        format!("{here} has a client seed other than the match's"),
                    ));
                }
            }
        }
        if let Some(last) = self.last_nonce
            && seeds.nonce <= last
        {
            return Some((
                ViolationCode::DealNonceNotIncreasing,
                format!(
                    "{here} has nonce {}, not more than the previous deal's {last}",
                    seeds.nonce
                ),
            ));
        }
        self.last_nonce = Some(seeds.nonce);
        None
    }
}

/// Who deals the hand after one dealt by `last_dealer`, by the profile's
/// [`NextDealer`] rule: `scorer` is the player who scored points in it
/// (`None` for a void hand or a tie won for 0). The one rule the match audit
/// checks each dealer against and the live state announces.
pub fn next_dealer(profile: &Profile, last_dealer: Player, scorer: Option<Player>) -> Player {
    match (profile.next_dealer(), scorer) {
        (NextDealer::Alternate, _) => last_dealer.other(),
        (NextDealer::Winner, Some(winner)) => winner,
        (NextDealer::Winner, None) => last_dealer,
        (NextDealer::AlternateAfterScored, Some(_)) => last_dealer.other(),
        (NextDealer::AlternateAfterScored, None) => last_dealer,
    }
}

/// The message when `dealer` is not the player the rule seats.
fn wrong_dealer(
    profile: &Profile,
    players: &Players<String>,
    last_dealer: Player,
    scorer: Option<Player>,
    dealer: Player,
) -> Option<String> {
    let expected = next_dealer(profile, last_dealer, scorer);
    let why = match (profile.next_dealer(), scorer) {
        (NextDealer::Alternate, _) => "the deal alternates",
        (NextDealer::Winner, Some(_)) => "the winner of a hand deals the next",
        (NextDealer::Winner | NextDealer::AlternateAfterScored, None) => {
            "after a hand that scores nothing the same dealer deals again"
        }
        (NextDealer::AlternateAfterScored, Some(_)) => "the deal passes after a hand that scores",
    };
    (dealer != expected).then(|| {
        format!(
            "{} dealt, but {} should have ({why})",
            players.get(dealer),
            players.get(expected)
        )
    })
}

/// The knocker's and the winner's seats of a scored hand, whether it scored
/// anything, and the hand as the match scorers take it.
fn knock_seats(end: &HandEnd) -> Option<(Seat, Seat, bool, Scored<'_>)> {
    let (knocker, _, settlement) = end.knock()?;
    let winner = match settlement.winner {
        Side::Knocker => knocker,
        Side::Defender => knocker.other(),
    };
    let scored = match end {
        // A knock the bit-mask twin searched is re-scored from its cards (its hands
        // hold the reply as laid down); one with jokers, whose reply the
        // score holds, from its counts.
        HandEnd::Scored(scored)
            if crate::score::knock_search(&scored.knocker_hand, &scored.defender_hand)
                == crate::layoff::Search::Fastest =>
        {
            Scored::Cards(scored)
        }
        HandEnd::Scored(scored) => Scored::Counts(&scored.score),
        HandEnd::Void { .. } => return None,
    };
    Some((knocker, winner, settlement.points > 0, scored))
}

/// A scored hand as the match scorers take it: the cards of a hand without
/// jokers (re-scored as `/v1/hands/score` scores them), the counts of a hand
/// with jokers (settled by the same rule from the counts the audit found).
enum Scored<'a> {
    Cards(&'a crate::audit::ScoredHand),
    Counts(&'a crate::score::HandScore),
}

impl Scored<'_> {
    fn hand(&self, knocker: String, upcard: Card) -> MatchHand {
        match self {
            Scored::Cards(scored) => MatchHand::Cards(CardHand {
                knocker,
                knocker_hand: scored.knocker_hand.clone(),
                defender_hand: scored.defender_hand.clone(),
                upcard: Some(upcard),
            }),
            Scored::Counts(score) => MatchHand::Counts(CountHand {
                knocker,
                knocker_deadwood: score.showdown.knocker.deadwood,
                defender_deadwood: score.showdown.defender.deadwood(),
                big_gin: score.showdown.big_gin,
                upcard: Some(upcard),
            }),
        }
    }
}

/// A legal ended two-player hand as the scorer takes it, and the player who
/// scored.
fn two_player_hand(
    players: &Players<String>,
    dealer: Player,
    upcard: Card,
    end: &HandEnd,
) -> (MatchHand, Option<Player>) {
    let player = |seat: Seat| match seat {
        Seat::Dealer => dealer,
        Seat::NonDealer => dealer.other(),
    };
    match knock_seats(end) {
        None => (MatchHand::Void, None),
        Some((knocker, winner, scored_points, scored)) => {
            let hand = scored.hand(players.get(player(knocker)).clone(), upcard);
            (hand, scored_points.then_some(player(winner)))
        }
    }
}

/// A legal ended hand between the players at `seats` ([dealer, non-dealer])
/// as the seated scorers take it.
fn seated_hand(names: &[String], seats: [usize; 2], upcard: Card, end: &HandEnd) -> SeatedHand {
    let [dealer, non_dealer] = seats;
    let name = |seat: Seat| {
        let index = match seat {
            Seat::Dealer => dealer,
            Seat::NonDealer => non_dealer,
        };
        names.get(index).cloned().unwrap_or_default()
    };
    match knock_seats(end) {
        None => void_between(names, seats),
        Some((knocker, _, _, scored)) => SeatedHand {
            players: [name(knocker), name(knocker.other())],
            hand: scored.hand(name(knocker), upcard),
        },
    }
}

fn void_between(names: &[String], seats: [usize; 2]) -> SeatedHand {
    let name = |index: usize| names.get(index).cloned().unwrap_or_default();
    let [first, second] = seats;
    SeatedHand {
        players: [name(first), name(second)],
        hand: MatchHand::Void,
    }
}

#[cfg(test)]
mod tests;
