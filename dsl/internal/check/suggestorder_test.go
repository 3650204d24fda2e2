package check_test

import (
	"testing"

	"rulesh/dsl"
)

// TestSuggestionTiesAreStable: an unknown name as close to several locals (rdp is two
// edits from kd, kp, jd and jp) gets the same suggestion at every load: the innermost
// scope's names first (the body's lets before the parameters), each scope's in sorted
// order, not in whichever order a map walk of the scope met them.
func TestSuggestionTiesAreStable(t *testing.T) {
	const src = `rule f(jp: int, jd: int): int {
  let kp = 1
  let kd = 2
  return rdp + kp + kd
}
`
	const want = "4:10: unknown name rdp (did you mean kd?)\n"
	for range 40 {
		_, diags := dsl.LoadSource("t.rules", []byte(src))
		if got := diagLines(diags); got != want {
			t.Fatalf("got\n%s\nwant\n%s", got, want)
		}
	}
}
