#!/usr/bin/env bash
# Make the profile that `go build ./cmd/rulesh` optimises with (cmd/rulesh/default.pgo).
#
# Usage: bash bench/pgo.sh [-benchtime D]
#
# The go command builds a main package with the CPU profile in its folder's default.pgo
# (-pgo=auto): it inlines and devirtualises the calls that the profile shows hot. This
# script records that profile from the benchmarks of what GMs run most: the simulations of
# the shipped rulesets (a Mortebrume strike, a naval Assaut, an army battle, a Star Wars shot,
# a whole Sabre game), exact odds, and the loads and checks of the largest ruleset, the rule
# calls, loops and table lookups of the language benchmarks. It merges them into one profile
# and writes it over cmd/rulesh/default.pgo. Rerun it after a large change to the
# interpreter; a stale profile only optimises less (the build never fails on one).
# Exit codes: 0 written, 1 a benchmark failed, 2 bad usage.
set -euo pipefail

benchtime=2s
case "${1:-}" in
"") ;;
-benchtime | --benchtime)
  [ $# -eq 2 ] || { sed -n '4p' "$0" | sed 's/^# //' >&2; exit 2; }
  benchtime=$2
  ;;
*)
  sed -n '4p' "$0" | sed 's/^# //' >&2
  exit 2
  ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root"

go test ./analysis -run '^$' -benchtime "$benchtime" -cpuprofile "$tmp/analysis.pprof" -o "$tmp/analysis.test" \
  -bench '^Benchmark(SimMortebrumeStrike|SimNavalAssaut|SimArmyBattle|SimStarWarsShot|SimSabreGame|ProbMortebrumeStrikeExact)$/^workers=1$' >/dev/null
go test ./dsl -run '^$' -benchtime "$benchtime" -cpuprofile "$tmp/dsl.pprof" -o "$tmp/dsl.test" \
  -bench '^Benchmark(LoadLargestRuleset|CheckLargestRuleset|RuleCalls|PeersRuleshLoop1M|PeersRuleshCall|TableLookupBands100k)$' >/dev/null
go tool pprof -proto "$tmp/analysis.pprof" "$tmp/dsl.pprof" >"$tmp/merged.pprof" 2>/dev/null
mv "$tmp/merged.pprof" cmd/rulesh/default.pgo
echo "wrote cmd/rulesh/default.pgo ($(wc -c <cmd/rulesh/default.pgo) bytes)"
