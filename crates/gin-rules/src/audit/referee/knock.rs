//! The knock and the defender's reply: the knocker's melds checked and
//! scored, the reply played or checked as declared, and a scorer's refusal
//! turned into a violation ([`score_fault`]).

use super::declarations::declaration;
use super::*;
use crate::StandsFor;

impl Referee<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn knock(
        &mut self,
        index: usize,
        player: Seat,
        discard: Option<HandCard>,
        melds: &Option<Vec<Vec<HandCard>>>,
        jokers: StandsFor,
        taken: Option<HandCard>,
    ) -> Result<(), Stop> {
        let mut kept = self.hand(player);
        if let Some(card) = discard {
            self.check_discard(player, card, taken, "discard")?;
            kept = kept.without(card);
        }
        if let (None, Some((joker, card))) = (melds, jokers.pairs().next()) {
            return violation_at(
                ViolationCode::InvalidMelds,
                format!(
                    "{player}'s knock says {joker} stands for {card}, but declares no melds: a \
                     joker's card is named only for the melds that hold it"
                ),
                "jokers",
            );
        }
        let defender = self.hand(player.other());
        let knocker_hand = KnockerHand {
            hand: kept.cards().collect(),
            melds: melds.clone(),
            jokers: (!jokers.is_empty()).then_some(jokers),
        };
        let defender_hand = DefenderHand::of_cards(defender.cards());
        // Scored as `/v1/hands/score` scores the same hands; the reply is
        // checked when it is played, after the knock.
        let score = score_hand(
            &self.profile,
            Some(self.scoring_upcard()),
            &knocker_hand,
            &defender_hand,
        )
        .map_err(|e| score_fault(e, player, melds.is_some()))?;
        let hand = Box::new(ScoredHand {
            knocker: player,
            knock_action: index,
            knocker_hand,
            defender_hand,
            score,
        });
        if let Some(HandCard::Joker(joker)) = taken
            && self.pickup_must_meld()
            && !hand
                .score
                .showdown
                .knocker
                .melds
                .iter()
                .any(|m| m.stands_for(joker).is_some())
        {
            return Err(joker_not_melded(player, joker, melds.is_some()));
        }
        if let Some(card) = discard {
            self.remove(player, card);
            self.pile.push(card);
        }
        self.phase = Phase::Knocked {
            hand,
            replied: false,
        };
        Ok(())
    }

    /// The defender's declared reply, against the knocker's melds as laid down.
    pub(super) fn reply(
        &mut self,
        melds: &Option<Vec<Vec<HandCard>>>,
        jokers: StandsFor,
        layoffs: &Option<Vec<RecordedLayoff>>,
    ) -> Result<(), Stop> {
        let Phase::Knocked { hand, .. } = &self.phase else {
            return Ok(());
        };
        let hand = Box::new(self.reply_declared(hand, melds, jokers, layoffs)?);
        self.phase = Phase::Knocked {
            hand,
            replied: true,
        };
        Ok(())
    }

    /// The reply to a knock: the knocker's melds as laid down, the
    /// defender's declared parts checked as `/v1/hands/score` checks them
    /// ([`crate::declared_reply`]), the reply searched by the twin the knock
    /// was scored with.
    pub(super) fn reply_declared(
        &self,
        hand: &ScoredHand,
        melds: &Option<Vec<Vec<HandCard>>>,
        jokers: StandsFor,
        layoffs: &Option<Vec<RecordedLayoff>>,
    ) -> Result<ScoredHand, Stop> {
        let knocker = &hand.score.showdown.knocker;
        let declaration =
            declaration(&knocker.melds, melds, jokers, layoffs, hand.knocker.other())?;
        let search = knock_search(&hand.knocker_hand, &hand.defender_hand);
        let score = score_laid_down(
            search,
            &self.profile,
            Some(self.scoring_upcard()),
            hand.knocker_hand.hand.iter().copied().collect(),
            knocker.clone(),
            hand.defender_hand.hand.iter().copied().collect(),
            &declaration.declared,
        )
        .map_err(|e| declaration.locate(score_fault(e, hand.knocker, true)))?;
        if search == Search::Jokers {
            return Ok(ScoredHand {
                score,
                ..hand.clone()
            });
        }
        // A knock searched by the bit-mask twin keeps both hands as laid down, so that the
        // match audit scores it again from its cards as `/v1/hands/score`
        // does: the knocker's melds, the defender's declared melds and its
        // layoffs as played, each onto its meld.
        let shown = |melds: &[Meld]| melds.iter().map(|m| m.shown().collect()).collect();
        let knocker_hand = KnockerHand {
            melds: Some(shown(&knocker.melds)),
            ..hand.knocker_hand.clone()
        };
        let played = score.showdown.defender.layoffs.iter();
        let defender_hand = DefenderHand {
            melds: declaration.declared.melds.clone(),
            layoffs: declaration
                .declared
                .layoffs
                .as_ref()
                .map(|_| played.map(|&l| l.into()).collect()),
            ..hand.defender_hand.clone()
        };
        Ok(ScoredHand {
            knocker_hand,
            defender_hand,
            score,
            ..hand.clone()
        })
    }
}

