package dsl

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"rulesh/dsl/syntax"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/expr-lang/expr/ast"
)

// stmt is one compiled statement. exec runs it in a frame's variables; a return sets done.
type stmt interface {
	exec(m *Machine, f *frame) error
	pos() Pos
}

type stmtBase struct{ at Pos }

func (s stmtBase) pos() Pos { return s.at }

type letStmt struct {
	stmtBase
	name  string
	typ   *Type
	value *Expr
}

type assignStmt struct {
	stmtBase
	local string // a local variable, or
	obj   *Expr  // the record whose field is set
	field string
	key   *Expr // a map entry's computed key (m[k] = …)
	ftype *Type
	op    string
	value *Expr
	ltyp  *Type
}

type ifStmt struct {
	stmtBase
	conds  []*Expr
	blocks [][]stmt
	els    []stmt
}

type forStmt struct {
	stmtBase
	key, val string
	coll     *Expr
	body     []stmt
}

type whileStmt struct {
	stmtBase
	cond *Expr
	body []stmt
}

type returnStmt struct {
	stmtBase
	value *Expr
}

type requireStmt struct {
	stmtBase
	cond *Expr
	msg  *template
	msgE *Expr
}

type emitStmt struct {
	stmtBase
	tmpl  *template
	value *Expr
}

type exprStmt struct {
	stmtBase
	value *Expr
}

func (c *compiler) block(b *syntax.Block, parent *scope) []stmt {
	sc := newScope(parent)
	var out []stmt
	returned := false
	for _, s := range b.Stmts {
		if returned {
			c.warnf(s.Pos, "unreachable code after return", "")
			returned = false // one warning per block is enough
		}
		if st := c.stmt(s, sc); st != nil {
			out = append(out, st)
		}
		if s.Return != nil {
			returned = true
		}
	}
	return out
}

func (c *compiler) stmt(s *syntax.Stmt, sc *scope) stmt {
	base := stmtBase{syntax.PosOf(s.Pos)}
	switch {
	case s.Let != nil:
		l := s.Let
		if !c.checkName(l.Name, l.Pos) {
			return nil
		}
		c.checkShadow(l.Name, l.Pos)
		if _, ok := sc.vars[l.Name]; ok {
			c.errorf(l.Pos, l.Name+" is already declared in this block", "assign it with = instead")
		}
		var want *Type
		if l.Type != nil {
			want = c.resolveType(l.Type)
		}
		v := c.compileExpr(l.Value, sc, want)
		t := want
		if t == nil {
			t = anyType
			if v != nil {
				t = v.typ
			}
		}
		sc.vars[l.Name] = t
		if v == nil {
			return nil
		}
		return &letStmt{base, l.Name, want, v}
	case s.If != nil:
		st := &ifStmt{stmtBase: base}
		for i := s.If; i != nil; i = i.ElseIf {
			st.conds = append(st.conds, c.cond(&i.Cond.Expr, sc))
			st.blocks = append(st.blocks, c.block(i.Then, sc))
			if i.Else != nil {
				st.els = c.block(i.Else, sc)
			}
		}
		return st
	case s.For != nil:
		f := s.For
		st := &forStmt{stmtBase: base, coll: c.compileExpr(&f.Coll.Expr, sc, nil)}
		inner := newScope(sc)
		for _, n := range []string{f.Var, f.Var2} {
			if n != "" && c.checkName(n, f.Pos) {
				c.checkShadow(n, f.Pos)
			}
		}
		elem := anyType
		if st.coll != nil && st.coll.typ.Kind == TList && st.coll.typ.Elem != nil {
			elem = st.coll.typ.Elem
		}
		if f.Var2 != "" {
			st.key, st.val = f.Var, f.Var2
			inner.vars[f.Var] = anyType
			inner.vars[f.Var2] = elem
		} else {
			st.val = f.Var
			inner.vars[f.Var] = elem
		}
		st.body = c.block(f.Body, inner)
		return st
	case s.While != nil:
		return &whileStmt{base, c.cond(&s.While.Cond.Expr, sc), c.block(s.While.Body, sc)}
	case s.Return != nil:
		st := &returnStmt{stmtBase: base}
		if s.Return.Value != nil {
			var want *Type
			if sc.proc != nil && sc.proc.Result != nil {
				want = sc.proc.Result
			}
			st.value = c.compileExpr(s.Return.Value, sc, want)
		}
		return st
	case s.Require != nil:
		st := &requireStmt{stmtBase: base, cond: c.cond(s.Require.Cond, sc)}
		st.msg, st.msgE = c.textOrExpr(s.Require.Message, sc)
		return st
	case s.Emit != nil:
		st := &emitStmt{stmtBase: base}
		st.tmpl, st.value = c.textOrExpr(s.Emit.Value, sc)
		return st
	case s.Simple != nil:
		return c.simple(s.Simple, sc, base)
	}
	return nil
}

// textOrExpr compiles a lone string as a template with {…} holes, anything else as an expression.
func (c *compiler) textOrExpr(e *syntax.Expr, sc *scope) (*template, *Expr) {
	if t := e.Single(); t != nil && t.Type == syntax.TokString {
		return c.parseTemplate(t.Value, e.Pos, sc), nil
	}
	return nil, c.compileExpr(e, sc, nil)
}

func (c *compiler) cond(e *syntax.Expr, sc *scope) *Expr {
	x := c.compileExpr(e, sc, nil)
	if x != nil && x.typ.Kind != TBool && x.typ.Kind != TAny {
		c.errorf(e.Pos, "condition is "+x.typ.String()+", not bool", "compare it with ==, <, >= …")
		return nil
	}
	return x
}

