#!/usr/bin/env bash
# Instructions PER HAND of the rules library's solver, counted by callgrind, for
# a before/after comparison that the load of a shared machine cannot blur.
#
#   scripts/replay/rules-instructions.sh CHECKOUT_DIR
#   RULES_API=scripts/replay/rules-api-new.rs scripts/replay/rules-instructions.sh /work/main
#   HANDS=2000 scripts/replay/rules-instructions.sh /work/base
#
# Builds (release: thin LTO, one codegen unit, as the workspace's profile) a
# throwaway program in a temporary directory outside the repository that
# depends on CHECKOUT_DIR/crates/gin-rules by path, with CHECKOUT_DIR's
# Cargo.lock. The program makes the hands of crates/gin-rules/benches/
# deadwood.rs exactly as the bench does (rand 0.8 StdRng, the same seed, the
# same order: random 10, adversarial 10, random 11, adversarial 11; the
# constant worst cases), then solves the first COUNT of one kind. Each kind runs
# twice under `valgrind --tool=callgrind`, with COUNT = HANDS and COUNT = 0; the
# difference of the totals divided by HANDS is the cost of one hand (start-up,
# hand generation and exit cancel out).
#
# Every call into gin-rules is in one small module, `api`, in
# scripts/replay/rules-api-base.rs (the API at the base commit). When the API
# is renamed (e.g. `min_deadwood` takes a second argument), copy that file,
# adapt its few lines, and pass it as RULES_API=FILE. Needs valgrind.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/harness.sh"
[ $# -eq 1 ] || { sed -n '2,22p' "$0"; exit 2; }
checkout=$(cd "$1" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
api=${RULES_API:-$here/rules-api-base.rs}
HANDS=${HANDS:-1000}
command -v valgrind >/dev/null || { echo "valgrind is required (apt-get install valgrind)" >&2; exit 2; }
[ -d "$checkout/crates/gin-rules" ] || { echo "no crates/gin-rules in $checkout" >&2; exit 2; }

work=$(mktemp -d /tmp/rules-instructions.XXXXXX)
trap 'rm -rf "$work"' EXIT
# The build cache is kept between runs, one per checkout.
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/tmp/rules-instructions-target/$(echo "$checkout" | tr / _)}

harness_crate "$work" rules-instructions "$checkout" "" 'rand = "0.8"'
cp "$api" "$work/src/api.rs"
cat > "$work/src/main.rs" <<'EOF'
//! rules-instructions KIND COUNT: makes every hand of the deadwood bench, then
//! solves the first COUNT hands of KIND (the worst cases: COUNT times).
mod api;

use std::hint::black_box;

use api::{Card, Hand};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

const SEED: u64 = 0x61E_2026;
const BATCH: usize = 1000;

fn pick(rng: &mut StdRng, pool: &[Card], len: usize) -> Hand {
    api::hand(pool.choose_multiple(rng, len).copied())
}

fn random_hands(rng: &mut StdRng, len: usize) -> Vec<Hand> {
    let deck = api::full_deck();
    (0..BATCH).map(|_| pick(rng, &deck, len)).collect()
}

fn adversarial_hands(rng: &mut StdRng, len: usize) -> Vec<Hand> {
    let deck = api::full_deck();
    (0..BATCH)
        .map(|_| {
            let width = rng.gen_range(3..=4u8);
            let low = rng.gen_range(1..=14 - width);
            let pool: Vec<Card> = deck
                .iter()
                .copied()
                .filter(|&c| (low..low + width).contains(&api::rank_number(c)))
                .collect();
            pick(rng, &pool, len.min(pool.len()))
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kind = args[1].as_str();
    let count: usize = args[2].parse().expect("a count");
    let mut rng = StdRng::seed_from_u64(SEED);
    // Always all four batches, in the bench's order, whatever is measured.
    let random = random_hands(&mut rng, 10);
    let adversarial = adversarial_hands(&mut rng, 10);
    let random_11 = random_hands(&mut rng, 11);
    let adversarial_11 = adversarial_hands(&mut rng, 11);
    let worst = api::parse("4S 5S 4H 5H 4D 5D 6D 4C 5C 6C");
    let gin_rummy_worst = api::parse("2S 3S 2H 3H 2D 3D 2C 3C 4C 6C");
    let mut sink = 0u64;
    let ten = |hands: &[Hand], sink: &mut u64| {
        for &h in hands.iter().cycle().take(count) {
            *sink += u64::from(api::min_deadwood(black_box(h)));
        }
    };
    let eleven = |hands: &[Hand], sink: &mut u64| {
        for &h in hands.iter().cycle().take(count) {
            *sink += api::analyze_drawn_hand(black_box(h)) as u64;
        }
    };
    match kind {
        "random10" => ten(&random, &mut sink),
        "adversarial10" => ten(&adversarial, &mut sink),
        "worst10" => ten(&[worst], &mut sink),
        "gin_rummy_worst10" => ten(&[gin_rummy_worst], &mut sink),
        "random11" => eleven(&random_11, &mut sink),
        "adversarial11" => eleven(&adversarial_11, &mut sink),
        _ => panic!("unknown kind {kind}"),
    }
    black_box(sink);
    println!("{kind} {count} {sink}");
}
EOF

echo "building against $checkout (api: ${api#$here/}) ..." >&2
cargo build --release --quiet --manifest-path "$work/Cargo.toml"
bin=$CARGO_TARGET_DIR/release/rules-instructions

count() {  # total instructions of one run
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" 2>&1 >/dev/null |
        awk '/Collected :/ {print $NF}'
}

echo "gin-rules at $checkout ($(git -C "$checkout" rev-parse --short HEAD 2>/dev/null || echo '?')), $HANDS hands per kind"
printf '%-20s %-20s %14s\n' kind function "instr/hand"
for kind in random10 adversarial10 worst10 gin_rummy_worst10 random11 adversarial11; do
    fn=min_deadwood
    case $kind in *11) fn=analyze_drawn_hand ;; esac
    with=$(count "$kind" "$HANDS")
    without=$(count "$kind" 0)
    printf '%-20s %-20s %14.1f\n' "$kind" "$fn" "$(echo "($with - $without) / $HANDS" | bc -l)"
done
