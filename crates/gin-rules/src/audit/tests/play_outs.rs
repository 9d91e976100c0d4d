//! Random play-outs: legal games judged legal, and each corrupted at one action.
//!
//! Under a profile with jokers the deck holds 53 or 54 cards and the driver
//! plays with the joker solver; a hand where a joker is held at the knock is
//! scored with the jokers, one without as the joker-free referee scores it.

use super::*;
use crate::audit::scoring_upcard;
use crate::deadwood::{analyze_drawn_hand, best_arrangement, min_deadwood};
use crate::declared::DeclaredMelds;
use crate::hand::{Hand, HandCard, Joker};
use crate::layoff::DeclaredReply;
use crate::layoff::Search;
use crate::profile::JokerRules;
use crate::score::knock::{score_knock, score_laid_down};
use crate::score::{HandScore, score_cards};

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
    actor: Hand,
    opponent: Hand,
    /// The action answers the first-turn upcard offer.
    offer: bool,
}

/// What the audit must say of a knock: the joker-free score, or the score
/// with jokers.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Expected {
    Natural(HandScore),
    Wild(HandScore),
}

impl Expected {
    pub(crate) fn settlement(&self) -> &crate::score::Settlement {
        match self {
            Expected::Natural(score) => &score.settlement,
            Expected::Wild(score) => &score.settlement,
        }
    }

    pub(crate) fn counts(&self) -> (u32, u32, bool) {
        match self {
            Expected::Natural(score) => (
                score.showdown.knocker.deadwood,
                score.showdown.defender.deadwood(),
                score.showdown.big_gin,
            ),
            Expected::Wild(score) => (
                score.showdown.knocker.deadwood,
                score.showdown.defender.deadwood(),
                score.showdown.big_gin,
            ),
        }
    }
}

#[derive(Debug)]
pub(crate) struct PlayOut {
    profile: Profile,
    pub(crate) deal: Deal,
    pub(crate) actions: Vec<Action>,
    seen: Vec<Seen>,
    /// `None`: void. Otherwise the knocker and what the scorer must say.
    pub(crate) expected: Option<(Seat, Expected)>,
    fiftieth_knock: bool,
    /// The knock declared nothing and the defender replied at best: the
    /// score is `score_cards`'s (with jokers).
    undeclared: bool,
}

struct Player<'a> {
    rng: &'a mut StdRng,
    profile: Profile,
    upcard: HandCard,
    limit: u32,
    hands: [Hand; 2],
    stock: Vec<HandCard>,
    pile: Vec<HandCard>,
    actions: Vec<Action>,
    seen: Vec<Seen>,
    /// How readily the player knocks when it may: patient players keep
    /// improving, which reaches gin, big gin and the end of the stock.
    eagerness: f64,
}

