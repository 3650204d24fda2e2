package exprx

import (
	"reflect"

	"github.com/expr-lang/expr/ast"

	"rulesh/dsl/internal/runtime"
)

// A typed map, map[K]V, is a plain map at run time. Reading an entry of one whose static type
// is known (`f.défense[poste]`, `f.défense.Barre`) becomes `entry ?? zero`, so a missing key
// reads V's zero; the key is checked against K where K is an enum. Writes are the checker's
// (AssignStmt) and Conform's.

// mapDefault rewrites a read of a typed map's entry to give the value type's zero for a
// missing key, and checks a literal key against an enum key type.
func (pv *patcher) mapDefault(node *ast.Node, n *ast.MemberNode) {
	t := pv.c.staticType(n.Node, pv.sc)
	if !t.TypedMap() {
		return
	}
	if t.Key.Kind == runtime.TEnum {
		pv.enumArg(n.Property, t.Key.Enum, "key of "+t.String())
	}
	if n.Optional {
		return
	}
	zero := zeroNode(t.Elem)
	if zero == nil && t.Elem.Kind == runtime.TDice {
		// A code has no zero: a missing key is an error, and the entry is typed as a code
		// for the operators that take one (f.codes["blaster"] + 1D).
		c := &ast.CallNode{Callee: &ast.IdentifierNode{Value: "__code_entry"}, Arguments: []ast.Node{n}}
		c.SetType(codeType())
		c.SetLocation(n.Location())
		pv.c.origins.set(c, n)
		ast.Patch(node, c)
		return
	}
	if zero == nil {
		return
	}
	or := &ast.BinaryNode{Operator: "??", Left: n, Right: zero}
	or.SetLocation(n.Location())
	zero.SetLocation(n.Location())
	// The entry as written: assignment targets and static types read through the default.
	pv.c.origins.set(or, n)
	ast.Patch(node, or)
}

// zeroNode builds the expression of a type's zero value, or nil for a type whose zero is nil
// (a list or a map is built afresh at every read: changing one changes no other).
func zeroNode(t *runtime.Type) ast.Node {
	switch t.Kind {
	case runtime.TList:
		n := &ast.ArrayNode{}
		n.SetType(reflect.TypeFor[[]any]())
		return n
	case runtime.TMap:
		n := &ast.MapNode{}
		n.SetType(reflect.TypeFor[map[string]any]())
		return n
	case runtime.TInt, runtime.TFloat, runtime.TBool, runtime.TString, runtime.TEnum:
		v := runtime.ZeroValue(t)
		if v == nil {
			return nil
		}
		n := &ast.ConstantNode{Value: v}
		n.SetType(reflect.TypeOf(v))
		return n
	}
	return nil
}

// MapEntry is an entry of a map literal whose key is written as a name or a string.
type MapEntry struct {
	Key string
	// KeyAt and ValueAt are the rune offsets of the key and the value in the compiled text
	// (runtime.Expr.PosAt places them).
	KeyAt, ValueAt int
	// Value is the value's static type as expr knows it (records are maps; an enum's value
	// written Enum.value keeps its enum).
	Value *runtime.Type
}

// MapLiteral returns the entries of an expression that is a map literal, so the checker can
// check them against a typed map at load; ok is false for any other expression.
func (c *Compiler) MapLiteral(x *runtime.Expr) (entries []MapEntry, ok bool) {
	cd, compiled := codeOf(x)
	if !compiled {
		return nil, false
	}
	m, isMap := c.orig(cd.tree.Node).(*ast.MapNode)
	if !isMap {
		return nil, false
	}
	for _, p := range m.Pairs {
		pair := p.(*ast.PairNode)
		key, isString := c.orig(pair.Key).(*ast.StringNode)
		if !isString {
			continue
		}
		v := c.orig(pair.Value)
		t, isEnum := c.enumValue(v)
		if !isEnum {
			t = runtime.TypeFromReflect(v.Type())
		}
		entries = append(entries, MapEntry{Key: key.Value, KeyAt: pair.Key.Location().From, ValueAt: v.Location().From, Value: t})
	}
	return entries, true
}
