package runtime

import (
	"errors"
	"fmt"
	"reflect"
	goruntime "runtime"
	"strings"
)

// Simple expressions: the shapes most rule expressions take (a field read, a comparison or
// a sum of names, fields and numbers, nested + - * of those, a builtin called with such
// operands) are evaluated
// without the expression VM, which costs a run of its own and a map lookup per name. exprx
// recognises them on the compiled tree (Expr.Simple); when the values met at run
// time are not the plain ints or bools the shortcut handles, Eval falls back on the VM, so
// the result is always the one the VM gives.

// OperandKind tells what an operand of a simple expression reads.
type OperandKind uint8

// The operands of a simple expression.
const (
	// OpLit is a literal value.
	OpLit OperandKind = iota
	// OpName reads a name of the environment (a local, a parameter or a global).
	OpName
	// OpField reads a field of the record a name holds.
	OpField
	// OpCall calls a builtin that returns an int (only as an operand of + - * and the
	// comparisons, after the other operand was read).
	OpCall
	// OpArith is + - * on two operands without effects (Sub), evaluated only when both are
	// ints: the counters' arithmetic of a loop, (i - 1) * 1000 + j, with no VM run.
	OpArith
)

// Operand is one operand of a simple expression.
type Operand struct {
	Kind  OperandKind
	Lit   any    // OpLit: the value
	Nil   bool   // OpLit: the literal nil (Lit is nil)
	Name  string // OpName, OpField: the name read
	Slot  int    // OpName, OpField: Name's slot plus one, for a local that has one (0: the map)
	Field string // OpField: the field read
	// Call, for OpCall, is a builtin whose results are all ints, called with Args (names,
	// fields or literals); At is the call's rune offset in the compiled text, where its
	// errors are reported (as the VM reports them).
	Call *Builtin
	Args []Operand
	At   int
	// Sub, for OpArith, is the operation: Op one of + - *, L and R operands without calls.
	Sub *Simple
}

// Simple is an expression evaluated without the VM: one operand (a field read), two
// operands joined by Op (an integer comparison or + - *, or && || on bools), or a builtin
// called with operands (Call set).
type Simple struct {
	Op   string // "" for a lone operand or a call, "!" for the negation of L
	L, R Operand
	// Call is a builtin of the library called with Args.
	Call *Builtin
	Args []Operand
	// Binary, when set, is an operator applied by Machine.Binary to L and R (the
	// language's own == on records, lists and nil, rolls read as their totals).
	Binary string
	// Proc is a procedure called with Args from Site.
	Proc *Proc
	Site *Pos
	// At is the rune offset of the call (Call or Proc) in the compiled text, where the VM
	// reports a failure of the builtin.
	At int
}

// read evaluates one operand; ok is false when it cannot be read without the VM (not a
// record, a missing field), so that the VM reports what is wrong.
func (o *Operand) read(f *Frame) (any, bool) {
	switch o.Kind {
	case OpLit:
		return o.Lit, true
	case OpName:
		if o.Slot > 0 {
			return f.slots[o.Slot-1], true
		}
		v, ok := f.Vars[o.Name]
		return v, ok
	case OpArith:
		return o.Sub.intArith(f)
	}
	rec, ok := f.local(o.Slot, o.Name).(map[string]any)
	if !ok {
		return nil, false
	}
	v, ok := rec[o.Field]
	return v, ok
}

// intArith evaluates an OpArith operation when both operands are ints, as the VM computes
// them (wrapping as Go's ints do); anything else is the VM's (false).
func (s *Simple) intArith(f *Frame) (any, bool) {
	if v, ok := s.intValue(f); ok {
		return v, true
	}
	return nil, false
}

// intValue is intArith without boxing: nested operations box no intermediate result.
func (s *Simple) intValue(f *Frame) (int, bool) {
	a, ok := s.L.readInt(f)
	if !ok {
		return 0, false
	}
	b, ok := s.R.readInt(f)
	if !ok {
		return 0, false
	}
	switch s.Op {
	case "+":
		return a + b, true
	case "-":
		return a - b, true
	case "*":
		return a * b, true
	}
	return 0, false
}

// intOp applies an arithmetic or comparison operator of a simple expression to two ints.
func intOp(op string, a, b int) (any, bool) {
	switch op {
	case "+":
		return a + b, true
	case "-":
		return a - b, true
	case "*":
		return a * b, true
	case "==":
		return a == b, true
	case "!=":
		return a != b, true
	case "<":
		return a < b, true
	case "<=":
		return a <= b, true
	case ">":
		return a > b, true
	case ">=":
		return a >= b, true
	}
	return nil, false
}

// readInt reads an operand that must be an int.
func (o *Operand) readInt(f *Frame) (int, bool) {
	if o.Kind == OpArith {
		return o.Sub.intValue(f)
	}
	v, ok := o.read(f)
	n, isInt := v.(int)
	return n, ok && isInt
}

