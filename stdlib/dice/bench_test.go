package dice

import (
	"math/rand/v2"
	"testing"
)

func benchRoll(b *testing.B, src string) {
	e, err := Parse(src, nil)
	if err != nil {
		b.Fatal(err)
	}
	r := NewRoller(e, NewPCG(1))
	for b.Loop() {
		if _, err := r.Total(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRoll4d6kh3(b *testing.B) { benchRoll(b, "4d6kh3") }
func BenchmarkRoll3d6(b *testing.B)    { benchRoll(b, "3d6") }
func BenchmarkRoll10d10x(b *testing.B) { benchRoll(b, "10d10!") }

// BenchmarkGo4d6kh3 is the hand-written reference for BenchmarkRoll4d6kh3.
func BenchmarkGo4d6kh3(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := 0
	for b.Loop() {
		a, c, d, e := 1+rng.IntN(6), 1+rng.IntN(6), 1+rng.IntN(6), 1+rng.IntN(6)
		s += a + c + d + e - min(a, c, d, e)
	}
	_ = s
}

func benchDist(b *testing.B, src string) {
	e, err := Parse(src, nil)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := e.Distribution(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExact8d6kh3(b *testing.B)   { benchDist(b, "8d6kh3") }
func BenchmarkExact20d6(b *testing.B)     { benchDist(b, "20d6") }
func BenchmarkExact10d10kh3(b *testing.B) { benchDist(b, "10d10kh3") }
func BenchmarkExact8d10ge7(b *testing.B)  { benchDist(b, "8d10>=7") }

// refKeepHigh is a plain float64 keep-highest DP: the hand-written reference for the exact
// benchmarks (same algorithm, floats instead of exact fractions).
func refKeepHigh(n, sides, k int) []float64 {
	binom := make([][]float64, n+1)
	for i := range binom {
		binom[i] = make([]float64, i+1)
		binom[i][0], binom[i][i] = 1, 1
		for j := 1; j < i; j++ {
			binom[i][j] = binom[i-1][j-1] + binom[i-1][j]
		}
	}
	width := k*sides + 1
	dp := make([][]float64, n+1)
	for j := range dp {
		dp[j] = make([]float64, width)
	}
	dp[0][0] = 1
	p := 1 / float64(sides)
	for v := sides; v >= 1; v-- {
		next := make([][]float64, n+1)
		for j := range next {
			next[j] = make([]float64, width)
		}
		for j := 0; j <= n; j++ {
			for s, x := range dp[j] {
				if x == 0 {
					continue
				}
				pw := 1.0
				for c := 0; c <= n-j; c++ {
					kept := min(c, max(0, k-j))
					next[j+c][s+kept*v] += x * pw * binom[n-j][c]
					pw *= p
				}
			}
		}
		dp = next
	}
	return dp[n]
}

func refSum(n, sides int) []float64 {
	d := []float64{1}
	for i := 0; i < n; i++ {
		next := make([]float64, len(d)+sides)
		for a, x := range d {
			for f := 1; f <= sides; f++ {
				next[a+f] += x / float64(sides)
			}
		}
		d = next
	}
	return d
}

func BenchmarkGoExact8d6kh3(b *testing.B) {
	for b.Loop() {
		refKeepHigh(8, 6, 3)
	}
}

func BenchmarkGoExact20d6(b *testing.B) {
	for b.Loop() {
		refSum(20, 6)
	}
}

func BenchmarkGoExact10d10kh3(b *testing.B) {
	for b.Loop() {
		refKeepHigh(10, 10, 3)
	}
}

func BenchmarkGoExact8d10ge7(b *testing.B) {
	for b.Loop() {
		// successes: a binomial by convolution of Bernoulli(0.4)
		d := []float64{1}
		for i := 0; i < 8; i++ {
			next := make([]float64, len(d)+1)
			for s, x := range d {
				next[s] += x * 0.6
				next[s+1] += x * 0.4
			}
			d = next
		}
	}
}

// Exact odds at sizes where the work grows: plain sums of hundreds of dice and keep-highest
// over hundreds of dice.
func BenchmarkExact200d10(b *testing.B)    { benchDist(b, "200d10") }
func BenchmarkExact500d6(b *testing.B)     { benchDist(b, "500d6") }
func BenchmarkExact500d10(b *testing.B)    { benchDist(b, "500d10") }
func BenchmarkExact200d6kh3(b *testing.B)  { benchDist(b, "200d6kh3") }
func BenchmarkExact100d10kh3(b *testing.B) { benchDist(b, "100d10kh3") }

// The float64 references: the sum by convolving one die at a time, keep-highest by the
// same order-statistics DP as refKeepHigh.
func BenchmarkGoExact200d10(b *testing.B) {
	for b.Loop() {
		refSum(200, 10)
	}
}

func BenchmarkGoExact500d6(b *testing.B) {
	for b.Loop() {
		refSum(500, 6)
	}
}

func BenchmarkGoExact500d10(b *testing.B) {
	for b.Loop() {
		refSum(500, 10)
	}
}

func BenchmarkGoExact200d6kh3(b *testing.B) {
	for b.Loop() {
		refKeepHigh(200, 6, 3)
	}
}

func BenchmarkGoExact100d10kh3(b *testing.B) {
	for b.Loop() {
		refKeepHigh(100, 10, 3)
	}
}
