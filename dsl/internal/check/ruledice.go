package check

import (
	"fmt"

	"github.com/alecthomas/participle/v2/lexer"
	"slices"
	"strings"

	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
	"rulesh/stdlib/dice"
)

// A die made from a rule (`dice attaque = attack()`) has the rule's outcomes as faces, each
// weighted by its exact odds, which the odds engine computes once the rules are loaded (the
// checker cannot: the engine lives above the language). What the text alone tells is
// checked here, so that a rule that cannot be a die is refused with its reason at the
// declaration: it must be a rule (an action changes the state), called with constant
// arguments, returning whole numbers, and neither it nor a procedure it calls may emit
// lines (a die shows a face and says nothing) or ask a player to choose (a die has no one to
// ask). Its faces, its refusal at run time (a branch that fails, values that are not whole
// numbers, a tree over the budget) are the loader's.

// pendingDie is a die made from a rule, checked once the procedures are compiled.
type pendingDie struct {
	decl *runtime.DieDecl
	ast  *syntax.DiceDecl
}

// ruleDieDecl declares a die made from a rule. Its faces are the ones the loader computed
// when it gave them (runtime.Program.RuleFaces), else one face 0 standing for them while
// the rules are checked the first time.
func (c *Compiler) ruleDieDecl(decl *runtime.DieDecl, d *syntax.DiceDecl) {
	faces := slices.Clone(c.prog.RuleFaces[d.Name])
	if len(faces) == 0 {
		faces = []dice.Face{{Value: 0}}
	}
	die, err := dice.NewDie(d.Name, faces)
	if err != nil {
		c.errorf(d.Pos, err.Error(), "")
		return
	}
	decl.Die = die
	c.prog.DiceDecl = append(c.prog.DiceDecl, decl)
	c.dieCalls = append(c.dieCalls, pendingDie{decl, d})
}

// ruleDice checks the calls the dice made from rules are made from.
func (c *Compiler) ruleDice() {
	for i, pd := range c.dieCalls {
		// The dice are made in declaration order: this one's rule may roll those before.
		later := map[string]*runtime.DieDecl{}
		for _, q := range c.dieCalls[i:] {
			later[q.decl.Name] = q.decl
		}
		c.ruleDie(pd.decl, pd.ast.Rule, later)
	}
	c.dieCalls = nil
}

// dieFix is the detail of the refusals of a die made from a rule.
const dieFix = "a die made from a rule has as faces the whole numbers the rule returns, each with its exact odds, computed once: the rule must leave the state as it found it, say nothing and ask no one"

func (c *Compiler) ruleDie(decl *runtime.DieDecl, call *syntax.DieCall, later map[string]*runtime.DieDecl) {
	what := "dice " + decl.Name
	g, ok := c.prog.Globals[call.Name]
	if !ok && c.refusedNames[call.Name] {
		return // its declaration's error says why
	}
	if !ok {
		detail := c.suggest(call.Name, func() []string {
			var names []string
			for _, p := range c.prog.Procs {
				if p.Verb == "rule" {
					names = append(names, p.Name)
				}
			}
			return names
		})
		c.errorfSpan(call.Pos, call.Name, fmt.Sprintf("%s: unknown rule %s", what, call.Name), detail)
		return
	}
	p, ok := g.(*runtime.Proc)
	if !ok || p.Verb == "table" {
		c.errorfSpan(call.Pos, call.Name, fmt.Sprintf("%s: %s is not a rule (declared at %s)", what, call.Name, g.DeclPos()),
			"a die is made from a call of a rule: dice NAME = RULE(ARGS)")
		return
	}
	if p.Verb != "rule" {
		c.errorfSpan(call.Pos, call.Name, fmt.Sprintf("%s: %s is an action, which may change the run's state (declared at %s)", what, call.Name, p.Pos),
			dieFix+"; write `rule "+p.Name+"(…)` if it changes nothing")
		return
	}
	if len(call.Args) < p.MinArg || len(call.Args) > len(p.Params) {
		want := fmt.Sprint(len(p.Params))
		if p.MinArg < len(p.Params) {
			want = fmt.Sprintf("%d to %d", p.MinArg, len(p.Params))
		}
		c.errorfSpan(call.Pos, call.Name, fmt.Sprintf("%s: %s takes %s arguments, got %d", what, call.Name, want, len(call.Args)), "")
		return
	}
	texts := make([]string, len(call.Args))
	for i, a := range call.Args {
		x := c.compileExpr(a, globalScope, p.Params[i].Type)
		if x == nil {
			return
		}
		if _, err := c.consts().Eval(x); err != nil {
			msg := strings.TrimPrefix(err.Error(), syntax.PosOf(a.Pos).String()+": ")
			c.errorf(a.Pos, fmt.Sprintf("%s: argument %d of %s is not a constant: %s", what, i+1, call.Name, msg),
				"a die is made once, from arguments computed when the rules load: numbers, strings, consts, options")
			return
		}
		texts[i], _ = c.exprText(a)
	}
	if r := p.Result; r != nil && r.Kind != runtime.TInt && r.Kind != runtime.TRoll && r.Kind != runtime.TAny {
		c.errorfSpan(call.Pos, call.Name, fmt.Sprintf("%s: %s returns %s, and a die's faces are whole numbers", what, call.Name, r), dieFix)
		return
	}
	if why := c.dieHazard(p, later, map[*runtime.Proc]bool{}); why != "" {
		c.errorfSpan(call.Pos, call.Name, fmt.Sprintf("%s: %s cannot be a die: %s", what, call.Name, why), dieFix)
		return
	}
	decl.Rule = p
	decl.Call = call.Name + "(" + strings.Join(texts, ", ") + ")"
}

