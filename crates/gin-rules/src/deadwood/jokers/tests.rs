use super::*;
use crate::card::{Card, cards};
use crate::declared::{DeclaredFaultCode, DeclaredMelds, DeclaredPlace, declared_arrangement};
use crate::hand::{HandCard, HandReadFault, parse_hand};
use crate::layoff::Search;
use crate::layoff::jokers::best_reply;
use crate::layoff::{DeclaredLayoff, DeclaredReply, DefenderReply};
use crate::meld::MeldProblemCode;
use crate::score::knock::{self as score, score_knock};
use crate::score::score_cards;

fn hand(text: &str) -> Hand {
    parse_hand(text).unwrap()
}

fn rules(min_natural: u8, joker_deadwood: u8) -> JokerRules {
    JokerRules::new(2, joker_deadwood, min_natural).unwrap()
}

fn card(text: &str) -> Card {
    text.parse().unwrap()
}

fn melds_text(arrangement: &Arrangement) -> Vec<String> {
    arrangement.melds.iter().map(|m| m.to_string()).collect()
}

#[test]
fn a_joker_bridges_a_gap_in_a_run() {
    let best = best_arrangement(hand("5H X1 7H KS QD 2C"), &JokerRules::TWO_JOKERS);
    assert_eq!(best.deadwood, 22);
    assert_eq!(melds_text(&best), ["5H X1=6H 7H"]);
    assert_eq!(best.melds[0].stands_for(Joker::X1), Some(card("6H")));
}

#[test]
fn a_joker_is_a_sets_fourth_card() {
    let best = best_arrangement(hand("7S 7H 7D X1 KC"), &JokerRules::TWO_JOKERS);
    assert_eq!(best.deadwood, 10);
    assert_eq!(melds_text(&best), ["7S 7H 7D X1=7C"]);
    // With three suits missing, the joker stands for the lowest missing suit.
    let best = best_arrangement(hand("7S 7C X1"), &JokerRules::TWO_JOKERS);
    assert_eq!(melds_text(&best), ["7S X1=7H 7C"]);
}

#[test]
fn a_joker_does_not_break_a_run_when_it_can_extend_it() {
    // Three naturals per meld: the fours would need 4H, which the run keeps.
    let best = best_arrangement(hand("4S 4D 4H 5H 6H X1"), &rules(3, 15));
    assert_eq!(best.deadwood, 8);
    assert_eq!(melds_text(&best), ["4H 5H 6H X1=7H"]);
}

#[test]
fn a_joker_that_gains_nothing_stays_out() {
    // A joker worth nothing in deadwood: melding it gains nothing, and the
    // documented order keeps it out.
    let best = best_arrangement(hand("5H 6H 7H KS X1"), &rules(2, 0));
    assert_eq!(best.deadwood, 10);
    assert_eq!(melds_text(&best), ["5H 6H 7H"]);
    assert_eq!(best.deadwood_jokers.iter().collect::<Vec<_>>(), [Joker::X1]);
}

#[test]
fn two_jokers_in_one_run() {
    let best = best_arrangement(hand("5H X1 X2 8H 9C"), &JokerRules::TWO_JOKERS);
    assert_eq!(best.deadwood, 9);
    assert_eq!(melds_text(&best), ["5H X1=6H X2=7H 8H"]);
}

#[test]
fn a_meld_of_one_natural_and_two_jokers_needs_joker_min_natural_1() {
    let h = hand("5H X1 X2 KS");
    assert_eq!(min_deadwood(h, &rules(2, 15)), 5 + 10 + 30);
    // With one natural enough, the jokers make KS a set and 5H stays out.
    assert_eq!(min_deadwood(h, &rules(1, 15)), 5);
    // Three jokers never meld alone, and a joker pair is no meld.
    assert_eq!(min_deadwood(hand("X1 X2"), &rules(1, 25)), 50);
}

