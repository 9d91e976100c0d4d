#!/usr/bin/env bash
# Every answer of the joker search, base against new, compared line by line:
# a refactor of the search must leave them all unchanged.
#
#   scripts/replay/joker-answers.sh BASE_CHECKOUT NEW_CHECKOUT
#   HANDS=200000 scripts/replay/joker-answers.sh /work/base /work/wt-branch
#
# For each checkout, builds (release, as the workspace's profile) a throwaway
# program outside the repository that depends on CHECKOUT/crates/gin-rules by
# path with CHECKOUT's Cargo.lock. It deals HANDS hands from a fixed seed
# (rand 0.8 StdRng), one or two jokers each, under nine joker rules in turn
# (`joker_deadwood` 0, 15, 25 by `joker_min_natural` 1, 2, 3): a third from
# the whole deck, a third from three or four adjacent ranks (the footprint
# search), a third from two suits. An 11-card hand prints its
# `analyze_drawn_hand`; a 10-card hand its `min_deadwood`, its count with one
# or two of its own cards and another blocked (`min_deadwood_avoiding`, the
# layoffs' path), its `best_arrangement`, and every seventh its
# `optimal_arrangements`. The two outputs must be byte for byte the same;
# the script prints their line count and digest and exits 1 on a difference
# (with the first differing lines). Uses the public API both sides share.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/harness.sh"
[ $# -eq 2 ] || { sed -n '2,20p' "$0"; exit 2; }
HANDS=${HANDS:-1000000}
out=$(mktemp -d /tmp/joker-answers.XXXXXX)
trap 'rm -rf "$out"' EXIT

build() {  # checkout -> path of the built program
    local checkout work target
    checkout=$(cd "$1" && pwd)
    [ -d "$checkout/crates/gin-rules" ] || { echo "no crates/gin-rules in $checkout" >&2; exit 2; }
    work=$(mktemp -d /tmp/joker-answers-build.XXXXXX)
    target=/tmp/rules-instructions-target/$(echo "$checkout" | tr / _)
    harness_crate "$work" joker-answers "$checkout" "" 'rand = "0.8"'
    cat > "$work/src/main.rs" <<'RUST'
//! joker-answers HANDS: every answer of the joker search for HANDS dealt hands
use gin_rules::{Card, CardSet, Hand, Joker, JokerRules, analyze_drawn_hand, best_arrangement,
    min_deadwood, optimal_arrangements};
use gin_rules::deadwood::min_deadwood_avoiding;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::io::Write;

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20000);
    let mut rng = StdRng::seed_from_u64(0x10F6_2026);
    let deck: Vec<Card> = CardSet::FULL_DECK.to_vec();
    let mut out = std::io::BufWriter::new(std::io::stdout());
    let mut rule_sets = Vec::new();
    for dead in [0u8, 15, 25] {
        for m in 1..=3u8 {
            rule_sets.push(JokerRules::new(2, dead, m).unwrap());
        }
    }
    for i in 0..n {
        let rules = rule_sets[i % rule_sets.len()];
        let jokers: &[Joker] = if rng.gen_bool(0.5) { &[Joker::X1] } else { &[Joker::X1, Joker::X2] };
        let eleven = rng.gen_bool(0.3);
        let size = if eleven { 11 } else { 10 } - jokers.len();
        // Half random, half dense (3 or 4 adjacent ranks, or two suits).
        let pool: Vec<Card> = match rng.gen_range(0..3) {
            0 => deck.clone(),
            1 => {
                let width = rng.gen_range(3..=4u8);
                let low = rng.gen_range(1..=14 - width);
                deck.iter().copied().filter(|c| (low..low + width).contains(&c.rank().number())).collect()
            }
            _ => {
                let a = deck[rng.gen_range(0..52)].suit();
                let b = deck[rng.gen_range(0..52)].suit();
                deck.iter().copied().filter(|c| c.suit() == a || c.suit() == b).collect()
            }
        };
        let naturals = pool
            .choose_multiple(&mut rng, size.min(pool.len()))
            .fold(CardSet::EMPTY, |s, &c| s.union(c.into()));
        let hand = Hand::new(naturals, jokers);
        if eleven {
            writeln!(out, "{i} {hand} A {:?}", analyze_drawn_hand(hand, &rules)).unwrap();
        } else {
            // Blocked: one or two of the hand's own cards and one other.
            let own = naturals.to_vec();
            let take = rng.gen_range(0..=2usize);
            let blocked = own
                .choose_multiple(&mut rng, take)
                .chain(deck.choose(&mut rng))
                .fold(CardSet::EMPTY, |s, &c| s.union(c.into()));
            writeln!(out, "{i} {hand} D {} B {} {:?}", min_deadwood(hand, &rules),
                min_deadwood_avoiding(hand, &rules, blocked), best_arrangement(hand, &rules)).unwrap();
            if i % 7 == 0 {
                writeln!(out, "{i} O {:?}", optimal_arrangements(hand, &rules)).unwrap();
            }
        }
    }
}
RUST
    echo "building against $checkout ..." >&2
    CARGO_TARGET_DIR=$target cargo build --release --quiet --manifest-path "$work/Cargo.toml" >&2
    rm -rf "$work"
    echo "$target/release/joker-answers"
}

base=$(build "$1")
"$base" "$HANDS" > "$out/base.txt"
new=$(build "$2")
"$new" "$HANDS" > "$out/new.txt"
echo "base $1 ($(git -C "$1" rev-parse --short HEAD 2>/dev/null || echo '?')), new $2 ($(git -C "$2" rev-parse --short HEAD 2>/dev/null || echo '?')), $HANDS hands"
echo "lines: $(wc -l < "$out/base.txt") base, $(wc -l < "$out/new.txt") new"
sha256sum "$out/base.txt" "$out/new.txt" | sed "s#$out/##"
if cmp -s "$out/base.txt" "$out/new.txt"; then
    echo "identical"
else
    echo "DIFFERENT answers:"
    diff "$out/base.txt" "$out/new.txt" | head -20
    exit 1
fi
