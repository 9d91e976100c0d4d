//! Layoffs with jokers: the defender's best reply against a knocker's table
//! holding jokers, checked against an oracle that tries every way to meld and
//! lay off (the parent's card model and spelling).

use super::*;

/// A knocker's meld: its natural cards and its jokers with what they stand for.
type KnockerMeld = (Vec<OCard>, Vec<(u8, OCard)>);

/// A knocker's table and a defender's hand for the layoff oracle.
#[derive(Debug, Clone)]
struct Knock {
    melds: Vec<KnockerMeld>,
    defender: Vec<Item>,
    min_natural: u8,
    joker_deadwood: u8,
    joker_layoff: bool,
}

impl Knock {
    fn text(&self) -> String {
        let melds: Vec<String> = self
            .melds
            .iter()
            .map(|(naturals, jokers)| {
                let mut words: Vec<String> = naturals.iter().map(|&c| spell(c)).collect();
                words.extend(jokers.iter().map(|(j, c)| format!("X{j}={}", spell(*c))));
                words.join(" ")
            })
            .collect();
        format!(
            "knocker [{}] defender {} (min natural {}, joker {}, joker layoff {})",
            melds.join(" | "),
            spell_hand(&self.defender),
            self.min_natural,
            self.joker_deadwood,
            self.joker_layoff
        )
    }

    fn shown(&self, meld: usize) -> Vec<OCard> {
        let (naturals, jokers) = &self.melds[meld];
        let mut shown = naturals.clone();
        shown.extend(jokers.iter().map(|j| j.1));
        shown
    }

    /// The least count the defender can reach: every item either kept or
    /// laid on some knocker meld standing for some card (a natural for
    /// itself), every grown meld legal and every card on the table distinct;
    /// then the kept items at their least, no meld showing a table card.
    fn oracle_least(&self) -> u32 {
        let table: Vec<OCard> = (0..self.melds.len()).flat_map(|m| self.shown(m)).collect();
        // Per item: keep (None), or (meld, card shown).
        let options: Vec<Vec<Option<(usize, OCard)>>> = self
            .defender
            .iter()
            .map(|&item| {
                let mut options = vec![None];
                for meld in 0..self.melds.len() {
                    match item {
                        Item::Natural(card) => options.push(Some((meld, card))),
                        Item::Joker(_) if self.joker_layoff => {
                            let anchor = self.shown(meld)[0];
                            for card in full_deck() {
                                if card.0 == anchor.0 || card.1 == anchor.1 {
                                    options.push(Some((meld, card)));
                                }
                            }
                        }
                        Item::Joker(_) => {}
                    }
                }
                options
            })
            .collect();
        let mut best = u32::MAX;
        let mut choice = vec![0usize; self.defender.len()];
        loop {
            let picked: Vec<Option<(usize, OCard)>> =
                choice.iter().zip(&options).map(|(&i, o)| o[i]).collect();
            if let Some(count) = self.count_after(&picked, &table) {
                best = best.min(count);
            }
            // Next choice (an odometer).
            let mut position = 0;
            loop {
                if position == choice.len() {
                    return best;
                }
                choice[position] += 1;
                if choice[position] < options[position].len() {
                    break;
                }
                choice[position] = 0;
                position += 1;
            }
        }
    }

    fn count_after(&self, picked: &[Option<(usize, OCard)>], table: &[OCard]) -> Option<u32> {
        let laid: Vec<OCard> = picked.iter().flatten().map(|p| p.1).collect();
        let distinct: BTreeSet<OCard> = laid.iter().copied().collect();
        if distinct.len() != laid.len() || laid.iter().any(|c| table.contains(c)) {
            return None;
        }
        for meld in 0..self.melds.len() {
            let mut grown = self.shown(meld);
            grown.extend(picked.iter().flatten().filter(|p| p.0 == meld).map(|p| p.1));
            is_meld(&grown)?;
        }
        let kept: Vec<Item> = self
            .defender
            .iter()
            .zip(picked)
            .filter(|(_, p)| p.is_none())
            .map(|(&i, _)| i)
            .collect();
        let forbidden: Vec<OCard> = table.iter().chain(&laid).copied().collect();
        let oracle = WildOracle::avoiding(
            &kept,
            usize::from(self.min_natural),
            u32::from(self.joker_deadwood),
            &forbidden,
        );
        Some(oracle.least())
    }
}

