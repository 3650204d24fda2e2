package runtime_test

import (
	"math"
	"testing"

	"rulesh/dsl/internal/runtime"
)

// Int boxes an int as Go does (the same value, of type int), from the table without an
// allocation between -256 and 1023, and as Go does past them.
func TestIntBoxes(t *testing.T) {
	for _, v := range []int{math.MinInt, -257, -256, -255, -3, -1, 0, 1, 255, 256, 1000, 1023, 1024, math.MaxInt} {
		got := runtime.Int(v)
		if x, ok := got.(int); !ok || x != v || got != any(v) {
			t.Errorf("Int(%d) = %#v", v, got)
		}
	}
	// Every entry of the table (written by boxedints_gen.go) holds its own int.
	for v := -256; v <= 1023; v++ {
		if x, ok := runtime.Int(v).(int); !ok || x != v {
			t.Fatalf("Int(%d) = %#v", v, runtime.Int(v))
		}
	}
	var sink any
	for _, v := range []int{-256, -3, 300, 1023} {
		if n := testing.AllocsPerRun(20, func() { sink = runtime.Int(v) }); n != 0 {
			t.Errorf("Int(%d): %v allocations", v, n)
		}
	}
	_ = sink
}
