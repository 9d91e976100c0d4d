use super::*;
use crate::card::{Card, cards};

fn hand(text: &str) -> CardSet {
    cards(text).unwrap()
}

fn melds_text(arrangement: &Arrangement) -> Vec<String> {
    arrangement.melds.iter().map(|m| m.to_string()).collect()
}

#[test]
fn a_hand_of_nothing_counts_every_card() {
    let h = hand("KS QH JD TC 9S 8H 7D 5C 3S AH");
    assert_eq!(min_deadwood(h), h.value());
    assert!(best_arrangement(h).melds.is_empty());
}

#[test]
fn a_four_card_set_gives_one_card_to_a_run() {
    let best = best_arrangement(hand("7S 7H 7D 7C 8H 9H KS QD 2C 3D"));
    assert_eq!(best.deadwood, 25);
    assert_eq!(melds_text(&best), ["7S 7D 7C", "7H 8H 9H"]);
}

#[test]
fn a_card_shared_by_a_set_and_a_run_goes_where_it_saves_most() {
    // 5H completes the set of fives or the run 5-6-7H: the run saves 13, the set 10.
    let best = best_arrangement(hand("5S 5D 5H 6H 7H KC KD QS JS 2C"));
    assert_eq!(best.deadwood, 5 + 5 + 10 + 10 + 10 + 10 + 2);
    assert_eq!(melds_text(&best), ["5H 6H 7H"]);
    // ... and the set wins when it saves more.
    let best = best_arrangement(hand("5S 5D 5H 3H 4H KC KD QS JS 2C"));
    assert_eq!(melds_text(&best), ["5S 5H 5D"]);
}

#[test]
fn ace_low_runs_meld_and_queen_king_ace_does_not() {
    assert_eq!(min_deadwood(hand("AS 2S 3S")), 0);
    assert_eq!(min_deadwood(hand("QS KS AS")), 21);
    assert_eq!(min_deadwood(hand("KS AS 2S")), 13);
}

#[test]
fn gin_hands_have_no_deadwood() {
    let gin = hand("AS 2S 3S 4S 7H 7D 7C KH KD KC");
    assert_eq!(min_deadwood(gin), 0);
    assert_eq!(best_arrangement(gin).melds.len(), 4 - 1);
}

#[test]
fn a_long_block_is_one_run() {
    let best = best_arrangement(hand("3H 4H 5H 6H 7H 8H 9H TH JH QH"));
    assert_eq!(melds_text(&best), ["3H 4H 5H 6H 7H 8H 9H TH JH QH"]);
}

#[test]
fn every_optimal_arrangement_is_listed_once() {
    // 6H joins the four sixes or bridges 3-4-5H and 7-8-9H: gin either way.
    let all = optimal_arrangements(hand("6S 6D 6C 6H 3H 4H 5H 7H 8H 9H"));
    let texts: Vec<Vec<String>> = all.iter().map(melds_text).collect();
    assert_eq!(
        texts,
        [
            vec!["3H 4H 5H", "6S 6H 6D 6C", "7H 8H 9H"],
            vec!["3H 4H 5H 6H 7H 8H 9H", "6S 6D 6C"]
        ]
    );
}

#[test]
fn two_four_card_sets_crossing_two_runs() {
    // 4s and 5s both complete; hearts and spades run 3-4-5-6.
    let h = hand("4S 4H 4D 4C 5S 5H 5D 5C 3H 6H");
    assert_eq!(min_deadwood(h), 0);
    let all = optimal_arrangements(h);
    assert!(all.iter().all(|a| a.deadwood == 0));
}

#[test]
fn big_gin_melds_all_eleven_cards() {
    let analysis = analyze_drawn_hand(hand("AS 2S 3S 4S 7H 7D 7C KH KD KC QC"));
    assert!(analysis.big_gin || analysis.deadwood == 0);
    let big = analyze_drawn_hand(hand("AS 2S 3S 4S 7H 7D 7C JC QC KC 5S"));
    assert!(big.big_gin);
    assert_eq!(big.deadwood, 0);
}

#[test]
fn eleven_cards_list_every_discard_reaching_the_minimum() {
    let ends = analyze_drawn_hand(hand("3S 4S 5S 6S KS KH KD 2D 6C 7D 8D"));
    let discarded: Vec<String> = ends.discards.iter().map(|d| d.card.to_string()).collect();
    assert_eq!(ends.deadwood, 2 + 6 + 7);
    assert_eq!(discarded, ["8D"]);
    let tie = analyze_drawn_hand(hand("3S 4S 5S 6S KS KH KD 2D 5C 5H AD"));
    let discarded: Vec<String> = tie.discards.iter().map(|d| d.card.to_string()).collect();
    // Keeping the run 3-4-5-6S leaves 5H and 5C as deadwood: either may go.
    assert_eq!(tie.deadwood, 2 + 5 + 1);
    assert_eq!(discarded, ["5H", "5C"]);
}

#[test]
fn melds_within_lists_every_sub_run_and_sub_set() {
    let all = melds_within(hand("3H 4H 5H 6H 9S 9H 9D 9C 2C 2D 2S"));
    let runs = all.iter().filter(|m| m.kind() == MeldKind::Run).count();
    let sets = all.iter().filter(|m| m.kind() == MeldKind::Set).count();
    // Runs 3-5, 4-6, 3-6; sets: the four nines, its four 3-card subsets, the twos.
    assert_eq!((runs, sets), (3, 6));
}

#[test]
fn least_discards_are_those_of_the_per_discard_definition() {
    // Hands of eleven (and fewer, and twelve) cards from a fixed stride
    // through the deck, dense in sets and runs, against one least count per
    // discard (an independent loop over `min_deadwood`).
    let deck: Vec<Card> = Card::deck().collect();
    for start in 0..deck.len() {
        for stride in [1, 3, 4, 5, 13, 14] {
            for len in [1, 6, 10, 11, 12] {
                let hand = (0..len).fold(CardSet::EMPTY, |mut set, i| {
                    set.insert(deck[(start + i * stride) % deck.len()]);
                    set
                });
                let mut least = u32::MAX;
                let mut best = CardSet::EMPTY;
                for card in hand {
                    let count = min_deadwood(hand.difference(CardSet::single(card)));
                    if count < least {
                        (least, best) = (count, CardSet::EMPTY);
                    }
                    if count == least {
                        best.insert(card);
                    }
                }
                assert_eq!(least_discards(hand), (least, best), "{hand}");
            }
        }
    }
}
