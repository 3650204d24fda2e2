package dsl

import (
	"github.com/alecthomas/participle/v2/lexer"

	"rulesh/dsl/internal/exprx"
	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
)

// Names lists the names the expression reads, as the compiler resolved them: the rules'
// globals (options, consts, entities…) and the session's variables, in the order first
// read. A word inside a string, a name the expression declares itself and what it calls
// are not among them.
func (c *Compiled) Names() []string { return exprx.Reads(c.x) }

// EnumRanks gives, when the expression's static type is an enum, each of its values as Repr
// prints it with its place in the declaration (from 1): how prob and sim list such outcomes
// (miss, weak hit, strong hit as declared, not alphabetically). Nil for another type.
func (c *Compiled) EnumRanks() map[string]int {
	t := c.x.Type
	if t == nil || t.Kind != runtime.TEnum || t.Enum == nil {
		return nil
	}
	out := make(map[string]int, len(t.Enum.Values))
	for i, v := range t.Enum.Values {
		out[runtime.Repr(v)] = i + 1
	}
	return out
}

// WrittenNames lists the names an expression's text writes, in order, as the language's
// scanner reads it (a string, dice notation and the d of 3d(2*6) are no names), and whether
// one of them is called, NAME(…). It is for text that does not compile, which has no
// Compiled.Names: what the text says, not what it reads.
func WrittenNames(src string) (names []string, call bool) {
	var prev lexer.Token
	ident := false // prev is a name
	syntax.Scan(src, func(t lexer.Token) bool {
		if ident && t.Value == "(" && t.Type == syntax.TokPunct {
			call = true
		}
		// A word glued to a number (3d(2*6)) is dice notation, not a name.
		glued := prev.Type == syntax.TokNumber && prev.Pos.Offset+len(prev.Value) == t.Pos.Offset
		ident = t.Type == syntax.TokIdent && !glued
		if ident {
			names = append(names, t.Value)
		}
		prev = t
		return true
	})
	return names, call
}

// constArgs reports whether the arguments of a table call, as written, are constants the
// odds of the table take (numbers, strings, true and false, odds 1:1 or 5/3): a name, a dice
// roll or a card makes the call an expression to evaluate.
func constArgs(args string) bool {
	consts := true
	syntax.Scan(args, func(t lexer.Token) bool {
		switch t.Type {
		case syntax.TokIdent:
			consts = t.Value == "true" || t.Value == "false"
		case syntax.TokDice, syntax.TokCard, syntax.TokBad:
			consts = false
		}
		return consts
	})
	return consts
}
