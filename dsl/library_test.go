package dsl

import "testing"

// TestBuiltinsRegistered: every library is registered, once. That none of their names
// shadows one of expr-lang's builtins is tested in package exprx.
func TestBuiltinsRegistered(t *testing.T) {
	b := library().Builtins
	for _, name := range []string{"entities", "d", "roll", "shuffle", "draw", "pass", "hex", "hex_distance", "line_of_fire"} {
		if _, ok := b[name]; !ok {
			t.Errorf("builtin %s is not registered", name)
		}
	}
}
