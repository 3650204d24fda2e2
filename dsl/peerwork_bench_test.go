package dsl

// Peer workloads: the same work written in rulesh, go.starlark.net and gopher-lua, beside the
// one small rule of peers_bench_test.go. Each workload is a function work(n) in each
// language, returning a whole number that a Go reference computes too (TestPeerWorkAgree),
// so the three are known to do the same work before they are timed.
//
// BenchmarkPeerWork/WORKLOAD/LANG: one op is one top-level call of work(n); besides ns/op
// (wall clock) it reports cpu-ms/op, the CPU time of the process (the collector's work
// included) per op, the figure a shared machine distorts least. bench/peers.sh runs them in
// turn and prints the ratios rulesh/Starlark and rulesh/Lua.

import (
	"fmt"
	"strings"
	"syscall"
	"testing"

	lua "github.com/yuin/gopher-lua"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

// peerWork is one workload in the three languages.
type peerWork struct {
	name string
	// n is the argument of work(n) the benchmark passes.
	n int
	// rulesh, star and lua define work(n) (and whatever it calls).
	rulesh, star, lua string
	// want is the Go reference: what work(n) returns.
	want func(n int) int64
	// dice: the languages draw from a seeded d (dice.NewPCG(1)); want then draws too.
	dice bool
}

// bandBounds are the upper ends of the table workload's bands (the last band is else).
var bandBounds = []int{10, 20, 30, 40, 50, 60, 70, 80, 90}

func bandRows() string {
	var b strings.Builder
	lo := ""
	for i, hi := range bandBounds {
		if lo == "" {
			fmt.Fprintf(&b, "  (.. %d] : %d\n", hi, i+1)
		} else {
			fmt.Fprintf(&b, "  (%s .. %d] : %d\n", lo, hi, i+1)
		}
		lo = fmt.Sprint(hi)
	}
	fmt.Fprintf(&b, "  else : %d\n", len(bandBounds)+1)
	return b.String()
}

var peerWorks = []peerWork{
	{
		name: "arith", n: 1_000_000,
		rulesh: `
rule arith(a: int, b: int): int {
  return a * 3 + b - 1
}
rule work(n: int): int {
  let s = 0
  for i in n {
    s += arith(i, 7)
  }
  return s
}`,
		star: `
def arith(a, b):
    return a * 3 + b - 1

def work(n):
    s = 0
    for i in range(1, n + 1):
        s += arith(i, 7)
    return s
`,
		lua: `
function arith(a, b)
  return a * 3 + b - 1
end
function work(n)
  local s = 0
  for i = 1, n do
    s = s + arith(i, 7)
  end
  return s
end`,
		want: func(n int) int64 {
			var s int64
			for i := 1; i <= n; i++ {
				s += int64(i)*3 + 6
			}
			return s
		},
	},
	{
		name: "loop", n: 1000,
		rulesh: `
rule work(n: int): int {
  let s = 0
  for i in n {
    for j in n {
      s += (i - 1) * 1000 + j
    }
  }
  return s
}`,
		star: `
def work(n):
    s = 0
    for i in range(1, n + 1):
        for j in range(1, n + 1):
            s += (i - 1) * 1000 + j
    return s
`,
		lua: `
function work(n)
  local s = 0
  for i = 1, n do
    for j = 1, n do
      s = s + (i - 1) * 1000 + j
    end
  end
  return s
end`,
		want: func(n int) int64 {
			var s int64
			for i := 1; i <= n; i++ {
				for j := 1; j <= n; j++ {
					s += int64(i-1)*1000 + int64(j)
				}
			}
			return s
		},
	},
	{
		// A table of 10 bands: rulesh's own tables; in Starlark and Lua the list of upper
		// ends walked by index until one holds the key, as one writes such a table there.
		name: "table", n: 1_000_000,
		rulesh: `
table band(x) {
` + bandRows() + `}
rule work(n: int): int {
  let s = 0
  for i in n {
    s += band(i % 100)
  }
  return s
}`,
		star: `
bounds = [10, 20, 30, 40, 50, 60, 70, 80, 90]

def band(x):
    for k in range(len(bounds)):
        if x <= bounds[k]:
            return k + 1
    return 10

def work(n):
    s = 0
    for i in range(1, n + 1):
        s += band(i % 100)
    return s
`,
		lua: `
bounds = {10, 20, 30, 40, 50, 60, 70, 80, 90}
function band(x)
  for k = 1, #bounds do
    if x <= bounds[k] then
      return k
    end
  end
  return 10
end
function work(n)
  local s = 0
  for i = 1, n do
    s = s + band(i % 100)
  end
  return s
end`,
		want: func(n int) int64 {
			var s int64
			for i := 1; i <= n; i++ {
				v := len(bandBounds) + 1
				for k, hi := range bandBounds {
					if i%100 <= hi {
						v = k + 1
						break
					}
				}
				s += int64(v)
			}
			return s
		},
	},
	{
		name: "fib", n: 25,
		rulesh: `
rule fib(n: int): int {
  if n < 2 {
    return n
  }
  return fib(n - 1) + fib(n - 2)
}
rule work(n: int): int {
  return fib(n)
}`,
		star: `
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)

def work(n):
    return fib(n)
`,
		lua: `
function fib(n)
  if n < 2 then
    return n
  end
  return fib(n - 1) + fib(n - 2)
end
function work(n)
  return fib(n)
end`,
		want: func(n int) int64 {
			a, b := int64(0), int64(1)
			for range n {
				a, b = b, a+b
			}
			return a
		},
	},
	{
		// 100,000 formatted strings, their lengths added up.
		name: "format", n: 100_000,
		rulesh: `
rule work(n: int): int {
  let total = 0
  for i in n {
    let s = "unit {i}: {i * 2} pts"
    total += len(s)
  }
  return total
}`,
		star: `
def work(n):
    total = 0
    for i in range(1, n + 1):
        s = "unit %d: %d pts" % (i, i * 2)
        total += len(s)
    return total
`,
		lua: `
function work(n)
  local total = 0
  for i = 1, n do
    local s = string.format("unit %d: %d pts", i, i * 2)
    total = total + #s
  end
  return total
end`,
		want: func(n int) int64 {
			var t int64
			for i := 1; i <= n; i++ {
				t += int64(len(fmt.Sprintf("unit %d: %d pts", i, i*2)))
			}
			return t
		},
	},
	{
		// n rounds of filter, map and sum over a list of 1,000: a million elements filtered.
		name: "lists", n: 1000,
		rulesh: `
rule work(n: int): int {
  let xs = 1..1000
  let s = 0
  for k in n {
    s += sum(map(filter(xs, # % 3 == 0), # * 2))
  }
  return s
}`,
		star: `
def work(n):
    xs = list(range(1, 1001))
    s = 0
    for k in range(n):
        t = 0
        for y in [x * 2 for x in xs if x % 3 == 0]:
            t += y
        s += t
    return s
`,
		lua: `
function work(n)
  local xs = {}
  for i = 1, 1000 do xs[i] = i end
  local s = 0
  for k = 1, n do
    local f = {}
    for _, x in ipairs(xs) do
      if x % 3 == 0 then f[#f + 1] = x end
    end
    local m = {}
    for i, x in ipairs(f) do m[i] = x * 2 end
    local t = 0
    for _, y in ipairs(m) do t = t + y end
    s = s + t
  end
  return s
end`,
		want: func(n int) int64 {
			var t int64
			for x := 1; x <= 1000; x++ {
				if x%3 == 0 {
					t += int64(x) * 2
				}
			}
			return t * int64(n)
		},
	},
	{
		// n updates of a map of 10 string keys; the sum of its values.
		name: "mapupdate", n: 1_000_000,
		rulesh: `
rule work(n: int): int {
  let ks = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]
  let m: map[string]int = {}
  for i in n {
    m[ks[i % 10]] += i % 7
  }
  return sum(values(m))
}`,
		star: `
def work(n):
    ks = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]
    m = {}
    for i in range(1, n + 1):
        k = ks[i % 10]
        m[k] = m.get(k, 0) + i % 7
    s = 0
    for v in m.values():
        s += v
    return s
`,
		lua: `
function work(n)
  local ks = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}
  local m = {}
  for i = 1, n do
    local k = ks[i % 10 + 1]
    m[k] = (m[k] or 0) + i % 7
  end
  local s = 0
  for _, v in pairs(m) do s = s + v end
  return s
end`,
		want: func(n int) int64 {
			var s int64
			for i := 1; i <= n; i++ {
				s += int64(i % 7)
			}
			return s
		},
	},
	{
		// The rule of dicepeers_bench_test.go: 1M calls of 3d6 + 2 >= 12, successes counted.
		name: "dice", n: 1_000_000, dice: true,
		rulesh: `
rule check(): bool {
  return 3d6 + 2 >= 12
}
rule work(n: int): int {
  let hits = 0
  for i in n {
    if check() {
      hits += 1
    }
  }
  return hits
}`,
		star: `
def check():
    return d(6) + d(6) + d(6) + 2 >= 12

def work(n):
    hits = 0
    for i in range(n):
        if check():
            hits += 1
    return hits
`,
		lua: `
function check()
  return d(6) + d(6) + d(6) + 2 >= 12
end
function work(n)
  local hits = 0
  for i = 1, n do
    if check() then
      hits = hits + 1
    end
  end
  return hits
end`,
		want: func(n int) int64 {
			var src dice.Source = dice.NewPCG(1)
			var hits int64
			for range n {
				t := 2
				for range 3 {
					r, _ := src.Roll(6)
					t += r
				}
				if t >= 12 {
					hits++
				}
			}
			return hits
		},
	},
}

// peerLangs are the three implementations, in the order the benchmarks run.
var peerLangs = []struct {
	name string
	load func(tb testing.TB, w peerWork) func(n int) int64
}{
	{"rulesh", ruleshWork},
	{"starlark", starlarkWork},
	{"lua", luaWork},
}

// ruleshWork loads the workload and returns work(n), one top-level call, with limits raised
// to what the benchmark's n needs (steps, loop turns, memory).
func ruleshWork(tb testing.TB, w peerWork) func(n int) int64 {
	tb.Helper()
	prog, m := loopMachine(tb, w.name+".rules", w.rulesh, 1_000_000)
	l := m.Limits()
	l.MaxSteps = 1 << 40
	m.SetLimits(l)
	work := prog.p.Proc("work")
	return func(n int) int64 {
		v, err := m.m.CallProc(work, n)
		if err != nil {
			tb.Fatal(err)
		}
		return int64(runtime.ToInt(v))
	}
}

func starlarkWork(tb testing.TB, w peerWork) func(n int) int64 {
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
	thread := &starlark.Thread{Name: w.name}
	// Recursion is off in Starlark by default; fib needs it.
	opts := &syntax.FileOptions{Recursion: true, GlobalReassign: true}
	globals, err := starlark.ExecFileOptions(opts, thread, w.name+".star", w.star, starlark.StringDict{"d": d})
	if err != nil {
		tb.Fatal(err)
	}
	return func(n int) int64 {
		v, err := starlark.Call(thread, globals["work"], starlark.Tuple{starlark.MakeInt(n)}, nil)
		if err != nil {
			tb.Fatal(err)
		}
		i, ok := v.(starlark.Int).Int64()
		if !ok {
			tb.Fatalf("%s: work(%d) = %v", w.name, n, v)
		}
		return i
	}
}

func luaWork(tb testing.TB, w peerWork) func(n int) int64 {
	tb.Helper()
	L := newLuaDice(tb)
	if err := L.DoString(w.lua); err != nil {
		tb.Fatal(err)
	}
	work := L.GetGlobal("work")
	return func(n int) int64 {
		return int64(lua.LVAsNumber(luaCall(tb, L, work, lua.LNumber(n))))
	}
}

// BenchmarkPeerWork runs every workload in every language: BenchmarkPeerWork/fib/lua.
func BenchmarkPeerWork(b *testing.B) {
	for _, w := range peerWorks {
		b.Run(w.name, func(b *testing.B) {
			for _, lang := range peerLangs {
				b.Run(lang.name, func(b *testing.B) {
					work := lang.load(b, w)
					b.ReportAllocs()
					cpu0 := processCPU()
					for b.Loop() {
						work(w.n)
					}
					b.ReportMetric((processCPU()-cpu0)*1e3/float64(b.N), "cpu-ms/op")
				})
			}
		})
	}
}

// processCPU is the CPU time (user and system) the process has used, in seconds.
func processCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// TestPeerWorkAgree: each workload returns, in each language, what Go computes (with a
// smaller n, the same code): the benchmarks time the same work.
func TestPeerWorkAgree(t *testing.T) {
	for _, w := range peerWorks {
		n := w.n
		if n > 20_000 {
			n = 20_000
		}
		want := w.want(n)
		for _, lang := range peerLangs {
			if got := lang.load(t, w)(n); got != want {
				t.Errorf("%s in %s: work(%d) = %d, Go gives %d", w.name, lang.name, n, got, want)
			}
		}
	}
}

// The Go references must not be trivially equal to what a broken workload returns.
func TestPeerWorkReferences(t *testing.T) {
	for _, w := range peerWorks {
		if v := w.want(100); v <= 0 {
			t.Errorf("%s: the reference gives %d for n = 100", w.name, v)
		}
	}
	if fib := peerWorks[3].want(25); fib != 75025 {
		t.Errorf("fib(25) = %d, want 75025", fib)
	}
}
