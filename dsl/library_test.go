package dsl

import (
	"slices"
	"testing"
)

// TestBuiltinsRegistered: every library is registered, once. That none of their names
// shadows one of expr-lang's builtins is tested in package exprx.
func TestBuiltinsRegistered(t *testing.T) {
	b := library.Get().Builtins
	for _, name := range []string{"entities", "d", "roll", "shuffle", "draw", "pass", "hex", "hex_distance", "line_of_fire"} {
		if _, ok := b[name]; !ok {
			t.Errorf("builtin %s is not registered", name)
		}
	}
}

// TestBuiltinsChangingState: exactly the card builtins that move cards or set an allowance
// change the run's state, so a rule may call every other builtin. A new builtin is pure
// unless marked; this list makes adding one a decision.
func TestBuiltinsChangingState(t *testing.T) {
	var got []string
	for name, b := range library.Get().Builtins {
		if b.ChangesState {
			got = append(got, name)
		}
	}
	slices.Sort(got)
	want := []string{"allow", "deal", "draw", "move", "pass", "play", "shuffle"}
	if !slices.Equal(got, want) {
		t.Errorf("builtins changing the state: %v, want %v", got, want)
	}
}
