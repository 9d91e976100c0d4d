//! Random play-outs: legal games judged legal, and each corrupted at one action.

use super::*;

/// Where a seat's cards are kept in [`Player::hands`].
fn slot(seat: Seat) -> usize {
    match seat {
        Seat::Dealer => 0,
        Seat::NonDealer => 1,
    }
}

/// What the actor held and saw just before an action, to corrupt it.
#[derive(Debug, Clone)]
struct Seen {
    actor: CardSet,
    opponent: CardSet,
    /// The action answers the first-turn upcard offer.
    offer: bool,
}

#[derive(Debug)]
pub(crate) struct PlayOut {
    profile: Profile,
    pub(crate) deal: Deal,
    pub(crate) actions: Vec<Action>,
    seen: Vec<Seen>,
    /// `None`: void. Otherwise the knocker and what `score_hand` must say.
    pub(crate) expected: Option<(Seat, HandScore)>,
    fiftieth_knock: bool,
}

struct Player<'a> {
    rng: &'a mut StdRng,
    profile: Profile,
    upcard: Card,
    limit: u32,
    hands: [CardSet; 2],
    stock: Vec<Card>,
    pile: Vec<Card>,
    actions: Vec<Action>,
    seen: Vec<Seen>,
    /// How readily the player knocks when it may: patient players keep
    /// improving, which reaches gin, big gin and the end of the stock.
    eagerness: f64,
}

impl Player<'_> {
    fn hand(&mut self, seat: Seat) -> &mut CardSet {
        &mut self.hands[slot(seat)]
    }

    fn act(&mut self, player: Seat, play: Move, offer: bool) {
        self.seen.push(Seen {
            actor: self.hands[slot(player)],
            opponent: self.hands[slot(player.other())],
            offer,
        });
        self.actions.push(Action { player, play });
    }

    fn named(&mut self, card: Card) -> Option<Card> {
        self.rng.gen_bool(0.5).then_some(card)
    }

    fn take_pile(&mut self, player: Seat, offer: bool) -> Card {
        let top = self.pile.pop().unwrap();
        let named = self.named(top);
        self.act(
            player,
            Move::Draw {
                from: Source::DiscardPile,
                card: named,
            },
            offer,
        );
        self.hand(player).insert(top);
        top
    }

    fn draw_stock(&mut self, player: Seat) {
        let top = self.stock.remove(0);
        let named = self.named(top);
        self.act(
            player,
            Move::Draw {
                from: Source::Stock,
                card: named,
            },
            false,
        );
        self.hand(player).insert(top);
    }

    /// Knock cards other than `taken` that leave deadwood within the limit.
    fn knock_cards(&self, hand: CardSet, taken: Option<Card>) -> Vec<Card> {
        hand.iter()
            .filter(|&c| Some(c) != taken)
            .filter(|&c| {
                let mut kept = hand;
                kept.remove(c);
                min_deadwood(kept) <= self.limit
            })
            .collect()
    }

    fn declare(&mut self, kept: CardSet) -> Option<Vec<Vec<Card>>> {
        self.rng.gen_bool(0.5).then(|| {
            best_arrangement(kept)
                .melds
                .iter()
                .map(|m| m.cards().to_vec())
                .collect()
        })
    }

    /// Plays one turn's second half; returns true when the player knocked.
    fn discard_or_knock(&mut self, player: Seat, taken: Option<Card>, must_knock: bool) -> bool {
        let hand = self.hands[slot(player)];
        if self.profile.big_gin_bonus().is_some()
            && min_deadwood(hand) == 0
            && self.rng.gen_bool(0.8)
        {
            let melds = self.declare(hand);
            self.act(
                player,
                Move::Knock {
                    discard: None,
                    melds,
                },
                false,
            );
            return true;
        }
        let options = self.knock_cards(hand, taken);
        if !options.is_empty() && (must_knock || self.rng.gen_bool(self.eagerness)) {
            let discard = *options.choose(self.rng).unwrap();
            let mut kept = hand;
            kept.remove(discard);
            let melds = self.declare(kept);
            self.act(
                player,
                Move::Knock {
                    discard: Some(discard),
                    melds,
                },
                false,
            );
            *self.hand(player) = kept;
            return true;
        }
        assert!(!must_knock, "took the 50th card without a knock");
        let best: Vec<Card> = analyze_drawn_hand(hand)
            .discards
            .iter()
            .map(|d| d.card)
            .filter(|&c| Some(c) != taken)
            .collect();
        let any: Vec<Card> = hand.iter().filter(|&c| Some(c) != taken).collect();
        let discard = if !best.is_empty() && self.rng.gen_bool(0.7) {
            *best.choose(self.rng).unwrap()
        } else {
            *any.choose(self.rng).unwrap()
        };
        self.act(player, Move::Discard { card: discard }, false);
        self.hand(player).remove(discard);
        self.pile.push(discard);
        false
    }
}