#[test]
fn melds_stand_for_distinct_cards() {
    // Two sets of twos from 2S 2H X1 and 2D 2C X2 are no arrangement: each
    // joker would stand for a two the other set holds. The best shows each
    // two once: 2H 2C and the jokers standing for the two cheapest... all
    // twos, so two of them stay out (2 + 2) rather than a joker (15).
    let h = hand("2S 2H 2D 2C X1 X2");
    assert_eq!(min_deadwood(h, &rules(2, 15)), 4);
    let best = best_arrangement(h, &rules(2, 15));
    assert_eq!(best.deadwood, 4);
    assert_eq!(best.melds.len(), 1);
    assert_eq!(best.melded(), cards("2S 2H 2D 2C").unwrap());
    // With jokers worth nothing out, the natural set of four and both jokers out.
    assert_eq!(min_deadwood(h, &rules(2, 0)), 0);
}

#[test]
fn a_joker_may_stand_for_a_card_held_as_deadwood() {
    // Four fives and a joker: the joker cannot be a fifth five, so it stands
    // for the five of spades and the five of spades is deadwood (5 < 15).
    let best = best_arrangement(hand("5S 5H 5D 5C X1"), &JokerRules::TWO_JOKERS);
    assert_eq!(best.deadwood, 5);
    assert_eq!(best.deadwood_cards, cards("5S").unwrap());
    assert_eq!(best.melds[0].stands_for(Joker::X1), Some(card("5S")));
}

#[test]
fn a_run_ends_at_the_king_and_the_ace() {
    let best = best_arrangement(hand("QH KH X1"), &JokerRules::TWO_JOKERS);
    assert_eq!(melds_text(&best), ["JH QH KH"].map(|_| "X1=JH QH KH"));
    let best = best_arrangement(hand("AH 2H X1"), &JokerRules::TWO_JOKERS);
    assert_eq!(melds_text(&best), ["AH 2H X1=3H"]);
}

#[test]
fn eleven_cards_list_both_jokers_when_both_are_best() {
    let drawn = analyze_drawn_hand(
        hand("5H 6H 7H 8H 9S 9D 9C KC KD KS X1 X2").without(HandCard::Natural(card("8H"))),
        &JokerRules::TWO_JOKERS,
    );
    let listed: Vec<String> = drawn.discards.iter().map(|d| d.card.to_string()).collect();
    assert_eq!(drawn.deadwood, 0);
    assert!(
        listed.contains(&"X1".to_string()) && listed.contains(&"X2".to_string()),
        "{listed:?}"
    );
}

#[test]
fn every_optimal_arrangement_is_listed_once_with_each_joker_order() {
    let all = optimal_arrangements(hand("5H 7H X1 X2 KS"), &JokerRules::TWO_JOKERS);
    assert!(all.iter().all(|a| a.deadwood == 10));
    let texts: Vec<Vec<String>> = all.iter().map(melds_text).collect();
    assert!(
        texts.contains(&vec!["5H X1=6H 7H X2=8H".to_string()]),
        "{texts:?}"
    );
    assert!(
        texts.contains(&vec!["5H X2=6H 7H X1=8H".to_string()]),
        "{texts:?}"
    );
    assert!(
        texts.contains(&vec!["X1=4H 5H X2=6H 7H".to_string()]),
        "{texts:?}"
    );
    let best = best_arrangement(hand("5H 7H X1 X2 KS"), &JokerRules::TWO_JOKERS);
    assert!(all.contains(&best));
}

fn joker_meld(naturals: &str, jokers: &[(Joker, &str)]) -> Meld {
    let jokers: Vec<(Joker, Card)> = jokers.iter().map(|&(j, c)| (j, card(c))).collect();
    Meld::with_jokers(cards(naturals).unwrap(), &jokers, &JokerRules::TWO_JOKERS).unwrap()
}

fn laid(reply: &DefenderReply) -> Vec<String> {
    reply
        .layoffs
        .iter()
        .map(|l| format!("{}={}>{}", l.card, l.stands_for, l.meld))
        .collect()
}

