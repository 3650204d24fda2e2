#!/usr/bin/env bash
# The peer workloads: the same work in rulesh, go.starlark.net and gopher-lua
# (dsl/peerwork_bench_test.go: BenchmarkPeerWork/WORKLOAD/LANG), and expr-lang alone on the
# dice expression (dsl/internal/exprx: BenchmarkPeerWorkExprDice), run in turn, one process
# per run, for ROUNDS rounds (the order of the languages rotated each round). Each figure is
# the CPU time of one op (user + system, the collector's included: cpu-ms/op); a ratio is
# taken within a round and the table prints the median and the range over the rounds.
# Usage: bash bench/peers.sh [-rounds N] [WORKLOAD...]
set -uo pipefail
cd "$(dirname "$0")/.."
rounds=3
works=()
while (($#)); do
  case $1 in
    -rounds | --rounds) rounds=${2:?}; shift 2 ;;
    -h | --help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) sed -n '8p' "$0" | sed 's/^# //' >&2; exit 2 ;;
    *) works+=("$1"); shift ;;
  esac
done
((${#works[@]})) || works=(arith loop table fib format lists mapupdate dice)
langs=(rulesh starlark lua)
out=bench/out/peers
mkdir -p "$out"
go test -c -o "$out/dsl.test" ./dsl || exit 1
go test -c -o "$out/exprx.test" ./dsl/internal/exprx || exit 1

echo "rulesh bench/peers.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null)$( [ -n "$(git status --porcelain 2>/dev/null)" ] && echo '+changes')"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(go version | cut -d' ' -f3); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

# cpu BINARY DIR BENCH: the cpu-ms/op of one benchmark run in its own process, or "".
cpu() {
  (cd "$2" && "$1" -test.run '^$' -test.bench "$3" -test.benchtime 1x -test.count 1) 2>&1 |
    awk '{ for (i = 3; i < NF; i++) if ($(i + 1) == "cpu-ms/op") { print $i; exit } }'
}

res=$out/results.txt
: >"$res"
for ((r = 1; r <= rounds; r++)); do
  for w in "${works[@]}"; do
    for ((k = 0; k < ${#langs[@]}; k++)); do
      lang=${langs[$(((k + r) % ${#langs[@]}))]}
      echo "$r $w $lang $(cpu "$PWD/$out/dsl.test" dsl "^BenchmarkPeerWork\$/^$w\$/^$lang\$")" >>"$res"
    done
    if [ "$w" = dice ]; then
      echo "$r $w expr $(cpu "$PWD/$out/exprx.test" dsl/internal/exprx '^BenchmarkPeerWorkExprDice$')" >>"$res"
    fi
  done
  echo "round $r of $rounds done" >&2
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| workload | rulesh | Starlark | gopher-lua | rulesh/Starlark | rulesh/Lua |"
echo "|---|---|---|---|---|---|"
# Medians of each language's CPU per op, and medians (min-max) of the ratios within a round.
awk -v order="${works[*]}" '
  function med(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  function ms(v) { return v >= 100 ? sprintf("%.0f ms", v) : sprintf("%.1f ms", v) }
  function stat(key,   n, i, a, lo, hi) {
    n = 0; lo = ""; hi = ""
    for (i = 1; i <= cnt[key]; i++) { a[++n] = val[key, i]; if (lo == "" || a[n] < lo) lo = a[n]; if (hi == "" || a[n] > hi) hi = a[n] }
    if (n == 0) return "n/a"
    return sprintf("%.2f (%.2f-%.2f)", med(a, n), lo, hi)
  }
  function figure(key,   n, i, a) {
    n = 0
    for (i = 1; i <= cnt[key]; i++) a[++n] = val[key, i]
    return n ? ms(med(a, n)) : "n/a"
  }
  $4 != "" { t[$1, $2, $3] = $4; rs[$1] = 1; val[$2 "/" $3, ++cnt[$2 "/" $3]] = $4 }
  END {
    for (r in rs) {
      split(order, ws, " ")
      for (k in ws) {
        w = ws[k]
        if ((r, w, "rulesh") in t) {
          if ((r, w, "starlark") in t) val[w "/rs", ++cnt[w "/rs"]] = t[r, w, "rulesh"] / t[r, w, "starlark"]
          if ((r, w, "lua") in t) val[w "/rl", ++cnt[w "/rl"]] = t[r, w, "rulesh"] / t[r, w, "lua"]
          if ((r, w, "expr") in t) val[w "/re", ++cnt[w "/re"]] = t[r, w, "rulesh"] / t[r, w, "expr"]
        }
      }
    }
    n = split(order, ws, " ")
    for (k = 1; k <= n; k++) {
      w = ws[k]
      printf "| %s | %s | %s | %s | %s | %s |\n", w, figure(w "/rulesh"), figure(w "/starlark"), figure(w "/lua"), stat(w "/rs"), stat(w "/rl")
      if (cnt[w "/expr"]) printf "| %s: expr-lang alone (Go loop, one VM) | %s | | | rulesh/expr-lang %s | |\n", w, figure(w "/expr"), stat(w "/re")
    }
  }' "$res"