/// A simple random player drives both seats through one legal hand.
pub(crate) fn play_out(seed: u64, profile: &Profile) -> PlayOut {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut deck: Vec<Card> = Card::deck().collect();
    deck.shuffle(&mut rng);
    let deal = Deal {
        dealer: deck[0..10].to_vec(),
        non_dealer: deck[10..20].to_vec(),
        upcard: deck[20],
        stock: deck[21..].to_vec(),
    };
    let set = |cards: &[Card]| CardSet::from_distinct(cards.iter().copied()).unwrap();
    let mut p = Player {
        rng: &mut rng,
        profile: profile.clone(),
        upcard: deal.upcard,
        limit: profile.knock_limit_for(Some(deal.upcard)).unwrap(),
        hands: [set(&deal.dealer), set(&deal.non_dealer)],
        stock: deal.stock.clone(),
        pile: vec![deal.upcard],
        actions: Vec::new(),
        seen: Vec::new(),
        eagerness: [0.8, 0.3, 0.05][(seed / 7 % 3) as usize],
    };
    // The upcard offer.
    let (mut player, mut taken) = if p.rng.gen_bool(0.3) {
        (Seat::NonDealer, Some(p.take_pile(Seat::NonDealer, true)))
    } else {
        p.act(Seat::NonDealer, Move::Pass, true);
        if p.rng.gen_bool(0.3) {
            (Seat::Dealer, Some(p.take_pile(Seat::Dealer, true)))
        } else {
            p.act(Seat::Dealer, Move::Pass, true);
            p.draw_stock(Seat::NonDealer);
            (Seat::NonDealer, None)
        }
    };
    let mut must_knock = false;
    loop {
        if p.discard_or_knock(player, taken, must_knock) {
            let expected = reply(&mut p, player);
            return PlayOut {
                profile: profile.clone(),
                deal,
                actions: p.actions,
                seen: p.seen,
                expected: Some((player, expected)),
                fiftieth_knock: must_knock,
            };
        }
        let opponent = player.other();
        if p.stock.len() <= STOCK_RESERVE {
            let top = *p.pile.last().unwrap();
            let mut with = p.hands[slot(opponent)];
            with.insert(top);
            let can_knock = !p.knock_cards(with, Some(top)).is_empty();
            if profile.stock_end() == StockEnd::FiftiethCard && can_knock && p.rng.gen_bool(0.8) {
                p.take_pile(opponent, false);
                (player, taken, must_knock) = (opponent, Some(top), true);
                continue;
            }
            if profile.stock_end() == StockEnd::FiftiethCard {
                p.act(opponent, Move::Pass, false);
            }
            return PlayOut {
                profile: profile.clone(),
                deal,
                actions: p.actions,
                seen: p.seen,
                expected: None,
                fiftieth_knock: false,
            };
        }
        player = opponent;
        // Take the discard when it lowers the deadwood, now and then otherwise.
        let top = *p.pile.last().unwrap();
        let mut with = p.hands[slot(player)];
        let before = min_deadwood(with);
        with.insert(top);
        let helps = analyze_drawn_hand(with).deadwood < before;
        taken = if p.rng.gen_bool(if helps { 0.8 } else { 0.1 }) {
            Some(p.take_pile(player, false))
        } else {
            p.draw_stock(player);
            None
        };
    }
}

