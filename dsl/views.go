package dsl

import (
	"slices"

	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

// The compiled forms (kinds, procedures, maps) belong to the Program and are shared by every
// Machine that runs it: the facade describes them with values of its own, copied out, so
// that nothing a caller does to a description reaches the Program.

// KindInfo describes a record kind as declared.
type KindInfo struct {
	Name   string
	Pos    Pos
	Fields []FieldInfo
}

// FieldInfo describes one field of a kind.
type FieldInfo struct {
	Name string
	Pos  Pos
	// Type is the field's type as a rule writes it (int, string, Unit, list…).
	Type string
	// Default is the text of the field's default as compiled, or "" for its type's zero.
	Default string
}

// Kind describes the record kind of that name.
func (p *Program) Kind(name string) (KindInfo, bool) {
	k, ok := p.p.Globals[name].(*runtime.Kind)
	if !ok {
		return KindInfo{}, false
	}
	out := KindInfo{Name: k.Name, Pos: k.Pos, Fields: make([]FieldInfo, len(k.Fields))}
	for i, f := range k.Fields {
		out.Fields[i] = FieldInfo{Name: f.Name, Pos: f.Pos, Type: typeText(f.Type), Default: exprText(f.Default)}
	}
	return out, true
}

// ProcInfo describes an action, a rule or a table's lookup as declared.
type ProcInfo struct {
	Name string
	// Verb is action or rule as declared, or table.
	Verb   string
	Pos    Pos
	Params []ParamInfo
	// Result is the type of what it returns, or "" when it returns nothing.
	Result string
}

// ParamInfo describes one parameter of a procedure.
type ParamInfo struct {
	Name string
	Type string
	// Default is the text of its default as compiled, or "" when a call must give it.
	Default string
}

// Proc describes the action, rule or table of that name.
func (p *Program) Proc(name string) (ProcInfo, bool) {
	pr := p.p.Proc(name)
	if pr == nil {
		return ProcInfo{}, false
	}
	out := ProcInfo{Name: pr.Name, Verb: pr.Verb, Pos: pr.Pos, Result: typeText(pr.Result), Params: make([]ParamInfo, len(pr.Params))}
	for i, pa := range pr.Params {
		out.Params[i] = ParamInfo{Name: pa.Name, Type: typeText(pa.Type), Default: exprText(pa.Default)}
	}
	return out, true
}

func typeText(t *runtime.Type) string {
	if t == nil {
		return ""
	}
	return t.String()
}

func exprText(x *runtime.Expr) string {
	if x == nil {
		return ""
	}
	return x.Text
}

// copyDie is a die the caller owns: its faces are copied from the Program's.
func copyDie(d *dice.Die) *dice.Die {
	c := *d
	c.Faces = slices.Clone(d.Faces)
	return &c
}
