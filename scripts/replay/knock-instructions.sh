#!/usr/bin/env bash
# Instructions PER HAND of the knock's four entry points, joker-free and with
# jokers, counted by callgrind, for a before/after comparison that the load of
# a shared machine cannot blur:
#
#   scripts/replay/knock-instructions.sh BASE_CHECKOUT NEW_CHECKOUT
#   HANDS=200 scripts/replay/knock-instructions.sh /work/base-src /work/wt-knock
#
# For each checkout, builds (release: thin LTO, one codegen unit, as the
# workspace's profile) a throwaway program outside the repository that
# depends on CHECKOUT/crates/gin-rules by path with CHECKOUT's Cargo.lock.
# The program deals HANDS knocks from a fixed seed (rand 0.8 StdRng): two
# disjoint random 10-card hands and an 11th card for the knocker; with
# jokers, X1 in place of the knocker's first card and X2 in place of the
# defender's, under the `jokers` preset. It then calls one function on the
# first COUNT of them:
#
#   min_deadwood        the knocker's 10 cards
#   analyze_drawn_hand  the knocker's 11 cards
#   best_reply          the defender against the knocker's best melds
#   score_hand          the whole knock, nothing declared (refusals count too)
#
# Each (function, jokers) runs twice under `valgrind --tool=callgrind`, with
# COUNT = HANDS and COUNT = 0; the difference of the totals divided by HANDS
# is the cost of one hand (start-up, dealing and exit cancel out). Both
# checkouts are measured in the same run and printed side by side. The calls
# use the public API that both sides share (it did not change). Needs
# valgrind.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/harness.sh"
[ $# -eq 2 ] || { sed -n '2,27p' "$0"; exit 2; }
HANDS=${HANDS:-200}
command -v valgrind >/dev/null || { echo "valgrind is required (apt-get install valgrind)" >&2; exit 2; }

build() {  # checkout -> path of the built program
    local checkout work target
    checkout=$(cd "$1" && pwd)
    [ -d "$checkout/crates/gin-rules" ] || { echo "no crates/gin-rules in $checkout" >&2; exit 2; }
    work=$(mktemp -d /tmp/knock-instructions.XXXXXX)
    target=/tmp/rules-instructions-target/$(echo "$checkout" | tr / _)
    harness_crate "$work" knock-instructions "$checkout" "" 'rand = "0.8"'
    cat > "$work/src/main.rs" <<'EOF'
//! knock-instructions FUNCTION JOKERS COUNT (see knock-instructions.sh).
use gin_rules::{
    Card, CardSet, DefenderHand, HandCard, Joker, KnockerHand, Preset, analyze_drawn_hand,
    best_arrangement, best_reply, min_deadwood, score_hand,
};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use std::hint::black_box;

const SEED: u64 = 0x4B0C_2026;
const DEALT: usize = 1000;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let function = args[1].as_str();
    let jokers = args[2] == "jokers";
    let count: usize = args[3].parse().expect("a count");
    let profile = if jokers { Preset::Jokers.profile() } else { Preset::Standard.profile() };
    let rules = profile.joker_rules();
    let mut rng = StdRng::seed_from_u64(SEED);
    let deck: Vec<Card> = CardSet::FULL_DECK.to_vec();
    let mut deals = Vec::with_capacity(DEALT);
    for _ in 0..DEALT {
        let cards: Vec<HandCard> = deck.choose_multiple(&mut rng, 21).map(|&c| c.into()).collect();
        let (mut knocker, mut defender) = (cards[..11].to_vec(), cards[11..].to_vec());
        if jokers {
            knocker[0] = HandCard::Joker(Joker::X1);
            defender[0] = HandCard::Joker(Joker::X2);
        }
        deals.push((knocker, defender));
    }
    let hand = |cards: &[HandCard]| -> gin_rules::Hand { cards.iter().copied().collect() };
    let mut sink = 0u64;
    for (knocker, defender) in deals.iter().cycle().take(count) {
        let ten = &knocker[..10];
        sink += match function {
            "min_deadwood" => u64::from(min_deadwood(black_box(hand(ten)), &rules)),
            "analyze_drawn_hand" => {
                analyze_drawn_hand(black_box(hand(knocker)), &rules).discards.len() as u64
            }
            "best_reply" => {
                let melds = best_arrangement(hand(ten), &rules).melds;
                u64::from(best_reply(&melds, black_box(hand(defender)), &rules, true).deadwood())
            }
            "score_hand" => {
                let knocker = KnockerHand::of_cards(ten.iter().copied());
                let defender = DefenderHand::of_cards(defender.iter().copied());
                score_hand(&profile, None, black_box(&knocker), &defender)
                    .map_or(1, |score| u64::from(score.settlement.points))
            }
            _ => panic!("unknown function {function}"),
        };
    }
    black_box(sink);
    println!("{function} {count} {sink}");
}
EOF
    echo "building against $checkout ..." >&2
    CARGO_TARGET_DIR=$target cargo build --release --quiet --manifest-path "$work/Cargo.toml" >&2
    rm -rf "$work"
    echo "$target/release/knock-instructions"
}

count() {  # program function jokers count -> total instructions of one run
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" "$2" "$3" "$4" 2>&1 >/dev/null |
        awk '/Collected :/ {print $NF}'
}

per_hand() {  # program function jokers
    local with without
    with=$(count "$1" "$2" "$3" "$HANDS")
    without=$(count "$1" "$2" "$3" 0)
    echo "($with - $without) / $HANDS" | bc -l
}

base=$(build "$1")
cp "$base" /tmp/knock-instructions-base.$$
base=/tmp/knock-instructions-base.$$
new=$(build "$2")
trap 'rm -f "$base"' EXIT
echo "base $1 ($(git -C "$1" rev-parse --short HEAD 2>/dev/null || echo '?')), new $2 ($(git -C "$2" rev-parse --short HEAD 2>/dev/null || echo '?')), $HANDS hands each"
printf '%-20s %-8s %14s %14s %8s\n' function jokers "base instr/hand" "new instr/hand" "change"
for function in min_deadwood analyze_drawn_hand best_reply score_hand; do
    for jokers in none jokers; do
        old=$(per_hand "$base" "$function" "$jokers")
        now=$(per_hand "$new" "$function" "$jokers")
        printf '%-20s %-8s %14.1f %14.1f %+7.2f%%\n' "$function" "$jokers" "$old" "$now" \
            "$(echo "($now - $old) * 100 / $old" | bc -l)"
    done
done
