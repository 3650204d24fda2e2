package dice

import (
	"fmt"
	"math/big"
)

// Pool is a group of one item that sums several dice terms, `{4d10+5d6}k2`, with keep/drop or
// success counting: as in rpg-dice-roller, they apply to the dice of all its terms together
// (keep the two highest of the nine dice), and the item is then added up as written, each
// term giving its kept dice (or their count of successes) with its sign, constants included
// (`{3d20+5}>40` is the number of d20s above 40, plus 5). Ties keep the die written first.
type Pool struct {
	At    int
	Terms []PoolTerm
	Const int
	Mods  Mods
	Text  string
}

// PoolTerm is one dice term of a Pool and the sign it is added with.
type PoolTerm struct {
	Dice *Dice
	Sign int
}

func (n *Pool) pos() int       { return n.At }
func (n *Pool) String() string { return n.Text }

// MaxPoolStates bounds the exact distribution of a Pool: the combinations of how many dice of
// each term are still to place, times the dice kept.
const MaxPoolStates = 100_000

// poolOf reads the item of a one-item group as a pool: dice terms without modifiers of their
// own and whole numbers, added and subtracted. ok is false when it is not one.
func poolOf(n Node, sign int, pl *Pool) bool {
	switch n := n.(type) {
	case *Num:
		pl.Const += sign * n.V
		return true
	case *Dice:
		if m := n.Mods; m.Keep != KeepAll || len(m.More) > 0 || m.Explode != ExplodeNone || m.Reroll.Op != "" ||
			m.Min != nil || m.Max != nil || m.fracClamp() || m.Unique || m.Success.Op != "" || m.Failure.Op != "" || m.display() || n.Die.Symbolic {
			return false
		}
		pl.Terms = append(pl.Terms, PoolTerm{Dice: n, Sign: sign})
		return true
	case *Neg:
		return poolOf(n.X, -sign, pl)
	case *Bin:
		if n.Op != '+' && n.Op != '-' {
			return false
		}
		rs := sign
		if n.Op == '-' {
			rs = -sign
		}
		return poolOf(n.L, sign, pl) && poolOf(n.R, rs, pl)
	}
	return false
}

// dice is the number of dice of the pool.
func (n *Pool) dice() int {
	c := 0
	for _, t := range n.Terms {
		c += t.Dice.Count
	}
	return c
}

// pool rolls a Pool: every die of its terms, then keep/drop and counting over all of them.
func (r *Roller) pool(n *Pool) (int, error) {
	m := &n.Mods
	var vals, signs []int
	for _, t := range n.Terms {
		for k := 0; k < t.Dice.Count; k++ {
			i, err := r.face(t.Dice.Die)
			if err != nil {
				return 0, err
			}
			vals = append(vals, t.Dice.Die.Faces[i-1].Value)
			signs = append(signs, t.Sign)
		}
	}
	kept := keepMask(vals, m)
	counting := m.Success.Op != "" || m.Failure.Op != ""
	var rec *TermRoll
	if r.rec != nil {
		r.rec.Terms = append(r.rec.Terms, TermRoll{Text: n.Text, Counting: counting})
		rec = &r.rec.Terms[len(r.rec.Terms)-1]
	}
	total := n.Const
	for i, v := range vals {
		dr := DieRoll{Face: Face{Value: v}, Value: v, Dropped: kept != nil && !kept[i]}
		if !dr.Dropped {
			s := v
			if counting {
				s = score(&Dice{Mods: *m, Die: &Die{Standard: true}}, v)
				dr.Success, dr.Failure = s > 0, s < 0
			}
			total += signs[i] * s
		}
		if rec != nil {
			rec.Dice = append(rec.Dice, dr)
		}
	}
	if rec != nil {
		rec.Total = total
	}
	return total, nil
}

