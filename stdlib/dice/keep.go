package dice

import (
	"fmt"
	"math"
	"math/big"
)

// Keep/drop by order statistics, without enumerating the dice.
//
// The values a die can show are taken in keeping order (highest first for kh and dl,
// lowest first for kl and dh). Two programmes, the cheaper estimate wins:
//
//   - from the kept end: the state is (j, s), j < k dice showing values better than the
//     current one, all kept, with scores summing to s. At value v, c of the remaining n-j
//     dice show v (C(n-j, c)·w^c ways); while j+c < k the state moves on, and once j+c >= k
//     the kept sum is s + (k-j)·v whatever the other dice show, so all those cases end at
//     once with weight Σ_{c>=k-j} C(n-j, c)·w^c·B^(n-j-c) = (w+B)^(n-j) minus the terms
//     c < k-j, B the mass of the worse values. About V·k²·(range of s) multiplications.
//   - from the dropped end, when few dice are dropped (d = n-k): j < d dice show values
//     worse than v (C(n, j)·L^j ways, all dropped, scoring nothing); at v the d-th dropped
//     die is reached, the m dice better than v are all kept (A^m, A the polynomial of the
//     better values) and k-m dice showing v are kept too. Summed over m that is the power
//     (w·x^v + A)^(n-j), less the terms m > k: d² powers of polynomials, each by repeated
//     squaring.
//
// Both count each arrangement of distinguishable dice once, so the weights are exactly those
// of the n-fold enumeration, over Den^n.

// poly is a polynomial in x with exact weights: Σ W[i]·x^(Min+i).
type poly struct {
	Min int
	W   []*big.Int
}

func (wk *work) pmul(a, b poly) (poly, error) {
	if len(a.W)+len(b.W)-1 > MaxOutcomes*4 {
		return poly{}, fmt.Errorf("more than %d possible results", MaxOutcomes)
	}
	plan := planConv(a.W, b.W)
	if err := wk.charge(plan.cost); err != nil {
		return poly{}, err
	}
	return poly{a.Min + b.Min, conv(a.W, b.W, plan)}, nil
}

// ppow is a^e by repeated squaring (e >= 1).
func (wk *work) ppow(a poly, e int) (poly, error) {
	var result poly
	have := false
	base := a
	var err error
	for e > 0 {
		if e&1 == 1 {
			if !have {
				result, have = base, true
			} else if result, err = wk.pmul(result, base); err != nil {
				return poly{}, err
			}
		}
		e >>= 1
		if e > 0 {
			if base, err = wk.pmul(base, base); err != nil {
				return poly{}, err
			}
		}
	}
	return result, nil
}

// binomRow returns C(n, 0..upto).
func binomRow(n, upto int) []*big.Int {
	row := make([]*big.Int, upto+1)
	row[0] = big.NewInt(1)
	for c := 1; c <= upto; c++ {
		row[c] = new(big.Int).Mul(row[c-1], big.NewInt(int64(n-c+1)))
		row[c].Quo(row[c], big.NewInt(int64(c)))
	}
	return row
}

// satMul multiplies non-negative costs, saturating at MaxInt.
func satMul(xs ...int) int {
	r := 1.0
	for _, x := range xs {
		r *= float64(x)
	}
	if r > math.MaxInt/2 {
		return math.MaxInt / 2
	}
	return int(r)
}

// keepWay lets tests force one programme (both must give the same weights).
var keepWay = keepWayCheapest

const (
	keepWayCheapest = iota
	keepWayKept
	keepWayDropped
)

