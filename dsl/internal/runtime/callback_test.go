package runtime_test

import (
	"testing"

	"rulesh/dsl/internal/peek"
	"rulesh/dsl/internal/runtime"
)

// TestCallback: which procedures fit the call a builtin makes, how a misfit is worded, and
// how an argument (a procedure, a name computed at run time, "", anything else) is read.
func TestCallback(t *testing.T) {
	params := func(n int) []*runtime.Param { return make([]*runtime.Param, n) }
	cb := runtime.Callback{Arg: 4, Params: []string{"unit", "from", "to"}}
	for _, c := range []struct {
		p    *runtime.Proc
		fits bool
		msg  string
	}{
		{&runtime.Proc{Name: "coût", Params: params(3), MinArg: 3}, true, ""},
		{&runtime.Proc{Name: "coût", Params: params(2), MinArg: 2}, false, "coût takes 2 parameters; path calls it with 3: (unit, from, to)"},
		{&runtime.Proc{Name: "libre", Params: params(1), MinArg: 1}, false, "libre takes 1 parameter; path calls it with 3: (unit, from, to)"},
		{&runtime.Proc{Name: "arrêt", Params: params(4), MinArg: 3}, true, ""},
		{&runtime.Proc{Name: "arrêt", Params: params(5), MinArg: 4}, false, "arrêt takes 4 to 5 parameters; path calls it with 3: (unit, from, to)"},
	} {
		if got := cb.Fits(c.p); got != c.fits {
			t.Errorf("%s with %d to %d parameters fits: %v, want %v", c.p.Name, c.p.MinArg, len(c.p.Params), got, c.fits)
		}
		if !c.fits {
			if got := cb.Mismatch("path", c.p); got != c.msg {
				t.Errorf("Mismatch = %q, want %q", got, c.msg)
			}
		}
	}
	if !cb.Applies(5) || !cb.Applies(6) || cb.Applies(4) {
		t.Error("a callback at argument 4 applies to calls of 5 or more arguments")
	}
	older := runtime.Callback{Arg: 3, Args: 4}
	if !older.Applies(4) || older.Applies(5) {
		t.Error("a callback limited to 4 arguments applies to those calls only")
	}

	s := session(t, `rule coût(u, a, b): int {
  return 1
}
rule deux(a, b) {
  return 1
}
`)
	m := peek.Machine(s.M)
	coût := m.Proc("coût")
	for _, c := range []struct {
		arg  any
		want *runtime.Proc
		err  string
	}{
		{arg: coût, want: coût},
		{arg: "coût", want: coût},
		{arg: ""},
		{arg: "nope", err: "path: no procedure nope"},
		{arg: m.Proc("deux"), err: "deux takes 2 parameters; path calls it with 3: (unit, from, to)"},
		{arg: 3, err: "path: expected a procedure, got 3"},
	} {
		p, err := m.CallbackProc("path", cb, c.arg)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%v: err = %v, want %q", c.arg, err, c.err)
		case c.err == "" && (err != nil || p != c.want):
			t.Errorf("%v: %v, %v; want %v", c.arg, p, err, c.want)
		}
	}
	if got := runtime.Repr(coût); got != "rule coût" {
		t.Errorf("a procedure prints as %q, want %q", got, "rule coût")
	}
}
