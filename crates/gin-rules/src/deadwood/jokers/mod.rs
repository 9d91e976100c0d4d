//! The joker search: the rules of the opt-in joker game (`docs/RULES.md`,
//! "Jokers") and the least count, arrangements, replies and scores of hands
//! holding a joker. Callers reach it through the crate's one API
//! ([`crate::min_deadwood`], [`crate::best_reply`], [`crate::score_hand`],
//! ...), which sends a hand here only when it holds a joker.
//!
//! # The rules
//!
//! A profile may add one joker (`X1`) or two (`X1`, `X2`) to the deck
//! ([`JokerRules`]). A joker is wild: in a meld it stands for one definite
//! card, and the meld must be legal with that card in the joker's place.
//!
//! - Every meld holding a joker has at least `joker_min_natural` natural cards
//!   (1, 2 or 3; 2 by default, so two jokers never meld with a single natural).
//! - A set has at most four cards, jokers included; a joker stands for a suit
//!   the set lacks.
//! - A joker may fill a gap in a run or extend it at either end, within A..K
//!   (no wrap: Q-K-joker is J-Q-K).
//! - The melds of one arrangement stand for distinct cards: a joker never
//!   stands for a card another melded card is, or another joker stands for.
//!   It may stand for a card the hand holds as deadwood.
//! - An unmelded joker counts `joker_deadwood` (0, 15 or 25; 15 by default); a
//!   melded joker counts nothing.
//!
//! # The least count
//!
//! Take an arrangement and look at the melds holding jokers: at most two (two
//! jokers). Each shows a *footprint*, the cards it displays (its naturals and
//! what its jokers stand for): a rank in three or four suits, or an interval
//! of one suit. No other meld may use a card of a footprint, and a card of the
//! hand inside a footprint that a joker stands for is deadwood. Every other
//! meld is natural, within the naturals outside the footprints, and for those
//! the joker-free solver ([`crate::min_deadwood`]) is exact. So
//!
//! ```text
//! least = min over plans P of  min_deadwood(naturals - cards(P))
//!                              + the held cards P's jokers stand for
//!                              + joker_deadwood x the jokers P leaves out
//! ```
//!
//! where a plan is no footprint, one (holding one or two jokers), or two
//! disjoint ones holding a joker each. When a joker must stand for a held card
//! (no other card fits) it stands for the cheapest; a plan doing so is tried
//! only when it can beat melding that card naturally and leaving the joker out.
//!
//! Most plans need no solver call: a footprint whose naturals belong to no
//! natural meld of the hand lowers the count by exactly their value (they are
//! deadwood in every arrangement). The others are bounded below by the
//! naturals outside every natural meld, and pairs are tried by gain so the
//! search stops early. The count alone ([`min_deadwood`]) mostly takes a
//! faster road: with nothing blocked and at most two ranks of three naturals
//! (every ten-card hand with two jokers), decide the sets of those ranks and
//! the rest is each suit's runs, read from per-suit lane tables with one or
//! two jokers (`lanes.rs` has the argument; figures: `benches/wild.rs`). The
//! oracle in `tests/properties/wild_oracle.rs` checks all of it against a
//! brute force over every subset and every card a joker could stand for, and
//! the lane road is checked against the footprint search as well.
//!
//! # Which card a joker stands for
//!
//! Several arrangements may reach the least count. [`best_arrangement`]
//! returns the first in a fixed order: no joker melded first; then one meld
//! holding jokers, then two; footprints ordered sets before runs, sets by rank
//! (four suits before three, and among three-suit sets the joker stands for
//! the lowest missing suit in the order spades, hearts, diamonds, clubs), runs
//! by suit in that order, then by low end from the highest (a joker extends a
//! run upwards when it can), then shortest, then fewest jokers. Within a meld,
//! `X1` stands for the lower card and `X2` for the higher; with one meld of one
//! joker, `X1` is melded and `X2` (if held) stays out. [`optimal_arrangements`]
//! lists them all.
//!
//! # Layoffs and scoring
//!
//! On the table every melded and laid-off card stands for a distinct card. A
//! knocker's joker fixes what its meld shows, hence what it takes: `5H X1 7H`
//! with `X1` = 6H takes 4H and 8H, and the defender's 6H can neither go on
//! nor meld. The defender may lay a joker off (`joker_layoff`) standing for
//! the card that extends a run or completes a three-card set; layoffs chain.
//! The joker reply ([`crate::layoff::jokers::best_reply`], in
//! `layoff/jokers.rs`) chooses the defender's melds and layoffs together for
//! the least count, then the fewest layoffs. The one knock pipeline
//! ([`crate::score::knock::score_knock`], in `score/knock.rs`) picks the
//! knocker's arrangement (best net result after the defender's reply) and
//! settles the points with [`crate::settle`], for every hand. Both build on
//! this module's least-count search.
//!
//! ```
//! use gin_rules::{parse_hand, min_deadwood, analyze_drawn_hand, Preset};
//! let rules = Preset::Jokers.profile().joker_rules();
//! // X1 bridges 5H and 7H, X2 makes a set of the kings.
//! assert_eq!(min_deadwood(parse_hand("5H X1 7H KS KD X2 9S 9D 9C 2C")?, &rules), 2);
//! // Eleven cards: the best discard is the two of clubs, and it leaves gin.
//! let drawn = analyze_drawn_hand(parse_hand("5H X1 7H KS KD X2 9S 9D 9C 2C 8H")?, &rules);
//! assert_eq!((drawn.deadwood, drawn.discards[0].card.to_string()), (0, "2C".to_string()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod lanes;
mod params;
pub(crate) mod solve;
#[cfg(test)]
mod tests;

