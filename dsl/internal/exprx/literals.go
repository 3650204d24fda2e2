package exprx

import (
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/expr-lang/expr/ast"

	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
	"rulesh/stdlib/cards"
	"rulesh/stdlib/dice"
)

// rewriteLiterals turns dice literals (`3d6`, `4D+2`, `6d10>=8`, `2d[combat]=fusil`) into
// calls carrying the parsed dice: the notation is parsed once, here, at load. A named
// argument (`f(a, nom = v)`) becomes `__named("nom", v)`, which the call patcher resolves
// against the procedure's parameters; `nom: v` in a call is reported. It returns
// the new text and the map from its rune offsets back to the original ones, or the
// diagnostics of bad literals.
func (c *Compiler) rewriteLiterals(x *runtime.Expr, sc Scope) (string, []int, map[string]*dice.Expr, map[string]*cards.Card, syntax.Diagnostics) {
	text := x.Text
	if !mayHoldLiterals(text) && !mayHoldNamed(text) {
		return text, nil, nil, nil, nil
	}
	lex, _ := syntax.Lexer.LexString("", text)
	// The tokens go to the compiler's buffer, taken while in use: growing a new slice for
	// each expression was 3.5% of the bytes a load of the largest ruleset allocates.
	toks := c.toks[:0]
	c.toks = nil
	defer func() { c.toks = toks[:0] }()
	for {
		t, err := lex.Next()
		if err != nil || t.EOF() {
			break
		}
		toks = append(toks, t)
	}
	changed := false
	// brackets holds the brackets open at a token: whether each is a call's, and whether a
	// named argument inside it waits for its closing `)` (at the next `,` or `)`).
	type bracket struct{ call, named bool }
	var brackets []bracket
	var b strings.Builder
	var origin []int
	var found map[string]*dice.Expr
	var cardLits map[string]*cards.Card
	var diags syntax.Diagnostics
	errorf := func(p lexer.Position, summary string, detail ...string) {
		diags = append(diags, &syntax.Diagnostic{Severity: syntax.Error, Pos: syntax.PosOf(p), Summary: summary, Detail: strings.Join(detail, "")})
	}
	last := 0 // byte offset copied so far
	copyTo := func(end int) {
		for last < end {
			// Sizes as decoded, never utf8.RuneLen: a stray byte counts one.
			_, size := utf8.DecodeRuneInString(text[last:end])
			origin = append(origin, utf8.RuneCountInString(text[:last]))
			b.WriteString(text[last : last+size])
			last += size
		}
	}
	// neighbour is the nearest token before (step -1) or after (step 1) toks[i], newlines
	// skipped, or nil.
	neighbour := func(i, step int) *lexer.Token {
		for j := i + step; j >= 0 && j < len(toks); j += step {
			if toks[j].Type != syntax.TokNewline {
				return &toks[j]
			}
		}
		return nil
	}
	skip := -1 // the last token a sum of record dice took
	for i, t := range toks {
		if i <= skip {
			continue
		}
		if t.Type == syntax.TokComma || t.Type == syntax.TokPunct && strings.Contains(")]}", t.Value) {
			if n := len(brackets); n > 0 && brackets[n-1].named {
				copyTo(t.Pos.Offset)
				origin = append(origin, utf8.RuneCountInString(text[:t.Pos.Offset]))
				b.WriteByte(')')
				brackets[n-1].named = false
			}
			if t.Type == syntax.TokPunct && len(brackets) > 0 {
				brackets = brackets[:len(brackets)-1]
			}
			continue
		}
		if t.Type == syntax.TokPunct {
			call := t.Value == "(" && i > 0 && (toks[i-1].Type == syntax.TokIdent || toks[i-1].Type == syntax.TokPunct && strings.Contains(")]", toks[i-1].Value))
			brackets = append(brackets, bracket{call: call})
			continue
		}
		if n := len(brackets); t.Type == syntax.TokIdent && n > 0 && brackets[n-1].call && argStart(toks, i) {
			switch toks[i+1].Value {
			case "=":
				if i+2 >= len(toks) || toks[i+2].Type == syntax.TokComma || toks[i+2].Type == syntax.TokPunct && toks[i+2].Value == ")" {
					diags = append(diags, &syntax.Diagnostic{Severity: syntax.Error, Pos: syntax.PosOf(x.PosAt(utf8.RuneCountInString(text[:t.Pos.Offset]))),
						Summary: "named argument " + t.Value + " has no value",
						Detail:  "write " + t.Value + " = value, or leave " + t.Value + " out to take its default"})
					continue
				}
				// name = value becomes __named("name", value): the call patcher matches it
				// with the procedure's parameter of that name.
				copyTo(t.Pos.Offset)
				repl := "__named(" + strconv.Quote(t.Value) + ", "
				at := utf8.RuneCountInString(text[:t.Pos.Offset])
				for range repl {
					origin = append(origin, at)
				}
				b.WriteString(repl)
				last = toks[i+1].Pos.Offset + 1
				brackets[n-1].named = true
				changed = true
			case ":":
				diags = append(diags, &syntax.Diagnostic{Severity: syntax.Error, Pos: syntax.PosOf(x.PosAt(utf8.RuneCountInString(text[:t.Pos.Offset]))),
					Summary: "a named argument is written " + t.Value + " = value",
					Detail:  "a call names an argument with =, as in f(x, " + t.Value + " = …); `:` gives the keys of a map ({" + t.Value + ": …})"})
			}
			continue
		}
		if t.Type == syntax.TokNumber && i+1 < len(toks) && toks[i+1].Type == syntax.TokOp && toks[i+1].Value == "%" {
			at := utf8.RuneCountInString(text[:t.Pos.Offset])
			switch percentUse(neighbour(i+1, 1)) {
			case percentAmbiguous:
				next := neighbour(i+1, 1)
				diags = append(diags, &syntax.Diagnostic{Severity: syntax.Error, Pos: syntax.PosOf(x.PosAt(at)),
					Summary: t.Value + "% " + next.Value + " is ambiguous",
					Detail:  "write (" + t.Value + "%) " + next.Value + " … for a percentage, or " + t.Value + " % (" + next.Value + "…) for a remainder"})
			case percentLiteral:
				// 40% is the number 0.40, written as a decimal so that it is exact as written.
				copyTo(t.Pos.Offset)
				repl := percentText(t.Value)
				for range repl {
					origin = append(origin, at)
				}
				b.WriteString(repl)
				last = toks[i+1].Pos.Offset + 1
				changed = true
			}
			continue
		}
		if t.Type == syntax.TokCard {
			card, err := c.cardLiteral(t.Value)
			if err != nil {
				errorf(x.PosAt(utf8.RuneCountInString(text[:t.Pos.Offset])), "card "+t.Value+": "+err.Error())
				continue
			}
			copyTo(t.Pos.Offset)
			if cardLits == nil {
				cardLits = map[string]*cards.Card{}
			}
			key := "__card" + strconv.Itoa(len(cardLits))
			cardLits[key] = card
			at := utf8.RuneCountInString(text[:t.Pos.Offset])
			for range key {
				origin = append(origin, at)
			}
			b.WriteString(key)
			last = t.Pos.Offset + len(t.Value)
			changed = true
			continue
		}
		if t.Type != syntax.TokDice {
			continue
		}
		// A name that is a variable or a global is not a die: d6 in `d6>=3` where d6 is a
		// parameter, d in `d[k]`. expr-lang then reads the text as written.
		if name := syntax.DieName(t.Value); name != "" {
			if _, local := sc.Local(name); local {
				continue
			}
			if _, global := c.prog.Globals[name]; global {
				continue
			}
		}
		de, perr := dice.Parse(t.Value, c.prog.Dice())
		if perr != nil {
			col := 1
			msg := perr.Error()
			if e, ok := perr.(*dice.Error); ok {
				col, msg = e.Col, e.Msg
			}
			at := x.PosAt(utf8.RuneCountInString(text[:t.Pos.Offset]) + col - 1)
			errorf(at, "dice "+t.Value+": "+msg, DieHint(msg, c.prog.Dice()))
			continue
		}
		if de.IsRecord() {
			// A sum of record dice written in a row is one literal: it rolls (and its exact
			// odds convolve) as one draw of its joint outcomes.
			end := i
			if !tightBefore(neighbour(i, -1)) {
				end, de = c.recordChain(toks, i, sc, de)
			}
			copyTo(t.Pos.Offset)
			key := "__lit" + strconv.Itoa(len(found))
			if found == nil {
				found = map[string]*dice.Expr{}
			}
			found[key] = de
			repl := "__recdice(__rt, " + key + ")"
			at := utf8.RuneCountInString(text[:t.Pos.Offset])
			for range repl {
				origin = append(origin, at)
			}
			b.WriteString(repl)
			last = toks[end].Pos.Offset + len(toks[end].Value)
			skip = end
			changed = true
			continue
		}
		if d := countDiag(x.PosAt(utf8.RuneCountInString(text[:t.Pos.Offset])), t.Value, de, countUse(neighbour(i, -1), neighbour(i, 1))); d != nil {
			diags = append(diags, d)
		}
		copyTo(t.Pos.Offset)
		key := "__lit" + strconv.Itoa(len(found))
		if found == nil {
			found = map[string]*dice.Expr{}
		}
		found[key] = de
		repl := "__dice(__rt, " + key + ")"
		at := utf8.RuneCountInString(text[:t.Pos.Offset])
		for range repl {
			origin = append(origin, at)
		}
		b.WriteString(repl)
		last = t.Pos.Offset + len(t.Value)
		changed = true
	}
	if !changed {
		return text, nil, nil, nil, diags
	}
	copyTo(len(text))
	origin = append(origin, utf8.RuneCountInString(text))
	return b.String(), origin, found, cardLits, diags
}

