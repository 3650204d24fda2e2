package dsl

import (
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
