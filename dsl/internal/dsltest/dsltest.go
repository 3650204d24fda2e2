// Package dsltest holds helpers the external tests of the language's packages share: load
// rules through the facade and evaluate an input. Only tests import it; it imports package
// dsl, so the tests of package dsl itself cannot (they use ruletest).
package dsltest

import (
	"strings"
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
	m.SetEmit(func(s string) { out = append(out, s) })
	v, err := dsl.NewSession(m).Eval("<eval>", expr)
	return v, out, err
}

// Case is an input and what it gives: a value printed as Want, or an error holding Err.
// Name, when set, names the case in failures; Rolls are its hand-given die results (numbers
// or face names), taken before the machine's own source.
type Case struct {
	Name, Src, Want, Err string
	Rolls                []string
}

// CheckEvals evaluates each case on a fresh machine of prog, its dice from newSource.
func CheckEvals(t *testing.T, prog *dsl.Program, newSource func() dice.Source, cases []Case) {
	t.Helper()
	for _, c := range cases {
		src := newSource()
		if c.Rolls != nil {
			src = dice.NewQueue(c.Rolls, src)
		}
		m, err := dsl.NewMachine(prog, src, nil)
		if err != nil {
			t.Fatal(err)
		}
		name := c.Src
		if c.Name != "" {
			name = c.Name + ": " + c.Src
		}
		v, err := dsl.NewSession(m).Eval("<e>", c.Src)
		switch {
		case c.Err != "" && (err == nil || !strings.Contains(err.Error(), c.Err)):
			t.Errorf("%s: err = %v, want one containing %q", name, err, c.Err)
		case c.Err == "" && (err != nil || dsl.Repr(v) != c.Want):
			t.Errorf("%s = %v, %v; want %s", name, dsl.Repr(v), err, c.Want)
		}
	}
}

// CheckCases loads src as t.rules and checks each case (CheckEvals) on a fresh machine
// whose only dice are the case's Rolls: a case that rolls more fails.
func CheckCases(t *testing.T, src string, cases []Case) {
	t.Helper()
	prog, diags := dsl.LoadSource("t.rules", []byte(src))
	if diags.HasErrors() {
		t.Fatalf("load: %v", diags)
	}
	CheckEvals(t, prog, func() dice.Source { return dice.NewQueue(nil, nil) }, cases)
}
