package check

import (
	"strings"
	"testing"
)

// The variables of a for loop have the static type of what they run over: a count's
// counter and a list's index are ints, a typed list's values its element type. A loop
// variable typed any would let a wrong use through to run time (and send its arithmetic
// through the generic operators).
func TestLoopVariableTypes(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"count", `for i in 3 { let s: string = i }`, "int"},
		{"count key", `for k, i in 3 { let s: string = k }`, "int"},
		{"list index", `for k, x in ["a", "b"] { let s: bool = k }`, "int"},
		{"typed list", `let xs: []string = ["a"]
  for x in xs { let n: int = x }`, "string"},
		{"count ok", `for i in 3 { let n: int = (i - 1) * 10 + i }`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "action a() {\n  " + tc.body + "\n}\n"
			c := checkSource(t, "loop.rules", []byte(src))
			var msgs []string
			for _, d := range c.Diags {
				if d.Severity != Warning {
					msgs = append(msgs, d.Summary+" "+d.Detail)
				}
			}
			if tc.want == "" {
				if len(msgs) > 0 {
					t.Fatalf("unexpected errors: %v", msgs)
				}
				return
			}
			if len(msgs) != 1 || !strings.Contains(msgs[0], tc.want) {
				t.Fatalf("errors %q, want one naming %s", msgs, tc.want)
			}
		})
	}
}
