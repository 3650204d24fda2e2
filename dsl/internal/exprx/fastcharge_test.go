package exprx_test

import (
	"fmt"
	"testing"

	"rulesh/dsl/internal/exprx"
	"rulesh/dsl/internal/runtime"
	stddice "rulesh/stdlib/dice"
)

// evalBudget evaluates x on a fresh machine whose steps are limited to what is spent before
// it plus maxSteps, and whose memory budget is memory (0: the default limits), and gives the
// steps the evaluation charged.
func evalBudget(t *testing.T, prog *runtime.Program, x *runtime.Expr, maxSteps, memory int) (v any, steps int, err error) {
	t.Helper()
	m, err := runtime.NewMachine(prog, stddice.NewIntQueue([]int{3, 5, 2, 6, 1, 4}, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]any{"__rt": m, "malus": 3, "base": 10}
	if maxSteps > 0 {
		m.Limits.MaxSteps = m.Steps() + maxSteps
	}
	if memory > 0 {
		m.Limits.MemoryBudget = uint(memory)
	}
	steps0 := m.Steps()
	v, err = m.Eval(x, env)
	return v, m.Steps() - steps0, err
}

// The budget's charges (a walk, a literal, a builtin's result), which the closures call
// without a recover around them, against the VM: the same value and steps charged, and under
// every tighter step limit and every small memory budget the same failure at the same place.
func TestBudgetChargesMatchVM(t *testing.T) {
	prog := load(t)
	texts := []string{
		"[1, 2, 3]", "{a: 1, b: [1, 2]}", "len([[1, 2], [3, 4, 5]])", "filter([1, 2, 3, 4], # > 1)",
		"map(1..20, # * 2)", "sum(map([1, 2, 3], # + 1))", "join(['ab', 'cd', 'ef'], '-')",
		"sortBy([3, 1, 2], #)", "concat([1, 2], [3, 4, 5, 6])", "keys({a: 1, b: 2, c: 3})",
		"count(1..30, # % 3 == 0)", "map(filter(1..12, # > 2), [#, #])",
	}
	for _, text := range texts {
		x := expr(text)
		if _, diags, cerr := exprx.NewCompiler(prog).Compile(x, &scope{prog: prog, inProc: true}); diags.HasErrors() || cerr != nil || x.Fast == nil {
			t.Fatalf("%s: %v %v (closures: %v)", text, diags, cerr, x.Fast != nil)
		}
		vmOnly := *x
		vmOnly.Fast = nil
		got, gotSteps, gotErr := evalBudget(t, prog, x, 0, 0)
		want, wantSteps, wantErr := evalBudget(t, prog, &vmOnly, 0, 0)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || runtime.Repr(got) != runtime.Repr(want) || gotSteps != wantSteps {
			t.Errorf("%s: closures %s, %v, %d steps; VM %s, %v, %d steps", text,
				runtime.Repr(got), gotErr, gotSteps, runtime.Repr(want), wantErr, wantSteps)
		}
		for limit := 1; limit <= wantSteps; limit++ {
			_, _, gotErr := evalBudget(t, prog, x, limit, 0)
			_, _, wantErr := evalBudget(t, prog, &vmOnly, limit, 0)
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Errorf("%s within %d steps: closures %v; VM %v", text, limit, gotErr, wantErr)
			}
		}
		for budget := 1; budget <= 48; budget++ {
			_, _, gotErr := evalBudget(t, prog, x, 0, budget)
			_, _, wantErr := evalBudget(t, prog, &vmOnly, 0, budget)
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Errorf("%s within a memory budget of %d: closures %v; VM %v", text, budget, gotErr, wantErr)
			}
		}
	}
}

// __nums (the numeric builtins' walk, which reads rolls' totals) runs without the recover of
// a guarded call, but for a list with a nil roll, whose total the function panics reading:
// against the VM, the same values, steps and failures, under every tighter step limit.
func TestNumsMatchVM(t *testing.T) {
	prog := load(t)
	var nilRoll *runtime.Roll
	m0, err := runtime.NewMachine(prog, stddice.NewIntQueue([]int{3, 5, 2, 6}, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	rx := expr("2d6")
	if _, diags, cerr := exprx.NewCompiler(prog).Compile(rx, &scope{prog: prog, inProc: true}); diags.HasErrors() || cerr != nil {
		t.Fatal(diags, cerr)
	}
	rolled, err := m0.Eval(rx, map[string]any{"__rt": m0})
	if err != nil {
		t.Fatal(err)
	}
	lists := map[string][]any{
		"ints":            {1, 2, 3},
		"a roll":          {1, rolled, 4},
		"a nil roll":      {1, rolled, nilRoll},
		"a nil roll only": {nilRoll, 2},
		"a nested list":   {rolled, []any{2, nilRoll}},
		"empty":           {},
	}
	eval := func(x *runtime.Expr, l []any, maxSteps int) (v any, steps int, err error) {
		m, err := runtime.NewMachine(prog, stddice.NewIntQueue([]int{3, 5, 2, 6, 1, 4}, nil), nil)
		if err != nil {
			t.Fatal(err)
		}
		if maxSteps > 0 {
			m.Limits.MaxSteps = m.Steps() + maxSteps
		}
		steps0 := m.Steps()
		v, err = m.Eval(x, map[string]any{"__rt": m, "l": l})
		return v, m.Steps() - steps0, err
	}
	for _, text := range []string{"sum(l)", "max(l)", "min(l)", "mean(l)", "sum(l) + 1"} {
		x := expr(text)
		sc := &scope{prog: prog, locals: map[string]*runtime.Type{"l": runtime.ListType}, inProc: true}
		if _, diags, cerr := exprx.NewCompiler(prog).Compile(x, sc); diags.HasErrors() || cerr != nil || x.Fast == nil {
			t.Fatalf("%s: %v %v (closures: %v)", text, diags, cerr, x.Fast != nil)
		}
		vmOnly := *x
		vmOnly.Fast = nil
		for name, l := range lists {
			got, gotSteps, gotErr := eval(x, l, 0)
			want, wantSteps, wantErr := eval(&vmOnly, l, 0)
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || runtime.Repr(got) != runtime.Repr(want) || gotSteps != wantSteps {
				t.Errorf("%s with %s: closures %s, %v, %d steps; VM %s, %v, %d steps", text, name,
					runtime.Repr(got), gotErr, gotSteps, runtime.Repr(want), wantErr, wantSteps)
			}
			for limit := 1; limit <= wantSteps; limit++ {
				_, _, gotErr := eval(x, l, limit)
				_, _, wantErr := eval(&vmOnly, l, limit)
				if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
					t.Errorf("%s with %s within %d steps: closures %v; VM %v", text, name, limit, gotErr, wantErr)
				}
			}
		}
	}
}
