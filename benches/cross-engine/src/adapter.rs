//! Our bots as the engine's `Strategy`.
//!
//! The engine hands a seat a `View`: its cards, the pile, the stock's count,
//! what the opponent took, shed and passed, the spread after a knock. It
//! has no ordered log, and our bots read one (the `simple` loop breaker
//! reads the seat's own story). So the adapter keeps the hand's story as the
//! seat saw it ([`Event`]s), rebuilt from successive views: what the
//! opponent did between two of our decisions is read off what changed (a
//! pass puts the upcard among its passed cards, a stock draw shortens the
//! stock, a discard or a knock tops the pile), and our own stock draws name
//! their card at the next decision (the one card the hand gained).
//!
//! At each decision the adapter deals a [`LiveHand`] of our referee that
//! replays that story: the seat's own cards and draws as they were, and the
//! cards it cannot see dealt as any cards consistent with what it saw (a
//! card the opponent shed from its hand was in its hand; one it shed beyond
//! its ten dealt cards came from one of its stock draws before; the rest are
//! fillers). Our bots never read the cards a seat cannot see (the
//! information test in crates/gin-rules/tests/bots proves it), so the
//! fillers change nothing. The bot chooses one of the listed actions, and
//! the adapter plays it on the engine's table: a knock with the engine's
//! best arrangement, the best reply as the layoffs that leave the least
//! deadwood, one at a time.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use gin_rules::bots::{BotSpec, ScoreContext, SeatView, choose};
use gin_rules::{LegalAction, LegalKind, LiveHand, Move, Profile, Seat, StatePhase};
use gin_rummy_engine::gin_rummy::{Card, Hand, Meld, Phase, best_melds, deadwood};
use gin_rummy_engine::{
    DrawAction, HeuristicBot, Layoff, Strategy, TurnAction, UpcardAction, View,
};

use crate::cards::Cards;
use crate::replay::{Event, Story, replay};

pub struct Adapter {
    spec: BotSpec,
    profile: Arc<Profile>,
    cards: Cards,
    score: ScoreContext,
    story: Option<Story>,
    /// After a fault, the rest of the hand is played by `fallback`.
    broken: bool,
    plan: Option<VecDeque<Layoff>>,
    fallback: HeuristicBot,
    /// Hands in which the adapter could not follow the table.
    pub faults: u64,
    pub first_faults: Vec<String>,
    /// Time of each of the bot's decisions (the adapter's rebuild included).
    pub times: Vec<Duration>,
}

impl Adapter {
    pub fn new(spec: BotSpec, profile: Arc<Profile>) -> Result<Adapter, String> {
        Ok(Adapter {
            spec,
            profile,
            cards: Cards::new()?,
            score: ScoreContext {
                own: 0,
                opponent: 0,
                target: 100,
            },
            story: None,
            broken: false,
            plan: None,
            fallback: HeuristicBot::new(),
            faults: 0,
            first_faults: Vec::new(),
            times: Vec::new(),
        })
    }

    /// A new hand begins, at this match score.
    pub fn new_hand(&mut self, score: ScoreContext) {
        self.score = score;
        self.story = None;
        self.broken = false;
        self.plan = None;
    }

    fn fault(&mut self, message: String) {
        if !self.broken {
            self.faults += 1;
            if self.first_faults.len() < 5 {
                self.first_faults.push(message);
            }
        }
        self.broken = true;
    }

    fn record(&mut self, event: Event) {
        if let Some(story) = self.story.as_mut() {
            match &event {
                Event::Take(_, card) => story.held.insert(*card),
                Event::Discard(_, card) | Event::Knock(_, card, _) => story.held.remove(*card),
                _ => false,
            };
            story.events.push(event);
        }
    }

    /// The listed action our bot plays at this view.
    fn decide(&mut self, view: &View<'_>) -> Result<LegalAction, String> {
        let started = Instant::now();
        let live = self.sync(view)?;
        let me = self.story.as_ref().ok_or("no story")?.me;
        let seat_view = SeatView::of_live(&live, me)
            .map_err(|error| error.to_string())?
            .with_score(self.score);
        agree(&seat_view, view, &self.cards)?;
        let index = choose(&self.spec, &seat_view).map_err(|error| error.to_string())?;
        let action = seat_view
            .legal_actions()
            .get(index)
            .cloned()
            .ok_or("no such action")?;
        self.times.push(started.elapsed());
        Ok(action)
    }

