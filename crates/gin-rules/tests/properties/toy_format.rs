//! A fourth match format, defined here and nowhere in the crate: best of
//! three between two players, each hand scored as the two-player format
//! scores it, the match over once a player has won two hands. Everything it
//! needs is public: [`MatchFormat`] names the hand and the tally,
//! [`FormatTally`] feeds it, and [`score_match`] scores it as it scores the
//! formats the crate defines.

use gin_rules::{
    CountHand, FormatTally, MatchError, MatchFormat, MatchHand, MatchTally, Players, Preset,
    Profile, score_match,
};

/// The seats of a best-of-three match: two players.
struct BestOfThree(Players<String>);

/// Its tally: the two-player tally for each hand, and the hands won.
struct BestOfThreeTally<'p> {
    hands: MatchTally<'p>,
    wins: [u32; 2],
}

impl MatchFormat for BestOfThree {
    type Hand = MatchHand;
    type Score = [u32; 2];
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
    type Score = [u32; 2];
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
        let winner = self.hands.hands().last().and_then(|scored| scored.winner);
        if let Some(won) = winner.and_then(|winner| self.wins.get_mut(winner)) {
            *won += 1;
        }
        Ok(())
    }
    fn into_score(self) -> [u32; 2] {
        self.wins
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
    assert_eq!(score_match(&profile, &seats(), &hands), Ok([2, 1]));
}

#[test]
fn the_toy_format_refuses_a_hand_after_its_end_as_the_formats_of_the_crate_do() {
    let profile = Preset::Standard.profile();
    let hands = [knock("Ann", 3, 20), knock("Ann", 0, 12), knock("Bob", 5, 9)];
    assert_eq!(
        score_match(&profile, &seats(), &hands),
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
