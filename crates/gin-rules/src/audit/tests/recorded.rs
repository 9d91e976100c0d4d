//! Records as recorders have them: a stock that lists only the cards drawn,
//! layoffs whose meld is named by its cards or not at all, and the part of an
//! action at fault.

use super::play_outs::play_out;
use super::*;

/// The play-out's transcript with every stock draw naming its card, and the
/// deal's stock cut to the first `keep` cards.
fn as_recorded(deal: &Deal, actions: &[Action], keep: usize) -> (Deal, Vec<Action>) {
    let mut drawn = deal.stock.iter();
    let actions = actions
        .iter()
        .map(|action| match action.play {
            Move::Draw {
                from: Source::Stock,
                ..
            } => Action {
                player: action.player,
                play: Move::Draw {
                    from: Source::Stock,
                    card: drawn.next().copied(),
                },
            },
            _ => action.clone(),
        })
        .collect();
    let mut cut = deal.clone();
    cut.stock.truncate(keep);
    (cut, actions)
}

#[test]
fn a_stock_listing_only_some_cards_audits_as_the_whole_stock_does() {
    let profiles = [
        Profile::default(),
        Preset::Oklahoma.profile(),
        Preset::Tournament.profile(),
    ];
    let mut compared = 0;
    for seed in 0..240 {
        let profile = &profiles[seed as usize % profiles.len()];
        let record = play_out(seed, profile);
        let whole = audit_hand(profile, &record.deal, &record.actions).unwrap();
        let draws = record
            .actions
            .iter()
            .filter(|a| {
                matches!(
                    a.play,
                    Move::Draw {
                        from: Source::Stock,
                        ..
                    }
                )
            })
            .count();
        for keep in [0, draws / 2, draws] {
            let (cut, actions) = as_recorded(&record.deal, &record.actions, keep);
            assert_eq!(
                audit_hand(profile, &cut, &actions).unwrap(),
                whole,
                "seed {seed}, stock cut to {keep} of {draws} drawn"
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 720);
}

#[test]
fn a_draw_past_the_listed_stock_must_name_a_card_not_yet_in_play() {
    let mut deal = knock_deal();
    deal.stock.clear();
    let unnamed = script("N pass; D pass; N stock");
    assert_eq!(
        audit_hand(&Profile::default(), &deal, &unnamed),
        Err(AuditError::Deal(DealError::UnrecordedDraw {
            action: 2,
            listed: 0
        }))
    );
    let seen = script("N pass; D pass; N stock 7S");
    assert_eq!(
        audit_hand(&Profile::default(), &deal, &seen),
        Err(AuditError::Deal(DealError::DrawnCardSeen {
            action: 2,
            card: card("7S")
        }))
    );
    let named = script("N pass; D pass; N stock 2H; N knock KC");
    let audit = audit_hand(&Profile::default(), &deal, &named).unwrap();
    assert!(audit.is_legal());
    assert_eq!(audit.table.stock_remaining, STOCK_SIZE - 1);
}

#[test]
fn the_stock_still_ends_two_cards_short_of_31_when_it_lists_none() {
    // 29 draws exhaust the stock whatever it lists: the 30th is refused.
    let full = knock_deal();
    let mut deal = full.clone();
    deal.stock.truncate(3);
    let mut steps = vec!["N pass".to_owned(), "D pass".to_owned()];
    let mut turn = Seat::NonDealer;
    // Each player draws and discards the card drawn: hands never change.
    for drawn in &full.stock[..29] {
        let who = if turn == Seat::NonDealer { "N" } else { "D" };
        steps.push(format!("{who} stock {drawn}"));
        steps.push(format!("{who} discard {drawn}"));
        turn = turn.other();
    }
    let actions = script(&steps.join(";"));
    let audit = audit_hand(&Profile::default(), &deal, &actions).unwrap();
    assert_eq!(
        audit.end,
        Some(HandEnd::Void {
            action: actions.len() - 1
        })
    );
    assert_eq!(audit.table.stock_remaining, STOCK_RESERVE);
}

/// The knock deal after `N stock; N knock KC`: the knocker lays down
/// A-2-3S (0), 4-5-6H (1) and 9C-9D-9H (2); the dealer holds 7H and 4S.
fn knocked() -> Vec<Action> {
    script("N pass; D pass; N stock 2H; N knock KC")
}

fn reply(layoffs: Vec<RecordedLayoff>) -> Action {
    Action {
        player: Seat::Dealer,
        play: Move::LayOff {
            melds: None,
            layoffs: Some(layoffs),
            jokers: StandsFor::default(),
        },
    }
}

fn onto(c: &str, meld: Option<usize>, cards: Option<&str>) -> RecordedLayoff {
    RecordedLayoff {
        card: card(c),
        stands_for: None,
        meld,
        onto: cards.map(ordered),
    }
}

fn layoffs_scored(actions: &[Action]) -> Vec<Layoff> {
    let audit = audit_hand(&Profile::default(), &knock_deal(), actions).unwrap();
    assert!(audit.is_legal(), "{:?}", audit.violation);
    match audit.end {
        Some(HandEnd::Scored(hand)) => hand.score.showdown.defender.layoffs,
        other => panic!("not scored: {other:?}"),
    }
}

#[test]
fn a_layoff_names_its_meld_by_index_by_its_cards_or_not_at_all() {
    let by_index = [onto("7H", Some(1), None), onto("4S", Some(0), None)];
    let by_cards = [
        onto("7H", None, Some("5H 6H")),
        onto("4S", None, Some("AS 2S 3S")),
    ];
    let unnamed = [onto("7H", None, None), onto("4S", None, None)];
    let expected = layoffs_scored(&[knocked(), vec![reply(by_index.to_vec())]].concat());
    assert_eq!(expected, [natural_layoff("7H", 1), natural_layoff("4S", 0)]);
    for recorded in [by_cards, unnamed] {
        let mut placed = layoffs_scored(&[knocked(), vec![reply(recorded.to_vec())]].concat());
        placed.sort_by_key(|l| l.meld);
        let mut sorted = expected.clone();
        sorted.sort_by_key(|l| l.meld);
        assert_eq!(placed, sorted);
    }
}

#[test]
fn a_declared_empty_reply_lays_off_nothing_and_an_absent_one_plays_best() {
    let none = layoffs_scored(&[knocked(), vec![reply(Vec::new())]].concat());
    assert!(none.is_empty());
    let best = layoffs_scored(&knocked());
    assert_eq!(best.len(), 2, "{best:?}");
}

#[test]
fn meld_cards_no_knocker_meld_holds_are_a_violation_at_that_layoff() {
    let actions = [
        knocked(),
        vec![reply(vec![
            onto("7H", None, None),
            onto("4S", None, Some("KS QS")),
        ])],
    ]
    .concat();
    let violation = audit_hand(&Profile::default(), &knock_deal(), &actions)
        .unwrap()
        .violation
        .unwrap();
    assert_eq!(violation.code, ViolationCode::LayoffMeldNotFound);
    assert_eq!(violation.field.as_deref(), Some("layoffs/1/onto"));
}

#[test]
fn an_unplaceable_layoff_is_reported_at_its_place_in_the_record() {
    // 4S fits no heart meld; named onto 4-5-6H it cannot be placed.
    let actions = [
        knocked(),
        vec![reply(vec![
            onto("7H", None, None),
            onto("4S", None, Some("4H")),
        ])],
    ]
    .concat();
    let violation = audit_hand(&Profile::default(), &knock_deal(), &actions)
        .unwrap()
        .violation
        .unwrap();
    assert_eq!(violation.code, ViolationCode::LayoffDoesNotFit);
    assert_eq!(violation.field.as_deref(), Some("layoffs/1"));
}

#[test]
fn a_violation_names_the_part_of_the_action_at_fault() {
    let deal = knock_deal();
    let field = |text: &str| {
        audit_hand(&Profile::default(), &deal, &script(text))
            .unwrap()
            .violation
            .and_then(|v| v.field)
    };
    assert_eq!(field("N pass; D pass; N stock 3H").as_deref(), Some("card"));
    assert_eq!(
        field("N pass; D pass; N stock; N discard QS").as_deref(),
        Some("card")
    );
    assert_eq!(
        field("N pass; D pass; N stock; N knock QS").as_deref(),
        Some("discard")
    );
    assert_eq!(field("D pass").as_deref(), Some("player"));
}

#[test]
fn recorded_layoffs_without_their_melds_score_as_with_them() {
    let profile = Profile::default();
    let mut replies = 0;
    for seed in 0..600 {
        let record = play_out(seed, &profile);
        let mut unnamed = record.actions.clone();
        let mut changed = false;
        for action in &mut unnamed {
            if let Move::LayOff {
                layoffs: Some(layoffs),
                ..
            } = &mut action.play
            {
                for layoff in layoffs.iter_mut() {
                    layoff.meld = None;
                    changed = true;
                }
            }
        }
        if !changed {
            continue;
        }
        replies += 1;
        let score =
            |actions: &[Action]| match audit_hand(&profile, &record.deal, actions).unwrap().end {
                Some(HandEnd::Scored(hand)) => Some((
                    hand.score.settlement,
                    hand.score.showdown.defender.deadwood(),
                )),
                _ => None,
            };
        assert_eq!(score(&unnamed), score(&record.actions), "seed {seed}");
    }
    assert!(
        replies >= 20,
        "only {replies} recorded replies with layoffs"
    );
}

/// A natural card's layoff onto a meld, as scored.
fn natural_layoff(c: &str, meld: usize) -> Layoff {
    let shown: crate::card::Card = c.parse().unwrap();
    Layoff {
        card: shown.into(),
        meld,
        stands_for: shown,
    }
}
