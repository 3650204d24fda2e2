package dsl

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The grammar is the AST: one struct per production. Statements end at a newline; the text of
// an expression is captured as balanced tokens and handed to expr-lang, so the grammar only
// needs to know where an expression stops (a newline, or a top-level `parser:"{"`, `parser:"}"`, `parser:","`, `parser:"="`, `parser:"else"`).

var fileParser = participle.MustBuild[fileAST](
	participle.Lexer(ruleLexer),
)

type fileAST struct {
	Decls []*declAST `parser:"( @@ | Newline )*"`
}

type declAST struct {
	Pos     lexer.Position
	Proc    *procAST    `parser:"  @@"`
	Ruleset *rulesetAST `parser:"| @@"`
	Include *includeAST `parser:"| @@"`
	Option  *optionAST  `parser:"| @@"`
	Const   *constAST   `parser:"| @@"`
	Kind    *kindAST    `parser:"| @@"`
	Entity  *entityAST  `parser:"| @@"`
	Dice    *diceAST    `parser:"| @@"`
	Table   *tableAST   `parser:"| @@"`
	Deck    *deckAST    `parser:"| @@"`
	Pile    *pileAST    `parser:"| @@"`
	Map     *mapAST     `parser:"| @@"`
}

type rulesetAST struct {
	Pos   lexer.Position
	Name  string     `parser:"\"ruleset\" @String"`
	Props []*propAST `parser:"@@*"`
}

type propAST struct {
	Key   string `parser:"@Ident"`
	Value string `parser:"@String"`
}

// diceAST declares a custom die: `dice combat = [sabre, fusil, fusil, boulet, drapeau, général]`.
type diceAST struct {
	Pos   lexer.Position
	Name  string     `parser:"\"dice\" @(Ident | Dice) \"=\" \"[\" Newline*"`
	Faces []*faceAST `parser:"@@ ( Comma Newline* @@ )* Newline* \"]\""`
}

type faceAST struct {
	Pos    lexer.Position
	Neg    bool   `parser:"@\"-\"?"`
	Number string `parser:"( @Number"`
	Name   string `parser:"| @(Ident | Dice | String) )"`
}

type includeAST struct {
	Pos  lexer.Position
	Path string `parser:"\"include\" @String"`
}

type optionAST struct {
	Pos   lexer.Position
	Name  string   `parser:"\"option\" @(Ident | Dice) \"=\""`
	Value *exprAST `parser:"@@"`
}

type constAST struct {
	Pos   lexer.Position
	Name  string   `parser:"\"const\" @(Ident | Dice) \"=\""`
	Value *exprAST `parser:"@@"`
}

type kindAST struct {
	Pos    lexer.Position
	Name   string      `parser:"\"kind\" @Ident \"{\""`
	Fields []*fieldAST `parser:"( @@ | Newline | Comma )* \"}\""`
}

type fieldAST struct {
	Pos     lexer.Position
	Name    string   `parser:"@(Ident | Dice) \":\""`
	Type    *typeAST `parser:"@@"`
	Default *exprAST `parser:"( \"=\" @@ )?"`
}

type typeAST struct {
	Pos  lexer.Position
	List bool   `parser:"@( \"[\" \"]\" )?"`
	Name string `parser:"@Ident"`
}

type entityAST struct {
	Pos    lexer.Position
	Name   string          `parser:"\"entity\" @(Ident | Dice) \":\""`
	Kind   string          `parser:"@Ident \"{\""`
	Fields []*fieldInitAST `parser:"( @@ | Newline | Comma )* \"}\""`
}

type fieldInitAST struct {
	Pos   lexer.Position
	Name  string   `parser:"@(Ident | Dice) \"=\""`
	Value *exprAST `parser:"@@"`
}

type procAST struct {
	Pos    lexer.Position
	Verb   string      `parser:"@( \"action\" | \"rule\" )"`
	Name   string      `parser:"@(Ident | Dice) \"(\""`
	Params []*paramAST `parser:"( Newline* @@ ( Comma Newline* @@ )* )? Newline* \")\""`
	Result *typeAST    `parser:"( \":\" @@ )?"`
	Body   *blockAST   `parser:"@@"`
}

type paramAST struct {
	Pos     lexer.Position
	Name    string   `parser:"@(Ident | Dice)"`
	Type    *typeAST `parser:"( \":\" @@ )?"`
	Default *exprAST `parser:"( \"=\" @@ )?"`
}

