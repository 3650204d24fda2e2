package analysis

import (
	"errors"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

// depthRules recurse once per unit of their argument: rec(n) runs n + 1 frames deep, drec
// the same, its argument a list so that only the six d2 at its bottom are reused (64
// branches die by die, 7 values reused).
const depthRules = `
rule rec(n: int): int { return n <= 0 ? 0 : 1 + rec(n - 1) }
rule six(): int { return d(2) + d(2) + d(2) + d(2) + d(2) + d(2) }
rule drec(l: list): int { return l[0] <= 0 ? six() : drec([l[0] - 1]) }
`

// TestReuseFailsAtTheDepthLimit: a call answered from calls worked out before (the rule
// cache's plain entries on a small tree, reused distributions on one over the budget) fails
// where running it fails, at max_call_depth: prob's odds of rec(190 + 1d20) are eval's of
// each rec(191) … rec(210), whose frames from rec(200) on pass the limit of 200.
func TestReuseFailsAtTheDepthLimit(t *testing.T) {
	prog := loadSource(t, depthRules)
	// evalOutcome is what `rulesh eval` gives for expr on a fresh machine, as an outcome.
	evalOutcome := func(expr string) string {
		m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		v, err := dsl.NewSession(m).Eval("depth", expr)
		var re *dsl.RuntimeError
		if errors.As(err, &re) {
			return "error: " + re.Msg
		} else if err != nil {
			t.Fatal(err)
		}
		return dsl.Repr(v)
	}
	for _, c := range []struct {
		rule   string
		budget int64
	}{
		{"rec", 1_000},  // 20 branches: the plain cache
		{"drec", 1_000}, // 524 branches die by die
		{"drec", 300},   // over the budget unless six()'s distribution is reused
	} {
		want := brute{}
		for k := 191; k <= 210; k++ {
			if c.rule == "drec" {
				o := evalOutcome("drec([" + itoa(k) + "])")
				if strings.HasPrefix(o, "error: ") {
					want.add(o, 1, 20)
					continue
				}
				for v, n := range map[int]int64{6: 1, 7: 6, 8: 15, 9: 20, 10: 15, 11: 6, 12: 1} {
					want.add(itoa(v), n, 20*64)
				}
				continue
			}
			want.add(evalOutcome("rec("+itoa(k)+")"), 1, 20)
		}
		if len(want) < 2 {
			t.Fatalf("%s: the limit is not where this test expects it: %v", c.rule, want)
		}
		expr := "rec(190 + 1d20)"
		if c.rule == "drec" {
			expr = "drec([190 + 1d20])"
		}
		d := prob(t, prog, expr, ProbOptions{Budget: c.budget, Exact: true, LimitRuns: -1})
		checkExact(t, d, want)
	}
}
