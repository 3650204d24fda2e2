package exprx

import (
	"strings"

	"github.com/expr-lang/expr/ast"

	"rulesh/dsl/runtime"
)

// simpleOf recognises, on an expression's final tree (after every patch), the shapes the
// runtime evaluates without the VM (runtime.Simple): a field read, two operands joined by a
// comparison, + - * or a boolean operator, a builtin called with operands. Anything else
// (and any operand that is not a name, a field of a name or a number, string or bool
// literal) gives nil.
func simpleOf(n ast.Node, lib *runtime.Library) *runtime.Simple {
	switch n := n.(type) {
	case *ast.MemberNode:
		if o, ok := operandOf(n); ok && o.Kind == runtime.OpField {
			return &runtime.Simple{L: o}
		}
	case *ast.BinaryNode:
		switch n.Operator {
		case "+", "-", "*", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "and", "or":
		default:
			return nil
		}
		l, ok := operandOf(n.Left)
		if !ok {
			return nil
		}
		r, ok := operandOf(n.Right)
		if !ok {
			return nil
		}
		return &runtime.Simple{Op: n.Operator, L: l, R: r}
	case *ast.CallNode:
		id, ok := n.Callee.(*ast.IdentifierNode)
		if !ok || !strings.HasPrefix(id.Value, "__") || len(n.Arguments) == 0 || lib == nil {
			return nil
		}
		b, ok := lib.Builtins[strings.TrimPrefix(id.Value, "__")]
		if !ok || runtime.InternalName(strings.TrimPrefix(id.Value, "__")) != id.Value {
			return nil
		}
		if rt, ok := n.Arguments[0].(*ast.IdentifierNode); !ok || rt.Value != "__rt" {
			return nil
		}
		s := &runtime.Simple{Call: &b, At: n.Location().From}
		for _, a := range n.Arguments[1:] {
			o, ok := operandOf(a)
			if !ok {
				return nil
			}
			s.Args = append(s.Args, o)
		}
		return s
	}
	return nil
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
	}
	return runtime.Operand{}, false
}
