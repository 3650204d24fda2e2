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
