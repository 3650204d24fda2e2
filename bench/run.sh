#!/usr/bin/env bash
# rulesh against its references, as ratios (rulesh / reference: below 1 means rulesh is faster).
# Usage: bash bench/run.sh [-quick]
#
# Four areas, each a table:
#   1. rule calls: dsl's BenchmarkPeers* (dsl/peers_bench_test.go), one small rule ("adds a d6
#      to a field, compares") 1,000,000 times from a loop inside one top-level call, and as
#      separate top-level calls from Go, against plain Go (not inlined), go.starlark.net and
#      gopher-lua, all drawing from the same seeded PCG;
#   2. rolling: the roll library (stdlib/dice BenchmarkRoll*) against Go drawing the same dice
#      from the same source (bench/rollref), and 1,000,000 rolls as a whole process
#      (`rulesh roll -n 1000000 --stats`) against a Go program and the rollers installed here
#      (rolldice, dicelab, github.com/justinian/dice, @dice-roller/rpg-dice-roller);
#   3. exact odds: the library (stdlib/dice BenchmarkExact*) against float64 Go references,
#      and `rulesh prob` as a whole process against `dicelab --calc`, job by job;
#   4. start-up and printed output: bench/startup.sh.
# The peer workloads (eight kinds of work in rulesh, Starlark and Lua) are bench/peers.sh.
# Peers are installed when possible (apt-get as root, npm, the Go module proxy); one that is
# missing, or that fails on a job, is printed as n/a with the reason; one that runs past the
# time-out is printed as "> T s". -quick runs every benchmark for less time (for trying the
# script; the ratios are then rougher). Load average and CPU are printed first: on a shared
# machine the ratios, taken within one run, are steadier than the absolute figures.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export PATH="$PATH:/usr/local/go/bin:/usr/games"
quick=0
case ${1-} in
  -quick | --quick) quick=1 ;;
  "") ;;
  *) sed -n '2,3p' "$0" | sed 's/^# //' >&2; exit 2 ;;
esac
out=$root/bench/out
mkdir -p "$out"
timeout_s=20 # a peer's whole-process job
if ((quick)); then
  loops=1x calls=0.3s lib=0.3s exact=3x reps=1
else
  loops=3x calls=2s lib=1s exact=10x reps=3
fi

echo "rulesh bench/run.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null)$( [ -n "$(git status --porcelain 2>/dev/null)" ] && echo '+changes')"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(go version | cut -d' ' -f3)"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

# --- helpers --------------------------------------------------------------------------------

# gobench OUT PKG REGEX BENCHTIME: go test benchmarks into OUT (count 1, -benchmem).
gobench() {
  if ! (cd "$root" && go test "$2" -run '^$' -bench "$3" -benchtime "$4" -benchmem -count 1) >"$1" 2>&1; then
    echo "run.sh: go test $2 -bench '$3' failed:" >&2
    cat "$1" >&2
  fi
}
# metric FILE NAME UNIT: the value of UNIT on benchmark NAME's line (name without -N suffix).
metric() {
  awk -v n="$2" -v u="$3" '{ sub(/-[0-9]+$/, "", $1) } $1 == n { for (i = 3; i < NF; i++) if ($(i + 1) == u) { print $i; exit } }' "$1"
}
# ratio A B: A / B to two figures, or n/a.
ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || a !~ /^[0-9.e+-]+$/ || b !~ /^[0-9.e+-]+$/ || b + 0 == 0) print "n/a"; else { r = a / b; printf(r >= 10 ? "%.0fx" : r >= 0.1 ? "%.2fx" : "%.2gx", r) } }'
}
# fmtns NS: nanoseconds in a readable unit.
fmtns() {
  awk -v v="$1" 'BEGIN { if (v == "") { print "n/a"; exit } if (v >= 1e9) printf "%.2f s", v / 1e9; else if (v >= 1e6) printf "%.2f ms", v / 1e6; else if (v >= 1e3) printf "%.1f us", v / 1e3; else printf "%.1f ns", v }'
}
mib() { awk -v v="$1" 'BEGIN { if (v == "") print "n/a"; else printf "%.0f MiB", v / 1048576 }'; }
# secs CMD…: best wall seconds of $reps runs, or "n/a (exit N)", or "> T s" on a time-out.
secs() {
  local best="" s e rc d
  for ((r = 0; r < reps; r++)); do
    s=$(date +%s%N)
    timeout "$timeout_s" "$@" >/dev/null 2>&1
    rc=$?
    e=$(date +%s%N)
    if ((rc == 124)); then echo "> $timeout_s s"; return; fi
    if ((rc != 0)); then echo "n/a (exit $rc)"; return; fi
    d=$(((e - s) / 1000)) # microseconds
    if [ -z "$best" ] || ((d < best)); then best=$d; fi
  done
  awk -v us="$best" 'BEGIN { printf "%.3f s", us / 1e6 }'
}
num() { [[ $1 =~ ^[0-9.]+\ s$ ]] && echo "${1% s}"; } # the number of a "N s" figure
# vs RULESH_SECONDS PEER_FIGURE: the ratio, "< R" when the peer ran past the time-out.
vs() {
  if [ -n "$1" ] && [[ $2 == ">"* ]]; then echo "< $(ratio "$1" "$timeout_s")"; else ratio "$1" "$(num "$2")"; fi
}
row() { printf "| %s " "$@"; echo "|"; }

