package exprx

import (
	"reflect"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"

	"rulesh/dsl/internal/lib/core"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

// codeOps names the overloads of the operators a dice code (a value of type dice) takes
// besides +: a code minus a code or a whole number, and equality by count, sides and bonus.
func codeOps(op string) (string, bool) {
	switch op {
	case "-":
		return "__code_sub", true
	case "==":
		return "__code_eq", true
	case "!=":
		return "__code_ne", true
	}
	return "", false
}

// codeType is the Go type of a dice code.
func codeType() reflect.Type { return reflect.TypeFor[*dice.Code]() }

// codeOperatorFunctions declares the overloads where a code meets a code or a whole number:
// code + 1D adds a die, code - 2 takes two pips, 1 + code is code + 1.
func codeOperatorFunctions() []expr.Option {
	arith := func(sign int) func(a ...any) (any, error) {
		return func(a ...any) (any, error) { return core.CodeArith(sign, a[0], a[1]) }
	}
	eq := func(want bool) func(a ...any) (any, error) {
		return func(a ...any) (any, error) {
			return a[0].(*dice.Code).Equal(a[1].(*dice.Code)) == want, nil
		}
	}
	return []expr.Option{
		expr.Function("__code_add", arith(1), new(func(*dice.Code, *dice.Code) *dice.Code), new(func(*dice.Code, int) *dice.Code), new(func(int, *dice.Code) *dice.Code)),
		expr.Function("__code_sub", arith(-1), new(func(*dice.Code, *dice.Code) *dice.Code), new(func(*dice.Code, int) *dice.Code)),
		expr.Function("__code_entry", func(a ...any) (any, error) { return core.CodeEntry(a[0]) }, new(func(any) *dice.Code)),
		expr.Function("__code_eq", eq(true), new(func(*dice.Code, *dice.Code) bool)),
		expr.Function("__code_ne", eq(false), new(func(*dice.Code, *dice.Code) bool)),
	}
}

// codeLiterals keeps a dice literal beside a code unrolled: in code + 1D and code - 1D (and
// 1D + code) the literal is a code too, added to the dice rather than rolled. A literal that
// is not a plain code (3d6kh2) is refused there.
func (pv *patcher) codeLiterals(n *ast.BinaryNode) {
	if n.Operator != "+" && n.Operator != "-" {
		return
	}
	if pv.isCode(n.Left) {
		pv.codeLiteral(&n.Right)
	}
	if n.Operator == "+" && pv.isCode(n.Right) {
		pv.codeLiteral(&n.Left)
	}
}

// isCode reports whether x is known to give a code: by its type, or as a sum or difference
// that starts from a code (expr has not typed the operands of a call it could not check yet).
func (pv *patcher) isCode(x ast.Node) bool {
	if x.Nature().Type == codeType() {
		return true
	}
	switch n := x.(type) {
	case *ast.ConstantNode:
		_, ok := n.Value.(*dice.Code)
		return ok
	case *ast.BinaryNode:
		return (n.Operator == "+" || n.Operator == "-") && pv.isCode(n.Left) || n.Operator == "+" && pv.isCode(n.Right)
	}
	return pv.c.staticType(x, pv.sc).Kind == runtime.TDice
}

// codeLiteral turns the rolled literal at *node (__dice(__rt, LIT)) into the code it spells.
func (pv *patcher) codeLiteral(node *ast.Node) {
	call, ok := (*node).(*ast.CallNode)
	if !ok || len(call.Arguments) != 2 {
		return
	}
	if id, ok := call.Callee.(*ast.IdentifierNode); !ok || id.Value != "__dice" {
		return
	}
	k, ok := call.Arguments[1].(*ast.ConstantNode)
	if !ok {
		return
	}
	de, ok := k.Value.(*dice.Expr)
	if !ok {
		return
	}
	code, err := dice.ParseCode(de.Src)
	if err != nil {
		pv.fail(call, err.Error(), "beside a value of type dice, a dice literal is a code, not rolled")
		return
	}
	c := &ast.ConstantNode{Value: code}
	c.SetType(codeType())
	c.SetLocation(call.Location())
	ast.Patch(node, c)
}
