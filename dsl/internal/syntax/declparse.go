package syntax

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Parse reads one declaration, choosing its production by the first keyword. Letting
// participle try each alternative in turn cost a failed branch per alternative before the
// right one: half the parse time of a file of consts.
func (d *Decl) Parse(lex *lexer.PeekingLexer) error {
	t := lex.Peek()
	if t.Type != TokIdent {
		return participle.NextMatch
	}
	parse, ok := declParsers[t.Value]
	if !ok {
		return participle.NextMatch
	}
	d.Pos = t.Pos
	return parse(lex, d)
}

// declParsers maps a declaration's keyword to the parser of its production.
var declParsers = map[string]func(*lexer.PeekingLexer, *Decl) error{
	"action":  procParser,
	"rule":    procParser,
	"ruleset": hand((*procReader).ruleset, func(d *Decl, v *RulesetDecl) { d.Ruleset = v }),
	"include": hand((*procReader).include, func(d *Decl, v *IncludeDecl) { d.Include = v }),
	"option": nameValue(subParser(func(d *Decl, v *OptionDecl) { d.Option = v }),
		func(d *Decl, pos lexer.Position, name string, v *Expr) {
			d.Option = &OptionDecl{Pos: pos, Name: name, Value: v}
		}),
	"const": nameValue(subParser(func(d *Decl, v *ConstDecl) { d.Const = v }),
		func(d *Decl, pos lexer.Position, name string, v *Expr) {
			d.Const = &ConstDecl{Pos: pos, Name: name, Value: v}
		}),
	"kind":   hand((*procReader).kind, func(d *Decl, v *KindDecl) { d.Kind = v }),
	"enum":   hand((*procReader).enum, func(d *Decl, v *EnumDecl) { d.Enum = v }),
	"entity": hand((*procReader).entity, func(d *Decl, v *EntityDecl) { d.Entity = v }),
	"dice":   hand((*procReader).dice, func(d *Decl, v *DiceDecl) { d.Dice = v }),
	"table":  hand((*procReader).table, func(d *Decl, v *TableDecl) { d.Table = v }),
	"deck":   hand((*procReader).deck, func(d *Decl, v *DeckDecl) { d.Deck = v }),
	"pile":   hand((*procReader).pile, func(d *Decl, v *PileDecl) { d.Pile = v }),
	"map":    hand((*procReader).mapDecl, func(d *Decl, v *MapDecl) { d.Map = v }),
}

var procParser = hand((*procReader).proc, func(d *Decl, v *ProcDecl) { d.Proc = v })

// subParser returns a parser for one declaration's production, reading from the file's
// lexer and leaving the tokens after it; participle's parser is built on first use.
func subParser[T any](set func(*Decl, *T)) func(*lexer.PeekingLexer, *Decl) error {
	p := newLazyParser[T]()
	return func(lex *lexer.PeekingLexer, d *Decl) error {
		v, err := p().ParseFromLexer(lex, participle.AllowTrailing(true))
		if err != nil {
			return err
		}
		set(d, v)
		return nil
	}
}

// nameValue reads `option NAME = EXPR` and `const NAME = EXPR`, the commonest declarations
// of a long file, without participle's reflection, which was most of their parse time. Any
// other shape goes to the grammar, which words the error.
func nameValue(grammar func(*lexer.PeekingLexer, *Decl) error, set func(*Decl, lexer.Position, string, *Expr)) func(*lexer.PeekingLexer, *Decl) error {
	return func(lex *lexer.PeekingLexer, d *Decl) error {
		cp := lex.MakeCheckpoint()
		kw := *lex.Next()
		name := *lex.Next()
		eq := *lex.Next()
		if (name.Type == TokIdent || name.Type == TokDice) && eq.Type == TokOp && eq.Value == "=" {
			v := &Expr{}
			if err := v.Parse(lex); err == nil {
				set(d, kw.Pos, name.Value, v)
				return nil
			}
		}
		lex.LoadCheckpoint(cp)
		if handDecls {
			handFallbacks.Add(1)
		}
		return grammar(lex, d)
	}
}
