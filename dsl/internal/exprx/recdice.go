package exprx

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/expr-lang/expr/ast"

	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
	"rulesh/stdlib/dice"
)

// Rolls of record dice (dice whose faces are records of counts) are records of a tally kind
// (runtime.TallyKind): `r.s` reads a count, + adds two rolls field by field, and the static
// type of a sum is the union of its dice's fields, so a field no die has is refused at load.

// recordChain extends a literal of record dice at toks[i] over the record dice literals that
// follow it joined by + (`2dability + 1dproficiency + 2ddifficulty`), and returns the index
// of the last token taken and the sum parsed as one expression. A last literal followed by
// an operator tighter than + (`.`, `*`, `[`…) is left to it.
func (c *Compiler) recordChain(toks []lexer.Token, i int, sc Scope, de *dice.Expr) (int, *dice.Expr) {
	next := func(j int) int {
		for j++; j < len(toks); j++ {
			if toks[j].Type != syntax.TokNewline {
				return j
			}
		}
		return -1
	}
	var chain []int
	for j := i; ; {
		plus := next(j)
		if plus < 0 || toks[plus].Type != syntax.TokOp || toks[plus].Value != "+" {
			break
		}
		k := next(plus)
		if k < 0 || toks[k].Type != syntax.TokDice || c.shadowed(toks[k].Value, sc) {
			break
		}
		e, err := dice.Parse(toks[k].Value, c.prog.Dice())
		if err != nil || !e.IsRecord() {
			break
		}
		chain = append(chain, k)
		j = k
	}
	if n := len(chain); n > 0 {
		if after := next(chain[n-1]); after >= 0 && tightAfter(&toks[after]) {
			chain = chain[:n-1]
		}
	}
	if len(chain) == 0 {
		return i, de
	}
	text := toks[i].Value
	for _, k := range chain {
		text += " + " + toks[k].Value
	}
	sum, err := dice.Parse(text, c.prog.Dice())
	if err != nil {
		return i, de
	}
	return chain[len(chain)-1], sum
}

// shadowed reports a dice token that is a local's or a global's name (d6 as a parameter).
func (c *Compiler) shadowed(tok string, sc Scope) bool {
	name := syntax.DieName(tok)
	if name == "" {
		return false
	}
	if _, local := sc.Local(name); local {
		return true
	}
	_, global := c.prog.Globals[name]
	return global
}

// tightBefore reports an operator before a literal that binds tighter than +, or a sign: the
// literal is its operand alone.
func tightBefore(t *lexer.Token) bool {
	if t == nil {
		return false
	}
	switch t.Value {
	case "*", "/", "%", "-", "**", "^", ".", "?.", "!", "not":
		return true
	}
	return false
}

// tightAfter reports an operator after a literal that binds tighter than +.
func tightAfter(t *lexer.Token) bool {
	switch t.Value {
	case "*", "/", "%", "**", "^", ".", "?.", "[", "(":
		return true
	}
	return false
}

// tallyOf returns the tally kind of n's static type, or nil.
func (pv *patcher) tallyOf(n ast.Node) *runtime.Kind {
	if k := pv.recordOf(n); k != nil && k.Tally {
		return k
	}
	return nil
}

// tallyType is the static type of a roll of record dice or a sum of them, or nil. It is
// remembered per node: each + of a long sum asks it of the sum below.
func (c *Compiler) tallyType(n ast.Node, sc Scope) *runtime.Type {
	if t, ok := c.tallies[n]; ok {
		return t
	}
	t := c.tallyTypeOf(n, sc)
	if c.tallies == nil {
		c.tallies = map[ast.Node]*runtime.Type{}
	}
	c.tallies[n] = t
	return t
}

