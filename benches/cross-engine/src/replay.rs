//! A deal of our referee that replays a seat's story of an engine hand
//! (see the adapter's docs): the seat's cards as they were, the cards it
//! cannot see placed consistently with what it saw.

use std::collections::VecDeque;

use gin_rules::{Action, Deal, HandCard, LiveHand, Move, Profile, Seat, Source};
use gin_rummy_engine::gin_rummy::{Card, Hand, Meld};

use crate::cards::Cards;

/// One thing that happened in the hand, as the adapter's seat saw it.
#[derive(Debug, Clone)]
pub(crate) enum Event {
    Pass(Seat),
    /// The top of the pile taken (the upcard too).
    Take(Seat, Card),
    /// A stock draw: the card, when the seat saw it.
    Stock(Seat, Option<Card>),
    Discard(Seat, Card),
    /// A knock: its discard and the melds laid down.
    Knock(Seat, Card, Vec<Meld>),
}

/// The hand so far, from the adapter's seat.
pub(crate) struct Story {
    pub(crate) me: Seat,
    pub(crate) dealt: Hand,
    pub(crate) upcard: Card,
    pub(crate) events: Vec<Event>,
    /// The seat's cards after its last action, as it knows them.
    pub(crate) held: Hand,
}

/// Where the opponent's cards shown from its hand came from: its ten dealt
/// cards, then (for one shed beyond them) its earliest stock draw before.
struct Placement {
    opponent: Vec<Card>,
    /// By index among the story's events: the card an opponent's stock draw
    /// drew.
    drawn: Vec<(usize, Card)>,
    fillers: VecDeque<Card>,
}

fn place(story: &Story, cards: &Cards) -> Result<Placement, String> {
    let them = story.me.other();
    let mut known = Hand::EMPTY; // taken from the pile, not shed since
    let mut needs: Vec<(usize, Card)> = Vec::new();
    let mut placed = story.dealt;
    placed.insert(story.upcard);
    let mut knock: Option<(usize, usize)> = None;
    for (at, event) in story.events.iter().enumerate() {
        match event {
            Event::Take(seat, card) if *seat == them => {
                known.insert(*card);
            }
            Event::Stock(seat, Some(card)) if *seat == story.me => {
                placed.insert(*card);
            }
            Event::Discard(seat, card) if *seat == them && !known.remove(*card) => {
                needs.push((at, *card));
            }
            Event::Knock(seat, card, melds) if *seat == them => {
                let mut shown: Vec<Card> = vec![*card];
                shown.extend(melds.iter().flat_map(|meld| meld.cards().iter()));
                for shown in &shown {
                    if !known.remove(*shown) {
                        needs.push((at, *shown));
                    }
                }
                // Its deadwood: the known cards it kept, and cards unseen.
                let melded: usize = melds.iter().map(|meld| meld.len()).sum();
                knock = Some((at, 10usize.saturating_sub(melded + known.len())));
            }
            _ => {}
        }
    }
    for (_, card) in &needs {
        placed.insert(*card);
    }
    let mut pool: Vec<Card> = cards
        .all_theirs()
        .filter(|card| !placed.contains(*card))
        .collect();
    if let Some((at, count)) = knock {
        // The least cards unseen stand for its deadwood: the real ones are
        // unseen too, so these count no more than they, within the limit.
        pool.sort_by_key(|card| card.rank.deadwood());
        let low: Vec<Card> = pool.drain(..count.min(pool.len())).collect();
        needs.extend(low.into_iter().map(|card| (at, card)));
    }
    let mut opponent = Vec::new();
    let mut drawn = Vec::new();
    let draws: Vec<usize> = story
        .events
        .iter()
        .enumerate()
        .filter(|(_, event)| matches!(event, Event::Stock(seat, _) if *seat == them))
        .map(|(at, _)| at)
        .collect();
    let mut next_draw = draws.iter().peekable();
    for (at, card) in needs {
        if opponent.len() < 10 {
            opponent.push(card);
            continue;
        }
        let draw = next_draw
            .next()
            .ok_or("the opponent shows more cards than it drew")?;
        if *draw >= at {
            return Err("the opponent shows a card before it could have drawn it".into());
        }
        drawn.push((*draw, card));
    }
    Ok(Placement {
        opponent,
        drawn,
        fillers: pool.into_iter().collect(),
    })
}

fn hand_cards(
    cards: &Cards,
    hand: impl IntoIterator<Item = Card>,
) -> Result<Vec<HandCard>, String> {
    hand.into_iter().map(|card| cards.hand_card(card)).collect()
}

/// The referee's hand replaying `story`.
pub fn replay(
    story: &Story,
    cards: &Cards,
    profile: &std::sync::Arc<Profile>,
) -> Result<LiveHand, String> {
    let mut placement = place(story, cards)?;
    let mut stock = Vec::new();
    for (at, event) in story.events.iter().enumerate() {
        if let Event::Stock(seat, card) = event {
            let card = if *seat == story.me {
                card.ok_or("our own draw not seen yet")?
            } else if let Some((_, card)) = placement.drawn.iter().find(|(index, _)| *index == at) {
                *card
            } else {
                placement.fillers.pop_front().ok_or("out of cards")?
            };
            stock.push(card);
        }
    }
    while placement.opponent.len() < 10 {
        placement
            .opponent
            .push(placement.fillers.pop_front().ok_or("out of cards")?);
    }
    stock.extend(placement.fillers.drain(..));
    let mine = hand_cards(cards, story.dealt.iter())?;
    let theirs = hand_cards(cards, placement.opponent.iter().copied())?;
    let (dealer, non_dealer) = match story.me {
        Seat::Dealer => (mine, theirs),
        Seat::NonDealer => (theirs, mine),
    };
    let deal = Deal {
        dealer,
        non_dealer,
        upcard: cards.hand_card(story.upcard)?,
        stock: hand_cards(cards, stock.iter().copied())?,
    };
    let mut live =
        LiveHand::with_profile(profile.clone(), deal).map_err(|error| error.to_string())?;
    let mut drawn = stock.iter();
    for event in &story.events {
        let action = action_of(event, &mut drawn, cards)?;
        live.apply(action)
            .map_err(|refusal| format!("{refusal} at {event:?}"))?;
    }
    Ok(live)
}

fn action_of<'a>(
    event: &Event,
    drawn: &mut impl Iterator<Item = &'a Card>,
    cards: &Cards,
) -> Result<Action, String> {
    let (player, play) = match event {
        Event::Pass(seat) => (*seat, Move::Pass),
        Event::Take(seat, card) => (
            *seat,
            Move::Draw {
                from: Source::DiscardPile,
                card: Some(cards.hand_card(*card)?),
            },
        ),
        Event::Stock(seat, _) => (
            *seat,
            Move::Draw {
                from: Source::Stock,
                card: Some(cards.hand_card(*drawn.next().ok_or("out of stock")?)?),
            },
        ),
        Event::Discard(seat, card) => (
            *seat,
            Move::Discard {
                card: cards.hand_card(*card)?,
            },
        ),
        Event::Knock(seat, card, melds) => (
            *seat,
            Move::Knock {
                discard: Some(cards.hand_card(*card)?),
                melds: Some(
                    melds
                        .iter()
                        .map(|meld| hand_cards(cards, meld.cards().iter()))
                        .collect::<Result<_, _>>()?,
                ),
                jokers: gin_rules::StandsFor::default(),
            },
        ),
    };
    Ok(Action { player, play })
}
