#!/usr/bin/env bash
# Side-by-side timing of rulesh against the dice rollers that run here: a hand-written Go
# program (the reference), rolldice and dicelab (Debian), @dice-roller/rpg-dice-roller (npm)
# and github.com/justinian/dice (Go). Peers that cannot be installed are reported as n/a.
# Usage: bash bench/compare.sh            (installs what it can; needs root for apt)
set -uo pipefail
cd "$(dirname "$0")/.."
out=$PWD/bench/out
mkdir -p "$out"
export PATH="$PATH:/usr/local/go/bin:/usr/games"

if [ "$(id -u)" = 0 ] && ! command -v dicelab >/dev/null; then
  apt-get install -y rolldice dicelab >/dev/null 2>&1 || true
fi
go build -o "$out/rulesh" ./cmd/rulesh

# The hand-written reference: 1,000,000 rolls with math/rand/v2 PCG, mean/stddev/counts.
mkdir -p "$out/ref"
cat > "$out/ref/main.go" <<'GO'
package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
)

func main() {
	rng := rand.New(rand.NewPCG(1, 2))
	counts := make([]int, 1024)
	var s1, s2 float64
	for i := 0; i < 1000000; i++ {
		t := 0
		switch os.Args[1] {
		case "4d6kh3":
			a, b, c, d := 1+rng.IntN(6), 1+rng.IntN(6), 1+rng.IntN(6), 1+rng.IntN(6)
			t = a + b + c + d - min(a, b, c, d)
		case "3d6":
			t = 3 + rng.IntN(6) + rng.IntN(6) + rng.IntN(6)
		case "10d10!":
			for k := 0; k < 10; k++ {
				v := 1 + rng.IntN(10)
				t += v
				for v == 10 {
					v = 1 + rng.IntN(10)
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
(cd "$out/ref" && { [ -f go.mod ] || go mod init ref >/dev/null 2>&1; } && go build -o "$out/ref-bin" .)

# justinian/dice, from the Go module proxy, in its own module (the proxy may refuse it:
# then it is reported n/a).
mkdir -p "$out/justinian"
cat > "$out/justinian/main.go" <<'GO'
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
(cd "$out/justinian" && { [ -f go.mod ] || go mod init justinian >/dev/null 2>&1; } && go get github.com/justinian/dice >/dev/null 2>&1 && go build -o "$out/justinian-bin" . ) >/dev/null 2>&1 || true

# rpg-dice-roller, from npm.
if command -v npm >/dev/null && [ ! -d "$out/npm/node_modules/@dice-roller" ]; then
  (mkdir -p "$out/npm" && cd "$out/npm" && npm init -y >/dev/null 2>&1 && npm install @dice-roller/rpg-dice-roller >/dev/null 2>&1) || true
fi
cat > "$out/npm/roll.mjs" 2>/dev/null <<'JS'
import { DiceRoll } from '@dice-roller/rpg-dice-roller';
let s = 0;
for (let i = 0; i < 1000000; i++) s += new DiceRoll(process.argv[2]).total;
console.log(s);
JS

# seconds of wall time for one run of a command (best of 3)
t() {
  local best=""
  for _ in 1 2 3; do
    local s e
    s=$(date +%s.%N)
    timeout 60 "$@" >/dev/null 2>&1 || { echo "n/a"; return; }
    e=$(date +%s.%N)
    local d; d=$(echo "$e - $s" | bc)
    if [ -z "$best" ] || [ "$(echo "$d < $best" | bc)" = 1 ]; then best=$d; fi
  done
  printf '%.3f' "$best"
}

# rolldice refuses more than 32,767 rolls per call: 40 calls of 25,000.
rolldice_1m() { for _ in $(seq 40); do rolldice "25000x$1" || return 1; done; }
export -f rolldice_1m 2>/dev/null
dicelab_1m() { echo "$1" | dicelab --eval -n 1000000; }
export -f dicelab_1m 2>/dev/null

echo "1,000,000 rolls as a whole process (seconds, best of 3)"
printf '%-10s %8s %8s %8s %8s %10s %10s\n' expr go-ref rulesh rolldice dicelab justinian rpg-dice
for e in 4d6kh3 3d6 '10d10!'; do
  case $e in
    4d6kh3) rd=4d6s1; dl='sum(high 3 4#d6)' ;;
    3d6) rd=3d6; dl='sum(3#d6)' ;;
    *) rd=""; dl="" ;;
  esac
  printf '%-10s %8s %8s %8s %8s %10s %10s\n' "$e" \
    "$(t "$out/ref-bin" "$e")" \
    "$(t "$out/rulesh" roll -n 1000000 --stats "$e")" \
    "$( [ -n "$rd" ] && command -v rolldice >/dev/null && t bash -c "rolldice_1m $rd" || echo n/a)" \
    "$( [ -n "$dl" ] && command -v dicelab >/dev/null && t bash -c "dicelab_1m '$dl'" || echo n/a)" \
    "$( [ -x "$out/justinian-bin" ] && t "$out/justinian-bin" "$e" || echo n/a)" \
    "$( [ -d "$out/npm/node_modules/@dice-roller" ] && t node "$out/npm/roll.mjs" "$e" || echo n/a)"
done

echo
echo "exact distributions (seconds, best of 3)"
printf '%-10s %8s %8s\n' expr rulesh dicelab
for e in 8d6kh3 20d6 10d10kh3 '8d10>=7'; do
  case $e in
    8d6kh3) dl='sum(high 3 8#d6)' ;;
    20d6) dl='sum(20#d6)' ;;
    10d10kh3) dl='sum(high 3 10#d10)' ;;
    *) dl='count(>= 7 8#d10)' ;;
  esac
  printf '%-10s %8s %8s\n' "$e" "$(t "$out/rulesh" prob "$e")" \
    "$(command -v dicelab >/dev/null && t sh -c "echo '$dl' | dicelab --calc" || echo n/a)"
done