// How a `%` after a number reads, from the token after it.
const (
	percentRemainder = iota // an operand follows: 7 % 3
	percentLiteral          // nothing, or an operator that is not also a sign: 40% )
	percentAmbiguous        // + or -: (40%) - x or 40 % (-x)
)

// percentUse tells how `N %` reads when next follows the `%`.
func percentUse(next *lexer.Token) int {
	if next == nil {
		return percentLiteral
	}
	switch next.Type {
	case syntax.TokComma:
		return percentLiteral
	case syntax.TokPunct:
		if strings.Contains(")]}", next.Value) {
			return percentLiteral
		}
		return percentRemainder
	case syntax.TokOp:
		switch next.Value {
		case "-", "+":
			return percentAmbiguous
		case "!", "#", "$", "~":
			return percentRemainder
		}
		return percentLiteral
	case syntax.TokIdent:
		switch next.Value {
		case "and", "or", "in", "matches", "contains", "startsWith", "endsWith":
			return percentLiteral
		}
	}
	return percentRemainder
}

// percentText writes the number n percent as a decimal literal: the point moved two places
// left in the text, so 12.5 gives 0.125 with no rounding on the way.
func percentText(n string) string {
	whole, frac, _ := strings.Cut(n, ".")
	for len(whole) < 3 {
		whole = "0" + whole
	}
	return whole[:len(whole)-2] + "." + whole[len(whole)-2:] + frac
}