# --- installs -------------------------------------------------------------------------------

if [ "$(id -u)" = 0 ] && { ! command -v dicelab >/dev/null || ! command -v rolldice >/dev/null; }; then
  { apt-get install -y rolldice dicelab || { apt-get update && apt-get install -y rolldice dicelab; }; } >"$out/apt.log" 2>&1
fi
go build -o "$out/rulesh" ./cmd/rulesh || exit 1

# --- 1. rule calls --------------------------------------------------------------------------

echo
echo "## 1. Rule calls (dsl BenchmarkPeers*: 'adds a d6 to a field, compares', same seeded PCG)"
gobench "$out/peers-loop.txt" ./dsl '^BenchmarkPeers.*Loop1M$' "$loops"
gobench "$out/peers-call.txt" ./dsl '^BenchmarkPeers.*Call$' "$calls"
L=$out/peers-loop.txt C=$out/peers-call.txt
echo
row "measure" "rulesh" "Go" "rulesh/Go" "Starlark" "rulesh/Starlark" "gopher-lua" "rulesh/Lua"
row "---" "---" "---" "---" "---" "---" "---" "---"
line() { # line LABEL FILE SUFFIX UNIT FORMATTER
  local rv gv sv lv
  rv=$(metric "$2" BenchmarkPeersRulesh"$3" "$4") gv=$(metric "$2" BenchmarkPeersGo"$3" "$4")
  sv=$(metric "$2" BenchmarkPeersStarlark"$3" "$4") lv=$(metric "$2" BenchmarkPeersLua"$3" "$4")
  row "$1" "$($5 "$rv")" "$($5 "$gv")" "$(ratio "$rv" "$gv")" "$($5 "$sv")" "$(ratio "$rv" "$sv")" "$($5 "$lv")" "$(ratio "$rv" "$lv")"
}
plain() { if [ -z "$1" ]; then echo n/a; else awk -v v="$1" 'BEGIN { printf(v >= 100 ? "%.0f" : "%.2f", v) }'; fi; }
per1m() { if [ -z "$1" ]; then echo n/a; else awk -v v="$1" 'BEGIN { printf "%.2f", v / 1e6 }'; fi; }
line "1M calls in one top-level call: time per call" "$L" Loop1M ns/call fmtns
line "  allocated by the 1M-call loop (B/op)" "$L" Loop1M B/op mib
line "  allocations per call" "$L" Loop1M allocs/op per1m
line "one top-level call from Go: time" "$C" Call ns/op fmtns
line "  allocations per call" "$C" Call allocs/op plain
live=$(metric "$L" BenchmarkPeersRuleshLoop1M live-MiB)
echo
echo "rulesh heap still held when the 1M-call loop ends, before its top-level call returns: ${live:-n/a} MiB"

# --- 2. rolling -----------------------------------------------------------------------------

