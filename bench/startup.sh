#!/usr/bin/env bash
# Start-up and printed output of the rulesh binary, as ratios:
#   `rulesh roll 1d6` against a trivial Go binary (fmt.Println) built the same way;
#   `rulesh roll -n 1000000 1d6` (every roll printed) against `--stats` (counted only).
# Uses hyperfine when installed (apt-get install hyperfine), else a loop timed with date.
# Also prints what package initialisation still costs (GODEBUG=inittrace=1).
# Usage: bash bench/startup.sh
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/rulesh" ./cmd/rulesh
mkdir "$tmp/trivial"
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println(4) }\n' > "$tmp/trivial/main.go"
printf 'module trivial\n\ngo 1.26\n' > "$tmp/trivial/go.mod"
(cd "$tmp/trivial" && go build -o "$tmp/trivial-bin" .)

# "WALL CPU": median wall seconds and mean CPU seconds (user+system) of a command over N runs,
# output to /dev/null. CPU time is what a busy machine disturbs least; without hyperfine,
# CPU is the wall time of a timed loop.
measure() {
  local n=$1; shift
  if command -v hyperfine >/dev/null; then
    hyperfine -N --warmup 20 --runs "$n" --output=null --export-json "$tmp/h.json" "$*" >/dev/null 2>&1
    python3 -c "import json; r = json.load(open('$tmp/h.json'))['results'][0]; print('%.6f %.6f' % (r['median'], r['user'] + r['system']))"
  else
    local t0 t1
    t0=$(date +%s%N)
    for ((i = 0; i < n; i++)); do "$@" >/dev/null; done
    t1=$(date +%s%N)
    echo "$t0 $t1 $n" | awk '{t = ($2 - $1) / 1e9 / $3; printf "%.6f %.6f\n", t, t}'
  fi
}
# compare LABEL_A "WALL CPU" LABEL_B "WALL CPU": both, and the ratios A/B
compare() {
  echo "$1 $2 $3 $4" | awk '{printf "wall %.4f s / %.4f s = %.2fx, cpu %.4f s / %.4f s = %.2fx\n", $1, $3, $1 / $3, $2, $4, $2 / $4}'
}

triv=$(measure 500 "$tmp/trivial-bin")
roll=$(measure 500 "$tmp/rulesh" roll 1d6)
echo "start-up, rulesh roll 1d6 / trivial Go binary: $(compare $roll $triv)"
printed=$(measure 10 "$tmp/rulesh" roll --seed 1 -n 1000000 1d6)
stats=$(measure 10 "$tmp/rulesh" roll --seed 1 -n 1000000 --stats 1d6)
echo "output, 1M rolls printed / counted (--stats): $(compare $printed $stats)"
echo "package initialisation of rulesh roll 1d6 (the costliest):"
GODEBUG=inittrace=1 "$tmp/rulesh" roll 1d6 2>&1 >/dev/null | sort -t, -k2 -rn | awk '{print "  " $0}' | sort -k5 -rn | head -6
