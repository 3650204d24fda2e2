package dice

import "testing"

// TestRollIntoReuse: one Result rolled into again and again, across expressions whose terms
// and dice differ in number (explosions, rerolls, keep/drop, groups, comparisons), reads
// exactly as a fresh Roll from the same seed each time.
func TestRollIntoReuse(t *testing.T) {
	srcs := []string{"1d6", "4d6kh3", "10d10!", "2d6 + 1d4 - 3", "3d6 >= 12", "{2d6, 1d8}kh1",
		"1d6", "6d10>=8", "4dF", "2d3u", "1d10r1", "(1d6 + 2) * 2", "d%", "1d6"}
	var reused Result
	var buf []byte
	for i, src := range srcs {
		e, err := Parse(src, nil)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		fresh := NewRoller(e, NewPCG(uint64(i)))
		again := NewRoller(e, NewPCG(uint64(i)))
		for k := 0; k < 50; k++ {
			want, err := fresh.Roll()
			if err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			if err := again.RollInto(&reused); err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			buf, _ = reused.AppendText(buf[:0])
			if got := string(buf); got != want.String() || reused.Total != want.Total || reused.String() != got {
				t.Fatalf("%s roll %d: reused %q (total %d), fresh %q (total %d)", src, k, got, reused.Total, want.String(), want.Total)
			}
		}
	}
}

// TestRollIntoAllocs: printing rolls into a reused Result and buffer allocates nothing per
// roll, which is what lets `rulesh roll -n 1000000` print as fast as it counts.
func TestRollIntoAllocs(t *testing.T) {
	e, err := Parse("3d6 + 2", nil)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRoller(e, NewPCG(1))
	var res Result
	buf := make([]byte, 0, 256)
	if n := testing.AllocsPerRun(1000, func() {
		if err := r.RollInto(&res); err != nil {
			t.Fatal(err)
		}
		buf, _ = res.AppendText(buf[:0])
	}); n != 0 {
		t.Errorf("%v allocations per roll printed, want 0", n)
	}
}

func BenchmarkRollIntoText(b *testing.B) {
	e, err := Parse("1d6", nil)
	if err != nil {
		b.Fatal(err)
	}
	r := NewRoller(e, NewPCG(1))
	var res Result
	var buf []byte
	for b.Loop() {
		_ = r.RollInto(&res)
		buf, _ = res.AppendText(buf[:0])
	}
}

// generalSource is a PCG seen only as a Source: the roller takes its general path, which the
// seeded fast paths must match die for die.
type generalSource struct{ p *PCG }

func (g generalSource) Roll(sides int) (int, error) { return g.p.Roll(sides) }

// TestRecordedFastPath: a roll recorded through the seeded fast path reads exactly as the
// same roll through the general path.
func TestRecordedFastPath(t *testing.T) {
	for _, src := range []string{"1d6", "3d6 + 2", "1d20 >= 11", "d%", "2d6 * 1d4 - 1d2", "{1d6, 2d4}"} {
		e, err := Parse(src, nil)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		fast := NewRoller(e, NewPCG(7))
		general := NewRoller(e, generalSource{NewPCG(7)})
		var res Result
		for k := 0; k < 100; k++ {
			if err := fast.RollInto(&res); err != nil {
				t.Fatal(err)
			}
			want, err := general.Roll()
			if err != nil {
				t.Fatal(err)
			}
			if res.String() != want.String() || res.Total != want.Total {
				t.Fatalf("%s roll %d: fast path %q, general path %q", src, k, res.String(), want.String())
			}
		}
	}
}