echo
echo "## 2. Rolling"
gobench "$out/roll-lib.txt" ./stdlib/dice '^Benchmark(Roll(4d6kh3|3d6|10d10x)|Go4d6kh3)$' "$lib"
gobench "$out/roll-ref.txt" ./bench/rollref '^BenchmarkGoRoll' "$lib"
echo
row "library, one roll" "stdlib/dice" "Go, same source (bench/rollref)" "ratio" "Go, rand inlined (BenchmarkGo4d6kh3)" "ratio"
row "---" "---" "---" "---" "---" "---"
for e in 4d6kh3 3d6 10d10x; do
  lv=$(metric "$out/roll-lib.txt" BenchmarkRoll$e ns/op) gv=$(metric "$out/roll-ref.txt" BenchmarkGoRoll$e ns/op)
  if [ $e = 4d6kh3 ]; then iv=$(metric "$out/roll-lib.txt" BenchmarkGo4d6kh3 ns/op); else iv=""; fi
  row "$e" "$(fmtns "$lv")" "$(fmtns "$gv")" "$(ratio "$lv" "$gv")" "$( [ -n "$iv" ] && fmtns "$iv" || echo -)" "$( [ -n "$iv" ] && ratio "$lv" "$iv" || echo -)"
done

# The Go reference program: 1,000,000 rolls, each die drawn through a function that is not
# inlined from a math/rand/v2 PCG (the generator rulesh's seeded source wraps), with mean,
# standard deviation and counts, as `roll --stats` prints.
mkdir -p "$out/ref"
cat >"$out/ref/main.go" <<'GO'
package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
)

var rng = rand.New(rand.NewPCG(1, 2))

//go:noinline
func die(sides int) int { return 1 + rng.IntN(sides) }

func main() {
	counts := make([]int, 1024)
	var s1, s2 float64
	for i := 0; i < 1000000; i++ {
		t := 0
		switch os.Args[1] {
		case "4d6kh3":
			a, b, c, d := die(6), die(6), die(6), die(6)
			t = a + b + c + d - min(a, b, c, d)
		case "3d6":
			t = die(6) + die(6) + die(6)
		case "10d10!":
			for k := 0; k < 10; k++ {
				v := die(10)
				t += v
				for v == 10 {
					v = die(10)
					t += v
				}
			}
		}
		counts[min(t, 1023)]++
		s1 += float64(t)
		s2 += float64(t * t)
	}
	m := s1 / 1e6
	fmt.Println(m, math.Sqrt(s2/1e6-m*m), counts[:32])
}
GO
(cd "$out/ref" && { [ -f go.mod ] || go mod init ref >/dev/null 2>&1; } && go build -o "$out/ref-bin" .) || echo "run.sh: the Go reference program does not build" >&2

# justinian/dice from the Go module proxy, in its own module; n/a when the proxy refuses it.
mkdir -p "$out/justinian"
cat >"$out/justinian/main.go" <<'GO'
package main

import (
	"fmt"
	"os"

	"github.com/justinian/dice"
)

func main() {
	sum := 0
	for i := 0; i < 1000000; i++ {
		r, _, err := dice.Roll(os.Args[1])
		if err != nil {
			panic(err)
		}
		sum += r.Int()
	}
	fmt.Println(sum)
}
GO
if [ ! -x "$out/justinian-bin" ]; then
  (cd "$out/justinian" && { [ -f go.mod ] || go mod init justinian; } && go get github.com/justinian/dice && go build -o "$out/justinian-bin" .) >"$out/justinian.log" 2>&1
fi
# rpg-dice-roller from npm.
if command -v npm >/dev/null && [ ! -d "$out/npm/node_modules/@dice-roller" ]; then
  (mkdir -p "$out/npm" && cd "$out/npm" && npm init -y && npm install @dice-roller/rpg-dice-roller) >"$out/npm.log" 2>&1
fi
mkdir -p "$out/npm"
cat >"$out/npm/roll.mjs" <<'JS'
import { DiceRoll } from '@dice-roller/rpg-dice-roller';
let s = 0;
for (let i = 0; i < 1000000; i++) s += new DiceRoll(process.argv[2]).total;
console.log(s);
JS

# rolldice takes at most 32,767 rolls per call: 40 calls of 25,000.
rolldice_1m() { for _ in $(seq 40); do rolldice "25000x$1" >/dev/null || return 1; done; }
dicelab_1m() { echo "$1" | dicelab --eval -n 1000000; }
export -f rolldice_1m dicelab_1m
why() { # why TOOL: n/a with the reason a peer is missing
  case $1 in
    justinian) grep -m1 -o 'not available\|404[^"]*\|410[^"]*' "$out/justinian.log" 2>/dev/null | head -1 | sed 's/^/n\/a (proxy: /; s/$/)/' | grep . || echo "n/a (not built)" ;;
    *) echo "n/a (not installed)" ;;
  esac
}