// evalSimple evaluates s, or reports false when the VM must (and then nothing was called).
func (m *Machine) evalSimple(s *Simple, f *Frame) (any, bool, error) {
	if s.Call != nil || s.Proc != nil {
		return m.callSimple(s, f)
	}
	if s.Binary != "" {
		l, ok := s.L.read(f)
		if !ok {
			return nil, false, nil
		}
		r, ok := s.R.read(f)
		if !ok {
			return nil, false, nil
		}
		v, err := m.Binary(s.Binary, l, r)
		if err != nil {
			// Placed and worded as the VM places a function's failure: at the call.
			msg := MessageOf(err)
			return nil, true, &ExprError{At: s.At, Msg: msg, OutOfMemory: msg == "memory budget exceeded", Err: err}
		}
		return v, true, nil
	}
	if s.L.Kind == OpArith || s.R.Kind == OpArith {
		// Nested arithmetic on ints: no intermediate result is boxed. Anything else is read
		// again below (reads have no effects).
		if a, ok := s.L.readInt(f); ok {
			if b, ok := s.R.readInt(f); ok {
				if v, ok := intOp(s.Op, a, b); ok {
					return v, true, nil
				}
			}
		}
	}
	// Operands without effects are read first: if they are not what the shortcut handles,
	// the VM runs the whole expression, and no builtin has been called yet.
	var l, r any
	var ok bool
	if s.L.Kind != OpCall {
		if l, ok = s.L.read(f); !ok {
			return nil, false, nil
		}
	}
	if s.Op == "" {
		return l, true, nil
	}
	if s.Op == "!" {
		b, ok := l.(bool)
		return !b, ok, nil
	}
	if s.R.Kind != OpCall {
		if r, ok = s.R.read(f); !ok {
			return nil, false, nil
		}
	}
	if s.L.Kind == OpCall || s.R.Kind == OpCall {
		// One operand is a builtin returning an int: the other must be an int too.
		other := l
		if s.L.Kind == OpCall {
			other = r
		}
		if _, isInt := other.(int); !isInt {
			return nil, false, nil
		}
		call := &s.L
		if s.R.Kind == OpCall {
			call = &s.R
		}
		v, ok, err := m.callBuiltin(call.Call, call.Args, call.At, f)
		if !ok || err != nil {
			return nil, ok, err
		}
		if s.L.Kind == OpCall {
			l = v
		} else {
			r = v
		}
	}
	if (s.L.Nil || s.R.Nil) && (s.Op == "==" || s.Op == "!=") {
		// x == nil as the VM compares: equal when both are nil, a nil map, list or
		// pointer included.
		return (isNil(l) && isNil(r)) == (s.Op == "=="), true, nil
	}
	switch a := l.(type) {
	case int:
		b, ok := r.(int)
		if !ok {
			return nil, false, nil
		}
		v, ok := intOp(s.Op, a, b)
		return v, ok, nil
	case bool:
		b, ok := r.(bool)
		if !ok {
			return nil, false, nil
		}
		switch s.Op {
		case "&&", "and":
			return a && b, true, nil
		case "||", "or":
			return a || b, true, nil
		case "==":
			return a == b, true, nil
		case "!=":
			return a != b, true, nil
		}
	}
	return nil, false, nil
}

// pushArgs reads operands onto the argument stack the machine reuses (a builtin or a
// procedure may run rules that call again, so each call takes its own stretch of it); it
// returns the stack's old length, or false when an operand needs the VM (nothing pushed).
func (m *Machine) pushArgs(args []Operand, f *Frame) (int, bool) {
	base := len(m.argStack)
	for i := range args {
		v, ok := args[i].read(f)
		if !ok {
			clear(m.argStack[base:])
			m.argStack = m.argStack[:base]
			return base, false
		}
		m.argStack = append(m.argStack, v)
	}
	return base, true
}

// popArgs drops the arguments pushed from base.
func (m *Machine) popArgs(base int) {
	clear(m.argStack[base:])
	m.argStack = m.argStack[:base]
}

// callSimple calls the builtin or the procedure of s with its operands read.
func (m *Machine) callSimple(s *Simple, f *Frame) (any, bool, error) {
	if s.Call != nil {
		return m.callBuiltin(s.Call, s.Args, s.At, f)
	}
	base, ok := m.pushArgs(s.Args, f)
	if !ok {
		return nil, false, nil
	}
	v, err := m.CallAt(s.Proc, m.argStack[base:len(m.argStack):len(m.argStack)], *s.Site)
	m.popArgs(base)
	return v, true, err
}

// RunBuiltin calls b, on both paths that call builtins (the VM's and the shortcuts'). A
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

// callBuiltin calls a builtin with its operands read; its error is reported as the VM
// reports it: at the call, in the language's words.
func (m *Machine) callBuiltin(b *Builtin, args []Operand, at int, f *Frame) (any, bool, error) {
	base, ok := m.pushArgs(args, f)
	if !ok {
		return nil, false, nil
	}
	v, err := RunBuiltin(b, m, m.argStack[base:len(m.argStack):len(m.argStack)])
	m.popArgs(base)
	if err != nil {
		msg := MessageOf(err)
		return nil, true, &ExprError{At: at, Msg: msg, OutOfMemory: msg == "memory budget exceeded", Err: err}
	}
	return v, true, nil
}

// isNil is expr-lang's IsNil: nil, or a nil map, slice, pointer, channel, function or
// interface inside an any.
func isNil(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case int, float64, bool, string:
		return false
	case map[string]any:
		return x == nil
	}
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Chan, reflect.Func, reflect.Map, reflect.Pointer, reflect.Interface, reflect.Slice:
		return r.IsNil()
	}
	return false
}
