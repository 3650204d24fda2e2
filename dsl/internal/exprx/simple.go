package exprx

import (
	"reflect"
	"strings"

	"github.com/expr-lang/expr/ast"

	"rulesh/dsl/internal/runtime"
)

// simpleOf recognises, on an expression's final tree (after every patch), the shapes the
// runtime evaluates without the VM (runtime.Simple): a field read, ! of a name or a field,
// two operands joined by a comparison (== and != with nil too), + - * or a boolean operator,
// or by an operator the language applies itself (__op), a builtin called with operands. Anything else
// (and any operand that is not a name, a field of a name or a number, string, bool or nil
// literal, or + - * of such operands, nested) gives nil.
func simpleOf(n ast.Node, lib *runtime.Library) *runtime.Simple {
	switch n := n.(type) {
	case *ast.MemberNode:
		if o, ok := operandOf(n); ok && o.Kind == runtime.OpField {
			return &runtime.Simple{L: o}
		}
	case *ast.UnaryNode:
		// !x of a name or a field: a read without effects, so a value that is no bool
		// leaves the whole expression to the VM.
		if n.Operator != "!" && n.Operator != "not" {
			return nil
		}
		if o, ok := operandOf(n.Node); ok && (o.Kind == runtime.OpName || o.Kind == runtime.OpField) {
			return &runtime.Simple{Op: "!", L: o}
		}
	case *ast.BinaryNode:
		logical := false
		switch n.Operator {
		case "+", "-", "*", "==", "!=", "<", "<=", ">", ">=":
		case "&&", "||", "and", "or":
			logical = true
		default:
			return nil
		}
		l, lok := operandOf(n.Left)
		r, rok := operandOf(n.Right)
		switch {
		case lok && rok:
		case lok && !logical:
			// One operand may be a builtin returning an int (a + d(6)); never under && or
			// ||, whose right side runs only when needed.
			if r, rok = intCallOf(n.Right, lib); !rok {
				return nil
			}
		case rok && !logical:
			if l, lok = intCallOf(n.Left, lib); !lok {
				return nil
			}
		default:
			return nil
		}
		return &runtime.Simple{Op: n.Operator, L: l, R: r}
	case *ast.CallNode:
		id, ok := n.Callee.(*ast.IdentifierNode)
		if ok && id.Value == "__op" && len(n.Arguments) == 4 && isMachine(n.Arguments[0]) {
			// An operator the language applies itself (== on records, lists and nil, a
			// roll as its total): __op(__rt, op, l, r) with operands without effects.
			op, ok := n.Arguments[1].(*ast.StringNode)
			l, lok := operandOf(n.Arguments[2])
			r, rok := operandOf(n.Arguments[3])
			if !ok || !lok || !rok {
				return nil
			}
			return &runtime.Simple{Binary: op.Value, L: l, R: r, At: n.Location().From}
		}
		if !ok || len(n.Arguments) < 3 || id.Value != "__call" {
			if b, args, ok := builtinCallOf(n, lib); ok {
				return &runtime.Simple{Call: b, Args: args, At: n.Location().From}
			}
			return nil
		}
		// A procedure call: __call(__rt, proc, site, args…).
		p, ok := constant[*runtime.Proc](n.Arguments[1])
		site, ok2 := constant[*runtime.Pos](n.Arguments[2])
		if !ok || !ok2 || !isMachine(n.Arguments[0]) {
			return nil
		}
		args, ok := operandsOf(n.Arguments[3:])
		if !ok {
			return nil
		}
		return &runtime.Simple{Proc: p, Site: site, Args: args, At: n.Location().From}
	}
	return nil
}

// builtinCallOf reads a call of a library builtin with operands for arguments.
func builtinCallOf(n *ast.CallNode, lib *runtime.Library) (*runtime.Builtin, []runtime.Operand, bool) {
	id, ok := n.Callee.(*ast.IdentifierNode)
	if !ok || lib == nil || len(n.Arguments) == 0 || !isMachine(n.Arguments[0]) {
		return nil, nil, false
	}
	name, ok := strings.CutPrefix(id.Value, "__")
	b, known := lib.Builtins[name]
	if !ok || !known || runtime.InternalName(name) != id.Value {
		return nil, nil, false
	}
	args, ok := operandsOf(n.Arguments[1:])
	return &b, args, ok
}