type blockAST struct {
	Pos    lexer.Position
	Stmts  []*stmtAST `parser:"\"{\" ( @@ | Newline )*"`
	EndPos lexer.Position
	Close  string `parser:"\"}\""`
}

type stmtAST struct {
	Pos     lexer.Position
	Simple  *simpleAST  `parser:"  @@"`
	Let     *letAST     `parser:"| @@"`
	If      *ifAST      `parser:"| @@"`
	For     *forAST     `parser:"| @@"`
	While   *whileAST   `parser:"| @@"`
	Return  *returnAST  `parser:"| @@"`
	Require *requireAST `parser:"| @@"`
	Emit    *emitAST    `parser:"| @@"`
}

type letAST struct {
	Pos   lexer.Position
	Name  string   `parser:"\"let\" @(Ident | Dice)"`
	Type  *typeAST `parser:"( \":\" @@ )?"`
	Value *exprAST `parser:"\"=\" @@"`
}

type ifAST struct {
	Pos    lexer.Position
	Cond   *headAST  `parser:"\"if\" @@"`
	Then   *blockAST `parser:"@@"`
	ElseIf *ifAST    `parser:"( \"else\" ( @@"`
	Else   *blockAST `parser:"| @@ ) )?"`
}

type forAST struct {
	Pos  lexer.Position
	Var  string    `parser:"\"for\" @(Ident | Dice)"`
	Var2 string    `parser:"( Comma @(Ident | Dice) )?"`
	Coll *headAST  `parser:"\"in\" @@"`
	Body *blockAST `parser:"@@"`
}

type whileAST struct {
	Pos  lexer.Position
	Cond *headAST  `parser:"\"while\" @@"`
	Body *blockAST `parser:"@@"`
}

type returnAST struct {
	Pos   lexer.Position
	Value *exprAST `parser:"\"return\" @@?"`
}

type requireAST struct {
	Pos     lexer.Position
	Cond    *exprAST `parser:"\"require\" @@"`
	Message *exprAST `parser:"\"else\" @@"`
}

type emitAST struct {
	Pos   lexer.Position
	Value *exprAST `parser:"\"emit\" @@"`
}

type simpleAST struct {
	Pos    lexer.Position
	Target *exprAST `parser:"@@"`
	Op     string   `parser:"( @( \"=\" | \"+=\" | \"-=\" | \"*=\" )"`
	Value  *exprAST `parser:"  @@ )?"`
}

// exprAST is the raw text of one expr-lang expression: its tokens, positions kept. It parses
// itself (participle.Parseable): a balanced run of tokens is cheaper to scan by hand than to
// match token by token through grammar nodes.
type exprAST struct {
	Pos    lexer.Position
	EndPos lexer.Position
	// Toks are the tokens at bracket depth 0 (a group counts as its opening token).
	Toks []lexer.Token
	// head: in an if/for/while header, where a top-level `parser:"{"` opens the block.
	head bool
}

// headAST is an expression in an if, for or while header: a top-level `parser:"{"` opens the block,
// so braces there must stand inside parentheses (as in Go).
type headAST struct{ exprAST }

func (h *headAST) expr() *exprAST { return &h.exprAST }

// Parse reads tokens up to the end of the expression: a newline, comma, `parser:"="` (or `parser:"+="`…),
// `parser:"else"` or closing bracket at depth 0, or a `parser:"{"` or `parser:"}"` in a header.
func (h *headAST) Parse(lex *lexer.PeekingLexer) error {
	h.head = true
	return h.exprAST.Parse(lex)
}

// statementWords start statements, never expressions: an expression statement (the first
// alternative tried, the commonest) gives way at once to the statement they begin.
var statementWords = map[string]bool{"let": true, "if": true, "for": true, "while": true, "return": true, "require": true, "emit": true}

// Parse implements participle.Parseable.
func (e *exprAST) Parse(lex *lexer.PeekingLexer) error {
	if t := lex.Peek(); t.Type == tokIdent && statementWords[t.Value] {
		return participle.NextMatch
	}
	depth, n := 0, 0
	for {
		t := lex.Peek()
		if t.EOF() {
			break
		}
		if n++; n > MaxExprTokens {
			// Bounded here, before the expression's text reaches expr-lang.
			return participle.Errorf(t.Pos, "expression longer than the limit of %d tokens", MaxExprTokens)
		}
		if depth == 0 && t.Type == tokNewline && e.continues() {
			// A line ending with an operator goes on: `a +` ⏎ `b`.
			lex.Next()
			continue
		}
		if depth == 0 && e.stops(t) {
			break
		}
		d := bracketDelta(*t)
		if depth == 0 && d >= 0 {
			e.Toks = append(e.Toks, *t)
		}
		depth += d
		if len(e.Toks) == 1 && e.Pos.Line == 0 {
			e.Pos = t.Pos
		}
		lex.Next()
		e.EndPos = t.Pos
		e.EndPos.Advance(t.Value)
	}
	if len(e.Toks) == 0 {
		return participle.NextMatch
	}
	return nil
}

