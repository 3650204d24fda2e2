package exprx

import (
	"fmt"

	"github.com/expr-lang/expr/ast"

	"rulesh/dsl/internal/runtime"
)

// A record is a map at run time, and expr-lang calls it one: "mismatched types map and
// map", "cannot use int as type string in map key". Where the checker knows an operand is
// a record, the operations records do not have are refused here first, in the language's
// words, naming the record's kind.

// recordOf returns the record kind of n's static type, or nil.
func (pv *patcher) recordOf(n ast.Node) *runtime.Kind {
	if t := pv.c.staticType(n, pv.sc); t.Kind == runtime.TRecord && t.Record != nil {
		return t.Record
	}
	return nil
}

// recordBinary refuses an order, arithmetic or a field name that is not a string applied to
// a record.
func (pv *patcher) recordBinary(n *ast.BinaryNode) {
	l, r := pv.recordOf(n.Left), pv.recordOf(n.Right)
	k := l
	if k == nil {
		k = r
	}
	switch n.Operator {
	case "<", "<=", ">", ">=":
		if k != nil {
			pv.fail(n, fmt.Sprintf("%s values have no order (%s)", k.Name, n.Operator), "compare one of their fields: a.pv < b.pv")
		}
	case "+", "-", "*", "/", "%", "**", "^":
		if k != nil {
			pv.fail(n, fmt.Sprintf("%s values have no arithmetic (%s)", k.Name, n.Operator), "compute with one of their fields: a.pv + 1")
		}
	case "in":
		if r != nil {
			pv.fieldName(n.Left, r)
		}
	}
}

// fieldName refuses, as the name of a field of k, a value whose static type is known and
// is not a string.
func (pv *patcher) fieldName(n ast.Node, k *runtime.Kind) {
	if t := pv.c.staticType(n, pv.sc); t.Kind != runtime.TAny && t.Kind != runtime.TString && t.Kind != runtime.TEnum {
		pv.fail(n, fmt.Sprintf("cannot use %s as a field name of %s", t, k.Name), "a field is named by a string: r.pv or r[\"pv\"]")
	}
}

// recordIndex refuses r[x] on a record when x is not a string.
func (pv *patcher) recordIndex(n *ast.MemberNode) {
	if _, ok := n.Property.(*ast.StringNode); ok {
		return
	}
	if k := pv.recordOf(n.Node); k != nil {
		pv.fieldName(n.Property, k)
	}
}

// recordSort refuses sort, min and max of a list of records: they have no order.
func (pv *patcher) recordSort(n *ast.BuiltinNode) {
	if n.Name != "sort" && n.Name != "min" && n.Name != "max" || len(n.Arguments) == 0 {
		return
	}
	var k *runtime.Kind
	if t := pv.c.staticType(n.Arguments[0], pv.sc); t.Kind == runtime.TList && t.Elem != nil && t.Elem.Kind == runtime.TRecord {
		k = t.Elem.Record
	} else if list, ok := pv.c.orig(n.Arguments[0]).(*ast.ArrayNode); ok && len(list.Nodes) > 0 {
		k = pv.recordOf(list.Nodes[0])
	}
	if k != nil {
		pv.fail(n, fmt.Sprintf("%s values have no order: %s cannot compare them", k.Name, n.Name), fmt.Sprintf("give a key: sortBy(list, #.pv), or %s of a field: %s(map(list, #.pv))", n.Name, n.Name))
	}
}
