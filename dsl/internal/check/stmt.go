package check

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"

	"github.com/alecthomas/participle/v2/lexer"
)

func (c *Compiler) block(b *syntax.Block, parent *Scope) []runtime.Stmt {
	sc := NewScope(parent)
	var out []runtime.Stmt
	returned := false
	for _, s := range b.Stmts {
		if returned {
			c.warnf(s.Pos, "unreachable code after "+jumpWord(b.Stmts, s), "")
			returned = false // one warning per block is enough
		}
		if st := c.Stmt(s, sc); st != nil {
			out = append(out, st)
		}
		if s.Return != nil || s.Break != nil || s.Continue != nil {
			returned = true
		}
	}
	return out
}

// jumpWord names the statement before s in stmts that ends the block (return, break or
// continue), for the warning about the code after it.
func jumpWord(stmts []*syntax.Stmt, s *syntax.Stmt) string {
	for i, t := range stmts {
		if t == s && i > 0 {
			switch p := stmts[i-1]; {
			case p.Break != nil:
				return "break"
			case p.Continue != nil:
				return "continue"
			}
		}
	}
	return "return"
}

func (c *Compiler) Stmt(s *syntax.Stmt, sc *Scope) runtime.Stmt {
	base := runtime.StmtBase{At: syntax.PosOf(s.Pos)}
	switch {
	case s.Let != nil:
		l := s.Let
		if !c.CheckName(l.Name, l.Pos) {
			return nil
		}
		c.CheckShadow(l.Name, l.Pos)
		c.procLocals = append(c.procLocals, procLocal{l.Name, l.Pos})
		if _, ok := sc.Vars[l.Name]; ok {
			c.errorf(l.Pos, l.Name+" is already declared in this block", "assign it with = instead")
		}
		var want *runtime.Type
		if l.Type != nil {
			want = c.resolveType(l.Type)
		}
		v := c.valueExpr(l.Value, sc, want, nil)
		t := want
		if t == nil {
			t = runtime.AnyType
			if v != nil {
				t = v.Type
			}
		}
		sc.Vars[l.Name] = t
		if v == nil {
			return nil
		}
		c.ownLet(l.Name, v, sc)
		return &runtime.LetStmt{StmtBase: base, Name: l.Name, Type: want, Value: v}
	case s.If != nil:
		st := &runtime.IfStmt{StmtBase: base}
		for i := s.If; i != nil; i = i.ElseIf {
			st.Conds = append(st.Conds, c.cond(&i.Cond.Expr, sc))
			st.Blocks = append(st.Blocks, c.block(i.Then, sc))
			if i.Else != nil {
				st.Else = c.block(i.Else, sc)
			}
		}
		return st
	case s.For != nil:
		f := s.For
		st := &runtime.ForStmt{StmtBase: base, Coll: c.compileExpr(&f.Coll.Expr, sc, nil)}
		inner := NewScope(sc)
		inner.loop = true
		for _, n := range []string{f.Var, f.Var2} {
			if n != "" && c.CheckName(n, f.Pos) {
				c.CheckShadow(n, f.Pos)
				c.procLocals = append(c.procLocals, procLocal{n, f.Pos})
			}
		}
		key, elem := loopVarTypes(st.Coll)
		if f.Var2 != "" {
			st.Key, st.Val = f.Var, f.Var2
			inner.Vars[f.Var] = key
			inner.Vars[f.Var2] = elem
		} else {
			st.Val = f.Var
			inner.Vars[f.Var] = elem
		}
		st.Body = c.block(f.Body, inner)
		return st
	case s.While != nil:
		body := NewScope(sc)
		body.loop = true
		return &runtime.WhileStmt{StmtBase: base, Cond: c.cond(&s.While.Cond.Expr, sc), Body: c.block(s.While.Body, body)}
	case s.Break != nil || s.Continue != nil:
		word := "break"
		if s.Continue != nil {
			word = "continue"
		}
		if !sc.inLoop() {
			c.errorf(s.Pos, word+" outside a loop", word+" stands in the body of a for or while loop; to end the procedure, write return")
			return nil
		}
		if s.Continue != nil {
			return &runtime.ContinueStmt{StmtBase: base}
		}
		return &runtime.BreakStmt{StmtBase: base}
	case s.Return != nil:
		st := &runtime.ReturnStmt{StmtBase: base}
		if s.Return.Value != nil {
			var want *runtime.Type
			var at *place
			if sc.proc != nil && sc.proc.Result != nil {
				want, at = sc.proc.Result, &place{proc: sc.proc}
			}
			st.Value = c.valueExpr(s.Return.Value, sc, want, at)
		}
		return st
	case s.Require != nil:
		st := &runtime.RequireStmt{StmtBase: base, Cond: c.cond(s.Require.Cond, sc)}
		st.Msg, st.MsgExpr = c.textOrExpr(s.Require.Message, sc)
		return st
	case s.Emit != nil:
		st := &runtime.EmitStmt{StmtBase: base}
		st.Template, st.Value = c.textOrExpr(s.Emit.Value, sc)
		return st
	case s.Simple != nil:
		return c.simple(s.Simple, sc, base)
	}
	return nil
}

