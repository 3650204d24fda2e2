package exprx_test

import (
	"fmt"
	"sync"
	"testing"

	"rulesh/dsl/internal/exprx"
	"rulesh/dsl/internal/runtime"
	stddice "rulesh/stdlib/dice"
)

// TestBytecodeOnFirstVMRun: an expression the closures take is checked at load but not
// compiled to bytecode; the first runs on the VM, from several goroutines at once (machines
// of sim share the program), compile it once and agree with the closures. One the closures
// refuse is compiled at load.
func TestBytecodeOnFirstVMRun(t *testing.T) {
	prog := load(t)
	locals := map[string]*runtime.Type{"x": runtime.IntType, "l": runtime.ListType}
	sc := &scope{prog: prog, locals: locals, inProc: true}
	c := exprx.NewCompiler(prog)
	compile := func(text string) *runtime.Expr {
		x := expr(text)
		if _, diags, err := c.Compile(x, sc); diags != nil || err != nil {
			t.Fatalf("%s: diagnostics %v, error %v", text, diags, err)
		}
		return x
	}
	run := func(x *runtime.Expr) string {
		m, err := runtime.NewMachine(prog, stddice.NewIntQueue([]int{4, 2}, nil), nil)
		if err != nil {
			t.Error(err)
			return ""
		}
		v, err := m.Eval(x, map[string]any{"__rt": m, "x": 5, "l": []any{1, 2, 3}, "malus": 3, "base": 10})
		return fmt.Sprint(v, err)
	}

	fast := compile("plus(x) * 2 + len(filter(l, # > 1)) + 2d6")
	if fast.Fast == nil {
		t.Fatal("the closures refused the expression")
	}
	if exprx.HasBytecode(fast) {
		t.Fatal("an expression on closures was compiled to bytecode at load")
	}
	want := run(fast)
	vm := *fast
	vm.Fast = nil
	got := make([]string, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i] = run(&vm) })
	}
	wg.Wait()
	for i, g := range got {
		if g != want {
			t.Errorf("VM run %d: %s, closures %s", i, g, want)
		}
	}
	if !exprx.HasBytecode(fast) {
		t.Error("no bytecode after a VM run")
	}

	refused := compile("groupBy(l, # % 2)")
	if refused.Fast != nil {
		t.Fatal("the closures took groupBy: pick another expression they refuse")
	}
	if !exprx.HasBytecode(refused) {
		t.Error("an expression only the VM runs was not compiled at load")
	}
	if got := run(refused); got != "map[0:[2] 1:[1 3]] <nil>" {
		t.Errorf("groupBy: %s", got)
	}
}
