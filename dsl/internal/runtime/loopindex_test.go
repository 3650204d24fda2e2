package runtime_test

import (
	"testing"

	"rulesh/dsl/internal/peek"
)

// TestLoopIndexBoxedOnlyWhenNamed: a loop that does not name its index (`for i in n`,
// `for x in list`) boxes no index: counting past 255, each boxed int is an allocation.
func TestLoopIndexBoxedOnlyWhenNamed(t *testing.T) {
	s := session(t, `action compte(n: int) {
  for i in n { }
}
action avec_cle(n: int) {
  for k, i in n { }
}
`)
	m := peek.Machine(s.M)
	run := func(name string) float64 {
		p := m.Proc(name)
		return testing.AllocsPerRun(5, func() {
			if _, err := m.CallProc(p, 1000); err != nil {
				t.Fatal(err)
			}
		})
	}
	// The counter's values past 255 are boxed (744 of them), and the key too when named.
	if got := run("compte"); got > 800 {
		t.Errorf("for i in 1000: %v allocations, want at most 800 (the index boxed unnamed?)", got)
	}
	if got := run("avec_cle"); got < 1400 {
		t.Errorf("for k, i in 1000: %v allocations, want the key boxed too (at least 1400)", got)
	}
}
