package exprx

import (
	"github.com/expr-lang/expr/parser"

	"rulesh/dsl/internal/runtime"
)

// Disassemble shows the VM program an expression was compiled to ("" when it skips the VM).
func Disassemble(x *runtime.Expr) string {
	cd, ok := codeOf(x)
	if !ok {
		return ""
	}
	prog, err := cd.program()
	if err != nil {
		return err.Error()
	}
	return prog.Disassemble()
}

// VMOnly is how many expressions were left to the VM since the process started.
func VMOnly() int64 { return vmOnly.Load() }

// SetNoFast leaves the expressions compiled from now on to the VM alone.
func SetNoFast(on bool) { noFast = on }

// HasBytecode reports whether an expression's VM program has been compiled yet.
func HasBytecode(x *runtime.Expr) bool {
	cd, ok := codeOf(x)
	if !ok {
		return false
	}
	cd.mu.Lock() // program writes prog under it
	defer cd.mu.Unlock()
	return cd.prog != nil
}

// SetExprPipeline checks every expression compiled from now on as expr's own ParseCheck and
// Optimize do, and shows each checked tree to f (nil: none).
func SetExprPipeline(on bool, f func(src string, tree *parser.Tree)) {
	exprPipeline, onChecked = on, f
}
