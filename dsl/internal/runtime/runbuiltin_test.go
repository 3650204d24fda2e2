package runtime

import (
	"strings"
	"testing"
)

// TestRunBuiltinPanics: a builtin that panics on a case it does not handle fails in the
// language's words, never Go's (line_of_fire from a hex to itself said "slice bounds out of
// range [1:0]"); an argument of a type the checker could not see still says what was expected.
func TestRunBuiltinPanics(t *testing.T) {
	zero := 0
	var nilMap map[string]int
	for _, c := range []struct {
		name string
		fn   func(m *Machine, a []any) (any, error)
		want string
	}{
		{"slice bounds", func(_ *Machine, a []any) (any, error) { return a[len(a)-1 : zero], nil }, "this function does not handle the arguments (1, \"x\"): an internal error, please report it"},
		{"index", func(_ *Machine, a []any) (any, error) { return a[5], nil }, "this function does not handle the arguments"},
		{"integer division", func(_ *Machine, a []any) (any, error) { return 1 / zero, nil }, "this function does not handle the arguments"},
		{"nil map", func(_ *Machine, a []any) (any, error) { nilMap["a"] = 1; return nil, nil }, "this function does not handle the arguments"},
		{"nil pointer", func(_ *Machine, a []any) (any, error) { var p *Machine; return p.steps, nil }, "this function does not handle the arguments"},
		{"a type the checker could not see", func(_ *Machine, a []any) (any, error) { return a[1].(int), nil }, "interface conversion"},
		{"a panic of its own", func(_ *Machine, a []any) (any, error) { panic("cards ran out") }, "cards ran out"},
	} {
		_, err := RunBuiltin(&Builtin{Fn: c.fn}, nil, []any{1, "x"})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
			continue
		}
		for _, goText := range []string{"out of range", "divide by zero", "nil map", "nil pointer", "invalid memory address"} {
			if strings.Contains(err.Error(), goText) {
				t.Errorf("%s: %v says Go's %q", c.name, err, goText)
			}
		}
	}
}
