//! The knock and the defender's reply: the knocker's melds checked and
//! scored, the reply played or checked as declared, and a scorer's refusal
//! turned into a violation ([`score_fault`]).

use super::declarations::{declaration, naturals_of, resolve_layoffs};
use super::*;

impl Referee<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn knock(
        &mut self,
        index: usize,
        player: Seat,
        discard: Option<HandCard>,
        melds: &Option<Vec<Vec<HandCard>>>,
        jokers: &[(Joker, Card)],
        taken: Option<HandCard>,
    ) -> Result<(), Stop> {
        let mut kept = self.hand(player);
        if let Some(card) = discard {
            self.check_discard(player, card, taken, "discard")?;
            kept = kept.without(card);
        }
        if let (None, Some(&(joker, card))) = (melds, jokers.first()) {
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
            jokers: (!jokers.is_empty()).then(|| jokers.to_vec()),
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
            let how = if melds.is_some() {
                "the declared melds leave it out"
            } else {
                "the knocker's best arrangement leaves it out (declare melds holding it to show \
                 another)"
            };
            return Err(Stop::Violation(
                ViolationCode::JokerNotMelded,
                format!(
                    "{player} took {joker} from the discard pile, and under this profile a joker \
                     taken from the pile must be melded that turn, but {player} knocked with \
                     {joker} in deadwood: {how}"
                ),
                melds.is_some().then(|| "melds".to_owned()),
            ));
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
        jokers: &[(Joker, Card)],
        layoffs: &Option<Vec<RecordedLayoff>>,
    ) -> Result<(), Stop> {
        let Phase::Knocked { hand, .. } = &self.phase else {
            return Ok(());
        };
        let hand = match joker_free(&hand.knocker_hand, &hand.defender_hand) {
            Some(_) => {
                let names_joker = melds
                    .iter()
                    .flatten()
                    .flatten()
                    .chain(layoffs.iter().flatten().map(|l| &l.card))
                    .any(|c| matches!(c, HandCard::Joker(_)));
                // A natural card said to stand for another.
                let stands_elsewhere = layoffs
                    .iter()
                    .flatten()
                    .any(|l| l.stands_for.is_some_and(|c| HandCard::Natural(c) != l.card));
                if names_joker || stands_elsewhere || !jokers.is_empty() {
                    // No hand holds a joker: the checks with jokers find the
                    // fault (a joker not held, a natural standing for another).
                    self.reply_check(hand, melds, jokers, layoffs)?;
                }
                Box::new(self.reply_natural(hand, melds, layoffs)?)
            }
            None => Box::new(self.reply_with_jokers(hand, melds, jokers, layoffs)?),
        };
        self.phase = Phase::Knocked {
            hand,
            replied: true,
        };
        Ok(())
    }

    /// The reply to a knock without jokers, as the joker-free scoring checks
    /// it: the knocker's melds as laid down, the recorded layoffs placed onto
    /// them ([`resolve_layoffs`]).
    pub(super) fn reply_natural(
        &self,
        hand: &ScoredHand,
        melds: &Option<Vec<Vec<HandCard>>>,
        layoffs: &Option<Vec<RecordedLayoff>>,
    ) -> Result<ScoredHand, Stop> {
        let knocker = hand.knocker;
        let knocker_melds = &hand.score.showdown.knocker.melds;
        let knocker_hand = KnockerHand {
            hand: hand.knocker_hand.hand.clone(),
            melds: Some(
                knocker_melds
                    .iter()
                    .map(|m| m.cards().iter().map(HandCard::Natural).collect())
                    .collect(),
            ),
            jokers: None,
        };
        let natural_melds = melds.as_ref().map(|melds| naturals_of(melds));
        let held: Vec<Card> = hand
            .defender_hand
            .hand
            .iter()
            .filter_map(|c| c.natural())
            .collect();
        let layoffs = match layoffs {
            Some(recorded) => Some(resolve_layoffs(
                knocker_melds,
                recorded,
                &held,
                natural_melds.as_deref(),
                knocker.other(),
            )?),
            None => None,
        };
        let defender_hand = DefenderHand {
            hand: hand.defender_hand.hand.clone(),
            melds: natural_melds.map(|melds| {
                melds
                    .into_iter()
                    .map(|meld| meld.into_iter().map(HandCard::Natural).collect())
                    .collect()
            }),
            jokers: None,
            layoffs,
        };
        let score = score_hand(
            &self.profile,
            Some(self.scoring_upcard()),
            &knocker_hand,
            &defender_hand,
        )
        .map_err(|e| score_fault(e, knocker, true))?;
        Ok(ScoredHand {
            knocker,
            knock_action: hand.knock_action,
            knocker_hand,
            defender_hand,
            score,
        })
    }

    /// The reply to a knock with jokers: the knocker's melds as laid down,
    /// the defender's declared parts checked ([`crate::declared_reply`]).
    pub(super) fn reply_with_jokers(
        &self,
        hand: &ScoredHand,
        melds: &Option<Vec<Vec<HandCard>>>,
        jokers: &[(Joker, Card)],
        layoffs: &Option<Vec<RecordedLayoff>>,
    ) -> Result<ScoredHand, Stop> {
        let knocker = &hand.score.showdown.knocker;
        let declaration =
            declaration(&knocker.melds, melds, jokers, layoffs, hand.knocker.other())?;
        let score = score_laid_down(
            &self.profile,
            Some(self.scoring_upcard()),
            hand.knocker_hand.hand.iter().copied().collect(),
            knocker.clone(),
            hand.defender_hand.hand.iter().copied().collect(),
            &declaration.declared,
        )
        .map_err(|e| declaration.locate(score_fault(e, hand.knocker, true)))?;
        Ok(ScoredHand {
            score,
            ..hand.clone()
        })
    }

    /// Checks a reply naming a joker to a knock where no hand holds one: the
    /// fault the checks with jokers find.
    pub(super) fn reply_check(
        &self,
        hand: &ScoredHand,
        melds: &Option<Vec<Vec<HandCard>>>,
        jokers: &[(Joker, Card)],
        layoffs: &Option<Vec<RecordedLayoff>>,
    ) -> Result<(), Stop> {
        let knocker = hand.knocker;
        let arrangement = &hand.score.showdown.knocker;
        let declaration = declaration(&arrangement.melds, melds, jokers, layoffs, knocker.other())?;
        let rules = self.profile.joker_rules();
        let layoffs_allowed = arrangement.deadwood > 0 || self.profile.layoffs_on_gin();
        declared_reply(
            &arrangement.melds,
            hand.defender_hand.hand.iter().copied().collect::<Hand>(),
            &declaration.declared,
            &rules,
            layoffs_allowed,
        )
        .map(|_| ())
        .map_err(|e| declaration.locate(score_fault(e.into(), knocker, true)))
    }
}

