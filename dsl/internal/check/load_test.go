package check_test

import (
	"errors"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/dsltest"
	"rulesh/dsl/internal/ruletest"
	"rulesh/dsl/internal/runtime"
)

// unitRules is shared with the other packages' tests.
const unitRules = ruletest.UnitRules

// run loads rules and evaluates an input (dsltest.Run).
var run = dsltest.Run

func TestEvalCompileErrorHasColumn(t *testing.T) {
	_, _, err := run(t, unitRules, "a.forse + 1")
	var ds dsl.Diagnostics
	if !errors.As(err, &ds) || ds[0].Pos.Col != 3 || !strings.Contains(ds[0].Detail, "force") {
		t.Fatalf("err = %#v, want unknown field at column 3 suggesting force", err)
	}
}

// TestUnknownNameBesideRoll: an operator met with a roll becomes a call that expr does not
// check again, so an unknown name beside a roll must still be caught at load.
func TestUnknownNameBesideRoll(t *testing.T) {
	for _, body := range []string{"1d6 + nope", "nope * 2d6", "max(1d6 - nope, 1)"} {
		_, diags := dsl.LoadSource("t.rules", []byte("rule f() {\n  return "+body+"\n}\n"))
		if !diags.HasErrors() || !strings.Contains(diags.Error(), "unknown name nope") {
			t.Errorf("%s: want unknown name nope, got %v", body, diags)
		}
	}
	if _, diags := dsl.LoadSource("t.rules", []byte("rule f() {\n  return reduce(1..3, #acc + 1d6, 0)\n}\n")); diags.HasErrors() {
		t.Errorf("reduce over rolls: %v", diags)
	}
}

// TestLocalHidesEntityInNestedBlock: a local named like an entity keeps its own type in
// blocks nested below its declaration (a scenario's `entity t` used to hide the rules'
// `let t` there: "unknown field").
func TestLocalHidesEntityInNestedBlock(t *testing.T) {
	src := "kind F {\n  nom: string\n}\nentity t: F { }\nrule tr() {\n  return {écart: 3}\n}\naction tirer() {\n  let t = tr()\n  if t.écart > 0 {\n    emit \"écart {t.écart}\"\n    return t.écart\n  }\n}\n"
	v, out, err := run(t, src, "tirer()")
	if err != nil || runtime.Repr(v) != "3" || len(out) != 1 || out[0] != "écart 3" {
		t.Errorf("tirer() = %v, %v, %v; want 3 and one line", runtime.Repr(v), out, err)
	}
}

// TestBuiltinNamesAndNaNBands: a procedure or const named like an expr-lang builtin is
// refused (count(…) would reach the builtin, never the rule). The NaN half is runtime's.
func TestBuiltinNamesAndNaNBands(t *testing.T) {
	for _, src := range []string{"rule count(x: int): int {\n  return x\n}\n", "const filter = 1\n"} {
		if _, d := dsl.LoadSource("b.rules", []byte(src)); !strings.Contains(d.Error(), "is a builtin function") {
			t.Errorf("%q: %v, want a builtin clash", src, d)
		}
	}
}

// TestNoClock (from the budget tests): builtins that read the clock or the host's time zones are not reachable.
func TestNoClock(t *testing.T) {
	for _, name := range []string{"now", "date", "duration", "timezone"} {
		s := newInputSession(t)
		_, err := s.Eval("<e>", name+`("1h")`)
		if err == nil || !strings.Contains(err.Error(), "not available") {
			t.Errorf("%s: err = %v, want not available", name, err)
		}
	}
}
