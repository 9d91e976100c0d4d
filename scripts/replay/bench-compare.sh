#!/usr/bin/env bash
# Criterion benches `deadwood` and `wild` of crates/gin-rules, base and branch
# alternately in one run (base, branch, base, branch, ...), and a table of the
# joker-free rows with the ratio branch/base.
#
#   scripts/replay/bench-compare.sh BASE_DIR BRANCH_DIR
#   ROUNDS=3 scripts/replay/bench-compare.sh /work/base /work/main
#   BENCH_ARGS="--warm-up-time 1 --measurement-time 2" scripts/replay/bench-compare.sh /work/base /work/base
#
# Each checkout builds in its own target/ (`cargo bench -p gin-rules --bench
# deadwood` and `--bench wild`, both built before the first measurement so
# that no build runs between two measurements). Rows, as the benches name them
# (criterion ids GROUP/FUNCTION; time per hand = criterion's median estimate
# divided by the group's elements):
#   deadwood: random, adversarial, worst_case, gin_rummy_worst_case (10 cards,
#   min_deadwood), drawn_random, drawn_adversarial (11 cards,
#   analyze_drawn_hand), function gin_referee; the gin_rummy function of the
#   same groups is the public crate on the same hands, unchanged between base
#   and branch: its ratio shows how much the machine moved (a control).
#   wild: joker_free_random/min_deadwood (only that group is run).
# For each row the table gives the median over the rounds of base and of
# branch, and branch/base. ROUNDS defaults to 2. BENCH_ARGS go to criterion
# after `--` (the groups set their own warm-up and measurement times in code,
# which take precedence over these flags in criterion 0.8; `--quick` shortens).
set -euo pipefail
[ $# -eq 2 ] || { sed -n '2,24p' "$0"; exit 2; }
base=$(cd "$1" && pwd)
branch=$(cd "$2" && pwd)
ROUNDS=${ROUNDS:-2}
read -r -a extra <<<"${BENCH_ARGS:-}"
out=$(mktemp -d /tmp/bench-compare.XXXXXX)
trap 'rm -rf "$out"' EXIT

run() {  # run CHECKOUT LABEL ROUND: both benches, then copies of the estimates
    local dir=$1 label=$2 round=$3
    (cd "$dir" && cargo bench --locked -q -p gin-rules --bench deadwood -- "${extra[@]}" >/dev/null 2>&1 &&
        cargo bench --locked -q -p gin-rules --bench wild -- joker_free_random "${extra[@]}" >/dev/null 2>&1) ||
        { echo "cargo bench failed in $dir" >&2; exit 1; }
    python3 - "$dir/target/criterion" "$out/$label.$round.json" <<'PY'
import json, os, sys
root, dest = sys.argv[1], sys.argv[2]
rows = {}
for group in os.listdir(root):
    for function in os.listdir(os.path.join(root, group)) if os.path.isdir(os.path.join(root, group)) else []:
        new = os.path.join(root, group, function, "new")
        if not os.path.exists(os.path.join(new, "estimates.json")):
            continue
        est = json.load(open(os.path.join(new, "estimates.json")))
        bench = json.load(open(os.path.join(new, "benchmark.json")))
        elements = (bench.get("throughput") or {}).get("Elements", 1)
        rows[f"{group}/{function}"] = est["median"]["point_estimate"] / elements
json.dump(rows, open(dest, "w"))
PY
}

echo "building the benches (base $base, branch $branch) ..." >&2
for dir in "$base" "$branch"; do
    (cd "$dir" && cargo bench --locked -q -p gin-rules --bench deadwood --bench wild --no-run >/dev/null 2>&1) ||
        { echo "cargo bench --no-run failed in $dir" >&2; exit 1; }
done
for round in $(seq 1 "$ROUNDS"); do
    echo "round $round/$ROUNDS: base ..." >&2
    run "$base" base "$round"
    echo "round $round/$ROUNDS: branch ..." >&2
    run "$branch" branch "$round"
done

python3 - "$out" "$ROUNDS" "$base" "$branch" <<'PY'
import json, statistics, sys
out, rounds, base, branch = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
load = lambda label: [json.load(open(f"{out}/{label}.{r}.json")) for r in range(1, rounds + 1)]
b, n = load("base"), load("branch")
ROWS = [
    ("random/gin_referee", "random, 10 cards (min_deadwood)"),
    ("adversarial/gin_referee", "adversarial, 10 cards"),
    ("worst_case/gin_referee", "our worst case, 10 cards"),
    ("gin_rummy_worst_case/gin_referee", "gin-rummy's worst case, 10 cards"),
    ("drawn_random/gin_referee", "random, 11 cards (analyze_drawn_hand)"),
    ("drawn_adversarial/gin_referee", "adversarial, 11 cards"),
    ("joker_free_random/min_deadwood", "wild bench: joker-free random, 10"),
    ("random/gin_rummy", "control: gin-rummy random, 10"),
    ("adversarial/gin_rummy", "control: gin-rummy adversarial, 10"),
]
print(f"base {base}, branch {branch}; {rounds} alternating rounds; ns per hand (median of rounds)")
print(f"| {'row (criterion id)':34} | {'what':38} | {'base':>9} | {'branch':>9} | {'branch/base':>11} |")
print(f"|{'-'*36}|{'-'*40}|{'-'*11}|{'-'*11}|{'-'*13}|")
for key, what in ROWS:
    xs = [r[key] for r in b if key in r]
    ys = [r[key] for r in n if key in r]
    if not xs or not ys:
        print(f"| {key:34} | {what:38} | {'missing':>9} | {'missing':>9} | {'':>11} |")
        continue
    x, y = statistics.median(xs), statistics.median(ys)
    print(f"| {key:34} | {what:38} | {x:9.1f} | {y:9.1f} | {y / x:11.3f} |")
PY
