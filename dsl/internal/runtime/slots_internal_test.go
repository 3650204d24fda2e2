package runtime

import "testing"

// An expression two procedures hold keeps both on the map: a slot is one procedure's index,
// which the other's frame would not have. A procedure holding only its own gets slots.
func TestResolveSlotsSharedExpr(t *testing.T) {
	shared := &Expr{Names: []*NameRef{{Name: "x"}}}
	own := &Expr{Names: []*NameRef{{Name: "y"}}}
	proc := func(name string, x *Expr) *Proc {
		return &Proc{Name: name, Verb: "action", Params: []*Param{{Name: name[:1]}},
			Body: []Stmt{&LetStmt{Name: "x", Value: &Expr{IsLit: true, Lit: 1}}, &LetStmt{Name: "y", Value: &Expr{IsLit: true, Lit: 2}}, &ReturnStmt{Value: x}}}
	}
	a, b, c := proc("a", shared), proc("b", shared), proc("c", own)
	ResolveSlots(&Program{Procs: []*Proc{a, b, c}, Globals: map[string]Global{}})
	if a.Locals != nil || b.Locals != nil || shared.Names[0].Slot != 0 {
		t.Errorf("a shared expression got slots: a %v, b %v, name's slot %d", a.Locals, b.Locals, shared.Names[0].Slot)
	}
	if len(c.Locals) != 3 || own.Names[0].Slot != 3 {
		t.Errorf("c: slots %v, y's name's slot %d; want [c x y], 3", c.Locals, own.Names[0].Slot)
	}
}
