package analysis

import (
	"errors"
	"math"
	"math/big"
)

// Comparison is the answer of Compare: the odds of A and B and their difference.
type Comparison struct {
	A, B *Dist
	Diff *Difference
}

// Difference is B − A per outcome, with its 95% interval: exact (the interval is the value)
// when both were enumerated, else from paired samples (sample i of A and of B drew from the
// same generator), by the normal approximation of the mean of the per-sample differences.
type Difference struct {
	Exact    bool
	Outcomes []DiffOutcome
	// Numeric is set when every outcome of both is a number: Mean is then the difference of
	// the means, with its interval.
	Numeric              bool
	Mean, MeanLo, MeanHi float64
}

// DiffOutcome is one outcome's change: D = P_B − P_A in [Lo, Hi].
type DiffOutcome struct {
	Outcome
	D, Lo, Hi float64
}

// Compare answers a and b (the same expression under another option value, or with a
// variant's rule file) both exactly, or both by paired samples when either is over the budget.
func Compare(a, b Question, opt ProbOptions) (*Comparison, error) {
	opt.defaults()
	ra, err := newRunner(a)
	if err != nil {
		return nil, err
	}
	rb, err := newRunner(b)
	if err != nil {
		return nil, err
	}
	ra.limits.max, rb.limits.max = opt.LimitRuns, opt.LimitRuns
	da, whyA, err := ra.exact(opt)
	if err != nil {
		return nil, err
	}
	var db *Dist
	var whyB *ErrTooBig
	if whyA == nil {
		if db, whyB, err = rb.exact(opt); err != nil {
			return nil, onB(err)
		}
	}
	if whyA != nil || whyB != nil {
		why := whyA
		if why == nil {
			why = whyB
		}
		if da, err = ra.fallBack(opt, why); err != nil {
			return nil, err
		}
		opt.Note = nil // said once
		if db, err = rb.fallBack(opt, nil); err != nil {
			return nil, onB(err)
		}
	}
	return &Comparison{A: da, B: db, Diff: difference(da, db)}, nil
}

// onB marks the first runs failing the same way, or reaching a limit, as B's.
func onB(err error) error {
	var every *ErrEveryRunFails
	if errors.As(err, &every) {
		every.Side = "B"
	}
	var limits *ErrLimitRuns
	if errors.As(err, &limits) {
		limits.Side = "B"
	}
	return err
}

// difference computes B − A over the outcomes of both, in the order of outcomes.
func difference(a, b *Dist) *Difference {
	diff := &Difference{Exact: a.Exact && b.Exact}
	ia, ib := map[string]int{}, map[string]int{}
	var all []Outcome
	for i, o := range a.Outcomes {
		ia[o.Key] = i
		all = append(all, o)
	}
	for i, o := range b.Outcomes {
		ib[o.Key] = i
		if _, ok := ia[o.Key]; !ok {
			all = append(all, o)
		}
	}
	u := &Dist{Outcomes: all}
	u.finish()
	n := float64(a.Samples)
	// bothA[k]: the samples whose A outcome is A's k-th and whose B outcome is the same,
	// counted once rather than per outcome.
	bothA := make([]int, len(a.Outcomes))
	if !diff.Exact {
		for s := range a.per {
			if ka := a.per[s]; a.Outcomes[ka].Key == b.Outcomes[b.per[s]].Key {
				bothA[ka]++
			}
		}
	}
	for _, o := range u.Outcomes {
		pa, pb := 0.0, 0.0
		if i, ok := ia[o.Key]; ok {
			pa = a.Outcomes[i].P
		}
		if i, ok := ib[o.Key]; ok {
			pb = b.Outcomes[i].P
		}
		do := DiffOutcome{Outcome: o, D: pb - pa}
		do.Fraction, do.Count, do.P = nil, 0, 0
		do.Lo, do.Hi = do.D, do.D
		if !diff.Exact {
			// Var of 1[B_i = o] − 1[A_i = o]: (P_A + P_B − 2 P_both) − D².
			both := 0
			if ka, ok := ia[o.Key]; ok {
				both = bothA[ka]
			}
			v := max(0, pa+pb-2*float64(both)/n-do.D*do.D)
			half := Z95 * math.Sqrt(v/n)
			do.Lo, do.Hi = do.D-half, do.D+half
		}
		diff.Outcomes = append(diff.Outcomes, do)
	}
	diff.Numeric = a.Numeric && b.Numeric
	if diff.Numeric {
		diff.Mean = b.Mean - a.Mean
		if a.mean != nil && b.mean != nil {
			diff.Mean, _ = new(big.Rat).Sub(b.mean, a.mean).Float64()
		}
		diff.MeanLo, diff.MeanHi = diff.Mean, diff.Mean
		if !diff.Exact {
			var m Moments
			for s := range a.per {
				m.Add(b.Outcomes[b.per[s]].Number-a.Outcomes[a.per[s]].Number, 1)
			}
			half := Z95 * m.Stddev() / math.Sqrt(n)
			diff.MeanLo, diff.MeanHi = diff.Mean-half, diff.Mean+half
		}
	}
	return diff
}
