package runtime_test

import (
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/peek"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

// drawCounter counts the values drawn, for RuleCache.Drawn.
type drawCounter struct {
	src dice.Source
	n   int
}

func (c *drawCounter) Roll(sides int) (int, error) { c.n++; return c.src.Roll(sides) }

const cacheRules = `ruleset "cache"
kind P { pv: int = 10 }
entity p: P {}
rule id(x: any): any { return x }
rule quatre(a: int, b: int, c: int, d: int): int { return a + b + c + d }
rule cinq(a: int, b: int, c: int, d: int, e: int): int { return a + b + c + d + e }
rule vie(q: P): int { return q.pv }
rule liste(x: int): list { return [x] }
rule jet(): int { return d(6) }
rule dit(x: int): int {
  emit "dit {x}"
  return x
}
rule casse(x: int): int {
  require x > 0 else "x doit être positif"
  return x
}
table t(x) {
  1 : "un"
  else : "autre"
}
`

// TestRuleCacheKeys: which calls of a rule the cache answers the second time. Only rules
// whose arguments name their value exactly (numbers, strings, booleans, nil, the ruleset's
// entities; four at most) and whose run drew nothing, emitted nothing, failed not and
// returned a plain value are kept; a table is never cached.
func TestRuleCacheKeys(t *testing.T) {
	prog, diags := dsl.LoadSource("cache.rules", []byte(cacheRules))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, c := range []struct {
		expr   string
		cached bool
		err    string
	}{
		{expr: "id(3)", cached: true},
		{expr: "id(2.5)", cached: true},
		{expr: "id(true)", cached: true},
		{expr: "id(false)", cached: true},
		{expr: `id("é")`, cached: true},
		{expr: "id(nil)", cached: true},
		{expr: "id(p)"}, // an entity as argument names it, but a record returned could be changed
		{expr: "vie(p)", cached: true},
		{expr: "quatre(1, 2, 3, 4)", cached: true},
		{expr: "cinq(1, 2, 3, 4, 5)"},      // too many arguments for a key
		{expr: "id([1])"},                  // a list names no value exactly
		{expr: "vie(P())"},                 // a record that is not an entity
		{expr: "liste(1)"},                 // a list returned could be changed by the caller
		{expr: "jet()"},                    // it draws
		{expr: "dit(1)"},                   // it emits
		{expr: "casse(0)", err: "positif"}, // it fails
		{expr: "t(1)"},                     // a table
		{expr: "id(d(6))", cached: true},   // the argument is drawn before the call
	} {
		t.Run(c.expr, func(t *testing.T) {
			dc := &drawCounter{src: dice.NewIntQueue([]int{4, 4, 4, 4}, nil)}
			m, err := dsl.NewMachine(prog, dc, nil)
			if err != nil {
				t.Fatal(err)
			}
			rt := peek.Machine(m)
			rt.Emit = func(string) {}
			rt.Rules = &runtime.RuleCache{Drawn: func() int { return dc.n }}
			s := dsl.NewSession(m)
			x, err := s.Compile("<t>", c.expr)
			if err != nil {
				t.Fatal(err)
			}
			var first, second any
			for i, out := range []*any{&first, &second} {
				err := s.Trial(x, func(v any, err error) error { *out = v; return err })
				if c.err != "" {
					if err == nil || !strings.Contains(err.Error(), c.err) {
						t.Fatalf("run %d: %v, want the error %q", i+1, err, c.err)
					}
				} else if err != nil {
					t.Fatalf("run %d: %v", i+1, err)
				}
			}
			if dsl.Repr(first) != dsl.Repr(second) {
				t.Errorf("first %s, second %s", dsl.Repr(first), dsl.Repr(second))
			}
			if hit := rt.Rules.Hits == 1; hit != c.cached {
				t.Errorf("hits %d, misses %d; cached = %v, want %v", rt.Rules.Hits, rt.Rules.Misses, hit, c.cached)
			}
		})
	}
}
