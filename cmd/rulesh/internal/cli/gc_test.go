package cli

import (
	"runtime/debug"
	"testing"
)

// During sim the collector runs at simGCPercent, and after it as before; a GOGC given in
// the environment is left alone.
func TestCollectLess(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	for _, c := range []struct {
		env  string
		want int
	}{{"", simGCPercent}, {"50", 100}} {
		t.Setenv("GOGC", c.env)
		restore := collectLess()
		if got := debug.SetGCPercent(c.want); got != c.want {
			t.Errorf("GOGC=%q: sim runs at %d, want %d", c.env, got, c.want)
		}
		restore()
		if got := debug.SetGCPercent(100); got != 100 {
			t.Errorf("GOGC=%q: after sim %d, want 100", c.env, got)
		}
	}
}