// argStart reports whether toks[i], a name, starts an argument (after `(` or `,`) and is
// followed by `=` or `:`: a named argument, or an attempt at one.
func argStart(toks []lexer.Token, i int) bool {
	if i == 0 || i+1 >= len(toks) {
		return false
	}
	prev, next := toks[i-1], toks[i+1]
	return (prev.Type == syntax.TokComma || prev.Type == syntax.TokPunct && prev.Value == "(") &&
		next.Type == syntax.TokOp && (next.Value == "=" || next.Value == ":")
}

// mayHoldNamed is a quick scan before lexing: a named argument needs a call's `(` and `=`
// (or `:`, an attempt to report).
func mayHoldNamed(text string) bool {
	return strings.IndexByte(text, '(') >= 0 && strings.ContainsAny(text, "=:")
}

// patchDiceLiteral replaces a placeholder `__litN` by the parsed dice as a constant.
func patchDiceLiteral(node *ast.Node, lits map[string]*dice.Expr) bool {
	id, ok := (*node).(*ast.IdentifierNode)
	if !ok || lits == nil {
		return false
	}
	de, ok := lits[id.Value]
	if !ok {
		return false
	}
	ast.Patch(node, &ast.ConstantNode{Value: de})
	return true
}

// mayHoldLiterals is a quick scan before lexing: a dice literal needs a d or D followed by a
// digit, %, F or [, or a count before it (4D, 2dcombat); a card literal needs a suit symbol.
func mayHoldLiterals(text string) bool {
	// The four suits share their first two bytes (U+2660..U+2666): ContainsAny with
	// characters past ASCII decodes every rune of the text, IndexByte does not.
	if strings.Contains(text, "\u2660"[:2]) && strings.ContainsAny(text, "♣♠♥♦") {
		return true
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != 'd' && c != 'D' {
			continue
		}
		if i+1 < len(text) && (syntax.IsDigit(text[i+1]) || strings.IndexByte("%F[", text[i+1]) >= 0) {
			return true
		}
		if i > 0 && syntax.IsDigit(text[i-1]) {
			return true // a bare D after a count (4D), or a die's name (2dcombat)
		}
	}
	// A percentage (40%): a % after a digit.
	for i := 1; i < len(text); i++ {
		if text[i] != '%' {
			continue
		}
		if j := strings.TrimRight(text[:i], " \t"); j != "" && syntax.IsDigit(j[len(j)-1]) {
			return true
		}
	}
	return false
}

