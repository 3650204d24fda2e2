package analysis

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// OutcomeCount is one outcome of a side of a simulation with its count, its frequency and
// the Wilson 95% interval of its probability.
type OutcomeCount struct {
	RunOutcome
	Count     int64
	Frequency float64
	Lo, Hi    float64
}

// Quantile is the value at a level of the distribution of numeric outcomes (the smallest
// value whose cumulated frequency reaches the level).
type Quantile struct {
	Level float64
	Value float64
}

// LineCount is an emitted line with the number of runs that emitted it (once or more).
type LineCount struct {
	Line      string
	Count     int64
	Frequency float64
}

// Summary is what one side of a simulation gave, computed from exact counts in a fixed
// order (outcomes sorted), so equal counts give equal summaries bit for bit.
type Summary struct {
	Runs     int64
	Outcomes []OutcomeCount
	// Numeric is set when every outcome is a number: only then are Mean, Stddev and
	// Quantiles given.
	Numeric      bool
	Mean, Stddev float64
	Quantiles    []Quantile
	// Emitted lists the lines emitted, most frequent first (ties by text), unless there were
	// more than MaxEmittedLines distinct ones (EmittedOverflow).
	Emitted         []LineCount
	EmittedOverflow bool
}

// Summary returns side 0 (A) or 1 (B) of the tally summarised.
func (t *Tally) Summary(side int) Summary {
	counts := map[string]int64{}
	for p, n := range t.Pairs {
		if side == 0 {
			counts[p.A] += n
		} else {
			counts[p.B] += n
		}
	}
	s := Summary{Runs: t.Runs, Numeric: len(counts) > 0, EmittedOverflow: t.Overflow[side]}
	for text, n := range counts {
		lo, hi := Wilson(n, t.Runs)
		s.Outcomes = append(s.Outcomes, OutcomeCount{RunOutcome: t.Outcomes[text], Count: n,
			Frequency: float64(n) / float64(t.Runs), Lo: lo, Hi: hi})
	}
	slices.SortFunc(s.Outcomes, func(a, b OutcomeCount) int { return CompareRunOutcomes(a.RunOutcome, b.RunOutcome) })
	var mom Moments
	var ws []Weighted
	for _, o := range s.Outcomes {
		if o.Kind != KindNumber {
			s.Numeric = false
			break
		}
		mom.Add(o.Num, float64(o.Count))
		ws = append(ws, Weighted{o.Num, float64(o.Count)})
	}
	if s.Numeric {
		s.Mean, s.Stddev = mom.Mean, mom.Stddev()
		for i, v := range Quantiles(ws, QuantileLevels) {
			s.Quantiles = append(s.Quantiles, Quantile{QuantileLevels[i], v})
		}
		// Numbers near the largest float overflow the moments: no mean rather than an
		// infinite one, which JSON cannot hold.
		if !finite(s.Mean) || !finite(s.Stddev) {
			s.Numeric, s.Mean, s.Stddev, s.Quantiles = false, 0, 0, nil
		}
	}
	for line, n := range t.Emitted[side] {
		s.Emitted = append(s.Emitted, LineCount{line, n, float64(n) / float64(t.Runs)})
	}
	// strings.Compare walks two lines once; cmp.Compare would walk them twice (< then >)
	// when the second is the smaller, and lines of a sim share long beginnings.
	slices.SortFunc(s.Emitted, func(a, b LineCount) int {
		if a.Count != b.Count {
			return cmp.Compare(b.Count, a.Count)
		}
		return strings.Compare(a.Line, b.Line)
	})
	return s
}

// OutcomeDifference is the paired difference B−A of an outcome's frequency, with its 95%
// interval.
type OutcomeDifference struct {
	RunOutcome
	A, B          float64 // the frequencies on each side
	RunDifference float64
	Lo, Hi        float64
}

// RunDifference is what changed from A to B, run for run.
type RunDifference struct {
	Outcomes []OutcomeDifference
	// Numeric is set when every outcome on both sides is a number: only then is the
	// difference of the means given.
	Numeric bool
	Mean    float64
	MeanLo  float64
	MeanHi  float64
	Runs    int64
}

// RunDifference returns the paired difference B−A of a comparison: per outcome, the mean of
// d = [B gave it] − [A gave it] over the runs, and of the means, the mean of B's value minus
// A's, each with the 95% interval mean ± z·sd/√n of the paired differences. Pairing (the
// same seed on both sides) removes the noise the two sides share, so an effect much smaller
// than either side's own interval shows.
func (t *Tally) RunDifference() RunDifference {
	d := RunDifference{Runs: t.Runs, Numeric: true}
	if t.Runs == 0 {
		return d
	}
	n := float64(t.Runs)
	texts := map[string]bool{}
	pairs := make([]Pair, 0, len(t.Pairs))
	for p := range t.Pairs {
		texts[p.A], texts[p.B] = true, true
		pairs = append(pairs, p)
	}
	byOutcome := func(a, b string) int { return CompareRunOutcomes(t.Outcomes[a], t.Outcomes[b]) }
	slices.SortFunc(pairs, func(a, b Pair) int { return cmp.Or(byOutcome(a.A, b.A), byOutcome(a.B, b.B)) })
	var outs []RunOutcome
	for text := range texts {
		outs = append(outs, t.Outcomes[text])
		if t.Outcomes[text].Kind != KindNumber {
			d.Numeric = false
		}
	}
	slices.SortFunc(outs, CompareRunOutcomes)
	inA, inB, both := map[string]int64{}, map[string]int64{}, map[string]int64{}
	for p, c := range t.Pairs {
		inA[p.A] += c
		inB[p.B] += c
		if p.A == p.B {
			both[p.A] += c
		}
	}
	for _, o := range outs {
		inA, inB := inA[o.Text], inB[o.Text]
		onlyA, onlyB := inA-both[o.Text], inB-both[o.Text]
		mean := float64(onlyB-onlyA) / n
		variance := max(0, float64(onlyA+onlyB)/n-mean*mean)
		half := Z95 * math.Sqrt(variance/n)
		d.Outcomes = append(d.Outcomes, OutcomeDifference{RunOutcome: o, A: float64(inA) / n, B: float64(inB) / n,
			RunDifference: mean, Lo: max(-1, mean-half), Hi: min(1, mean+half)})
	}
	if d.Numeric {
		var mom Moments
		for _, p := range pairs {
			mom.Add(t.Outcomes[p.B].Num-t.Outcomes[p.A].Num, float64(t.Pairs[p]))
		}
		half := Z95 * mom.Stddev() / math.Sqrt(n)
		d.Mean, d.MeanLo, d.MeanHi = mom.Mean, mom.Mean-half, mom.Mean+half
		if !finite(d.Mean) || !finite(d.MeanLo) || !finite(d.MeanHi) {
			d.Numeric, d.Mean, d.MeanLo, d.MeanHi = false, 0, 0, 0
		}
	}
	return d
}

// finite reports whether x is neither infinite nor NaN.
func finite(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }
