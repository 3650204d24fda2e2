package dsl

import (
	"errors"
	"strings"
	"testing"

	"rulesh/stdlib/dice"
)

// countingDice counts the values drawn, for RuleCache.Drawn.
type countingDice struct {
	src dice.Source
	n   int
}

func (c *countingDice) Roll(sides int) (int, error) { c.n++; return c.src.Roll(sides) }

func TestRuleCache(t *testing.T) {
	src := `
kind P { pv: int = 10 }
entity p: P {}
rule double(x: int): int { return 2 * x }
rule vie(q: P): int { return q.pv }
rule jet(): int { return d(6) }
rule dit(x: int): int {
  emit "dit {x}"
  return x
}
action blesse(): int {
  p.pv -= 1
  return vie(p)
}
`
	prog, diags := LoadSource("cache.rules", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	dc := &countingDice{src: dice.NewPCG(1)}
	m, err := NewMachine(prog, dc, nil)
	if err != nil {
		t.Fatal(err)
	}
	m.SetRuleCache(&RuleCache{Drawn: func() int { return dc.n }})
	s := NewSession(m)
	run := func(expr string) any {
		t.Helper()
		c, err := s.Compile("<t>", expr)
		if err != nil {
			t.Fatal(err)
		}
		var got any
		if err := s.Trial(c, func(v any, err error) error { got = v; return err }); err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return got
	}
	for range 3 {
		if v := run("double(4) + vie(p)"); v != 18 {
			t.Fatalf("double(4) + vie(p) = %v", v)
		}
	}
	if m.m.Rules.Hits != 4 || m.m.Rules.Misses != 2 {
		t.Errorf("hits %d misses %d, want 4 and 2", m.m.Rules.Hits, m.m.Rules.Misses)
	}
	// A rule called after the run changed the state reads the changed state: not cached.
	for range 2 {
		if v := run("blesse()"); v != 9 {
			t.Fatalf("blesse() = %v, want 9 (each trial from pv 10)", v)
		}
	}
	// A rule that rolls, or emits, is run every time.
	before := m.m.Rules.Hits
	lines := 0
	m.SetEmit(func(string) { lines++ })
	for range 3 {
		run("jet() + dit(1)")
	}
	if m.m.Rules.Hits != before || lines != 3 {
		t.Errorf("a rolling or emitting rule was cached: hits %d → %d, %d lines", before, m.m.Rules.Hits, lines)
	}
}

// TestRuleCacheHooks: Spread is asked before a rule call runs, its run may run the call
// several times (steps restored, clean told), and its answer stands for the call; Turn is
// called at each turn of a loop with the frame's depth and variables, and an error it
// returns stops the run with that error.
func TestRuleCacheHooks(t *testing.T) {
	src := `
rule somme(n: int): int {
  let t = 0
  for i in n {
    t += i
  }
  return t
}
rule bavard(): int {
  emit "oui"
  return 1
}
rule tant(): int {
  let n = 0
  while n < 3 {
    n += 1
  }
  return n
}
`
	prog, diags := LoadSource("hooks.rules", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	dc := &countingDice{src: dice.NewPCG(1)}
	m, err := NewMachine(prog, dc, nil)
	if err != nil {
		t.Fatal(err)
	}
	m.SetEmit(func(string) {})
	type turn struct {
		depth, turn int
		t           any
	}
	var turns []turn
	var stop error
	var clean []bool
	c := &RuleCache{Drawn: func() int { return dc.n }}
	c.Spread = func(key any, depth int, run func() (any, error, bool)) (any, error, bool) {
		var v any
		for range 2 {
			var ok bool
			v, _, ok = run()
			clean = append(clean, ok)
		}
		if v == 6 {
			return 100, nil, true // the hook's answer stands for the call
		}
		return nil, nil, false
	}
	c.Turn = func(depth int, vars map[string]any, loop, coll any, n int) error {
		turns = append(turns, turn{depth, n, vars["t"]})
		return stop
	}
	m.SetRuleCache(c)
	s := NewSession(m)
	if v, err := s.Eval("<t>", "somme(3)"); err != nil || v != 100 {
		t.Fatalf("somme(3) = %v, %v; want the hook's 100", v, err)
	}
	// Run twice by Spread: turns 0, 1, 2 each time, at the rule's depth, t as it stands.
	want := []turn{{1, 0, 0}, {1, 1, 1}, {1, 2, 3}, {1, 0, 0}, {1, 1, 1}, {1, 2, 3}}
	if len(turns) != len(want) {
		t.Fatalf("turns %v, want %v", turns, want)
	}
	for i := range want {
		if turns[i] != want[i] {
			t.Errorf("turn %d: %v, want %v", i, turns[i], want[i])
		}
	}
	if v, err := s.Eval("<t>", "bavard()"); err != nil || v != 1 {
		t.Fatalf("bavard() = %v, %v", v, err)
	}
	if len(clean) != 4 || !clean[0] || !clean[1] || clean[2] || clean[3] {
		t.Errorf("clean %v: somme's runs clean, bavard's (it emits) not", clean)
	}
	turns, stop = nil, errors.New("stopped here")
	if _, err := s.Eval("<t>", "tant()"); err == nil || !strings.Contains(err.Error(), "stopped here") {
		t.Errorf("tant() with Turn failing: %v, want its error", err)
	}
	// Twice run by Spread, then once as the call itself: each run stops at its first turn.
	if len(turns) != 3 || turns[0].turn != 0 || turns[1].turn != 0 || turns[2].turn != 0 {
		t.Errorf("while turns %v, want the first turn of each of 3 runs", turns)
	}
}
