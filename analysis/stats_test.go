package analysis

import (
	"fmt"
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestWilson: intervals against values computed by hand from the formula
// (p̂ + z²/2n ± z·sqrt(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n), z = 1.959964.
func TestWilson(t *testing.T) {
	for _, c := range []struct {
		k, n   int64
		lo, hi float64
	}{
		{50, 100, 0.403832, 0.596168},
		{0, 10, 0, 0.277533},
		{10, 10, 0.722467, 1},
		{1, 1000, 0.000177, 0.005643},
		{0, 0, 0, 1},
	} {
		lo, hi := Wilson(c.k, c.n)
		if !near(lo, c.lo, 1e-6) || !near(hi, c.hi, 1e-6) {
			t.Errorf("Wilson(%d, %d) = [%.6f, %.6f], want [%.6f, %.6f]", c.k, c.n, lo, hi, c.lo, c.hi)
		}
	}
	if n := SamplesFor(0.005); n != 38415 {
		t.Errorf("SamplesFor(0.5%%) = %d, want 38415", n)
	}
}

// TestMoments: weighted mean and standard deviation of a d6 (3.5 and sqrt(35/12)), added
// value by value and by weights.
func TestMoments(t *testing.T) {
	var one, weighted Moments
	for v := 1; v <= 6; v++ {
		one.Add(float64(v), 1)
		weighted.Add(float64(v), 1.0/6)
	}
	want := math.Sqrt(35.0 / 12)
	for _, m := range []Moments{one, weighted} {
		if !near(m.Mean, 3.5, 1e-12) || !near(m.Stddev(), want, 1e-12) {
			t.Errorf("mean %v stddev %v, want 3.5 %v", m.Mean, m.Stddev(), want)
		}
	}
	var empty Moments
	if empty.Stddev() != 0 {
		t.Error("empty stddev")
	}
}

// TestQuantiles: the inverse distribution function of 2d6 counted by hand (36 outcomes:
// 18 at or below 7, 6 at 7; the median is 7, the first decile 4 (6 of 36 at or below 4 is
// 16.7% ≥ 10%, 3 at or below 3 is 8.3% < 10%).
func TestQuantiles(t *testing.T) {
	var xs []Weighted
	for s := 2; s <= 12; s++ {
		xs = append(xs, Weighted{float64(s), float64(6 - abs(s-7))})
	}
	got := Quantiles(xs, []float64{0, 0.1, 0.5, 0.9, 1})
	want := []float64{2, 4, 7, 10, 12}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("quantiles %v, want %v", got, want)
			break
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestHistogram(t *testing.T) {
	var h Histogram
	for _, v := range []int{5, 3, 7, 3} {
		h.Add(v)
	}
	if h.Min() != 3 || h.Max() != 7 || h.N() != 4 || h.Mean() != 4.5 {
		t.Errorf("min %d max %d n %d mean %v", h.Min(), h.Max(), h.N(), h.Mean())
	}
	var got []string
	h.Each(func(v, k int) { got = append(got, fmt.Sprintf("%d:%d", v, k)) })
	if fmt.Sprint(got) != "[3:2 5:1 7:1]" {
		t.Errorf("counts %s", got)
	}
	// The population deviation of 3, 3, 5, 7: sqrt(11/4).
	if math.Abs(h.Stddev()-math.Sqrt(2.75)) > 1e-12 {
		t.Errorf("stddev %v", h.Stddev())
	}
	var one Histogram
	one.Add(4)
	one.Add(4)
	if one.Stddev() != 0 {
		t.Errorf("stddev of a constant: %v", one.Stddev())
	}
	// Negative results grow the slice downwards.
	var neg Histogram
	for _, v := range []int{0, -2, 1} {
		neg.Add(v)
	}
	if neg.Min() != -2 || neg.Max() != 1 || neg.Mean() != -1.0/3 {
		t.Errorf("negative: min %d max %d mean %v", neg.Min(), neg.Max(), neg.Mean())
	}
}
