package dice

import (
	"math/big"
	"strings"
	"testing"
)

// TestExplodeClosedForm: an exploding die is followed until less than ExplodeCutoff is left
// out, however likely it is to explode again, and its mean is the closed form, mean face /
// (1 - p_explode) (a penetrating die's later dice one less each). `d6!<>4` was cut at depth
// 12, leaving out 9.35% and printing a mean of 16.44 for 21.
func TestExplodeClosedForm(t *testing.T) {
	for _, c := range []struct {
		src  string
		mean *big.Rat
	}{
		{"d6!", big.NewRat(21, 5)},                 // 3.5 / (5/6)
		{"d6!<>4", big.NewRat(21, 1)},              // 3.5 / (1/6)
		{"d6!!<>4", big.NewRat(21, 1)},             // compound: the same sum
		{"d6!>=5", big.NewRat(21, 4)},              // 3.5 / (2/3)
		{"d6!p<>4", big.NewRat(16, 1)},             // 3.5 + (5/6)·2.5 / (1/6)
		{"3d6!<>4", big.NewRat(63, 1)},             // three of them
		{"2d10!>=9 + 1", big.NewRat(59, 4)},        // 2 · 5.5/(4/5) + 1
		{"d6!<>4 - d6!", big.NewRat(84, 5)},        // 21 - 4.2
		{"d6!3", big.NewRat(1813, 432)},            // 3.5·(1 + 1/6 + 1/36 + 1/216): nothing cut
		{"d20!>=11", big.NewRat(21, 1)},            // 10.5 / (1/2)
		{"d[1,1,2]!=1", big.NewRat(4, 1)},          // (4/3) / (1/3)
		{"d6!<=2", big.NewRat(21, 4)},              // 3.5 / (2/3)
		{"4d6!kh4", big.NewRat(0, 1)},              // refused below: keep with added dice
		{"d6!!>=5>=1", big.NewRat(0, 1)},           // counted compound: no closed form
		{"1d100!>=2", big.NewRat(0, 1)},            // refused: too likely to explode
		{"1d[1,2,3,4,5,6]!<>4", big.NewRat(21, 1)}, // a listed die as d6
	} {
		e, err := Parse(c.src, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		d, err := e.Distribution()
		if c.mean.Sign() == 0 {
			if c.src == "1d100!>=2" && (err == nil || !strings.Contains(err.Error(), "of the probability")) {
				t.Errorf("%s: want a refusal naming the mass left out, got %v", c.src, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if got := d.MeanRat(); got.Cmp(c.mean) != 0 {
			t.Errorf("%s: mean %s, want %s", c.src, got.FloatString(6), c.mean.FloatString(6))
		}
		// The cutoff holds per exploding term.
		if lost, _ := d.Truncated().Float64(); lost >= 2*ExplodeCutoff {
			t.Errorf("%s: %g left out, want < %g", c.src, lost, ExplodeCutoff)
		}
	}
}

// TestExplodeDepthRefusal names the mass that would be left out.
func TestExplodeDepthRefusal(t *testing.T) {
	e, err := Parse("d100!>=2", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Distribution()
	if err == nil || !strings.Contains(err.Error(), "would leave out 4.27e-05 of the probability") || !strings.Contains(err.Error(), "1e-12") {
		t.Fatalf("got %v", err)
	}
}
