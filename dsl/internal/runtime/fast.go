package runtime

import (
	"errors"
	"fmt"
	goruntime "runtime"
	"strings"
)

// Fast code: an expression compiled by exprx to Go closures over the checked syntax tree,
// run without the expression VM. It reads the locals from the frame's slots and the other
// names from its map (NameRef), so no local is copied into the map for it, and calls
// procedures and builtins with arguments on the machine's argument stack. exprx compiles
// to it only the expressions whose every node it handles, with the VM's semantics (values,
// errors and their offsets); any other expression runs on the VM (Code).

// Fast is an expression compiled to closures.
type Fast interface {
	// Eval evaluates the expression in frame f. state is the code's reusable state for the
	// running Machine at the current nesting depth, as for Code.Run; memoryBudget bounds
	// what the evaluation builds. A failure inside the expression is an *ExprError.
	Eval(state *any, m *Machine, f *Frame, memoryBudget uint) (any, error)
}

// NameRef is a name an expression reads: Slot is the local's slot plus one, set when the
// program's slots are resolved (0: the frame's map).
type NameRef struct {
	Name string
	Slot int
}

// Read returns the value of the name r in the frame: its slot, or its entry in the map (nil
// when absent, as the VM reads a missing name).
func (f *Frame) Read(r *NameRef) any {
	if s := r.Slot; s > 0 && s <= len(f.slots) {
		return f.slots[s-1]
	}
	return f.Vars[r.Name]
}

// ArgBase returns the top of the machine's argument stack, where a call pushes its
// arguments (PushArg) and from which it reads them (ArgsFrom); a call made while they are
// read (a builtin running rules) takes its own stretch above them.
func (m *Machine) ArgBase() int { return len(m.argStack) }

// PushArg pushes an argument on the machine's argument stack.
func (m *Machine) PushArg(v any) { m.argStack = append(m.argStack, v) }

// ArgsFrom returns the arguments pushed since base, capped so that appending copies them.
func (m *Machine) ArgsFrom(base int) []any {
	return m.argStack[base:len(m.argStack):len(m.argStack)]
}

// PopArgs drops the arguments pushed since base.
func (m *Machine) PopArgs(base int) {
	clear(m.argStack[base:])
	m.argStack = m.argStack[:base]
}

// RunBuiltin calls b, on both paths that call builtins (the VM's and the closures'). A
// panic of the builtin is its error, not a crash: an argument of a type the checker could
// not see (a string parameter given an any) says which types were expected, as the VM says
// it; any other panic of Go's runtime (an index out of range, a nil map: a case the builtin
// does not handle) is said in the language's words, never in Go's.
func RunBuiltin(b *Builtin, m *Machine, args []any) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(error)
			var te *goruntime.TypeAssertionError
			var re goruntime.Error
			switch {
			case !ok:
				e = fmt.Errorf("%v", r) // a panic's text is Go's: MessageOf rewrites it
			case errors.As(e, &te):
			case errors.As(e, &re):
				e = unhandledArgs(args)
			}
			v, err = nil, e
		}
	}()
	return b.Fn(m, args)
}

// unhandledArgs is the error of a builtin that failed on arguments it does not handle.
func unhandledArgs(args []any) error {
	shown := make([]string, len(args))
	for i, a := range args {
		shown[i] = Repr(a)
	}
	return fmt.Errorf("this function does not handle the arguments (%s): an internal error, please report it", strings.Join(shown, ", "))
}