// loopVarTypes gives the static types of a for loop's variables (key or index, then value)
// over coll: a count `for i in n` runs i over ints and a list's index is an int, so the
// loop's arithmetic compiles to expr's int operators instead of the overloads an any takes;
// a typed list gives its elements' type, a typed map its keys' and values'.
func loopVarTypes(coll *runtime.Expr) (key, elem *runtime.Type) {
	key, elem = runtime.AnyType, runtime.AnyType
	if coll == nil {
		return key, elem
	}
	switch t := coll.Type; {
	case t.Kind == runtime.TInt:
		return runtime.IntType, runtime.IntType
	case t.Kind == runtime.TList:
		key = runtime.IntType
		if t.Elem != nil {
			elem = t.Elem
		}
	case t.TypedMap():
		key, elem = t.Key, t.Elem
	}
	return key, elem
}

// textOrExpr compiles a lone string as a template with {…} holes, anything else as an expression.
func (c *Compiler) textOrExpr(e *syntax.Expr, sc *Scope) (*runtime.Template, *runtime.Expr) {
	if t := e.Single(); t != nil && t.Type == syntax.TokString {
		return c.parseTemplate(t.Value, e.Pos, sc), nil
	}
	return nil, c.compileExpr(e, sc, nil)
}

// valueExpr compiles the value of let, return or an assignment: a lone string literal with
// braces is a template, as after emit; anything else is an expression.
// at names the place for a mismatch's message (nil: none).
func (c *Compiler) valueExpr(e *syntax.Expr, sc *Scope, want *runtime.Type, at *place) *runtime.Expr {
	t := e.Single()
	if t == nil || t.Type != syntax.TokString || !strings.ContainsAny(t.Value, "{}") {
		return c.compileExprAs(e, sc, want, at)
	}
	n := len(c.Diags)
	tm := c.parseTemplate(t.Value, e.Pos, sc)
	for _, d := range c.Diags[n:] {
		if d.Severity != Warning {
			return nil
		}
	}
	text, start := c.exprText(e)
	x := &runtime.Expr{Pos: syntax.PosOf(start), Text: text, Start: start, Tmpl: tm, Type: runtime.StringType}
	c.checkWantAs(x, want, at)
	return x
}

func (c *Compiler) cond(e *syntax.Expr, sc *Scope) *runtime.Expr {
	x := c.compileExpr(e, sc, nil)
	if x != nil && x.Type.Kind != runtime.TBool && x.Type.Kind != runtime.TAny {
		if d := c.exprs.CountCondition(x); d != nil {
			c.Diags = append(c.Diags, d)
			return nil
		}
		c.exprErrorf(x, "condition is "+x.Type.String()+", not bool", "compare it with ==, <, >= …")
		return nil
	}
	return x
}

