// Package dsltest holds helpers the external tests of the language's packages share: load
// rules through the facade and evaluate an input. Only tests import it; it imports package
// dsl, so the tests of package dsl itself cannot (they use ruletest).
package dsltest

import (
	"testing"

	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

// Run loads src, evaluates expr with hand-given rolls and returns the result, the emitted
// lines and the error.
func Run(t *testing.T, src, expr string, rolls ...int) (any, []string, error) {
	t.Helper()
	prog, diags := dsl.LoadSource("t.rules", []byte(src))
	if diags.HasErrors() {
		t.Fatalf("load: %v", diags)
	}
	m, err := dsl.NewMachine(prog, dice.NewIntQueue(rolls, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	m.Emit = func(s string) { out = append(out, s) }
	v, err := dsl.NewSession(m).Eval("<eval>", expr)
	return v, out, err
}
