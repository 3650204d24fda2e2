package exprx

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/expr-lang/expr/ast"

	"rulesh/dsl/internal/runtime"
)

// An enum's value is a string at run time. Written Enum.value it is checked here and becomes
// a string constant that keeps its enum as static type (Compiler.enumValues); a plain string
// literal is checked against an enum wherever the other side's static type is one (a
// comparison, `in`, a procedure's argument; the checker does fields, lets and returns).

// enumOf returns the enum a name denotes in this scope (a local hides it), or nil.
func (pv *patcher) enumOf(n ast.Node) *runtime.Enum {
	id, ok := n.(*ast.IdentifierNode)
	if !ok {
		return nil
	}
	if _, local := pv.sc.Local(id.Value); local {
		return nil
	}
	e, _ := pv.c.prog.Globals[id.Value].(*runtime.Enum)
	return e
}

// enumValue turns Enum.value into the value's string, or reports a value the enum lacks.
func (pv *patcher) enumValue(node *ast.Node, n *ast.MemberNode) {
	e := pv.enumOf(n.Node)
	if e == nil {
		return
	}
	prop, ok := n.Property.(*ast.StringNode)
	if !ok {
		return // Objectif[i]: the enum's name is the list of its values
	}
	if !e.Has(prop.Value) {
		detail := e.Name + " is " + strings.Join(e.Values, ", ")
		if near := pv.sc.Suggest(prop.Value, func() []string { return e.Values }); near != "" {
			detail = near + " " + detail
		}
		pv.fail(n.Property, fmt.Sprintf("%s has no value %s", e.Name, prop.Value), detail)
		return
	}
	s := &ast.StringNode{Value: prop.Value}
	s.SetType(reflect.TypeFor[string]())
	if pv.c.enumValues == nil {
		pv.c.enumValues = map[*ast.StringNode]*runtime.Type{}
	}
	pv.c.enumValues[s] = e.Type()
	from := n.Node.Location()
	ast.Patch(node, s)
	s.SetLocation(from) // the value is where the enum's name starts
}

// enumCompare checks a string literal compared with (==, !=) or looked for among (in) the
// values of an enum, two values of different enums compared, and values of an enum ordered
// (< <= > >=: refused).
func (pv *patcher) enumCompare(n *ast.BinaryNode) {
	switch n.Operator {
	case "==", "!=":
		lt, rt := pv.c.staticType(n.Left, pv.sc), pv.c.staticType(n.Right, pv.sc)
		switch {
		case lt.Kind == runtime.TEnum:
			pv.enumArg(n.Right, lt.Enum, "")
		case rt.Kind == runtime.TEnum:
			pv.enumArg(n.Left, rt.Enum, "")
		}
	case "<", "<=", ">", ">=":
		// Values of an enum are strings at run time: < would compare their spelling, not
		// the order they are declared in.
		lt, rt := pv.c.staticType(n.Left, pv.sc), pv.c.staticType(n.Right, pv.sc)
		e := lt.Enum
		if rt.Kind == runtime.TEnum {
			e = rt.Enum
		}
		if lt.Kind == runtime.TEnum || rt.Kind == runtime.TEnum {
			pv.fail(n, fmt.Sprintf("values of %s have no order: %s would compare their spelling", e.Name, n.Operator),
				fmt.Sprintf("compare them with == or !=, or compare their places in the declaration: findIndex(%s, # == x)", e.Name))
		}
	case "in":
		if lt := pv.c.staticType(n.Left, pv.sc); lt.Kind == runtime.TEnum {
			if list, ok := n.Right.(*ast.ArrayNode); ok {
				for _, item := range list.Nodes {
					pv.enumArg(item, lt.Enum, "")
				}
			}
		}
		if rt := pv.c.staticType(n.Right, pv.sc); rt.Kind == runtime.TList && rt.Elem != nil && rt.Elem.Kind == runtime.TEnum {
			pv.enumArg(n.Left, rt.Elem.Enum, "")
		}
	}
}

// enumArg reports n when it cannot be a value of e: a string literal that is not one, or a
// value of another enum. what names the place for the latter ("" for a comparison).
func (pv *patcher) enumArg(n ast.Node, e *runtime.Enum, what string) {
	if t := pv.c.staticType(n, pv.sc); t.Kind == runtime.TEnum {
		if t.Enum != e {
			if what == "" {
				pv.fail(n, fmt.Sprintf("a value of %s compared with a value of %s", t.Enum.Name, e.Name), "values of different enums are never equal")
			} else {
				pv.fail(n, fmt.Sprintf("%s: expected %s, got %s", what, e.Name, t.Enum.Name), "")
			}
		}
		return
	}
	s, ok := n.(*ast.StringNode)
	if !ok || e.Has(s.Value) {
		return
	}
	summary, _ := runtime.EnumProblem(e, s.Value)
	detail := e.Name + " is " + strings.Join(e.Values, ", ")
	if near := pv.sc.Suggest(s.Value, func() []string { return e.Values }); near != "" {
		detail = near + " " + detail
	}
	if what != "" {
		summary = what + ": " + summary
	}
	pv.fail(n, summary, detail)
}
