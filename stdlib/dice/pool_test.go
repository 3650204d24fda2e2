package dice

import (
	"math/big"
	"testing"
)

// TestPoolMatchesBruteForce: keep/drop and counting on a group of one item that adds several
// dice terms apply to all their dice together, as in rpg-dice-roller; they were refused.
// Every sequence of results is rolled and compared with the exact odds (ties included:
// the die written first is kept).
func TestPoolMatchesBruteForce(t *testing.T) {
	for _, src := range []string{
		"{2d4+2d3}k2",
		"{2d4+1d6-2d3}d2",
		"{2d4+2d3}kl1",
		"{2d3+1d3}dh1",
		"{1d4-2d3}kh2",
		"{2d6+3}>4",
		"{2d6-1d4}>=3f1",
		"{2d4+1d[1,1,5]}k1 + 2",
		"{-1d4+2d3}k2",
	} {
		checkBrute(t, src, 6)
	}
	// The documented examples parse, and {3d20+5}>40 counts dice, never the total.
	for _, src := range []string{"{4d10+5d6}k2", "{4d6+2d8-3d30}d3", "{3d20+5}>40"} {
		e, err := Parse(src, nil)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		d, err := e.Distribution()
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if d.Mass().Cmp(d.Den) != 0 {
			t.Errorf("%s: the weights do not add up", src)
		}
		if src == "{3d20+5}>40" && d.P(5).Cmp(big.NewRat(1, 1)) != 0 {
			t.Errorf("%s: P(5) = %s, want 1 (no d20 is above 40)", src, d.P(5))
		}
	}
	for _, src := range []string{"{2d6*2}k1", "{2d6!+1d4}k1", "{3d6+1d4}k5"} {
		if _, err := Parse(src, nil); err == nil {
			t.Errorf("%s: accepted", src)
		}
	}
}
