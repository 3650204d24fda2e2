package dsl

import (
	"fmt"
	"runtime"
	"testing"
)

// Short lists a game keeps keep only themselves alive. Lists carved from shared blocks held
// their whole block and what its dead lists held: this game, keeping fifteen thousand
// one-element lists, lived in 31 MB instead of 2.
func TestKeptShortListsHoldOnlyThemselves(t *testing.T) {
	const rules = `
kind Tas { hist: list = [] }
entity t: Tas {}
action jouer(n: int) {
  for i in 1..n {
    let a = map([1, 2, 3, 4, 5, 6, 7, 8], # * i)
    let b = filter(a, # > 2)
    let c = map(b, [#, i])
    let d = sortBy(a, -#)
    t.hist = t.hist + [[i]]
  }
}
`
	s := sessionOf(t, rules)
	live := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := live()
	if _, err := s.Eval("<input>", "jouer(15000)"); err != nil {
		t.Fatal(err)
	}
	// What is kept: a list of 15,000 elements and 15,000 lists of one, about 1 MB.
	if grown := int64(live()) - int64(before); grown > 8<<20 {
		t.Errorf("the game keeps %d MiB alive after it, for about 1 MiB of lists", grown>>20)
	}
	runtime.KeepAlive(s)
}

// An input compiled and kept (a simulation's expression, a REPL line held by a caller)
// keeps about what it did before its nodes came from slabs: a compile of one short line
// that started full chunks of 32 for each kind of node kept 51 KB instead of 31.
func TestKeptInputsHoldLittle(t *testing.T) {
	s := sessionOf(t, "rule f(x: int): int {\n  return x + 1\n}\n")
	live := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	const n = 1000
	kept := make([]*Compiled, 0, n)
	before := live()
	for i := range n {
		c, err := s.Compile("<input>", fmt.Sprintf("f(%d) + len([1, 2]) + max(%d, 3)", i, i))
		if err != nil {
			t.Fatal(err)
		}
		kept = append(kept, c)
	}
	if each := (int64(live()) - int64(before)) / n; each > 40<<10 {
		t.Errorf("a compiled input keeps %d KB alive", each>>10)
	}
	runtime.KeepAlive(kept)
}
