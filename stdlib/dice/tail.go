package dice

import "math/big"

// Tail bounds the values of a distribution's truncated mass: the chains of explosions cut
// once what is left beyond weighs less than ExplodeCutoff. A comparison whose outcome is the same for every value in the bounds
// decides that mass, so `{1d8!, 1d6!}kh1 >= 4` is exactly 13/16 although the sums of the
// explosions are cut. A Dist whose Tail is nil says nothing of its truncated mass (if any).
type Tail struct {
	Lo, Hi     int
	LoOK, HiOK bool // whether Lo and Hi bound the truncated values (else unbounded)
}

// truncated reports whether some of d's mass was cut.
func (d *Dist) truncated() bool { return d.Mass().Cmp(d.Den) != 0 }

// fullLo is the least value d can take, truncated mass included; ok is false when unknown.
func (d *Dist) fullLo() (int, bool) {
	if d.Tail == nil {
		return d.Min, !d.truncated()
	}
	if !d.Tail.LoOK {
		return 0, false
	}
	return min(d.Min, d.Tail.Lo), true
}

// fullHi is the greatest value d can take, truncated mass included; ok is false when unknown.
func (d *Dist) fullHi() (int, bool) {
	if d.Tail == nil {
		return d.Max(), !d.truncated()
	}
	if !d.Tail.HiOK {
		return 0, false
	}
	return max(d.Max(), d.Tail.Hi), true
}

// addTail bounds the truncated mass of a+b: a's cut with any b, or b's cut with a's rest.
func addTail(a, b *Dist) *Tail {
	if a.Tail == nil && b.Tail == nil {
		return nil
	}
	at, bt := a.Tail, b.Tail
	if at == nil && a.truncated() || bt == nil && b.truncated() {
		return nil
	}
	t := &Tail{LoOK: true, HiOK: true}
	first := true
	side := func(cut *Tail, other *Dist) {
		lo, lok := other.fullLo()
		hi, hok := other.fullHi()
		l, h := cut.Lo+lo, cut.Hi+hi
		lok, hok = lok && cut.LoOK, hok && cut.HiOK
		if first {
			t.Lo, t.Hi, t.LoOK, t.HiOK = l, h, lok, hok
			first = false
			return
		}
		t.Lo, t.Hi = min(t.Lo, l), max(t.Hi, h)
		t.LoOK, t.HiOK = t.LoOK && lok, t.HiOK && hok
	}
	if at != nil {
		side(at, b)
	}
	if bt != nil {
		side(bt, a)
	}
	return t
}

// negTail bounds the truncated mass of -a.
func negTail(t *Tail) *Tail {
	if t == nil {
		return nil
	}
	return &Tail{Lo: -t.Hi, Hi: -t.Lo, LoOK: t.HiOK, HiOK: t.LoOK}
}

// sumTail bounds the truncated mass of n copies of a: one of them is cut, the others are
// anything.
func sumTail(a *Dist, n int) *Tail {
	if a.Tail == nil || n < 1 {
		return nil
	}
	lo, lok := a.fullLo()
	hi, hok := a.fullHi()
	t := *a.Tail
	t.Lo += (n - 1) * lo
	t.Hi += (n - 1) * hi
	t.LoOK, t.HiOK = t.LoOK && lok, t.HiOK && hok
	return &t
}

// constant reports the value of a distribution that is one value with nothing cut.
func constant(d *Dist) (int, bool) {
	if len(d.W) != 1 || d.truncated() || d.W[0].Sign() == 0 {
		return 0, false
	}
	return d.Min, true
}

// scaleTail bounds the truncated mass of a*b, b*a or a/b when one side is a constant c and
// the other has bounds: x*c and x/c (rounded down) keep the order of x when c > 0 and reverse
// it when c < 0, so the bounds go through them; x*0 is 0.
func scaleTail(op byte, a, b *Dist) *Tail {
	x := a
	k, ok := constant(b)
	if !ok && op == '*' {
		x = b
		k, ok = constant(a)
	}
	if !ok || x.Tail == nil || op != '*' && op != '/' || op == '/' && k == 0 {
		return nil
	}
	if op == '*' && k == 0 {
		return &Tail{LoOK: true, HiOK: true}
	}
	t := &Tail{}
	through := func(v int) (int, bool) {
		r, err := arith(op, v, k)
		return r, err == nil
	}
	if x.Tail.LoOK {
		t.Lo, t.LoOK = through(x.Tail.Lo)
	}
	if x.Tail.HiOK {
		t.Hi, t.HiOK = through(x.Tail.Hi)
	}
	if k < 0 {
		t.Lo, t.Hi, t.LoOK, t.HiOK = t.Hi, t.Lo, t.HiOK, t.LoOK
	}
	return t
}