// dieHazard says what keeps p, or a procedure it calls, from being a die: an emit, a call
// of choose, or a die made from a rule not made yet (in later: this one or one declared
// after it); "" when nothing does.
func (c *Compiler) dieHazard(p *runtime.Proc, later map[string]*runtime.DieDecl, seen map[*runtime.Proc]bool) string {
	if seen[p] {
		return ""
	}
	seen[p] = true
	var why string
	var calls []*runtime.Proc
	note := func(x *runtime.Expr) {
		if x == nil || why != "" {
			return
		}
		if d := c.rollsDie(x, later); d != nil {
			why = fmt.Sprintf("%s rolls %s, a die made from a rule that is not made yet (declared at %s; a die's rule may roll only the dice made from rules declared before it)", p.Name, d.Name, d.Pos)
			return
		}
		for _, call := range c.exprs.Calls(x) {
			switch {
			case call.Proc != nil:
				calls = append(calls, call.Proc)
			case call.Name == "choose":
				why = fmt.Sprintf("%s asks a player to choose (at %s)", p.Name, x.PosAt(call.At))
				return
			}
		}
	}
	var walk func([]runtime.Stmt)
	walk = func(body []runtime.Stmt) {
		for _, s := range body {
			if why != "" {
				return
			}
			switch s := s.(type) {
			case *runtime.EmitStmt:
				why = fmt.Sprintf("%s emits a line (at %s)", p.Name, s.At)
				return
			case *runtime.LetStmt:
				note(s.Value)
			case *runtime.AssignStmt:
				note(s.Value)
				note(s.Obj)
				note(s.Key)
			case *runtime.IfStmt:
				for _, x := range s.Conds {
					note(x)
				}
				for _, b := range s.Blocks {
					walk(b)
				}
				walk(s.Else)
			case *runtime.ForStmt:
				note(s.Coll)
				walk(s.Body)
			case *runtime.WhileStmt:
				note(s.Cond)
				walk(s.Body)
			case *runtime.ReturnStmt:
				note(s.Value)
			case *runtime.RequireStmt:
				note(s.Cond)
				note(s.MsgExpr)
			case *runtime.ExprStmt:
				note(s.Value)
			}
		}
	}
	for _, prm := range p.Params {
		note(prm.Default)
	}
	walk(p.Body)
	for _, q := range calls {
		if why != "" {
			break
		}
		if w := c.dieHazard(q, later, seen); w != "" {
			why = w
		}
	}
	return why
}

// rollsDie returns the die of decls that x names, as a value (roll(a, n), a die argument) or
// in its dice literals (2da, 1d[a]kh1), or nil.
func (c *Compiler) rollsDie(x *runtime.Expr, decls map[string]*runtime.DieDecl) *runtime.DieDecl {
	for _, g := range x.Globals {
		if d, ok := decls[g]; ok {
			return d
		}
	}
	var found *runtime.DieDecl
	syntax.Scan(x.Text, func(t lexer.Token) bool {
		if t.Type != syntax.TokDice {
			return true
		}
		de, err := dice.Parse(t.Value, c.prog.Dice())
		if err != nil {
			return true
		}
		for _, d := range decls {
			// WithDice copies what rolls the die: a copy says the literal rolls it.
			if de.WithDice(map[*dice.Die]*dice.Die{d.Die: d.Die}) != de {
				found = d
				return false
			}
		}
		return true
	})
	return found
}
