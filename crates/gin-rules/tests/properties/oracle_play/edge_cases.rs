//! Hand-made edge cases, engine against oracle: the parent's naive oracle
//! on deals chosen for a rule each (chained layoffs, sets and runs, breaking
//! a meld to lay off, the knocker's choice).

use super::*;

fn run_or_set(text: &str) -> Vec<C> {
    let meld = hand(text);
    assert!(is_meld(&meld), "{text}");
    meld
}

fn laid(reply: &DefenderReply) -> Vec<String> {
    reply
        .layoffs
        .iter()
        .map(|l| format!("{}>{}", l.card, l.meld))
        .collect()
}

#[test]
fn source_s4_the_defender_lays_off_both_hearts_and_the_knockers_ace_stays_deadwood() {
    let score = checked_knock(
        &Profile::default(),
        10,
        &hand("3H 4H 5H 9S 9H 9D 3C 4C 5C AH"),
        &hand("6H 2H JS JH JD 7S 7H 7C 4D 5S"),
    )
    .expect("a legal knock");
    let reply = &score.showdown.defender;
    let mut laid_cards: Vec<String> = reply.layoffs.iter().map(|l| l.card.to_string()).collect();
    laid_cards.sort();
    assert_eq!(laid_cards, ["2H", "6H"]);
    assert_eq!(reply.deadwood(), 9);
    assert_eq!(score.showdown.knocker.deadwood, 1);
    assert_eq!(to_cs(score.showdown.knocker.deadwood_cards), hand("AH"));
    assert_eq!(
        (score.settlement.winner, score.settlement.points),
        (Side::Knocker, 8)
    );
}

#[test]
fn chained_layoffs_extend_a_run_at_both_ends() {
    let reply = checked_reply(
        &[run_or_set("5C 6C 7C")],
        &hand("3C 4C 8C 9C KD 2S 7D QH 4H TS"),
        true,
    );
    assert_eq!(reply.layoffs.len(), 4);
    assert_eq!(reply.deadwood(), 10 + 2 + 7 + 10 + 4 + 10);
}

#[test]
fn one_card_bridges_two_knocker_runs_of_one_suit_and_the_chain_goes_on() {
    // 6H fits either run; then 2H and TH go on at the outer ends.
    let melds = [run_or_set("3H 4H 5H"), run_or_set("7H 8H 9H")];
    let reply = checked_reply(&melds, &hand("6H 2H TH JH KS KD QC 5C 4S AD"), true);
    assert_eq!(reply.layoffs.len(), 4);
    assert_eq!(reply.deadwood(), 10 + 10 + 10 + 5 + 4 + 1);
    // Two cards fill a gap of two between the runs, from either side.
    let melds = [run_or_set("2H 3H 4H"), run_or_set("7H 8H 9H")];
    let reply = checked_reply(&melds, &hand("5H 6H KS KD QC 5C 4S AD 9C 8D"), true);
    assert_eq!(reply.layoffs.len(), 2);
}

#[test]
fn a_three_card_set_takes_its_fourth_card_and_a_four_card_set_nothing() {
    let reply = checked_reply(
        &[run_or_set("9S 9H 9D")],
        &hand("9C 8C JC KS KD QC 5C 4S AD 2H"),
        true,
    );
    assert_eq!(laid(&reply), ["9C>0"]);
    // 8S and TS touch the four nines' spade but a set is no run.
    let reply = checked_reply(
        &[run_or_set("9S 9H 9D 9C")],
        &hand("8S TS 8H TH KS KD QC 5C 4S AD"),
        true,
    );
    assert!(reply.layoffs.is_empty());
}

#[test]
fn a_card_fitting_a_set_and_a_run_end_goes_on_the_run_so_the_chain_continues() {
    // 6H completes the sixes or extends 3-4-5H; only on the run can 7H follow.
    let melds = [run_or_set("3H 4H 5H"), run_or_set("6S 6D 6C")];
    let reply = checked_reply(&melds, &hand("6H 7H KS KD QC JC 9S 4S AD 2C"), true);
    assert_eq!(laid(&reply), ["6H>0", "7H>0"]);
}

#[test]
fn the_defender_breaks_its_own_meld_to_lay_off() {
    // Own 7-8-9C leaves 7S 7D KH...; laying 9C on the nines lets 7S 7D 7C meld.
    let reply = checked_reply(
        &[run_or_set("9S 9H 9D")],
        &hand("7C 8C 9C 7S 7D KH 2S 3D 4H AC"),
        true,
    );
    assert_eq!(laid(&reply), ["9C>0"]);
    assert_eq!(reply.arrangement.melds.len(), 1);
    assert_eq!(to_cs(reply.arrangement.melds[0].cards()), hand("7S 7D 7C"));
}

#[test]
fn gin_denies_layoffs_under_standard_and_allows_them_under_open_gin() {
    let knocker = hand("3H 4H 5H 9S 9H 9D 3C 4C 5C 6C");
    let defender = hand("6H 2H JS JH JD 7S 7H 7C 4D 5S");
    let standard =
        checked_knock(&Profile::default(), 10, &knocker, &defender).expect("gin is a legal knock");
    assert!(standard.showdown.defender.layoffs.is_empty());
    assert_eq!(standard.settlement.outcome, Outcome::Gin);
    assert_eq!(standard.settlement.points, 25 + 6 + 2 + 4 + 5);
    let open = checked_knock(&Preset::OpenGin.profile(), 10, &knocker, &defender)
        .expect("gin is a legal knock");
    assert_eq!(open.showdown.defender.layoffs.len(), 2);
    assert_eq!(open.settlement.outcome, Outcome::Gin);
    assert_eq!(open.settlement.points, 20 + 4 + 5);
    // Straight play: gin is the only knock allowed, and it is one.
    checked_knock(&Preset::Straight.profile(), 0, &knocker, &defender)
        .expect("gin is a legal knock");
}