    /// Brings the story up to this view and answers the hand it replays.
    fn sync(&mut self, view: &View<'_>) -> Result<LiveHand, String> {
        let me = seat_of(view);
        let story = match self.story.as_mut() {
            Some(story) => story,
            None => self.story.insert(first_story(me, view)?),
        };
        let fresh = view.hand() - story.held;
        if let Some(Event::Stock(seat, card @ None)) = story.events.last_mut()
            && *seat == me
        {
            *card = Some(only(fresh)?);
            story.held = view.hand();
        }
        for _ in 0..8 {
            let live = replay(story, &self.cards, &self.profile)?;
            let (phase, actor, _) = live.now();
            let actor = actor.ok_or("the replayed hand is over")?;
            if actor == me {
                match (phase, view.phase()) {
                    (StatePhase::Draw, Phase::Discard) => {
                        // The draw after two passes: the table makes it.
                        let card = only(view.hand() - story.held)?;
                        story.events.push(Event::Stock(me, Some(card)));
                        story.held = view.hand();
                    }
                    (StatePhase::UpcardOffer, Phase::Upcard)
                    | (StatePhase::Draw, Phase::Draw)
                    | (StatePhase::Discard, Phase::Discard)
                    | (StatePhase::Reply, Phase::Layoff) => return Ok(live),
                    (ours, theirs) => return Err(format!("phases differ: {ours:?}, {theirs:?}")),
                }
            } else {
                let event = their_event(story, view, phase)?;
                story.events.push(event);
            }
        }
        Err("the story does not reach the table".into())
    }
}

/// The replayed hand shows the seat what the engine's table shows it: its
/// cards, the pile, the stock's count, the opponent's cards it saw taken.
fn agree(ours: &SeatView, theirs: &View<'_>, cards: &Cards) -> Result<(), String> {
    let set = |hand: gin_rules::Hand| -> Result<Hand, String> {
        hand.cards()
            .map(|card| cards.theirs(card))
            .try_fold(Hand::EMPTY, |all, card| Ok(all | card?.into()))
    };
    let pile: Vec<Card> = ours
        .discard_pile()
        .iter()
        .rev()
        .map(|card| cards.theirs(*card))
        .collect::<Result<_, _>>()?;
    let same = set(ours.hand())? == theirs.hand()
        && pile == theirs.discard_pile()
        && ours.stock_remaining() == theirs.stock_len()
        && set(ours.opponent_known())? == theirs.opponent_known();
    if same {
        Ok(())
    } else {
        Err("the replayed hand shows the seat another table".into())
    }
}

fn only(cards: Hand) -> Result<Card, String> {
    let mut iter = cards.iter();
    match (iter.next(), iter.next()) {
        (Some(card), None) => Ok(card),
        _ => Err(format!("expected one new card, not {}", cards.len())),
    }
}

fn first_story(me: Seat, view: &View<'_>) -> Result<Story, String> {
    // The dealer's first view may come after the non-dealer took the upcard.
    let upcard = match view.opponent_known().iter().next() {
        Some(card) => card,
        None => *view.discard_pile().first().ok_or("no upcard")?,
    };
    Ok(Story {
        me,
        dealt: view.hand(),
        upcard,
        events: Vec::new(),
        held: view.hand(),
    })
}

/// The pile's top and the stock's count after the story.
fn table_after(story: &Story) -> (Option<Card>, usize) {
    let mut pile = vec![story.upcard];
    let mut stock = 31usize;
    for event in &story.events {
        match event {
            Event::Take(..) => {
                pile.pop();
            }
            Event::Stock(..) => stock = stock.saturating_sub(1),
            Event::Discard(_, card) | Event::Knock(_, card, _) => pile.push(*card),
            Event::Pass(_) => {}
        }
    }
    (pile.last().copied(), stock)
}

/// What the opponent did next, read off the view.
fn their_event(story: &Story, view: &View<'_>, phase: StatePhase) -> Result<Event, String> {
    let them = story.me.other();
    let (top, stock) = table_after(story);
    match phase {
        StatePhase::UpcardOffer => {
            let top = top.ok_or("no upcard")?;
            Ok(if view.opponent_passed().contains(top) {
                Event::Pass(them)
            } else {
                Event::Take(them, top)
            })
        }
        StatePhase::Draw if stock > view.stock_len() => Ok(Event::Stock(them, None)),
        StatePhase::Draw => Ok(Event::Take(them, top.ok_or("an empty pile")?)),
        StatePhase::Discard => {
            let shed = *view.discard_pile().last().ok_or("an empty pile")?;
            Ok(if view.knocker() == Some(view.seat().opponent()) {
                Event::Knock(them, shed, view.spread().collect())
            } else {
                Event::Discard(them, shed)
            })
        }
        other => Err(format!("the opponent to act at {other:?}")),
    }
}

/// The layoffs onto the spread that leave the defender the least deadwood
/// (chained extensions included), in the order to play them.
fn best_layoffs(hand: Hand, spread: &mut Vec<Meld>) -> (u8, Vec<Layoff>) {
    let mut best = (deadwood(hand), Vec::new());
    for card in hand.iter() {
        for index in 0..spread.len() {
            let Some(meld) = spread.get(index).copied() else {
                continue;
            };
            let Some(extended) = meld.extended(card) else {
                continue;
            };
            if let Some(slot) = spread.get_mut(index) {
                *slot = extended;
            }
            let (left, mut rest) = best_layoffs(hand - card.into(), spread);
            if let Some(slot) = spread.get_mut(index) {
                *slot = meld;
            }
            if left < best.0 {
                rest.insert(0, Layoff { card, meld: index });
                best = (left, rest);
            }
        }
    }
    best
}