// poolDist is the exact distribution of a Pool, by a count over the values from the kept end:
// at each value, how many of each term's remaining dice show it (C(r, a)·faces^a ways), the
// first terms' dice kept first on a tie, as keepMask keeps them. The state is the dice still
// to place per term, the number kept and the sum.
func (wk *work) poolDist(n *Pool) (*Dist, error) {
	m := &n.Mods
	if len(m.More) > 0 {
		return nil, &Error{n.At + 1, fmt.Sprintf("%s: exact odds of several keep/drop steps over a pool are not computed", n.Text)}
	}
	total := n.dice()
	k, high := total, true
	switch m.Keep {
	case KeepHigh:
		k = m.KeepN
	case KeepLow:
		k, high = m.KeepN, false
	case DropLow:
		k = total - m.KeepN
	case DropHigh:
		k, high = total-m.KeepN, false
	}
	k = max(0, min(k, total))
	radix := make([]int, len(n.Terms))
	states := k + 1
	for i, t := range n.Terms {
		radix[i] = t.Dice.Count + 1
		states *= radix[i]
		if states > MaxPoolStates {
			return nil, &Error{n.At + 1, fmt.Sprintf("%s: too many dice to combine exactly", n.Text)}
		}
	}
	// The values any die can show, from the kept end.
	seen := map[int]bool{}
	var levels []int
	for _, t := range n.Terms {
		for _, f := range t.Dice.Die.Faces {
			if !seen[f.Value] {
				seen[f.Value] = true
				levels = append(levels, f.Value)
			}
		}
	}
	sortInts(levels, high)
	counting := m.Success.Op != "" || m.Failure.Op != ""
	scoreOf := func(v int) int {
		if counting {
			return score(&Dice{Mods: *m, Die: &Die{Standard: true}}, v)
		}
		return v
	}
	type key struct{ rest, kept, sum int }
	start := 0
	for i := range n.Terms {
		start = start*radix[i] + n.Terms[i].Dice.Count
	}
	cur := map[key]*big.Int{{start, 0, 0}: big.NewInt(1)}
	decode := func(code int) []int {
		r := make([]int, len(radix))
		for i := len(radix) - 1; i >= 0; i-- {
			r[i] = code % radix[i]
			code /= radix[i]
		}
		return r
	}
	encode := func(r []int) int {
		c := 0
		for i := range r {
			c = c*radix[i] + r[i]
		}
		return c
	}
	for _, v := range levels {
		ways := make([]int64, len(n.Terms))
		for i, t := range n.Terms {
			for _, f := range t.Dice.Die.Faces {
				if f.Value == v {
					ways[i]++
				}
			}
		}
		next := map[key]*big.Int{}
		for st, w := range cur {
			rest := decode(st.rest)
			a := make([]int, len(rest))
			var walk func(i int, mult *big.Int) error
			walk = func(i int, mult *big.Int) error {
				if i == len(rest) {
					r2 := make([]int, len(rest))
					kept, sum := st.kept, st.sum
					for j := range rest {
						r2[j] = rest[j] - a[j]
						take := min(a[j], k-kept)
						kept += take
						sum += n.Terms[j].Sign * take * scoreOf(v)
					}
					nk := key{encode(r2), kept, sum}
					x := new(big.Int).Mul(w, mult)
					if old := next[nk]; old != nil {
						old.Add(old, x)
					} else {
						next[nk] = x
					}
					return wk.charge(len(rest) + 8)
				}
				for c := 0; c <= rest[i]; c++ {
					if c > 0 && ways[i] == 0 {
						break
					}
					a[i] = c
					f := new(big.Int).Binomial(int64(rest[i]), int64(c))
					f.Mul(f, new(big.Int).Exp(big.NewInt(ways[i]), big.NewInt(int64(c)), nil))
					if err := walk(i+1, f.Mul(f, mult)); err != nil {
						return err
					}
				}
				return nil
			}
			if err := walk(0, big.NewInt(1)); err != nil {
				return nil, err
			}
		}
		cur = next
	}
	den := big.NewInt(1)
	for _, t := range n.Terms {
		den.Mul(den, new(big.Int).Exp(big.NewInt(int64(len(t.Dice.Die.Faces))), big.NewInt(int64(t.Dice.Count)), nil))
	}
	lo, hi := 0, 0
	first := true
	for st := range cur {
		if st.rest != 0 {
			continue
		}
		if first || st.sum < lo {
			lo = st.sum
		}
		if first || st.sum > hi {
			hi = st.sum
		}
		first = false
	}
	out := newDist(lo+n.Const, hi-lo+1, den)
	for st, w := range cur {
		if st.rest == 0 {
			out.W[st.sum-lo].Add(out.W[st.sum-lo], w)
		}
	}
	return out.trim(), nil
}

// sortInts sorts xs descending (high) or ascending.
func sortInts(xs []int, high bool) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && (xs[j] > xs[j-1]) == high && xs[j] != xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}
