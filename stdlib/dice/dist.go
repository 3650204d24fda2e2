package dice

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strings"
)

// Limits of exact computation.
const (
	// MaxOutcomes bounds the support of any intermediate distribution.
	MaxOutcomes = 1_000_000
	// MaxPairs bounds the work of combining two distributions pairwise (×, /).
	MaxPairs = 4_000_000
)

// Dist is an exact distribution over whole numbers: P(Min+i) = W[i] / Den. The weights sum
// to Den, less the truncated mass when the chains of exploding dice were cut (below
// ExplodeCutoff per die).
type Dist struct {
	Min  int
	W    []*big.Int
	Den  *big.Int
	Bool bool     // a comparison: 0 is false, 1 is true
	Syms []string // a symbolic die: value i names Syms[i-1]
	// Tail bounds the values of the truncated mass, when they are known (see Tail).
	Tail *Tail
	// Full is the exact mean over all the mass, truncated chains included, when it has a
	// closed form (sums of exploding dice); nil otherwise, and when nothing is truncated.
	Full *big.Rat
}

// Point is the distribution of a constant.
func Point(v int) *Dist { return &Dist{Min: v, W: []*big.Int{big.NewInt(1)}, Den: big.NewInt(1)} }

// Max returns the largest outcome.
func (d *Dist) Max() int { return d.Min + len(d.W) - 1 }

// Mass returns the total weight (Den unless mass was truncated).
func (d *Dist) Mass() *big.Int {
	s := new(big.Int)
	for _, w := range d.W {
		s.Add(s, w)
	}
	return s
}

// Truncated returns the probability lost to truncated explosions, as a fraction.
func (d *Dist) Truncated() *big.Rat {
	lost := new(big.Int).Sub(d.Den, d.Mass())
	return new(big.Rat).SetFrac(lost, d.Den)
}

// P returns the exact probability of value v.
func (d *Dist) P(v int) *big.Rat {
	i := v - d.Min
	if i < 0 || i >= len(d.W) {
		return new(big.Rat)
	}
	return new(big.Rat).SetFrac(d.W[i], d.Den)
}

// Mean returns the expected value: the exact one (Full) when explosions were cut and it is
// known, else over the mass that is not truncated.
func (d *Dist) Mean() float64 {
	m, _ := d.moments()
	return m
}

// Stddev returns the standard deviation.
func (d *Dist) Stddev() float64 {
	_, v := d.moments()
	return math.Sqrt(v)
}

// MeanRat returns the exact expected value (Full when it is known).
func (d *Dist) MeanRat() *big.Rat {
	if d.Full != nil && d.truncated() {
		return new(big.Rat).Set(d.Full)
	}
	num := new(big.Int)
	t := new(big.Int)
	for i, w := range d.W {
		num.Add(num, t.Mul(w, big.NewInt(int64(d.Min+i))))
	}
	return new(big.Rat).SetFrac(num, d.Mass())
}

// Moments returns Mean and Stddev from one pass over the weights.
func (d *Dist) Moments() (mean, stddev float64) {
	m, v := d.moments()
	return m, math.Sqrt(v)
}

// moments computes mean and variance exactly (as fractions) over the mass that is not
// truncated, then rounds once: 2d6 has mean 7, not 6.999999999999999.
func (d *Dist) moments() (mean, variance float64) {
	mass := d.Mass()
	if mass.Sign() == 0 {
		return 0, 0
	}
	s1, s2, t, x := new(big.Int), new(big.Int), new(big.Int), new(big.Int)
	for i, w := range d.W {
		if w.Sign() == 0 {
			continue
		}
		x.SetInt64(int64(d.Min + i))
		t.Mul(w, x)
		s1.Add(s1, t)
		s2.Add(s2, t.Mul(t, x))
	}
	m := new(big.Rat).SetFrac(s1, mass)
	v := new(big.Rat).SetFrac(s2, mass)
	v.Sub(v, new(big.Rat).Mul(m, m))
	if d.Full != nil && d.truncated() {
		m = d.Full // the cut chains' share of the mean, which the kept mass lacks
	}
	mean, _ = m.Float64()
	variance, _ = v.Float64()
	return mean, max(variance, 0)
}

func newDist(min, n int, den *big.Int) *Dist {
	w := make([]*big.Int, n)
	for i := range w {
		w[i] = new(big.Int)
	}
	return &Dist{Min: min, W: w, Den: den}
}

// trim drops zero weights at both ends.
func (d *Dist) trim() *Dist {
	lo, hi := 0, len(d.W)
	for lo < hi && d.W[lo].Sign() == 0 {
		lo++
	}
	for hi > lo && d.W[hi-1].Sign() == 0 {
		hi--
	}
	if lo == hi {
		return &Dist{Min: 0, W: []*big.Int{new(big.Int)}, Den: d.Den, Bool: d.Bool, Syms: d.Syms, Tail: d.Tail, Full: d.Full}
	}
	d.Min += lo
	d.W = d.W[lo:hi]
	return d
}

// MaxWork bounds the arithmetic of one exact computation, in estimated word operations
// (about a nanosecond each on the project's machine kind), so that `prob 1111d100` stops
// with a message instead of running for hours.
const MaxWork = 1_000_000_000

// ErrTooMuchWork is returned when an exact distribution would cost more than MaxWork.
// (Its text spells MaxWork out, so that no call builds it at init: TestErrTooMuchWorkSaysLimit.)
var ErrTooMuchWork = errors.New("exact odds need too much work (limit 1000000000); try fewer dice")

// work counts the cost of the current computation; exact computations run one at a time per
// goroutine through Distribution, which resets it.
type work struct{ spent int }

// charge adds cost word operations, refusing once the total passes MaxWork.
func (w *work) charge(cost int) error {
	if w == nil {
		return nil
	}
	if cost < 0 || cost > MaxWork {
		w.spent = MaxWork + 1
	} else {
		w.spent += cost
	}
	if w.spent > MaxWork {
		return ErrTooMuchWork
	}
	return nil
}

// Add is the distribution of the sum of independent a and b (convolution).
func Add(a, b *Dist) (*Dist, error) { return (*work)(nil).add(a, b) }

func (wk *work) add(a, b *Dist) (*Dist, error) {
	n := len(a.W) + len(b.W) - 1
	if n > MaxOutcomes {
		return nil, fmt.Errorf("more than %d possible results", MaxOutcomes)
	}
	plan := planConv(a.W, b.W)
	if err := wk.charge(plan.cost); err != nil {
		return nil, err
	}
	out := &Dist{Min: a.Min + b.Min, W: conv(a.W, b.W, plan), Den: new(big.Int).Mul(a.Den, b.Den), Tail: addTail(a, b)}
	out.Full = addFull(a, b, 1)
	return out.trim(), nil
}

