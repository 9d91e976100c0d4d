#!/usr/bin/env bash
# The rows of benches/pictures.rs in instructions per iteration, counted by
# callgrind: the same cases as `cargo bench --bench pictures` (read the
# request, answer it, write the JSON or draw the SVG or the page), without the
# noise that a shared machine puts on criterion's times.
#
#   cargo bench --bench pictures --no-run        # prints the bench executable
#   scripts/pictures-bench-instructions.sh target/release/deps/pictures-<hash> [OTHER ...]
#
# Each case runs under `valgrind --tool=callgrind` with criterion's
# `--profile-time 1` (iterations without analysis); the instructions inside
# criterion's `Bencher::iter` divided by the number of iterations it ran (each
# answers its request once: the calls to the contract's answering function, as
# callgrind_annotate counts them) is one iteration's cost. Needs valgrind.
set -euo pipefail
[ $# -ge 1 ] || { sed -n '2,14p' "$0"; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind is required (apt-get install valgrind)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One iteration's instructions of case $2 of bench executable $1, whose
# iterations each call the answering function $3 once.
per_iteration() {
    local out="$work/callgrind.out"
    rm -f "$out"*
    valgrind --tool=callgrind --callgrind-out-file="$out" "$1" --bench --profile-time 1 "^pictures/$2\$" \
        > /dev/null 2>&1
    callgrind_annotate --tree=caller --inclusive=yes "$out" 2>/dev/null | ANSWERS="$3" python3 -c '
import os, re, sys
# In the caller tree each function (its line marked "*") comes after its
# callers ("<", with their call counts). Every case answers its request once
# per iteration: the calls to the answering function count them.
answers = os.environ["ANSWERS"]
total, iterations, callers = None, 0, []
number = lambda text: int(text.replace(",", ""))
for line in sys.stdin:
    called = re.match(r"\s*[\d,]+ \([^)]*\)\s+<\s+\S+.*\(([\d,]+)x\)", line)
    if called:
        callers.append(number(called.group(1)))
        continue
    function = re.match(r"\s*([\d,]+) \([^)]*\)\s+\*\s+\S*?:(\S+)", line)
    if function:
        name = function.group(2)
        if name.startswith("criterion::bencher::Bencher<M>::iter"):
            total = number(function.group(1))
        if name == answers:
            iterations += sum(callers)
    if line.strip() == "" or function:
        callers = []
if not total or not iterations:
    sys.exit("no Bencher::iter or no " + answers + " in the profile")
print(total // iterations)
'
}

printf '%-34s %-12s %11s %11s %11s %9s %9s\n' bench request json svg html "svg/json" "html/json"
for bench in "$@"; do
    for name in score_6 score_100 match_audit hand_audit; do
        case $name in
            score_*) answers=gin_contract::answers::matches::respond ;;
            match_audit) answers=gin_contract::answers::match_audit::respond ;;
            hand_audit) answers=gin_contract::answers::audit::verdict ;;
        esac
        json=$(per_iteration "$bench" "$name/json" "$answers")
        svg=$(per_iteration "$bench" "$name/svg" "$answers")
        # The base's bench has no page rows for the audits.
        html=$(per_iteration "$bench" "$name/html" "$answers" 2>/dev/null || echo 0)
        ratio="-"
        [ "$html" != 0 ] && ratio=$(printf '%.2fx' "$(bc -l <<<"$html / $json")")
        printf '%-34s %-12s %11d %11d %11s %8.2fx %9s\n' "$(basename "$bench")" "$name" "$json" "$svg" \
            "$([ "$html" != 0 ] && echo "$html" || echo -)" "$(bc -l <<<"$svg / $json")" "$ratio"
    done
done