func (c *Compiler) simple(s *syntax.SimpleStmt, sc *Scope, base runtime.StmtBase) runtime.Stmt {
	if t := s.Target.Single(); t != nil && t.Type == syntax.TokIdent && s.Op != "" {
		if typ, local := sc.lookup(t.Value); local {
			// Assigning a local: no need to compile the target.
			st := &runtime.AssignStmt{StmtBase: base, Op: s.Op, Local: t.Value, LocalType: typ}
			want := typ
			if s.Op != "=" {
				want = nil
			}
			if st.Value = c.valueExpr(s.Value, sc, want, nil); st.Value == nil {
				return nil
			}
			c.ownAssign(t.Value, s.Op, st.Value, sc, s.Pos)
			return st
		}
	}
	target := c.compileExpr(s.Target, sc, nil)
	if target != nil && target.Code == nil {
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
		if !c.exprs.ShapeOf(target, exprScope{c, sc}).Call {
			c.errorf(s.Pos, "this expression does nothing", "a statement is a call, an assignment, or starts with let, if, for, while, return, require or emit")
			return nil
		}
		return &runtime.ExprStmt{StmtBase: base, Value: target}
	}
	if target == nil {
		return nil
	}
	st := &runtime.AssignStmt{StmtBase: base, Op: s.Op}
	switch shape := c.exprs.ShapeOf(target, exprScope{c, sc}); {
	case shape.Name != "":
		t, local := sc.lookup(shape.Name)
		if !local {
			what := "it"
			if g, ok := c.prog.Globals[shape.Name]; ok {
				what = fmt.Sprintf("%s (declared at %s)", describe(g), g.DeclPos())
			}
			c.errorf(s.Pos, "cannot assign to "+shape.Name, what+" is not a local variable; options and consts are fixed during a run")
			return nil
		}
		st.Local, st.LocalType = shape.Name, t
	case shape.Member:
		if shape.Optional {
			c.errorf(s.Pos, "cannot assign to this expression", "assign to a variable or to a field: x = … or unit.field = …")
			return nil
		}
		if shape.Keyed {
			// m[k] = v with a computed key: compile the key on its own.
			text := strings.TrimRight(target.Text, " \t")
			open := relOffset(target)
			if !strings.HasSuffix(text, "]") || open >= len(text) {
				c.errorf(s.Pos, "cannot assign to this expression", "assign to a variable, a field or a map entry")
				return nil
			}
			keyStart := target.Start
			keyStart.Column += utf8.RuneCountInString(text[:open+1])
			keyStart.Offset += open + 1
			st.Key = c.CompileText(text[open+1:len(text)-1], keyStart, sc, nil)
			if st.Key == nil {
				return nil
			}
		}
		st.Field = runtime.FieldKey(shape.Field)
		if ot := shape.ObjType; ot.Kind == runtime.TRecord {
			// A record's entry by a computed key (r[k] = v) names its field only when it
			// runs: the run checks the field and its type then.
			st.ObjKind = ot.Record
			if f := ot.Record.ByName[shape.Field]; f != nil {
				st.FieldType = f.Type
			}
		} else if ot.TypedMap() {
			st.FieldType, st.KeyType = ot.Elem, ot.Key
			if !c.checkMapKey(st, ot, target) {
				return nil
			}
		}
		if _, isConst := c.prog.Globals[shape.Root].(*runtime.Const); isConst {
			c.errorf(s.Pos, "cannot assign to a field of const "+shape.Root, "consts are fixed for every run")
			return nil
		}
		objText := target.Text[:relOffset(target)]
		st.Obj = c.CompileText(strings.TrimRight(objText, " \t."), target.Start, sc, nil)
		if st.Obj == nil {
			return nil
		}
		// An entity's field (combat.fin = …): the name cannot be rebound nor shadowed here,
		// so its record is always of the entity's kind.
		if e, isEntity := c.prog.Globals[shape.Root].(*runtime.Entity); isEntity && st.ObjKind != nil && st.Key == nil &&
			e.Kind == st.ObjKind && strings.TrimRight(objText, " \t.") == shape.Root {
			if _, local := sc.lookup(shape.Root); !local {
				st.ObjEntity = true
			}
		}
		c.checkPureWrite(st, target, sc, s.Pos)
	default:
		c.errorf(s.Pos, "cannot assign to this expression", "assign to a variable or to a field: x = … or unit.field = …")
		return nil
	}
	want := st.LocalType
	var at *place
	if st.FieldType != nil {
		want = st.FieldType
		if st.Field != "" && st.Key == nil {
			at = &place{field: st.Field}
		}
	}
	if st.Op != "=" {
		want = nil
	}
	st.Value = c.valueExpr(s.Value, sc, want, at)
	if st.Value == nil {
		return nil
	}
	if st.Local != "" {
		c.ownAssign(st.Local, st.Op, st.Value, sc, s.Pos)
	}
	return st
}

// relOffset finds where the object part of `obj.field` or `obj[key]` ends in the expression
// text: at the last top-level `[` when the text ends with its `]`, else at the last top-level
// dot. Brackets and dots inside strings (`m["a]"]`) do not count.
func relOffset(x *runtime.Expr) int {
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

func describe(g runtime.Global) string {
	switch g.(type) {
	case *runtime.Option:
		return "an option"
	case *runtime.Const:
		return "a const"
	case *runtime.Entity:
		return "an entity"
	case *runtime.Kind:
		return "a kind"
	case *runtime.Proc:
		return "a procedure"
	}
	return "a global"
}

// checkMapKey checks at load the key of an entry of a typed map being set, where it is
// known: a field name (m.Barre) or a string literal (m["Barre"]) must be a value of an enum
// key type, and a value of another enum is refused. Other keys are checked when set.
func (c *Compiler) checkMapKey(st *runtime.AssignStmt, mt *runtime.Type, target *runtime.Expr) bool {
	if mt.Key.Kind != runtime.TEnum {
		return true
	}
	e := mt.Key.Enum
	key, at, text := st.Field, target.Start, ""
	if st.Key != nil {
		if st.Key.Type.Kind == runtime.TEnum && st.Key.Type.Enum != e {
			c.exprErrorf(st.Key, fmt.Sprintf("key of %s: expected %s, got %s", mt, e.Name, st.Key.Type.Enum.Name), "")
			return false
		}
		s, isString := st.Key.Lit.(string)
		if !st.Key.IsLit || !isString {
			return true
		}
		key, at, text = s, st.Key.Start, st.Key.Text
	} else {
		off := relOffset(target)
		rest := strings.TrimLeft(target.Text[off:], " \t.?")
		at.Column += utf8.RuneCountInString(target.Text[:len(target.Text)-len(rest)])
		at.Offset += len(target.Text) - len(rest)
		text = strings.TrimRight(rest, " \t")
	}
	if e.Has(key) {
		return true
	}
	summary, detail := runtime.EnumProblem(e, key)
	c.errorfSpan(at, text, "key of "+mt.String()+": "+summary, detail)
	return false
}