impl Adapter {
    /// Decides, or, after a fault, lets the fallback play the rest of the
    /// hand.
    fn play<T>(
        &mut self,
        view: &View<'_>,
        map: impl FnOnce(&LegalAction, &View<'_>, &Cards) -> Result<(T, Option<Event>), String>,
        fallback: impl FnOnce(&mut HeuristicBot, &View<'_>) -> T,
    ) -> T {
        if !self.broken {
            let decided = self.decide(view);
            match decided.and_then(|action| map(&action, view, &self.cards)) {
                Ok((answer, event)) => {
                    if let Some(event) = event {
                        self.record(event);
                    }
                    return answer;
                }
                Err(message) => self.fault(message),
            }
        }
        fallback(&mut self.fallback, view)
    }
}

fn seat_of(view: &View<'_>) -> Seat {
    if view.dealer() == view.seat() {
        Seat::Dealer
    } else {
        Seat::NonDealer
    }
}

impl Strategy for Adapter {
    fn offer_upcard(&mut self, view: &View<'_>) -> UpcardAction {
        self.play(
            view,
            |action, view, _| {
                let me = seat_of(view);
                match action.kind {
                    LegalKind::TakeDiscard => {
                        let top = view.upcard().ok_or("no upcard")?;
                        Ok((UpcardAction::Take, Some(Event::Take(me, top))))
                    }
                    LegalKind::Pass => Ok((UpcardAction::Pass, Some(Event::Pass(me)))),
                    other => Err(format!("{other:?} at the upcard offer")),
                }
            },
            |bot, view| bot.offer_upcard(view),
        )
    }

    fn choose_draw(&mut self, view: &View<'_>) -> DrawAction {
        self.play(
            view,
            |action, view, _| {
                let me = seat_of(view);
                match action.kind {
                    LegalKind::TakeDiscard => {
                        let top = view.upcard().ok_or("no top card")?;
                        Ok((DrawAction::TakeDiscard, Some(Event::Take(me, top))))
                    }
                    LegalKind::DrawStock => Ok((DrawAction::Stock, Some(Event::Stock(me, None)))),
                    other => Err(format!("{other:?} at a draw")),
                }
            },
            |bot, view| bot.choose_draw(view),
        )
    }

    fn play_turn(&mut self, view: &View<'_>) -> TurnAction {
        self.play(
            view,
            |action, view, cards| {
                let me = seat_of(view);
                match (&action.kind, &action.action.play) {
                    (LegalKind::Discard, Move::Discard { card }) => {
                        let card = cards.theirs(*card)?;
                        Ok((TurnAction::Discard(card), Some(Event::Discard(me, card))))
                    }
                    (
                        LegalKind::Knock,
                        Move::Knock {
                            discard: Some(card),
                            ..
                        },
                    ) => {
                        let card = cards.theirs(*card)?;
                        let melds = best_melds(view.hand() - card.into());
                        let event = Event::Knock(me, card, melds.iter().collect());
                        Ok((
                            TurnAction::Knock {
                                discard: card,
                                melds,
                            },
                            Some(event),
                        ))
                    }
                    (LegalKind::BigGin, _) => {
                        Ok((TurnAction::BigGin(best_melds(view.hand())), None))
                    }
                    (other, _) => Err(format!("{other:?} at a discard")),
                }
            },
            |bot, view| bot.play_turn(view),
        )
    }

    fn choose_layoff(&mut self, view: &View<'_>) -> Option<Layoff> {
        if let Some(plan) = self.plan.as_mut() {
            return plan.pop_front();
        }
        let plan = self.play(
            view,
            |action, view, _| match action.kind {
                LegalKind::BestReply => {
                    let mut spread: Vec<Meld> = view.spread().collect();
                    Ok((best_layoffs(view.hand(), &mut spread).1, None))
                }
                LegalKind::NoLayoffs => Ok((Vec::new(), None)),
                other => Err(format!("{other:?} at a reply")),
            },
            |_, view| {
                // Both our bots always play the best reply.
                let mut spread: Vec<Meld> = view.spread().collect();
                best_layoffs(view.hand(), &mut spread).1
            },
        );
        let mut plan: VecDeque<Layoff> = plan.into();
        let first = plan.pop_front();
        self.plan = Some(plan);
        first
    }

    fn name(&self) -> &str {
        self.spec.name.name()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_reply_lays_off_chained_cards_onto_the_same_meld() {
        let hand: Hand = "89.AK..".parse().unwrap();
        let mut spread: Vec<Meld> = vec![
            "567..."
                .parse::<Hand>()
                .map(|cards| Meld::try_from_cards(cards).unwrap())
                .unwrap(),
        ];
        let (left, plan) = best_layoffs(hand, &mut spread);
        assert_eq!(left, 11);
        assert_eq!(plan.len(), 2);
        assert!(plan.iter().all(|layoff| layoff.meld == 0));
    }
}