// keepDist computes keep/drop of n.Count dice, each distributed as per.
func (wk *work) keepDist(per *Dist, n *Dice) (*Dist, error) {
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
	// The values in keeping order, with their weights.
	var vals []int
	var ws []*big.Int
	for i := range per.W {
		if per.W[i].Sign() != 0 {
			vals = append(vals, per.Min+i)
			ws = append(ws, per.W[i])
		}
	}
	if high {
		for i, j := 0, len(vals)-1; i < j; i, j = i+1, j-1 {
			vals[i], vals[j] = vals[j], vals[i]
			ws[i], ws[j] = ws[j], ws[i]
		}
	}
	den := new(big.Int).Exp(per.Den, big.NewInt(int64(count)), nil)
	sc := func(v int) int { return score(n, v) }
	lo, hi := 0, 0
	for _, v := range vals {
		lo, hi = min(lo, k*sc(v)), max(hi, k*sc(v))
	}
	width := hi - lo + 1
	if width > MaxOutcomes || len(vals) == 0 {
		return nil, &Error{n.At + 1, fmt.Sprintf("%s has too many possible results to compute exactly", n.Text)}
	}
	if k == 0 {
		mass := new(big.Int).Exp(per.Mass(), big.NewInt(int64(count)), nil)
		return &Dist{W: []*big.Int{mass}, Den: den}, nil
	}
	// below[i]: mass of the values after vals[i] in keeping order.
	below := make([]*big.Int, len(vals))
	acc := new(big.Int)
	for i := len(vals) - 1; i >= 0; i-- {
		below[i] = new(big.Int).Set(acc)
		acc.Add(acc, ws[i])
	}
	words := 1 + den.BitLen()/64
	V, d := len(vals), count-k
	// From the kept end, state j holds up to j·span+1 sums and moves in k-j+1 ways: about
	// V·span·k³/6 multiply-adds.
	span := width/k + 1
	topCost := satMul(V, span*k*k*k/6+k*k, words+bigOpCost)
	// Each value of the dropped end: 2d powers of polynomials up to count·(span of scores)
	// terms of `words` words (squaring dominates), and d² scaled subtractions.
	dropCost := satMul(V, 2*d, 3, mulCost(count*span*words, count*span*words)) +
		satMul(V, d, d, count*span, words+bigOpCost)
	var out []*big.Int
	var err error
	fromDropped := d > 0 && dropCost < topCost
	switch keepWay {
	case keepWayKept:
		fromDropped = false
	case keepWayDropped:
		fromDropped = d > 0
	}
	if fromDropped {
		out, err = wk.keepFromDropped(vals, ws, below, count, k, lo, width, sc)
	} else {
		if err := wk.charge(topCost); err != nil {
			return nil, err
		}
		out = keepFromKept(vals, ws, below, count, k, lo, width, sc)
	}
	if err != nil {
		return nil, err
	}
	for i := range out {
		if out[i] == nil {
			out[i] = new(big.Int)
		}
	}
	return (&Dist{Min: lo, W: out, Den: den}).trim(), nil
}

// keepFromKept is the programme from the kept end (see the top of the file).
func keepFromKept(vals []int, ws, below []*big.Int, count, k, lo, width int, sc func(int) int) []*big.Int {
	out := make([]*big.Int, width)
	cur := make([][]*big.Int, k)
	for j := range cur {
		cur[j] = make([]*big.Int, width)
	}
	cur[0][-lo] = big.NewInt(1)
	t := new(big.Int)
	for i, v := range vals {
		w, b := ws[i], below[i]
		tot := new(big.Int).Add(w, b)
		sv := sc(v)
		// Powers of w (c < k), of b and of w+b (exponents count-k+1 … count).
		wpow := make([]*big.Int, k)
		wpow[0] = big.NewInt(1)
		for c := 1; c < k; c++ {
			wpow[c] = new(big.Int).Mul(wpow[c-1], w)
		}
		base := count - k + 1
		bpow := make([]*big.Int, k)
		tpow := make([]*big.Int, k)
		bpow[0] = new(big.Int).Exp(b, big.NewInt(int64(base)), nil)
		tpow[0] = new(big.Int).Exp(tot, big.NewInt(int64(base)), nil)
		for e := 1; e < k; e++ {
			bpow[e] = new(big.Int).Mul(bpow[e-1], b)
			tpow[e] = new(big.Int).Mul(tpow[e-1], tot)
		}
		for j := k - 1; j >= 0; j-- {
			rem, need := count-j, k-j
			binom := binomRow(rem, need-1)
			// coef[c] = C(rem, c)·w^c for c < need; end = Σ_{c>=need} C(rem, c)·w^c·b^(rem-c).
			coef := make([]*big.Int, need)
			end := new(big.Int).Set(tpow[rem-base])
			for c := 0; c < need; c++ {
				coef[c] = new(big.Int).Mul(binom[c], wpow[c])
				end.Sub(end, t.Mul(coef[c], bpow[rem-c-base]))
			}
			for s, x := range cur[j] {
				if x == nil || x.Sign() == 0 {
					continue
				}
				if end.Sign() != 0 {
					o := s + need*sv
					if out[o] == nil {
						out[o] = new(big.Int)
					}
					out[o].Add(out[o], t.Mul(x, end))
				}
				for c := 1; c < need; c++ {
					if coef[c].Sign() == 0 {
						break
					}
					ns := s + c*sv
					if cur[j+c][ns] == nil {
						cur[j+c][ns] = new(big.Int)
					}
					cur[j+c][ns].Add(cur[j+c][ns], t.Mul(x, coef[c]))
				}
			}
		}
	}
	return out
}

