package dice

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

// bruteKeep enumerates every roll of n dice of faces 1..s (each equally likely), keeps with
// the roller's own rule (keepMask) and scores with score: counts of each total.
func bruteKeep(t *testing.T, node *Dice) map[int]int64 {
	t.Helper()
	n, s := node.Count, len(node.Die.Faces)
	vals := make([]int, n)
	counts := map[int]int64{}
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			kept := keepMask(vals, &node.Mods)
			tot := 0
			for j, v := range vals {
				if kept == nil || kept[j] {
					tot += score(node, v)
				}
			}
			counts[tot]++
			return
		}
		for f := 1; f <= s; f++ {
			vals[i] = f
			rec(i + 1)
		}
	}
	rec(0)
	return counts
}

func sameAsCounts(t *testing.T, src string, d *Dist, counts map[int]int64, total int64) {
	t.Helper()
	for v := d.Min; v <= d.Max(); v++ {
		want := big.NewRat(counts[v], total)
		if got := d.P(v); got.Cmp(want) != 0 {
			t.Errorf("%s: P(%d) = %s, enumeration gives %s", src, v, got, want)
		}
	}
	for v, c := range counts {
		if c != 0 && (v < d.Min || v > d.Max()) {
			t.Errorf("%s: enumeration has %d outside %d..%d", src, v, d.Min, d.Max())
		}
	}
}

// Every keep/drop of N <= 6 dice of S <= 6 sides, both programmes, against enumeration;
// with success counting (and failures) on a few of them.
func TestKeepMatchesBruteForce(t *testing.T) {
	defer func() { keepWay = keepWayCheapest }()
	for n := 1; n <= 6; n++ {
		for s := 1; s <= 6; s++ {
			for _, kind := range []string{"kh", "kl", "dh", "dl"} {
				for k := 0; k <= n; k++ {
					for _, count := range []string{"", fmt.Sprintf(">=%d", (s+1)/2+1), fmt.Sprintf(">=%df1", s)} {
						if count != "" && (n+k+s)%3 != 0 {
							continue // a third of the cases is enough for counting
						}
						src := fmt.Sprintf("%dd%d%s%d%s", n, s, kind, k, count)
						e, err := Parse(src, nil)
						if err != nil {
							continue // e.g. kh0 where the notation refuses it
						}
						node := e.Root.(*Dice)
						counts := bruteKeep(t, node)
						total := int64(1)
						for range n {
							total *= int64(s)
						}
						for _, way := range []int{keepWayKept, keepWayDropped, keepWayCheapest} {
							keepWay = way
							d, err := e.Distribution()
							if err != nil {
								t.Fatalf("%s: %v", src, err)
							}
							sameAsCounts(t, fmt.Sprintf("%s (way %d)", src, way), d, counts, total)
						}
					}
				}
			}
		}
	}
}

// The new programmes give exactly what the old ones gave, on cases the old ones computed.
func TestExactMatchesOldCode(t *testing.T) {
	for _, src := range []string{
		"3d6", "25d6", "60d6", "200d10", "100d2", "50dF", "40d4ro1", "30d20r<3", "12d8min3",
		"10d10>=7", "40d10>=8", "12d10>=8f1", "30d6>=5f1", "6d6!!>=5",
		"30d6kh3", "30d6kl4", "20d6dh2", "25d6dl1", "12d10kh6", "15d8kh7>=5", "10d6!!kh3",
		"8d20kl2", "14d6dl3", "16d4kh8f1", "9d12dh4>=10", "20d10kh1", "20d10kl19",
	} {
		t.Run(src, func(t *testing.T) {
			e, err := Parse(src, nil)
			if err != nil {
				t.Fatal(err)
			}
			node := e.Root.(*Dice)
			got, err := e.Distribution()
			if err != nil {
				t.Fatal(err)
			}
			var want *Dist
			wk := &work{}
			if node.Mods.Keep != KeepAll {
				per, err := wk.dieValueDist(node)
				if err != nil {
					t.Fatal(err)
				}
				if want, err = oldKeepDist(per, node); err != nil {
					t.Fatal(err)
				}
			} else {
				per, err := wk.dieDist(node)
				if err != nil {
					t.Fatal(err)
				}
				want = oldSumN(per, node.Count)
			}
			sameDist(t, got, want)
		})
	}
}

