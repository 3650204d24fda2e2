package dsl

// Reference benchmarks for rule calls (issue 15, "Calls"): one small rule, "adds a d6 to a
// field, compares", run in rulesh, in go.starlark.net, in gopher-lua and in plain Go, each
// drawing its d6 from the same seeded source (stdlib/dice.NewPCG(1), through the
// dice.Source interface), so that all four draw the same dice in the same order and count
// the same hits (TestPeersAgree).
//
// Two shapes per implementation:
//   - Loop1M: one op is 1,000,000 calls of the rule from a loop written in the language,
//     inside one top-level call; ns/call is ns/op / 1e6, B/op is what the whole loop
//     allocates, and (rulesh) live-MiB is the heap still held when the loop ends, before the
//     top-level call returns (the undo journal);
//   - Call: one op is one call of the rule from Go, a top-level call of its own.
//
// Their names start with BenchmarkPeers; bench/run.sh runs these and prints rulesh's ratios to each reference. Starlark and Lua
// are test-only dependencies: only this file imports them.

import (
	goruntime "runtime"
	"testing"

	lua "github.com/yuin/gopher-lua"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

// peerCalls is how many rule calls a Loop1M op makes.
const peerCalls = 1_000_000

// peerTarget is what the rule compares its total with.
const peerTarget = 7

const peerRules = `
kind Unit {
  force: int = 3
  last: int = 0
}
entity u: Unit { }
action hit(a: Unit, target: int): bool {
  let t = a.force + d(6)
  a.last = t
  return t >= target
}
action many(n: int): int {
  let hits = 0
  for i in 1..n {
    if hit(u, 7) {
      hits += 1
    }
  }
  return hits
}
`

const peerStarlark = `
def hit(a, target):
    t = a["force"] + d(6)
    a["last"] = t
    return t >= target

def many(n):
    hits = 0
    for i in range(n):
        if hit(u, 7):
            hits += 1
    return hits
`

const peerLua = `
function hit(a, target)
  local t = a.force + d(6)
  a.last = t
  return t >= target
end

function many(n)
  local hits = 0
  for i = 1, n do
    if hit(u, 7) then
      hits = hits + 1
    end
  end
  return hits
end
`

// rulesh -----------------------------------------------------------------------------------

type rulePeer struct {
	m         *Machine
	hit, many *runtime.Proc
	u         any
}

// loopMachine loads src and returns a machine on it whose limits let one top-level call run
// a loop of calls turns (a step budget and a loop limit to match).
func loopMachine(tb testing.TB, name, src string, calls int) (*Program, *Machine) {
	tb.Helper()
	prog, d := LoadSource(name, []byte(src))
	if d.HasErrors() {
		tb.Fatal(d)
	}
	m, err := NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		tb.Fatal(err)
	}
	l := m.Limits()
	l.MaxSteps = 100 * calls
	l.MaxLoopIterations = calls
	l.MemoryBudget = uint(100 * calls)
	m.SetLimits(l)
	return prog, m
}

func newRulePeer(tb testing.TB, calls int) *rulePeer {
	tb.Helper()
	prog, m := loopMachine(tb, "peers.rules", peerRules, calls)
	u, _ := m.Global("u")
	return &rulePeer{m: m, hit: prog.p.Proc("hit"), many: prog.p.Proc("many"), u: u}
}

func (r *rulePeer) loop(tb testing.TB, n int) int {
	v, err := r.m.m.CallProc(r.many, n)
	if err != nil {
		tb.Fatal(err)
	}
	return runtime.ToInt(v)
}

// liveAfterLoop runs the loop as one top-level call and returns the heap in use, after a
// collection, just before that call ends: what a long call holds until it returns.
func (r *rulePeer) liveAfterLoop(tb testing.TB, n int) float64 {
	var before, after goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&before)
	_, err := r.m.m.TopLevel(func() (any, error) {
		v, err := r.m.m.CallAt(r.many, []any{n}, r.many.Pos)
		goruntime.GC()
		goruntime.ReadMemStats(&after)
		return v, err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / (1 << 20)
}

func BenchmarkPeersRuleshLoop1M(b *testing.B) {
	r := newRulePeer(b, peerCalls)
	live := r.liveAfterLoop(b, peerCalls)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r.loop(b, peerCalls)
	}
	reportPerCall(b)
	b.ReportMetric(live, "live-MiB")
}

func BenchmarkPeersRuleshCall(b *testing.B) {
	r := newRulePeer(b, peerCalls)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.m.m.CallProc(r.hit, r.u, peerTarget); err != nil {
			b.Fatal(err)
		}
	}
}

// go.starlark.net --------------------------------------------------------------------------

type starlarkPeer struct {
	thread    *starlark.Thread
	hit, many starlark.Value
	u         *starlark.Dict
}

func newStarlarkPeer(tb testing.TB) *starlarkPeer {
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
	u := starlark.NewDict(2)
	_ = u.SetKey(starlark.String("force"), starlark.MakeInt(3))
	_ = u.SetKey(starlark.String("last"), starlark.MakeInt(0))
	thread := &starlark.Thread{Name: "peers"}
	globals, err := starlark.ExecFileOptions(&syntax.FileOptions{}, thread, "peers.star", peerStarlark, starlark.StringDict{"d": d, "u": u})
	if err != nil {
		tb.Fatal(err)
	}
	return &starlarkPeer{thread: thread, hit: globals["hit"], many: globals["many"], u: u}
}

