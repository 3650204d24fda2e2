package analysis

import (
	"errors"
	"math/big"
	"reflect"
	"slices"

	"rulesh/dsl"
)

// MaxShares bounds how many different shares a fold is enumerated into (one per element
// when its first step reads the element): each is an exact answer of its own.
const MaxShares = 256

// maxFoldValue bounds the values a convolved sum may reach: dice notation refuses totals
// past 2^53, and a sum past it would no longer be the machine's (int64 wraps, floats round).
const maxFoldValue = 1 << 53

// productsPerBranch is how many products of the convolution count as one branch of the
// budget: a product of two counts (a few hundred ns) is about a tenth of a run of the
// simplest expression. Past the budget, the sum of 300 d6 (1.35 M products) takes 0.4 s.
const productsPerBranch = 8

// convolve answers a question that is a fold (dsl.Fold: `sum(map(1..10, attack()))`,
// `count(map(1..10, d(6)), # >= 5)`) by the convolution of its shares: each element's share
// (the fold over that element alone) is answered exactly on its own, and the sum of
// independent shares is distributed as their convolution. It returns nil when the question
// is not such a fold or the conditions that make the shares independent are not met, and
// the caller goes on as before:
//   - no emitted lines in the outcome and no shuffle per run (those would be the run's);
//   - the list draws nothing, changes nothing and is a list;
//   - every run of every share changes nothing (a share that draws a card, or calls an
//     action, leaves the state the next share would read changed), succeeds, and gives a
//     whole number (a sum of fractions depends on the order it is added in);
//   - the whole expression's random runs (the estimate's) reached no limit and stayed under
//     a quarter of max_steps, so that the n shares run as one expression are within the
//     machine's limits as the shares are;
//   - the shares and the convolution's products fit in the budget.
func (r *runner) convolve(opt ProbOptions) (*Dist, error) {
	q := r.q
	if q.Emits || q.Shuffle {
		return nil, nil
	}
	f, ok := dsl.FoldOf(q.Expr)
	if !ok {
		return nil, nil
	}
	for _, name := range f.Calls {
		if q.Prog != nil && q.Prog.HasProc(name) {
			return nil, nil
		}
	}
	if r.peakLimit || int64(r.peakSteps)*4 > int64(r.sess.M.Limits().MaxSteps) {
		return nil, nil
	}
	elems, ok := r.constList(f.List)
	if !ok || len(elems) < 2 {
		return nil, nil
	}
	// The shares, each with how many elements it stands for.
	type share struct {
		at    int // the element whose share it is
		times int
		dist  []int64
		count []*big.Int
		den   *big.Int
	}
	var shares []*share
	if !f.PerElement {
		shares = append(shares, &share{at: 0, times: len(elems)})
	} else {
		byValue := map[string]*share{}
		for i, e := range elems {
			key := ""
			switch e.(type) {
			case int, string, bool:
				key = dsl.Repr(e) + "\x00" + reflect.TypeOf(e).String()
			}
			if sh := byValue[key]; key != "" && sh != nil {
				sh.times++
				continue
			}
			if len(shares) == MaxShares {
				return nil, nil
			}
			sh := &share{at: i, times: 1}
			shares = append(shares, sh)
			if key != "" {
				byValue[key] = sh
			}
		}
	}
	var leaves int64
	hits, misses := 0, 0
	for _, sh := range shares {
		left := opt.Budget - leaves
		if left <= 0 {
			return nil, nil
		}
		sub, err := newRunner(Question{Prog: q.Prog, Overrides: q.Overrides, Bind: q.Bind,
			Expr: f.Share(sh.at), Seed: q.Seed, Interrupt: q.Interrupt})
		if err != nil {
			return nil, nil
		}
		sub.limits.max, sub.share = opt.LimitRuns, true
		so := opt
		so.Budget, so.Exact, so.Note = left, true, nil
		d, _, err := sub.exact(so)
		var stop *ErrInterrupted
		if errors.As(err, &stop) {
			return nil, err
		}
		if err != nil || d == nil || sub.changed {
			return nil, nil
		}
		leaves += d.Leaves
		hits, misses = hits+d.CacheHits, misses+d.CacheMisses
		if sh.dist, sh.count, sh.den, ok = wholeDist(d); !ok {
			return nil, nil
		}
	}
	// The convolution, share after share: values by their count over the product of the
	// shares' denominators.
	acc := map[int64]*big.Int{0: big.NewInt(1)}
	den := big.NewInt(1)
	lo, hi := int64(0), int64(0)
	var work int64
	for _, sh := range shares {
		for range sh.times {
			lo, hi = lo+sh.dist[0], hi+sh.dist[len(sh.dist)-1]
			if lo < -maxFoldValue || hi > maxFoldValue {
				return nil, nil
			}
			work += int64(len(acc)) * int64(len(sh.dist))
			if leaves+work/productsPerBranch > opt.Budget {
				return nil, nil
			}
			next := make(map[int64]*big.Int, len(acc)+len(sh.dist))
			for v, c := range acc {
				for k, x := range sh.dist {
					t := new(big.Int).Mul(c, sh.count[k])
					if s, ok := next[v+x]; ok {
						s.Add(s, t)
					} else {
						next[v+x] = t
					}
				}
			}
			acc = next
			den.Mul(den, sh.den)
		}
	}
	vals := make([]int64, 0, len(acc))
	for v := range acc {
		vals = append(vals, v)
	}
	slices.Sort(vals)
	d := &Dist{Expr: q.Expr, Exact: true, Leaves: leaves, Estimate: float64(leaves)}
	for _, v := range vals {
		x := int(v)
		o := Outcome{Text: dsl.Repr(x), Value: dsl.ToJSON(x)}
		o.Key = o.Text
		o.Number, o.IsNum = number(o.Value)
		o.Fraction = new(big.Rat).SetFrac(acc[v], den)
		o.P, _ = o.Fraction.Float64()
		o.Lo, o.Hi = o.P, o.P
		d.Outcomes = append(d.Outcomes, o)
	}
	d.finish()
	d.Mean, d.Stddev, d.mean = exactMoments(d.Outcomes)
	d.MeanLo, d.MeanHi = d.Mean, d.Mean
	d.CacheHits, d.CacheMisses = hits, misses
	return d, nil
}

