package exprx

import (
	"reflect"
	"slices"

	"github.com/expr-lang/expr/ast"

	"rulesh/dsl/internal/runtime"
)

// A face of a declared symbolic die may be written bare where a roll, a string or a value
// of unknown type is compared with it (`r == fusil`, `fusil != r`): the name, when it is
// neither a local nor a global, stands for the face's name, as in a table's row keys. A
// roll of one symbolic die equals the name of its face (runtime.RollArith).

// faceNames rewrites the bare face names of a comparison into strings.
func (pv *patcher) faceNames(n *ast.BinaryNode) {
	if n.Operator != "==" && n.Operator != "!=" {
		return
	}
	sides := [2]*ast.Node{&n.Left, &n.Right}
	for i, side := range sides {
		id, ok := (*side).(*ast.IdentifierNode)
		if !ok || !slices.Contains(pv.unknown, id) || !pv.isFace(id.Value) {
			continue
		}
		switch pv.c.staticType(*sides[1-i], pv.sc).Kind {
		case runtime.TRoll, runtime.TString, runtime.TAny:
		default:
			continue
		}
		s := &ast.StringNode{Value: id.Value}
		s.SetType(reflect.TypeFor[string]())
		at := id.Location()
		ast.Patch(side, s)
		s.SetLocation(at)
		pv.unknown = slices.DeleteFunc(pv.unknown, func(u *ast.IdentifierNode) bool { return u == id })
	}
}

// isFace reports whether name is a face of a declared symbolic die.
func (pv *patcher) isFace(name string) bool {
	for _, d := range pv.c.prog.Dice() {
		if !d.Symbolic {
			continue
		}
		for _, f := range d.Faces {
			if f.Sym == name {
				return true
			}
		}
	}
	return false
}
