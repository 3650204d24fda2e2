#!/usr/bin/env bash
# Instructions of the three end-to-end workloads of the interpreter's aims, for one rulesh
# binary: a Mortebrume strike and a naval Assaut under `sim` (one worker, the collector off,
# the set-up of a one-run sim subtracted, divided by the runs; the set-up and its one run
# printed too), and `check` of the largest shipped ruleset. Instruction counts (callgrind) do
# not depend on the machine's load, so two binaries measured at different times compare.
# They do vary from run to run: Go's map seeds are random, so a run's maps are allocated at
# other addresses, and the machine's direct-mapped tables (fields read, maps' keys) keyed by
# addresses hit more or less: up to 2% for the Assaut. -n N runs each sim N times and prints
# the median a run, with the range. Run on d99f2ab's binary (the aims' reference), they give
# the aims' ratios in instructions: set-up + (N-1) runs of each. About two minutes with -n 1.
#
# Usage: bash bench/instructions.sh [-n N] BINARY [RULESETS_DIR]
#   -n N          runs of each sim (default 1)
#   BINARY        a rulesh binary (go build -o /tmp/new/rulesh ./cmd/rulesh)
#   RULESETS_DIR  the rulesets it runs (default: rulesets, from the repository's root)
# Exit codes: 0 done, 2 bad usage or no valgrind.
set -euo pipefail
usage() { sed -n '13,16p' "$0" | sed 's/^# //' >&2; exit 2; }
n=1
if [ "${1:-}" = "-n" ]; then
  [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || usage
  n=$2
  shift 2
fi
R=${1:-}
D=${2:-rulesets}
if [ -z "$R" ] || [ ! -x "$R" ]; then
  usage
fi
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 2; }
# callgrind dies on Go's preemption signals without asyncpreemptoff.
cg() {
  GOGC=off GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind \
    --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | awk '/refs/ {gsub(",", "", $NF); print $NF}'
}
# perrun RUNS ARGS...: the instructions a run of `sim --runs RUNS ARGS`, less the set-up (a
# one-run sim), n times: the median and the range.
perrun() {
  local runs=$1
  shift
  local b a per=()
  b=$(cg "$R" sim --workers 1 --runs 1 --seed 1 "$@")
  for _ in $(seq "$n"); do
    a=$(cg "$R" sim --workers 1 --runs "$runs" --seed 1 "$@")
    per+=($(( (a - b) / (runs - 1) )))
  done
  mapfile -t per < <(printf '%s\n' "${per[@]}" | sort -n)
  local med=${per[$(( ${#per[@]} / 2 ))]}
  if [ "$n" -eq 1 ]; then
    echo "$med instructions a run, set-up and one run $b"
  else
    echo "$med instructions a run (median of $n, ${per[0]}–${per[-1]}), set-up and one run $b"
  fi
}
echo "strike $(perrun 1001 -f "$D/mortebrume/forge.rules" 'frapper(will,jack)')"
echo "assaut $(perrun 101 -f "$D/naval/brigantin.rules" 'assauts_automatiques(1)')"
echo "check starwars.rules $(cg "$R" check "$D/starwars/starwars.rules") instructions"