func (c *compiler) simple(s *syntax.SimpleStmt, sc *scope, base stmtBase) stmt {
	if t := s.Target.Single(); t != nil && t.Type == syntax.TokIdent && s.Op != "" {
		if typ, local := sc.lookup(t.Value); local {
			// Assigning a local: no need to compile the target.
			st := &assignStmt{stmtBase: base, op: s.Op, local: t.Value, ltyp: typ}
			want := typ
			if s.Op != "=" {
				want = nil
			}
			if st.value = c.compileExpr(s.Value, sc, want); st.value == nil {
				return nil
			}
			return st
		}
	}
	target := c.compileExpr(s.Target, sc, nil)
	if target != nil && target.prog == nil {
		// A literal or a bare local: nothing to call, nothing assignable here.
		if s.Op == "" {
			c.errorf(s.Pos, "this expression does nothing", "a statement is a call, an assignment, or starts with let, if, for, while, return, require or emit")
		} else {
			c.errorf(s.Pos, "cannot assign to this expression", "assign to a variable or to a field: x = … or unit.field = …")
		}
		return nil
	}
	if s.Op == "" {
		if target == nil {
			return nil
		}
		if !isCall(c.orig(target.prog.Node())) {
			c.errorf(s.Pos, "this expression does nothing", "a statement is a call, an assignment, or starts with let, if, for, while, return, require or emit")
			return nil
		}
		return &exprStmt{base, target}
	}
	if target == nil {
		return nil
	}
	st := &assignStmt{stmtBase: base, op: s.Op}
	switch n := c.orig(target.prog.Node()).(type) {
	case *ast.IdentifierNode:
		t, local := sc.lookup(n.Value)
		if !local {
			what := "it"
			if g, ok := c.prog.globals[n.Value]; ok {
				what = fmt.Sprintf("%s (declared at %s)", describe(g), g.declPos())
			}
			c.errorf(s.Pos, "cannot assign to "+n.Value, what+" is not a local variable; options and consts are fixed during a run")
			return nil
		}
		st.local, st.ltyp = n.Value, t
	case *ast.MemberNode:
		prop, ok := n.Property.(*ast.StringNode)
		if n.Optional {
			c.errorf(s.Pos, "cannot assign to this expression", "assign to a variable or to a field: x = … or unit.field = …")
			return nil
		}
		if !ok {
			// m[k] = v with a computed key: compile the key on its own.
			text := strings.TrimRight(target.Text, " \t")
			open := relOffset(target)
			if !strings.HasSuffix(text, "]") || open >= len(text) {
				c.errorf(s.Pos, "cannot assign to this expression", "assign to a variable, a field or a map entry")
				return nil
			}
			keyStart := target.start
			keyStart.Column += utf8.RuneCountInString(text[:open+1])
			keyStart.Offset += open + 1
			st.key = c.compileText(text[open+1:len(text)-1], keyStart, sc, nil)
			if st.key == nil {
				return nil
			}
			prop = &ast.StringNode{}
		}
		st.field = prop.Value
		ot := c.staticType(n.Node, sc)
		if ot.Kind == TRecord {
			st.ftype = ot.Record.byName[prop.Value].Type
		}
		if name := rootConst(c, n.Node); name != "" {
			c.errorf(s.Pos, "cannot assign to a field of const "+name, "consts are fixed for every run")
			return nil
		}
		objText := target.Text[:relOffset(target)]
		st.obj = c.compileText(strings.TrimRight(objText, " \t."), target.start, sc, nil)
		if st.obj == nil {
			return nil
		}
	default:
		c.errorf(s.Pos, "cannot assign to this expression", "assign to a variable or to a field: x = … or unit.field = …")
		return nil
	}
	want := st.ltyp
	if st.ftype != nil {
		want = st.ftype
	}
	if st.op != "=" {
		want = nil
	}
	st.value = c.compileExpr(s.Value, sc, want)
	if st.value == nil {
		return nil
	}
	return st
}

// rootConst returns the const an assignment target starts from (base.a.b, base["a"][k]),
// or "".
func rootConst(c *compiler, n ast.Node) string {
	for {
		switch x := c.orig(n).(type) {
		case *ast.MemberNode:
			n = x.Node
		case *ast.IdentifierNode:
			if _, isConst := c.prog.globals[x.Value].(*Const); isConst {
				return x.Value
			}
			return ""
		default:
			return ""
		}
	}
}

// relOffset finds where the object part of `obj.field` or `obj[key]` ends in the expression
// text: at the last top-level `[` when the text ends with its `]`, else at the last top-level
// dot. Brackets and dots inside strings (`m["a]"]`) do not count.
func relOffset(x *Expr) int {
	text := strings.TrimRight(x.Text, " \t")
	depth, lastOpen, lastDot := 0, -1, len(text)
	var last lexer.Token
	syntax.Scan(text, func(t lexer.Token) bool {
		d := syntax.BracketDelta(t)
		if d > 0 && depth == 0 && t.Value == "[" {
			lastOpen = t.Pos.Offset
		}
		if depth == 0 && t.Type == syntax.TokOp && (t.Value == "." || t.Value == "?.") {
			lastDot = t.Pos.Offset
		}
		depth += d
		last = t
		return true
	})
	if last.Type == syntax.TokPunct && last.Value == "]" && depth == 0 && lastOpen >= 0 {
		return lastOpen
	}
	return lastDot
}

func isCall(n ast.Node) bool {
	_, ok := n.(*ast.CallNode)
	return ok
}

func describe(g global) string {
	switch g.(type) {
	case *Option:
		return "an option"
	case *Const:
		return "a const"
	case *Entity:
		return "an entity"
	case *Kind:
		return "a kind"
	case *Proc:
		return "a procedure"
	}
	return "a global"
}
