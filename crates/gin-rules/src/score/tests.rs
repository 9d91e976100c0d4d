use super::*;
use crate::card::cards;
use crate::hand::HandCard;
use crate::layoff::{DeclaredLayoff, ReplyError};
use crate::profile::{Preset, ProfileError, ProfileOverrides};

fn hand(text: &str) -> Vec<HandCard> {
    cards(text).unwrap().iter().map(HandCard::Natural).collect()
}

fn knocker(text: &str) -> KnockerHand {
    KnockerHand {
        hand: hand(text),
        ..KnockerHand::default()
    }
}

fn defender(text: &str) -> DefenderHand {
    DefenderHand {
        hand: hand(text),
        ..DefenderHand::default()
    }
}

/// The knocker's melds as text, in the order scored.
fn knocker_melds(score: &HandScore) -> Vec<String> {
    let melds = &score.showdown.knocker.melds;
    melds.iter().map(|m| m.to_string()).collect()
}

/// The cards the defender laid off, in play order.
fn laid_off(score: &HandScore) -> Vec<String> {
    let layoffs = &score.showdown.defender.layoffs;
    layoffs.iter().map(|l| l.card.to_string()).collect()
}

fn profile(json: &str) -> Profile {
    serde_json::from_str::<ProfileOverrides>(json)
        .unwrap()
        .resolve()
        .unwrap()
}

#[test]
fn source_s0_knock_and_undercut_counts() {
    let p = Profile::default();
    assert_eq!(settle(&p, 1, 5, 15, false).points, 10);
    assert_eq!(settle(&p, 1, 0, 6, false).points, 31);
    let undercut = settle(&p, 1, 4, 2, false);
    assert_eq!((undercut.winner, undercut.points), (Side::Defender, 27));
    assert_eq!(settle(&p, 1, 10, 43, false).points, 33);
    assert_eq!(settle(&p, 1, 0, 10, false).points, 35);
    assert_eq!(settle(&p, 1, 0, 11, false).points, 36);
}

#[test]
fn source_s1_knock_8_against_20_scores_12() {
    assert_eq!(settle(&Profile::default(), 1, 8, 20, false).points, 12);
}

#[test]
fn source_s2_ties_give_the_defender_the_undercut_bonus_and_gin_scores_20_plus_count() {
    let open_gin = Preset::OpenGin.profile();
    let tie = settle(&open_gin, 1, 7, 7, false);
    assert_eq!(
        (tie.outcome, tie.winner, tie.points),
        (Outcome::Undercut, Side::Defender, 10)
    );
    assert_eq!(settle(&open_gin, 1, 0, 30, false).points, 50);
}