impl Player<'_> {
    fn hand(&mut self, seat: Seat) -> &mut Hand {
        &mut self.hands[slot(seat)]
    }

    fn jokers(&self) -> bool {
        self.profile.jokers() > 0
    }

    /// The least count: the joker solver under a profile with jokers.
    fn least(&self, hand: Hand) -> u32 {
        if self.jokers() {
            min_deadwood(hand, &self.profile.joker_rules())
        } else {
            min_deadwood(hand.naturals(), &JokerRules::NONE)
        }
    }

    fn act(&mut self, player: Seat, play: Move, offer: bool) {
        self.seen.push(Seen {
            actor: self.hands[slot(player)],
            opponent: self.hands[slot(player.other())],
            offer,
        });
        self.actions.push(Action { player, play });
    }

    fn named(&mut self, card: HandCard) -> Option<HandCard> {
        self.rng.gen_bool(0.5).then_some(card)
    }

    /// Whether the player may take this card from the pile: under
    /// `joker_pickup_must_meld` the driver leaves jokers there.
    fn may_take(&self, card: HandCard) -> bool {
        !(matches!(card, HandCard::Joker(_)) && self.profile.joker_rules().joker_pickup_must_meld())
    }

    fn take_pile(&mut self, player: Seat, offer: bool) -> HandCard {
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
        let hand = self.hand(player);
        *hand = hand.with(top);
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
        let hand = self.hand(player);
        *hand = hand.with(top);
    }

    /// Knock cards other than `taken` that leave deadwood within the limit.
    fn knock_cards(&self, hand: Hand, taken: Option<HandCard>) -> Vec<HandCard> {
        hand.cards()
            .filter(|&c| Some(c) != taken)
            .filter(|&c| self.least(hand.without(c)) <= self.limit)
            .collect()
    }

    /// Half the time, the melds of the best arrangement, jokers in place.
    fn declare(&mut self, kept: Hand) -> Declared {
        if !self.rng.gen_bool(0.5) {
            return (None, StandsFor::default());
        }
        if !self.jokers() {
            let melds = best_arrangement(kept.naturals(), &JokerRules::NONE)
                .melds
                .iter()
                .map(|m| m.cards().iter().map(HandCard::from).collect())
                .collect();
            return (Some(melds), StandsFor::default());
        }
        let best = best_arrangement(kept, &self.profile.joker_rules());
        let melds = best.melds.iter().map(written).collect();
        let jokers = best.melds.iter().flat_map(|m| m.jokers()).collect();
        (Some(melds), jokers)
    }

    /// Whether all eleven cards meld (jokers included).
    fn big_gin(&self, hand: Hand) -> bool {
        if self.jokers() {
            analyze_drawn_hand(hand, &self.profile.joker_rules()).big_gin
        } else {
            min_deadwood(hand.naturals(), &JokerRules::NONE) == 0
        }
    }

    /// The best discards of an 11-card hand.
    fn best_discards(&self, hand: Hand) -> Vec<HandCard> {
        if self.jokers() {
            analyze_drawn_hand(hand, &self.profile.joker_rules())
                .discards
                .iter()
                .map(|d| d.card)
                .collect()
        } else {
            analyze_drawn_hand(hand.naturals(), &JokerRules::NONE)
                .discards
                .iter()
                .map(|d| d.card)
                .collect()
        }
    }

    /// Plays one turn's second half; returns true when the player knocked.
    fn discard_or_knock(
        &mut self,
        player: Seat,
        taken: Option<HandCard>,
        must_knock: bool,
    ) -> bool {
        let hand = self.hands[slot(player)];
        if self.profile.big_gin_bonus().is_some() && self.big_gin(hand) && self.rng.gen_bool(0.8) {
            let (melds, jokers) = self.declare(hand);
            self.act(
                player,
                Move::Knock {
                    discard: None,
                    melds,
                    jokers,
                },
                false,
            );
            return true;
        }
        let options = self.knock_cards(hand, taken);
        if !options.is_empty() && (must_knock || self.rng.gen_bool(self.eagerness)) {
            let discard = *options.choose(self.rng).unwrap();
            let kept = hand.without(discard);
            let (melds, jokers) = self.declare(kept);
            self.act(
                player,
                Move::Knock {
                    discard: Some(discard),
                    melds,
                    jokers,
                },
                false,
            );
            *self.hand(player) = kept;
            return true;
        }
        assert!(!must_knock, "took the 50th card without a knock");
        let best: Vec<HandCard> = self
            .best_discards(hand)
            .into_iter()
            .filter(|&c| Some(c) != taken)
            .collect();
        let any: Vec<HandCard> = hand.cards().filter(|&c| Some(c) != taken).collect();
        let discard = if !best.is_empty() && self.rng.gen_bool(0.7) {
            *best.choose(self.rng).unwrap()
        } else {
            *any.choose(self.rng).unwrap()
        };
        self.act(player, Move::Discard { card: discard }, false);
        let hand = self.hand(player);
        *hand = hand.without(discard);
        self.pile.push(discard);
        false
    }
}

/// Declared melds, jokers written in place, and what each joker stands for.
type Declared = (Option<Vec<Vec<HandCard>>>, StandsFor);