// patchCardLiteral replaces a placeholder `__cardN` by the card as a constant.
func patchCardLiteral(node *ast.Node, lits map[string]*cards.Card) bool {
	id, ok := (*node).(*ast.IdentifierNode)
	if !ok || lits == nil {
		return false
	}
	c, ok := lits[id.Value]
	if !ok {
		return false
	}
	ast.Patch(node, &ast.ConstantNode{Value: c})
	return true
}

// cardLiteral returns the card a literal token names, for the rewrite of expressions.
func (c *Compiler) cardLiteral(tok string) (*cards.Card, error) {
	d, err := c.prog.DefaultDeck()
	if err != nil {
		return nil, err
	}
	return d.Parse(strings.TrimSpace(tok))
}

// DieHint is the "did you mean" of a dice error that names an unknown die (2d[abilty]),
// among the declared dice, or "".
func DieHint(msg string, named map[string]*dice.Die) string {
	const prefix = `unknown die "`
	rest, ok := strings.CutPrefix(msg, prefix)
	if !ok || !strings.HasSuffix(rest, `"`) || strings.Contains(rest[:len(rest)-1], `"`) {
		return ""
	}
	if s := syntax.DidYouMean(rest[:len(rest)-1], runtime.SortedKeys(named)); s != "" {
		return "did you mean " + s + "?"
	}
	return ""
}

// totalOnlyOps reports whether operator s reads a roll as its total alone, as a plain int: the
// roll overloads give the same value as expr's own int operators (runtime.RollArith).
func totalOnlyOps(s string) bool {
	switch s {
	case "+", "-", "*", "<", "<=", ">", ">=", "==", "!=":
		return true
	}
	return false
}

// totalOnly makes a dice literal that is an operand of arithmetic or a comparison with an
// int (`3d6 + 2 >= 12`, `2d6 - 1d4`) roll its total only (__dicetotal), without recording its
// faces: nothing can read them, as the roll does not outlive the operator. Only literals
// whose dice are plain numbers (dice.Expr.FixedDice) qualify; a symbolic die compared with a
// face's name, or any operand whose type is not int, keeps the roll.
func (pv *patcher) totalOnly(n *ast.BinaryNode) {
	if !totalOnlyOps(n.Operator) {
		return
	}
	l, lok := diceLiteralCall(n.Left)
	r, rok := diceLiteralCall(n.Right)
	isInt := func(x ast.Node) bool {
		t := x.Nature().Type
		return t != nil && t.Kind() == reflect.Int
	}
	if lok && (rok || isInt(n.Right)) {
		rollTotalOnly(l)
	}
	if rok && (lok || isInt(n.Left)) {
		rollTotalOnly(r)
	}
}

// rollTotalOnly makes a dice literal's call roll its total only. The call's type becomes int
// at once: expr keeps the type it found for a call, and the operator above must see an int
// (expr's own int operator, not the roll overload).
func rollTotalOnly(call *ast.CallNode) {
	call.Callee = &ast.IdentifierNode{Value: "__dicetotal"}
	call.SetType(reflect.TypeFor[int]())
}

// diceLiteralCall reads a rolled dice literal with a fixed number of plain dice,
// __dice(__rt, LIT).
func diceLiteralCall(x ast.Node) (*ast.CallNode, bool) {
	call, ok := x.(*ast.CallNode)
	if !ok || len(call.Arguments) != 2 {
		return nil, false
	}
	if id, ok := call.Callee.(*ast.IdentifierNode); !ok || id.Value != "__dice" {
		return nil, false
	}
	k, ok := call.Arguments[1].(*ast.ConstantNode)
	if !ok {
		return nil, false
	}
	de, ok := k.Value.(*dice.Expr)
	if !ok {
		return nil, false
	}
	_, fixed := de.FixedDice()
	return call, fixed
}