func (s *starlarkPeer) loop(tb testing.TB, n int) int {
	v, err := starlark.Call(s.thread, s.many, starlark.Tuple{starlark.MakeInt(n)}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	hits, _ := starlark.AsInt32(v)
	return hits
}

func BenchmarkPeersStarlarkLoop1M(b *testing.B) {
	s := newStarlarkPeer(b)
	b.ReportAllocs()
	for b.Loop() {
		s.loop(b, peerCalls)
	}
	reportPerCall(b)
}

func BenchmarkPeersStarlarkCall(b *testing.B) {
	s := newStarlarkPeer(b)
	args := starlark.Tuple{s.u, starlark.MakeInt(peerTarget)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := starlark.Call(s.thread, s.hit, args, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// github.com/yuin/gopher-lua ---------------------------------------------------------------

type luaPeer struct {
	L         *lua.LState
	hit, many lua.LValue
	u         *lua.LTable
}

func newLuaPeer(tb testing.TB) *luaPeer {
	tb.Helper()
	L := newLuaDice(tb)
	u := L.NewTable()
	u.RawSetString("force", lua.LNumber(3))
	u.RawSetString("last", lua.LNumber(0))
	L.SetGlobal("u", u)
	if err := L.DoString(peerLua); err != nil {
		tb.Fatal(err)
	}
	return &luaPeer{L: L, hit: L.GetGlobal("hit"), many: L.GetGlobal("many"), u: u}
}

func (l *luaPeer) call(tb testing.TB, fn lua.LValue, args ...lua.LValue) lua.LValue {
	return luaCall(tb, l.L, fn, args...)
}

// newLuaDice is a Lua state whose global d(n) draws from the peers' seeded source, as the
// rulesh and Starlark peers draw theirs; it is closed when the test ends.
func newLuaDice(tb testing.TB) *lua.LState {
	tb.Helper()
	src := dice.NewPCG(1)
	L := lua.NewState()
	tb.Cleanup(L.Close)
	L.SetGlobal("d", L.NewFunction(func(L *lua.LState) int {
		v, err := src.Roll(L.CheckInt(1))
		if err != nil {
			L.RaiseError("%v", err)
		}
		L.Push(lua.LNumber(v))
		return 1
	}))
	return L
}

// luaCall calls fn with args in L and returns its one result.
func luaCall(tb testing.TB, L *lua.LState, fn lua.LValue, args ...lua.LValue) lua.LValue {
	if err := L.CallByParam(lua.P{Fn: fn, NRet: 1, Protect: true}, args...); err != nil {
		tb.Fatal(err)
	}
	v := L.Get(-1)
	L.Pop(1)
	return v
}

func (l *luaPeer) loop(tb testing.TB, n int) int {
	return int(lua.LVAsNumber(l.call(tb, l.many, lua.LNumber(n))))
}

func BenchmarkPeersLuaLoop1M(b *testing.B) {
	l := newLuaPeer(b)
	b.ReportAllocs()
	for b.Loop() {
		l.loop(b, peerCalls)
	}
	reportPerCall(b)
}

func BenchmarkPeersLuaCall(b *testing.B) {
	l := newLuaPeer(b)
	b.ReportAllocs()
	for b.Loop() {
		l.call(b, l.hit, l.u, lua.LNumber(peerTarget))
	}
}

// plain Go ---------------------------------------------------------------------------------

type goUnit struct{ force, last int }

// goHit is the rule in Go. It is not inlined, and it reaches the die through the
// dice.Source interface, as the interpreters do, so the compiler cannot fold the work away.
//
//go:noinline
func goHit(src dice.Source, a *goUnit, target int) bool {
	r, _ := src.Roll(6)
	t := a.force + r
	a.last = t
	return t >= target
}

// goHitFn is goHit through a function value: an indirect call, as from an interpreter.
var goHitFn = goHit

//go:noinline
func goMany(src dice.Source, a *goUnit, n int) int {
	hits := 0
	for range n {
		if goHitFn(src, a, peerTarget) {
			hits++
		}
	}
	return hits
}

func BenchmarkPeersGoLoop1M(b *testing.B) {
	var src dice.Source = dice.NewPCG(1)
	a := &goUnit{force: 3}
	b.ReportAllocs()
	hits := 0
	for b.Loop() {
		hits += goMany(src, a, peerCalls)
	}
	reportPerCall(b)
	_ = hits
}

func BenchmarkPeersGoCall(b *testing.B) {
	var src dice.Source = dice.NewPCG(1)
	a := &goUnit{force: 3}
	b.ReportAllocs()
	hits := 0
	for b.Loop() {
		if goHitFn(src, a, peerTarget) {
			hits++
		}
	}
	_ = hits
}

// reportPerCall adds ns/call to a Loop1M benchmark.
func reportPerCall(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/peerCalls, "ns/call")
}

// TestPeersAgree runs the four implementations of the rule on the same seeded dice: the
// benchmarks compare like with like only if they count the same hits.
func TestPeersAgree(t *testing.T) {
	const n = 2000
	var src dice.Source = dice.NewPCG(1)
	want := goMany(src, &goUnit{force: 3}, n)
	got := map[string]int{
		"rulesh":   newRulePeer(t, n).loop(t, n),
		"starlark": newStarlarkPeer(t).loop(t, n),
		"lua":      newLuaPeer(t).loop(t, n),
	}
	for name, hits := range got {
		if hits != want {
			t.Errorf("%s counts %d hits of %d calls, Go %d", name, hits, n, want)
		}
	}
	if want == 0 || want == n {
		t.Fatalf("the rule should hit sometimes: %d of %d", want, n)
	}
}