/// A joker taken from the pile that the knock leaves in deadwood, under a
/// profile where it must be melded that turn.
fn joker_not_melded(player: Seat, joker: Joker, melds_declared: bool) -> Stop {
    let how = if melds_declared {
        "the declared melds leave it out"
    } else {
        "the knocker's best arrangement leaves it out (declare melds holding it to show \
         another)"
    };
    Stop::Violation(
        ViolationCode::JokerNotMelded,
        format!(
            "{player} took {joker} from the discard pile, and under this profile a joker \
             taken from the pile must be melded that turn, but {player} knocked with \
             {joker} in deadwood: {how}"
        ),
        melds_declared.then(|| "melds".to_owned()),
    )
}

/// Turns the scorer's refusal of a knock or a reply into a violation: the
/// code from [`ViolationCode::of_knock`], the words and the field here.
fn score_fault(error: HandError, knocker: Seat, melds_declared: bool) -> Stop {
    // The deal and the replay keep every card in the deck and in one hand
    // only: a fault of the hands themselves is the referee's own.
    let Some(code) = ViolationCode::of_knock(&error) else {
        return Stop::Inconsistent(error.to_string());
    };
    let defender = knocker.other();
    let melds_field = || Some("melds".to_owned());
    let (message, field) = match &error {
        HandError::KnockOverLimit { limit, .. } => {
            let how = if melds_declared {
                "with the declared melds"
            } else {
                "at best"
            };
            // The scorer's own words for the fault, after whose knock it was.
            let gin_only = if *limit == 0 {
                ": only gin may knock"
            } else {
                ""
            };
            (
                format!("{knocker} knocked {how}: {error}{gin_only}"),
                melds_declared.then(melds_field).flatten(),
            )
        }
        HandError::BigGinNotPlayed => (
            format!(
                "{knocker} knocked without discarding, which is big gin (all 11 cards melded), \
                 but this profile does not play big gin: a knock must discard a card"
            ),
            None,
        ),
        HandError::NotBigGin { deadwood } => (
            format!(
                "{knocker} knocked without discarding (big gin), but the 11 cards do not all \
                 meld: {deadwood} deadwood is left"
            ),
            None,
        ),
        HandError::InvalidMelds(faults) => (
            format!(
                "{knocker}'s declared melds are not legal: {}",
                faults_text(faults)
            ),
            first_fault_field(faults),
        ),
        HandError::Reply(ReplyError::Melds(faults)) => (
            format!(
                "{defender}'s declared melds are not legal: {}",
                faults_text(faults)
            ),
            first_fault_field(faults),
        ),
        HandError::Reply(reply) => {
            let field = match reply {
                ReplyError::NotAllowedOnGin { .. } => "layoffs".to_owned(),
                other => format!("layoffs/{}", other.index().unwrap_or_default()),
            };
            (format!("{defender}'s {reply}"), Some(field))
        }
        HandError::WrongCardCount { .. }
        | HandError::Read { .. }
        | HandError::InBothHands { .. }
        | HandError::Profile(_) => (error.to_string(), None),
    };
    Stop::Violation(code, message, field)
}

/// The field of a declaration's first fault, as the scoring problem's first
/// pointer names it (`melds/2/3`): the action's `melds` when none is placed.
fn first_fault_field(faults: &[crate::declared::DeclaredFault]) -> Option<String> {
    Some(
        faults
            .first()
            .map_or_else(|| "melds".to_owned(), |fault| fault.place.pointer_tail()),
    )
}
