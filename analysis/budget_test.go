package analysis

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"rulesh/dsl"
)

// TestBudgetExtremes: a budget near the top of int64 overflowed the bound on draws, so an
// exact answer "needed more than the budget of 9223372036854775807 (estimated 1e+12)"; a
// budget of two trillion enumerated for hours. A budget counts as MaxBudget at most, the
// refusal then says the budget is at its most, and an estimate past float64 is said in words.
// The procedures are actions: a rule's calls would be enumerated again merged (merge.go),
// which a budget this high lets run for minutes before it gives up.
func TestBudgetExtremes(t *testing.T) {
	const src = "action p(): int {\n  let t = 0\n  for i in 1..12 {\n    t = t * 7 + d(10)\n  }\n  return t\n}\naction inf(): int {\n  let t = 0\n  for i in 1..400 {\n    t += d(10)\n  }\n  return t\n}\n"
	prog, diags := dsl.LoadSource("b.rules", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, budget := range []int64{math.MaxInt64, math.MaxInt64 / 8, 2_000_000_000_000} {
		_, err := within(t, 20*time.Second, func() (*Dist, error) {
			return Prob(Question{Prog: prog, Expr: "p()", Seed: 1}, ProbOptions{Budget: budget, Exact: true})
		})
		var big *ErrTooBig
		if !errors.As(err, &big) || big.Overran || big.Budget != MaxBudget || big.Estimate < 1e11 {
			t.Fatalf("budget %d: %v", budget, err)
		}
		if msg := err.Error(); !strings.Contains(msg, "about 1e+12 branches") || !strings.Contains(msg, "the budget is at its most") {
			t.Errorf("budget %d: %s", budget, msg)
		}
	}
	_, err := within(t, 20*time.Second, func() (*Dist, error) {
		return Prob(Question{Prog: prog, Expr: "inf()", Seed: 1}, ProbOptions{Exact: true})
	})
	if err == nil || !strings.Contains(err.Error(), "need more than 1e308 branches") {
		t.Errorf("10^400 branches: %v", err)
	}
}
