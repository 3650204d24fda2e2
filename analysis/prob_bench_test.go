package analysis

import (
	"math/big"
	"testing"
)

// strikeExpr is the strike of the Mortebrume README's first command: Will (épée longue, at
// the ideal distance, maniement 7) strikes Jack (sabre, out of his ideal distance: -3,
// maniement 8), each rolling a d10.
const strikeExpr = "frapper(will, jack)"

// goStrikeOdds is the same strike written by hand in Go, enumerated exactly: a one on the
// attacker's die misses, a one on the defender's hits, else the higher total hits (ties
// to the defender) for the épée longue's 6 wounds. It returns P(6 wounds).
//
//go:noinline
func goStrikeOdds(sides int) *big.Rat {
	hits := 0
	for ra := 1; ra <= sides; ra++ {
		for rd := 1; rd <= sides; rd++ {
			switch {
			case ra == 1:
			case rd == 1 || ra+7 > rd+8-3:
				hits++
			}
		}
	}
	return big.NewRat(int64(hits), int64(sides*sides))
}

func TestMortebrumeStrikeAgainstGo(t *testing.T) {
	prog := loadFiles(t, "../rulesets/mortebrume/forge.rules")
	d := prob(t, prog, strikeExpr, ProbOptions{})
	hit := goStrikeOdds(10)
	checkExact(t, d, brute{"6": hit, "0": new(big.Rat).Sub(big.NewRat(1, 1), hit)})
}

// BenchmarkProbMortebrumeStrikeExact: one op is `prob` of the strike without loading the
// files: a machine, the compiled expression, and the 100 branches of the two d10.
func BenchmarkProbMortebrumeStrikeExact(b *testing.B) {
	prog := loadFiles(b, "../rulesets/mortebrume/forge.rules")
	for b.Loop() {
		if _, err := Prob(Question{Prog: prog, Expr: strikeExpr, Seed: 1}, ProbOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProbMortebrumeStrikeSampled: the same question sampled as prob does over the
// budget, 38,415 runs (about ±0.5% at 95%).
func BenchmarkProbMortebrumeStrikeSampled(b *testing.B) {
	prog := loadFiles(b, "../rulesets/mortebrume/forge.rules")
	for b.Loop() {
		if _, err := Prob(Question{Prog: prog, Expr: strikeExpr, Seed: 1}, ProbOptions{Budget: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProbMortebrumeStrikeGo is the hand-written Go reference.
func BenchmarkProbMortebrumeStrikeGo(b *testing.B) {
	for b.Loop() {
		goStrikeOdds(10)
	}
}

// BenchmarkProbMortebrumeStrikeNoCache is the exact answer without the rule cache.
func BenchmarkProbMortebrumeStrikeNoCache(b *testing.B) {
	prog := loadFiles(b, "../rulesets/mortebrume/forge.rules")
	for b.Loop() {
		r, err := newRunner(Question{Prog: prog, Expr: strikeExpr, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		r.sess.M.SetRuleCache(nil)
		if _, _, err := r.exact(ProbOptions{Budget: DefaultBudget, Probes: DefaultProbes}); err != nil {
			b.Fatal(err)
		}
	}
}
