package dice

import (
	"math/big"
	"testing"
)

// WithDice rolls every term of a swapped die on its replacement, wherever the term stands
// (arithmetic, groups, pools, functions, comparisons), and leaves an expression that rolls
// none of them as it is.
func TestWithDice(t *testing.T) {
	old, err := NewDie("a", []Face{{Value: 0}})
	if err != nil {
		t.Fatal(err)
	}
	repl, err := NewDie("a", []Face{{Value: 0}, {Value: 0}, {Value: 2}})
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]*Die{"a": old}
	swap := map[*Die]*Die{old: repl}
	cases := []struct {
		src  string
		want map[int]*big.Rat // the distribution on the replacement
	}{
		{"1da", map[int]*big.Rat{0: big.NewRat(2, 3), 2: big.NewRat(1, 3)}},
		{"2d[a]kh1 + 1", map[int]*big.Rat{1: big.NewRat(4, 9), 3: big.NewRat(5, 9)}},
		{"-1da", map[int]*big.Rat{0: big.NewRat(2, 3), -2: big.NewRat(1, 3)}},
		{"floor(1da / 2)", map[int]*big.Rat{0: big.NewRat(2, 3), 1: big.NewRat(1, 3)}},
		{"{1da, 1d6}kh1", nil},
		{"{2d[a]+1d4}k1", nil},
		{"1da >= 1", map[int]*big.Rat{0: big.NewRat(2, 3), 1: big.NewRat(1, 3)}},
	}
	for _, c := range cases {
		e, err := Parse(c.src, named)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		r := e.WithDice(swap)
		if r == e {
			t.Errorf("%s: not rebound", c.src)
			continue
		}
		d, err := r.Distribution()
		if err != nil {
			t.Fatalf("%s rebound: %v", c.src, err)
		}
		if c.want == nil {
			if d.Max() < 2 {
				t.Errorf("%s rebound: max %d, the replacement's face 2 is not rolled", c.src, d.Max())
			}
			continue
		}
		for v, p := range c.want {
			if got := d.P(v); got.Cmp(p) != 0 {
				t.Errorf("%s rebound: P(%d) = %s, want %s", c.src, v, got.RatString(), p.RatString())
			}
		}
	}
	// The original is not changed: it still rolls the old die's one face.
	e, err := Parse("2da", named)
	if err != nil {
		t.Fatal(err)
	}
	e.WithDice(swap)
	if d, err := e.Distribution(); err != nil || d.P(0).Cmp(big.NewRat(1, 1)) != 0 {
		t.Errorf("2da after WithDice: %v, %v; want 0 for sure", d, err)
	}
	e, err = Parse("3d6 + 1d[1, 2]", named)
	if err != nil {
		t.Fatal(err)
	}
	if e.WithDice(swap) != e {
		t.Error("an expression rolling no swapped die was copied")
	}
}
