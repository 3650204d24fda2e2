package dice

import (
	"math/big"
	"math/bits"
)

// Powers of a short distribution by recurrence. P = A^n satisfies A·P' = n·A'·P, so with
// A = a_0 + a_1 x + … + a_d x^d the weights of P follow one from the d before:
//
//	p_0 = a_0^n,  a_0·m·p_m = Σ_{j=1..d} a_j·((n+1)·j − m)·p_{m−j}
//
// (the division is exact). Each weight costs d products of a big integer by a word and one
// division by a word: 500d10 is 4,501 weights of up to 1,661 bits from 9 terms each, a few
// milliseconds, where squarings through one big multiplication took a quarter of a second.
// A symmetric A (a die of equal faces) gives a symmetric P: only its first half is computed.

// recurrenceMaxTerms bounds d+1, the length of the distribution raised to a power by
// recurrence; longer ones are squared.
const recurrenceMaxTerms = 64

// powerPlan reports whether a^n is to be computed by recurrence and what it costs.
func powerPlan(a *Dist, n int) (ok bool, cost int) {
	d := len(a.W) - 1
	if d < 2 || d+1 > recurrenceMaxTerms || a.W[0].Sign() == 0 || a.W[d].Sign() == 0 {
		return false, 0
	}
	for _, w := range a.W {
		if w.BitLen() > 31 {
			return false, 0
		}
	}
	// (n+1)·j and m stay under 2^31, so every coefficient a_j·((n+1)·j − m) fits an int64.
	if n >= 1<<20 || (n+1)*d >= 1<<31/recurrenceMaxTerms {
		return false, 0
	}
	// Where the weights fit a word, squaring in uint64 is cheaper.
	if n*a.Den.BitLen() <= 64 {
		return false, 0
	}
	terms := n*d + 1
	words := (n*a.Den.BitLen())/bits.UintSize + 1
	// The recurrence is cheap next to what its result costs to use: every weight written
	// in decimal (as prob does) costs about weightTextCost·words² word operations, so that is
	// charged too, and 5000d10 (45,001 weights of 16,600 bits, 450 MB of fractions) is
	// refused as the squarings were.
	return true, satMul(terms, satMul(d, words+bigOpCost)+satMul(weightTextCost, satMul(words, words)))
}

// weightTextCost: writing a weight of w words in decimal costs about weightTextCost·w² word
// operations (math/big, 2026-11-29).
const weightTextCost = 8

// powerRec returns the weights of a^n by the recurrence (powerPlan said yes).
func powerRec(a *Dist, n int) *Dist {
	d := len(a.W) - 1
	terms := n*d + 1
	coef := make([]int64, d+1)
	for j, w := range a.W {
		coef[j] = w.Int64()
	}
	symmetric := true
	for j := range coef {
		symmetric = symmetric && coef[j] == coef[d-j]
	}
	den := new(big.Int).Exp(a.Den, big.NewInt(int64(n)), nil)
	// Every weight is at most den: one slot of its words each, in one array.
	slot := len(den.Bits()) + 1
	words := make([]big.Word, terms*slot)
	ints := make([]big.Int, terms)
	w := make([]*big.Int, terms)
	set := func(m int, x *big.Int) {
		s := words[m*slot : m*slot : (m+1)*slot]
		w[m] = ints[m].SetBits(append(s, x.Bits()...))
	}
	set(0, new(big.Int).Exp(a.W[0], big.NewInt(int64(n)), nil))
	last := terms - 1
	if symmetric {
		last = (terms - 1) / 2
	}
	var num, t, c big.Int
	a0 := big.NewInt(coef[0])
	var div big.Int
	for m := 1; m <= last; m++ {
		num.SetInt64(0)
		for j := 1; j <= min(d, m); j++ {
			if coef[j] == 0 {
				continue
			}
			k := coef[j] * (int64(n+1)*int64(j) - int64(m))
			if k == 0 {
				continue
			}
			t.Mul(w[m-j], c.SetInt64(k))
			num.Add(&num, &t)
		}
		if coef[0] == 1 {
			num.Quo(&num, c.SetInt64(int64(m)))
		} else {
			num.Quo(&num, div.Mul(a0, c.SetInt64(int64(m))))
		}
		set(m, &num)
	}
	for m := last + 1; m < terms; m++ {
		set(m, w[terms-1-m])
	}
	return &Dist{Min: n * a.Min, W: w, Den: den}
}