func sameDist(t *testing.T, got, want *Dist) {
	t.Helper()
	if got.Den.Cmp(want.Den) != 0 {
		t.Fatalf("denominator %s, want %s", got.Den, want.Den)
	}
	if got.Min != want.Min || len(got.W) != len(want.W) {
		t.Fatalf("support %d..%d, want %d..%d", got.Min, got.Max(), want.Min, want.Max())
	}
	for i := range got.W {
		if got.W[i].Cmp(want.W[i]) != 0 {
			t.Fatalf("weight of %d: %s, want %s", got.Min+i, got.W[i], want.W[i])
		}
	}
}

// The three ways of convolving agree on random vectors, small and huge weights alike.
func TestConvWaysAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		la, lb := 1+rng.IntN(90), 1+rng.IntN(90)
		bitsA, bitsB := 1+rng.IntN(200), 1+rng.IntN(200)
		if trial%3 == 0 {
			bitsA, bitsB = 1+rng.IntN(25), 1+rng.IntN(25)
		}
		mk := func(l, b int) []*big.Int {
			v := make([]*big.Int, l)
			for i := range v {
				x := new(big.Int)
				for range b {
					x.Lsh(x, 1)
					if rng.IntN(2) == 1 && i%7 != 3 { // some zeros inside
						x.SetBit(x, 0, 1)
					}
				}
				v[i] = x
			}
			return v
		}
		a, b := mk(la, bitsA), mk(lb, bitsB)
		if trial%5 == 0 {
			b = a // squaring
		}
		plan := planConv(a, b)
		ref := conv(a, b, convPlan{way: convBig})
		ways := []convPlan{{way: convKronecker, slot: 1 + (maxBits(a)+maxBits(b)+8)/64}}
		if plan.way == convU64 {
			ways = append(ways, plan)
		}
		for _, p := range ways {
			got := conv(a, b, p)
			for i := range ref {
				if got[i].Cmp(ref[i]) != 0 {
					t.Fatalf("trial %d way %d: coefficient %d = %s, want %s", trial, p.way, i, got[i], ref[i])
				}
			}
		}
	}
}

// Weights cut from one Kronecker product must not share memory: growing one in place
// leaves its neighbours alone.
func TestKroneckerWeightsAreIndependent(t *testing.T) {
	a := []*big.Int{big.NewInt(3), big.NewInt(5), big.NewInt(7)}
	out := conv(a, a, convPlan{way: convKronecker, slot: 1})
	before := out[2].String()
	out[1].Lsh(out[1], 300)
	out[1].Add(out[1], out[1])
	if out[2].String() != before {
		t.Fatalf("neighbour changed: %s, was %s", out[2], before)
	}
}

// The limit still refuses what is truly large, with its message.
func TestWorkLimitRefusesHuge(t *testing.T) {
	for _, src := range []string{"10000d100000", "5000d1000", "10000d6kh5000"} {
		e, err := Parse(src, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Distribution(); err == nil {
			t.Errorf("%s: computed, want a refusal", src)
		} else {
			t.Logf("%s: %v", src, err)
		}
	}
}

// Faces far apart are refused with a message, not given a dense table of every value between
// them (d[1, 1000000000000] ran out of memory; faces at the two ends of int64 made a table of
// length 0 and panicked).
func TestFacesFarApartRefused(t *testing.T) {
	tests := []struct {
		src  string
		want string // "" when the odds are computed
	}{
		{"d[1,1000000]", ""},
		{"d[1,1000001]", "span at most 1000000 values (these run from 1 to 1000001)"},
		{"d[1,1000000000000]", "span at most"},
		{"2d[-1000000000000,1000000000000]", "span at most"},
		{"d[1,100000000]>=2", "span at most"},
	}
	for _, tt := range tests {
		e, err := Parse(tt.src, nil)
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		_, err = e.Distribution()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v, want odds", tt.src, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: error %v, want one containing %q", tt.src, err, tt.want)
		}
	}
}

// TestErrTooMuchWorkSaysLimit: ErrTooMuchWork's text, written out so that no call builds it
// at init, names the limit MaxWork is.
func TestErrTooMuchWorkSaysLimit(t *testing.T) {
	if want := fmt.Sprintf("(limit %d)", MaxWork); !strings.Contains(ErrTooMuchWork.Error(), want) {
		t.Errorf("ErrTooMuchWork = %q, want it to say %s", ErrTooMuchWork, want)
	}
}
