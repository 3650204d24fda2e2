package dsl

import (
	"slices"

	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
	"strings"
	"unicode"
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

// ReturnsNothing reports whether src is, as written, one call of a procedure of p declared
// without a result (`jouer(x)`): eval and the REPL show nothing for its nil, and `nil` for
// any other expression whose value is nil (a missing key of a plain map).
func (p *Program) ReturnsNothing(src string) bool {
	s := strings.TrimSpace(src)
	open := strings.IndexByte(s, '(')
	if p == nil || open <= 0 || !strings.HasSuffix(s, ")") {
		return false
	}
	name := strings.TrimSpace(s[:open])
	for _, r := range name {
		if r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	// The first bracket must close at the end: f(1) + g(2) is not one call.
	depth, quote := 0, rune(0)
	for i, r := range s[open:] {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '"' || r == '\'' || r == '`':
			quote = r
		case r == '(' || r == '[' || r == '{':
			depth++
		case r == ')' || r == ']' || r == '}':
			depth--
			if depth == 0 && open+i != len(s)-1 {
				return false
			}
		}
	}
	info, ok := p.Proc(name)
	return ok && info.Result == "" && info.Verb != "table"
}
