package exprx

import (
	"errors"
	"sync"

	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/parser"

	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"
	exprruntime "github.com/expr-lang/expr/vm/runtime"

	"rulesh/dsl/internal/runtime"
)

// code is a checked expression, run by the VM the Machine keeps for the nesting depth. Its
// bytecode is compiled when first run: an expression that runs as closures (Expr.Fast) never
// needs it, and compiling it was a tenth of checking a ruleset. Machines on several
// goroutines (sim) share a code, so the first runs wait for one compile.
type code struct {
	// tree is expr's checked and patched tree, cfg the configuration it was checked with.
	tree *parser.Tree
	cfg  *conf.Config
	// mu is the compiler's: the configurations of its expressions share caches.
	mu *sync.Mutex
	// budget, when set, is the budget's patch the tree may still need (a check for the
	// diagnostics left it): made before the tree is compiled.
	budget *laterBudget

	once sync.Once
	prog *vm.Program
	err  error
}

// program returns the expression's bytecode, compiled on the first call.
func (c *code) program() (*vm.Program, error) {
	c.once.Do(func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.err = c.budget.patch(c.tree); c.err == nil {
			c.prog, c.err = compileBytecode(c.tree, c.cfg)
		}
		c.cfg = nil // kept only for this compile
	})
	return c.prog, c.err
}

// Run implements runtime.Code. A failure inside the expression is a *runtime.ExprError at
// its offset in the compiled text, in the language's words; it wraps expr's error, itself
// wrapping any error a function returned (a RuntimeError raised in a called procedure).
func (c *code) Run(slot *any, env map[string]any, memoryBudget uint) (any, error) {
	machine, _ := (*slot).(*vm.VM)
	if machine == nil {
		machine = &vm.VM{}
		*slot = machine
	}
	prog, err := c.program()
	if err != nil {
		// expr's compiler failed on an expression the closures took (an internal error of
		// expr's): the run fails at the expression's start, as a failure inside it would.
		var fe *file.Error
		if errors.As(err, &fe) {
			return nil, &runtime.ExprError{At: fe.From, Msg: fe.Message, Err: fe}
		}
		return nil, &runtime.ExprError{At: -1, Msg: err.Error(), Err: err}
	}
	machine.MemoryBudget = memoryBudget
	v, err := machine.Run(prog, env)
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
