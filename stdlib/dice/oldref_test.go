package dice

import (
	"fmt"
	"math/big"
)

// oldAdd is the schoolbook convolution of big weights, the reference of conv.
func oldAdd(a, b *Dist) *Dist {
	out := newDist(a.Min+b.Min, len(a.W)+len(b.W)-1, new(big.Int).Mul(a.Den, b.Den))
	t := new(big.Int)
	for i, x := range a.W {
		for j, y := range b.W {
			out.W[i+j].Add(out.W[i+j], t.Mul(x, y))
		}
	}
	return out.trim()
}

// oldSumN is the n-fold sum by repeated oldAdd, one die at a time.
func oldSumN(a *Dist, n int) *Dist {
	out := Point(0)
	for range n {
		out = oldAdd(out, a)
	}
	return out
}

// oldKeepDist is the keep/drop programme before the present one (state: every count of
// dice placed so far), kept as the reference of the new ones. It computes keep/drop by order statistics: going through the values from the best
// kept end, choose how many of the remaining dice show each value (binomial weights); the
// first k dice in that order count.
func oldKeepDist(per *Dist, n *Dice) (*Dist, error) {
	wk := &work{}
	m := &n.Mods
	count := n.Count
	k := m.KeepN
	high := true
	switch m.Keep {
	case KeepLow:
		high = false
	case DropHigh:
		high, k = false, count-k
	case DropLow:
		k = count - k
	}
	k = max(0, min(k, count))
	vals := make([]int, 0, len(per.W))
	for i := range per.W {
		if per.W[i].Sign() != 0 {
			vals = append(vals, per.Min+i)
		}
	}
	if !high {
		// ascending already
	} else {
		for i, j := 0, len(vals)-1; i < j; i, j = i+1, j-1 {
			vals[i], vals[j] = vals[j], vals[i]
		}
	}
	sc := func(v int) int { return score(n, v) }
	lo, hi := 0, 0
	for _, v := range vals {
		lo, hi = min(lo, k*sc(v)), max(hi, k*sc(v))
	}
	width := hi - lo + 1
	if int64(width)*int64(count+1) > MaxOutcomes*4 {
		return nil, &Error{n.At + 1, fmt.Sprintf("%s has too many possible results to compute exactly", n.Text)}
	}
	wk.spent += (count + 1) * (count + 1) * (1 + count/64)
	if wk.spent > 1<<62 {
		panic("unreachable")
	}
	binom := oldBinomials(count)
	// dp[j][s-lo]: weight of j dice placed so far with kept contributions summing to s.
	dp := make([][]*big.Int, count+1)
	for j := range dp {
		dp[j] = make([]*big.Int, width)
	}
	dp[0][-lo] = big.NewInt(1)
	t := new(big.Int)
	for _, v := range vals {
		w := per.W[v-per.Min]
		pow := []*big.Int{big.NewInt(1)}
		for c := 1; c <= count; c++ {
			pow = append(pow, new(big.Int).Mul(pow[c-1], w))
		}
		wk.spent += (count + 1) * (count + 1) * width * (1 + per.Den.BitLen()*count/64)
		if wk.spent > 1<<62 {
			panic("unreachable")
		}
		next := make([][]*big.Int, count+1)
		for j := range next {
			next[j] = make([]*big.Int, width)
		}
		for j := 0; j <= count; j++ {
			for s, x := range dp[j] {
				if x == nil || x.Sign() == 0 {
					continue
				}
				for c := 0; c <= count-j; c++ {
					keptHere := min(c, max(0, k-j))
					ns := s + keptHere*sc(v)
					t.Mul(x, pow[c])
					t.Mul(t, binom[count-j][c])
					if next[j+c][ns] == nil {
						next[j+c][ns] = new(big.Int)
					}
					next[j+c][ns].Add(next[j+c][ns], t)
				}
			}
		}
		dp = next
	}
	out := newDist(lo, width, new(big.Int).Exp(per.Den, big.NewInt(int64(count)), nil))
	for s, x := range dp[count] {
		if x != nil {
			out.W[s] = x
		}
	}
	return out.trim(), nil
}

func oldBinomials(n int) [][]*big.Int {
	// Pascal's triangle: additions only.
	b := make([][]*big.Int, n+1)
	for i := 0; i <= n; i++ {
		b[i] = make([]*big.Int, i+1)
		b[i][0], b[i][i] = big.NewInt(1), big.NewInt(1)
		for j := 1; j < i; j++ {
			b[i][j] = new(big.Int).Add(b[i-1][j-1], b[i-1][j])
		}
	}
	return b
}
