package analysis

import (
	"math"
	"slices"
)

// Z95 is the normal quantile of a two-sided 95% interval.
const Z95 = 1.959963984540054

// Wilson returns the 95% Wilson score interval of a proportion: k successes in n trials.
// Unlike the normal approximation it stays inside [0, 1] and is sound for k near 0 or n,
// where rare results of a rule sit. n = 0 gives [0, 1]: nothing is known.
func Wilson(k, n int64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	p := float64(k) / float64(n)
	nf := float64(n)
	z2 := Z95 * Z95
	den := 1 + z2/nf
	mid := (p + z2/(2*nf)) / den
	half := Z95 / den * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	lo, hi = max(0, mid-half), min(1, mid+half)
	// At the ends the bound is exact: never below a seen frequency of 0 or above one of 1.
	if k == 0 {
		lo = 0
	}
	if k == n {
		hi = 1
	}
	return lo, hi
}

// SamplesFor returns how many samples make the widest 95% interval of a proportion (at
// p = 1/2) about ±half wide: ±0.5% needs 38,415.
func SamplesFor(half float64) int64 {
	return int64(math.Ceil(Z95 * Z95 / (4 * half * half)))
}

// Moments accumulates a mean and a variance one weighted value at a time (Welford's
// method, which does not lose precision on long runs as a sum of squares does).
type Moments struct {
	W    float64 // the total weight
	Mean float64
	m2   float64
}

// Add counts x with weight w (a number of runs, or a probability).
func (m *Moments) Add(x, w float64) {
	if w == 0 {
		return
	}
	m.W += w
	d := x - m.Mean
	m.Mean += d * w / m.W
	m.m2 += w * d * (x - m.Mean)
}

// Stddev is the population standard deviation of the values added (that of the
// distribution, as `prob` gives for dice).
func (m *Moments) Stddev() float64 {
	if m.W == 0 {
		return 0
	}
	return math.Sqrt(max(0, m.m2/m.W))
}

// Weighted is a value with its weight (a count of runs, or a probability).
type Weighted struct {
	X float64
	W float64
}

// Quantiles returns the q-quantiles of weighted values, for each q in qs (from 0 to 1): the
// smallest value whose cumulated weight reaches q of the total (the inverse of the
// distribution function, so a quantile is always a value that occurred).
func Quantiles(xs []Weighted, qs []float64) []float64 {
	sorted := slices.Clone(xs)
	slices.SortFunc(sorted, func(a, b Weighted) int {
		switch {
		case a.X < b.X:
			return -1
		case a.X > b.X:
			return 1
		}
		return 0
	})
	total := 0.0
	for _, x := range sorted {
		total += x.W
	}
	out := make([]float64, len(qs))
	for i, q := range qs {
		target, cum := q*total, 0.0
		out[i] = math.NaN()
		for _, x := range sorted {
			cum += x.W
			if x.W > 0 && cum >= target*(1-1e-12) {
				out[i] = x.X
				break
			}
		}
	}
	return out
}

// Histogram counts whole-number results (the totals of rolls) in a slice indexed from the
// smallest seen, with their sum and sum of squares: `roll --stats` gives its counts, range,
// mean and standard deviation. The sums of whole numbers are exact in float64 up to 2^53,
// whatever the order of the rolls, so the figures are the same for the same rolls; Moments
// serves weighted and fractional values.
type Histogram struct {
	counts    []int
	min, n    int
	sum, sum2 float64
}

// Add counts one result.
func (h *Histogram) Add(v int) {
	if h.n == 0 {
		h.min = v
		h.counts = make([]int, 1, 64)
	}
	h.n++
	f := float64(v)
	h.sum += f
	h.sum2 += f * f
	if v < h.min {
		grow := h.min - v
		h.counts = append(make([]int, grow, grow+len(h.counts)), h.counts...)
		h.min = v
	}
	for v-h.min >= len(h.counts) {
		h.counts = append(h.counts, 0)
	}
	h.counts[v-h.min]++
}

// N is how many results were counted.
func (h *Histogram) N() int { return h.n }

// Min is the smallest result counted (0 when none was).
func (h *Histogram) Min() int { return h.min }

// Max is the largest result counted.
func (h *Histogram) Max() int { return h.min + len(h.counts) - 1 }

// Each calls f with every result counted and its count, smallest first.
func (h *Histogram) Each(f func(v, count int)) {
	for i, k := range h.counts {
		if k > 0 {
			f(h.min+i, k)
		}
	}
}

// Mean is the mean of the results.
func (h *Histogram) Mean() float64 { return h.sum / float64(h.n) }

// Stddev is the population standard deviation of the results, as Moments.Stddev.
func (h *Histogram) Stddev() float64 {
	m := h.Mean()
	return math.Sqrt(max(0, h.sum2/float64(h.n)-m*m))
}