/// A meld's cards as a record writes them: a joker in place of its card.
fn written(meld: &crate::meld::Meld) -> Vec<HandCard> {
    meld.cards()
        .iter()
        .map(|c| {
            meld.jokers()
                .find(|&(_, shown)| shown == c)
                .map_or(HandCard::Natural(c), |(j, _)| HandCard::Joker(j))
        })
        .collect()
}

/// A simple random player drives both seats through one legal hand.
pub(crate) fn play_out(seed: u64, profile: &Profile) -> PlayOut {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut deck: Vec<HandCard> = Card::deck()
        .map(HandCard::from)
        .chain(
            Joker::ALL
                .into_iter()
                .take(usize::from(profile.jokers()))
                .map(HandCard::from),
        )
        .collect();
    deck.shuffle(&mut rng);
    let deal = Deal {
        dealer: deck[0..10].to_vec(),
        non_dealer: deck[10..20].to_vec(),
        upcard: deck[20],
        stock: deck[21..].to_vec(),
    };
    let set = |cards: &[HandCard]| Hand::from_distinct(cards.iter().copied()).unwrap();
    let mut p = Player {
        rng: &mut rng,
        profile: profile.clone(),
        upcard: deal.upcard,
        limit: profile
            .knock_limit_for(Some(scoring_upcard(deal.upcard)))
            .unwrap(),
        hands: [set(&deal.dealer), set(&deal.non_dealer)],
        stock: deal.stock.clone(),
        pile: vec![deal.upcard],
        actions: Vec::new(),
        seen: Vec::new(),
        eagerness: [0.8, 0.3, 0.05][(seed / 7 % 3) as usize],
    };
    // The upcard offer.
    let takes = p.may_take(deal.upcard);
    let (mut player, mut taken) = if takes && p.rng.gen_bool(0.3) {
        (Seat::NonDealer, Some(p.take_pile(Seat::NonDealer, true)))
    } else {
        p.act(Seat::NonDealer, Move::Pass, true);
        if takes && p.rng.gen_bool(0.3) {
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
            let (expected, undeclared) = reply(&mut p, player);
            return PlayOut {
                profile: profile.clone(),
                deal,
                actions: p.actions,
                seen: p.seen,
                expected: Some((player, expected)),
                fiftieth_knock: must_knock,
                undeclared,
            };
        }
        let opponent = player.other();
        if p.stock.len() <= STOCK_RESERVE {
            let top = *p.pile.last().unwrap();
            let with = p.hands[slot(opponent)].with(top);
            let can_knock = p.may_take(top) && !p.knock_cards(with, Some(top)).is_empty();
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
                undeclared: false,
            };
        }
        player = opponent;
        // Take the discard when it lowers the deadwood, now and then otherwise.
        let top = *p.pile.last().unwrap();
        let before = p.least(p.hands[slot(player)]);
        let with = p.hands[slot(player)].with(top);
        let after = p
            .best_discards(with)
            .first()
            .map(|&c| p.least(with.without(c)));
        let helps = after.is_some_and(|after| after < before);
        taken = if p.may_take(top) && p.rng.gen_bool(if helps { 0.8 } else { 0.1 }) {
            Some(p.take_pile(player, false))
        } else {
            p.draw_stock(player);
            None
        };
    }
}

/// The defender's reply after `knocker` knocked (the last action), the
/// score the scorer gives the final hands, and whether nothing was declared.
fn reply(p: &mut Player<'_>, knocker: Seat) -> (Expected, bool) {
    let Some(Action {
        play: Move::Knock { melds, jokers, .. },
        ..
    }) = p.actions.last().cloned()
    else {
        unreachable!()
    };
    let defender = knocker.other();
    let (kept, held) = (p.hands[slot(knocker)], p.hands[slot(defender)]);
    let upcard = Some(scoring_upcard(p.upcard));
    let wild = kept.joker_count() > 0 || held.joker_count() > 0;
    let undeclared = melds.is_none();
    if !wild {
        return (Expected::Natural(reply_natural(p, knocker, melds)), false);
    }
    let declared = melds.map(|melds| DeclaredMelds {
        melds,
        stands_for: jokers,
    });
    let list = |hand: Hand| hand.cards().collect::<Vec<_>>();
    let first = score_knock(
        Search::Jokers,
        &p.profile,
        upcard,
        &list(kept),
        declared.as_ref(),
        &list(held),
        &DeclaredReply::default(),
    )
    .unwrap();
    let knocker_laid = first.showdown.knocker.clone();
    let declaration = match p.rng.gen_range(0..4) {
        0 => return (Expected::Wild(first), undeclared),
        1 => DeclaredReply::default(),
        2 => {
            let own = &first.showdown.defender;
            DeclaredReply {
                melds: Some(own.arrangement.melds.iter().map(written).collect()),
                jokers: own
                    .arrangement
                    .melds
                    .iter()
                    .flat_map(|m| m.jokers())
                    .collect(),
                layoffs: Some(
                    own.layoffs
                        .iter()
                        .map(|l| crate::layoff::DeclaredLayoff {
                            card: l.card,
                            stands_for: matches!(l.card, HandCard::Joker(_))
                                .then_some(l.stands_for),
                            meld: Some(l.meld),
                        })
                        .collect(),
                ),
            }
        }
        _ => DeclaredReply {
            layoffs: Some(Vec::new()),
            ..DeclaredReply::default()
        },
    };
    p.act(
        defender,
        Move::LayOff {
            melds: declaration.melds.clone(),
            jokers: declaration.jokers,
            layoffs: declaration.layoffs.as_ref().map(|list| {
                list.iter()
                    .map(|l| RecordedLayoff {
                        card: l.card,
                        stands_for: l.stands_for,
                        meld: l.meld,
                        onto: None,
                    })
                    .collect()
            }),
        },
        false,
    );
    let best = declaration == DeclaredReply::default();
    let score = score_laid_down(
        Search::Jokers,
        &p.profile,
        upcard,
        kept,
        knocker_laid,
        held,
        &declaration,
    )
    .unwrap();
    (Expected::Wild(score), undeclared && best)
}

