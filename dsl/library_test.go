package dsl

import (
	"testing"

	exprbuiltin "github.com/expr-lang/expr/builtin"
)

// TestBuiltinsRegistered: every library is registered, once, and none of its names shadows
// one of expr-lang's builtins (a rule calling it would reach the other).
func TestBuiltinsRegistered(t *testing.T) {
	b := library().Builtins
	for _, name := range []string{"entities", "d", "roll", "shuffle", "draw", "pass", "hex", "hex_distance", "line_of_fire"} {
		if _, ok := b[name]; !ok {
			t.Errorf("builtin %s is not registered", name)
		}
	}
	for name := range b {
		for _, n := range exprbuiltin.Names {
			if n == name {
				t.Errorf("builtin %s shadows expr-lang's", name)
			}
		}
	}
}