// Negate is the distribution of -a.
func Negate(a *Dist) *Dist {
	out := &Dist{Min: -a.Max(), W: make([]*big.Int, len(a.W)), Den: a.Den, Tail: negTail(a.Tail)}
	for i, w := range a.W {
		out.W[len(a.W)-1-i] = w
	}
	if a.Full != nil {
		out.Full = new(big.Rat).Neg(a.Full)
	}
	return out
}

// fullMean is d's mean over all its mass: Full, or the mean when nothing was cut; nil when
// unknown.
func fullMean(d *Dist) *big.Rat {
	if !d.truncated() {
		if d.Mass().Sign() == 0 {
			return nil
		}
		return d.MeanRat()
	}
	return d.Full
}

// addFull is the exact mean of a + k·b (a sum of independent dists), when something was cut
// and both means are known; nil otherwise.
func addFull(a, b *Dist, k int64) *big.Rat {
	if a.Full == nil && b.Full == nil {
		return nil
	}
	x, y := fullMean(a), fullMean(b)
	if x == nil || y == nil {
		return nil
	}
	return new(big.Rat).Add(x, new(big.Rat).Mul(y, big.NewRat(k, 1)))
}

// SumN is the distribution of the sum of n independent copies of a.
func SumN(a *Dist, n int) (*Dist, error) { return (*work)(nil).sumN(a, n) }

func (wk *work) sumN(a *Dist, n int) (*Dist, error) {
	out, err := wk.sumNCut(a, n)
	if err == nil && a.Tail != nil && n > 1 {
		out.Tail = sumTail(a, n)
	}
	if err == nil && a.Full != nil && n > 1 {
		out.Full = new(big.Rat).Mul(a.Full, big.NewRat(int64(n), 1))
	}
	return out, err
}

func (wk *work) sumNCut(a *Dist, n int) (*Dist, error) {
	if n == 0 {
		return Point(0), nil
	}
	if len(a.W) == 2 {
		return wk.binomialSum(a, n)
	}
	// Powers from the top down: a^n = (a^(n/2))², times a when n is odd. The squarings
	// double in size, so the last one is most of the work, and a square costs less than a
	// product; multiplying by the one-die distribution is cheap (one operand is short).
	if n == 1 {
		return a, nil
	}
	if ok, cost := powerPlan(a, n); ok {
		if err := wk.charge(cost); err != nil {
			return nil, err
		}
		return powerRec(a, n).trim(), nil
	}
	if wk != nil {
		// The last squaring costs more than all the rest: refuse before any of it when that
		// one alone is over the limit (weights of a^(n/2) are at most Den^(n/2)).
		terms := (n/2)*(len(a.W)-1) + 1
		slot := (2*(n/2)*a.Den.BitLen() + bits.Len(uint(terms)) + 63) / 64
		if last := mulCost(terms*slot, terms*slot); wk.spent+last > MaxWork || last < 0 {
			return nil, wk.charge(MaxWork + 1)
		}
	}
	half, err := wk.sumN(a, n/2)
	if err != nil {
		return nil, err
	}
	out, err := wk.add(half, half)
	if err != nil || n%2 == 0 {
		return out, err
	}
	return wk.add(out, a)
}

// binomialSum is the sum of n copies of a two-outcome distribution (a success count, a coin):
// C(n, i)·q^(n-i)·p^i for i successes, without convolutions.
func (wk *work) binomialSum(a *Dist, n int) (*Dist, error) {
	q, p := a.W[0], a.W[1]
	den := new(big.Int).Exp(a.Den, big.NewInt(int64(n)), nil)
	words := 1 + den.BitLen()/64
	if err := wk.charge(satMul(n+1, mulCost(1+n/64, words)+4*words+bigOpCost)); err != nil {
		return nil, err
	}
	// Powers of q from the top down and of p from the bottom up.
	qpow := make([]*big.Int, n+1)
	qpow[0] = big.NewInt(1)
	for i := 1; i <= n; i++ {
		qpow[i] = new(big.Int).Mul(qpow[i-1], q)
	}
	out := &Dist{Min: n * a.Min, W: make([]*big.Int, n+1), Den: den}
	c := big.NewInt(1)    // C(n, i)
	ppow := big.NewInt(1) // p^i
	for i := 0; i <= n; i++ {
		if i > 0 {
			c.Mul(c, big.NewInt(int64(n-i+1)))
			c.Quo(c, big.NewInt(int64(i)))
			ppow = new(big.Int).Mul(ppow, p)
		}
		w := new(big.Int).Mul(c, ppow)
		out.W[i] = w.Mul(w, qpow[n-i])
	}
	return out.trim(), nil
}

// Combine applies op to every pair of outcomes of independent a and b.
func Combine(a, b *Dist, op func(x, y int) (int, bool)) (*Dist, error) {
	return (*work)(nil).combine(a, b, op)
}

