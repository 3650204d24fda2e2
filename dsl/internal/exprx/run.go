package exprx

import (
	"errors"

	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"
	exprruntime "github.com/expr-lang/expr/vm/runtime"

	"rulesh/dsl/internal/runtime"
)

// code is a compiled expression, run by the VM the Machine keeps for the nesting depth.
type code struct{ prog *vm.Program }

// Run implements runtime.Code. A failure inside the expression is a *runtime.ExprError at
// its offset in the compiled text, in the language's words; it wraps expr's error, itself
// wrapping any error a function returned (a RuntimeError raised in a called procedure).
func (c *code) Run(slot *any, env map[string]any, memoryBudget uint) (any, error) {
	machine, _ := (*slot).(*vm.VM)
	if machine == nil {
		machine = &vm.VM{}
		*slot = machine
	}
	machine.MemoryBudget = memoryBudget
	v, err := machine.Run(c.prog, env)
	if err != nil {
		var fe *file.Error
		if errors.As(err, &fe) {
			// A function's error is fe.Prev, its text fe.Message: the language's own errors
			// keep theirs, expr's and Go's are put in the language's words.
			msg := runtime.ForeignWords(fe.Message)
			if fe.Prev != nil {
				msg = runtime.MessageOf(fe.Prev)
			}
			return nil, &runtime.ExprError{At: fe.From, Msg: msg, OutOfMemory: msg == "memory budget exceeded", Err: fe}
		}
		return nil, err
	}
	return v, nil
}

// Equal is == on two values as expressions compare them: numbers of any Go type by value,
// strings, booleans, lists of numbers or strings element by element, anything else by deep
// equality. Package runtime uses it (Program.Equal) below the lists, maps and records it
// walks itself.
func Equal(a, b any) bool { return exprruntime.Equal(a, b) }