#[test]
fn ties_can_go_to_the_knocker_for_nothing() {
    let p = profile(r#"{"tie_is_undercut": false}"#);
    let tie = settle(&p, 1, 7, 7, false);
    assert_eq!(
        (tie.outcome, tie.winner, tie.points),
        (Outcome::Knock, Side::Knocker, 0)
    );
}

#[test]
fn source_s4_elder_knocks_one_younger_lays_off_two_hearts_and_counts_nine() {
    // Elder: 3-4-5H, three 9s, 7-8-9? Elder's melds as in [S4]: the ace of
    // hearts is his only deadwood.
    let elder = KnockerHand {
        hand: hand("3H 4H 5H 9S 9H 9D 3C 4C 5C AH"),
        melds: Some(vec![hand("3H 4H 5H"), hand("9S 9H 9D"), hand("3C 4C 5C")]),
        jokers: None,
    };
    let younger = defender("6H 2H JS JH JD 7S 7H 7C 4D 5S");
    let score = score_hand(&Profile::default(), None, &elder, &younger).unwrap();
    let laid = laid_off(&score);
    assert_eq!(laid, ["2H", "6H"]);
    assert_eq!(score.showdown.knocker.deadwood, 1);
    assert_eq!(score.showdown.defender.deadwood(), 9);
    assert_eq!(
        (score.settlement.winner, score.settlement.points),
        (Side::Knocker, 8)
    );
}

#[test]
fn the_knocker_never_lays_off() {
    // After the defender extends 3-4-5H down to 2H, the knocker's AH would fit,
    // but the knocker keeps it as deadwood.
    let elder = knocker("3H 4H 5H 9S 9H 9D 3C 4C 5C AH");
    let score = score_hand(
        &Profile::default(),
        None,
        &elder,
        &defender("6H 2H JS JH JD 7S 7H 7C 4D 5S"),
    )
    .unwrap();
    assert_eq!(score.showdown.knocker.deadwood_cards, cards("AH").unwrap());
}

#[test]
fn gin_allows_no_layoffs_and_open_gin_does() {
    let gin = knocker("3H 4H 5H 9S 9H 9D 3C 4C 5C 6C");
    let def = defender("6H 2H JS JH JD 7S 7H 7C 4D 5S");
    let standard = score_hand(&Profile::default(), None, &gin, &def).unwrap();
    assert!(standard.showdown.defender.layoffs.is_empty());
    assert_eq!(standard.settlement.outcome, Outcome::Gin);
    assert_eq!(standard.settlement.points, 25 + 6 + 2 + 4 + 5);
    let open = score_hand(&Preset::OpenGin.profile(), None, &gin, &def).unwrap();
    assert_eq!(open.showdown.defender.deadwood(), 4 + 5);
    assert_eq!(open.settlement.points, 20 + 9);
}

#[test]
fn a_knock_over_the_limit_is_refused() {
    let err = score_hand(
        &Profile::default(),
        None,
        &knocker("3H 4H 5H 9S 9H 9D KC QC 2D 5S"),
        &defender("6H 2H JS JH JD 7S 7H 7C 4D 4S"),
    )
    .unwrap_err();
    assert_eq!(
        err,
        HandError::KnockOverLimit {
            deadwood: 27,
            limit: 10
        }
    );
}

#[test]
fn oklahoma_needs_an_upcard_and_doubles_spades() {
    let p = Preset::Oklahoma.profile();
    let k = knocker("3H 4H 5H 9S 9H 9D 3C 4C 5C AH");
    let d = defender("6H 2H JS JH JD 7S 7H 7C 4D 5S");
    assert!(matches!(
        score_hand(&p, None, &k, &d).unwrap_err(),
        HandError::Profile(ProfileError::UpcardRequired { .. })
    ));
    let spade = score_hand(&p, Some("2S".parse().unwrap()), &k, &d).unwrap();
    assert_eq!(
        (
            spade.settlement.points,
            spade.settlement.breakdown.multiplier
        ),
        (16, 2)
    );
    let ace = score_hand(&p, Some("AD".parse().unwrap()), &k, &d).unwrap_err();
    assert_eq!(
        ace,
        HandError::KnockOverLimit {
            deadwood: 1,
            limit: 0
        }
    );
}

#[test]
fn big_gin_needs_the_profile_and_eleven_melded_cards() {
    let eleven = knocker("3H 4H 5H 9S 9H 9D 3C 4C 5C 6C 7C");
    let d = defender("6H 2H JS JH JD 7S 7H KC 4D 5S");
    assert!(matches!(
        score_hand(&Profile::default(), None, &eleven, &d).unwrap_err(),
        HandError::BigGinNotPlayed
    ));
    let p = profile(r#"{"big_gin_bonus": 31}"#);
    let score = score_hand(&p, None, &eleven, &d).unwrap();
    assert_eq!(score.settlement.outcome, Outcome::BigGin);
    assert_eq!(
        score.settlement.points,
        31 + d
            .hand
            .iter()
            .map(|c| c.natural().map_or(0, |c| u32::from(c.value())))
            .sum::<u32>()
            - 30
    );
    let not_gin = knocker("3H 4H 5H 9S 9H 9D 3C 4C 5C 6C KC");
    assert!(matches!(
        score_hand(
            &p,
            None,
            &not_gin,
            &defender("6H 2H JS JH JD 7S 7H 7C 4D 5S")
        )
        .unwrap_err(),
        HandError::NotBigGin { .. }
    ));
}

#[test]
fn duplicates_and_wrong_counts_are_refused() {
    let d = defender("6H 2H JS JH JD 7S 7H 7C 4D 5S");
    let mut dup = knocker("3H 4H 5H 9S 9H 9D 3C 4C 5C AH");
    dup.hand[9] = "3h".parse().unwrap();
    assert_eq!(
        score_hand(&Profile::default(), None, &dup, &d).unwrap_err(),
        HandError::Read {
            side: Side::Knocker,
            fault: crate::hand::HandReadFault::Repeated {
                index: 9,
                card: "3H".parse().unwrap()
            }
        }
    );
    let across = knocker("3H 4H 5H 9S 9H 9D 3C 4C 5C 6H");
    let six: HandCard = "6H".parse().unwrap();
    assert_eq!(
        score_hand(&Profile::default(), None, &across, &d).unwrap_err(),
        HandError::InBothHands {
            index: d.hand.iter().position(|&c| c == six).unwrap(),
            card: six
        }
    );
    let short = knocker("3H 4H 5H 9S 9H 9D 3C 4C 5C");
    assert!(matches!(
        score_hand(&Profile::default(), None, &short, &d).unwrap_err(),
        HandError::WrongCardCount { .. }
    ));
}

#[test]
fn the_knocker_arranges_to_minimise_layoffs() {
    // 7H joins the four sevens or the run 4-5-6-7H; both leave 2C 3C AS (6).
    // As a run it would take the defender's 8H as well as 3H: the set wins.
    let k = knocker("4H 5H 6H 7H 7S 7D 7C 2C 3C AS");
    let d = defender("3H 8H KC QD JS 9C TD 5S 6D AD");
    let score = score_hand(&Profile::default(), None, &k, &d).unwrap();
    let melds = knocker_melds(&score);
    assert_eq!(melds, ["4H 5H 6H", "7S 7H 7D 7C"]);
    let laid = laid_off(&score);
    assert_eq!(laid, ["3H"]);
    assert_eq!(score.settlement.points, 72 - 3 - 6);
}

#[test]
fn the_knocker_keeps_a_meld_as_deadwood_when_it_pays() {
    // Melding A-2-3S (count 2) lets the defender lay off 4S and 5S: 73 - 2 = 71.
    // Keeping it as deadwood (count 8, within 10) denies them: 82 - 8 = 74.
    let k = knocker("AS 2S 3S 9H TH JH 8C 8D 8H 2D");
    let d = defender("4S 5S KC KH QD QS JC JD 7C 6D");
    let score = score_hand(&Profile::default(), None, &k, &d).unwrap();
    let melds = knocker_melds(&score);
    assert_eq!(melds, ["8H 8D 8C", "9H TH JH"]);
    assert_eq!(
        score.showdown.knocker.deadwood_cards,
        cards("AS 2S 3S 2D").unwrap()
    );
    assert!(score.showdown.defender.layoffs.is_empty());
    assert_eq!(score.settlement.points, 74);
}

#[test]
fn declared_knocker_melds_are_checked_and_used() {
    let d = defender("4S 5S KC KH QD QS JC JD 7C 6D");
    let declared = KnockerHand {
        hand: hand("AS 2S 3S 9H TH JH 8C 8D 8H 2D"),
        melds: Some(vec![hand("AS 2S 3S"), hand("9H TH JH"), hand("8C 8D 8H")]),
        jokers: None,
    };
    let score = score_hand(&Profile::default(), None, &declared, &d).unwrap();
    assert_eq!(score.settlement.points, 71);
    let illegal = KnockerHand {
        melds: Some(vec![hand("AS 2S 3S 2D")]),
        ..declared.clone()
    };
    assert!(matches!(
        score_hand(&Profile::default(), None, &illegal, &d).unwrap_err(),
        HandError::InvalidMelds(_)
    ));
    let over = KnockerHand {
        melds: Some(vec![hand("9H TH JH")]),
        ..declared
    };
    assert!(matches!(
        score_hand(&Profile::default(), None, &over, &d).unwrap_err(),
        HandError::KnockOverLimit { .. }
    ));
}

#[test]
fn declared_defender_layoffs_are_checked_and_declared_melds_lay_off_the_rest() {
    let k = KnockerHand {
        hand: hand("AS 2S 3S 9H TH JH 8C 8D 8H 2D"),
        melds: Some(vec![hand("AS 2S 3S"), hand("9H TH JH"), hand("8C 8D 8H")]),
        jokers: None,
    };
    let layoff = |c: &str, meld| DeclaredLayoff {
        card: c.parse().unwrap(),
        stands_for: None,
        meld: Some(meld),
    };
    let mut d = defender("4S 5S KC KH QD QS JC JD 7C 6D");
    d.layoffs = Some(vec![layoff("5S", 0)]);
    assert!(matches!(
        score_hand(&Profile::default(), None, &k, &d).unwrap_err(),
        HandError::Reply(ReplyError::DoesNotFit { .. })
    ));
    d.layoffs = Some(vec![layoff("4S", 0)]);
    assert_eq!(
        score_hand(&Profile::default(), None, &k, &d)
            .unwrap()
            .showdown
            .defender
            .deadwood(),
        78
    );
    d.layoffs = None;
    d.melds = Some(vec![]);
    assert_eq!(
        score_hand(&Profile::default(), None, &k, &d)
            .unwrap()
            .showdown
            .defender
            .deadwood(),
        73
    );
}

#[test]
fn settle_saturates_on_counts_no_hand_can_have() {
    let standard = Profile::default();
    // Real counts: a gin against the largest defender count, doubled.
    assert_eq!(settle(&standard, 2, 0, 100, false).points, (100 + 25) * 2);
    let absurd = settle(&standard, 2, 0, u32::MAX, false);
    assert_eq!((absurd.outcome, absurd.points), (Outcome::Gin, u32::MAX));
}

mod twin_searches {
    //! The one pipeline with each twin of the reply searches on knocks
    //! without jokers: the bit-mask searches (what a joker-free knock takes)
    //! and the joker searches give the same knocker arrangement, the same
    //! defender melds and deadwood, the same cards laid off, the same
    //! settlement, and the same refusal. Which meld a card goes onto when two
    //! take it, and the playing order, are each search's own legal choice.

    use proptest::prelude::*;

    use super::super::knock::score_knock;
    use crate::hand::HandCard;
    use crate::layoff::{DeclaredReply, Search};
    use crate::profile::Preset;
    use crate::score::HandScore;
    use crate::strategies::{config, deal};

    fn laid(score: &HandScore) -> Vec<String> {
        let mut laid: Vec<String> = score
            .showdown
            .defender
            .layoffs
            .iter()
            .map(|l| l.card.to_string())
            .collect();
        laid.sort();
        laid
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn both_searches_score_a_joker_free_knock_alike(
            cards in deal(),
            preset in proptest::sample::select(Preset::ALL.to_vec()),
        ) {
            let (knocker, defender, upcard) = cards;
            let profile = preset.profile();
            let list = |cards: &[crate::card::Card]| cards.iter().map(|&c| HandCard::Natural(c)).collect::<Vec<_>>();
            let score = |search| score_knock(
                search,
                &profile,
                upcard,
                &list(&knocker),
                None,
                &list(&defender),
                &DeclaredReply::default(),
            );
            let (fast, general) = (score(Search::Fastest), score(Search::Jokers));
            match (&fast, &general) {
                (Ok(fast), Ok(general)) => {
                    prop_assert_eq!(&general.showdown.knocker, &fast.showdown.knocker);
                    prop_assert_eq!(&general.showdown.defender.arrangement, &fast.showdown.defender.arrangement);
                    prop_assert_eq!(laid(general), laid(fast));
                    prop_assert_eq!(general.settlement, fast.settlement);
                    prop_assert_eq!(general.showdown.knock_limit, fast.showdown.knock_limit);
                    prop_assert_eq!(general.showdown.big_gin, fast.showdown.big_gin);
                }
                (Err(fast), Err(general)) => prop_assert_eq!(general, fast),
                _ => prop_assert!(false, "one search scores, the other refuses: {:?} / {:?}", fast, general),
            }
        }
    }
}
