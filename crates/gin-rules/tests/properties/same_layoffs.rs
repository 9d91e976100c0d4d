//! Every public entry that lays off gives the same layoffs in the same order
//! for the same hands: [`score_hand`], [`score_laid_down`] of the arrangement
//! it chose, [`best_reply`] and [`declared_reply`] of that arrangement's
//! melds, the audit of a transcript ending in the same knock (the knock, then
//! the reply played best), and the live state's listed best reply. Hands
//! with and without jokers, so that both twins of the reply search run.
//!
//! [`best_reply`] and [`declared_reply`] see the knocker's melds only: they
//! are compared where the knocker's deadwood holds no joker, since a joker
//! there is part of what a knock shows (`Search::for_knock`) and those two
//! entries are not given it.

use proptest::prelude::*;

use gin_rules::strategies::*;
use gin_rules::*;

/// A knock of `knocker` against `defender` under the standard or the joker
/// profile, jokers swapped in for up to two of the cards under the latter,
/// and a natural card the knocker draws and discards, the rest the stock.
#[derive(Debug, Clone)]
struct Knock {
    profile: Profile,
    knocker: Vec<HandCard>,
    defender: Vec<HandCard>,
    discard: HandCard,
    stock: Vec<HandCard>,
}

fn knock() -> impl Strategy<Value = Knock> {
    (
        meldy_hand(10),
        Just(deck()).prop_shuffle(),
        proptest::collection::vec(0usize..20, 0..=2),
    )
        .prop_map(|(knocker, shuffled, jokers)| {
            let rest: Vec<HandCard> = shuffled
                .into_iter()
                .filter(|card| !knocker.contains(*card))
                .map(HandCard::from)
                .collect();
            let mut table: Vec<HandCard> = knocker.iter().map(HandCard::from).collect();
            table.extend(rest.iter().take(10).copied());
            let mut stock: Vec<HandCard> = rest.iter().skip(10).copied().collect();
            let with_jokers = !jokers.is_empty();
            for (place, joker) in jokers.into_iter().zip([Joker::X1, Joker::X2]) {
                if let Some(card) = table.get_mut(place) {
                    stock.push(*card);
                    *card = HandCard::Joker(joker);
                }
            }
            let preset = if with_jokers {
                Preset::Jokers
            } else {
                Preset::Standard
            };
            let discard = stock.remove(0);
            let (knocker, defender) = table.split_at(10);
            Knock {
                profile: preset.profile(),
                knocker: knocker.to_vec(),
                defender: defender.to_vec(),
                discard,
                stock,
            }
        })
}

fn hand(cards: &[HandCard]) -> Hand {
    cards.iter().copied().collect()
}

impl Knock {
    /// The non-dealer takes a natural upcard it holds, then knocks
    /// discarding the card dealt in its place: it knocks with `knocker`.
    fn transcript(&self) -> Option<(Deal, Vec<Action>)> {
        let upcard = *self.knocker.iter().find(|card| card.natural().is_some())?;
        let mut dealt: Vec<HandCard> = self
            .knocker
            .iter()
            .copied()
            .filter(|&c| c != upcard)
            .collect();
        dealt.push(self.discard);
        let deal = Deal {
            dealer: self.defender.clone(),
            non_dealer: dealt,
            upcard,
            stock: self.stock.clone(),
        };
        let actions = vec![
            Action {
                player: Seat::NonDealer,
                play: Move::Draw {
                    from: Source::DiscardPile,
                    card: Some(upcard),
                },
            },
            Action {
                player: Seat::NonDealer,
                play: Move::Knock {
                    discard: Some(self.discard),
                    melds: None,
                    jokers: StandsFor::default(),
                },
            },
        ];
        Some((deal, actions))
    }
}

fn best_played() -> Action {
    Action {
        player: Seat::Dealer,
        play: Move::LayOff {
            melds: None,
            jokers: StandsFor::default(),
            layoffs: None,
        },
    }
}

fn recorded(layoffs: &[Layoff]) -> Vec<RecordedLayoff> {
    layoffs.iter().copied().map(RecordedLayoff::from).collect()
}

fn scored_layoffs(audit: &Audit) -> Option<Vec<Layoff>> {
    match &audit.end {
        Some(HandEnd::Scored(hand)) => Some(hand.score.showdown.defender.layoffs.clone()),
        _ => None,
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn every_entry_that_lays_off_gives_the_same_layoffs_in_the_same_order(knock in knock()) {
        let profile = &knock.profile;
        let Some((deal, mut actions)) = knock.transcript() else {
            return Ok(());
        };
        let upcard = deal.upcard.natural();
        let scored = score_hand(
            profile,
            upcard,
            &KnockerHand::of_cards(knock.knocker.iter().copied()),
            &DefenderHand::of_cards(knock.defender.iter().copied()),
        );
        // A knock over the limit lays nothing off.
        let Ok(scored) = scored else {
            return Ok(());
        };
        let showdown = &scored.showdown;
        let layoffs = &showdown.defender.layoffs;
        let defender = hand(&knock.defender);

        let laid_down = score_laid_down(
            profile,
            upcard,
            hand(&knock.knocker),
            showdown.knocker.clone(),
            defender,
            &DeclaredReply::default(),
        )
        .unwrap();
        prop_assert_eq!(&laid_down.showdown.defender.layoffs, layoffs);

        // A joker map named but empty (a client that always sends one) names
        // no joker: the same hands, the same layoffs.
        let named = |cards: &[HandCard]| {
            let mut knocker = KnockerHand::of_cards(cards.iter().copied());
            knocker.jokers = Some(StandsFor::default());
            knocker
        };
        let mut empty_map = DefenderHand::of_cards(knock.defender.iter().copied());
        empty_map.jokers = Some(StandsFor::default());
        let mapped = score_hand(profile, upcard, &named(&knock.knocker), &empty_map).unwrap();
        prop_assert_eq!(&mapped.showdown.defender.layoffs, layoffs);

        if showdown.knocker.deadwood_jokers.is_empty() {
            let rules = profile.joker_rules();
            let allowed = showdown.knocker.deadwood > 0 || profile.layoffs_on_gin();
            let melds = &showdown.knocker.melds;
            let best = best_reply(melds, defender, &rules, allowed);
            prop_assert_eq!(&best.layoffs, layoffs);
            let declared =
                declared_reply(melds, defender, &DeclaredReply::default(), &rules, allowed).unwrap();
            prop_assert_eq!(&declared.layoffs, layoffs);
        }

        let knocked = audit_hand(profile, &deal, &actions).unwrap();
        prop_assert!(knocked.is_legal(), "{:?}", knocked.violation);
        prop_assert_eq!(scored_layoffs(&knocked), Some(layoffs.clone()));

        let state = hand_state(profile, &deal, &actions, None).unwrap();
        let listed = state.legal_actions.iter().find(|a| a.kind == LegalKind::BestReply);
        let listed_layoffs = listed.and_then(|a| match &a.action.play {
            Move::LayOff { layoffs, .. } => layoffs.clone(),
            _ => None,
        });
        prop_assert_eq!(listed_layoffs, Some(recorded(layoffs)));

        actions.push(best_played());
        let replied = audit_hand(profile, &deal, &actions).unwrap();
        prop_assert!(replied.is_legal(), "{:?}", replied.violation);
        prop_assert_eq!(scored_layoffs(&replied), Some(layoffs.clone()));
    }
}