echo
echo "1,000,000 rolls as a whole process, best of $reps (ratio: rulesh / that column)"
echo
row "expr" "Go program" "rulesh --stats" "rulesh/Go" "rolldice" "ratio" "dicelab --eval" "ratio" "justinian/dice" "ratio" "rpg-dice-roller" "ratio"
row "---" "---" "---" "---" "---" "---" "---" "---" "---" "---" "---" "---"
for e in 4d6kh3 3d6 '10d10!'; do
  case $e in
    4d6kh3) rd=4d6s1 dl='sum(high 3 4#d6)' ;;
    3d6) rd=3d6 dl='sum(3#d6)' ;;
    *) rd="" dl="" ;; # neither has an exploding die
  esac
  go_t=$(secs "$out/ref-bin" "$e")
  rs_t=$(secs "$out/rulesh" roll -n 1000000 --stats "$e")
  if ! command -v rolldice >/dev/null; then rd_t=$(why rolldice); elif [ -z "$rd" ]; then rd_t="n/a (no exploding dice)"; else rd_t=$(secs bash -c "rolldice_1m $rd"); fi
  if ! command -v dicelab >/dev/null; then dl_t=$(why dicelab); elif [ -z "$dl" ]; then dl_t="n/a (no exploding dice)"; else dl_t=$(secs bash -c "dicelab_1m '$dl'"); fi
  if [ -x "$out/justinian-bin" ]; then ju_t=$(secs "$out/justinian-bin" "$e"); else ju_t=$(why justinian); fi
  if [ -d "$out/npm/node_modules/@dice-roller" ]; then np_t=$(secs node "$out/npm/roll.mjs" "$e"); else np_t=$(why npm); fi
  r=$(num "$rs_t")
  row "$e" "$go_t" "$rs_t" "$(vs "$r" "$go_t")" "$rd_t" "$(vs "$r" "$rd_t")" "$dl_t" "$(vs "$r" "$dl_t")" \
    "$ju_t" "$(vs "$r" "$ju_t")" "$np_t" "$(vs "$r" "$np_t")"
done

# --- 3. exact odds --------------------------------------------------------------------------

echo
echo "## 3. Exact odds"
gobench "$out/exact.txt" ./stdlib/dice '^Benchmark(Go)?Exact' "$exact"
echo
row "library (stdlib/dice)" "exact (big.Int/uint64)" "Go reference (float64)" "ratio"
row "---" "---" "---" "---"
for e in 8d6kh3 20d6 10d10kh3 8d10ge7 200d10 500d6 500d10 200d6kh3 100d10kh3; do
  xv=$(metric "$out/exact.txt" BenchmarkExact$e ns/op) gv=$(metric "$out/exact.txt" BenchmarkGoExact$e ns/op)
  row "$e" "$(fmtns "$xv")" "$(fmtns "$gv")" "$(ratio "$xv" "$gv")"
done

echo
echo "whole process, rulesh prob against dicelab --calc, best of $reps, time-out $timeout_s s (ratio: rulesh / dicelab)"
echo
row "job" "rulesh prob" "dicelab --calc" "rulesh/dicelab" "dicelab job"
row "---" "---" "---" "---" "---"
for job in '3d6|sum(3#d6)' '4d6kh3|sum(high 3 4#d6)' '8d6kh3|sum(high 3 8#d6)' '20d6|sum(20#d6)' \
  '10d10kh3|sum(high 3 10#d10)' '8d10>=7|sum(8#count(>6 d10))' '200d10|sum(200#d10)' '500d6|sum(500#d6)' \
  '500d10|sum(500#d10)' '200d6kh3|sum(high 3 200#d6)' '100d10kh3|sum(high 3 100#d10)'; do
  e=${job%%|*} dl=${job#*|}
  rs_t=$(secs "$out/rulesh" prob "$e")
  if command -v dicelab >/dev/null; then dl_t=$(secs sh -c "echo '$dl' | dicelab --calc"); else dl_t=$(why dicelab); fi
  row "$e" "$rs_t" "$dl_t" "$(vs "$(num "$rs_t")" "$dl_t")" "\`$dl\`"
done

# --- 4. start-up and output -----------------------------------------------------------------

echo
echo "## 4. Start-up and output (bench/startup.sh)"
echo
bash "$root/bench/startup.sh"
echo
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
