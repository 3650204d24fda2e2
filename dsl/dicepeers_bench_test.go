package dsl

// Reference benchmarks for a dice literal used as a number: a rule returning `3d6 + 2 >= 12`,
// called 1,000,000 times from a loop in the language inside one top-level call, in rulesh,
// go.starlark.net and gopher-lua (`d(6) + d(6) + d(6) + 2 >= 12`, `d` a Go builtin drawing from
// the same seeded source). One op is the 1,000,000 calls. TestDicePeersAgree checks that all
// three draw the same dice and count the same successes.

import (
	"testing"

	lua "github.com/yuin/gopher-lua"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

const dicePeerRules = `
rule check(): bool {
  return 3d6 + 2 >= 12
}
rule many(n: int): int {
  let hits = 0
  for i in 1..n {
    if check() {
      hits += 1
    }
  }
  return hits
}
`

const dicePeerStarlark = `
def check():
    return d(6) + d(6) + d(6) + 2 >= 12

def many(n):
    hits = 0
    for i in range(n):
        if check():
            hits += 1
    return hits
`

const dicePeerLua = `
function check()
  return d(6) + d(6) + d(6) + 2 >= 12
end

function many(n)
  local hits = 0
  for i = 1, n do
    if check() then
      hits = hits + 1
    end
  end
  return hits
end
`

// dicePeerRulesh returns a function running many(n) in one top-level call.
func dicePeerRulesh(tb testing.TB, calls int) func(n int) int {
	tb.Helper()
	prog, m := loopMachine(tb, "dice.rules", dicePeerRules, calls)
	many := prog.p.Proc("many")
	return func(n int) int {
		v, err := m.m.CallProc(many, n)
		if err != nil {
			tb.Fatal(err)
		}
		return runtime.ToInt(v)
	}
}

func dicePeerStar(tb testing.TB) func(n int) int {
	tb.Helper()
	src := dice.NewPCG(1)
	d := starlark.NewBuiltin("d", func(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var sides int
		if err := starlark.UnpackPositionalArgs(fn.Name(), args, kwargs, 1, &sides); err != nil {
			return nil, err
		}
		v, err := src.Roll(sides)
		return starlark.MakeInt(v), err
	})
	thread := &starlark.Thread{Name: "dice"}
	globals, err := starlark.ExecFileOptions(&syntax.FileOptions{}, thread, "dice.star", dicePeerStarlark, starlark.StringDict{"d": d})
	if err != nil {
		tb.Fatal(err)
	}
	return func(n int) int {
		v, err := starlark.Call(thread, globals["many"], starlark.Tuple{starlark.MakeInt(n)}, nil)
		if err != nil {
			tb.Fatal(err)
		}
		hits, _ := starlark.AsInt32(v)
		return hits
	}
}

func dicePeerLuaState(tb testing.TB) func(n int) int {
	tb.Helper()
	L := newLuaDice(tb)
	if err := L.DoString(dicePeerLua); err != nil {
		tb.Fatal(err)
	}
	many := L.GetGlobal("many")
	return func(n int) int {
		return int(lua.LVAsNumber(luaCall(tb, L, many, lua.LNumber(n))))
	}
}

func BenchmarkPeersDiceRuleshLoop1M(b *testing.B) {
	loop := dicePeerRulesh(b, peerCalls)
	b.ReportAllocs()
	for b.Loop() {
		loop(peerCalls)
	}
	reportPerCall(b)
}

func BenchmarkPeersDiceStarlarkLoop1M(b *testing.B) {
	loop := dicePeerStar(b)
	b.ReportAllocs()
	for b.Loop() {
		loop(peerCalls)
	}
	reportPerCall(b)
}

func BenchmarkPeersDiceLuaLoop1M(b *testing.B) {
	loop := dicePeerLuaState(b)
	b.ReportAllocs()
	for b.Loop() {
		loop(peerCalls)
	}
	reportPerCall(b)
}

// TestDicePeersAgree: the three implementations draw the same dice in the same order, so
// they count the same successes; the benchmarks compare like with like.
func TestDicePeersAgree(t *testing.T) {
	const n = 3000
	want := dicePeerStar(t)(n)
	if got := dicePeerRulesh(t, n)(n); got != want {
		t.Errorf("rulesh counts %d successes of %d calls, Starlark %d", got, n, want)
	}
	if got := dicePeerLuaState(t)(n); got != want {
		t.Errorf("Lua counts %d successes of %d calls, Starlark %d", got, n, want)
	}
	if want == 0 || want == n {
		t.Errorf("%d successes of %d calls: the check does not discriminate", want, n)
	}
}
