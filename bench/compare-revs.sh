#!/usr/bin/env bash
# Compare the language benchmarks (package ./dsl) of two revisions in one run.
#
# Usage: bash bench/compare-revs.sh [-bench REGEX] [-count N] OLD [NEW]
#
# OLD and NEW are git revisions (HEAD~3, main, a commit); NEW defaults to the working tree,
# uncommitted changes included. Each revision other than the working tree is checked out as a
# detached git worktree in a temporary folder; both test binaries are built once
# (`go test -c ./dsl`), then run alternately, old, new, old, new…, N times each with
#   -test.run '^$' -test.bench REGEX -test.benchmem -test.count 1
# (the same as `go test ./dsl -run '^$' -bench REGEX -benchmem -count N`, split into rounds so
# that a change in machine load hits both revisions alike), and benchstat prints the
# comparison, OLD as the baseline. benchstat is installed, at a pinned version, into the
# temporary folder. The worktrees and the folder are removed when the script exits, however it
# exits; the repository is left as it was.
#
# Options (also written -bench=REGEX, -count=N, or with two dashes):
#   -bench REGEX   benchmarks to run (default: load, check, run and lookups, see below)
#   -count N       rounds, i.e. samples per benchmark and revision (default 6; benchstat
#                  gives confidence intervals from 6 samples on)
# Exit codes: 0 done, 1 a revision failed to build or a benchmark failed, 2 bad usage.
set -euo pipefail

benchstat_version=v0.0.0-20260908200009-22c9c6c9d4da # golang.org/x/perf
bench='^Benchmark(Load2000Lines|SmallProcCall|SmallProcGo|GlobalReads|Check100k|Load100k|TableLookup|GoLookup)'
count=6
export PATH="$PATH:/usr/local/go/bin"

usage() {
  sed -n '4p' "$0" | sed 's/^# //' >&2
  echo "Run with -h for the options." >&2
  exit 2
}

help() {
  sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
  echo "Default -bench: $bench"
  exit 0
}

revs=()
while (($#)); do
  case $1 in
    -h | -help | --help) help ;;
    -bench | --bench | -count | --count)
      (($# >= 2)) || { echo "compare-revs: $1 needs a value" >&2; usage; }
      opt=${1#-}; opt=${opt#-}
      if [[ $opt == bench ]]; then bench=$2; else count=$2; fi
      shift 2 ;;
    -bench=* | --bench=*) bench=${1#*=}; shift ;;
    -count=* | --count=*) count=${1#*=}; shift ;;
    --) shift; revs+=("$@"); break ;;
    -*) echo "compare-revs: unknown option $1" >&2; usage ;;
    *) revs+=("$1"); shift ;;
  esac
done
((${#revs[@]} >= 1 && ${#revs[@]} <= 2)) || usage
[[ $count =~ ^[1-9][0-9]*$ ]] || { echo "compare-revs: -count wants a positive integer, got '$count'" >&2; exit 2; }
[[ -n $bench ]] || { echo "compare-revs: -bench wants a regular expression" >&2; exit 2; }

repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
cd "$repo"

resolve() { # resolve REV: prints the commit, or fails with a message (exit 2)
  git rev-parse --quiet --verify "$1^{commit}" 2>/dev/null ||
    { echo "compare-revs: '$1' is not a revision of this repository" >&2; exit 2; }
}
old_commit=$(resolve "${revs[0]}")
old_label="old-$(git rev-parse --short "$old_commit")"
if ((${#revs[@]} == 2)); then
  new_commit=$(resolve "${revs[1]}")
  new_label="new-$(git rev-parse --short "$new_commit")"
else
  new_commit=""
  new_label="new-$(git rev-parse --short HEAD)"
  [[ -z $(git status --porcelain) ]] || new_label+="+changes"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/compare-revs.XXXXXX")
worktrees=()
cleanup() {
  local wt
  for wt in "${worktrees[@]}"; do
    git -C "$repo" worktree remove --force "$wt" >/dev/null 2>&1 ||
      echo "compare-revs: could not remove the worktree $wt; 'git worktree prune' after deleting it" >&2
  done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# checkout COMMIT DIR: a detached worktree of COMMIT in DIR (no branch is created).
checkout() {
  worktrees+=("$2")
  git worktree add --quiet --detach "$2" "$1" >/dev/null
}

# build LABEL SRC: the test binary of SRC/dsl, as $tmp/LABEL.test.
build() {
  echo "compare-revs: building $1" >&2
  if ! (cd "$2" && go test -c -o "$tmp/$1.test" ./dsl) >"$tmp/$1.build" 2>&1; then
    echo "compare-revs: $1 does not build:" >&2
    cat "$tmp/$1.build" >&2
    exit 1
  fi
}

checkout "$old_commit" "$tmp/old"
build "$old_label" "$tmp/old"
old_src=$tmp/old
if [[ -n $new_commit ]]; then
  checkout "$new_commit" "$tmp/new"
  new_src=$tmp/new
else
  new_src=$repo
fi
build "$new_label" "$new_src"

echo "compare-revs: installing benchstat (golang.org/x/perf $benchstat_version)" >&2
mkdir -p "$tmp/bin"
if ! GOBIN="$tmp/bin" GOFLAGS='' go install "golang.org/x/perf/cmd/benchstat@$benchstat_version" >"$tmp/benchstat.build" 2>&1; then
  cat "$tmp/benchstat.build" >&2
  exit 1
fi

# run LABEL SRC: one round of LABEL's benchmarks, appended to $tmp/results/LABEL. The binary
# runs in the package folder, as go test runs it.
mkdir -p "$tmp/results"
run() {
  local out="$tmp/results/$1" round="$tmp/round.txt"
  if ! (cd "$2/dsl" && "$tmp/$1.test" -test.run '^$' -test.bench "$bench" -test.benchmem -test.count 1) >"$round" 2>&1; then
    echo "compare-revs: a benchmark of $1 failed:" >&2
    cat "$round" >&2
    exit 1
  fi
  cat "$round" >>"$out"
}

for ((i = 1; i <= count; i++)); do
  echo "compare-revs: round $i/$count" >&2
  run "$old_label" "$old_src"
  run "$new_label" "$new_src"
done

if ! grep -q '^Benchmark' "$tmp/results/$old_label"; then
  echo "compare-revs: no benchmark matches -bench '$bench'" >&2
  exit 1
fi
cd "$tmp/results"
"$tmp/bin/benchstat" "$old_label" "$new_label"
