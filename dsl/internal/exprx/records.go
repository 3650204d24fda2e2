package exprx

import (
	"fmt"
	"reflect"

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
	if k == nil && n.Name != "sort" {
		// max(a, b) of records themselves.
		for _, a := range n.Arguments {
			if k = pv.recordOf(a); k != nil {
				break
			}
		}
	}
	if k != nil {
		hint := fmt.Sprintf("give a key: sortBy(list, #.pv), or %s of a field: %s(map(list, #.pv))", n.Name, n.Name)
		if len(n.Arguments) > 1 {
			hint = fmt.Sprintf("compare one of their fields: %s(a.pv, b.pv)", n.Name)
		}
		pv.fail(n, fmt.Sprintf("%s values have no order: %s cannot compare them", recordName(k), n.Name), hint)
	}
}

// recordName names a record's type as the language writes it: its kind, or the fields of a
// roll of record dice (`record {s, a}`), never expr-lang's "map".
func recordName(k *runtime.Kind) string {
	return k.Type().String()
}

// recordArgs refuses a record given to a builtin none of whose signatures takes a record
// there: expr-lang would say "cannot use map as argument".
// skip is how many parameters come before the rules' arguments (the Machine of a builtin).
func (pv *patcher) recordArgs(fn string, types []any, skip int, call *ast.CallNode) {
	for i, a := range call.Arguments {
		k := pv.recordOf(a)
		if k == nil {
			continue
		}
		fits, takes := false, false
		for _, sig := range types {
			ft := reflect.TypeOf(sig)
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() != reflect.Func {
				return
			}
			n := ft.NumIn() - skip
			if ft.IsVariadic() && len(call.Arguments) < n-1 || !ft.IsVariadic() && len(call.Arguments) != n {
				continue
			}
			fits = true
			var pt reflect.Type
			if ft.IsVariadic() && i+skip >= ft.NumIn()-1 {
				pt = ft.In(ft.NumIn() - 1).Elem()
			} else {
				pt = ft.In(i + skip)
			}
			if pt.Kind() == reflect.Interface || pt.Kind() == reflect.Map {
				takes = true
			}
		}
		if fits && !takes {
			detail := ""
			if k.Tally {
				detail = "a roll of record dice is a record: read its fields, as r." + k.FieldNames()[0]
			}
			pv.fail(a, fmt.Sprintf("cannot use %s as argument %d of %s", recordName(k), i+1, fn), detail)
			return
		}
	}
}
