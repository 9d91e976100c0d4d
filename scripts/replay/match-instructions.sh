#!/usr/bin/env bash
# Instructions PER MATCH of the match scorers and the match audit, counted by
# callgrind, for a before/after comparison that the load of a shared machine
# cannot blur.
#
#   scripts/replay/match-instructions.sh CHECKOUT_DIR
#   RUNS=200 scripts/replay/match-instructions.sh /work/base-src
#
# Builds (release: thin LTO, one codegen unit, as the workspace's profile) a
# throwaway program in a temporary directory outside the repository that
# depends on CHECKOUT_DIR/crates/gin-rules by path, with CHECKOUT_DIR's
# Cargo.lock. It calls only the public scorers (`score_match`, `score_three`
# and `score_partnership` where the checkout has them, `audit_match`), so the
# one program measures any checkout. Each kind is a 10-hand match (10 deals
# in a partnership):
#
#   two_counts    two players, counts; the game ends at hand 10, a shutout
#   two_cards     two players, 10 knocks given as cards (target 10 000)
#   hollywood     two players under `hollywood`, 10 count hands
#   three         three players, counts, the rotation kept
#   partnership   two teams, 10 deals of two count tables
#   audit_knocks  `audit_match` of 10 recorded knocks (the knock of the
#                 match_audit bench, taken from this repository's bench file)
#   state_knocks  `match_state` of the same 10 knocks, as the referee sees them
#
# Each kind runs twice under `valgrind --tool=callgrind`, scoring the match
# RUNS times and 0 times; the difference of the totals divided by RUNS is the
# cost of one match (start-up, fixtures and exit cancel out). Needs valgrind.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/harness.sh"
[ $# -eq 1 ] || { sed -n '2,28p' "$0"; exit 2; }
checkout=$(cd "$1" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RUNS=${RUNS:-500}
command -v valgrind >/dev/null || { echo "valgrind is required (apt-get install valgrind)" >&2; exit 2; }
[ -d "$checkout/crates/gin-rules" ] || { echo "no crates/gin-rules in $checkout" >&2; exit 2; }

work=$(mktemp -d /tmp/match-instructions.XXXXXX)
trap 'rm -rf "$work"' EXIT
# The build cache is kept between runs, one per checkout.
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/tmp/match-instructions-target/$(echo "$checkout" | tr / _)}

harness_crate "$work" match-instructions "$checkout" '"serde"' 'serde_json = "1"'
{
    cat <<'RUST'
//! match-instructions KIND RUNS: builds the fixtures, then scores KIND's
//! 10-hand match RUNS times.
use std::hint::black_box;

use gin_rules::{
    Action, Card, CardHand, CountHand, Deal, DefenderHand, HandCard, KnockerHand, MatchHand,
    Move, PartnershipDeal, Players, Preset, ProfileOverrides, RecordedHand, RecordedLayoff, Seat,
    SeatedHand, Source, Team, audit_match, cards, score_match, match_state, MatchViewer,
};

RUST
    # A checkout whose formats share one scorer (the public `MatchFormat`)
    # scores three players and partnerships with `score_match` too.
    if grep -q "pub trait MatchFormat" "$checkout/crates/gin-rules/src/matches/mod.rs"; then
        echo 'use gin_rules::{score_match as score_partnership, score_match as score_three};'
    else
        echo 'use gin_rules::{score_partnership, score_three};'
    fi
    # The recorded knock (and its helpers) exactly as the bench builds it.
    sed -n '/^fn list(/,/^fn bench(/p' "$here/../../crates/gin-rules/benches/match_audit.rs" | sed '$d'
    cat <<'RUST'
fn counts(knocker: &str, kd: u32, dd: u32) -> MatchHand {
    MatchHand::Counts(CountHand {
        knocker: knocker.into(),
        knocker_deadwood: kd,
        defender_deadwood: dd,
        big_gin: false,
        upcard: None,
    })
}

fn seated(knocker: &str, defender: &str, kd: u32, dd: u32) -> SeatedHand {
    SeatedHand {
        players: [knocker.into(), defender.into()],
        hand: counts(knocker, kd, dd),
    }
}

/// Mom wins nine knocks of 10 points and a gin of 45: 135, Dad nothing.
fn two_counts() -> Vec<MatchHand> {
    let mut hands: Vec<MatchHand> = (0..9).map(|_| counts("Mom", 3, 13)).collect();
    hands.push(counts("Mom", 0, 20));
    hands
}

/// Mom knocks with 3 ten times (the target raised so that all ten count).
fn two_cards() -> Vec<MatchHand> {
    let knock = |defender: &str| {
        MatchHand::Cards(CardHand {
            knocker: "Mom".into(),
            knocker_hand: KnockerHand {
                hand: list("AS 2S 3S 4H 5H 6H 9C 9D 9H 3D"),
                melds: None,
                jokers: None,
            },
            defender_hand: DefenderHand {
                hand: list(defender),
                ..DefenderHand::default()
            },
            upcard: None,
        })
    };
    let mut hands: Vec<MatchHand> = (0..9).map(|_| knock("7S 8S TS JD QH KH 3C 4C 7H 4S")).collect();
    hands.push(knock("TS JS TH JH QD KD QC KC 8D 8C"));
    hands
}

fn hollywood() -> Vec<MatchHand> {
    let who = ["Mom", "Dad", "Mom", "Mom", "Dad", "Dad", "Mom", "Dad", "Mom", "Mom"];
    who.iter().map(|&k| counts(k, 2, 30)).collect()
}

/// The knocker wins every hand: the winner meets the player who sat out.
fn three() -> Vec<SeatedHand> {
    let players = ["Ann", "Bob", "Cy"];
    let mut pair = ["Ann", "Bob"];
    (0..10)
        .map(|i| {
            let (k, d) = if i % 2 == 0 { (pair[0], pair[1]) } else { (pair[1], pair[0]) };
            let out = players.iter().find(|p| !pair.contains(p)).copied().expect("three");
            pair = [k, out];
            seated(k, d, 4, 12)
        })
        .collect()
}

fn partnership() -> Vec<PartnershipDeal> {
    (0..10)
        .map(|d| PartnershipDeal {
            tables: if d % 2 == 0 {
                [seated("Ann", "Bob", 3, 15), seated("Dee", "Cy", 2, 12)]
            } else {
                [seated("Ann", "Dee", 3, 15), seated("Bob", "Cy", 2, 12)]
            },
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kind = args[1].as_str();
    let runs: usize = args[2].parse().expect("a count");
    let standard = Preset::Standard.profile();
    let hollywood_profile = Preset::Hollywood.profile();
    let partnership_profile = Preset::Partnership.profile();
    let long = serde_json::from_str::<ProfileOverrides>(r#"{"target": 10000}"#)
        .expect("overrides")
        .resolve()
        .expect("profile");
    let players = Players::new("Mom".to_string(), "Dad".to_string());
    let ann_bob = Players::new("Ann".to_string(), "Bob".to_string());
    let three_players = ["Ann".to_string(), "Bob".to_string(), "Cy".to_string()];
    let teams = [
        Team { name: "North-South".into(), players: ["Ann".into(), "Cy".into()] },
        Team { name: "East-West".into(), players: ["Bob".into(), "Dee".into()] },
    ];
    let (two_counts, two_cards, hollywood, three, partnership) =
        (two_counts(), two_cards(), hollywood(), three(), partnership());
    let dealer = |i: usize| if i % 2 == 0 { "Ann" } else { "Bob" };
    let knocks: Vec<RecordedHand> = (0..10).map(|i| knock_hand(dealer(i))).collect();
    let mut sink = 0u64;
    for _ in 0..runs {
        sink += match kind {
            "two_counts" => score_match(&standard, &players, black_box(&two_counts))
                .expect("two").final_tally[0].total,
            "two_cards" => score_match(&long, &players, black_box(&two_cards))
                .expect("cards").final_tally[0].total,
            "hollywood" => score_match(&hollywood_profile, &players, black_box(&hollywood))
                .expect("hollywood").final_tally[0].total,
            "three" => score_three(&standard, &three_players, black_box(&three))
                .expect("three").final_tally[0].total,
            "partnership" => score_partnership(&partnership_profile, &teams, black_box(&partnership))
                .expect("teams").final_tally[0].total,
            "audit_knocks" => audit_match(&long, &ann_bob, black_box(&knocks))
                .expect("audit").score.final_tally[0].total,
            "state_knocks" => match_state(&long, &ann_bob, black_box(&knocks), MatchViewer::Referee)
                .expect("state").score.final_tally[0].total,
            _ => panic!("unknown kind {kind}"),
        };
    }
    black_box(sink);
    println!("{kind} {runs} {sink}");
}
RUST
} > "$work/src/main.rs"

echo "building against $checkout ..." >&2
cargo build --release --quiet --manifest-path "$work/Cargo.toml"
bin=$CARGO_TARGET_DIR/release/match-instructions

count() {  # total instructions of one run
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" 2>&1 >/dev/null |
        awk '/Collected :/ {print $NF}'
}

echo "gin-rules at $checkout ($(git -C "$checkout" rev-parse --short HEAD 2>/dev/null || echo '?')), $RUNS runs per kind"
printf '%-14s %14s %s\n' kind "instr/match" "(answer of one run)"
for kind in two_counts two_cards hollywood three partnership audit_knocks state_knocks; do
    answer=$("$bin" "$kind" 1)
    with=$(count "$kind" "$RUNS")
    without=$(count "$kind" 0)
    printf '%-14s %14.1f (%s)\n' "$kind" "$(echo "($with - $without) / $RUNS" | bc -l)" "$answer"
done