/// A knocker meld: a run of 3-5 cards or a set of 3-4 cards, at most one of
/// its cards a joker (`X1`), as (naturals, jokers).
fn knocker_meld() -> impl Strategy<Value = KnockerMeld> {
    let run = (0u8..4, 1u8..=11, 3u8..=5, prop::option::of(0usize..5)).prop_map(
        |(suit, low, len, joker)| {
            let cards: Vec<OCard> = (low..(low + len).min(14)).map(|r| (r, suit)).collect();
            split_joker(cards, joker)
        },
    );
    let set = (1u8..=13, 3usize..=4, 0u8..4, prop::option::of(0usize..4)).prop_map(
        |(rank, len, skip, joker)| {
            let cards: Vec<OCard> = (0..4u8)
                .filter(|&s| len == 4 || s != skip)
                .map(|s| (rank, s))
                .collect();
            split_joker(cards, joker)
        },
    );
    prop_oneof![run, set]
}

fn split_joker(cards: Vec<OCard>, joker: Option<usize>) -> KnockerMeld {
    match joker.filter(|&j| j < cards.len()) {
        Some(j) => {
            let naturals = cards
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != j)
                .map(|(_, &c)| c)
                .collect();
            (naturals, vec![(1, cards[j])])
        }
        None => (cards, Vec::new()),
    }
}