// intCallOf reads an operand that calls a builtin whose every signature returns an int.
func intCallOf(n ast.Node, lib *runtime.Library) (runtime.Operand, bool) {
	call, ok := n.(*ast.CallNode)
	if !ok {
		return runtime.Operand{}, false
	}
	b, args, ok := builtinCallOf(call, lib)
	if !ok || len(b.Types) == 0 {
		return runtime.Operand{}, false
	}
	for _, t := range b.Types {
		ft := reflect.TypeOf(t)
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft.Kind() != reflect.Func || ft.NumOut() != 1 || ft.Out(0).Kind() != reflect.Int {
			return runtime.Operand{}, false
		}
	}
	return runtime.Operand{Kind: runtime.OpCall, Call: b, Args: args, At: call.Location().From}, true
}

// operandsOf reads every node as an operand, or fails.
func operandsOf(nodes []ast.Node) ([]runtime.Operand, bool) {
	out := make([]runtime.Operand, 0, len(nodes))
	for _, a := range nodes {
		o, ok := operandOf(a)
		if !ok {
			return nil, false
		}
		out = append(out, o)
	}
	return out, true
}

// isMachine reports whether n is the machine argument the patches put first.
func isMachine(n ast.Node) bool {
	id, ok := n.(*ast.IdentifierNode)
	return ok && id.Value == "__rt"
}

// constant reads a constant the patches put in the tree (a procedure, a call site).
func constant[T any](n ast.Node) (T, bool) {
	var zero T
	c, ok := n.(*ast.ConstantNode)
	if !ok {
		return zero, false
	}
	v, ok := c.Value.(T)
	return v, ok
}

// operandOf reads a node as an operand of a simple expression.
func operandOf(n ast.Node) (runtime.Operand, bool) {
	switch n := n.(type) {
	case *ast.IntegerNode:
		return runtime.Operand{Kind: runtime.OpLit, Lit: n.Value}, true
	case *ast.BoolNode:
		return runtime.Operand{Kind: runtime.OpLit, Lit: n.Value}, true
	case *ast.StringNode:
		return runtime.Operand{Kind: runtime.OpLit, Lit: n.Value}, true
	case *ast.NilNode:
		return runtime.Operand{Kind: runtime.OpLit, Lit: nil, Nil: true}, true
	case *ast.ConstantNode:
		if _, skip := n.Value.(runtime.Skipped); skip { // a parameter left out before a named one
			return runtime.Operand{Kind: runtime.OpLit, Lit: n.Value}, true
		}
	case *ast.IdentifierNode:
		if strings.HasPrefix(n.Value, "__") || strings.HasPrefix(n.Value, "$") {
			return runtime.Operand{}, false
		}
		return runtime.Operand{Kind: runtime.OpName, Name: n.Value}, true
	case *ast.MemberNode:
		id, ok := n.Node.(*ast.IdentifierNode)
		prop, ok2 := n.Property.(*ast.StringNode)
		if !ok || !ok2 || n.Optional || strings.HasPrefix(id.Value, "__") || strings.HasPrefix(id.Value, "$") {
			return runtime.Operand{}, false
		}
		return runtime.Operand{Kind: runtime.OpField, Name: id.Value, Field: prop.Value}, true
	case *ast.BinaryNode:
		// Nested + - * of operands: read without the VM when they are ints at run time.
		if n.Operator != "+" && n.Operator != "-" && n.Operator != "*" {
			break
		}
		l, lok := operandOf(n.Left)
		r, rok := operandOf(n.Right)
		if lok && rok {
			return runtime.Operand{Kind: runtime.OpArith, Sub: &runtime.Simple{Op: n.Operator, L: l, R: r}}, true
		}
	}
	return runtime.Operand{}, false
}