use crate::card::CardSet;
use crate::deadwood::arrangement::{Arrangement, Discard, DrawnHandAnalysis};
use crate::deadwood::natural;
use crate::hand::{Hand, Joker, Jokers};
use crate::meld::Meld;
use crate::profile::JokerRules;
use params::Params;
use solve::{Footprint, Plan, min_cost, plans_within};

/// The solver's view of a hand: the naturals that may meld, their count when
/// they may not, and the jokers.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Problem {
    pub(crate) avail: u64,
    pub(crate) blocked: u64,
    /// The held naturals no meld may use (the blocked ones), and their count.
    forced: CardSet,
    jokers: [Option<Joker>; 2],
    pub(crate) params: Params,
}

impl Problem {
    pub(crate) fn new(hand: Hand, rules: &JokerRules, blocked: CardSet) -> Problem {
        let mut jokers = [None; 2];
        for (slot, joker) in jokers.iter_mut().zip(hand.jokers()) {
            *slot = Some(joker);
        }
        let naturals = hand.naturals();
        Problem {
            avail: naturals.difference(blocked).bits(),
            blocked: blocked.bits(),
            forced: naturals.intersection(blocked),
            jokers,
            params: Params {
                jokers: u32::from(hand.joker_count()),
                min_natural: u32::from(rules.joker_min_natural()),
                joker_deadwood: u32::from(rules.joker_deadwood()),
            },
        }
    }

    pub(crate) fn least(&self) -> u32 {
        min_cost(self.avail, self.blocked, self.params) + self.forced.value()
    }