/// [`reply`] for a knock without a joker in either hand: the joker-free
/// scoring.
fn reply_natural(
    p: &mut Player<'_>,
    knocker: Seat,
    melds: Option<Vec<Vec<HandCard>>>,
) -> HandScore {
    let knocker_hand = KnockerHand {
        hand: p.hands[slot(knocker)].cards().collect(),
        melds,
        jokers: None,
    };
    let defender = knocker.other();
    let defender_hand = DefenderHand::of_cards(p.hands[slot(defender)].cards());
    let upcard = Some(scoring_upcard(p.upcard));
    let first = score_hand(&p.profile, upcard, &knocker_hand, &defender_hand).unwrap();
    let laid_down = KnockerHand {
        melds: Some(
            first
                .showdown
                .knocker
                .melds
                .iter()
                .map(|m| m.shown().collect())
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
                    .arrangement
                    .melds
                    .iter()
                    .map(|m| m.shown().collect())
                    .collect::<Vec<_>>(),
            ),
            Some(first.showdown.defender.layoffs.clone()),
        ),
        _ => (None, Some(Vec::new())),
    };
    p.act(
        defender,
        Move::LayOff {
            melds: melds.clone(),
            jokers: StandsFor::default(),
            layoffs: layoffs
                .as_ref()
                .map(|list| list.iter().map(|&l| l.into()).collect()),
        },
        false,
    );
    let declared = DefenderHand {
        melds,
        layoffs: layoffs.map(|list| list.into_iter().map(Into::into).collect()),
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

/// Profiles with jokers: one or two, each parameter varied, with the
/// tournament's 50th-card rule, Oklahoma limits and a big gin bonus.
fn joker_profiles() -> Vec<Profile> {
    vec![
        Preset::Jokers.profile(),
        profile(r#"{"base": "jokers", "jokers": 1}"#),
        profile(r#"{"base": "jokers", "joker_deadwood": 0, "joker_min_natural": 1}"#),
        profile(
            r#"{"base": "jokers", "joker_deadwood": 25, "joker_min_natural": 3, "joker_layoff": false}"#,
        ),
        profile(r#"{"base": "tournament", "jokers": 2, "big_gin_bonus": 31}"#),
        profile(r#"{"base": "oklahoma", "jokers": 2, "joker_pickup_must_meld": true}"#),
    ]
}

const PLAY_OUTS: u64 = 252;

/// Joker play-outs: fewer, each hand costs the joker solver's searches.
const JOKER_PLAY_OUTS: u64 = 120;

fn play_outs() -> impl Iterator<Item = PlayOut> {
    let profiles = profiles();
    (0..PLAY_OUTS).map(move |seed| play_out(seed, &profiles[seed as usize % profiles.len()]))
}

fn joker_play_outs() -> impl Iterator<Item = PlayOut> {
    let profiles = joker_profiles();
    (0..JOKER_PLAY_OUTS)
        .map(move |seed| play_out(seed + 10_000, &profiles[seed as usize % profiles.len()]))
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
            (Some(HandEnd::Scored(hand)), Some((knocker, Expected::Natural(score)))) => {
                assert_eq!(hand.knocker, *knocker);
                assert_eq!(&hand.score, score);
                let again = score_hand(
                    &game.profile,
                    Some(scoring_upcard(game.deal.upcard)),
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

#[test]
fn random_play_outs_with_jokers_are_judged_legal_and_scored_as_score_hand_scores_them() {
    let (mut void, mut natural, mut wild, mut undeclared) = (0, 0, 0, 0);
    let (mut melded, mut laid, mut fiftieth, mut big_gin) = (0, 0, 0, 0);
    for game in joker_play_outs() {
        // 52 + n cards dealt, the stock 31 + n.
        assert_eq!(game.deal.stock.len(), stock_size(game.profile.jokers()));
        let audit = audit(&game.profile, &game.deal, &game.actions);
        assert!(
            audit.is_legal(),
            "{:?}\n{:?}",
            audit.violation,
            game.actions
        );
        match (&audit.end, &game.expected) {
            (Some(HandEnd::Void { .. }), None) => void += 1,
            (Some(HandEnd::Scored(hand)), Some((knocker, Expected::Natural(score)))) => {
                assert_eq!((hand.knocker, &hand.score), (*knocker, score));
                natural += 1;
            }
            (Some(HandEnd::Scored(hand)), Some((knocker, Expected::Wild(score)))) => {
                assert_eq!((hand.knocker, &hand.score), (*knocker, score));
                if game.undeclared {
                    // Nothing declared: exactly score_cards of the final hands.
                    let again = score_cards(
                        &game.profile,
                        Some(scoring_upcard(game.deal.upcard)),
                        hand.knocker_hand.hand.iter().copied().collect(),
                        hand.defender_hand.hand.iter().copied().collect(),
                    );
                    assert_eq!(again.as_ref(), Ok(score));
                    undeclared += 1;
                }
                let showdown = &hand.score.showdown;
                melded += usize::from(showdown.knocker.melds.iter().any(|m| m.joker_count() > 0));
                laid += usize::from(
                    showdown
                        .defender
                        .layoffs
                        .iter()
                        .any(|l| matches!(l.card, HandCard::Joker(_))),
                );
                fiftieth += usize::from(game.fiftieth_knock);
                big_gin += usize::from(showdown.big_gin);
                wild += 1;
            }
            (end, expected) => panic!("ended {end:?}, expected {expected:?}"),
        }
    }
    println!(
        "joker play-outs: {void} void, {natural} scored without a joker held, {wild} with \
         ({undeclared} undeclared, {melded} knocker melds holding a joker, {laid} jokers laid \
         off, {fiftieth} 50th-card knocks, {big_gin} big gin)"
    );
    assert!(
        void > 5 && wild > 40 && natural > 0,
        "void {void}, wild {wild}, natural {natural}"
    );
    // Jokers laid off are rare in play (a defender melds its joker); the
    // scripted tests in `jokers.rs` cover them.
    assert!(undeclared > 5 && melded > 10, "{undeclared} {melded}");
}

mod corrupted;
mod held;