func (c *Compiler) tallyTypeOf(n ast.Node, sc Scope) *runtime.Type {
	switch n := n.(type) {
	case *ast.CallNode:
		id, ok := n.Callee.(*ast.IdentifierNode)
		if !ok || len(n.Arguments) != 2 {
			return nil
		}
		switch id.Value {
		case "__recdice":
			if k, ok := n.Arguments[1].(*ast.ConstantNode); ok {
				if de, ok := k.Value.(*dice.Expr); ok {
					return runtime.TallyKind(de.RecordFields()).Type()
				}
			}
		case "__rec_add":
			return c.tallyUnion(n.Arguments[0], n.Arguments[1], sc)
		}
	case *ast.BinaryNode:
		// Only maps may be tallies: a look at expr's types first keeps a long sum of
		// numbers from being walked again at each of its + (quadratic).
		if n.Operator == "+" && mapTyped(n.Left) && mapTyped(n.Right) {
			return c.tallyUnion(n.Left, n.Right, sc)
		}
	}
	return nil
}

// mapTyped reports a node expr typed as a map (a record, a roll of record dice) or left
// untyped.
func mapTyped(n ast.Node) bool {
	t := n.Nature().Type
	return t == nil || t.Kind() == reflect.Map || t.Kind() == reflect.Interface
}

func (c *Compiler) tallyUnion(l, r ast.Node, sc Scope) *runtime.Type {
	a, b := c.staticType(l, sc), c.staticType(r, sc)
	if a.Kind != runtime.TRecord || b.Kind != runtime.TRecord || !a.Record.Tally || !b.Record.Tally {
		return nil
	}
	return runtime.UnionTally(a.Record, b.Record).Type()
}

// tallyBinary checks an operator where a roll of record dice takes part: + with another such
// roll, and nothing else (a record has no number; its fields do).
func (pv *patcher) tallyBinary(n *ast.BinaryNode) bool {
	l, r := pv.tallyOf(n.Left), pv.tallyOf(n.Right)
	if l == nil && r == nil {
		return false
	}
	k := l
	if k == nil {
		k = r
	}
	field := "r." + k.Fields[0].Name
	switch n.Operator {
	case "+":
		if l != nil && r != nil {
			return true
		}
		other := n.Right
		if l == nil {
			other = n.Left
		}
		if t := pv.c.staticType(other, pv.sc); t.Kind != runtime.TAny {
			pv.fail(n, fmt.Sprintf("cannot add a roll of record dice and %s", t), "+ adds rolls of record dice to each other; a count is a field: "+field+" + 1")
		}
		return true
	case "==", "!=", "in":
		return false
	}
	pv.fail(n, fmt.Sprintf("a roll of record dice has no number (%s)", n.Operator), "compute with its fields: "+field+" >= 1, r.s - r.f")
	return true
}

// tallyField refuses a field that no die of a roll of record dice has.
func (pv *patcher) tallyField(n *ast.MemberNode) {
	prop, ok := n.Property.(*ast.StringNode)
	if !ok {
		return
	}
	if k := pv.tallyOf(n.Node); k != nil && k.ByName[prop.Value] == nil {
		pv.fail(n.Property, "unknown field "+prop.Value, pv.sc.Suggest(prop.Value, func() []string { return k.FieldNames() }))
	}
}

// tallyLetFields refuses, as tallyField does, a field no die has of an expr `let` bound to a
// roll of record dice (`let r = 2dability; r.z` in prob): its uses were visited before it,
// when its type was not known, and read the missing field as nil.
func (pv *patcher) tallyLetFields(n *ast.VariableDeclaratorNode) {
	var k *runtime.Kind
	if t := pv.c.staticType(n.Value, pv.sc); t.Kind == runtime.TRecord && t.Record != nil && t.Record.Tally {
		k = t.Record
	}
	pv.letFields = slices.DeleteFunc(pv.letFields, func(m *ast.MemberNode) bool {
		if m.Node.(*ast.IdentifierNode).Value != n.Name {
			return false
		}
		if prop, ok := m.Property.(*ast.StringNode); ok && k != nil && k.ByName[prop.Value] == nil {
			pv.fail(m.Property, "unknown field "+prop.Value, pv.sc.Suggest(prop.Value, func() []string { return k.FieldNames() }))
		}
		return true
	})
}