// continues reports whether the expression so far ends with a binary operator.
func (e *exprAST) continues() bool {
	return len(e.Toks) > 0 && continuesLine(e.Toks[len(e.Toks)-1])
}

func (e *exprAST) stops(t *lexer.Token) bool {
	switch t.Type {
	case tokNewline, tokComma:
		return true
	case tokPunct:
		return t.Value == ")" || t.Value == "]" || t.Value == "}" || (e.head && t.Value == "{")
	case tokOp:
		return t.Value == "=" || t.Value == "+=" || t.Value == "-=" || t.Value == "*="
	case tokIdent:
		return t.Value == "else"
	}
	return false
}

// single returns the only token of an expression made of one token, or nil.
func (e *exprAST) single() *lexer.Token {
	if len(e.Toks) == 1 && e.Toks[0].Type != tokPunct {
		return &e.Toks[0]
	}
	return nil
}

// tableAST is a lookup table:
//
//	table blessure(marge) {
//	  .. 0      : "rien"
//	  (0 .. 3]  : "légère"
//	  else      : "grave"
//	}
type tableAST struct {
	Pos    lexer.Position
	Name   string      `parser:"\"table\" @(Ident | Dice)"`
	Params []*paramAST `parser:"( \"(\" ( @@ ( Comma @@ )* )? \")\" )?"`
	Roll   string      `parser:"( \"roll\" @Dice )?"`
	Rows   []*rowAST   `parser:"\"{\" ( @@ | Newline )* \"}\""`
}

type rowAST struct {
	Pos     lexer.Position
	Columns *columnsAST
	Key     *keyAST
	Value   *exprAST
}

// rowGrammar is a row's production, for the rows rowAST.Parse leaves to participle.
type rowGrammar struct {
	Pos     lexer.Position
	Columns *columnsAST `parser:"  @@"`
	Key     *keyAST     `parser:"| @@ \":\""`
	Value   *exprAST    `parser:"  @@?"`
}

var rowParser = participle.MustBuild[rowGrammar](participle.Lexer(ruleLexer))

// Parse implements participle.Parseable. A row `KEY : VALUE` is read by hand: a table of
// many rows spent most of its parse time in participle's reflection. A columns line, or a
// row that does not read, goes to the grammar, which words the error.
func (r *rowAST) Parse(lex *lexer.PeekingLexer) error {
	t := lex.Peek()
	if t.EOF() || t.Type == tokNewline || t.Type == tokPunct && t.Value == "}" {
		return participle.NextMatch
	}
	cp := lex.MakeCheckpoint()
	if t.Type != tokIdent || t.Value != "columns" {
		pos, k := t.Pos, &keyAST{}
		if k.Parse(lex) == nil {
			if colon := lex.Next(); colon.Type == tokOp && colon.Value == ":" {
				v := &exprAST{}
				switch err := v.Parse(lex); err {
				case nil:
					*r = rowAST{Pos: pos, Key: k, Value: v}
					return nil
				case participle.NextMatch:
					*r = rowAST{Pos: pos, Key: k}
					return nil
				}
			}
		}
		lex.LoadCheckpoint(cp)
	}
	g, err := rowParser.ParseFromLexer(lex, participle.AllowTrailing(true))
	if err != nil {
		return err
	}
	*r = rowAST{Pos: g.Pos, Columns: g.Columns, Key: g.Key, Value: g.Value}
	return nil
}

// columnsAST declares the columns of a two-dimensional table: values, or odds ratios
// rounded down (`columns ratio 1:3, 1:2, 1:1, 2:1`).
type columnsAST struct {
	Pos   lexer.Position
	Ratio bool       `parser:"\"columns\" @\"ratio\"?"`
	Items []*exprAST `parser:"@@ ( Comma @@ )*"`
}

// keyAST is the key of a table row: the tokens before the top-level `:`.
type keyAST struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Toks   []lexer.Token
}

