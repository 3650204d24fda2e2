package dice

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// refPower is a^n by binary powering through Add (convolutions), the way sumN worked before
// the recurrence.
func refPower(t *testing.T, a *Dist, n int) *Dist {
	out, base := Point(0), a
	for ; n > 0; n >>= 1 {
		var err error
		if n&1 == 1 {
			if out, err = Add(out, base); err != nil {
				t.Fatal(err)
			}
		}
		if n > 1 {
			if base, err = Add(base, base); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

// TestPowerRecurrence: the recurrence gives the weights repeated convolution gives, for
// uniform dice, symmetric and lopsided weights, a_0 above 1, negative outcomes.
func TestPowerRecurrence(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 10))
	var dists []*Dist
	for _, s := range []int{3, 4, 6, 10, 12, 20, 64} {
		d, err := diceDistOf(s)
		if err != nil {
			t.Fatal(err)
		}
		dists = append(dists, d)
	}
	for range 12 {
		n := 3 + rng.IntN(20)
		d := &Dist{Min: rng.IntN(7) - 3, Den: new(big.Int)}
		for j := range n {
			w := big.NewInt(int64(rng.IntN(1 << uint(1+rng.IntN(30)))))
			if j == 0 || j == n-1 {
				w.Add(w, big.NewInt(1))
			}
			if j%2 == 1 && rng.IntN(3) == 0 {
				w.SetInt64(0)
			}
			d.W = append(d.W, w)
			d.Den.Add(d.Den, w)
		}
		if rng.IntN(2) == 0 { // symmetric
			for j := range n / 2 {
				d.W[n-1-j].Set(d.W[j])
			}
			d.Den = d.Mass()
		}
		if rng.IntN(3) == 0 { // mass lost
			d.Den.Add(d.Den, big.NewInt(int64(1+rng.IntN(100))))
		}
		dists = append(dists, d)
	}
	for i, a := range dists {
		for _, n := range []int{2, 3, 5, 16, 17, 40, 101} {
			ok, _ := powerPlan(a, n)
			if !ok {
				continue
			}
			t.Logf("dist %d (%d weights) to the %d", i, len(a.W), n)
			sameDist(t, powerRec(a, n).trim(), refPower(t, a, n))
		}
	}
	// The weights are independent: changing one leaves its mirror image alone.
	d10, _ := diceDistOf(10)
	p := powerRec(d10, 50)
	want := new(big.Int).Set(p.W[len(p.W)-1-3])
	p.W[3].Add(p.W[3], big.NewInt(1))
	if p.W[len(p.W)-1-3].Cmp(want) != 0 {
		t.Error("mirrored weights share their words")
	}
}

// TestPowerRecurrence500d10: the prob job 500d10, against the squarings.
func TestPowerRecurrence500d10(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	a, _ := diceDistOf(10)
	sameDist(t, powerRec(a, 500).trim(), refPower(t, a, 500))
}

func diceDistOf(sides int) (*Dist, error) {
	e, err := Parse("1d"+itoa(sides), nil)
	if err != nil {
		return nil, err
	}
	return e.Distribution()
}

func itoa(n int) string { return big.NewInt(int64(n)).String() }

// TestPowerLimit: the recurrence makes 1000d10 cheap, but 5000d10, whose 45,001 weights of
// 16,600 bits would take 450 MB to write out, is still refused by the work limit.
func TestPowerLimit(t *testing.T) {
	e, err := Parse("5000d10", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Distribution(); err != ErrTooMuchWork {
		t.Errorf("5000d10: %v, want %v", err, ErrTooMuchWork)
	}
	e, _ = Parse("1000d10", nil)
	if _, err := e.Distribution(); err != nil {
		t.Errorf("1000d10: %v", err)
	}
}
