package dsl_test

import (
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

// emitRules emit templates, plain values and lines from inside the holes of other lines.
const emitRules = `ruleset "e"
rule nom(x: int): string {
  emit "nom {x}"
  return "n{x}"
}
action tout(x: int) {
  emit "début"
  emit x * 2
  emit [x, "a"]
  emit "{nom(x)} et {nom(x + 1)} : {1d6}"
  emit "{x}"
  emit "fin"
}
`

// TestSetEmitBytesGivesEmitsLines: a receiver of bytes gets, in the same order, the lines a
// receiver of strings gets, nested emits (a hole's rule emitting) included, and a rule that
// fails in a hole emits nothing of its line.
func TestSetEmitBytesGivesEmitsLines(t *testing.T) {
	prog, diags := dsl.LoadSource("e.rules", []byte(emitRules))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	// steps["receiver expr"] is the work of an evaluation.
	steps := map[string]int{}
	run := func(receiver, expr string) ([]string, error) {
		m, err := dsl.NewMachine(prog, dice.NewIntQueue([]int{4, 5}, nil), nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		switch receiver {
		case "bytes":
			m.SetEmit(func(string) { t.Error("SetEmit's receiver called beside SetEmitBytes'") })
			m.SetEmitBytes(func(b []byte) { out = append(out, string(b)) })
		case "string":
			m.SetEmit(func(s string) { out = append(out, s) })
		}
		_, err = dsl.NewSession(m).Eval("<e>", expr)
		steps[receiver+" "+expr] = m.Steps()
		return out, err
	}
	lines := func(bytes bool, expr string) ([]string, error) {
		if bytes {
			return run("bytes", expr)
		}
		return run("string", expr)
	}
	want := "début\n6\n[3, \"a\"]\nnom 3\nnom 4\nn3 et n4 : 4\n3\nfin"
	for _, bytes := range []bool{false, true} {
		got, err := lines(bytes, "tout(3)")
		if err != nil {
			t.Fatal(err)
		}
		if s := strings.Join(got, "\n"); s != want {
			t.Errorf("bytes=%v: lines %q, want %q", bytes, s, want)
		}
	}
	// The dice run out in the fourth line's hole: the lines before it only.
	var errWith string
	for _, bytes := range []bool{false, true} {
		got, err := lines(bytes, "[tout(1), tout(2), tout(3)]")
		if err == nil {
			t.Fatalf("bytes=%v: no error", bytes)
		}
		errWith = err.Error()
		if s := strings.Join(got, "\n"); !strings.HasSuffix(s, "n2 et n3 : 5\n2\nfin\ndébut\n6\n[3, \"a\"]\nnom 3\nnom 4") {
			t.Errorf("bytes=%v: lines %q", bytes, s)
		}
	}
	// Without a receiver the lines are dropped, but their holes still run: the same work,
	// the same dice, the same failure.
	if _, err := run("none", "tout(3)"); err != nil || steps["none tout(3)"] != steps["string tout(3)"] {
		t.Errorf("no receiver: %v, %d steps, want none and %d", err, steps["none tout(3)"], steps["string tout(3)"])
	}
	if _, err := run("none", "[tout(1), tout(2), tout(3)]"); err == nil || err.Error() != errWith {
		t.Errorf("no receiver: err = %v, want %s", err, errWith)
	}
}