/// Turns the scorer's refusal of a knock or a reply into a violation.
fn score_fault(error: HandError, knocker: Seat, melds_declared: bool) -> Stop {
    let defender = knocker.other();
    let melds_field = Some("melds".to_owned());
    let (code, message, field) = match &error {
        HandError::KnockOverLimit { deadwood, limit } => {
            let how = if melds_declared {
                "with the declared melds"
            } else {
                "at best"
            };
            let limit_text = if *limit == 0 {
                "the knock limit is 0: only gin may knock".to_owned()
            } else {
                format!("the knock limit is {limit}")
            };
            (
                ViolationCode::KnockOverLimit,
                format!("{knocker} knocked with {deadwood} deadwood {how}, but {limit_text}"),
                if melds_declared { melds_field } else { None },
            )
        }
        HandError::InvalidMelds { side, report } => {
            let seat = match side {
                crate::score::Side::Knocker => knocker,
                crate::score::Side::Defender => defender,
            };
            (
                ViolationCode::InvalidMelds,
                format!(
                    "{seat}'s declared melds are not legal: {}",
                    arrangement_faults(report)
                ),
                melds_field,
            )
        }
        HandError::BigGinNotPlayed => (
            ViolationCode::BigGinNotAllowed,
            format!(
                "{knocker} knocked without discarding, which is big gin (all 11 cards melded), \
                 but this profile does not play big gin: a knock must discard a card"
            ),
            None,
        ),
        HandError::NotBigGin { deadwood } => (
            ViolationCode::NotBigGin,
            format!(
                "{knocker} knocked without discarding (big gin), but the 11 cards do not all \
                 meld: {deadwood} deadwood is left"
            ),
            None,
        ),
        HandError::DeclaredMeldFaults(faults) => (
            ViolationCode::InvalidMelds,
            format!(
                "{knocker}'s declared melds are not legal: {}",
                faults_text(faults)
            ),
            melds_field,
        ),
        HandError::Reply(ReplyError::Melds(faults)) => (
            ViolationCode::InvalidMelds,
            format!(
                "{defender}'s declared melds are not legal: {}",
                faults_text(faults)
            ),
            melds_field,
        ),
        HandError::Reply(reply) => {
            let code = match reply {
                ReplyError::NotAllowedOnGin { .. } => ViolationCode::LayoffsNotAllowed,
                ReplyError::CardNotHeld { .. } | ReplyError::CardNotInHand { .. } => {
                    ViolationCode::LayoffCardNotInHand
                }
                ReplyError::AlreadyLaidOff { .. } => ViolationCode::LayoffCardRepeated,
                ReplyError::NoSuchMeld { .. } => ViolationCode::LayoffMeldNotFound,
                ReplyError::Melds(_)
                | ReplyError::StandsFor { .. }
                | ReplyError::JokerLayoffNotAllowed { .. }
                | ReplyError::DoesNotFit { .. } => ViolationCode::LayoffDoesNotFit,
            };
            let field = match reply {
                ReplyError::NotAllowedOnGin { .. } => "layoffs".to_owned(),
                other => format!("layoffs/{}", other.index().unwrap_or_default()),
            };
            (code, format!("{defender}'s {reply}"), Some(field))
        }
        // The deal and the replay keep every card in the deck and in one hand
        // only.
        HandError::DuplicateCard { .. }
        | HandError::WrongCardCount { .. }
        | HandError::Read { .. }
        | HandError::InBothHands { .. }
        | HandError::Profile(_) => return Stop::Inconsistent(error.to_string()),
    };
    Stop::Violation(code, message, field)
}

/// Every fault of a declared arrangement, in one line.
fn arrangement_faults(report: &ArrangementReport) -> String {
    let mut faults: Vec<String> = Vec::new();
    for (index, verdict) in report.melds.iter().enumerate() {
        for problem in &verdict.problems {
            let cards: Vec<String> = verdict.cards.iter().map(Card::to_string).collect();
            faults.push(format!(
                "meld {index} ({}): {}",
                cards.join(" "),
                problem.message
            ));
        }
    }
    faults.extend(report.problems.iter().map(|p| p.message()));
    faults.join("; ")
}