// keepFromDropped is the programme from the dropped end (see the top of the file): count-k
// dice are dropped, at least one.
func (wk *work) keepFromDropped(vals []int, ws, below []*big.Int, count, k, lo, width int, sc func(int) int) ([]*big.Int, error) {
	d := count - k
	out := make([]*big.Int, width)
	binomN := binomRow(count, d-1)
	t := new(big.Int)
	// better: the polynomial of the scores of the values before vals[i], grown as i goes.
	better := poly{}
	for i, v := range vals {
		w, low := ws[i], below[i]
		sv := sc(v)
		u := poly{sv, []*big.Int{w}}
		withV := u
		if len(better.W) > 0 {
			withV = polySum(u, better)
		}
		// P[e] = (u + better)^e and A[m] = better^m for e, m in k+1 … count.
		pw, err := wk.ppow(withV, k+1)
		if err != nil {
			return nil, err
		}
		P := []poly{pw}
		for e := k + 2; e <= count; e++ {
			if pw, err = wk.pmul(pw, withV); err != nil {
				return nil, err
			}
			P = append(P, pw)
		}
		var A []poly
		if len(better.W) > 0 {
			aw, err := wk.ppow(better, k+1)
			if err != nil {
				return nil, err
			}
			A = append(A, aw)
			for e := k + 2; e <= count; e++ {
				if aw, err = wk.pmul(aw, better); err != nil {
					return nil, err
				}
				A = append(A, aw)
			}
		}
		lowPow := big.NewInt(1)
		for j := 0; j < d; j++ {
			if j > 0 {
				lowPow = new(big.Int).Mul(lowPow, low)
			}
			if lowPow.Sign() == 0 {
				break
			}
			e := count - j
			// term = P[e] − Σ_{m=k+1}^{e} C(e, m)·w^(e-m)·x^((e-m)·sv)·A[m]
			p := P[e-k-1]
			term := make([]*big.Int, len(p.W))
			for idx, x := range p.W {
				term[idx] = new(big.Int).Set(x)
			}
			if A != nil {
				binE := binomRow(e, e)
				for mm := k + 1; mm <= e; mm++ {
					a := A[mm-k-1]
					f := new(big.Int).Mul(binE[mm], new(big.Int).Exp(w, big.NewInt(int64(e-mm)), nil))
					shift := a.Min + (e-mm)*sv - p.Min
					for idx, x := range a.W {
						if x.Sign() != 0 {
							term[shift+idx].Sub(term[shift+idx], t.Mul(x, f))
						}
					}
				}
			} // with no better values every term m > k is zero
			f := new(big.Int).Mul(binomN[j], lowPow)
			shift := p.Min - (d-j)*sv - lo
			for idx, x := range term {
				if x.Sign() == 0 {
					continue
				}
				o := shift + idx
				if o < 0 || o >= width || x.Sign() < 0 {
					return nil, fmt.Errorf("internal error: keep/drop weight out of range")
				}
				if out[o] == nil {
					out[o] = new(big.Int)
				}
				out[o].Add(out[o], t.Mul(x, f))
			}
		}
		if len(better.W) == 0 {
			better = u
		} else {
			better = polySum(better, u)
		}
	}
	return out, nil
}

// polySum adds two polynomials.
func polySum(a, b poly) poly {
	lo := min(a.Min, b.Min)
	hi := max(a.Min+len(a.W), b.Min+len(b.W))
	w := make([]*big.Int, hi-lo)
	for i := range w {
		w[i] = new(big.Int)
	}
	for _, p := range []poly{a, b} {
		for i, x := range p.W {
			w[p.Min+i-lo].Add(w[p.Min+i-lo], x)
		}
	}
	return poly{lo, w}
}
