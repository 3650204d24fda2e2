package exprx_test

import (
	"fmt"
	"testing"

	"rulesh/dsl/internal/exprx"
	"rulesh/dsl/internal/runtime"
	stddice "rulesh/stdlib/dice"
)

// matchesVMCounted fails t unless x (compiled to closures) gives what expr's VM gives for
// it in values: the same value of the same Go type, the same error and the same steps, and
// under every tighter step limit the same error.
func matchesVMCounted(t *testing.T, prog *runtime.Program, values map[string]*runtime.Expr, x *runtime.Expr, text string) {
	t.Helper()
	vmOnly := *x
	vmOnly.Fast = nil
	got, gotSteps, gotErr := evalCounted(t, prog, values, x, 0)
	want, wantSteps, wantErr := evalCounted(t, prog, values, &vmOnly, 0)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || runtime.Repr(got) != runtime.Repr(want) || fmt.Sprintf("%T", got) != fmt.Sprintf("%T", want) || gotSteps != wantSteps {
		t.Errorf("%s: closures %s (%T), %v, %d steps; VM %s (%T), %v, %d steps", text,
			runtime.Repr(got), got, gotErr, gotSteps, runtime.Repr(want), want, wantErr, wantSteps)
	}
	for limit := 1; limit <= wantSteps; limit++ {
		_, _, gotErr := evalCounted(t, prog, values, x, limit)
		_, _, wantErr := evalCounted(t, prog, values, &vmOnly, limit)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("%s within %d steps: closures %v; VM %v", text, limit, gotErr, wantErr)
		}
	}
}

