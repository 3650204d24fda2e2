package dice

import (
	"math/big"
	"testing"
)

// TestTruncationDecidedComparisons: a comparison that every cut chain of explosions answers
// the same way is exact, its mass whole. The values are worked by hand: an exploding die
// below a threshold t never explodes (faces 1..t-1 are below the explosion), so P(false)
// is the chance of faces under t and P(true) the rest.
func TestTruncationDecidedComparisons(t *testing.T) {
	for _, c := range []struct {
		src         string
		false, true string
	}{
		// max of the first faces of a d8 and a d6 below 4: 3/8 · 3/6 = 3/16.
		{"{1d8!, 1d6!}kh1 >= 4", "3/16", "13/16"},
		{"1d6! >= 3", "1/3", "2/3"},
		// 2d6 + 3 > 5 fails only on double one.
		{"2d6! + 3 > 5", "1/36", "35/36"},
		// the same from the other side: -2d6! < -2 fails only on double one.
		{"-2d6! < -2", "1/36", "35/36"},
		// 20 is 6+6+6+2 alone, 1/6⁴; a cut d6 chain is at least 6·13 = 78, never 20.
		{"1d6! == 20", "1295/1296", "1/1296"},
		// penetration counts later dice one less, never below 0.
		{"1d6!p >= 2", "1/6", "5/6"},
		// compound: the sum of a d6 chain is 1 with 1/6.
		{"1d6!! != 1", "1/6", "5/6"},
		// kh2 of three d6!: at least 3 is everything but two ones among the top two:
		// the top two sum to 2 only when all three show 1.
		{"{1d6!, 1d6!, 1d6!}kh2 >= 3", "1/216", "215/216"},
		// the lowest of two d6! is at least 2 when neither first face is 1: (5/6)².
		{"{1d6!, 1d6!}kl1 >= 2", "11/36", "25/36"},
		// scaled by a constant: 2x ≥ 10 and -2x ≤ -10 when x ≥ 5, x/2 ≥ 2 when x ≥ 4,
		// ⌊x/-2⌋ ≤ -2 when x ≥ 3; x·0 is 0 whatever the chain.
		{"1d6! * 2 >= 10", "2/3", "1/3"},
		{"2 * 1d6! >= 10", "2/3", "1/3"},
		{"1d6! * -2 <= -10", "2/3", "1/3"},
		{"floor(1d6! / 2) >= 2", "1/2", "1/2"},
		{"floor(1d6! / -2) <= -2", "1/3", "2/3"},
		// ⌈x·3/4⌉ ≥ 3 when x ≥ 3 (⌈9/4⌉ = 3, ⌈6/4⌉ = 2); round(x/3) ≥ 2 when x ≥ 5.
		{"ceil(1d6! * 0.75) >= 3", "1/3", "2/3"},
		{"round(1d6! / 3) >= 2", "2/3", "1/3"},
		{"floor(-1d6! / 2) < 0", "0", "1"},
		{"1d6! * 0 == 0", "0", "1"},
		// 3·(2d6!) ≥ 9 fails only on double one.
		{"2d6! * 3 >= 9", "1/36", "35/36"},
		// a d6! reaches 40 by six sixes (36) and then 4, 5 or 6: 1/(2·6⁶); both must.
		{"{1d6!, 1d6!}kl1 >= 40", "8707129343/8707129344", "1/8707129344"},
	} {
		e, err := Parse(c.src, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		d, err := e.Distribution()
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if d.Truncated().Sign() != 0 {
			t.Errorf("%s: %s of the mass is still cut", c.src, d.Truncated())
		}
		for v, want := range map[int]string{0: c.false, 1: c.true} {
			w, _ := new(big.Rat).SetString(want)
			if got := d.P(v); got.Cmp(w) != 0 {
				t.Errorf("%s: P(%d) = %s, want %s", c.src, v, got, want)
			}
		}
		if m, w := d.MeanRat(), d.P(1); m.Cmp(w) != 0 {
			t.Errorf("%s: mean %s is not P(true) %s", c.src, m, w)
		}
	}
}

// TestTruncationUndecidedStaysCut: when a cut chain could fall on either side, the mass
// stays cut (and reported as such): d6! − d6! ≥ 0 depends on how far each chain goes.
func TestTruncationUndecidedStaysCut(t *testing.T) {
	for _, src := range []string{"1d6! - 1d6! >= 0", "1d6! == 100", "1d6! * 2 == 200", "floor(1d6! / 1d2) >= 2", "1d6! % 7 >= 3", "1d6!!=6>=100", "1d6!!=6=100", "3d6!!kh2 >= 200", "{1d6!, 1d6!}kl1 >= 100"} {
		e, err := Parse(src, nil)
		if err != nil {
			t.Fatal(err)
		}
		d, err := e.Distribution()
		if err != nil {
			t.Fatal(err)
		}
		if d.Truncated().Sign() == 0 {
			t.Errorf("%s: the cut mass was given to one side although both are possible", src)
		}
	}
}

// TestTruncationKeptGroups: keep/drop over items or dice whose chains are cut. Against a
// threshold of at most 7, a d6! (or d6!!) is worth its face, or at least 7 on a six, and every
// kept sum grows with each die, so counting a six as 7 over the first faces gives the exact
// answer.
func TestTruncationKeptGroups(t *testing.T) {
	for _, c := range []struct {
		src  string
		n    int
		mods Mods
		at   int
	}{
		{"{1d6!, 1d6!, 1d6!}kl2 >= 5", 3, Mods{Keep: KeepLow, KeepN: 2}, 5},
		{"{1d6!, 1d6!, 1d6!}kl1 >= 3", 3, Mods{Keep: KeepLow, KeepN: 1}, 3},
		{"{1d6!, 1d6!, 1d6!}dh1 >= 7", 3, Mods{Keep: DropHigh, KeepN: 1}, 7},
		{"{1d6!, 1d6!, 1d6!}kh2kl1 >= 4", 3, Mods{Keep: KeepHigh, KeepN: 2, More: []KeepStep{{Kind: KeepLow, N: 1}}}, 4},
		{"2d6!!kh1 >= 4", 2, Mods{Keep: KeepHigh, KeepN: 1}, 4},
		{"3d6!!kh2 >= 7", 3, Mods{Keep: KeepHigh, KeepN: 2}, 7},
		{"4d6!!kh3 >= 7", 4, Mods{Keep: KeepHigh, KeepN: 3}, 7},
		{"4d6!!dl1 >= 6", 4, Mods{Keep: DropLow, KeepN: 1}, 6},
	} {
		src := c.src
		hits, all := 0, 1
		for range c.n {
			all *= 6
		}
		for f := range all {
			vals := make([]int, c.n)
			for i, g := 0, f; i < c.n; i, g = i+1, g/6 {
				vals[i] = g%6 + 1
				if vals[i] == 6 {
					vals[i] = 7
				}
			}
			s := 0
			for i, k := range keepMask(vals, &c.mods) {
				if k {
					s += vals[i]
				}
			}
			if s >= c.at {
				hits++
			}
		}
		want := big.NewRat(int64(hits), int64(all))
		e, err := Parse(src, nil)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		d, err := e.Distribution()
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if d.Truncated().Sign() != 0 {
			t.Errorf("%s: %s of the mass is still cut", src, d.Truncated())
		}
		if got := d.P(1); got.Cmp(want) != 0 {
			t.Errorf("%s: P(true) = %s, want %s", src, got, want)
		}
		if m := d.MeanRat(); m.Cmp(want) != 0 {
			t.Errorf("%s: mean %s is not P(true) %s", src, m, want)
		}
	}
}

// TestTruncationCompoundCounts: a compound die that counts successes scores its cut chains
// when the condition says the same of every value they can take. Exploding on 6, a d6!!
// is at least 7 on a six, so ≥5 is the faces 5 and 6: 1/3 a die, and three dice count
// binomially; with penetration a six then 2..6 reaches 7 (5/36).
func TestTruncationCompoundCounts(t *testing.T) {
	for _, c := range []struct {
		src  string
		min  int
		want []string
	}{
		{"1d6!!=6>=5", 0, []string{"2/3", "1/3"}},
		{"1d6!!=6=5", 0, []string{"5/6", "1/6"}},
		{"1d6!!=6<3", 0, []string{"2/3", "1/3"}},
		{"1d6!!=6>=5f1", -1, []string{"1/6", "1/2", "1/3"}},
		{"3d6!!=6>=5", 0, []string{"8/27", "4/9", "2/9", "1/27"}},
		{"1d6!!p=6>=7", 0, []string{"31/36", "5/36"}},
	} {
		e, err := Parse(c.src, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		d, err := e.Distribution()
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if d.Truncated().Sign() != 0 {
			t.Errorf("%s: %s of the mass is still cut", c.src, d.Truncated())
		}
		mean := new(big.Rat)
		for i, s := range c.want {
			w, _ := new(big.Rat).SetString(s)
			if got := d.P(c.min + i); got.Cmp(w) != 0 {
				t.Errorf("%s: P(%d) = %s, want %s", c.src, c.min+i, got, s)
			}
			mean.Add(mean, w.Mul(w, big.NewRat(int64(c.min+i), 1)))
		}
		if m := d.MeanRat(); m.Cmp(mean) != 0 {
			t.Errorf("%s: mean %s, want %s", c.src, m, mean)
		}
	}
}