#[test]
fn a_natural_goes_onto_a_knocker_run_beyond_its_joker() {
    // The knocker's X1 stands for 8H: 9H extends the run, 8H is taken.
    let run = joker_meld("6H 7H", &[(Joker::X1, "8H")]);
    let reply = best_reply(
        &[run],
        hand("9H 8H KS QD JC"),
        &JokerRules::TWO_JOKERS,
        true,
    );
    assert_eq!(laid(&reply), ["9H=9H>0"]);
    // 8H can be neither laid off nor melded: the table shows it already.
    assert_eq!(reply.deadwood(), 8 + 30);
    // Had X1 stood for 5H, 8H would go on and 9H after it.
    let run = joker_meld("6H 7H", &[(Joker::X1, "5H")]);
    let reply = best_reply(
        &[run],
        hand("9H 8H KS QD JC"),
        &JokerRules::TWO_JOKERS,
        true,
    );
    assert_eq!(laid(&reply), ["8H=8H>0", "9H=9H>0"]);
    assert_eq!(reply.deadwood(), 30);
}

#[test]
fn a_defender_joker_is_laid_off_where_the_rules_allow() {
    let run = joker_meld("5H 6H 7H", &[]);
    let set = joker_meld("KS KH", &[(Joker::X1, "KD")]);
    let melds = [run, set];
    let reply = best_reply(&melds, hand("X2 2C 9S"), &JokerRules::TWO_JOKERS, true);
    assert_eq!(reply.deadwood(), 11);
    assert_eq!(reply.layoffs.len(), 1);
    assert_eq!(reply.layoffs[0].card, HandCard::Joker(Joker::X2));
    // Without joker layoffs, the joker counts 15.
    let strict = JokerRules::TWO_JOKERS.with_layoff(false);
    assert_eq!(
        best_reply(&melds, hand("X2 2C 9S"), &strict, true).deadwood(),
        26
    );
    // Nothing at all after gin.
    assert_eq!(
        best_reply(&melds, hand("X2 2C 9S"), &JokerRules::TWO_JOKERS, false).deadwood(),
        26
    );
    // The set's fourth card is KC only: X1 stands for KD.
    let reply = best_reply(&melds, hand("KD KC 2C"), &JokerRules::TWO_JOKERS, true);
    assert_eq!(laid(&reply), ["KC=KC>1"]);
    assert_eq!(reply.deadwood(), 12);
}

#[test]
fn chained_layoffs_and_a_defender_joker_bridging_to_its_naturals() {
    // With three naturals per meld the defender cannot meld 9H TH X1: X1
    // goes on as 8H so that 9H and TH follow.
    let run = joker_meld("5H 6H 7H", &[]);
    let reply = best_reply(&[run], hand("9H TH X1 KC"), &rules(3, 15), true);
    assert_eq!(laid(&reply), ["X1=8H>0", "9H=9H>0", "TH=TH>0"]);
    assert_eq!(reply.deadwood(), 10);
    // With two, melding them is as good and lays off nothing (fewer layoffs).
    let reply = best_reply(&[run], hand("9H TH X1 KC"), &JokerRules::TWO_JOKERS, true);
    assert_eq!((reply.deadwood(), reply.layoffs.len()), (10, 0));
}

