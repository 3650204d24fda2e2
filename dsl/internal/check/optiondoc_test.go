package check

import (
	"testing"

	"rulesh/dsl/internal/runtime"
)

// TestOptionDocAfterGroup: an option's doc string may follow a list or a map default, whose
// closing bracket is not among the value's top-level tokens (it failed with "unexpected end
// of input"), and blanks before the doc are not part of the value.
func TestOptionDocAfterGroup(t *testing.T) {
	src := "option r = [\"a\", \"b\"]   \"the list\"\noption m = {a: 1, b: [2]} \"the map\"\noption n = 3\t\"a number\"\noption s = (1 + 2) * 2 \"grouped\"\noption u = [1]\n"
	c := checkSource(t, "o.rules", []byte(src))
	for _, d := range c.Diags {
		t.Errorf("unexpected diagnostic: %v", d)
	}
	want := map[string][2]string{
		"r": {`["a", "b"]`, "the list"},
		"m": {`{a: 1, b: [2]}`, "the map"},
		"n": {"3", "a number"},
		"s": {"6", "grouped"},
		"u": {"[1]", ""},
	}
	for _, o := range c.prog.Options {
		w := want[o.Name]
		if got := runtime.Repr(o.Default); got != w[0] || o.Doc != w[1] {
			t.Errorf("option %s = %s %q, want %s %q", o.Name, got, o.Doc, w[0], w[1])
		}
	}
	if len(c.prog.Options) != len(want) {
		t.Errorf("%d options, want %d", len(c.prog.Options), len(want))
	}
}