// evalCounted is evalIn on a machine limited to maxSteps (0: the default limits), that also
// gives the steps the evaluation charged.
func evalCounted(t *testing.T, prog *runtime.Program, w map[string]*runtime.Expr, x *runtime.Expr, maxSteps int) (v any, steps int, err error) {
	t.Helper()
	m, err := runtime.NewMachine(prog, stddice.NewIntQueue([]int{3, 5, 2, 6, 1, 4}, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]any{"__rt": m, "malus": 3, "base": 10}
	for name, vx := range w {
		val, err := m.Eval(vx, env)
		if err != nil {
			t.Fatalf("value %s: %v", vx.Text, err)
		}
		env[name] = val
	}
	if maxSteps > 0 {
		m.Limits.MaxSteps = m.Steps() + maxSteps
	}
	before := m.Steps()
	// Twice on the same machine: the second evaluation reuses the state the first one left
	// (after a failure inside a predicate too) and must give the same.
	v, err = m.Eval(x, env)
	steps = m.Steps() - before
	if maxSteps == 0 {
		again, againErr := m.Eval(x, env)
		if fmt.Sprint(againErr) != fmt.Sprint(err) || runtime.Repr(again) != runtime.Repr(v) {
			t.Errorf("%s evaluated again: %s, %v; first %s, %v", x.Text, runtime.Repr(again), againErr, runtime.Repr(v), err)
		}
	}
	return v, steps, err
}

// The closures of the predicate builtins and of x in keys(m) against the VM: the same value,
// the same error at the same place, the same steps charged, and under a step limit the same
// failure wherever it falls.
func TestPredicatesAndInKeysMatchVM(t *testing.T) {
	prog := load(t)
	unit := prog.Globals["Unit"].(*runtime.Kind).Type()
	types := map[string]*runtime.Type{
		"i": runtime.IntType, "s": runtime.StringType, "n": runtime.AnyType, "r": runtime.RollType,
		"u": unit, "l": runtime.ListType, "m": builtinType("map"),
	}
	world := map[string]string{"i": "2", "s": `"b"`, "n": `"a"`, "r": "2d6", "u": "Unit({force: 4})",
		"l": "[1, 2, 3]", "m": "{a: 1, b: 2, c: 3}"}
	values := map[string]*runtime.Expr{}
	for name, src := range world {
		vx := expr(src)
		if _, diags, cerr := exprx.NewCompiler(prog).Compile(vx, &scope{prog: prog, inProc: true}); diags != nil || cerr != nil {
			t.Fatalf("value %s: %v %v", src, diags, cerr)
		}
		values[name] = vx
	}
	texts := []string{
		// x in keys(m): a look-up, or the two calls when x is no string or m no map.
		"s in keys(m)", "'a' in keys(m)", "'z' in keys(m)", "n in keys(m)", "'__kind' in keys(u)",
		"'force' in keys(u)", "'nom' in keys(u)", "i in keys(m)", "r in keys(m)",
		"s in keys(n)", "i in keys(n)", "nil in keys(m)", "s in keys({})", "!(s in keys(m)) || i > 1",
		"any(['a', 'z'], # in keys(m))", "filter(['c', 'z', 'a'], # in keys(m))",
		// Loops inside loops, results that are empty, failures in the middle of a loop.
		"map(l, filter(l, # > 1))", "filter(l, any(l, # == 2))", "sortBy(filter(l, # > 1), -#)",
		"len(filter(l, # > 1))", "count(l, # > 0) > 1", "count(l, # > 0) >= 2", "count(l, # > 0) < 1",
		"filter(l, # > 5)", "map([], #)", "sortBy(filter(l, # > 5), #)", "reduce(filter(l, # > 1), #acc + #)",
		"filter([1, 's', 2], # > 1)", "map(l, filter([1, 's'], # > 0))", "any(l, filter([n], # > 1) == [])",
		"sortBy([2, 's', 1], #)", "sortBy(l, filter([1, 's'], # > 0))", "find(l, 1 / (# - 2) > 0)",
		"findLast(l, # < 3)", "findIndex(l, # > 9)", "findLastIndex(l, # > 1)", "one(l, # == 2)",
		"one(l, # > 1)", "none(l, # > 2)", "all(l, # > 0)", "all(l, # > 1)", "sum(l, # * 2)", "sum(filter(l, # > 1))",
		"reduce([], #acc)", "reduce(l, #acc + #, 10)", "map(l, map(l, #index))", "filter(l, #)",
		"all(l, n)", "count(l, n)", "filter(l, n)", "map(filter(l, # > 1), # * 10)", "filter(l, # > 1)[0]",
		"len(map(l, #)) + len(filter(l, true))",
		// max and min of ints here, of anything else by expr's function; their arguments
		// charged by __nums.
		"max(0, i - 3)", "min(max(i, 1), len(l))", "max(l)", "min(l, i)", "max(r, i)", "min(map(l, #), [])",
		"concat(l, [])", "concat([], [])", "concat(l, l)[1:-1]", "len(concat(l, [i]))", "concat(l, n)",
		"concat(l, [m], 1..i)", "len(m) + len(s) + len(l)", "l[i:]", "l[-5:9]", "l[:n]", "filter(l, # > 1)[1:]",
		"max(i, [1, 's'])", "max(i, n)", "min([])", "max(i, 1.5)",
		// sortBy(…)[0], its first element without the list: the first of equal keys, up to 12
		// elements searched and past them sorted, keys of other types sorted, none at all.
		"sortBy([4, 3, 2, 5], # % 2)[0]", "sortBy([4, 3, 2, 5], # % 2, 'desc')[0]", "sortBy(l, -#)[0]",
		"sortBy(1..12, # % 3)[0]", "sortBy(1..13, # % 3, 'desc')[0]", "sortBy(1..40, # % 7)[0]",
		"sortBy([], #)[0]", "sortBy(filter(l, # > 5), #)[0]", "sortBy(['b', 'a', 'a'], #)[0]",
		"sortBy([2, 1.5, 1], #)[0]", "sortBy([2, 's'], #)[0]", "sortBy(l, 1 / (# - 2))[0]",
		"sortBy(l, #, n)[0]", "sortBy(l, #)[0] + sortBy(l, #, 'desc')[0]",
		"sortBy([sortBy([5, 4], #)[0], 1, 9], #)[0]", "sortBy([3, 1, 2], sortBy([#, 0], #)[0])[0]",
		"sortBy([[3, 1], [0, 2]], sortBy(#, #)[0])[0]",
	}
	for _, text := range texts {
		x := expr(text)
		if _, diags, cerr := exprx.NewCompiler(prog).Compile(x, &scope{prog: prog, locals: types, inProc: true}); diags.HasErrors() || cerr != nil {
			t.Errorf("%s: %v %v", text, diags, cerr)
			continue
		}
		if x.Fast == nil {
			t.Errorf("%s is left to the VM", text)
			continue
		}
		matchesVMCounted(t, prog, values, x, text)
	}
}

// any, all, none, find and a count compared with a threshold stop at the element that
// decides: the next element (1 % 0) would fail.
func TestPredicatesStopEarly(t *testing.T) {
	prog := load(t)
	for _, tc := range []struct{ text, want string }{
		{"any([1, 0], 1 % # == 0)", "true"},
		{"all([1, 0], 1 % # == 1)", "false"},
		{"none([1, 0], 1 % # == 0)", "false"},
		{"find([1, 0], 1 % # == 0)", "1"},
		{"findIndex([1, 0], 1 % # == 0)", "0"},
		{"findLast([0, 1], 1 % # == 0)", "1"},
		{"count([1, 0], 1 % # == 0) > 0", "true"},
		{"count([1, 1, 0], 1 % # == 0) >= 2", "true"},
	} {
		x := expr(tc.text)
		if _, diags, cerr := exprx.NewCompiler(prog).Compile(x, &scope{prog: prog, inProc: true}); diags.HasErrors() || cerr != nil || x.Fast == nil {
			t.Fatalf("%s: %v %v (closures: %v)", tc.text, diags, cerr, x.Fast != nil)
		}
		vmOnly := *x
		vmOnly.Fast = nil
		for _, code := range []*runtime.Expr{x, &vmOnly} {
			got, _, err := evalCounted(t, prog, nil, code, 0)
			if err != nil || runtime.Repr(got) != tc.want {
				t.Errorf("%s (closures: %v) = %s, %v; want %s", tc.text, code.Fast != nil, runtime.Repr(got), err, tc.want)
			}
		}
	}
}
