package analysis

import (
	"math/big"
	"testing"
)

// foldRules add to reuseRules what a fold must not convolve: an action whose every call
// changes a counter (its shares are not independent), and a rule drawing a card.
const foldRules = reuseRules + `
kind Counter { n: int = 0 }
entity ctr: Counter {}
action bump(): int {
  ctr.n += 1
  return ctr.n * d(6)
}
rule halved(): float {
  return d(6) / 2
}
`

// binomial is the distribution of the successes of n independent trials of probability p,
// from the binomial coefficients.
func binomial(n int, p *big.Rat) map[int]*big.Rat {
	q := new(big.Rat).Sub(big.NewRat(1, 1), p)
	out := map[int]*big.Rat{}
	for k := 0; k <= n; k++ {
		c := new(big.Rat).SetInt(new(big.Int).Binomial(int64(n), int64(k)))
		for range k {
			c.Mul(c, p)
		}
		for range n - k {
			c.Mul(c, q)
		}
		out[k] = c
	}
	return out
}

// nFold is the distribution of the sum of n independent values of d, added one by one.
func nFold(d map[int]*big.Rat, n int) map[int]*big.Rat {
	out := map[int]*big.Rat{0: big.NewRat(1, 1)}
	for range n {
		out = sumOf(out, d)
	}
	return out
}

// TestFoldConvolves: a sum, count, filter or reduce over a map of independent draws is
// exact by the convolution of its shares, at the cost of one share (or one per element when
// the share reads it), each answer checked against a distribution computed here.
func TestFoldConvolves(t *testing.T) {
	prog := loadSource(t, foldRules)
	// Three d6 face by face, apart from any convolution.
	three := brute{}
	for a := 1; a <= 6; a++ {
		for b := 1; b <= 6; b++ {
			for c := 1; c <= 6; c++ {
				three.add(itoa(a+b+c), 1, 216)
			}
		}
	}
	// d(1) + d(2) + … + d(6): each element its own die.
	perDie := map[int]*big.Rat{0: big.NewRat(1, 1)}
	for k := 1; k <= 6; k++ {
		perDie = sumOf(perDie, die(k))
	}
	third := big.NewRat(1, 3)
	tests := []struct {
		expr      string
		want      brute
		maxLeaves int64
	}{
		{"sum(map(1..3, d(6)))", three, 6},
		{"sum(map(1..10, attack()))", toBrute(nFold(attackDist(), 10)), 200},
		{"sum(map(1..30, d(6)))", toBrute(nFold(die(6), 30)), 6},
		{"sum(map(1..50, 1d6))", toBrute(nFold(die(6), 50)), 6},
		{"sum(1..10, d(6))", toBrute(nFold(die(6), 10)), 6},
		{"len(filter(map(1..10, d(6)), # >= 5))", toBrute(binomial(10, third)), 6},
		{"count(map(1..10, d(6)), # >= 5)", toBrute(binomial(10, third)), 6},
		{"count(1..12, d(6) >= 5)", toBrute(binomial(12, third)), 6},
		{"sum(filter(map(1..8, d(6)), # >= 5))", toBrute(nFold(map[int]*big.Rat{0: big.NewRat(2, 3), 5: big.NewRat(1, 6), 6: big.NewRat(1, 6)}, 8)), 6},
		{"reduce(1..10, #acc + d(6), 0)", toBrute(nFold(die(6), 10)), 6},
		{"reduce(1..10, #acc + d(6) * 2, 0)", toBrute(nFold(map[int]*big.Rat{2: big.NewRat(1, 6), 4: big.NewRat(1, 6), 6: big.NewRat(1, 6), 8: big.NewRat(1, 6), 10: big.NewRat(1, 6), 12: big.NewRat(1, 6)}, 10)), 6},
		{"sum(map(1..6, d(#)))", toBrute(perDie), 21},
		{"sum(map([6, 6, 6, 6, 6, 6, 6, 6, 6, 6], d(#)))", toBrute(nFold(die(6), 10)), 6},
		{"sum(map(1..10, volley(2)))", toBrute(nFold(attackDist(), 20)), 50_000},
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			d := prob(t, prog, tc.expr, ProbOptions{Exact: true})
			checkExact(t, d, tc.want)
			if d.Leaves > tc.maxLeaves {
				t.Errorf("%d branches, want at most %d", d.Leaves, tc.maxLeaves)
			}
		})
	}
}

