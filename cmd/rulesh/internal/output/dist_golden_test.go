package output

import (
	"bytes"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"rulesh/stdlib/dice"
)

// goldenExprs cover sums, keep/drop, comparisons, negative outcomes, explosions (truncated
// mass), products and divisions, Fudge dice and the `prob` jobs of docs/PERFORMANCE.md.
var goldenExprs = []string{
	"1d1", "1d2", "3d6", "2d6-7", "-1d4", "4dF", "2d6 - 1d4", "(1d6)*(1d4)", "floor(2d8/3)",
	"8d6kh3", "4d6kh3", "4d6dl1", "5d4dh2", "20d6", "10d10kh3", "8d10>=7", "6d10>=8f1",
	"1d20+5 > 12", "3d6 >= 12", "1d2!", "1d10!", "2d6!", "10d10!!kh3+2d6", "3d4!p", "2d3u",
	"1d6r<3", "3d6min2", "1d13+1d17", "30d7", "25d6", "40d6", "200d10", "100d10kh3", "200d6kh3",
	"50d6!",
}

// TestDistGolden: Dist writes the very bytes refDist (big.Rat per row) writes, as a table and
// as JSON.
func TestDistGolden(t *testing.T) {
	exprs := goldenExprs
	if testing.Short() {
		// The two largest tables (thousands of rows, each a big.Rat in the reference) are
		// left to the full run; the hand-made distributions below still reach denominators
		// beyond float64 and probabilities that underflow.
		exprs = slices.DeleteFunc(slices.Clone(exprs), func(s string) bool { return s == "200d10" || s == "50d6!" })
	} else {
		exprs = append(exprs, "500d10")
	}
	combat, err := dice.NewDie("combat", []dice.Face{{Sym: "sabre"}, {Sym: "fusil"}, {Sym: "fusil"}, {Sym: "<é&>"}})
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]*dice.Die{"combat": combat}
	for _, src := range append(exprs, "combat") {
		compareDist(t, src, dist(t, src, named))
	}
	// Hand-made distributions: a comparison, a large prime denominator (GCDs), a denominator
	// above 2^64 with small factors and weights of every size (subnormal probabilities),
	// truncated mass, a power of two.
	compareDist(t, "heads", &dice.Dist{Min: 0, W: []*big.Int{big.NewInt(3), big.NewInt(1)}, Den: big.NewInt(4), Bool: true})
	rng := rand.New(rand.NewPCG(15, 15))
	p127 := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 127), big.NewInt(1))
	dens := []*big.Int{
		p127,
		new(big.Int).Exp(big.NewInt(6), big.NewInt(450), nil),
		new(big.Int).Exp(big.NewInt(10), big.NewInt(340), nil),
		new(big.Int).Lsh(big.NewInt(1), 1100),
		new(big.Int).Mul(new(big.Int).Exp(big.NewInt(30), big.NewInt(30), nil), big.NewInt(4093)),
		new(big.Int).Mul(new(big.Int).Exp(big.NewInt(30), big.NewInt(30), nil), big.NewInt(4099)),
		big.NewInt(1 << 60),
		new(big.Int).SetUint64(1<<64 - 59),
	}
	for k, den := range dens {
		d := randomDist(rng, den, 300, k%2 == 1)
		compareDist(t, "random", d)
	}
}

// randomDist spreads den (less a little when truncated) over n weights of every bit length.
func randomDist(rng *rand.Rand, den *big.Int, n int, truncated bool) *dice.Dist {
	left := new(big.Int).Set(den)
	if truncated {
		left.Sub(left, big.NewInt(7))
	}
	d := &dice.Dist{Min: -n / 2, Den: den}
	for i := 0; i < n && left.Sign() > 0; i++ {
		bitsLen := rng.IntN(den.BitLen() + 1)
		w := randBelow(rng, new(big.Int).Lsh(big.NewInt(1), uint(bitsLen)))
		switch rng.IntN(4) {
		case 0:
			w.SetInt64(0)
		case 1:
			w.Mul(w, new(big.Int).Exp(big.NewInt(int64(2+rng.IntN(9))), big.NewInt(int64(rng.IntN(40))), nil))
		}
		if w.Cmp(left) > 0 {
			w.Set(left)
		}
		left.Sub(left, w)
		d.W = append(d.W, w)
	}
	d.W = append(d.W, left)
	return d
}