/// The defender's reply after `knocker` knocked (the last action), and the
/// score `score_hand` gives the final hands.
fn reply(p: &mut Player<'_>, knocker: Seat) -> HandScore {
    let Some(Action {
        play: Move::Knock { melds, .. },
        ..
    }) = p.actions.last().cloned()
    else {
        unreachable!()
    };
    let knocker_hand = KnockerHand {
        hand: p.hands[slot(knocker)].to_vec(),
        melds,
    };
    let defender = knocker.other();
    let defender_hand = DefenderHand {
        hand: p.hands[slot(defender)].to_vec(),
        ..DefenderHand::default()
    };
    let upcard = Some(p.upcard);
    let first = score_hand(&p.profile, upcard, &knocker_hand, &defender_hand).unwrap();
    let laid_down = KnockerHand {
        melds: Some(
            first
                .showdown
                .knocker
                .melds
                .iter()
                .map(|m| m.cards().to_vec())
                .collect(),
        ),
        ..knocker_hand
    };
    let (melds, layoffs) = match p.rng.gen_range(0..4) {
        0 => return first,
        1 => (None, None),
        2 => (
            Some(
                first
                    .showdown
                    .defender
                    .melds
                    .iter()
                    .map(|m| m.cards().to_vec())
                    .collect(),
            ),
            Some(first.showdown.defender.layoffs.clone()),
        ),
        _ => (None, Some(Vec::new())),
    };
    p.act(
        defender,
        Move::LayOff {
            melds: melds.clone(),
            layoffs: layoffs
                .as_ref()
                .map(|list| list.iter().map(|&l| l.into()).collect()),
        },
        false,
    );
    let declared = DefenderHand {
        melds,
        layoffs,
        ..defender_hand
    };
    score_hand(&p.profile, upcard, &laid_down, &declared).unwrap()
}

fn profiles() -> Vec<Profile> {
    vec![
        Profile::default(),
        Preset::Tournament.profile(),
        Preset::Oklahoma.profile(),
        Preset::OpenGin.profile(),
        Preset::Straight.profile(),
        profile(r#"{"base": "tournament", "big_gin_bonus": 31}"#),
    ]
}

const PLAY_OUTS: u64 = 252;

fn play_outs() -> impl Iterator<Item = PlayOut> {
    let profiles = profiles();
    (0..PLAY_OUTS).map(move |seed| play_out(seed, &profiles[seed as usize % profiles.len()]))
}

#[test]
fn random_legal_play_outs_are_judged_legal_and_scored_as_score_hand_scores_them() {
    let (mut void, mut scored, mut fiftieth, mut big_gin) = (0, 0, 0, 0);
    for game in play_outs() {
        let audit = audit(&game.profile, &game.deal, &game.actions);
        assert!(
            audit.is_legal(),
            "{:?}\n{:?}",
            audit.violation,
            game.actions
        );
        match (&audit.end, &game.expected) {
            (Some(HandEnd::Void { action }), None) => {
                assert_eq!(*action, game.actions.len() - 1);
                void += 1;
            }
            (Some(HandEnd::Scored(hand)), Some((knocker, score))) => {
                assert_eq!(hand.knocker, *knocker);
                assert_eq!(&hand.score, score);
                let again = score_hand(
                    &game.profile,
                    Some(game.deal.upcard),
                    &hand.knocker_hand,
                    &hand.defender_hand,
                );
                assert_eq!(again.as_ref(), Ok(score));
                scored += 1;
                fiftieth += usize::from(game.fiftieth_knock);
                big_gin += usize::from(hand.score.showdown.big_gin);
            }
            (end, expected) => panic!("ended {end:?}, expected {expected:?}"),
        }
    }
    // The driver reaches every ending, so the properties above are not vacuous.
    assert!(void > 10 && scored > 50, "void {void}, scored {scored}");
    assert!(fiftieth > 0, "no 50th-card knock in {PLAY_OUTS} play-outs");
    assert!(big_gin > 0, "no big gin in {PLAY_OUTS} play-outs");
}

/// Replaces action `k` by an illegal one; returns the code it must draw.
fn corrupt(rng: &mut StdRng, game: &PlayOut, k: usize) -> (Vec<Action>, ViolationCode) {
    use ViolationCode::*;
    let mut actions = game.actions.clone();
    let Action { player, play } = actions[k].clone();
    let seen = &game.seen[k];
    let any_held = |rng: &mut StdRng| *seen.actor.to_vec().choose(rng).unwrap();
    let not_held = |rng: &mut StdRng| *seen.opponent.to_vec().choose(rng).unwrap();
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
                let wrong = Card::deck().find(|&c| c != top).unwrap();
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
fn discard_top_before(game: &PlayOut, k: usize) -> Card {
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