// decide gives the truncated mass of diff to the side of a comparison (diff op 0) every
// value in its bounds falls on, making the comparison exact; it leaves it cut otherwise.
func decide(out, diff *Dist, op string) {
	t := diff.Tail
	if t == nil || !diff.truncated() {
		return
	}
	var side int
	switch {
	case t.LoOK && t.HiOK:
		a, b := compare(op, t.Lo, 0), compare(op, t.Hi, 0)
		if a != b || op == "==" && t.Lo < 0 && t.Hi > 0 || op == "!=" && t.Lo < 0 && t.Hi > 0 {
			return
		}
		side = b2i(a)
	case t.LoOK && t.Lo > 0:
		// Everything above a positive bound: only the ordering comparisons and (in)equality
		// against 0 decide it, and each decides it the same way for every value.
		side = b2i(compare(op, t.Lo, 0))
	case t.HiOK && t.Hi < 0:
		side = b2i(compare(op, t.Hi, 0))
	default:
		return
	}
	lost := new(big.Int).Sub(diff.Den, diff.Mass())
	out.W[side].Add(out.W[side], lost)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ratTail is a Tail over fractions (the argument of a rounding function): nil bounds are
// unknown.
type ratTail struct{ lo, hi *big.Rat }

func ratTailOf(t *Tail) *ratTail {
	if t == nil {
		return nil
	}
	out := &ratTail{}
	if t.LoOK {
		out.lo = big.NewRat(int64(t.Lo), 1)
	}
	if t.HiOK {
		out.hi = big.NewRat(int64(t.Hi), 1)
	}
	return out
}

// constant reports the value of a fracDist that is one value with nothing cut.
func (f *fracDist) constant() (*big.Rat, bool) {
	if len(f.vals) != 1 || f.w[0].Cmp(f.den) != 0 {
		return nil, false
	}
	return f.vals[0], true
}

// scale bounds x*k or x/k (k ≠ 0 for /): the order of x is kept when k > 0, reversed when
// k < 0; x*0 is 0.
func (t *ratTail) scale(k *big.Rat, op byte) *ratTail {
	if t == nil || op == '/' && k.Sign() == 0 {
		return nil
	}
	if op == '*' && k.Sign() == 0 {
		return &ratTail{lo: new(big.Rat), hi: new(big.Rat)}
	}
	f := new(big.Rat).Set(k)
	if op == '/' {
		f.Inv(f)
	}
	through := func(v *big.Rat) *big.Rat {
		if v == nil {
			return nil
		}
		return new(big.Rat).Mul(v, f)
	}
	out := &ratTail{lo: through(t.lo), hi: through(t.hi)}
	if f.Sign() < 0 {
		out.lo, out.hi = out.hi, out.lo
	}
	return out
}

// round bounds floor, ceil or round of the truncated mass: each keeps the order.
func (t *ratTail) round(name string) *Tail {
	if t == nil {
		return nil
	}
	out := &Tail{}
	var err error
	if t.lo != nil {
		if out.Lo, err = roundRat(name, t.lo); err == nil {
			out.LoOK = true
		}
	}
	if t.hi != nil {
		if out.Hi, err = roundRat(name, t.hi); err == nil {
			out.HiOK = true
		}
	}
	return out
}

// scoreCut gives the cut chains of a compound die that counts successes their score when
// it is the same for every value they can take (at least their bound, at most the clamp),
// making the die exact; it leaves them cut (with nothing known of their score) otherwise.
func scoreCut(d *Dist, m *Mods) *Dist {
	lo := d.Tail.Lo
	hi, bounded := 0, m.Max != nil
	if bounded {
		hi = *m.Max
	}
	d.Tail = nil
	s := 0
	for _, c := range []struct {
		cond Cond
		v    int
	}{{m.Success, 1}, {m.Failure, -1}} {
		if c.cond.Op == "" {
			continue
		}
		match, ok := condOn(c.cond, lo, hi, bounded)
		if !ok {
			return d
		}
		if match && s == 0 {
			s = c.v
		}
	}
	lost := new(big.Int).Sub(d.Den, d.Mass())
	if lost.Sign() == 0 {
		return d
	}
	lo2, hi2 := min(d.Min, s), max(d.Max(), s)
	out := newDist(lo2, hi2-lo2+1, d.Den)
	for i, w := range d.W {
		out.W[d.Min+i-lo2].Set(w)
	}
	out.W[s-lo2].Add(out.W[s-lo2], lost)
	return out
}

// condOn reports whether a condition on values holds for every value from lo up to hi (or
// up without end when not bounded), or for none; ok is false when it holds for some only.
func condOn(c Cond, lo, hi int, bounded bool) (match, ok bool) {
	if c.Sym != "" {
		return false, false
	}
	at := func(v int) bool { return c.Match(Face{Value: v}) }
	switch c.Op {
	case "=", "!=":
		in := c.N >= lo && (!bounded || c.N <= hi)
		if !in {
			return c.Op == "!=", true
		}
		if bounded && lo == hi {
			return at(lo), true
		}
		return false, false
	}
	top := c.Op == ">" || c.Op == ">=" // what holds far up
	if bounded {
		top = at(hi)
	}
	return top, at(lo) == top
}

// keepTail bounds below the truncated mass of keep/drop over n.Count dice distributed as
// per: some die was cut, at least per's bound, and the others are at least per's least
// value. Every kept sum grows with each die, so it is at least the kept sum of those.
func keepTail(per *Dist, n *Dice) *Tail {
	if per.Tail == nil || !per.Tail.LoOK || n.Count < 1 {
		return nil
	}
	least, _ := per.fullLo()
	vals := make([]int, n.Count)
	for i := range vals {
		vals[i] = least
	}
	vals[0] = per.Tail.Lo
	t := &Tail{LoOK: true}
	for i, kept := range keepMask(vals, &n.Mods) {
		if kept {
			t.Lo += vals[i]
		}
	}
	return t
}