// constList evaluates a fold's list once and returns its elements, when it is a list that
// drew nothing and changed nothing (so every run of the question, and every share, sees the
// same list).
func (r *runner) constList(src string) ([]any, bool) {
	c, err := r.sess.Compile("<prob list>", src) // not ProbName: its text places the errors of the question
	if err != nil {
		return nil, false
	}
	s := r.src
	s.faces, s.sides, s.dists = s.faces[:0], s.sides[:0], s.dists[:0]
	s.start()
	var elems []any
	ok := false
	r.sess.Trial(c, func(v any, err error) error {
		if err != nil || r.sess.M.Changed() || v == nil {
			return nil
		}
		rv := reflect.ValueOf(v)
		if rv.Kind() != reflect.Slice {
			return nil
		}
		elems = make([]any, rv.Len())
		for i := range elems {
			elems[i] = rv.Index(i).Interface()
		}
		ok = true
		return nil
	})
	drew := s.pos > 0
	s.faces, s.sides, s.dists = s.faces[:0], s.sides[:0], s.dists[:0]
	return elems, ok && !drew
}

// wholeDist returns an exact answer's outcomes as whole numbers in ascending order with
// their counts over a common denominator; false when one is not a whole number (a failure,
// a fraction, anything else) or is past maxFoldValue.
func wholeDist(d *Dist) ([]int64, []*big.Int, *big.Int, bool) {
	den := big.NewInt(1)
	var g big.Int
	vals := make([]int64, 0, len(d.Outcomes))
	for _, o := range d.Outcomes {
		x, ok := o.Value.(int)
		if !ok || o.Err != "" || o.Fraction == nil || x < -maxFoldValue || x > maxFoldValue {
			return nil, nil, nil, false
		}
		vals = append(vals, int64(x))
		fd := o.Fraction.Denom()
		g.GCD(nil, nil, den, fd)
		den.Mul(den, new(big.Int).Quo(fd, &g))
	}
	if len(vals) == 0 || !slices.IsSorted(vals) {
		return nil, nil, nil, false
	}
	counts := make([]*big.Int, len(vals))
	for i, o := range d.Outcomes {
		counts[i] = new(big.Int).Mul(o.Fraction.Num(), new(big.Int).Quo(den, o.Fraction.Denom()))
	}
	return vals, counts, den, true
}
