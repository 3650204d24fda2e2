package dsl

import (
	"testing"

	"rulesh/stdlib/dice"
)

// callShapes are small workloads that isolate the layers between a statement and its
// closures, and around a rule call: each is work(n) run as one top-level call, n = 200. The
// differences between them give the cost of one statement (loop2 - loop1) and of one call
// of a one-line rule (call1 - loop1, the counter loop taking the same steps) or of a small action (action - loop1); count them with
// callgrind at two -benchtime values.
var callShapes = []struct{ name, src string }{
	{"loop1", `
action work(n: int): int {
  let s = 0
  for i in n {
    s = i
  }
  return s
}`},
	{"loop2", `
action work(n: int): int {
  let s = 0
  let t = 0
  for i in n {
    s = i
    t = i
  }
  return s + t
}`},
	{"call1", `
rule inc(x: int): int {
  return x + 1
}
action work(n: int): int {
  let s = 0
  for i in n {
    s = inc(i)
  }
  return s
}`},
	{"action", `
kind Unit { force: int = 3 }
entity u: Unit { }
action act(a: Unit, x: int): int {
  let t = a.force + x
  if t > 5 {
    t = t - 1
  }
  require t > 0 else "no"
  return t
}
action work(n: int): int {
  let s = 0
  for i in n {
    s = act(u, i)
  }
  return s
}`},
}

// BenchmarkCallShapes runs the callShapes, one op a work(200).
func BenchmarkCallShapes(b *testing.B) {
	for _, w := range callShapes {
		b.Run(w.name, func(b *testing.B) {
			prog, d := LoadSource("b.rules", []byte(w.src))
			if d.HasErrors() {
				b.Fatal(d)
			}
			m, err := NewMachine(prog, dice.NewPCG(1), nil)
			if err != nil {
				b.Fatal(err)
			}
			p := prog.p.Proc("work")
			b.ReportAllocs()
			for b.Loop() {
				if _, err := m.m.CallProc(p, 200); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