fn knock() -> impl Strategy<Value = Knock> {
    (
        proptest::collection::vec(knocker_meld(), 1..=2),
        subsequence(full_deck(), 3..=5),
        0usize..=2,
        1u8..=3,
        prop::sample::select(vec![0u8, 15, 25]),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_filter_map(
            "melds showing a card twice",
            |(melds, pool, jokers, min_natural, joker_deadwood, joker_layoff, near)| {
                let shown: Vec<OCard> = melds
                    .iter()
                    .flat_map(|(n, j)| n.iter().copied().chain(j.iter().map(|x| x.1)))
                    .collect();
                let distinct: BTreeSet<OCard> = shown.iter().copied().collect();
                if distinct.len() != shown.len() {
                    return None;
                }
                // Only one knocker meld holds X1 (the knocker has one of each).
                if melds.iter().filter(|(_, j)| !j.is_empty()).count() > 1 {
                    return None;
                }
                let knocker_naturals: Vec<OCard> =
                    melds.iter().flat_map(|(n, _)| n.clone()).collect();
                // Near: the defender's cards from the melds' ranks and suits.
                let mut defender: Vec<Item> = if near {
                    let anchors: Vec<OCard> = shown.clone();
                    full_deck()
                        .into_iter()
                        .filter(|c| {
                            anchors
                                .iter()
                                .any(|a| (a.1 == c.1 && a.0.abs_diff(c.0) <= 3) || a.0 == c.0)
                        })
                        .filter(|c| !knocker_naturals.contains(c))
                        .take(pool.len())
                        .map(Item::Natural)
                        .collect()
                } else {
                    pool.into_iter()
                        .filter(|c| !knocker_naturals.contains(c))
                        .map(Item::Natural)
                        .collect()
                };
                let knocker_uses_x1 = melds.iter().any(|(_, j)| !j.is_empty());
                let free: Vec<u8> = if knocker_uses_x1 { vec![2] } else { vec![1, 2] };
                defender.extend(free.into_iter().take(jokers).map(Item::Joker));
                Some(Knock {
                    melds,
                    defender,
                    min_natural,
                    joker_deadwood,
                    joker_layoff,
                })
            },
        )
}

fn check_knock(knock: &Knock) {
    let text = knock.text();
    let rules = JokerRules::new(2, knock.joker_deadwood, knock.min_natural)
        .unwrap()
        .with_layoff(knock.joker_layoff);
    let melds: Vec<gin_rules::Meld> = knock
        .melds
        .iter()
        .map(|(naturals, jokers)| {
            let naturals = gin_rules::cards(
                &naturals
                    .iter()
                    .map(|&c| spell(c))
                    .collect::<Vec<_>>()
                    .join(" "),
            )
            .unwrap();
            let jokers: Vec<(Joker, Card)> = jokers
                .iter()
                .map(|&(j, c)| {
                    let joker = if j == 1 { Joker::X1 } else { Joker::X2 };
                    (joker, spell(c).parse().unwrap())
                })
                .collect();
            gin_rules::Meld::with_jokers(naturals, &jokers, &JokerRules::new(2, 15, 1).unwrap())
                .unwrap_or_else(|e| panic!("{text}: {e}"))
        })
        .collect();
    let defender = parse_hand(&spell_hand(&knock.defender)).unwrap();
    let reply = gin_rules::best_reply(&melds, defender, &rules, true);
    assert_eq!(reply.deadwood(), knock.oracle_least(), "{text}");
    // The layoffs replay legally in order, each onto a meld that stays legal.
    let mut grown: Vec<Vec<OCard>> = (0..knock.melds.len()).map(|m| knock.shown(m)).collect();
    let table: Vec<OCard> = grown.concat();
    let mut laid: Vec<OCard> = Vec::new();
    for layoff in &reply.layoffs {
        let card = from_engine(layoff.stands_for);
        assert!(
            !table.contains(&card) && !laid.contains(&card),
            "{text}: {card:?} shown twice"
        );
        if let HandCard::Natural(natural) = layoff.card {
            assert_eq!(from_engine(natural), card, "{text}");
        } else {
            assert!(
                knock.joker_layoff,
                "{text}: joker laid off against the rules"
            );
        }
        grown[layoff.meld].push(card);
        assert!(
            is_meld(&grown[layoff.meld]).is_some(),
            "{text}: layoff {layoff:?}"
        );
        laid.push(card);
    }
    for meld in &reply.arrangement.melds {
        for card in meld.cards() {
            let card = from_engine(card);
            assert!(
                !table.contains(&card) && !laid.contains(&card),
                "{text}: meld shows a table card"
            );
        }
    }
    // The best reply, declared back, is accepted at the same count: whole
    // (layoffs by meld index, or placed by the referee), melds only (the
    // layoffs played best), layoffs only (the melds played best).
    let declared_layoffs = |named: bool| -> Vec<DeclaredLayoff> {
        reply
            .layoffs
            .iter()
            .map(|l| DeclaredLayoff {
                card: l.card,
                stands_for: matches!(l.card, HandCard::Joker(_)).then_some(l.stands_for),
                meld: named.then_some(l.meld),
            })
            .collect()
    };
    let own_melds: Vec<Vec<HandCard>> = reply
        .arrangement
        .melds
        .iter()
        .map(|m| {
            m.cards()
                .iter()
                .map(|c| {
                    m.jokers()
                        .find(|&(_, shown)| shown == c)
                        .map_or(HandCard::Natural(c), |(j, _)| HandCard::Joker(j))
                })
                .collect()
        })
        .collect();
    let own_jokers = StandsFor::of(&reply.arrangement.melds);
    for (with_melds, layoffs) in [
        (true, Some(true)),
        (true, Some(false)),
        (true, None),
        (false, Some(true)),
        (false, Some(false)),
    ] {
        let declaration = DeclaredReply {
            melds: with_melds.then(|| own_melds.clone()),
            jokers: if with_melds {
                own_jokers
            } else {
                StandsFor::default()
            },
            layoffs: layoffs.map(declared_layoffs),
        };
        let back = declared_reply(&melds, defender, &declaration, &rules, true)
            .unwrap_or_else(|e| panic!("{text}: {declaration:?}: {e}"));
        assert_eq!(back.deadwood(), reply.deadwood(), "{text}: {declaration:?}");
    }
}

#[test]
fn wild_layoffs_match_the_oracle() {
    let mut runner = TestRunner::new(Config {
        cases: cases(300),
        failure_persistence: None,
        ..Config::default()
    });
    let checked = std::cell::Cell::new(0u32);
    let result = runner.run(&knock(), |knock| {
        check_knock(&knock);
        checked.set(checked.get() + 1);
        Ok(())
    });
    if let Err(error) = result {
        panic!("layoffs: {error}");
    }
    println!("wild oracle, layoffs: {} cases checked", checked.get());
}
