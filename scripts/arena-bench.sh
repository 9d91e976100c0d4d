#!/usr/bin/env bash
# The arena's speed, as BENCHMARKS.md ("The arena") reports it, on the
# release build:
#   1. two process bots that play the first listed move, --unit hand (such
#      bots never knock, so a match of them would not end): the arena's own
#      CPU time per decision (its threads, not the bots' processes: the
#      report's run.cpu_seconds over every decision), goal at most 50 us;
#   2. built-in simple against simple, whole standard matches, --workers 2,
#      records written, no signing key: matches a second (wall clock), goal
#      at least 1,000;
#   3. the same process bot against built-in simple in whole standard
#      matches (PAIRS_HAND / 5 pairs): the arena's CPU time per decision
#      when each of the process bot's decisions is sent the match's state.
#
#   bash scripts/arena-bench.sh [PAIRS_HAND] [PAIRS_MATCH]
#   GIN_REFEREE_BIN=path/to/gin-referee bash scripts/arena-bench.sh ...   # another build (a base)
set -euo pipefail
cd "$(dirname "$0")/.."
pairs_hand=${1:-500}
pairs_match=${2:-5000}

if [ -n "${GIN_REFEREE_BIN:-}" ]; then
    bin=$GIN_REFEREE_BIN
else
    cargo build --release --locked -p gin-referee
    bin=$PWD/target/release/gin-referee
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

cat > "$dir/first.py" <<'PY'
import json, sys
for line in sys.stdin:
    state = json.loads(line)["state"]
    table = state["tables"][0] if "tables" in state else state  # a match's, or a hand's
    sys.stdout.write(json.dumps({"move": table["legal_actions"][0]["move"]}) + "\n")
    sys.stdout.flush()
PY

"$bin" arena --bot "a=cmd:python3 $dir/first.py" --bot "b=cmd:python3 $dir/first.py" \
    --pairs "$pairs_hand" --unit hand --workers 2 --seed bench \
    --out "$dir/hands.ndjson" --report "$dir/hands.json" >/dev/null
"$bin" arena --bot a=simple --bot b=simple:seed=1 \
    --pairs "$pairs_match" --workers 2 --seed bench \
    --out "$dir/matches.ndjson" --report "$dir/matches.json" >/dev/null
"$bin" arena --bot "a=cmd:python3 $dir/first.py" --bot b=simple \
    --pairs $(( (pairs_hand + 4) / 5 )) --workers 2 --seed bench \
    --out "$dir/process-matches.ndjson" --report "$dir/process-matches.json" >/dev/null

python3 - "$dir/hands.json" "$dir/matches.json" "$dir/matches.ndjson" "$dir/process-matches.json" <<'PY'
import json, os, sys
hands = json.load(open(sys.argv[1]))
decisions = sum(bot["decisions"] for bot in hands["by_bot"].values())
cpu = hands["run"]["cpu_seconds"]
print(f"process bots, --unit hand: {hands['games']} hands, {decisions:.0f} decisions, "
      f"arena CPU {cpu:.2f} s = {1e6 * cpu / decisions:.1f} us a decision "
      f"(wall {hands['run']['wall_seconds']:.2f} s)")
matches = json.load(open(sys.argv[2]))
wall = matches["run"]["wall_seconds"]
decisions = sum(bot["decisions"] for bot in matches["by_bot"].values())
size = os.path.getsize(sys.argv[3])
print(f"simple v simple, --workers 2: {matches['games']} matches in {wall:.2f} s = "
      f"{matches['games'] / wall:.0f} matches/s, {decisions / matches['games']:.0f} decisions a match, "
      f"arena CPU {matches['run']['cpu_seconds']:.2f} s, records {size / 1e6:.1f} MB")
process = json.load(open(sys.argv[4]))
decisions = sum(bot["decisions"] for bot in process["by_bot"].values())
cpu = process["run"]["cpu_seconds"]
print(f"process bot v simple, whole matches: {process['games']} matches, {decisions:.0f} decisions, "
      f"arena CPU {cpu:.2f} s = {1e6 * cpu / decisions:.1f} us a decision "
      f"(wall {process['run']['wall_seconds']:.2f} s)")
PY
