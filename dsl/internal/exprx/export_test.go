package exprx

import "rulesh/dsl/internal/runtime"

// Disassemble shows the VM program an expression was compiled to ("" when it skips the VM).
func Disassemble(x *runtime.Expr) string {
	cd, ok := codeOf(x)
	if !ok {
		return ""
	}
	return cd.prog.Disassemble()
}

// VMOnly is how many expressions were left to the VM since the process started.
func VMOnly() int64 { return vmOnly.Load() }

// SetNoFast leaves the expressions compiled from now on to the VM alone.
func SetNoFast(on bool) { noFast = on }
