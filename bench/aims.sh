#!/usr/bin/env bash
# The end-to-end aims of the interpreter's speed in one interleaved run against a reference
# revision (default d99f2ab, main when the aims were set). Each row runs two commands in
# turn (bench/pairs) and prints the CPU time of each whole process, its peak memory and the
# ratio of the two pair by pair, median (min–max). A is this tree's binary; B is the
# reference's for the sims, the Sabre game and `check`, a trivial Go binary for start-up
# (aim: 1.5x); the 1M calls in one eval (aim: under 40 MiB) run A alone. The sims run on the
# rules of this tree with both binaries (the same work: the run stops if the reference does
# not print the same), and on the reference's own rules with both. Sabre's rules use syntax
# the reference cannot read: its row is each binary on its own rules. Then the language
# server's diagnostics after its debounce (aim: 50 ms). About a minute once both revisions
# are built (the first build of each adds about half a minute). Nothing is left behind.
# Usage: bash bench/aims.sh [-n RUNS] [REV]
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n '13p' "$0" | sed 's/^# //' >&2; exit 2; }
n=11
rev=d99f2ab
while (($#)); do
  case $1 in
    -n) (($# >= 2)) || usage; n=$2; shift 2 ;;
    -h | --help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) usage ;;
    *) (($# == 1)) || usage; rev=$1; shift ;;
  esac
done
[[ $n =~ ^[1-9][0-9]*$ ]] || usage
if ! commit=$(git rev-parse --verify --quiet "$rev^{commit}"); then
  echo "bench/aims.sh: $rev is not a revision of this repository" >&2
  exit 2
fi
# Everything built or copied goes to a temporary folder, outside the repository, whose
# tests read every rule file and Go file under it.
out=$(mktemp -d)
wt=$out/ref
trap 'git worktree remove --force "$wt" >/dev/null 2>&1 || true; rm -rf "$out"' EXIT

go build -o "$out/pairs" ./bench/pairs
go build -o "$out/rulesh" ./cmd/rulesh
git worktree add --quiet --detach "$wt" "$commit"
(cd "$wt" && go build -o "$out/rulesh-ref" ./cmd/rulesh)
mkdir "$out/trivial"
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println(4) }\n' >"$out/trivial/main.go"
printf 'module trivial\n\ngo 1.26\n' >"$out/trivial/go.mod"
(cd "$out/trivial" && go build -o "$out/trivial-bin" .)

A=$out/rulesh
B=$out/rulesh-ref
R=$wt/rulesets
strike=(sim --runs 20000 --seed 1 -f)
strikeExpr='frapper(will,jack)'
assaut=(sim --runs 300 --seed 1 -f)
assautExpr='assauts_automatiques(1)'

echo "rulesh bench/aims.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)$( [ -n "$(git status --porcelain)" ] && echo '+changes') against $rev ($(git rev-parse --short "$commit")), $n pairs a row"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(go version | cut -d' ' -f3); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
# The same rules must give the same output with both binaries, or the rows time different
# work.
same() {
  if ! cmp -s <("$A" "$@" 2>&1) <("$B" "$@" 2>&1); then
    echo "bench/aims.sh: the two binaries print different things for: rulesh $*" >&2
    exit 1
  fi
  echo "same output: rulesh $*"
}
same "${strike[@]}" rulesets/mortebrume/forge.rules "$strikeExpr"
same "${assaut[@]}" rulesets/naval/brigantin.rules "$assautExpr"
echo
echo "| command | A cpu ms | A peak MiB | B cpu ms | B peak MiB | A/B cpu |"
echo "|---|---|---|---|---|---|"
p() { "$out/pairs" -n "$n" "$@"; }
p -label "strike, \`sim --runs 20000\`, this tree's rules" -- "$A" "${strike[@]}" rulesets/mortebrume/forge.rules "$strikeExpr" \
  --vs "$B" "${strike[@]}" rulesets/mortebrume/forge.rules "$strikeExpr"
p -label "strike, $rev's rules" -- "$A" "${strike[@]}" "$R/mortebrume/forge.rules" "$strikeExpr" \
  --vs "$B" "${strike[@]}" "$R/mortebrume/forge.rules" "$strikeExpr"
p -label "Assaut, \`sim --runs 300\`, this tree's rules" -- "$A" "${assaut[@]}" rulesets/naval/brigantin.rules "$assautExpr" \
  --vs "$B" "${assaut[@]}" rulesets/naval/brigantin.rules "$assautExpr"
p -label "Assaut, $rev's rules" -- "$A" "${assaut[@]}" "$R/naval/brigantin.rules" "$assautExpr" \
  --vs "$B" "${assaut[@]}" "$R/naval/brigantin.rules" "$assautExpr"
p -n $(((n + 1) / 2)) -label "Sabre, \`eval --seed 3 … 'partie_auto()'\`, each binary its own rules" \
  -- "$A" eval --seed 3 -f rulesets/sabre/démo.rules 'partie_auto()' \
  --vs "$B" eval --seed 3 -f "$R/sabre/démo.rules" 'partie_auto()'
p -n $((2 * n)) -label "\`check starwars.rules\`, each binary its own" -- "$A" check rulesets/starwars/starwars.rules \
  --vs "$B" check "$R/starwars/starwars.rules"
# Both copied just now, so that neither is the warmer in the page cache.
cp "$A" "$out/rulesh-cp"
cp "$out/trivial-bin" "$out/trivial-cp"
p -n $((10 * n)) -label "\`roll 1d6\`, B a trivial Go binary" -- "$out/rulesh-cp" roll 1d6 --vs "$out/trivial-cp"
p -n 3 -label "1M calls in one \`eval\`: \`3d6 + 2 >= 12\`" -- "$A" eval --seed 1 -f bench/testdata/million.rules 'touches()'
p -n 3 -label "1M calls in one \`eval\`: a \`4d6kh3\` kept and read" -- "$A" eval --seed 1 -f bench/testdata/million.rules 'gardés()'
echo
echo "The language server, the naval scenario's diagnostics (brigantin.rules, which includes naval.rules) after the debounce:"
go test -run '^$' -bench '^BenchmarkDiagnosticsAfterDebounce$' -benchtime 20x ./cmd/rulesh/internal/lsp | grep '^Benchmark'
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
