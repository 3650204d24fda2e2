#!/usr/bin/env bash
# Instructions of the three end-to-end workloads of the interpreter's aims, for one rulesh
# binary: a Mortebrume strike and a naval Assaut under `sim` (one worker, the collector off,
# the set-up of a one-run sim subtracted, divided by the runs; the set-up and its one run
# printed too), and `check` of the largest shipped ruleset. Instruction counts (callgrind) do
# not depend on the machine's load, so two binaries measured at different times compare;
# they vary by about ±0.3% from run to run (Go's map seeds are random). Run on d99f2ab's
# binary (the aims' reference), they give the aims' ratios in instructions: set-up + (N-1)
# runs of each. About two minutes.
#
# Usage: bash bench/instructions.sh BINARY [RULESETS_DIR]
#   BINARY        a rulesh binary (go build -o /tmp/new/rulesh ./cmd/rulesh)
#   RULESETS_DIR  the rulesets it runs (default: rulesets, from the repository's root)
# Exit codes: 0 done, 2 bad usage or no valgrind.
set -euo pipefail
R=${1:-}
D=${2:-rulesets}
if [ -z "$R" ] || [ ! -x "$R" ]; then
  sed -n '11,13p' "$0" | sed 's/^# //' >&2
  exit 2
fi
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 2; }
# callgrind dies on Go's preemption signals without asyncpreemptoff.
cg() {
  GOGC=off GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind \
    --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | awk '/refs/ {gsub(",", "", $NF); print $NF}'
}
a=$(cg "$R" sim --workers 1 --runs 1001 --seed 1 -f "$D/mortebrume/forge.rules" 'frapper(will,jack)')
b=$(cg "$R" sim --workers 1 --runs 1 --seed 1 -f "$D/mortebrume/forge.rules" 'frapper(will,jack)')
echo "strike $(( (a - b) / 1000 )) instructions a run, set-up and one run $b"
a=$(cg "$R" sim --workers 1 --runs 101 --seed 1 -f "$D/naval/brigantin.rules" 'assauts_automatiques(1)')
b=$(cg "$R" sim --workers 1 --runs 1 --seed 1 -f "$D/naval/brigantin.rules" 'assauts_automatiques(1)')
echo "assaut $(( (a - b) / 100 )) instructions a run, set-up and one run $b"
echo "check starwars.rules $(cg "$R" check "$D/starwars/starwars.rules") instructions"
