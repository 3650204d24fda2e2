package check

import (
	"fmt"
	"strings"

	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
)

// enumDecl declares an enum and its values, in order. A value is a name (so it reads the same
// bare as a table key, in a string, and after the enum's name: Objectif.réduire).
func (c *Compiler) enumDecl(ea *syntax.EnumDecl) {
	e := &runtime.Enum{Name: ea.Name, Pos: syntax.PosOf(ea.Pos), Index: map[string]int{}}
	if !c.declare(ea.Name, ea.Pos, e) {
		return
	}
	for _, v := range ea.Values {
		if !c.CheckName(v.Name, v.Pos) {
			continue
		}
		if _, dup := e.Index[v.Name]; dup {
			c.errorfSpan(v.Pos, v.Name, fmt.Sprintf("%s is listed twice in enum %s", v.Name, e.Name), "remove one")
			continue
		}
		e.Index[v.Name] = len(e.Values)
		e.Values = append(e.Values, v.Name)
		e.List = append(e.List, v.Name)
	}
	if len(ea.Values) == 0 {
		c.errorfSpan(ea.Pos, "enum", "enum "+e.Name+" has no values", "list them between the braces: enum "+e.Name+" { a, b, c }")
	}
	c.prog.Enums = append(c.prog.Enums, e)
	c.consts().Bind(e.Name, e.List)
}

// checkEnumLit reports a string literal stored where enum values are expected (a field's
// default, an entity's field, a let, a return) that is not one of them.
func (c *Compiler) checkEnumLit(x *runtime.Expr, want *runtime.Type) {
	s, ok := x.Lit.(string)
	if !ok || !x.IsLit || want.Kind != runtime.TEnum || x.Type.Kind == runtime.TEnum || want.Enum.Has(s) {
		return
	}
	summary, detail := runtime.EnumProblem(want.Enum, s)
	c.exprErrorf(x, summary, detail)
}

// checkEnumTable checks the exact keys of a table whose key parameter is an enum: each must be
// one of its values, and a table without an else row (or a band) should have a row for each
// value.
func (c *Compiler) checkEnumTable(t *runtime.Table, keyIndex int) {
	p := t.Proc
	if keyIndex >= len(p.Params) || p.Params[keyIndex].Type.Kind != runtime.TEnum {
		return
	}
	e := p.Params[keyIndex].Type.Enum
	covered := map[string]bool{}
	open := false
	for _, r := range t.Rows {
		if r.Else || r.Band != nil {
			open = true
		}
		for _, x := range r.Exact {
			s, ok := x.Lit.(string)
			if !x.IsLit || !ok {
				continue
			}
			if !e.Has(s) {
				summary, detail := runtime.EnumProblem(e, s)
				c.exprErrorf(x, summary, detail)
				open = true // the misspelt key is likely the missing value: said once
				continue
			}
			covered[s] = true
		}
	}
	if open {
		return
	}
	var missing []string
	for _, v := range e.Values {
		if !covered[v] {
			missing = append(missing, v)
		}
	}
	if len(missing) > 0 {
		c.Diags = append(c.Diags, &syntax.Diagnostic{Severity: Warning, Pos: t.Pos,
			Summary: fmt.Sprintf("table %s has no row for %s", t.Name, strings.Join(missing, ", ")),
			Detail:  "add the rows, or an else row for the values left"})
	}
}
