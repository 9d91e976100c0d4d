//! Where a match stands between its hands: over, or who deals next.
//!
//! Without jokers it is the rules' own match tally
//! ([`MatchTally`](gin_rules::MatchTally)), fed each hand's counts as the
//! match audit feeds it, and [`gin_rules::next_dealer`]: one step per hand.
//! With jokers in the deck, where the audit alone knows what a joker upcard
//! counts as, it is [`gin_rules::match_state`] over the whole record, the
//! match audit itself, once per hand. Either way `arena verify` and the
//! tests audit every record afterwards.

use gin_rules::{
    CountHand, HandCard, HandEnd, LiveHand, MatchHand, MatchPhase, MatchScore, MatchTally,
    MatchViewer, Player, Players, Profile, RecordedHand, Seat, Seating, Side,
};

/// After a hand: the next dealer (0 or 1), or the match is over.
pub enum Next {
    Deal(usize),
    Over,
}

pub enum Standing<'p> {
    Tally(Box<MatchTally<'p>>),
    Record(Vec<RecordedHand>, Option<Box<MatchScore>>),
}

fn player(index: usize) -> Player {
    if index == 0 {
        Player::First
    } else {
        Player::Second
    }
}

impl<'p> Standing<'p> {
    pub fn new(profile: &'p Profile, names: &Players<String>) -> Option<Standing<'p>> {
        if profile.jokers() > 0 {
            // The score of no hand, as the match audit gives it.
            let none = gin_rules::match_state(profile, names, &[], MatchViewer::Referee).ok()?;
            return Some(Standing::Record(Vec::new(), Some(Box::new(none.score))));
        }
        MatchTally::new(profile, names.clone())
            .ok()
            .map(|tally| Standing::Tally(Box::new(tally)))
    }

    /// Enters the hand `live`, dealt by `dealer`; `None` if the rules refuse
    /// it (which a hand played by the referee's own listing cannot be).
    pub fn after(
        &mut self,
        profile: &Profile,
        names: &Players<String>,
        dealer: usize,
        live: &LiveHand,
    ) -> Option<Next> {
        match self {
            Standing::Tally(tally) => {
                let (hand, scorer) = counts(names, dealer, live)?;
                tally.record(&hand).ok()?;
                if tally.is_complete() {
                    return Some(Next::Over);
                }
                let next = gin_rules::next_dealer(profile, player(dealer), scorer.map(player));
                Some(Next::Deal(usize::from(next == Player::Second)))
            }
            Standing::Record(recorded, score) => {
                let [a, b] = names.clone().into_array();
                let (dealer_name, other) = if dealer == 0 {
                    (a.clone(), b)
                } else {
                    (b, a.clone())
                };
                recorded.push(RecordedHand {
                    dealer: dealer_name,
                    non_dealer: Some(other),
                    deal: live.deal().clone(),
                    seeds: None,
                    actions: live.actions().to_vec(),
                });
                let now =
                    gin_rules::match_state(profile, names, recorded, MatchViewer::Referee).ok()?;
                let next = now.next_deal.as_ref().map(|next| next.seating.clone());
                *score = Some(Box::new(now.score));
                match (now.phase, next) {
                    (MatchPhase::Deal, Some(Seating::Two { dealer: next, .. })) => {
                        Some(Next::Deal(usize::from(next != a)))
                    }
                    (MatchPhase::Deal, _) => Some(Next::Deal(1 - dealer)),
                    _ => Some(Next::Over),
                }
            }
        }
    }

    /// The match scored from the hands entered.
    pub fn score(&self) -> Option<MatchScore> {
        match self {
            Standing::Tally(tally) => Some(tally.score()),
            Standing::Record(_, score) => score.as_deref().cloned(),
        }
    }
}

/// A finished joker-free hand as the match audit enters it (the counts after
/// the reply), and the player who scored (none for a void hand or one that
/// scores nothing).
fn counts(
    names: &Players<String>,
    dealer: usize,
    live: &LiveHand,
) -> Option<(MatchHand, Option<usize>)> {
    let seat = |seat: Seat| match seat {
        Seat::Dealer => dealer,
        Seat::NonDealer => 1 - dealer,
    };
    match live.end()? {
        HandEnd::Void { .. } => Some((MatchHand::Void, None)),
        HandEnd::Scored(scored) => {
            let knocker = seat(scored.knocker);
            let settlement = &scored.score.settlement;
            let winner = match settlement.winner {
                Side::Knocker => knocker,
                Side::Defender => 1 - knocker,
            };
            let upcard = match live.deal().upcard {
                HandCard::Natural(card) => Some(card),
                HandCard::Joker(_) => None,
            };
            let hand = MatchHand::Counts(CountHand {
                knocker: names.get(player(knocker)).clone(),
                knocker_deadwood: scored.score.showdown.knocker.deadwood,
                defender_deadwood: scored.score.showdown.defender.deadwood(),
                big_gin: scored.score.showdown.big_gin,
                upcard,
            });
            Some((hand, (settlement.points > 0).then_some(winner)))
        }
    }
}
