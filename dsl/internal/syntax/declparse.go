package syntax

import (
	"sync"

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
	form, ok := declForms()[t.Value]
	if !ok {
		return participle.NextMatch
	}
	d.Pos = t.Pos
	return form.parse(lex, d)
}

// declForm is how one declaration is read: read by hand alone (readFile, on the file's
// tokens), parse by hand then by the grammar from the same token (Decl.Parse).
type declForm struct {
	read  func(*procReader, *Decl) bool
	parse func(*lexer.PeekingLexer, *Decl) error
}

// declForms maps a declaration's keyword to its form. The forms are closures, built on first
// use (by the first file read): built at package init they cost every command.
func declForms() map[string]declForm {
	formsOnce.Do(func() { forms = buildDeclForms() })
	return forms
}

var (
	formsOnce sync.Once
	forms     map[string]declForm
)

func buildDeclForms() map[string]declForm {
	procForm := handForm((*procReader).proc, func(d *Decl, v *ProcDecl) { d.Proc = v })
	return map[string]declForm{
		"action":  procForm,
		"rule":    procForm,
		"ruleset": handForm((*procReader).ruleset, func(d *Decl, v *RulesetDecl) { d.Ruleset = v }),
		"include": handForm((*procReader).include, func(d *Decl, v *IncludeDecl) { d.Include = v }),
		"option": nameValue(subParser(func(d *Decl, v *OptionDecl) { d.Option = v }),
			func(d *Decl, pos lexer.Position, name string, v *Expr) {
				d.Option = &OptionDecl{Pos: pos, Name: name, Value: v}
			}),
		"const": nameValue(subParser(func(d *Decl, v *ConstDecl) { d.Const = v }),
			func(d *Decl, pos lexer.Position, name string, v *Expr) {
				d.Const = &ConstDecl{Pos: pos, Name: name, Value: v}
			}),
		"kind":   handForm((*procReader).kind, func(d *Decl, v *KindDecl) { d.Kind = v }),
		"enum":   handForm((*procReader).enum, func(d *Decl, v *EnumDecl) { d.Enum = v }),
		"entity": handForm((*procReader).entity, func(d *Decl, v *EntityDecl) { d.Entity = v }),
		"dice":   handForm((*procReader).dice, func(d *Decl, v *DiceDecl) { d.Dice = v }),
		"table":  handForm((*procReader).table, func(d *Decl, v *TableDecl) { d.Table = v }),
		"deck":   handForm((*procReader).deck, func(d *Decl, v *DeckDecl) { d.Deck = v }),
		"pile":   handForm((*procReader).pile, func(d *Decl, v *PileDecl) { d.Pile = v }),
		"map":    handForm((*procReader).mapDecl, func(d *Decl, v *MapDecl) { d.Map = v }),
	}
}

// handForm is the form of a declaration that read reads by hand.
func handForm[T any](read func(*procReader) *T, set func(*Decl, *T)) declForm {
	return declForm{
		read: func(r *procReader, d *Decl) bool {
			v := read(r)
			if v == nil {
				return false
			}
			set(d, v)
			return true
		},
		parse: hand(read, set),
	}
}

// subParser returns a parser for one declaration's production, reading from the file's
// lexer and leaving the tokens after it; participle's parser is built on first use.
func subParser[T any](set func(*Decl, *T)) func(*lexer.PeekingLexer, *Decl) error {
	p := new(lazyParser[T])
	return func(lex *lexer.PeekingLexer, d *Decl) error {
		v, err := p.get().ParseFromLexer(lex, participle.AllowTrailing(true))
		if err != nil {
			return err
		}
		set(d, v)
		return nil
	}
}

// nameValue is the form of `option NAME = EXPR` and `const NAME = EXPR`, the commonest
// declarations of a long file, read without participle's reflection, which was most of
// their parse time. Any other shape goes to the grammar, which words the error.
func nameValue(grammar func(*lexer.PeekingLexer, *Decl) error, set func(*Decl, lexer.Position, string, *Expr)) declForm {
	read := func(r *procReader, d *Decl) bool {
		kw := *r.lex.Next()
		name := *r.lex.Next()
		eq := *r.lex.Next()
		if (name.Type == TokIdent || name.Type == TokDice) && eq.Type == TokOp && eq.Value == "=" {
			v := &Expr{}
			if err := v.read(r.lex); err == nil {
				set(d, kw.Pos, name.Value, v)
				return true
			}
		}
		return false
	}
	return declForm{
		read: read,
		parse: func(lex *lexer.PeekingLexer, d *Decl) error {
			cp := lex.MakeCheckpoint()
			if read(&procReader{lex: lex}, d) {
				return nil
			}
			lex.LoadCheckpoint(cp)
			if handDecls {
				handFallbacks.Add(1)
			}
			return grammar(lex, d)
		},
	}
}