#[test]
fn scoring_with_jokers_checks_the_deck_and_reuses_the_settlement() {
    use crate::{HandError, Outcome, Preset, ProfileOverrides, Side};
    let jokers = Preset::Jokers.profile();
    // Gin with a joker in a meld: the gin bonus and the defender's whole count.
    let knocker = hand("5H X1 7H 9S 9D 9C KS KD KC KH");
    let defender = hand("8H 4H QS QD JC 3S 3D 6C 7C X2");
    let score = score_cards(&jokers, None, knocker, defender).unwrap();
    assert_eq!(score.settlement.outcome, Outcome::Gin);
    // No layoffs on gin: QS QD X2 melds, the rest counts 8+4+10+3+3+6+7 = 41.
    assert_eq!(score.showdown.defender.deadwood(), 41);
    assert_eq!(score.settlement.points, 25 + 41);
    // An undercut: the defender's count is lower.
    let knocker = hand("5H X1 7H 9S 9D 9C KS KD KC 4C");
    let defender = hand("AS 2S 3S AD 2D 3D 4D AC 2C X2");
    let score = score_cards(&jokers, None, knocker, defender).unwrap();
    assert_eq!(score.showdown.knocker.deadwood, 4);
    assert_eq!(score.showdown.defender.deadwood(), 0);
    assert_eq!(score.settlement.points, 25 + 4);
    assert_eq!(score.settlement.winner, Side::Defender);
    assert_eq!(score.settlement.outcome, Outcome::Undercut);
    // The deck decides which jokers exist.
    let standard = Preset::Standard.profile();
    let error = score_cards(&standard, None, knocker, defender).unwrap_err();
    assert!(matches!(
        error,
        HandError::Read {
            fault: HandReadFault::JokerNotInDeck { .. },
            ..
        }
    ));
    let one = ProfileOverrides {
        base: Some(Preset::Jokers),
        jokers: Some(1),
        ..ProfileOverrides::default()
    }
    .resolve()
    .unwrap();
    let error = score_cards(&one, None, knocker, defender).unwrap_err();
    assert!(matches!(
        error,
        HandError::Read {
            side: Side::Defender,
            fault: HandReadFault::JokerNotInDeck {
                joker: Joker::X2,
                ..
            },
        }
    ));
    let error = score_cards(
        &jokers,
        None,
        knocker,
        hand("AS 2S 3S AD 2D 3D 4D AC 2C X1"),
    )
    .unwrap_err();
    assert_eq!(
        error,
        HandError::InBothHands {
            index: 9,
            card: HandCard::Joker(Joker::X1),
        }
    );
    let error = score_cards(
        &jokers,
        None,
        hand("5H X1 7H KS KD QC JC TC 8C 6C"),
        defender,
    )
    .unwrap_err();
    assert!(
        matches!(error, HandError::KnockOverLimit { .. }),
        "{error:?}"
    );
}