#[test]
fn the_knocker_keeps_a_meld_as_deadwood_when_that_pays() {
    // Melding A-2-3S (count 2) lets 4S and 5S go down: 73 - 2 = 71. Keeping it as
    // deadwood (count 8) denies them: 82 - 8 = 74.
    let score = checked_knock(
        &Profile::default(),
        10,
        &hand("AS 2S 3S 9H TH JH 8C 8D 8H 2D"),
        &hand("4S 5S KC KH QD QS JC JD 7C 6D"),
    )
    .expect("a legal knock");
    assert_eq!(
        to_cs(score.showdown.knocker.deadwood_cards),
        hand("AS 2S 3S 2D")
    );
    assert_eq!(score.settlement.points, 74);
}

#[test]
fn a_hand_over_every_limit_is_refused() {
    let knocker = hand("3H 4H 5H 9S 9H 9D KC QC 2D 5S");
    let defender = hand("6H 2H JS JH JD 7S 7H 7C 4D 4S");
    assert!(checked_knock(&Profile::default(), 10, &knocker, &defender).is_none());
    // One away from gin: over the straight limit, within the standard one.
    let knocker = hand("3H 4H 5H 9S 9H 9D 3C 4C 5C AS");
    assert!(checked_knock(&Preset::Straight.profile(), 0, &knocker, &defender).is_none());
    assert!(checked_knock(&Profile::default(), 10, &knocker, &defender).is_some());
}

#[test]
fn equal_counts_are_an_undercut_or_go_to_the_knocker_for_nothing() {
    // The knocker's only arrangement counts 7 (7D); the defender is left with 7C.
    let knocker = hand("3H 4H 5H 9S 9H 9D 3C 4C 5C 7D");
    let defender = hand("JS JH JD QS QH QD KS KH KC 7C");
    let undercut =
        checked_knock(&Profile::default(), 10, &knocker, &defender).expect("a legal knock");
    let s = undercut.settlement;
    assert_eq!(
        (s.outcome, s.winner, s.points),
        (Outcome::Undercut, Side::Defender, 25)
    );
    let ties = with(ProfileOverrides {
        tie_is_undercut: Some(false),
        ..ProfileOverrides::default()
    });
    let tie = checked_knock(&ties, 10, &knocker, &defender).expect("a legal knock");
    let s = tie.settlement;
    assert_eq!(
        (s.outcome, s.winner, s.points),
        (Outcome::Knock, Side::Knocker, 0)
    );
    let open_gin =
        checked_knock(&Preset::OpenGin.profile(), 10, &knocker, &defender).expect("a legal knock");
    assert_eq!(open_gin.settlement.points, 10);
}

#[test]
fn when_two_arrangements_net_the_same_the_knocker_keeps_the_lower_count() {
    // 3-7H with AS 2S as deadwood (3) lets AH and 2H go down: 26 - 3 = 23.
    // 4-7H with 3H kept as deadwood (6) denies them: 29 - 6 = 23. Count 3 wins.
    let score = checked_knock(
        &Profile::default(),
        10,
        &hand("AS 2S 4S 5S 6S 3H 4H 5H 6H 7H"),
        &hand("AH 2H AD 3D 6D 7D 3C 4C 5C 9C"),
    )
    .expect("a legal knock");
    assert_eq!(score.showdown.knocker.deadwood, 3);
    assert_eq!(score.settlement.points, 23);
}

#[test]
fn the_oracle_agrees_with_itself_on_the_basics() {
    // Guards for the oracle's own pieces, so a shared mistake cannot hide.
    assert!(is_meld(&hand("AH 2H 3H")));
    assert!(!is_meld(&hand("QH KH AH")));
    assert!(!is_meld(&hand("KH AH 2H")));
    assert!(is_meld(&hand("7S 7H 7D 7C")));
    assert!(!is_meld(&hand("7S 7H")));
    assert!(!is_meld(&hand("7S 8H 9H")));
    assert!(fits(&hand("9S 9H 9D"), hand("9C")[0]));
    assert!(!fits(&hand("9S 9H 9D 9C"), hand("TS")[0]));
    assert!(fits(&hand("3H 4H 5H"), hand("2H")[0]));
    assert!(!fits(&hand("3H 4H 5H"), hand("7H")[0]));
    let mut h = Naive::new(&hand("7S 7H 7D 7C 8H 9H KS QD 2C 3D"));
    let full = h.full();
    assert_eq!(h.min_deadwood(full), 25);
    // The meld sieve finds exactly what testing every subset finds.
    let every: BTreeSet<u32> = (0u32..1 << h.cards.len())
        .filter(|&mask| is_meld(&h.pick(mask)))
        .collect();
    assert_eq!(h.melds.iter().copied().collect::<BTreeSet<u32>>(), every);
    assert_eq!(every.len(), 5 + 1); // the four sevens and each three of them; 7-8-9H
    let laid = reachable_layoffs(&[hand("5C 6C 7C")], &Naive::new(&hand("3C 4C 8C 9C KD")));
    // {}, 4C, 8C, 4C+3C, 4C+8C, 8C+9C, and the unions: 9 reachable sets.
    assert_eq!(laid.len(), 9);
}