    /// The arrangement a plan gives, with `rest` the natural melds of the
    /// naturals outside its footprints (an optimal arrangement of them) and
    /// `jokers` assigned to its fillers in order.
    pub(crate) fn arrangement(
        &self,
        plan: &Plan,
        rest_melds: &[Meld],
        jokers: &[Joker],
    ) -> Arrangement {
        let mut melds: Vec<Meld> = rest_melds.to_vec();
        let mut jokers_left = jokers.iter().copied();
        let mut deadwood_cards = CardSet::from_bits(self.avail & !plan.cards())
            .difference(
                rest_melds
                    .iter()
                    .fold(CardSet::EMPTY, |a, m| a.union(m.cards())),
            )
            .union(self.forced);
        for footprint in plan.footprints() {
            let mut slots = [None; 2];
            for (slot, card) in slots
                .iter_mut()
                .zip(CardSet::from_bits(footprint.fillers(self.avail)))
            {
                *slot = jokers_left.next().map(|joker| (joker, card));
            }
            deadwood_cards = deadwood_cards.union(CardSet::from_bits(footprint.held_fillers));
            melds.push(Meld::from_parts(
                footprint.kind,
                CardSet::from_bits(footprint.naturals(self.avail)),
                slots,
            ));
        }
        melds.sort();
        let deadwood_jokers: Jokers = jokers_left.collect();
        let deadwood = deadwood_cards.value()
            + u32::try_from(deadwood_jokers.len()).unwrap_or(0) * self.params.joker_deadwood;
        Arrangement {
            melds,
            deadwood_cards,
            deadwood_jokers,
            deadwood,
        }
    }

    pub(crate) fn held_jokers(&self) -> Vec<Joker> {
        self.jokers.iter().flatten().copied().collect()
    }

    /// The first plan in the fixed order reaching the least count whose
    /// arrangement shows no two touching runs of one suit (those are listed
    /// as the one run they make, a later plan).
    fn best(&self) -> Arrangement {
        let least = min_cost(self.avail, self.blocked, self.params);
        let held = self.held_jokers();
        let mut first = None;
        for (plan, cost) in plans_within(self.avail, self.blocked, self.params, least) {
            if cost != least {
                continue;
            }
            let rest = natural::best_arrangement(CardSet::from_bits(self.avail & !plan.cards()));
            let arrangement = self.arrangement(&plan, &rest.melds, &held);
            if !has_touching_runs(&arrangement.melds) {
                return arrangement;
            }
            first.get_or_insert(arrangement);
        }
        first.unwrap_or_else(|| {
            let rest = natural::best_arrangement(CardSet::from_bits(self.avail));
            self.arrangement(&Plan::Bare, &rest.melds, &held)
        })
    }

    fn all_best(&self) -> Vec<Arrangement> {
        let least = min_cost(self.avail, self.blocked, self.params);
        let held = self.held_jokers();
        let mut found = Vec::new();
        for (plan, _) in plans_within(self.avail, self.blocked, self.params, least) {
            for plan in filler_choices(plan, self.avail) {
                let rest = CardSet::from_bits(self.avail & !plan.cards());
                for rest in natural::optimal_arrangements(rest) {
                    for order in joker_orders(&held) {
                        let arrangement = self.arrangement(&plan, &rest.melds, &order);
                        if !has_touching_runs(&arrangement.melds) && !found.contains(&arrangement) {
                            found.push(arrangement);
                        }
                    }
                }
            }
        }
        found
    }
}

/// The plan with every choice of the held cards its jokers stand for that
/// costs the same (cards of equal value).
fn filler_choices(plan: Plan, avail: u64) -> Vec<Plan> {
    let options = |f: Footprint| -> Vec<Footprint> {
        let extra = f.held_fillers.count_ones();
        if extra == 0 {
            return vec![f];
        }
        let held = f.cards & avail;
        let mut out = Vec::new();
        let mut subset = held;
        loop {
            if subset.count_ones() == extra && CardSet::from_bits(subset).value() == f.held_cost {
                out.push(Footprint {
                    held_fillers: subset,
                    ..f
                });
            }
            if subset == 0 {
                break;
            }
            subset = (subset - 1) & held;
        }
        out.sort_by_key(|f| f.held_fillers);
        out
    };
    match plan {
        Plan::Bare => vec![Plan::Bare],
        Plan::One(a) => options(a).into_iter().map(Plan::One).collect(),
        Plan::Two(a, b) => {
            let bs = options(b);
            options(a)
                .into_iter()
                .flat_map(|a| bs.iter().map(move |&b| Plan::Two(a, b)))
                .collect()
        }
    }
}