func (wk *work) combine(a, b *Dist, op func(x, y int) (int, bool)) (*Dist, error) {
	if len(a.W)*len(b.W) > MaxPairs {
		return nil, fmt.Errorf("more than %d pairs of results to combine", MaxPairs)
	}
	if err := wk.charge(len(a.W) * len(b.W) * (bigOpCost + 1 + (a.Den.BitLen()+b.Den.BitLen())/64)); err != nil {
		return nil, err
	}
	acc := map[int]*big.Int{}
	lo, hi := math.MaxInt, math.MinInt
	t := new(big.Int)
	for i, x := range a.W {
		if x.Sign() == 0 {
			continue
		}
		for j, y := range b.W {
			if y.Sign() == 0 {
				continue
			}
			v, ok := op(a.Min+i, b.Min+j)
			if !ok {
				continue
			}
			w, found := acc[v]
			if !found {
				w = new(big.Int)
				acc[v] = w
			}
			w.Add(w, t.Mul(x, y))
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	den := new(big.Int).Mul(a.Den, b.Den)
	if len(acc) == 0 {
		return &Dist{W: []*big.Int{new(big.Int)}, Den: den}, nil
	}
	if hi-lo+1 > MaxOutcomes {
		return nil, fmt.Errorf("more than %d possible results", MaxOutcomes)
	}
	out := newDist(lo, hi-lo+1, den)
	for v, w := range acc {
		out.W[v-lo] = w
	}
	return out, nil
}

// Distribution computes the exact distribution of a parsed expression.
func (e *Expr) Distribution() (*Dist, error) {
	if e.rec != nil {
		return nil, fmt.Errorf("%s is a roll of record dice: it has no number (its odds are a record's, see Joint)", e.Src)
	}
	d, err := (&work{}).dist(e.Root)
	if err != nil {
		return nil, err
	}
	if _, ok := e.Root.(*Cmp); ok {
		d.Bool = true
	}
	return d, nil
}

// dist2 computes the distributions of both operands of a binary node.
func (wk *work) dist2(l, r Node) (*Dist, *Dist, error) {
	a, err := wk.dist(l)
	if err != nil {
		return nil, nil, err
	}
	b, err := wk.dist(r)
	return a, b, err
}

func (wk *work) dist(n Node) (*Dist, error) {
	switch n := n.(type) {
	case *Num:
		return Point(n.V), nil
	case *Neg:
		d, err := wk.dist(n.X)
		if err != nil {
			return nil, err
		}
		return Negate(d), nil
	case *Bin:
		a, b, err := wk.dist2(n.L, n.R)
		if err != nil {
			return nil, err
		}
		if a.Syms != nil || b.Syms != nil {
			return nil, &Error{n.At + 1, "symbols cannot be added or multiplied"}
		}
		switch n.Op {
		case '+', '-':
			if n.Op == '-' {
				b = Negate(b)
			}
			d, err := wk.add(a, b)
			if err == nil && (d.Min < -(1<<53) || d.Max() > 1<<53) {
				err = &Error{n.At + 1, ErrTooLarge.Error()}
			}
			return d, err
		}
		// An outcome the operator refuses (a division by zero, a value beyond 2^53) is an
		// error, as it is when rolled, not a probability quietly left out.
		var opErr error
		d, err := wk.combine(a, b, func(x, y int) (int, bool) {
			v, err := arith(n.Op, x, y)
			if err != nil && opErr == nil {
				opErr = err
			}
			return v, err == nil
		})
		if err == nil && opErr != nil {
			err = &Error{n.At + 1, opErr.Error()}
		}
		if err == nil {
			d.Tail = scaleTail(n.Op, a, b)
		}
		return d, err
	case *Cmp:
		a, b, err := wk.dist2(n.L, n.R)
		if err != nil {
			return nil, err
		}
		diff, err := wk.add(a, Negate(b))
		if err != nil {
			return nil, err
		}
		out := newDist(0, 2, diff.Den)
		for i, w := range diff.W {
			k := 0
			if compare(n.Op, diff.Min+i, 0) {
				k = 1
			}
			out.W[k].Add(out.W[k], w)
		}
		decide(out, diff, n.Op)
		out.Bool = true
		return out, nil
	case *Dice:
		return wk.diceDist(n)
	case *Group:
		return wk.groupDist(n)
	case *Pool:
		return wk.poolDist(n)
	case *Call:
		return wk.callDist(n)
	}
	return nil, fmt.Errorf("unknown node %T", n)
}

// faceSpan is the lowest and highest face value of d (false for a die without faces).
func faceSpan(d *Die) (lo, hi int, ok bool) {
	if len(d.Faces) == 0 {
		return 0, 0, false
	}
	lo, hi = d.Faces[0].Value, d.Faces[0].Value
	for _, f := range d.Faces {
		lo, hi = min(lo, f.Value), max(hi, f.Value)
	}
	return lo, hi, true
}

// faceDist is the distribution of one roll of a die with its rerolls applied, over face
// values (symbol indexes for symbolic dice).
func faceDist(n *Dice) *Dist {
	d, m := n.Die, &n.Mods
	lo, hi := d.Faces[0].Value, d.Faces[0].Value
	for _, f := range d.Faces {
		lo, hi = min(lo, f.Value), max(hi, f.Value)
	}
	sides := int64(len(d.Faces))
	out := newDist(lo, hi-lo+1, big.NewInt(sides))
	if m.Reroll.Op == "" {
		for _, f := range d.Faces {
			out.W[f.Value-lo].Add(out.W[f.Value-lo], big.NewInt(1))
		}
		return out
	}
	var c int64
	for _, f := range d.Faces {
		if m.Reroll.Match(f) {
			c++
		}
	}
	if !m.RerollOnce {
		// Rerolled until it leaves the condition: uniform over the other faces.
		out.Den = big.NewInt(sides - c)
		for _, f := range d.Faces {
			if !m.Reroll.Match(f) {
				out.W[f.Value-lo].Add(out.W[f.Value-lo], big.NewInt(1))
			}
		}
		return out.trim()
	}
	// Rerolled once: P(v) = p(v)[v kept] + P(rerolled) p(v), over sides².
	out.Den = big.NewInt(sides * sides)
	for _, f := range d.Faces {
		w := c
		if !m.Reroll.Match(f) {
			w += sides
		}
		out.W[f.Value-lo].Add(out.W[f.Value-lo], big.NewInt(w))
	}
	return out.trim()
}

// faceOf returns a face of the die with that value (for conditions on symbolic dice).
func faceOf(d *Die, v int) Face {
	if d.Standard {
		return Face{Value: v} // faces 1..N: no search (d70000 would be quadratic)
	}
	for _, f := range d.Faces {
		if f.Value == v {
			return f
		}
	}
	return Face{Value: v}
}

// score is what one die contributes: its value, or +1/-1/0 when counting successes.
func score(n *Dice, v int) int {
	m := &n.Mods
	if m.Success.Op == "" && m.Failure.Op == "" {
		return v
	}
	f := faceOf(n.Die, v)
	f.Value = v
	if m.Success.Op != "" && m.Success.Match(f) {
		return 1
	}
	if m.Failure.Op != "" && m.Failure.Match(f) {
		return -1
	}
	return 0
}

// mapDist sends each outcome of a through f.
func mapDist(a *Dist, f func(int) int) *Dist {
	lo, hi := math.MaxInt, math.MinInt
	for i, w := range a.W {
		if w.Sign() != 0 {
			v := f(a.Min + i)
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if lo > hi {
		return &Dist{W: []*big.Int{new(big.Int)}, Den: a.Den}
	}
	out := newDist(lo, hi-lo+1, a.Den)
	for i, w := range a.W {
		if w.Sign() != 0 {
			v := f(a.Min + i)
			out.W[v-lo].Add(out.W[v-lo], w)
		}
	}
	return out
}

// scale multiplies every weight and the denominator by k (to put two dists over one Den).
func scaled(a *Dist, k *big.Int) *Dist {
	out := &Dist{Min: a.Min, W: make([]*big.Int, len(a.W)), Den: new(big.Int).Mul(a.Den, k)}
	for i, w := range a.W {
		out.W[i] = new(big.Int).Mul(w, k)
	}
	return out
}

// mix is the weighted union of partial distributions that share a denominator.
func mix(parts ...*Dist) *Dist {
	lo, hi := math.MaxInt, math.MinInt
	for _, p := range parts {
		lo, hi = min(lo, p.Min), max(hi, p.Max())
	}
	out := newDist(lo, hi-lo+1, parts[0].Den)
	for _, p := range parts {
		for i, w := range p.W {
			out.W[p.Min+i-lo].Add(out.W[p.Min+i-lo], w)
		}
	}
	return out.trim()
}

// restrict keeps the outcomes whose face matches (or not) a condition.
func restrict(a *Dist, die *Die, c Cond, want bool) *Dist {
	out := &Dist{Min: a.Min, W: make([]*big.Int, len(a.W)), Den: a.Den}
	for i, w := range a.W {
		if c.Match(faceOf(die, a.Min+i)) == want {
			out.W[i] = w
		} else {
			out.W[i] = new(big.Int)
		}
	}
	return out
}

// dieDist is the distribution of what one die of the term contributes, explosions
// included: its value (sum), or its success count (counting).
func (wk *work) dieDist(n *Dice) (*Dist, error) {
	m := &n.Mods
	if m.ordered() {
		return wk.orderedDieDist(n)
	}
	f := faceDist(n)
	if m.Explode == ExplodeNone {
		if m.Min != nil || m.Max != nil || m.Success.Op != "" || m.Failure.Op != "" {
			return mapDist(f, func(v int) int { return score(n, clamp(m, v)) }), nil
		}
		return f, nil
	}
	// A later die of the chain: penetration subtracts one from its value (its face still
	// decides whether it explodes).
	pen := 0
	if m.Explode == ExplodePenetrate || m.Explode == ExplodeCompoundPenetrate {
		pen = -1
	}
	stop := restrict(f, n.Die, m.ExplodeOn, false)
	goOn := restrict(f, n.Die, m.ExplodeOn, true)
	limitedByRule := m.ExplodeMax > 0
	depth := m.ExplodeMax
	if !limitedByRule {
		var err error
		if depth, err = explodeDepth(n, goOn, goOn); err != nil {
			return nil, err
		}
	}
	// value of a chain element as it counts: compound sums raw values and clamps/scores
	// the total at the end; the other kinds score each die.
	compound := m.Explode == ExplodeCompound || m.Explode == ExplodeCompoundPenetrate
	perDie := func(v int) int {
		if compound {
			return v
		}
		return score(n, clamp(m, v))
	}
	// chain(k, first): contribution of a die that may explode k more times.
	var tail *Dist
	{
		last := f
		if !limitedByRule {
			last = stop // mass that would explode again is truncated (lost)
		}
		tail = mapDist(shiftDist(last, pen), perDie)
	}
	for k := depth - 1; k >= 0; k-- {
		shift := pen
		if k == 0 {
			shift = 0
		}
		s := mapDist(shiftDist(stop, shift), perDie)
		g := mapDist(shiftDist(goOn, shift), perDie)
		more, err := wk.add(g, tail)
		if err != nil {
			return nil, err
		}
		tail = mix(scaled(s, tail.Den), more)
	}
	if compound {
		tail = mapDist(tail, func(v int) int { return score(n, clamp(m, v)) })
	}
	if !limitedByRule {
		tail.Tail = chainTail(f, goOn, pen, depth, perDie)
		if compound && tail.Tail != nil {
			tail.Tail.Lo = clamp(m, tail.Tail.Lo) // clamping keeps the order
			if m.Success.Op != "" || m.Failure.Op != "" {
				tail = scoreCut(tail, m)
			}
		}
		// What every element adds is linear in the chain unless a compound total is clamped
		// or scored: then the mean of the whole chain, cut mass included, has a closed form.
		if !compound || m.Min == nil && m.Max == nil && m.Success.Op == "" && m.Failure.Op == "" {
			tail.Full = chainMean(f, goOn, goOn, pen, perDie)
		}
	}
	return tail, nil
}

// orderedDieDist is dieDist for a term combining two of min/max, explosion and reroll, in the
// order orderedDie rolls them: the first die clamped, the chain decided on that value and on
// each later raw face, then each die of the chain (or a compound chain's total) rerolled
// while its value matches, by an unclamped die.
func (wk *work) orderedDieDist(n *Dice) (*Dist, error) {
	m := &n.Mods
	saved := m.Reroll
	m.Reroll = Cond{}
	raw := faceDist(n)
	m.Reroll = saved
	// What a rerolled value becomes: a die rolled once (ro), or until it leaves the
	// condition (faceDist with the reroll).
	repl := raw
	if m.Reroll.Op != "" && !m.RerollOnce {
		repl = faceDist(n)
	}
	rer := func(x *Dist) *Dist {
		if m.Reroll.Op == "" {
			return x
		}
		keep := restrict(x, n.Die, m.Reroll, false)
		moved := new(big.Int).Sub(x.Mass(), keep.Mass())
		out := scaled(keep, repl.Den)
		parts := []*Dist{out}
		if moved.Sign() != 0 {
			parts = append(parts, scaled(repl, moved))
			parts[1].Den = out.Den
		}
		return mix(parts...)
	}
	compound := m.Explode == ExplodeCompound || m.Explode == ExplodeCompoundPenetrate
	// contrib is what one die of the chain adds once rerolled and scored; a compound chain
	// is rerolled and scored as a whole, at the end.
	contrib := func(x *Dist) *Dist {
		if compound {
			return x
		}
		return mapDist(rer(x), func(v int) int { return score(n, v) })
	}
	first := mapDist(raw, func(v int) int { return clamp(m, v) })
	if m.Explode == ExplodeNone {
		return mapDist(rer(first), func(v int) int { return score(n, v) }), nil
	}
	pen := 0
	if m.Explode == ExplodePenetrate || m.Explode == ExplodeCompoundPenetrate {
		pen = -1
	}
	stop0, go0 := restrict(first, n.Die, m.ExplodeOn, false), restrict(first, n.Die, m.ExplodeOn, true)
	stop := shiftDist(restrict(raw, n.Die, m.ExplodeOn, false), pen)
	goOn := shiftDist(restrict(raw, n.Die, m.ExplodeOn, true), pen)
	limitedByRule := m.ExplodeMax > 0
	depth := m.ExplodeMax
	if !limitedByRule {
		var err error
		if depth, err = explodeDepth(n, go0, restrict(raw, n.Die, m.ExplodeOn, true)); err != nil {
			return nil, err
		}
	}
	last := stop // what would explode again is cut
	if limitedByRule {
		last = shiftDist(raw, pen)
	}
	tail := contrib(last)
	step := func(s, g *Dist) error {
		more, err := wk.add(contrib(g), tail)
		if err != nil {
			return err
		}
		s = contrib(s)
		k := new(big.Int).Quo(more.Den, s.Den)
		tail = mix(scaled(s, k), more)
		return nil
	}
	for k := depth - 1; k >= 1; k-- {
		if err := step(stop, goOn); err != nil {
			return nil, err
		}
	}
	if err := step(stop0, go0); err != nil {
		return nil, err
	}
	if compound {
		tail = mapDist(rer(tail), func(v int) int { return score(n, v) })
		return tail, nil
	}
	if !limitedByRule {
		// Each die adds independently of how the chain goes on: the chain's mean is the first
		// die's plus p0·E[later]/(1 - p).
		p0 := new(big.Rat).SetFrac(go0.Mass(), go0.Den)
		p := new(big.Rat).SetFrac(goOn.Mass(), goOn.Den)
		rest := new(big.Rat).Sub(big.NewRat(1, 1), p)
		later := new(big.Rat).Mul(p0, distSum(contrib(shiftDist(raw, pen))))
		tail.Full = later.Quo(later, rest).Add(later, distSum(contrib(first)))
	}
	return tail, nil
}

// distSum is Σ v·P(v) over d's mass (its mean when nothing is cut).
func distSum(d *Dist) *big.Rat {
	s := new(big.Int)
	for i, w := range d.W {
		s.Add(s, new(big.Int).Mul(w, big.NewInt(int64(d.Min+i))))
	}
	return new(big.Rat).SetFrac(s, d.Den)
}

// ExplodeCutoff is the probability an exact distribution may leave out of an exploding die:
// its chains are followed until what would explode again weighs less than this.
const ExplodeCutoff = 1e-12

// MaxExactExplodeDepth bounds how many extra dice per exploding die an exact distribution
// follows; a die whose chains weigh ExplodeCutoff or more beyond it is refused.
const MaxExactExplodeDepth = MaxExplode

// explodeDepth is how many extra dice the chains of an exploding die must be followed to
// for the mass left beyond (the first die exploding, then every later one), over all the
// term's dice, to fall below ExplodeCutoff: the chance of exploding again sets it, 15 for a d6 exploding on 6, 152 on
// anything but 4 (one die). first and later are the parts of the first and later dice that explode.
func explodeDepth(n *Dice, first, later *Dist) (int, error) {
	p0, _ := new(big.Rat).SetFrac(first.Mass(), first.Den).Float64()
	p, _ := new(big.Rat).SetFrac(later.Mass(), later.Den).Float64()
	lost := p0
	// Each of the term's dice may lose its share: together they lose less than the cutoff.
	cut := ExplodeCutoff / float64(max(n.Count, 1))
	for k := 1; k <= MaxExactExplodeDepth; k++ {
		if lost *= p; lost < cut {
			return k, nil
		}
	}
	return 0, &Error{n.At + 1, fmt.Sprintf("%s: exact odds would leave out %.3g of the probability (the chains exploding beyond %d extra dice); they are computed only when less than %g is left out", n.Text, lost, MaxExactExplodeDepth, ExplodeCutoff)}
}

// chainMean is the exact mean of an exploding die's chain, every chain counted however long:
// the first die, then each later die present with probability p0·p^(i-1), so
// E = E[first] + p0·E[later]/(1-p) (the mean face over 1 - p for a plain exploding die).
// face is the distribution of a die's face, goOn0 and goOn the parts of it that make the
// first and a later die explode; each die adds perDie of its value (less one when
// penetrating, after the first).
func chainMean(face, goOn0, goOn *Dist, pen int, perDie func(int) int) *big.Rat {
	mean := func(d *Dist, shift int) *big.Rat {
		s := new(big.Int)
		for i, w := range d.W {
			if w.Sign() != 0 {
				s.Add(s, new(big.Int).Mul(w, big.NewInt(int64(perDie(d.Min+i+shift)))))
			}
		}
		return new(big.Rat).SetFrac(s, d.Den)
	}
	p0 := new(big.Rat).SetFrac(goOn0.Mass(), goOn0.Den)
	p := new(big.Rat).SetFrac(goOn.Mass(), goOn.Den)
	rest := new(big.Rat).Sub(big.NewRat(1, 1), p)
	if rest.Sign() == 0 {
		return nil
	}
	later := new(big.Rat).Mul(p0, mean(face, pen))
	later.Quo(later, rest)
	return later.Add(later, mean(face, 0))
}

// chainTail bounds the values of the chains of explosions cut after depth+1 dice that all
// exploded: the first die (unshifted), depth more shifted by pen, then any number of dice
// more, each counted by perDie. It is nil when the dice beyond could lower the sum.
func chainTail(f, goOn *Dist, pen, depth int, perDie func(int) int) *Tail {
	least := func(d *Dist, shift int) (int, bool) {
		lo, ok := 0, false
		for i, w := range d.W {
			if w.Sign() != 0 {
				v := perDie(d.Min + i + shift)
				if !ok || v < lo {
					lo, ok = v, true
				}
			}
		}
		return lo, ok
	}
	rest, ok1 := least(f, pen)
	first, ok2 := least(goOn, 0)
	later, ok3 := least(goOn, pen)
	if !ok1 || !ok2 || !ok3 || rest < 0 {
		return nil
	}
	return &Tail{Lo: first + depth*later, LoOK: true}
}

func shiftDist(a *Dist, k int) *Dist {
	if k == 0 {
		return a
	}
	out := *a
	out.Min += k
	if a.Tail != nil {
		t := *a.Tail
		t.Lo, t.Hi = t.Lo+k, t.Hi+k
		out.Tail = &t
	}
	return &out
}

// MaxExactSides bounds the dice whose exact odds are computed (rolling allows MaxSides).
const MaxExactSides = 100_000

func (wk *work) diceDist(n *Dice) (*Dist, error) {
	m := &n.Mods
	if len(n.Die.Faces) > MaxExactSides {
		return nil, &Error{n.At + 1, fmt.Sprintf("%s: exact odds are computed for dice of at most %d sides", n.Text, MaxExactSides)}
	}
	// A die's distribution is dense from its lowest face to its highest, so faces far apart
	// (d[1, 1000000000000], or a die made from a rule returning such values) would allocate
	// one weight per value between them: refused before, as any support over MaxOutcomes.
	if lo, hi, ok := faceSpan(n.Die); ok && uint64(hi)-uint64(lo) >= MaxOutcomes {
		return nil, &Error{n.At + 1, fmt.Sprintf("%s: exact odds are computed for dice whose faces span at most %d values (these run from %d to %d)", n.Text, MaxOutcomes, lo, hi)}
	}
	if err := wk.charge(len(n.Die.Faces) * 8); err != nil {
		return nil, err
	}
	counting := m.Success.Op != "" || m.Failure.Op != ""
	if n.Die.Symbolic && !counting {
		if n.Count != 1 || m.Keep != KeepAll || m.Explode != ExplodeNone {
			return nil, &Error{n.At + 1, fmt.Sprintf("%s: several symbolic dice have no single result; count a face, e.g. %d%s=%s",
				n.Text, n.Count, diceName(n.Die), n.Die.Faces[0].Sym)}
		}
		d := faceDist(n)
		d.Syms = n.Die.Symbols()
		return d, nil
	}
	if m.Unique {
		return uniqueDist(n)
	}
	if m.Keep != KeepAll {
		if m.Explode == ExplodeAdd || m.Explode == ExplodePenetrate {
			return nil, &Error{n.At + 1, fmt.Sprintf("%s: exact odds of keep/drop with dice added by explosions are not computed; use compound explosions (!!)", n.Text)}
		}
		per, err := wk.dieValueDist(n)
		if err != nil {
			return nil, err
		}
		var out *Dist
		if len(m.More) > 0 {
			out, err = windowDist(per, n)
		} else {
			out, err = wk.keepDist(per, n)
		}
		if err == nil && !counting {
			out.Tail = keepTail(per, n)
		}
		return out, err
	}
	per, err := wk.dieDist(n)
	if err != nil {
		return nil, err
	}
	return wk.sumN(per, n.Count)
}

func diceName(d *Die) string {
	if strings.HasPrefix(d.Name, "d") {
		return d.Name
	}
	return "d[" + d.Name + "]"
}

// dieValueDist is one die's final value (compound explosions and clamps applied), before
// scoring: what keep/drop sorts.
func (wk *work) dieValueDist(n *Dice) (*Dist, error) {
	saved := n.Mods
	n.Mods.Success, n.Mods.Failure = Cond{}, Cond{}
	defer func() { n.Mods = saved }()
	return wk.dieDist(n)
}

// uniqueDist enumerates the sets of distinct faces (every set equally likely) when there are
// few enough of them.
func uniqueDist(n *Dice) (*Dist, error) {
	m := &n.Mods
	if m.Reroll.Op != "" || m.Explode != ExplodeNone {
		return nil, &Error{n.At + 1, fmt.Sprintf("%s: exact odds of unique dice with rerolls or explosions are not computed", n.Text)}
	}
	distinct := map[Face]bool{}
	for _, f := range n.Die.Faces {
		distinct[f] = true
	}
	// Sets of distinct faces, each as likely, only when every die finds a new face among
	// faces that are all different; otherwise the sequences.
	if m.UniqueOn.Op != "" || m.UniqueOnce || len(distinct) < len(n.Die.Faces) || n.Count > len(n.Die.Faces) {
		return uniqueSeqDist(n)
	}
	sides := len(n.Die.Faces)
	if new(big.Int).Binomial(int64(sides), int64(n.Count)).Cmp(big.NewInt(2_000_000)) > 0 {
		return nil, &Error{n.At + 1, fmt.Sprintf("%s: too many combinations to enumerate", n.Text)}
	}
	acc := map[int]int64{}
	var total int64
	idx := make([]int, n.Count)
	vals := make([]int, n.Count)
	var rec func(start, depth int)
	rec = func(start, depth int) {
		if depth == n.Count {
			for i, f := range idx {
				vals[i] = clamp(m, n.Die.Faces[f].Value)
			}
			kept := keepMask(vals, m)
			s := 0
			for i, v := range vals {
				if kept == nil || kept[i] {
					s += score(n, v)
				}
			}
			acc[s]++
			total++
			return
		}
		for f := start; f < sides; f++ {
			idx[depth] = f
			rec(f+1, depth+1)
		}
	}
	rec(0, 0)
	lo, hi := math.MaxInt, math.MinInt
	for v := range acc {
		lo, hi = min(lo, v), max(hi, v)
	}
	out := newDist(lo, hi-lo+1, big.NewInt(total))
	for v, c := range acc {
		out.W[v-lo].SetInt64(c)
	}
	return out, nil
}

// groupDist handles {a, b, …}: a sum, success counting, or keep/drop over items (by
// enumerating the items' joint outcomes when they are few).
func (wk *work) groupDist(g *Group) (*Dist, error) {
	items := make([]*Dist, len(g.Items))
	for i, it := range g.Items {
		d, err := wk.dist(it)
		if err != nil {
			return nil, err
		}
		items[i] = d
	}
	m := &g.Mods
	counting := m.Success.Op != "" || m.Failure.Op != ""
	itemScore := func(v int) int {
		if !counting {
			return v
		}
		f := Face{Value: v}
		if m.Success.Op != "" && m.Success.Match(f) {
			return 1
		}
		if m.Failure.Op != "" && m.Failure.Match(f) {
			return -1
		}
		return 0
	}
	if m.Keep == KeepAll {
		acc := Point(0)
		for _, d := range items {
			if counting {
				d = mapDist(d, itemScore)
			}
			var err error
			if acc, err = wk.add(acc, d); err != nil {
				return nil, err
			}
		}
		return acc, nil
	}
	// An item whose cut mass is bounded below joins the enumeration as one more value, its
	// least, weighing that mass (unless the group counts successes). The kept sum grows with
	// every item, so when the sum is the same with the cut items at their least and with them
	// above everything else (and dropped there), it is exactly that sum; otherwise the
	// least is a lower bound of the mass left cut.
	cutW := make([]*big.Int, len(items))
	known := true
	for i, d := range items {
		if !d.truncated() {
			continue
		}
		if counting || d.Tail == nil || !d.Tail.LoOK {
			known = false
			continue
		}
		cutW[i] = new(big.Int).Sub(d.Den, d.Mass())
	}
	combos := 1
	for i, d := range items {
		n := len(d.W)
		if cutW[i] != nil {
			n++
		}
		combos *= n
		if combos > MaxPairs {
			return nil, &Error{g.At + 1, "too many combinations to compute the group exactly"}
		}
	}
	den := big.NewInt(1)
	for _, d := range items {
		den.Mul(den, d.Den)
	}
	acc := map[int]*big.Int{}
	vals := make([]int, len(items))
	isCut := make([]bool, len(items))
	high := make([]int, len(items))
	var tail *Tail
	keptSum := func(vs []int) (int, []bool) {
		kept := keepMask(vs, m)
		s := 0
		for k, v := range vs {
			if kept[k] {
				s += itemScore(v)
			}
		}
		return s, kept
	}
	var rec func(i int, w *big.Int, cut bool)
	rec = func(i int, w *big.Int, cut bool) {
		if i == len(items) {
			s, _ := keptSum(vals)
			if cut {
				top := math.MinInt
				for _, v := range vals {
					top = max(top, v)
				}
				for k, v := range vals {
					high[k] = v
					if isCut[k] {
						high[k] = top + 1
					}
				}
				sHigh, kept := keptSum(high)
				decided := sHigh == s
				for k := range kept {
					decided = decided && !(kept[k] && isCut[k])
				}
				if !decided {
					if tail == nil {
						tail = &Tail{Lo: s, LoOK: true}
					}
					tail.Lo = min(tail.Lo, s)
					return
				}
			}
			if acc[s] == nil {
				acc[s] = new(big.Int)
			}
			acc[s].Add(acc[s], w)
			return
		}
		isCut[i] = false
		for j, x := range items[i].W {
			if x.Sign() == 0 {
				continue
			}
			vals[i] = items[i].Min + j
			rec(i+1, new(big.Int).Mul(w, x), cut)
		}
		if cutW[i] != nil {
			vals[i], isCut[i] = items[i].Tail.Lo, true
			rec(i+1, new(big.Int).Mul(w, cutW[i]), true)
			isCut[i] = false
		}
	}
	rec(0, big.NewInt(1), false)
	lo, hi := math.MaxInt, math.MinInt
	for v := range acc {
		lo, hi = min(lo, v), max(hi, v)
	}
	out := newDist(lo, hi-lo+1, den)
	for v, w := range acc {
		out.W[v-lo] = w
	}
	if known && out.truncated() {
		out.Tail = tail
	}
	return out, nil
}

// callDist is the distribution of a function of the notation (see Call).
func (wk *work) callDist(n *Call) (*Dist, error) {
	noSyms := func(d *Dist) error {
		if d.Syms != nil {
			return &Error{n.At + 1, "faces with names have no number for " + n.Name}
		}
		return nil
	}
	if rounding(n.Name) {
		if a, ok := n.Args[0].(*Call); ok && a.Name == "sqrt" {
			x, err := wk.dist(a.Args[0])
			if err != nil {
				return nil, err
			}
			if err := noSyms(x); err != nil {
				return nil, err
			}
			if x.Min < 0 {
				return nil, &Error{a.At + 1, "sqrt of a value that can be negative"}
			}
			return mapDist(x, func(v int) int { s, _ := sqrtRound(n.Name, v); return s }), nil
		}
		rd, err := wk.ratDist(n.Args[0])
		if err != nil {
			return nil, err
		}
		acc := map[int]*big.Int{}
		lo, hi := math.MaxInt, math.MinInt
		for k, v := range rd.vals {
			q, err := roundRat(n.Name, v)
			if err != nil {
				return nil, &Error{n.At + 1, err.Error()}
			}
			if acc[q] == nil {
				acc[q] = new(big.Int)
			}
			acc[q].Add(acc[q], rd.w[k])
			lo, hi = min(lo, q), max(hi, q)
		}
		if len(acc) == 0 {
			return &Dist{W: []*big.Int{new(big.Int)}, Den: rd.den}, nil
		}
		if hi-lo+1 > MaxOutcomes {
			return nil, fmt.Errorf("more than %d possible results", MaxOutcomes)
		}
		out := newDist(lo, hi-lo+1, rd.den)
		for v, w := range acc {
			out.W[v-lo] = w
		}
		out.Tail = rd.tail.round(n.Name)
		return out, nil
	}
	d, err := wk.dist(n.Args[0])
	if err != nil {
		return nil, err
	}
	if err := noSyms(d); err != nil {
		return nil, err
	}
	for _, a := range n.Args[1:] {
		e, err := wk.dist(a)
		if err != nil {
			return nil, err
		}
		if err := noSyms(e); err != nil {
			return nil, err
		}
		if d, err = wk.combine(d, e, func(u, v int) (int, bool) { return apply1(n.Name, u, v), true }); err != nil {
			return nil, err
		}
	}
	if n.Name == "abs" {
		d = mapDist(d, func(v int) int { return max(v, -v) })
	}
	return d, nil
}

// maxUniqueSequences bounds the sequences of faces uniqueSeqDist follows.
const maxUniqueSequences = 200_000

// uniqueSeqDist follows every sequence of faces, die after die, when only some repeats are
// rerolled (u=5) or a repeat is rerolled once (uo): the sets of faces are then not equally
// likely. A die whose face repeats an earlier one (and matches the condition) is rerolled:
// until it does not (u), so it is uniform over the faces allowed; or once (uo), so a face f
// comes first and is kept, or comes after a repeat.
func uniqueSeqDist(n *Dice) (*Dist, error) {
	m := &n.Mods
	faces := n.Die.Faces
	sides := len(faces)
	if math.Pow(float64(sides), float64(n.Count)) > maxUniqueSequences {
		return nil, &Error{n.At + 1, fmt.Sprintf("%s: too many sequences of faces to enumerate", n.Text)}
	}
	repeat := func(prev []int, f int) bool {
		if m.UniqueOn.Op != "" && !m.UniqueOn.Match(faces[f]) {
			return false
		}
		for _, p := range prev {
			if faces[p] == faces[f] {
				return true
			}
		}
		return false
	}
	acc := map[int]*big.Rat{}
	idx := make([]int, 0, n.Count)
	vals := make([]int, n.Count)
	var rec func(w *big.Rat)
	rec = func(w *big.Rat) {
		k := len(idx)
		if k == n.Count {
			for i, f := range idx {
				vals[i] = faces[f].Value
			}
			kept := keepMask(vals, m)
			s := 0
			for i, v := range vals {
				if kept == nil || kept[i] {
					s += score(n, v)
				}
			}
			if acc[s] == nil {
				acc[s] = new(big.Rat)
			}
			acc[s].Add(acc[s], w)
			return
		}
		reps := 0
		for f := range sides {
			if repeat(idx, f) {
				reps++
			}
		}
		for f := range sides {
			var p *big.Rat
			switch {
			case !m.UniqueOnce && reps == sides:
				p = big.NewRat(1, int64(sides)) // no new face is left: the die stays as rolled
			case !m.UniqueOnce && repeat(idx, f):
				continue
			case !m.UniqueOnce:
				p = big.NewRat(1, int64(sides-reps))
			case repeat(idx, f):
				p = big.NewRat(int64(reps), int64(sides*sides))
			default:
				p = big.NewRat(int64(sides+reps), int64(sides*sides))
			}
			idx = append(idx, f)
			rec(new(big.Rat).Mul(w, p))
			idx = idx[:k]
		}
	}
	rec(big.NewRat(1, 1))
	lo, hi := math.MaxInt, math.MinInt
	den := big.NewInt(1)
	for v, p := range acc {
		lo, hi = min(lo, v), max(hi, v)
		den.Mul(den, new(big.Int).Div(p.Denom(), new(big.Int).GCD(nil, nil, den, p.Denom())))
	}
	out := newDist(lo, hi-lo+1, den)
	for v, p := range acc {
		w := new(big.Int).Mul(p.Num(), new(big.Int).Div(den, p.Denom()))
		out.W[v-lo].Set(w)
	}
	return out, nil
}

// maxWindowRolls bounds the rolls windowDist enumerates.
const maxWindowRolls = 2_000_000

// windowDist is the distribution of several keep/drop steps (4d6dl1dh1) by enumerating the
// sorted rolls (multisets of values, each weighted by its orderings) when they are few.
func windowDist(per *Dist, n *Dice) (*Dist, error) {
	var vals []int
	var ws []*big.Int
	for i, w := range per.W {
		if w.Sign() != 0 {
			vals = append(vals, per.Min+i)
			ws = append(ws, w)
		}
	}
	if new(big.Int).Binomial(int64(len(vals)+n.Count-1), int64(n.Count)).Cmp(big.NewInt(maxWindowRolls)) > 0 {
		return nil, &Error{n.At + 1, fmt.Sprintf("%s: exact odds of several keep/drop are computed for at most %d sorted rolls", n.Text, maxWindowRolls)}
	}
	m := &n.Mods
	acc := map[int]*big.Int{}
	cur := make([]int, 0, n.Count)
	fact := func(k int) *big.Int { return new(big.Int).MulRange(1, int64(max(k, 1))) }
	var rec func(start int, w *big.Int, mult []int)
	rec = func(start int, w *big.Int, mult []int) {
		if len(cur) == n.Count {
			// orderings: count! / prod(mult!)
			o := fact(n.Count)
			for _, c := range mult {
				o.Div(o, fact(c))
			}
			mask := windowMask(cur, m)
			t := 0
			for i, v := range cur {
				if mask[i] {
					t += score(n, v)
				}
			}
			if acc[t] == nil {
				acc[t] = new(big.Int)
			}
			acc[t].Add(acc[t], o.Mul(o, w))
			return
		}
		for i := start; i < len(vals); i++ {
			cur = append(cur, vals[i])
			mult[i]++
			rec(i, new(big.Int).Mul(w, ws[i]), mult)
			mult[i]--
			cur = cur[:len(cur)-1]
		}
	}
	rec(0, big.NewInt(1), make([]int, len(vals)))
	lo, hi := math.MaxInt, math.MinInt
	for v := range acc {
		lo, hi = min(lo, v), max(hi, v)
	}
	out := newDist(lo, hi-lo+1, new(big.Int).Exp(per.Den, big.NewInt(int64(n.Count)), nil))
	for v, w := range acc {
		out.W[v-lo].Set(w)
	}
	return out, nil
}

// fracDist is a distribution over fractions: the argument of a rounding function.
type fracDist struct {
	vals []*big.Rat
	w    []*big.Int
	den  *big.Int
	tail *ratTail // bounds of the truncated mass, as Dist.Tail
}

// ratDist is the distribution of the argument of a rounding function, over fractions (see
// Roller.evalRat).
func (wk *work) ratDist(n Node) (*fracDist, error) {
	switch n := n.(type) {
	case *Dec:
		return &fracDist{vals: []*big.Rat{n.R}, w: []*big.Int{big.NewInt(1)}, den: big.NewInt(1)}, nil
	case *Dice:
		if n.Mods.fracClamp() {
			return wk.fracDiceDist(n)
		}
	case *Neg:
		x, err := wk.ratDist(n.X)
		if err != nil {
			return nil, err
		}
		out := &fracDist{w: x.w, den: x.den, tail: x.tail.scale(big.NewRat(-1, 1), '*')}
		for _, v := range x.vals {
			out.vals = append(out.vals, new(big.Rat).Neg(v))
		}
		return out, nil
	case *Bin:
		if n.Op != '%' {
			x, err := wk.ratDist(n.L)
			if err != nil {
				return nil, err
			}
			var y *fracDist
			if n.Op == '^' {
				d, err := wk.dist(n.R)
				if err != nil {
					return nil, err
				}
				y = fracOf(d)
			} else if y, err = wk.ratDist(n.R); err != nil {
				return nil, err
			}
			return wk.fracCombine(n, x, y)
		}
	}
	d, err := wk.dist(n)
	if err != nil {
		return nil, err
	}
	if d.Syms != nil {
		return nil, &Error{n.pos() + 1, "faces with names have no number"}
	}
	return fracOf(d), nil
}

func fracOf(d *Dist) *fracDist {
	out := &fracDist{den: d.Den, tail: ratTailOf(d.Tail)}
	for i, w := range d.W {
		if w.Sign() != 0 {
			out.vals = append(out.vals, new(big.Rat).SetInt64(int64(d.Min+i)))
			out.w = append(out.w, w)
		}
	}
	return out
}

// fracDiceDist is the distribution of a term clamped to a decimal: one die's values through
// the clamp, summed Count times.
func (wk *work) fracDiceDist(n *Dice) (*fracDist, error) {
	one := &fracDist{den: big.NewInt(int64(len(n.Die.Faces)))}
	index := map[string]int{}
	for _, f := range n.Die.Faces {
		x := fracClamped(&n.Mods, f.Value)
		if i, ok := index[x.String()]; ok {
			one.w[i].Add(one.w[i], big.NewInt(1))
			continue
		}
		index[x.String()] = len(one.vals)
		one.vals = append(one.vals, x)
		one.w = append(one.w, big.NewInt(1))
	}
	plus := &Bin{At: n.At, Op: '+'}
	out := one
	for k := 1; k < n.Count; k++ {
		var err error
		if out, err = wk.fracCombine(plus, out, one); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// fracCombine applies a binary node to every pair of outcomes; a pair that fails (a division
// by zero, a negative power) is an error, as when rolled.
func (wk *work) fracCombine(n *Bin, x, y *fracDist) (*fracDist, error) {
	if len(x.vals)*len(y.vals) > MaxPairs {
		return nil, fmt.Errorf("more than %d pairs of results to combine", MaxPairs)
	}
	if err := wk.charge(len(x.vals) * len(y.vals) * (bigOpCost + 4)); err != nil {
		return nil, err
	}
	index := map[string]int{}
	out := &fracDist{den: new(big.Int).Mul(x.den, y.den)}
	for i, a := range x.vals {
		for j, b := range y.vals {
			var v *big.Rat
			var err error
			if n.Op == '^' {
				v, err = ratPow(a, int(b.Num().Int64()))
			} else {
				v, err = ratArith(n.Op, a, b)
			}
			if err != nil {
				return nil, &Error{n.At + 1, err.Error()}
			}
			key := v.RatString()
			k, ok := index[key]
			if !ok {
				k = len(out.vals)
				index[key] = k
				out.vals = append(out.vals, v)
				out.w = append(out.w, new(big.Int))
			}
			out.w[k].Add(out.w[k], new(big.Int).Mul(x.w[i], y.w[j]))
		}
	}
	if k, ok := y.constant(); ok && (n.Op == '*' || n.Op == '/') {
		out.tail = x.tail.scale(k, n.Op)
	} else if k, ok := x.constant(); ok && n.Op == '*' {
		out.tail = y.tail.scale(k, n.Op)
	}
	return out, nil
}
