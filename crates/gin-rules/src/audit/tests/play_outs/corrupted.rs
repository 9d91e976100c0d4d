//! Play-outs altered at one action: corrupted at a random action (a wrong
//! card, a wrong seat, a move out of turn, ...), which the audit flags at
//! that action with the violation the corruption makes, and a joker taken
//! from the pile then discarded away.

use super::*;

#[test]
fn joker_play_outs_corrupted_at_a_random_action_are_flagged_at_that_action() {
    let mut rng = StdRng::seed_from_u64(7);
    for game in joker_play_outs() {
        let k = rng.gen_range(0..game.actions.len());
        let (actions, code) = corrupt(&mut rng, &game, k);
        let audit = audit(&game.profile, &game.deal, &actions);
        let violation = audit
            .violation
            .unwrap_or_else(|| panic!("corruption at {k} judged legal: {:?}", actions[k]));
        assert_eq!(
            (violation.action, violation.code),
            (Some(k), code),
            "{}\n{:?} in {:?}",
            violation.message,
            actions[k],
            game.actions
        );
    }
}

/// Replaces action `k` by an illegal one; returns the code it must draw.
fn corrupt(rng: &mut StdRng, game: &PlayOut, k: usize) -> (Vec<Action>, ViolationCode) {
    use ViolationCode::*;
    let mut actions = game.actions.clone();
    let Action { player, play } = actions[k].clone();
    let seen = &game.seen[k];
    let any_held = |rng: &mut StdRng| *seen.actor.cards().collect::<Vec<_>>().choose(rng).unwrap();
    let not_held = |rng: &mut StdRng| {
        *seen
            .opponent
            .cards()
            .collect::<Vec<_>>()
            .choose(rng)
            .unwrap()
    };
    let (bad, code) = if rng.gen_bool(0.3) {
        let code = if seen.offer {
            UpcardOfferViolated
        } else {
            WrongPlayer
        };
        (
            Action {
                player: player.other(),
                play,
            },
            code,
        )
    } else {
        let play_as = |play| Action { player, play };
        match play {
            Move::Draw { from, .. } if rng.gen_bool(0.5) => {
                let top = match from {
                    Source::Stock => game.deal.stock[stock_draws_before(&actions, k)],
                    Source::DiscardPile => discard_top_before(game, k),
                };
                let wrong = Card::deck()
                    .map(HandCard::from)
                    .find(|&c| c != top)
                    .unwrap();
                (
                    play_as(Move::Draw {
                        from,
                        card: Some(wrong),
                    }),
                    ExpectedCardMismatch,
                )
            }
            Move::Draw { .. } | Move::Pass => (
                play_as(Move::Discard {
                    card: any_held(rng),
                }),
                MustDrawFirst,
            ),
            Move::Discard { .. } if rng.gen_bool(0.5) => (
                play_as(Move::Discard {
                    card: not_held(rng),
                }),
                CardNotInHand,
            ),
            Move::Discard { .. } => (
                play_as(Move::Draw {
                    from: Source::Stock,
                    card: None,
                }),
                AlreadyDrew,
            ),
            Move::Knock { .. } => (
                play_as(Move::Knock {
                    discard: Some(not_held(rng)),
                    melds: None,
                    jokers: StandsFor::default(),
                }),
                CardNotInHand,
            ),
            Move::LayOff { .. } => (
                play_as(Move::Draw {
                    from: Source::Stock,
                    card: None,
                }),
                ActionAfterHandEnded,
            ),
        }
    };
    actions[k] = bad;
    (actions, code)
}

fn stock_draws_before(actions: &[Action], k: usize) -> usize {
    actions[..k]
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
        .count()
}

/// The discard pile's top card before action `k`, replayed from the actions.
fn discard_top_before(game: &PlayOut, k: usize) -> HandCard {
    let mut pile = vec![game.deal.upcard];
    for action in &game.actions[..k] {
        match &action.play {
            Move::Draw {
                from: Source::DiscardPile,
                ..
            } => {
                pile.pop();
            }
            Move::Discard { card }
            | Move::Knock {
                discard: Some(card),
                ..
            } => pile.push(*card),
            _ => {}
        }
    }
    *pile.last().unwrap()
}

#[test]
fn each_play_out_corrupted_at_a_random_action_is_flagged_at_that_action() {
    let mut rng = StdRng::seed_from_u64(6);
    for game in play_outs() {
        for _ in 0..2 {
            let k = rng.gen_range(0..game.actions.len());
            let (actions, code) = corrupt(&mut rng, &game, k);
            let audit = audit(&game.profile, &game.deal, &actions);
            let violation = audit
                .violation
                .unwrap_or_else(|| panic!("corruption at {k} judged legal: {:?}", actions[k]));
            assert_eq!(
                (violation.action, violation.code),
                (Some(k), code),
                "{}\n{:?} in {:?}",
                violation.message,
                actions[k],
                game.actions
            );
        }
        // An action after the end of the hand.
        let mut extra = game.actions.clone();
        extra.push(Action {
            player: Seat::NonDealer,
            play: Move::Draw {
                from: Source::DiscardPile,
                card: None,
            },
        });
        let code = audit(&game.profile, &game.deal, &extra)
            .violation
            .map(|v| (v.action, v.code));
        let expected = if game.expected.is_some() {
            ViolationCode::ActionAfterHandEnded
        } else {
            ViolationCode::HandIsVoid
        };
        assert_eq!(code, Some((Some(game.actions.len()), expected)));
    }
}

#[test]
fn a_joker_taken_from_the_pile_and_discarded_away_is_joker_not_melded_in_play_outs() {
    // Where a joker lay on top of the pile at a draw, a player under
    // joker_pickup_must_meld who takes it and then discards breaks the rule.
    let mut found = 0;
    for game in joker_play_outs() {
        if !game.profile.joker_rules().joker_pickup_must_meld() {
            continue;
        }
        for (k, action) in game.actions.iter().enumerate() {
            let Move::Draw { .. } = action.play else {
                continue;
            };
            // Not the opening draw after two passes (from the stock), nor the
            // 50th-card offer (taken only to knock).
            let opening = k == 2 && game.actions[..2].iter().all(|a| a.play == Move::Pass);
            let last = stock_draws_before(&game.actions, k)
                >= stock_size(game.profile.jokers()) - STOCK_RESERVE;
            let top = discard_top_before(&game, k);
            let (HandCard::Joker(_), false, false) = (top, opening, last) else {
                continue;
            };
            let keep = game.seen[k].actor.cards().find(|&c| c != top).unwrap();
            let mut actions = game.actions[..k].to_vec();
            actions.push(Action {
                player: action.player,
                play: Move::Draw {
                    from: Source::DiscardPile,
                    card: Some(top),
                },
            });
            actions.push(Action {
                player: action.player,
                play: Move::Discard { card: keep },
            });
            let violation = audit(&game.profile, &game.deal, &actions)
                .violation
                .unwrap_or_else(|| panic!("legal: {actions:?}"));
            assert_eq!(
                (violation.action, violation.code),
                (Some(k + 1), ViolationCode::JokerNotMelded),
                "{}",
                violation.message
            );
            found += 1;
        }
    }
    println!("jokers taken from the pile and discarded away: {found}");
    assert!(found > 0, "no joker on top of the pile at a draw");
}
