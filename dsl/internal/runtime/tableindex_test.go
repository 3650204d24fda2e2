package runtime_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"rulesh/dsl/internal/runtime"
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
		prog, _ := compile("t.rules", b.String())
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
			var walk *runtime.TableRow
			for _, r := range tab.Rows {
				if ok, _ := runtime.StaticMatch(r, k); ok {
					walk = r
					break
				}
			}
			got, _ := runtime.StaticRow(tab, k)
			if got != walk {
				t.Fatalf("key %v: index gives %v, walk gives %v\n%s", k, rowLine(got), rowLine(walk), b.String())
			}
		}
	}
}

func rowLine(r *runtime.TableRow) any {
	if r == nil {
		return "no row"
	}
	return r.Pos.Line
}

// A table of bands alone finds a number's row without allocating (no exact key to box).
func TestRowIndexBandsNoAllocation(t *testing.T) {
	prog, d := compile("t.rules", "table t(x) {\n  0 .. 1.5 : \"a\"\n  1.5 .. 2.5 : \"b\"\n  else : \"c\"\n}\n")
	if d.HasErrors() {
		t.Fatal(d)
	}
	tab := prog.Proc("t").Table
	var key any = 2.25
	if r, _ := runtime.StaticRow(tab, key); r != tab.Rows[1] {
		t.Fatalf("2.25 gives %v", rowLine(r))
	}
	if n := testing.AllocsPerRun(20, func() { runtime.StaticRow(tab, key) }); n != 0 {
		t.Errorf("%v allocations a lookup", n)
	}
}