/// The held jokers in every order (which one is melded first matters: they
/// are two cards).
fn joker_orders(held: &[Joker]) -> Vec<Vec<Joker>> {
    match held {
        [a, b] => vec![vec![*a, *b], vec![*b, *a]],
        other => vec![other.to_vec()],
    }
}

/// Two runs of one suit that touch would be one run: such arrangements are
/// listed once, as the single run (as the joker-free listing does).
pub(crate) fn has_touching_runs(melds: &[Meld]) -> bool {
    crate::meld::has_touching_runs(melds.iter().copied())
}

/// The least count of a hand with jokers (see the module docs): the least
/// over every arrangement of the naturals' values left out plus
/// `joker_deadwood` per joker left out.
pub(crate) fn min_deadwood(hand: Hand, rules: &JokerRules) -> u32 {
    Problem::new(hand, rules, CardSet::EMPTY).least()
}

/// [`min_deadwood`] where no meld may show a card of `blocked` (cards
/// already on the table): held cards of `blocked` are deadwood.
pub(crate) fn min_deadwood_avoiding(hand: Hand, rules: &JokerRules, blocked: CardSet) -> u32 {
    Problem::new(hand, rules, blocked).least()
}

/// One arrangement reaching [`min_deadwood`], chosen as the module docs
/// say ("Which card a joker stands for").
pub(crate) fn best_arrangement(hand: Hand, rules: &JokerRules) -> Arrangement {
    Problem::new(hand, rules, CardSet::EMPTY).best()
}

/// [`best_arrangement`] where no meld may show a card of `blocked`.
pub(crate) fn best_arrangement_avoiding(
    hand: Hand,
    rules: &JokerRules,
    blocked: CardSet,
) -> Arrangement {
    Problem::new(hand, rules, blocked).best()
}

/// Every arrangement reaching [`min_deadwood`], each once: every choice
/// of the cards the jokers stand for, each order of `X1` and `X2`, runs of one
/// suit that touch listed as one run. [`best_arrangement`]'s is among
/// them. A hand of more than [`Hand::MAX_CARDS`] cards lists nothing
/// (the listing is bounded by the hand's size).
pub(crate) fn optimal_arrangements(hand: Hand, rules: &JokerRules) -> Vec<Arrangement> {
    if hand.len() > Hand::MAX_CARDS {
        return Vec::new();
    }
    Problem::new(hand, rules, CardSet::EMPTY).all_best()
}

/// Analyses a hand right after the draw: every discard reaching the least
/// count of the cards kept, and whether all its cards meld (big gin).
pub(crate) fn analyze_drawn_hand(hand: Hand, rules: &JokerRules) -> DrawnHandAnalysis {
    let mut best = u32::MAX;
    let mut cards = Vec::new();
    for card in hand.cards() {
        let count = min_deadwood(hand.without(card), rules);
        if count < best {
            best = count;
            cards.clear();
        }
        if count == best {
            cards.push(card);
        }
    }
    // Every card melded: with a joker left out worth something, the least
    // count is 0 only when every card melds (a natural is worth 1 or more).
    let melds_all = JokerRules::new(rules.jokers(), 15, rules.joker_min_natural())
        .map(|strict| min_deadwood(hand, &strict) == 0)
        .unwrap_or(false);
    DrawnHandAnalysis {
        deadwood: if cards.is_empty() { 0 } else { best },
        discards: cards
            .into_iter()
            .map(|card| Discard {
                card,
                arrangement: best_arrangement(hand.without(card), rules),
            })
            .collect(),
        big_gin: !hand.is_empty() && melds_all,
    }
}
