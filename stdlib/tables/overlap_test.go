package tables

import (
	"math/rand/v2"
	"testing"
)

// Overlaps agrees with comparing every pair: each pair it returns overlaps and is not
// excused, it finds one whenever a pair does, and every band that overlaps an earlier
// band (in lower-bound order) is in a returned pair.
func TestOverlapsMatchesPairwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 3000; round++ {
		n := 1 + rng.IntN(12)
		bands := make([]Band, n)
		for i := range bands {
			lo := float64(rng.IntN(10)) / 2
			bands[i] = Band{Lo: f(lo), Hi: f(lo + float64(rng.IntN(6))/2), LoOpen: rng.IntN(2) == 0, HiOpen: rng.IntN(2) == 0}
		}
		// Excuse the seeds' shared boundary when the earlier band is the lower one.
		allowed := func(i, j int) bool {
			a, b := bands[i], bands[j]
			return *a.Hi == *b.Lo && *a.Lo < *b.Lo
		}
		got := Overlaps(bands, allowed)
		inPair := map[int]bool{}
		for _, p := range got {
			if p[0] >= p[1] || !Overlap(bands[p[0]], bands[p[1]]) || allowed(p[0], p[1]) {
				t.Fatalf("%v: wrong pair %v", bands, p)
			}
			inPair[p[0]], inPair[p[1]] = true, true
		}
		any := false
		for j := range bands {
			for i := 0; i < j; i++ {
				if Overlap(bands[i], bands[j]) && !allowed(i, j) {
					any = true
					if !inPair[i] && !inPair[j] {
						t.Fatalf("%v: bands %d and %d overlap, neither is reported (%v)", bands, i, j, got)
					}
				}
			}
		}
		if any != (len(got) > 0) {
			t.Fatalf("%v: pairwise finds an overlap: %v, Overlaps: %v", bands, any, got)
		}
	}
}

// Overlaps is linear work on a sorted ladder: counting comparisons through allowed, 4n
// bands cost about 4 times n bands (a quadratic check would cost 16 times).
func TestOverlapsIsNotQuadratic(t *testing.T) {
	count := func(n int) int {
		bands := make([]Band, n)
		for i := range bands {
			bands[i] = Band{Lo: f(float64(i)), Hi: f(float64(i + 1))}
		}
		calls := 0
		Overlaps(bands, func(i, j int) bool { calls++; return *bands[i].Hi == *bands[j].Lo })
		return calls
	}
	small, large := count(1000), count(4000)
	if small == 0 || large > 5*small {
		t.Errorf("1000 bands: %d comparisons, 4000 bands: %d", small, large)
	}
}
