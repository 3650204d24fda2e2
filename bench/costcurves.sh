#!/usr/bin/env bash
# The cost curves of exact odds against the number of draws (docs/PERFORMANCE.md, "Procedures
# that draw many dice"): for each question, the branches the answer prints (or "sampled")
# and the CPU time of the whole process (user + system, the least and the most of REPS runs,
# the binaries interleaved), for each binary given.
#
#   bash bench/costcurves.sh BEFORE AFTER [REPS]
#   bash bench/costcurves.sh /work/bench-bin/rulesh-d99f2ab /tmp/rulesh 3
#
# The questions are on analysis/testdata/many.rules: n d6 summed in a loop (sum_loop), n
# attacks in a loop (volley) and in one expression (sum(map(1..n, attack()))), and "roll d6
# until the total reaches 20, counting the rolls" (until(20)). QUESTIONS=... replaces them.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: bash bench/costcurves.sh BEFORE AFTER [REPS]" >&2
  exit 2
fi
before=$1 after=$2 reps=${3:-3}
rules=$(dirname "$0")/../analysis/testdata/many.rules
if [ -z "${QUESTIONS:-}" ]; then
  QUESTIONS=""
  for n in 1 2 3 5 7 10 15 20 25 30; do QUESTIONS+="sum_loop($n);"; done
  for n in 1 2 3 4 5 6 7 8 9 10; do QUESTIONS+="volley($n);"; done
  for n in 1 2 3 4 5 6 7 8 9 10; do QUESTIONS+="sum(map(1..$n, attack()));"; done
  QUESTIONS+="sum(map(1..30, d(6)));len(filter(map(1..10, d(6)), # >= 5));until(20)"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# one BIN EXPR: prints "BRANCHES CPU" for one run.
one() {
  /usr/bin/time -o "$tmp/time" -f '%U %S' timeout 600 "$1" prob -f "$rules" "$2" >"$tmp/out" 2>"$tmp/err" || true
  local cpu branches
  cpu=$(tail -1 "$tmp/time" | awk '{printf "%.2f", $1 + $2}')
  if grep -q '^exact: ' "$tmp/out"; then
    branches=$(sed -n 's/^exact: \([0-9]*\) branches.*/\1/p' "$tmp/out")
  elif grep -q '^sampled' "$tmp/out"; then
    branches=sampled
  else
    branches=error
  fi
  echo "$branches $cpu"
}
printf '| question | before: branches | before: CPU s | after: branches | after: CPU s |\n|---|---|---|---|---|\n'
IFS=';' read -ra qs <<<"$QUESTIONS"
for q in "${qs[@]}"; do
  bb="" ab="" bcpu=() acpu=()
  for _ in $(seq "$reps"); do
    read -r bb c < <(one "$before" "$q"); bcpu+=("$c")
    read -r ab c < <(one "$after" "$q"); acpu+=("$c")
  done
  span() { printf '%s\n' "$@" | sort -n | awk 'NR == 1 {lo = $1} {hi = $1} END {print (lo == hi ? lo : lo "-" hi)}'; }
  printf '| `%s` | %s | %s | %s | %s |\n' "$q" "$bb" "$(span "${bcpu[@]}")" "$ab" "$(span "${acpu[@]}")"
done
