package exprx

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
	"rulesh/stdlib/dice"
)

// A dice literal glued to a comparison counts successes (`6d10>=8`: how many dice show 8 or
// more); spaced, the comparison is expr's and compares the total (`6d10 >= 8`). Both are the
// notation users know from online rollers, but a count standing where a reader expects a
// comparison misleads: `if 3d6>=12` reads as "the total reaches 12". The checks here find
// those places from the tokens around the literal.

// countSpellings returns, for a literal that counts successes with a numeric condition, the
// spaced spelling that compares the total (`6d10 >= 8`) and the condition in words (`8 or
// more`); ok is false for any other literal.
func countSpellings(lit string, de *dice.Expr) (spaced, showing string, ok bool) {
	d, isDice := de.Root.(*dice.Dice)
	if !isDice || d.Mods.Success.Op == "" || d.Mods.Success.Sym != "" {
		return "", "", false
	}
	s := d.Mods.Success
	cond := s.String()
	op := s.Op
	if op == "=" {
		op = "=="
	}
	if strings.HasSuffix(lit, cond) {
		spaced = strings.TrimSuffix(lit, cond) + " " + op + " " + strconv.Itoa(s.N)
	} else {
		// Modifiers after the condition (`6d10>=8f1`): the spaced form keeps them on the dice.
		spaced = strings.Replace(lit, cond, "", 1) + " " + op + " " + strconv.Itoa(s.N)
	}
	n := strconv.Itoa(s.N)
	switch s.Op {
	case "=":
		showing = n
	case "<":
		showing = "less than " + n
	case "<=":
		showing = n + " or less"
	case ">":
		showing = "more than " + n
	case ">=":
		showing = n + " or more"
	}
	return spaced, showing, true
}

// countDetail is the Detail of a diagnostic about a count read as a comparison: both
// spellings, and how to keep each meaning plain.
func countDetail(lit, spaced, showing string) string {
	return fmt.Sprintf("glued, %s counts the dice showing %s; to compare the total write %s (spaced), to use the count write total(%s)", lit, showing, spaced, lit)
}

// boolOps reports whether the operands of operator s are true or false.
func boolOps(s string) bool { return s == "&&" || s == "||" || s == "and" || s == "or" }

// compareOps reports whether s is a comparison, where a roll takes part as its total.
func compareOps(s string) bool {
	switch s {
	case "==", "!=", "<", "<=", ">", ">=":
		return true
	}
	return false
}

// countUse says how the tokens next to a counting literal use it: "compared" when a
// comparison stands beside it, "bool" when a boolean operator, `!`, `not` or a `?` does,
// "" otherwise. prev and next are the nearest tokens (newlines skipped), or nil.
func countUse(prev, next *lexer.Token) string {
	is := func(t *lexer.Token, set func(string) bool) bool {
		return t != nil && (t.Type == syntax.TokOp || t.Type == syntax.TokIdent) && set(t.Value)
	}
	switch {
	case is(prev, compareOps) || is(next, compareOps):
		return "compared"
	case is(prev, boolOps) || is(next, boolOps),
		is(prev, func(s string) bool { return s == "!" || s == "not" }),
		is(next, func(s string) bool { return s == "?" }):
		return "bool"
	}
	return ""
}

// countDiag is the diagnostic about a counting literal used as use says, or nil: a warning
// when it is compared (the count is compared, which runs), an error when it is used as true
// or false (which expr refuses, less clearly).
func countDiag(at lexer.Position, lit string, de *dice.Expr, use string) *syntax.Diagnostic {
	spaced, showing, ok := countSpellings(lit, de)
	if !ok || use == "" {
		return nil
	}
	d := &syntax.Diagnostic{Pos: syntax.PosOf(at), Detail: countDetail(lit, spaced, showing)}
	d.End = syntax.After(d.Pos, lit)
	if use == "compared" {
		d.Severity, d.Summary = syntax.Warning, lit+" is a count of successes, compared here"
	} else {
		d.Severity, d.Summary = syntax.Error, lit+" is a count of successes, not true or false"
	}
	return d
}

// CountCondition returns the diagnostic for a condition (of if, while, require) that is
// a lone dice literal counting successes, or nil: `if 3d6>=12 { … }`.
func (c *Compiler) CountCondition(x *runtime.Expr) *syntax.Diagnostic {
	lit := strings.TrimSpace(x.Text)
	if !mayHoldLiterals(lit) {
		return nil
	}
	var toks []lexer.Token
	syntax.Scan(lit, func(t lexer.Token) bool { toks = append(toks, t); return len(toks) < 2 })
	if len(toks) != 1 || toks[0].Type != syntax.TokDice || toks[0].Value != lit {
		return nil
	}
	de, err := dice.Parse(lit, c.prog.Dice())
	if err != nil {
		return nil
	}
	at := x.Start
	at.Advance(x.Text[:strings.Index(x.Text, lit)])
	return countDiag(at, lit, de, "bool")
}