#[test]
fn wild_cards_read_any_notation_and_write_the_canonical_one() {
    let read: Vec<HandCard> = serde_json::from_str(r#"["x1", "10h", "X2", "q♣"]"#).unwrap();
    assert_eq!(
        serde_json::to_string(&read).unwrap(),
        r#"["X1","TH","X2","QC"]"#
    );
    assert!(serde_json::from_str::<HandCard>(r#""X3""#).is_err());
    // The joker-free parser still refuses a joker.
    assert!("X1".parse::<Card>().is_err());
    let best = best_arrangement(hand("5H X1 7H"), &JokerRules::TWO_JOKERS);
    let json = serde_json::to_value(&best).unwrap();
    assert_eq!(json["melds"][0], serde_json::json!(["5H", "X1", "7H"]));
    assert_eq!(json["jokers"], serde_json::json!({"X1": "6H"}));
    assert_eq!(json["deadwood"], 0);
}

/// The declared form of an arrangement: each meld's cards as shown, a joker
/// in the place of the card it stands for.
fn declared_form(arrangement: &Arrangement) -> DeclaredMelds {
    DeclaredMelds {
        melds: arrangement
            .melds
            .iter()
            .map(|meld| {
                meld.cards()
                    .iter()
                    .map(|card| match meld.jokers().find(|&(_, c)| c == card) {
                        Some((joker, _)) => HandCard::Joker(joker),
                        None => HandCard::Natural(card),
                    })
                    .collect()
            })
            .collect(),
        stands_for: arrangement.melds.iter().flat_map(|m| m.jokers()).collect(),
    }
}

fn list(text: &str) -> Vec<HandCard> {
    text.split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect()
}

#[test]
fn declared_melds_are_checked_with_every_fault_at_its_place() {
    let rules = JokerRules::TWO_JOKERS;
    let held = hand("5H X1 7H 9S 9D 9C KS KD 2C X2");
    let check = |melds: &[&str], stands_for: &[(Joker, &str)]| {
        let declared = DeclaredMelds {
            melds: melds.iter().map(|m| list(m)).collect(),
            stands_for: stands_for.iter().map(|&(j, c)| (j, card(c))).collect(),
        };
        declared_arrangement(held, &declared, &rules)
            .map_err(|faults| {
                faults
                    .into_iter()
                    .map(|f| (f.place, f.code))
                    .collect::<Vec<_>>()
            })
            .map(|a| a.deadwood)
    };
    // Legal: X1 bridges the hearts, X2 is the fourth king... of three.
    assert_eq!(
        check(
            &["5H X1 7H", "KS KD X2"],
            &[(Joker::X1, "6H"), (Joker::X2, "KH")]
        ),
        Ok(27 + 2)
    );
    // Nothing declared: everything counts, each joker 15.
    assert_eq!(check(&[], &[]), Ok(5 + 7 + 27 + 20 + 2 + 30));
    let card_at = |meld, position| DeclaredPlace::Card { meld, position };
    assert_eq!(
        check(&["5H X1 7H 8H"], &[(Joker::X1, "6H")]),
        Err(vec![(card_at(0, 3), DeclaredFaultCode::CardNotInHand)])
    );
    assert_eq!(
        check(&["5H X1 7H"], &[]),
        Err(vec![(card_at(0, 1), DeclaredFaultCode::JokerStandsFor)])
    );
    assert_eq!(
        check(&["9S 9D 9C"], &[(Joker::X2, "KH")]),
        Err(vec![(
            DeclaredPlace::StandsFor(Joker::X2),
            DeclaredFaultCode::JokerStandsFor
        )])
    );
    assert_eq!(
        check(
            &["9S 9D 9C", "9S X1 X2"],
            &[(Joker::X1, "9H"), (Joker::X2, "8S")]
        ),
        Err(vec![(card_at(1, 0), DeclaredFaultCode::CardInTwoMelds)])
    );
    // X2 stands for 9H, which X1's meld already shows.
    assert_eq!(
        check(
            &["9S 9D X1", "KS KD X2"],
            &[(Joker::X1, "9H"), (Joker::X2, "9H")]
        ),
        Err(vec![(
            DeclaredPlace::Meld(1),
            DeclaredFaultCode::NotAMeld(MeldProblemCode::MixedRanks)
        )])
    );
    assert_eq!(
        check(
            &["9S 9D X1", "9C X2 KD"],
            &[(Joker::X1, "9H"), (Joker::X2, "9H")]
        ),
        Err(vec![(
            DeclaredPlace::Meld(1),
            DeclaredFaultCode::NotAMeld(MeldProblemCode::MixedRanks)
        )])
    );
    assert_eq!(
        check(
            &["9S 9D X1", "7H X2 5H"],
            &[(Joker::X1, "9H"), (Joker::X2, "9H")]
        ),
        Err(vec![(
            DeclaredPlace::Meld(1),
            DeclaredFaultCode::NotAMeld(MeldProblemCode::Gap)
        )])
    );
    // Both stand for 6H: the second meld shows a card the first shows.
    assert_eq!(
        check(&["5H X1 7H", "9S 9D 9C"], &[(Joker::X1, "6H")]).map(|_| ()),
        Ok(())
    );
    assert_eq!(
        check(
            &["7H X2 5H", "9S X1 9C"],
            &[(Joker::X1, "9H"), (Joker::X2, "6H")]
        )
        .map(|_| ()),
        Ok(())
    );
    assert_eq!(
        check(
            &["7H X2 5H", "9S 9D X1"],
            &[(Joker::X1, "6H"), (Joker::X2, "6H")]
        ),
        Err(vec![(
            DeclaredPlace::Meld(1),
            DeclaredFaultCode::NotAMeld(MeldProblemCode::MixedRanks)
        )])
    );
    assert_eq!(
        check(&["5H X1 X2"], &[(Joker::X1, "6H"), (Joker::X2, "7H")]),
        Err(vec![(
            DeclaredPlace::Meld(0),
            DeclaredFaultCode::TooFewNaturals
        )])
    );
    assert_eq!(
        check(&["5H X1 9S"], &[(Joker::X1, "6H")]),
        Err(vec![(
            DeclaredPlace::Meld(0),
            DeclaredFaultCode::NotAMeld(MeldProblemCode::MixedSuits)
        )])
    );
    // X2 stands for 7H, which the first meld shows.
    let held = hand("5H 7H 8H 9H X1 X2 2C 3C 4C KS");
    let declared = DeclaredMelds {
        melds: vec![list("5H X1 7H"), list("8H 9H X2")],
        stands_for: [(Joker::X1, card("6H")), (Joker::X2, card("7H"))]
            .into_iter()
            .collect(),
    };
    let faults = declared_arrangement(held, &declared, &rules).unwrap_err();
    assert_eq!(
        faults
            .iter()
            .map(|f| (f.place, f.code, f.message.as_str()))
            .collect::<Vec<_>>(),
        [(
            DeclaredPlace::Meld(1),
            DeclaredFaultCode::CardInTwoMelds,
            "7H is shown by two melds"
        )]
    );
}

/// Random ten-card hands with one or two jokers from a fixed seed.
fn random_wild_hands(count: usize, seed: u64) -> Vec<(Hand, Hand)> {
    random_hands_from(CardSet::FULL_DECK, count, seed)
}

/// Random hands of low cards (ace to seven) with jokers: most can knock, and
/// with many arrangements within the limit.
fn random_low_wild_hands(count: usize, seed: u64) -> Vec<(Hand, Hand)> {
    let low = CardSet::FULL_DECK
        .iter()
        .filter(|card| card.value() <= 7)
        .fold(CardSet::EMPTY, |set, card| set.union(CardSet::single(card)));
    random_hands_from(low, count, seed)
}

fn random_hands_from(naturals: CardSet, count: usize, seed: u64) -> Vec<(Hand, Hand)> {
    use rand::{Rng, SeedableRng, seq::SliceRandom};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let deck: Vec<HandCard> = naturals
        .iter()
        .map(HandCard::Natural)
        .chain(Joker::ALL.map(HandCard::Joker))
        .collect();
    (0..count)
        .map(|_| {
            let mut deck = deck.clone();
            deck.shuffle(&mut rng);
            let knocker_jokers = rng.gen_range(1..=2);
            // The knocker holds its jokers; the defender holds the rest with
            // even odds.
            let mut knocker: Vec<HandCard> = Joker::ALL[..knocker_jokers]
                .iter()
                .map(|&j| HandCard::Joker(j))
                .collect();
            let naturals = deck.iter().filter(|c| matches!(c, HandCard::Natural(_)));
            knocker.extend(naturals.clone().take(10 - knocker_jokers));
            let mut defender: Vec<HandCard> = naturals.skip(10).take(10).copied().collect();
            if knocker_jokers == 1 && rng.gen_bool(0.5) {
                defender[0] = HandCard::Joker(Joker::X2);
            }
            (
                Hand::from_distinct(knocker).unwrap(),
                Hand::from_distinct(defender).unwrap(),
            )
        })
        .collect()
}

#[test]
fn every_optimal_arrangement_declared_back_is_itself() {
    let rules = JokerRules::TWO_JOKERS;
    for (held, _) in random_wild_hands(300, 18) {
        for arrangement in optimal_arrangements(held, &rules) {
            let declared = declared_arrangement(held, &declared_form(&arrangement), &rules);
            let mut back = declared.unwrap();
            back.melds.sort();
            assert_eq!(back, arrangement, "{held}");
        }
    }
}

#[test]
fn declaring_the_referees_choice_scores_the_same() {
    let jokers = crate::Preset::Jokers.profile();
    let mut scored = 0;
    for (knocker, defender) in random_wild_hands(2000, 23) {
        let Ok(chosen) = score_cards(&jokers, None, knocker, defender) else {
            continue;
        };
        let declared = declared_form(&chosen.showdown.knocker);
        let knocker: Vec<HandCard> = knocker.cards().collect();
        let defender: Vec<HandCard> = defender.cards().collect();
        let best_reply = DeclaredReply::default();
        let again = score_knock(
            Search::Jokers,
            &jokers,
            None,
            &knocker,
            Some(&declared),
            &defender,
            &best_reply,
        )
        .unwrap();
        assert_eq!(again, chosen);
        scored += 1;
    }
    // Random hands rarely knock: enough of them must to make the test mean
    // something.
    assert!(scored >= 20, "only {scored} hands could knock");
}

/// The knocker's choice without pruning: every candidate's best reply, the
/// best net result, then the lower count, then the first.
fn exhaustive_knock(
    profile: &crate::Profile,
    knocker: Hand,
    defender: Hand,
) -> Option<(Arrangement, u32)> {
    let rules = profile.joker_rules();
    let problem = Problem::new(knocker, &rules, CardSet::EMPTY);
    let mut best: Option<(i64, u32, Arrangement, u32)> = None;
    for arrangement in score::knocker_candidates(&problem, profile.knock_limit_for(None).unwrap()) {
        let allowed = arrangement.deadwood > 0 || profile.layoffs_on_gin();
        let reply = best_reply(&arrangement.melds, defender, &rules, allowed);
        let settlement = crate::settle(profile, 1, arrangement.deadwood, reply.deadwood(), false);
        let net = match settlement.winner {
            crate::Side::Knocker => i64::from(settlement.points),
            crate::Side::Defender => -i64::from(settlement.points),
        };
        let key = (net, std::cmp::Reverse(arrangement.deadwood));
        if best
            .as_ref()
            .is_none_or(|(n, c, _, _)| key > (*n, std::cmp::Reverse(*c)))
        {
            let count = reply.deadwood();
            best = Some((net, arrangement.deadwood, arrangement, count));
        }
    }
    best.map(|(_, _, arrangement, defender)| (arrangement, defender))
}

#[test]
fn the_pruned_knocker_choice_is_the_exhaustive_one() {
    use crate::{Preset, ProfileOverrides};
    let mut compared = 0;
    for (joker_deadwood, joker_min_natural, seed) in [(15, 2, 31), (0, 1, 32), (25, 3, 33)] {
        let profile = ProfileOverrides {
            base: Some(Preset::Jokers),
            joker_deadwood: Some(joker_deadwood),
            joker_min_natural: Some(joker_min_natural),
            ..ProfileOverrides::default()
        }
        .resolve()
        .unwrap();
        let hands = random_wild_hands(500, seed).into_iter();
        for (knocker, defender) in hands.chain(random_low_wild_hands(800, seed)) {
            let Ok(score) = score_cards(&profile, None, knocker, defender) else {
                assert_eq!(exhaustive_knock(&profile, knocker, defender), None);
                continue;
            };
            let chosen = (score.showdown.knocker, score.showdown.defender.deadwood());
            let exhaustive = exhaustive_knock(&profile, knocker, defender);
            assert_eq!(Some(chosen), exhaustive, "{knocker} / {defender}");
            compared += 1;
        }
    }
    assert!(compared >= 500, "only {compared} knocks");
}

/// The defender's reply as it would be declared: its melds, their jokers'
/// cards, and each layoff with its meld and (for a joker) its card.
fn declared_reply(reply: &DefenderReply) -> DeclaredReply {
    let own = declared_form(&reply.arrangement);
    DeclaredReply {
        melds: Some(own.melds),
        jokers: own.stands_for,
        layoffs: Some(
            reply
                .layoffs
                .iter()
                .map(|layoff| DeclaredLayoff {
                    card: layoff.card,
                    stands_for: matches!(layoff.card, HandCard::Joker(_))
                        .then_some(layoff.stands_for),
                    meld: Some(layoff.meld),
                })
                .collect(),
        ),
    }
}

#[test]
fn declaring_both_sides_as_the_referee_chose_scores_the_same() {
    use crate::{Preset, ProfileOverrides};
    let mut compared = 0;
    for (joker_min_natural, seed) in [(2, 41), (1, 42)] {
        let profile = ProfileOverrides {
            base: Some(Preset::Jokers),
            joker_min_natural: Some(joker_min_natural),
            ..ProfileOverrides::default()
        }
        .resolve()
        .unwrap();
        for (knocker, defender) in random_low_wild_hands(400, seed) {
            let Ok(chosen) = score_cards(&profile, None, knocker, defender) else {
                continue;
            };
            let melds = declared_form(&chosen.showdown.knocker);
            let reply = declared_reply(&chosen.showdown.defender);
            let knocker: Vec<HandCard> = knocker.cards().collect();
            let defender: Vec<HandCard> = defender.cards().collect();
            let again = score_knock(
                Search::Jokers,
                &profile,
                None,
                &knocker,
                Some(&melds),
                &defender,
                &reply,
            );
            assert_eq!(again.as_ref(), Ok(&chosen), "{reply:?}");
            compared += 1;
        }
    }
    assert!(compared >= 200, "only {compared} knocks");
}