func compareDist(t *testing.T, src string, d *dice.Dist) {
	t.Helper()
	for _, asJSON := range []bool{false, true} {
		var got, want bytes.Buffer
		gotErr, wantErr := Dist(&got, src, d, asJSON), refDist(&want, src, d, asJSON)
		if (gotErr == nil) != (wantErr == nil) {
			t.Errorf("%s (json %v): error %v, want %v", src, asJSON, gotErr, wantErr)
		}
		if got.String() != want.String() {
			g, w := strings.Split(got.String(), "\n"), strings.Split(want.String(), "\n")
			for i := range min(len(g), len(w)) {
				if g[i] != w[i] {
					t.Errorf("%s (json %v): line %d\n got %.300q\nwant %.300q", src, asJSON, i+1, g[i], w[i])
					break
				}
			}
			if len(g) != len(w) {
				t.Errorf("%s (json %v): %d lines, want %d", src, asJSON, len(g), len(w))
			}
		}
	}
}

// TestQuotient: quotient.float rounds as big.Rat's Float64, through subnormals and
// underflow; 200,000 random quotients, a tenth of them with -short (CI's race run).
func TestQuotient(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var z quotient
	one := big.NewInt(1)
	n := 200_000
	if testing.Short() {
		n /= 10
	}
	for i := range n {
		bl := 1 + rng.IntN(1200)
		b := randBelow(rng, new(big.Int).Lsh(one, uint(bl)))
		b.Add(b, one)
		a := new(big.Int)
		switch i % 5 {
		case 0: // anything up to b
			a.Set(randBelow(rng, b))
		case 1: // tiny against b: subnormal or zero
			a.Set(randBelow(rng, new(big.Int).Lsh(one, uint(rng.IntN(60)))))
		case 2: // a multiple of a small number over a power of two: ties
			b.Lsh(one, uint(rng.IntN(1200)))
			a.SetUint64(rng.Uint64() >> rng.IntN(64))
		case 4: // within a few units of a midpoint between two float64: M odd of 54 bits
			m := new(big.Int).SetUint64(rng.Uint64()>>10 | 1<<53 | 1)
			a.Mul(m, b)
			a.Add(a, big.NewInt(int64(rng.IntN(5)-2)))
			b.Lsh(b, uint(rng.IntN(1100)))
		case 3: // above 1
			a.Mul(b, big.NewInt(int64(rng.IntN(1000)+1)))
			a.Add(a, big.NewInt(int64(rng.IntN(3))))
		}
		want, _ := new(big.Rat).SetFrac(a, b).Float64()
		if got := z.float(a, b); got != want {
			t.Fatalf("%v/%v: got %v, want %v", a, b, got, want)
		}
	}
}

// TestFractions: appendFrac writes what big.Rat's RatString writes.
func TestFractions(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	dens := []*big.Int{big.NewInt(216), big.NewInt(1)}
	for _, s := range []struct{ b, e int64 }{{6, 40}, {10, 500}, {2, 200}, {12, 90}, {7, 100}, {4093, 30}, {4099, 20}, {6, 8}} {
		dens = append(dens, new(big.Int).Exp(big.NewInt(s.b), big.NewInt(s.e), nil))
	}
	dens = append(dens, new(big.Int).Mul(dens[3], new(big.Int).Exp(big.NewInt(3*5*7*11), big.NewInt(60), nil)))
	for _, den := range dens {
		f := newFractions(den)
		for i := range 3000 {
			w := randBelow(rng, den)
			switch i % 3 {
			case 0: // many small factors in common
				g := new(big.Int).Exp(big.NewInt(int64(2+rng.IntN(11))), big.NewInt(int64(rng.IntN(80))), nil)
				w.Quo(den, g.GCD(nil, nil, g, den))
				w.Mul(w, big.NewInt(int64(1+rng.IntN(5))))
				if w.Cmp(den) > 0 {
					w.Set(den)
				}
			case 1:
				w.Set(den)
			}
			if w.Sign() == 0 {
				w.SetInt64(1)
			}
			want := new(big.Rat).SetFrac(w, den).RatString()
			if got := string(f.appendFrac(nil, w)); got != want {
				t.Fatalf("%v/%v: got %s, want %s", w, den, got, want)
			}
		}
	}
}

// randBelow returns a random integer in [0, n) for n > 0.
func randBelow(rng *rand.Rand, n *big.Int) *big.Int {
	words := make([]big.Word, len(n.Bits())+1)
	for i := range words {
		words[i] = big.Word(rng.Uint64())
	}
	x := new(big.Int).SetBits(words)
	return x.Mod(x, n)
}
