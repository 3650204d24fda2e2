package runtime

import "fmt"

// Simple expressions: the shapes most rule expressions take (a field read, a comparison or
// a sum of names, fields and numbers, a builtin called with such operands) are evaluated
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
)

// Operand is one operand of a simple expression.
type Operand struct {
	Kind  OperandKind
	Lit   any    // OpLit: the value
	Name  string // OpName, OpField: the name read
	Field string // OpField: the field read
}

// Simple is an expression evaluated without the VM: one operand (a field read), two
// operands joined by Op (an integer comparison or + - *, or && || on bools), or a builtin
// called with operands (Call set).
type Simple struct {
	Op   string // "" for a lone operand or a call
	L, R Operand
	// Call is a builtin of the library called with Args.
	Call *Builtin
	Args []Operand
	// At is the rune offset of the call in the compiled text, where the VM reports a
	// failure of the builtin.
	At int
}

// read evaluates one operand; ok is false when it cannot be read without the VM (not a
// record, a missing field), so that the VM reports what is wrong.
func (o *Operand) read(env map[string]any) (any, bool) {
	switch o.Kind {
	case OpLit:
		return o.Lit, true
	case OpName:
		v, ok := env[o.Name]
		return v, ok
	}
	rec, ok := env[o.Name].(map[string]any)
	if !ok {
		return nil, false
	}
	v, ok := rec[o.Field]
	return v, ok
}

// evalSimple evaluates s, or reports false when the VM must.
func (m *Machine) evalSimple(s *Simple, env map[string]any) (any, bool, error) {
	if s.Call != nil {
		return m.callSimple(s, env)
	}
	l, ok := s.L.read(env)
	if !ok {
		return nil, false, nil
	}
	if s.Op == "" {
		return l, true, nil
	}
	r, ok := s.R.read(env)
	if !ok {
		return nil, false, nil
	}
	switch a := l.(type) {
	case int:
		b, ok := r.(int)
		if !ok {
			return nil, false, nil
		}
		switch s.Op {
		case "+":
			return a + b, true, nil
		case "-":
			return a - b, true, nil
		case "*":
			return a * b, true, nil
		case "==":
			return a == b, true, nil
		case "!=":
			return a != b, true, nil
		case "<":
			return a < b, true, nil
		case "<=":
			return a <= b, true, nil
		case ">":
			return a > b, true, nil
		case ">=":
			return a >= b, true, nil
		}
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

// callSimple calls a builtin with its operands read, the arguments on a stack the machine
// reuses (a builtin may run rules that call builtins again, so each call takes its own
// stretch of it).
func (m *Machine) callSimple(s *Simple, env map[string]any) (any, bool, error) {
	base := len(m.argStack)
	for i := range s.Args {
		v, ok := s.Args[i].read(env)
		if !ok {
			m.argStack = m.argStack[:base]
			return nil, false, nil
		}
		m.argStack = append(m.argStack, v)
	}
	args := m.argStack[base:len(m.argStack):len(m.argStack)]
	v, err := callBuiltin(s.Call, m, args)
	clear(m.argStack[base:])
	m.argStack = m.argStack[:base]
	if err != nil {
		// As the VM reports it: at the call, in the language's words.
		msg := GoTypeWords(err.Error())
		return nil, true, &ExprError{At: s.At, Msg: msg, OutOfMemory: msg == "memory budget exceeded", Err: err}
	}
	return v, true, nil
}

// callBuiltin calls b as the VM does: a panic of the builtin (an argument of a type the
// checker could not see, such as a string parameter given an any) is its error, not a crash.
func callBuiltin(b *Builtin, m *Machine, args []any) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(error)
			if !ok {
				e = fmt.Errorf("%v", r)
			}
			v, err = nil, e
		}
	}()
	return b.Fn(m, args)
}
