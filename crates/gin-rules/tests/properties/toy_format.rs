//! A fourth match format, defined here and nowhere in the crate: best of
//! three between two players, each hand scored as the two-player format
//! scores it, the match over once a player has won two hands. Everything it
//! needs is public: [`MatchFormat`] names the hand and the tally,
//! [`FormatTally`] feeds it, and [`score_match`] scores it as it scores the
//! formats the crate defines; [`RecordedFormat`] and [`LiveFormat`] take it
//! through [`audit_match`] and [`match_state`], here by way of the
//! two-player format's audit.

use gin_rules::{
    Audited, Card, CountHand, Deal, FormatTally, HandCard, LastKnock, LiveFormat, MatchAudit,
    MatchError, MatchFormat, MatchHand, MatchPhase, MatchScore, MatchTally, MatchViewer, Players,
    Preset, Profile, RecordedFormat, RecordedHand, ScoredMatchHand, Seating, audit_match,
    match_state, score_match,
};

/// The seats of a best-of-three match: two players.
struct BestOfThree(Players<String>);

/// Its tally: the two-player tally for each hand, and the hands won.
struct BestOfThreeTally<'p> {
    hands: MatchTally<'p>,
    wins: [u32; 2],
}

/// Its score: the two-player score of the hands, and the hands each won.
#[derive(Debug, PartialEq)]
struct BestOfThreeScore {
    hands: MatchScore,
    wins: [u32; 2],
}

/// The hands each player won, as the scored hands say.
fn wins(hands: &[ScoredMatchHand]) -> [u32; 2] {
    let mut wins = [0, 0];
    for winner in hands.iter().filter_map(|hand| hand.result.winner) {
        wins[winner] += 1;
    }
    wins
}

impl MatchFormat for BestOfThree {
    type Hand = MatchHand;
    type Score = BestOfThreeScore;
    type Tally<'p> = BestOfThreeTally<'p>;
    fn tally<'p>(&self, profile: &'p Profile) -> Result<BestOfThreeTally<'p>, MatchError> {
        Ok(BestOfThreeTally {
            hands: MatchTally::new(profile, self.0.clone())?,
            wins: [0, 0],
        })
    }
}

impl FormatTally for BestOfThreeTally<'_> {
    type Hand = MatchHand;
    type Score = BestOfThreeScore;
    fn reserve(&mut self, more: usize) {
        self.hands.reserve(more);
    }
    fn admits(&self, hand: &MatchHand) -> Result<(), MatchError> {
        let played = self.hands.hands().len();
        if self.wins.contains(&2) {
            return Err(MatchError::GameOver {
                hand: played,
                ended_at: played - 1,
                hollywood: false,
            });
        }
        self.hands.admits(hand)
    }
    fn record(&mut self, hand: &MatchHand) -> Result<(), MatchError> {
        self.admits(hand)?;
        self.hands.record(hand)?;
        let winner = self
            .hands
            .hands()
            .last()
            .and_then(|scored| scored.result.winner);
        if let Some(won) = winner.and_then(|winner| self.wins.get_mut(winner)) {
            *won += 1;
        }
        Ok(())
    }
    fn into_score(self) -> BestOfThreeScore {
        BestOfThreeScore {
            wins: self.wins,
            hands: self.hands.into_score(),
        }
    }
}

impl RecordedFormat for BestOfThree {
    type Deal = RecordedHand;
    fn audit(&self, profile: &Profile, deals: &[RecordedHand], last: LastKnock) -> Audited<Self> {
        let audit = self.0.audit(profile, deals, last)?;
        Ok(MatchAudit {
            hands: audit.hands,
            violation: audit.violation,
            score: BestOfThreeScore {
                wins: wins(&audit.score.hands),
                hands: audit.score,
            },
        })
    }
}

impl LiveFormat for BestOfThree {
    fn names(&self, hand: &RecordedHand) -> (String, String) {
        self.0.names(hand)
    }
    fn next_seating(
        &self,
        profile: &Profile,
        deals: &[RecordedHand],
        score: &BestOfThreeScore,
    ) -> Option<Seating> {
        self.0.next_seating(profile, deals, &score.hands)
    }
    fn complete(score: &BestOfThreeScore) -> bool {
        score.wins.contains(&2) || score.hands.complete
    }
}

fn knock(knocker: &str, knocker_deadwood: u32, defender_deadwood: u32) -> MatchHand {
    MatchHand::Counts(CountHand {
        knocker: knocker.into(),
        knocker_deadwood,
        defender_deadwood,
        big_gin: false,
        upcard: None,
    })
}

fn seats() -> BestOfThree {
    BestOfThree(Players::new("Ann".into(), "Bob".into()))
}

#[test]
fn a_format_defined_outside_the_crate_is_scored_by_score_match() {
    let profile = Preset::Standard.profile();
    // Ann knocks and wins, Bob goes gin, Ann knocks and wins again.
    let hands = [knock("Ann", 3, 20), knock("Bob", 0, 12), knock("Ann", 5, 9)];
    let score = score_match(&profile, &seats(), &hands).unwrap();
    assert_eq!(score.wins, [2, 1]);
}

#[test]
fn the_toy_format_refuses_a_hand_after_its_end_as_the_formats_of_the_crate_do() {
    let profile = Preset::Standard.profile();
    let hands = [knock("Ann", 3, 20), knock("Ann", 0, 12), knock("Bob", 5, 9)];
    assert_eq!(
        score_match(&profile, &seats(), &hands).map(|score| score.wins),
        Err(MatchError::GameOver {
            hand: 2,
            ended_at: 1,
            hollywood: false
        })
    );
}

#[test]
fn the_toy_format_refuses_what_its_hands_scorer_refuses() {
    let profile = Preset::Standard.profile();
    let hands = [knock("Cy", 3, 20)];
    let refused = score_match(&profile, &seats(), &hands);
    assert!(
        matches!(refused, Err(MatchError::UnknownPlayer { hand: 0, .. })),
        "{refused:?}"
    );
}

/// Ann deals the deck in its order; nothing is played yet.
fn first_hand() -> RecordedHand {
    let cards: Vec<HandCard> = Card::deck().map(HandCard::from).collect();
    RecordedHand {
        dealer: "Ann".into(),
        non_dealer: None,
        deal: Deal {
            dealer: cards[0..10].to_vec(),
            non_dealer: cards[10..20].to_vec(),
            upcard: cards[20],
            stock: cards[21..].to_vec(),
        },
        seeds: None,
        actions: Vec::new(),
    }
}

#[test]
fn the_toy_format_is_audited_and_followed_live_through_the_one_entry_of_each() {
    let profile = Preset::Standard.profile();
    let hands = [first_hand()];
    let audit = audit_match(&profile, &seats(), &hands).unwrap();
    assert!(audit.is_legal());
    assert_eq!(audit.score.wins, [0, 0]);
    let state = match_state(&profile, &seats(), &hands, MatchViewer::Spectator).unwrap();
    assert_eq!(state.phase, MatchPhase::Play);
    assert_eq!(state.tables.len(), 1);
    assert_eq!(state.score.wins, [0, 0]);
}
