package check

import (
	"fmt"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
)

// A rule (and a table) is pure: it reads anything, rolls dice, emits lines and calls other
// rules, but it leaves the run's state as it found it, so that exact odds can enumerate and
// cache it. The checker enforces this at load, statement by statement: a rule may not call an
// action or a builtin marked runtime.Builtin.ChangesState, and may assign a field only of a
// record it built itself in this call and kept in a local (`let r = Kind({…})` or a map
// literal). Everything is decided on the text: no flow of values is followed, so a record
// reached any other way (a parameter, an entity, a field of a record, another local holding
// the same record) counts as not its own. Actions and REPL inputs may change anything.

// pureProc returns the procedure whose code stands in sc when it must not change the
// state (a rule or a table), or nil.
func pureProc(sc *Scope) *runtime.Proc {
	if sc.proc != nil && (sc.proc.Verb == "rule" || sc.proc.Verb == "table") {
		return sc.proc
	}
	return nil
}

// ownLocal is a local of a rule that holds a record the rule built itself: the rule may
// assign its fields, unless the local is also given a value built elsewhere.
type ownLocal struct {
	name string
	// lost is where the local is given a value the rule did not build (nil: never).
	lost *lexer.Position
	// writes are the field assignments through the local, reported if lost is set.
	writes []ownWrite
}

type ownWrite struct {
	pos  lexer.Position
	text string
}

// pureName says what p is, for a diagnostic: "rule état", "table blessures".
func pureName(p *runtime.Proc) string { return p.Verb + " " + p.Name }

// pureFix is the detail of every purity diagnostic: why (by default, that p cannot change
// the state) and how to let it.
func pureFix(p *runtime.Proc, why string) string {
	if p.Verb == "table" {
		if why == "" {
			why = "a table gives a value and cannot change the run's state"
		}
		return why + "; do this in an action"
	}
	if why == "" {
		why = "a rule cannot change the run's state"
	}
	return why + "; write `action " + p.Name + "(…)` if " + p.Name + " should change the state"
}

// checkPureCalls reports the calls of actions and of builtins that change the state made by
// an expression of a rule or a table.
func (c *Compiler) checkPureCalls(p *runtime.Proc, x *runtime.Expr) {
	for _, call := range c.exprs.Calls(x) {
		pos := x.PosAt(call.At)
		switch {
		case call.Proc != nil && call.Proc.Verb == "action":
			c.errorfSpan(pos, call.Name, fmt.Sprintf("%s cannot call action %s", pureName(p), call.Name),
				pureFix(p, fmt.Sprintf("%s is an action (declared at %s), and a %s cannot change the run's state", call.Name, call.Proc.Pos, p.Verb)))
		case call.Proc == nil && call.Builtin.ChangesState:
			c.errorfSpan(pos, call.Name, fmt.Sprintf("%s cannot call %s: it changes the run's state", pureName(p), call.Name), pureFix(p, ""))
		}
	}
}

// builtHere reports whether an expression builds a new record or map: `Kind({…})` or a map
// literal, as written at its top.
func (c *Compiler) builtHere(x *runtime.Expr) bool {
	return x != nil && c.exprs.Builds(x)
}

// ownLet notes a local a rule declares: its own when its value is built here.
func (c *Compiler) ownLet(name string, v *runtime.Expr, sc *Scope) {
	if pureProc(sc) == nil || !c.builtHere(v) {
		return
	}
	o := &ownLocal{name: name}
	if sc.own == nil {
		sc.own = map[string]*ownLocal{}
	}
	sc.own[name] = o
	c.owned = append(c.owned, o)
}

// ownAssign notes `name = v` in a rule: a local given a value not built here is no longer
// the rule's own (its field assignments anywhere in the rule are then refused).
func (c *Compiler) ownAssign(name, op string, v *runtime.Expr, sc *Scope, pos lexer.Position) {
	if pureProc(sc) == nil || op != "=" || c.builtHere(v) {
		return
	}
	if o := sc.ownOf(name); o != nil && o.lost == nil {
		o.lost = &pos
	}
}

// checkPureWrite reports a field or entry assignment of a rule or table, unless it goes
// through a local holding a record the rule built itself.
func (c *Compiler) checkPureWrite(st *runtime.AssignStmt, target *runtime.Expr, sc *Scope, pos lexer.Position) {
	p := pureProc(sc)
	if p == nil {
		return
	}
	text := strings.TrimSpace(target.Text)
	if st.Obj != nil && st.Obj.Ident != "" {
		if o := sc.ownOf(st.Obj.Ident); o != nil {
			o.writes = append(o.writes, ownWrite{pos: pos, text: text})
			return
		}
	}
	c.errorfSpan(pos, text, fmt.Sprintf("%s cannot assign %s: it did not build that record", pureName(p), text),
		pureFix(p, "a "+p.Verb+" may assign only the fields of a local holding a record it built (let r = Kind({…}) or a map literal)"))
}

// checkOwned reports, once a rule is compiled, the field assignments through its own locals
// that are also given a record built elsewhere.
func (c *Compiler) checkOwned(p *runtime.Proc) {
	for _, o := range c.owned {
		if o.lost == nil {
			continue
		}
		for _, w := range o.writes {
			c.errorfSpan(w.pos, w.text, fmt.Sprintf("%s cannot assign %s: %s may hold a record it did not build", pureName(p), w.text, o.name),
				pureFix(p, fmt.Sprintf("%s is given another value at %s", o.name, syntax.PosOf(*o.lost))))
		}
	}
	c.owned = nil
}

// ownOf finds the record a local names when the rule built it, looking in the block that
// declares the local.
func (s *Scope) ownOf(name string) *ownLocal {
	for ; s != nil; s = s.parent {
		if _, ok := s.Vars[name]; ok {
			return s.own[name]
		}
	}
	return nil
}
