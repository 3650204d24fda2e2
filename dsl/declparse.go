package dsl

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Parse reads one declaration, choosing its production by the first keyword. Letting
// participle try each alternative in turn cost a failed branch per alternative before the
// right one: half the parse time of a file of consts.
func (d *declAST) Parse(lex *lexer.PeekingLexer) error {
	t := lex.Peek()
	if t.Type != tokIdent {
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
var declParsers = map[string]func(*lexer.PeekingLexer, *declAST) error{
	"action":  procParser,
	"rule":    procParser,
	"ruleset": subParser(func(d *declAST, v *rulesetAST) { d.Ruleset = v }),
	"include": subParser(func(d *declAST, v *includeAST) { d.Include = v }),
	"option": nameValue(subParser(func(d *declAST, v *optionAST) { d.Option = v }),
		func(d *declAST, pos lexer.Position, name string, v *exprAST) {
			d.Option = &optionAST{Pos: pos, Name: name, Value: v}
		}),
	"const": nameValue(subParser(func(d *declAST, v *constAST) { d.Const = v }),
		func(d *declAST, pos lexer.Position, name string, v *exprAST) {
			d.Const = &constAST{Pos: pos, Name: name, Value: v}
		}),
	"kind":   subParser(func(d *declAST, v *kindAST) { d.Kind = v }),
	"entity": subParser(func(d *declAST, v *entityAST) { d.Entity = v }),
	"dice":   subParser(func(d *declAST, v *diceAST) { d.Dice = v }),
	"table":  subParser(func(d *declAST, v *tableAST) { d.Table = v }),
	"deck":   subParser(func(d *declAST, v *deckAST) { d.Deck = v }),
	"pile":   subParser(func(d *declAST, v *pileAST) { d.Pile = v }),
	"map":    subParser(func(d *declAST, v *mapAST) { d.Map = v }),
}

var procParser = subParser(func(d *declAST, v *procAST) { d.Proc = v })

// subParser builds a parser for one declaration's production, reading from the file's lexer
// and leaving the tokens after it.
func subParser[T any](set func(*declAST, *T)) func(*lexer.PeekingLexer, *declAST) error {
	p := participle.MustBuild[T](participle.Lexer(ruleLexer))
	return func(lex *lexer.PeekingLexer, d *declAST) error {
		v, err := p.ParseFromLexer(lex, participle.AllowTrailing(true))
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
func nameValue(grammar func(*lexer.PeekingLexer, *declAST) error, set func(*declAST, lexer.Position, string, *exprAST)) func(*lexer.PeekingLexer, *declAST) error {
	return func(lex *lexer.PeekingLexer, d *declAST) error {
		cp := lex.MakeCheckpoint()
		kw := *lex.Next()
		name := *lex.Next()
		eq := *lex.Next()
		if (name.Type == tokIdent || name.Type == tokDice) && eq.Type == tokOp && eq.Value == "=" {
			v := &exprAST{}
			if err := v.Parse(lex); err == nil {
				set(d, kw.Pos, name.Value, v)
				return nil
			}
		}
		lex.LoadCheckpoint(cp)
		return grammar(lex, d)
	}
}
