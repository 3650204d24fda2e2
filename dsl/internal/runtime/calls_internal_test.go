package runtime

import "testing"

// panicStmt is a statement that panics, as an internal error would.
type panicStmt struct{ StmtBase }

func (panicStmt) exec(*Machine, *Frame) error { panic("internal error") }

// A call's frame gives the depth back on its returns, not when a panic unwinds through it;
// the top-level call that caught it (as a builtin catches one) puts the depth back.
func TestTopLevelRestoresDepthAfterPanic(t *testing.T) {
	p := &Proc{Name: "boom", Verb: "action", Body: []Stmt{panicStmt{}}}
	prog := &Program{Procs: []*Proc{p}, Globals: map[string]Global{}}
	m, err := NewMachine(prog, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	caught := func() (v any, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = Errorf("caught: %v", r)
			}
		}()
		return m.CallAt(p, nil, p.Pos)
	}
	if _, err := m.TopLevel(caught); err == nil {
		t.Fatal("the panic was not caught")
	}
	if m.depth != 0 {
		t.Errorf("depth %d after TopLevel, want 0", m.depth)
	}
	if err := m.Trial(func() error { _, err := caught(); return err }); err == nil {
		t.Fatal("the panic was not caught")
	}
	if m.depth != 0 {
		t.Errorf("depth %d after Trial, want 0", m.depth)
	}
}
