package dice

import (
	"math/big"
	"testing"
)

// enumerateUpTo follows every sequence of results the roller asks for, as enumerate does,
// but drops the sequences longer than maxDice (rerolls until a condition holds never end):
// it returns the probability of each total over the sequences followed, and the mass lost.
func enumerateUpTo(t *testing.T, src string, maxDice int) (map[int]*big.Rat, *big.Rat) {
	t.Helper()
	e, err := Parse(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, lost := map[int]*big.Rat{}, new(big.Rat)
	var walk func(prefix []int, weight *big.Rat)
	walk = func(prefix []int, weight *big.Rat) {
		s := &script{vals: prefix}
		v, err := NewRoller(e, s).Total()
		if err == errMore {
			if len(prefix) >= maxDice {
				lost.Add(lost, weight)
				return
			}
			for f := 1; f <= s.sides; f++ {
				w := new(big.Rat).Mul(weight, big.NewRat(1, int64(s.sides)))
				walk(append(append([]int(nil), prefix...), f), w)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if out[v] == nil {
			out[v] = new(big.Rat)
		}
		out[v].Add(out[v], weight)
	}
	walk(nil, big.NewRat(1, 1))
	return out, lost
}

// The forms of the online rollers: each exact distribution lies between the enumeration of
// the roller's own draws and that plus the mass enumeration gave up on (zero for most).
func TestRollerFormsMatchEnumeration(t *testing.T) {
	for _, src := range []string{
		"4d6u=5", "3d4u=4", "3d4u>=3", "3d4uo", "3d4uo=4", "4d4uo>=3", "3d4u<=2kh2", "3d4uo=1>=3",
		"2d6u5", "3d3u=3",
		"4d6r", "3d4ro", "2d6<>3", "3d4r<>2", "3d4ro!=2", "4d4>=3f<>4", "4dF.1", "4dF.2", "2dF.1kh1",
		"2d4!!p2", "1d3!!p3", "(4-2)d4", "2d(2*2)", "(1+1)d(floor(9/2))kh1", "3d4cs=4cf1", "3d4sd", "2d4sacs",
		"4d6dl1dh1", "5d4kh3kl2", "4d4kh3dl1>=3", "5d3dh1dl1dh1", "{4d6}kh3", "{3d6}>=4", "{4d4}dl1dh1",
		"2d6 [fire]", "2d6 # fire", "2d4 /* x */ + 1d4 [cold]", "{2d4, 1d6}cs>=5", "{1d4, 1d4}sd", "2d4 <> 5", "2d4 != 5",
		"floor(1d6*1.5)", "round(2d6/4 + 0.25)", "ceil(-1d4/3*2)", "floor(1.5^1d3)", "round(1d6/2 + 1d4/3)",
	} {
		t.Run(src, func(t *testing.T) {
			want, lost := enumerateUpTo(t, src, 9)
			e, _ := Parse(src, nil)
			d, err := e.Distribution()
			if err != nil {
				t.Fatal(err)
			}
			if d.Truncated().Sign() != 0 {
				t.Fatalf("truncated by %s", d.Truncated())
			}
			for v := d.Min; v <= d.Max(); v++ {
				got, w := d.P(v), want[v]
				if w == nil {
					w = new(big.Rat)
				}
				hi := new(big.Rat).Add(w, lost)
				if got.Cmp(w) < 0 || got.Cmp(hi) > 0 {
					t.Errorf("P(%d) = %s, enumeration gives %s (+ up to %s)", v, got, w, lost)
				}
			}
			for v := range want {
				if v < d.Min || v > d.Max() {
					t.Errorf("enumeration has %d outside %d..%d", v, d.Min, d.Max())
				}
			}
		})
	}
}

func TestRollerFormsShown(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"3d6cs>=5cf1sd", "3d6cs>=5cf1sd [6↑, 2, 1↓] = 9"},
		{"3d6sa", "3d6sa [1, 2, 6] = 9"},
		{"2d6!!p", "2d6!!p [2, 6!] = 8"},
	} {
		e, err := Parse(tt.src, nil)
		if err != nil {
			t.Fatal(err)
		}
		q := &Queue{}
		q.Push("2", "6", "1")
		r, err := e.Roll(q)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.String(); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.src, got, tt.want)
		}
	}
}

// Conditions written the rollers' ways mean what they say, checked on known values.
func TestRollerConditionsKnownValues(t *testing.T) {
	for _, tt := range []struct {
		src  string
		v    int
		want *big.Rat
	}{
		{"2d4 <> 5", 1, big.NewRat(3, 4)},
		{"1d4<>2", 1, big.NewRat(3, 4)},
		{"1d6r", 1, big.NewRat(0, 1)},
		{"1d6r", 6, big.NewRat(1, 5)},
		{"2d2u=2", 4, big.NewRat(0, 1)},
		{"2d2u=1", 2, big.NewRat(0, 1)},
		{"2d2u=1", 4, big.NewRat(1, 4)},
		{"1dF.1", 0, big.NewRat(2, 3)},
		{"{2d3u}=3", 1, big.NewRat(2, 3)},
		{"{3d6}>=6", 3, big.NewRat(1, 216)},
		{"floor(7/2) + ceil(7/2) + round(5/2) + round(-5/2)", 7, big.NewRat(1, 1)},
		{"floor(2.5*2) + round(-0.5) + ceil(0.1) + floor(-0.1)", 4, big.NewRat(1, 1)},
	} {
		e, err := Parse(tt.src, nil)
		if err != nil {
			t.Fatal(err)
		}
		d, err := e.Distribution()
		if err != nil {
			t.Fatal(err)
		}
		if got := d.P(tt.v); got.Cmp(tt.want) != 0 {
			t.Errorf("%s: P(%d) = %s, want %s", tt.src, tt.v, got, tt.want)
		}
	}
}
