package check_test

import (
	"testing"

	"rulesh/dsl"
)

// TestRolledTableKeyType: a rolled table's key is the number rolled; a key declared of
// another type (an enum, a string) would refuse every roll, so the check refuses it.
func TestRolledTableKeyType(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"enum E { a, b }\ntable t(x: E) roll 1d2 {\n  a : 1\n  b : 2\n}\n", "t.rules:2:1: table t rolls 1d2 for its key x, which is E"},
		{"table t(x: string) roll 1d2 {\n  \"1\" : 1\n}\n", "t.rules:1:1: table t rolls 1d2 for its key x, which is string"},
		{"table t(x: int) roll 1d2 {\n  1 : \"un\"\n  2 : \"deux\"\n}\n", ""},
		{"table t roll 1d2 {\n  1 : \"un\"\n  2 : \"deux\"\n}\n", ""},
	} {
		_, diags := dsl.LoadSource("t.rules", []byte(c.src))
		got := ""
		if len(diags) > 0 {
			got = diags[0].Pos.String() + ": " + diags[0].Summary
		}
		if got != c.want {
			t.Errorf("%q: got %q, want %q", c.src, got, c.want)
		}
	}
}
