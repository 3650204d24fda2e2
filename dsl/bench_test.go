package dsl

import (
	"fmt"
	"strings"
	"testing"

	"rulesh/stdlib/dice"
)

// genRules builds a rule file of about n lines: kinds, options, and procedures with
// conditions, loops and calls, the mix a large ruleset has.
func genRules(n int) []byte {
	var b strings.Builder
	b.WriteString("ruleset \"bench\"\noption malus = 3 \"m\"\nkind Unit {\n  force: int = 3\n  pv: int = 10\n  nom: string\n}\nentity u: Unit { nom: \"u\" }\n")
	for i := 0; b.Len() == 0 || strings.Count(b.String(), "\n") < n; i++ {
		fmt.Fprintf(&b, `rule r%d(a: Unit, x: int = 2): int {
  let t = a.force + x * %d
  if t > malus {
    t -= malus
  } else {
    t += 1
  }
  for i in 1..3 {
    t += i
  }
  emit "r%d gives {t}"
  return t
}
`, i, i%7, i)
	}
	return []byte(b.String())
}

func BenchmarkLoad2000Lines(b *testing.B) {
	src := genRules(2000)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, d := LoadSource("gen.rules", src); d.HasErrors() {
			b.Fatal(d)
		}
	}
}

const smallProc = `
kind Unit {
  force: int = 3
  pv: int = 10
}
entity u: Unit { }
action small(a: Unit, x: int): int {
  let t = a.force + x
  if t > 5 {
    t = t - 2
  }
  a.pv = t
  return t
}
`

func BenchmarkSmallProcCall(b *testing.B) {
	prog, d := LoadSource("b.rules", []byte(smallProc))
	if d.HasErrors() {
		b.Fatal(d)
	}
	m, err := NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		b.Fatal(err)
	}
	p := prog.p.Proc("small")
	u, _ := m.Global("u")
	for b.Loop() {
		if _, err := m.m.CallProc(p, u, 4); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSmallProcGo is the hand-written Go reference for BenchmarkSmallProcCall.
func BenchmarkSmallProcGo(b *testing.B) {
	type unit struct{ force, pv int }
	u := &unit{3, 10}
	small := func(a *unit, x int) int {
		t := a.force + x
		if t > 5 {
			t = t - 2
		}
		a.pv = t
		return t
	}
	s := 0
	for b.Loop() {
		s += small(u, 4)
	}
	_ = s
}

const globalsProc = `
option malus = 3 "m"
const BASE = 10
kind Unit {
  force: int = 3
  pv: int = 10
}
entity u: Unit { }
rule lit(x: int): int {
  let t = u.force + x + BASE
  if t > malus {
    t = t - malus
  }
  return t
}
`

// BenchmarkGlobalReads is BenchmarkSmallProcCall reading an option, a const and an entity:
// what reading globals through the machine's globals map costs.
func BenchmarkGlobalReads(b *testing.B) {
	prog, d := LoadSource("b.rules", []byte(globalsProc))
	if d.HasErrors() {
		b.Fatal(d)
	}
	m, err := NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		b.Fatal(err)
	}
	p := prog.p.Proc("lit")
	for b.Loop() {
		if _, err := m.m.CallProc(p, 4); err != nil {
			b.Fatal(err)
		}
	}
}

const countLoop = `
action turns(n: int): int {
  let s = 0
  for i in n {
    for j in 1000 {
      s += (i - 1) * 1000 + j
    }
  }
  return s
}
`

// BenchmarkCountLoop1M is 1,000,000 turns of two nested count loops (`for i in n`) doing
// arithmetic on their counters, in one top-level call: what a counter's static type buys.
func BenchmarkCountLoop1M(b *testing.B) {
	prog, d := LoadSource("b.rules", []byte(countLoop))
	if d.HasErrors() {
		b.Fatal(d)
	}
	m, err := NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		b.Fatal(err)
	}
	l := m.Limits()
	l.MaxSteps = 100_000_000
	l.MemoryBudget = 100_000_000
	m.SetLimits(l)
	for b.Loop() {
		v, err := m.Call("turns", 1000)
		if err != nil {
			b.Fatal(err)
		}
		if v != 500000500000 {
			b.Fatalf("turns(1000) = %v, want 500000500000", v)
		}
	}
}

const callTree = `
kind Unit { force: int = 3 }
entity u: Unit { }
rule bonus(a: Unit, n: int): int {
  return a.force + n % 3
}
rule tree(a: Unit, n: int): int {
  if n < 2 {
    return bonus(a, n)
  }
  return tree(a, n - 1) + tree(a, n - 2)
}
`

// callTreeCalls is how many rule calls tree(u, 20) makes: fib(21) calls of tree, and one of
// bonus for each of its fib(21) leaves.
const callTreeCalls = 2*10946 - 1 + 10946

// BenchmarkRuleCalls is a rule calling rules, and little else: a tree of recursive calls
// passing a record and an int, whose leaves call a second rule. ns/call is the cost of one
// call with its two arguments, its frame, the checks of its parameters and result;
// cpu-ns/call the same in the process's CPU time, steadier on a loaded machine.
func BenchmarkRuleCalls(b *testing.B) {
	prog, d := LoadSource("b.rules", []byte(callTree))
	if d.HasErrors() {
		b.Fatal(d)
	}
	m, err := NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		b.Fatal(err)
	}
	p := prog.p.Proc("tree")
	u, _ := m.Global("u")
	b.ReportAllocs()
	cpu0 := processCPU()
	for b.Loop() {
		v, err := m.m.CallProc(p, u, 20)
		if err != nil {
			b.Fatal(err)
		}
		if v != 39603 {
			b.Fatalf("tree(u, 20) = %v, want 39603", v)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/callTreeCalls, "ns/call")
	b.ReportMetric((processCPU()-cpu0)*1e9/float64(b.N)/callTreeCalls, "cpu-ns/call")
}