// Parse implements participle.Parseable.
func (k *keyAST) Parse(lex *lexer.PeekingLexer) error {
	depth := 0
	for {
		t := lex.Peek()
		if t.EOF() || t.Type == tokNewline && depth == 0 {
			break
		}
		if depth == 0 && t.Type == tokOp && t.Value == ":" {
			break
		}
		if depth == 0 && t.Type == tokPunct && t.Value == "}" {
			break
		}
		depth += bracketDelta(*t)
		if len(k.Toks) == 0 {
			k.Pos = t.Pos
		}
		k.Toks = append(k.Toks, *t)
		lex.Next()
		k.EndPos = t.Pos
		k.EndPos.Advance(t.Value)
	}
	if len(k.Toks) == 0 {
		return participle.NextMatch
	}
	return nil
}

// deckAST declares a deck; its name is also its draw pile, shuffled at the start of a run.
//
//	deck jeu standard {
//	  suit "♣" "Souffle" black "vitesse"
//	  jokers 2
//	}
type deckAST struct {
	Pos      lexer.Position
	Name     string         `parser:"\"deck\" @(Ident | Dice)"`
	Standard bool           `parser:"@\"standard\"?"`
	Lines    []*deckLineAST `parser:"( \"{\" ( @@ | Newline )* \"}\" )?"`
}

type deckLineAST struct {
	Pos    lexer.Position
	Suit   *suitAST `parser:"  @@"`
	Jokers string   `parser:"| \"jokers\" @Number"`
	Rank   *rankAST `parser:"| @@"`
}

type suitAST struct {
	Symbol  string `parser:"\"suit\" @String"`
	Name    string `parser:"@String"`
	Colour  string `parser:"@Ident"`
	Meaning string `parser:"@String?"`
}

// rankAST changes a rank's value or figure status: `rank V 11 figure`.
type rankAST struct {
	Name   string `parser:"\"rank\" @(Ident | Number)"`
	Value  string `parser:"@Number"`
	Figure bool   `parser:"@\"figure\"?"`
}

// pileAST declares an empty pile (a hand, a discard): `pile défausse`.
type pileAST struct {
	Pos  lexer.Position
	Name string `parser:"\"pile\" @(Ident | Dice)"`
}

// mapAST declares a hex board:
//
//	map champ {
//	  rows {
//	    ". . f c"
//	    ". v . ."
//	  }
//	  legend "." plaine, "f" forêt, "c" colline, "v" village
//	  river (2,1)-(3,1), (2,2)-(3,2)
//	  bridge (2,2)-(3,2)
//	  road (1,2), (2,2), (3,2)
//	  height (4,1) 1
//	  point moulin (4,1) "le moulin"
//	}
type mapAST struct {
	Pos   lexer.Position
	Name  string        `parser:"\"map\" @(Ident | Dice) \"{\""`
	Lines []*mapLineAST `parser:"( @@ | Newline )* \"}\""`
}

type mapLineAST struct {
	Pos    lexer.Position
	Rows   []*rowLineAST `parser:"  \"rows\" \"{\" Newline* ( @@ Newline* )+ \"}\""`
	Legend []*legendAST  `parser:"| \"legend\" @@ ( Comma Newline* @@ )*"`
	Edge   *edgeLineAST  `parser:"| @@"`
	Road   []*hexAST     `parser:"| \"road\" @@ ( Comma @@ )*"`
	Height []*heightAST  `parser:"| \"height\" @@ ( Comma @@ )*"`
	Point  *pointAST     `parser:"| @@"`
}

type rowLineAST struct {
	Pos  lexer.Position
	Text string `parser:"@String"`
}

type legendAST struct {
	Pos     lexer.Position
	Char    string `parser:"@String"`
	Terrain string `parser:"@(Ident | Dice)"`
}

type edgeLineAST struct {
	Pos   lexer.Position
	Kind  string     `parser:"@( \"river\" | \"stream\" | \"bridge\" | \"ford\" )"`
	Edges []*edgeAST `parser:"@@ ( Comma @@ )*"`
}

type edgeAST struct {
	A *hexAST `parser:"@@ \"-\""`
	B *hexAST `parser:"@@"`
}

type hexAST struct {
	Pos lexer.Position
	Col string `parser:"\"(\" @Number Comma"`
	Row string `parser:"@Number \")\""`
}

type heightAST struct {
	H     *hexAST `parser:"@@"`
	Neg   bool    `parser:"@\"-\"?"`
	Value string  `parser:"@Number"`
}

type pointAST struct {
	Pos   lexer.Position
	Name  string  `parser:"\"point\" @(Ident | Dice)"`
	H     *hexAST `parser:"@@"`
	Label string  `parser:"@String?"`
}
