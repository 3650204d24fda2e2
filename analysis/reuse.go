package analysis

import (
	"math"
	"math/big"
)

// spread is the distribution of one reused rule call (a rule with given arguments, from the
// start state): its values, each with a count out of total (the probabilities over a common
// denominator).
type spread struct {
	vals   []any
	counts []uint64
	total  uint64
	// bigCounts and bigTotal hold them when the denominator is over 62 bits (total is 0).
	bigCounts []*big.Int
	bigTotal  *big.Int
}

// busy marks a call being enumerated: a call of itself inside runs as usual.
var busy = &spread{}

// spreadCall answers a call of a rule the cache could keep (dsl.RuleCache.Spread) while
// reuse is on: the first call of each key is enumerated on its own, all its draws, into its
// distribution of values; that call and every later one is then one weighted draw among
// those values. A call that fails, emits, changes something or returns a list or record on
// some branch is not reused: it runs as usual, draw by draw.
func (r *runner) spreadCall(key any, depth int, run func() (any, error, bool)) (any, error, bool) {
	if !r.reuse {
		return nil, nil, false
	}
	d, known := r.spreads[key]
	if !known {
		r.spreads[key] = busy
		d = r.enumerateCall(run, depth)
		r.spreads[key] = d
	}
	if d == nil || d == busy {
		return nil, nil, false
	}
	r.reused++
	if len(d.vals) == 1 {
		return d.vals[0], nil, true
	}
	i, err := r.src.pick(d)
	if err != nil {
		return nil, err, true
	}
	return d.vals[i], nil, true
}

// enumerateCall runs a call along every branch of its own draws, its reused calls being
// weighted draws in turn, and returns its distribution; nil when it cannot be reused, or its
// tree would pass what is left of the budget: then it runs draw by draw as before, and the
// caller's tree is estimated and enumerated with it. As for a whole question, a small tree
// is enumerated at once and a larger one estimated first (Knuth's estimator over random
// runs of the call), so that a call too big to reuse costs a few hundred runs, not a budget.
func (r *runner) enumerateCall(run func() (any, error, bool), depth int) *spread {
	s := r.src
	sv := s.push()
	defer s.pop(sv)
	left := r.limit - r.leaves - r.nested
	turns, keyed := r.turns, r.keyed
	d, done := r.enumerateMerged(run, depth, min(int64(r.probes), left))
	if done {
		return d
	}
	if r.turns == turns || r.keyed == keyed {
		// No loop of its own turned, or none at a state that can be keyed (a loop over
		// cards), so nothing merges: its tree is what Knuth's estimator says, and one too
		// big is not tried.
		s.mode = randomMode
		est := 0.0
		for i := range r.probes {
			s.reseed(r.q.Seed^0xca11, int64(i))
			s.start()
			if _, err, clean := run(); err != nil || !clean {
				return nil
			}
			est += s.prod
		}
		s.mode = pathMode
		// Within half of what is left: the estimate of a tree whose few long paths hold most
		// of its leaves often runs low, and a call that overruns spends the budget for nothing.
		if 2*est/float64(r.probes) > float64(r.limit-r.leaves-r.nested) {
			return nil
		}
	}
	s.faces, s.sides, s.dists = s.faces[:0], s.sides[:0], s.dists[:0]
	d, done = r.enumerateMerged(run, depth, r.limit-r.leaves-r.nested)
	if !done {
		return nil
	}
	return d
}

// spreadOf puts the values' probabilities over their common denominator, in 64 bits when
// it fits (the weights of the leaves drawing from it then stay in 64 bits as long as a die's
// would), else in big numbers (the sum of 30 d6 is over 6^30).
func spreadOf(vals []any, sums map[any]*big.Rat) *spread {
	// The common denominator: the least common multiple of the values' denominators.
	l := big.NewInt(1)
	var g big.Int
	for _, v := range vals {
		den := sums[v].Denom()
		g.GCD(nil, nil, l, den)
		l.Mul(l, new(big.Int).Quo(den, &g))
	}
	d := &spread{vals: vals, counts: make([]uint64, len(vals))}
	wide := l.BitLen() > 62
	if wide {
		d.bigCounts, d.bigTotal = make([]*big.Int, len(vals)), l
	} else {
		d.total = l.Uint64()
	}
	for i, v := range vals {
		f := sums[v]
		c := new(big.Int).Mul(f.Num(), new(big.Int).Quo(l, f.Denom()))
		if wide {
			d.bigCounts[i] = c
		} else {
			d.counts[i] = c.Uint64()
		}
	}
	return d
}

// plainValue reports whether a value can stand for a call's result in every run that draws
// it: a scalar, which no caller can change (a list or record could be).
func plainValue(v any) bool {
	switch x := v.(type) {
	case nil, int, bool, string:
		return true
	case float64:
		return !math.IsNaN(x)
	}
	return false
}
