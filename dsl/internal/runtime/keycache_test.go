package runtime_test

import (
	"testing"

	"rulesh/dsl/internal/runtime"
)

// The keys a machine keeps of a map (keycache.go) are the map's keys after every change
// of them: an entry added in a call, within the call and after it, one taken away again
// by the rollback of a call that failed, and another added in its place.
func TestKeptKeysFollowTheMap(t *testing.T) {
	_, m := newMachine(t, `
kind K { pts: map[string]int = {} }
entity k: K { }
action add(name: string) { k.pts[name] = 1 }
action add_fail(name: string) {
  k.pts[name] = 1
  require len(keys(k.pts)) == 0 else "non"
}
action twice(name: string): list {
  let before = keys(k.pts)
  k.pts[name] = 2
  return [before, keys(k.pts)]
}
rule names(): list { return keys(k.pts) }
`)
	for _, c := range []struct {
		proc, arg, want string
	}{
		{"names", "", "[]"},
		{"add", "b", "nil"},
		{"names", "", `["b"]`},
		{"add", "a", "nil"},
		{"names", "", `["a", "b"]`},
		{"add_fail", "c", "error"},
		{"names", "", `["a", "b"]`},
		{"twice", "z", `[["a", "b"], ["a", "b", "z"]]`},
		{"names", "", `["a", "b", "z"]`},
		{"add", "z", "nil"}, // a value changed, no key
		{"names", "", `["a", "b", "z"]`},
		// As many keys as the list kept in the call that failed, not the same ones.
		{"add_fail", "c", "error"},
		{"add", "d", "nil"},
		{"names", "", `["a", "b", "d", "z"]`},
	} {
		var args []any
		if c.arg != "" {
			args = []any{c.arg}
		}
		v, err := m.Call(c.proc, args...)
		got := runtime.Repr(v)
		if err != nil {
			got = "error"
		}
		if got != c.want {
			t.Errorf("%s(%s) = %s (%v), want %s", c.proc, c.arg, got, err, c.want)
		}
	}
}
