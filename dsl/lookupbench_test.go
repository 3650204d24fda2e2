package dsl

import (
	"fmt"
	"strings"
	"testing"
)

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
	p := prog.p.Proc("t")
	b.ResetTimer()
	i := 0
	for b.Loop() {
		if _, err := m.m.CallProc(p, key(i)); err != nil {
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
