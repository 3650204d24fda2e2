package dsl

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// The row index gives the row a walk of the rows gives, for random constant tables mixing
// exact keys, bands in order and out of order, shared boundaries and else.
func TestRowIndexMatchesWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	loaded := 0
	defer func() {
		if loaded < 100 {
			t.Errorf("only %d of 300 random tables loaded", loaded)
		}
	}()
	for round := 0; round < 300; round++ {
		var b strings.Builder
		b.WriteString("table t(x) {\n")
		n := 1 + rng.IntN(10)
		lo := 0.0
		for i := 0; i < n; i++ {
			switch rng.IntN(5) {
			case 0:
				fmt.Fprintf(&b, "  %d, %d : %d\n", rng.IntN(12), rng.IntN(12), i)
			case 1:
				fmt.Fprintf(&b, "  \"s%d\" : %d\n", rng.IntN(3), i)
			case 2:
				fmt.Fprintf(&b, "  <= %g : %d\n", float64(rng.IntN(24))/2, i)
			default:
				if rng.IntN(4) == 0 {
					lo = float64(rng.IntN(20)) / 2 // out of order from here on
				}
				hi := lo + float64(1+rng.IntN(4))/2
				open := []string{"[", "("}[rng.IntN(2)]
				closeB := []string{"]", ")"}[rng.IntN(2)]
				fmt.Fprintf(&b, "  %s%g .. %g%s : %d\n", open, lo, hi, closeB, i)
				lo = hi
			}
		}
		if rng.IntN(2) == 0 {
			b.WriteString("  else : -1\n")
		}
		b.WriteString("}\n")
		prog, _ := LoadSource("t.rules", []byte(b.String()))
		if prog == nil {
			continue // overlapping bands are refused: nothing to look up
		}
		loaded++
		tab := prog.Proc("t").Table
		if tab.Index == nil {
			t.Fatalf("no index for constant rows:\n%s", b.String())
		}
		keys := []any{"s0", "s1", "s5", true, nil}
		for v := -1.0; v <= 13; v += 0.25 {
			keys = append(keys, v, int(v))
		}
		for _, k := range keys {
			var walk *TableRow
			for _, r := range tab.Rows {
				if ok, _ := staticMatch(r, k); ok {
					walk = r
					break
				}
			}
			got, _ := staticRow(tab, k)
			if got != walk {
				t.Fatalf("key %v: index gives %v, walk gives %v\n%s", k, rowLine(got), rowLine(walk), b.String())
			}
		}
	}
}

func rowLine(r *TableRow) any {
	if r == nil {
		return "no row"
	}
	return r.Pos.Line
}

// genExact is a table of n exact keys.
func genExact(n int) []byte {
	var b strings.Builder
	b.WriteString("table t(x) {\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  %d : %d\n", i, i)
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

func benchLookup(b *testing.B, src []byte, key func(i int) any) {
	prog, diags := LoadSource("t.rules", src)
	if prog == nil {
		b.Fatal(diags)
	}
	m, err := NewMachine(prog, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	p := prog.Proc("t")
	b.ResetTimer()
	i := 0
	for b.Loop() {
		if _, err := m.CallProc(p, key(i)); err != nil {
			b.Fatal(err)
		}
		i = (i + 7919) % 100_000
	}
}

// Lookups in 100,000-row tables: an exact key, and a value in sorted bands.
func BenchmarkTableLookupExact100k(b *testing.B) {
	benchLookup(b, genExact(100_000), func(i int) any { return i })
}

func BenchmarkTableLookupBands100k(b *testing.B) {
	benchLookup(b, genBands(100_000), func(i int) any { return float64(i) + 0.5 })
}

// The Go references: a map lookup, and a binary search over sorted upper bounds.
func BenchmarkGoLookupExact100k(b *testing.B) {
	m := map[float64]int{}
	for i := 0; i < 100_000; i++ {
		m[float64(i)] = i
	}
	i, sink := 0, 0
	for b.Loop() {
		sink += m[float64(i)]
		i = (i + 7919) % 100_000
	}
	_ = sink
}

func BenchmarkGoLookupBands100k(b *testing.B) {
	his := make([]float64, 100_000)
	for i := range his {
		his[i] = float64(i + 1)
	}
	i, sink := 0, 0
	for b.Loop() {
		v := float64(i) + 0.5
		lo, hi := 0, len(his)
		for lo < hi {
			mid := (lo + hi) / 2
			if his[mid] >= v {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		sink += lo
		i = (i + 7919) % 100_000
	}
	_ = sink
}