// TestFoldLeftAlone: folds whose shares are not independent whole numbers are answered as
// before (die by die, or refused): the convolution would be wrong for each.
func TestFoldLeftAlone(t *testing.T) {
	prog := loadSource(t, foldRules)
	// bump() changes the counter: the i-th call is i × d6, not four times the first.
	bumps := brute{}
	for a := range 6 * 6 * 6 * 6 {
		tot, x := 0, a
		for i := 1; i <= 4; i++ {
			tot += i * (1 + x%6)
			x /= 6
		}
		bumps.add(itoa(tot), 1, 1296)
	}
	d := prob(t, prog, "sum(map(1..4, bump()))", ProbOptions{Exact: true})
	checkExact(t, d, bumps)
	if d.Leaves != 1296 {
		t.Errorf("bump: %d branches, want the 1,296 of the plain tree", d.Leaves)
	}
	// #index is the element's place: 0 in every share.
	d = prob(t, prog, "sum(map(1..4, #index * d(6)))", ProbOptions{Exact: true})
	idx := brute{}
	for a := range 6 * 6 * 6 * 6 {
		tot, x := 0, a
		for i := range 4 {
			tot += i * (1 + x%6)
			x /= 6
		}
		idx.add(itoa(tot), 1, 1296)
	}
	checkExact(t, d, idx)
	if d.Leaves != 1296 {
		t.Errorf("#index: %d branches, want the plain tree's 1,296", d.Leaves)
	}
	// Fractions: the sum's rounding depends on its order; a list drawn: not one list.
	for _, expr := range []string{"sum(map(1..4, halved()))", "sum(map(1..d(4), d(6)))", "reduce(1..4, #acc + d(6), 1)", "reduce(1..4, #acc + d(6) - 1, 0)"} {
		d := prob(t, prog, expr, ProbOptions{Exact: true})
		if d.Leaves < 1000 {
			t.Errorf("%s: %d branches: convolved, want the plain tree", expr, d.Leaves)
		}
	}
	// Over the budget without convolution: still refused, not answered by it.
	if _, err := Prob(Question{Prog: prog, Expr: "sum(map(1..10, bump()))", Seed: 1}, ProbOptions{Exact: true}); err == nil {
		t.Errorf("sum(map(1..10, bump())): answered exactly, want over the budget")
	}
}

// TestFoldWithinLimits: a fold whose whole runs come near max_steps is not convolved (the
// shares fit where the whole expression might not).
func TestFoldWithinLimits(t *testing.T) {
	prog := loadSource(t, foldRules)
	r, err := newRunner(Question{Prog: prog, Expr: "sum(map(1..120, d(6)))", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	l := r.sess.M.Limits()
	l.MaxSteps = 800
	r.sess.M.SetLimits(l)
	opt := ProbOptions{Exact: true}
	opt.defaults()
	d, why, err := r.exact(opt)
	if err != nil || d != nil || why == nil {
		t.Errorf("sum of 120 d6 at max_steps 800: answered (%v, %v), want over the budget", d != nil, err)
	}
	if r.peakSteps <= l.MaxSteps/4 {
		t.Errorf("peak steps %d: the test does not reach the guard", r.peakSteps)
	}
	d = prob(t, prog, "sum(map(1..120, d(6)))", ProbOptions{Exact: true})
	checkExact(t, d, toBrute(nFold(die(6), 120)))
}
