package syntax

import (
	"sync"
	"sync/atomic"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The grammar is the AST: one struct per production. Statements end at a newline; the text of
// an expression is captured as balanced tokens and handed to expr-lang, so the grammar only
// needs to know where an expression stops (a newline, or a top-level `{`, `}`, `,`, `=` or `else`).

var fileParser lazyParser[File]

// parsersBuilt counts the participle parsers this process has built.
var parsersBuilt atomic.Int32

// ParsersBuilt reports how many participle parsers this process has built so far. Building
// one takes about a millisecond and thousands of allocations, so none is built at package
// init: each is built on its first use, and a command that reads no rule file (`rulesh roll
// 1d6`) builds none. Tests use it to check that nothing parses at init.
func ParsersBuilt() int { return int(parsersBuilt.Load()) }

// lazyParser is the parser of production T, reading the rule lexer's tokens: built on the
// first call of get, the same parser on every call after. Its zero value is ready, so that a
// package variable of it costs nothing at init.
type lazyParser[T any] struct {
	once sync.Once
	p    *participle.Parser[T]
}

// get returns the parser, built if it was not.
func (l *lazyParser[T]) get() *participle.Parser[T] {
	l.once.Do(func() { l.p = buildParser[T]() })
	return l.p
}

// buildParser builds the parser of production T; every parser of the module is built here.
func buildParser[T any]() *participle.Parser[T] {
	parsersBuilt.Add(1)
	return participle.MustBuild[T](participle.Lexer(Lexer))
}

// String is the grammar in participle's EBNF (the parser is built if it was not).
func (l *lazyParser[T]) String() string { return l.get().String() }

// File is one parsed rule file: its declarations in order.
type File struct {
	Decls []*Decl `parser:"( @@ | Newline )*"`
}

// Decl is one top-level declaration; exactly one field is set.
type Decl struct {
	Pos     lexer.Position
	Proc    *ProcDecl    `parser:"  @@"`
	Ruleset *RulesetDecl `parser:"| @@"`
	Include *IncludeDecl `parser:"| @@"`
	Option  *OptionDecl  `parser:"| @@"`
	Const   *ConstDecl   `parser:"| @@"`
	Kind    *KindDecl    `parser:"| @@"`
	Enum    *EnumDecl    `parser:"| @@"`
	Entity  *EntityDecl  `parser:"| @@"`
	Dice    *DiceDecl    `parser:"| @@"`
	Table   *TableDecl   `parser:"| @@"`
	Deck    *DeckDecl    `parser:"| @@"`
	Pile    *PileDecl    `parser:"| @@"`
	Map     *MapDecl     `parser:"| @@"`
}

// RulesetDecl is the header: `ruleset "Name" version "1" source "…"`.
type RulesetDecl struct {
	Pos   lexer.Position
	Name  string  `parser:"\"ruleset\" @String"`
	Props []*Prop `parser:"@@*"`
}

// Prop is one `key "value"` pair of the ruleset header.
type Prop struct {
	Key   string `parser:"@Ident"`
	Value string `parser:"@String"`
}

// DiceDecl declares a custom die: `dice combat = [sabre, fusil, fusil, boulet, drapeau, général]`,
// or a die made from a rule, `dice attaque = attack()` (Rule set, Faces empty): its faces are
// the rule's outcomes weighted by their exact odds.
type DiceDecl struct {
	Pos   lexer.Position
	Name  string   `parser:"\"dice\" @(Ident | Dice) \"=\""`
	Faces []*Face  `parser:"( \"[\" Newline* @@ ( Comma Newline* @@ )* Newline* \"]\""`
	Rule  *DieCall `parser:"| @@ )"`
}

// DieCall is the call a die is made from: a rule's name and constant arguments, in order
// (`attack()`, `volley(3, bonus)`).
type DieCall struct {
	Pos  lexer.Position
	Name string  `parser:"@(Ident | Dice) \"(\""`
	Args []*Expr `parser:"( @@ ( Comma @@ )* )? \")\""`
}

// Face is one face of a custom die: a number, a symbol, or a record of counts
// (`{s: 1, a: 1}`, a narrative die's face).
type Face struct {
	Pos    lexer.Position
	Counts *Counts `parser:"( @@"`
	Neg    bool    `parser:"| @\"-\"?"`
	Number string  `parser:"  ( @Number"`
	Name   string  `parser:"  | @(Ident | Dice | String) ) )"`
}

// Counts is a face that is a record of counts: `{s: 1, a: 1}`, `{}` for a blank face.
type Counts struct {
	Pos    lexer.Position
	Fields []*Count `parser:"\"{\" Newline* ( @@ ( Comma Newline* @@ )* )? Newline* \"}\""`
}

// Count is one field of a record face: a name and its count, a whole number (the checker
// says so of any other value).
type Count struct {
	Pos   lexer.Position
	Name  string      `parser:"@(Ident | Dice) \":\""`
	Value *CountValue `parser:"@@"`
}

// CountValue is the value of a Count, placed for the checker's message.
type CountValue struct {
	Pos  lexer.Position
	Neg  bool   `parser:"@\"-\"?"`
	Text string `parser:"@(Number | Ident | Dice | String)"`
}

// IncludeDecl reads another rule file of the same folder: `include "armes.rules"`.
type IncludeDecl struct {
	Pos  lexer.Position
	Path string `parser:"\"include\" @String"`
}

// OptionDecl declares a tunable: `option malus = 3 "doc"` (the doc string ends Value).
type OptionDecl struct {
	Pos   lexer.Position
	Name  string `parser:"\"option\" @(Ident | Dice) \"=\""`
	Value *Expr  `parser:"@@"`
}

// ConstDecl declares a value fixed at load: `const portée = 12`.
type ConstDecl struct {
	Pos   lexer.Position
	Name  string `parser:"\"const\" @(Ident | Dice) \"=\""`
	Value *Expr  `parser:"@@"`
}

// KindDecl declares a record type with typed fields and defaults.
type KindDecl struct {
	Pos    lexer.Position
	Name   string       `parser:"\"kind\" @Ident \"{\""`
	Fields []*FieldDecl `parser:"( @@ | Newline | Comma )* \"}\""`
}

// EnumDecl declares a closed set of names, in order: `enum Objectif { réduire, maintenir }`.
type EnumDecl struct {
	Pos    lexer.Position
	Name   string       `parser:"\"enum\" @Ident \"{\""`
	Values []*EnumValue `parser:"( @@ | Newline | Comma )* \"}\""`
}

// EnumValue is one name of an enum.
type EnumValue struct {
	Pos  lexer.Position
	Name string `parser:"@(Ident | Dice)"`
}

// FieldDecl is one field of a kind: `pv: int = 10`.
type FieldDecl struct {
	Pos     lexer.Position
	Name    string   `parser:"@(Ident | Dice) \":\""`
	Type    *TypeRef `parser:"@@"`
	Default *Expr    `parser:"( \"=\" @@ )?"`
}

// TypeRef names a type: `int`, `[]figure`, `map[Poste]int` (Key and Value set only after a
// name, which the checker requires to be map).
type TypeRef struct {
	Pos   lexer.Position
	List  bool     `parser:"@( \"[\" \"]\" )?"`
	Name  string   `parser:"@Ident"`
	Key   *TypeRef `parser:"( \"[\" @@ \"]\""`
	Value *TypeRef `parser:"  @@ )?"`
}

// EntityDecl declares a named record: `entity will: figure { pv: 12 }`.
type EntityDecl struct {
	Pos    lexer.Position
	Name   string       `parser:"\"entity\" @(Ident | Dice) \":\""`
	Kind   string       `parser:"@Ident \"{\""`
	Fields []*FieldInit `parser:"( @@ | Newline | Comma )* \"}\""`
}

// FieldInit sets one field of an entity: `pv: 12`, as in a constructor's map literal
// (`figure({pv: 12})`). Sep is ":" or, in the older form the checker warns about and
// Format rewrites, "=".
type FieldInit struct {
	Pos   lexer.Position
	Name  string      `parser:"@(Ident | Dice)"`
	Sep   lexer.Token `parser:"@( \":\" | \"=\" )"`
	Value *Expr       `parser:"@@"`
}

// OldSep reports whether the field is written in the older form, `pv = 12`.
func (f *FieldInit) OldSep() bool { return f.Sep.Value == "=" }

// ProcDecl is an `action` or a `rule`: parameters, an optional result type, a body.
type ProcDecl struct {
	Pos    lexer.Position
	Verb   string   `parser:"@( \"action\" | \"rule\" )"`
	Name   string   `parser:"@(Ident | Dice) \"(\""`
	Params []*Param `parser:"( Newline* @@ ( Comma Newline* @@ )* )? Newline* \")\""`
	Result *TypeRef `parser:"( \":\" @@ )?"`
	Body   *Block   `parser:"@@"`
}

// Param is one parameter, with an optional type and default.
type Param struct {
	Pos     lexer.Position
	Name    string   `parser:"@(Ident | Dice)"`
	Type    *TypeRef `parser:"( \":\" @@ )?"`
	Default *Expr    `parser:"( \"=\" @@ )?"`
}

// Block is a braced list of statements; EndPos is where its closing brace stands.
type Block struct {
	Pos    lexer.Position
	Stmts  []*Stmt `parser:"\"{\" ( @@ | Newline )*"`
	EndPos lexer.Position
	Close  string `parser:"\"}\""`
}

// Stmt is one statement; exactly one field is set.
type Stmt struct {
	Pos      lexer.Position
	Simple   *SimpleStmt   `parser:"  @@"`
	Let      *LetStmt      `parser:"| @@"`
	If       *IfStmt       `parser:"| @@"`
	For      *ForStmt      `parser:"| @@"`
	While    *WhileStmt    `parser:"| @@"`
	Return   *ReturnStmt   `parser:"| @@"`
	Break    *BreakStmt    `parser:"| @@"`
	Continue *ContinueStmt `parser:"| @@"`
	Require  *RequireStmt  `parser:"| @@"`
	Emit     *EmitStmt     `parser:"| @@"`
}

// LetStmt declares a local: `let x = 3`.
type LetStmt struct {
	Pos   lexer.Position
	Name  string   `parser:"\"let\" @(Ident | Dice)"`
	Type  *TypeRef `parser:"( \":\" @@ )?"`
	Value *Expr    `parser:"\"=\" @@"`
}

// IfStmt is `if cond { … } else if … else { … }`.
type IfStmt struct {
	Pos    lexer.Position
	Cond   *Head   `parser:"\"if\" @@"`
	Then   *Block  `parser:"@@"`
	ElseIf *IfStmt `parser:"( \"else\" ( @@"`
	Else   *Block  `parser:"| @@ ) )?"`
}

// ForStmt loops over a collection or a count: `for x in xs { … }`, `for k, v in m { … }`.
type ForStmt struct {
	Pos  lexer.Position
	Var  string `parser:"\"for\" @(Ident | Dice)"`
	Var2 string `parser:"( Comma @(Ident | Dice) )?"`
	Coll *Head  `parser:"\"in\" @@"`
	Body *Block `parser:"@@"`
}

// WhileStmt loops while its condition holds (bounded at run time).
type WhileStmt struct {
	Pos  lexer.Position
	Cond *Head  `parser:"\"while\" @@"`
	Body *Block `parser:"@@"`
}

// ReturnStmt ends the procedure, with or without a value.
type ReturnStmt struct {
	Pos   lexer.Position
	Value *Expr `parser:"\"return\" @@?"`
}

// BreakStmt leaves the innermost for or while loop.
type BreakStmt struct {
	Pos     lexer.Position
	Keyword string `parser:"@\"break\""`
}

// ContinueStmt goes on to the next iteration of the innermost for or while loop.
type ContinueStmt struct {
	Pos     lexer.Position
	Keyword string `parser:"@\"continue\""`
}

// RequireStmt stops the call with a message when its condition fails.
type RequireStmt struct {
	Pos     lexer.Position
	Cond    *Expr `parser:"\"require\" @@"`
	Message *Expr `parser:"\"else\" @@"`
}

// EmitStmt writes a narrative line.
type EmitStmt struct {
	Pos   lexer.Position
	Value *Expr `parser:"\"emit\" @@"`
}

// SimpleStmt is an expression run for its effect, or an assignment (`=`, `+=`, `-=`, `*=`).
type SimpleStmt struct {
	Pos    lexer.Position
	Target *Expr  `parser:"@@"`
	Op     string `parser:"( @( \"=\" | \"+=\" | \"-=\" | \"*=\" )"`
	Value  *Expr  `parser:"  @@ )?"`
}

// Expr is the raw text of one expr-lang expression: its tokens, positions kept. It parses
// itself (participle.Parseable): a balanced run of tokens is cheaper to scan by hand than to
// match token by token through grammar nodes.
type Expr struct {
	Pos    lexer.Position
	EndPos lexer.Position
	// Toks are the tokens at bracket depth 0 (a group counts as its opening token).
	Toks []lexer.Token
	// head: in an if/for/while header, where a top-level `parser:"{"` opens the block.
	head bool
}

// Head is an expression in an if, for or while header: a top-level `{` opens the block,
// so braces there must stand inside parentheses (as in Go).
type Head struct{ Expr }

// Parse reads tokens up to the end of the expression: a newline, comma, `parser:"="` (or `parser:"+="`…),
// `parser:"else"` or closing bracket at depth 0, or a `parser:"{"` or `parser:"}"` in a header.
func (h *Head) Parse(lex *lexer.PeekingLexer) error { return h.read(lex) }

func (h *Head) read(lex tokenStream) error {
	h.head = true
	return h.Expr.read(lex)
}

// statementWords reports whether s starts statements, never expressions: an expression
// statement (the first alternative tried, the commonest) gives way at once to the statement
// such a word begins.
func statementWords(s string) bool {
	switch s {
	case "let", "if", "for", "while", "return", "break", "continue", "require", "emit":
		return true
	}
	return false
}

// Parse implements participle.Parseable.
func (e *Expr) Parse(lex *lexer.PeekingLexer) error { return e.read(lex) }

func (e *Expr) read(lex tokenStream) error {
	if t := lex.Peek(); t.Type == TokIdent && statementWords(t.Value) {
		return participle.NextMatch
	}
	var arena *tokenArena
	if c, ok := lex.(*tokenCursor); ok && e.Toks == nil {
		arena = &c.arena
		e.Toks = arena.next()
	}
	err := e.readToks(lex)
	if arena != nil {
		e.Toks = arena.keep(e.Toks)
	}
	return err
}

func (e *Expr) readToks(lex tokenStream) error {
	depth, n := 0, 0
	// The end is where the last token read ends, worked out once from it.
	var last *lexer.Token
	defer func() {
		if last != nil {
			e.EndPos = last.Pos
			advancePos(&e.EndPos, last.Value)
		}
	}()
	for {
		t := lex.Peek()
		if t.EOF() {
			break
		}
		if n++; n > MaxExprTokens {
			// Bounded here, before the expression's text reaches expr-lang.
			return participle.Errorf(t.Pos, "expression longer than the limit of %d tokens", MaxExprTokens)
		}
		if depth == 0 && t.Type == TokNewline && e.continues() {
			// A line ending with an operator goes on: `a +` ⏎ `b`.
			lex.Next()
			continue
		}
		if depth == 0 && e.stops(t) {
			break
		}
		d := BracketDelta(*t)
		if depth == 0 && d >= 0 {
			e.Toks = append(e.Toks, *t)
		}
		depth += d
		if len(e.Toks) == 1 && e.Pos.Line == 0 {
			e.Pos = t.Pos
		}
		lex.Next()
		last = t
	}
	if len(e.Toks) == 0 {
		return participle.NextMatch
	}
	return nil
}

// continues reports whether the expression so far ends with a binary operator.
func (e *Expr) continues() bool {
	n := len(e.Toks)
	if n == 0 {
		return false
	}
	var prev lexer.Token
	if n > 1 {
		prev = e.Toks[n-2]
	}
	return ContinuesLine(prev, e.Toks[n-1])
}

func (e *Expr) stops(t *lexer.Token) bool {
	switch t.Type {
	case TokNewline, TokComma:
		return true
	case TokPunct:
		return t.Value == ")" || t.Value == "]" || t.Value == "}" || (e.head && t.Value == "{")
	case TokOp:
		return t.Value == "=" || t.Value == "+=" || t.Value == "-=" || t.Value == "*="
	case TokIdent:
		return t.Value == "else"
	}
	return false
}

// Single returns the only token of an expression made of one token, or nil.
func (e *Expr) Single() *lexer.Token {
	if len(e.Toks) == 1 && e.Toks[0].Type != TokPunct {
		return &e.Toks[0]
	}
	return nil
}

// TableDecl is a lookup table:
//
//	table blessure(marge) {
//	  .. 0      : "rien"
//	  (0 .. 3]  : "légère"
//	  else      : "grave"
//	}
type TableDecl struct {
	Pos    lexer.Position
	Name   string   `parser:"\"table\" @(Ident | Dice)"`
	Params []*Param `parser:"( \"(\" ( @@ ( Comma @@ )* )? \")\" )?"`
	// Roll is the dice the table rolls for its key, with the terms added to them: roll
	// 2d6 + stat - 1 (the checker reads it: dice first, then + or - and any arithmetic).
	Roll *Head  `parser:"( \"roll\" @@ )?"`
	Rows []*Row `parser:"\"{\" ( @@ | Newline )* \"}\""`
}

// Row is one row of a table: a key and a value, or a columns line.
type Row struct {
	Pos     lexer.Position
	Columns *Columns
	Key     *Key
	Value   *Expr
}

// rowGrammar is a row's production, for the rows Row.Parse leaves to participle.
type rowGrammar struct {
	Pos     lexer.Position
	Columns *Columns `parser:"  @@"`
	Key     *Key     `parser:"| @@ \":\""`
	Value   *Expr    `parser:"  @@?"`
}

var rowParser lazyParser[rowGrammar]

// Parse implements participle.Parseable. A row `KEY : VALUE` and a columns line are read by
// hand: a table of many rows spent most of its parse time in participle's reflection, and
// building the row's parser a millisecond. A row that does not read goes to the grammar,
// which words the error.
func (r *Row) Parse(lex *lexer.PeekingLexer) error {
	t := lex.Peek()
	if t.EOF() || t.Type == TokNewline || t.Type == TokPunct && t.Value == "}" {
		return participle.NextMatch
	}
	cp := lex.MakeCheckpoint()
	if (handDecls || t.Type != TokIdent || t.Value != "columns") && r.read(lex) {
		return nil
	}
	lex.LoadCheckpoint(cp)
	if handDecls {
		handFallbacks.Add(1)
	}
	g, err := rowParser.get().ParseFromLexer(lex, participle.AllowTrailing(true))
	if err != nil {
		return err
	}
	*r = Row{Pos: g.Pos, Columns: g.Columns, Key: g.Key, Value: g.Value}
	return nil
}

// read reads a row by hand, reporting whether it did (the tokens it took are then lost).
func (r *Row) read(lex tokenStream) bool {
	t := lex.Peek()
	if t.Type == TokIdent && t.Value == "columns" {
		c := (&procReader{lex: lex}).columns()
		if c == nil {
			return false
		}
		*r = Row{Pos: t.Pos, Columns: c}
		// The grammar's optional value after the columns: an expression stops where they
		// stopped, so there is none, but it is read as the grammar would.
		v := &Expr{}
		if v.read(lex) == nil {
			r.Value = v
		}
		return true
	}
	pos, k := t.Pos, &Key{}
	if k.read(lex) != nil {
		return false
	}
	if colon := lex.Next(); colon.Type != TokOp || colon.Value != ":" {
		return false
	}
	v := &Expr{}
	switch err := v.read(lex); err {
	case nil:
		*r = Row{Pos: pos, Key: k, Value: v}
	case participle.NextMatch:
		*r = Row{Pos: pos, Key: k}
	default:
		return false
	}
	return true
}

// Columns declares the columns of a two-dimensional table: values, or odds ratios
// rounded down (`columns ratio 1:3, 1:2, 1:1, 2:1`).
type Columns struct {
	Pos   lexer.Position
	Ratio bool    `parser:"\"columns\" ( @\"ratio\" (?! Comma) )?"`
	Items []*Expr `parser:"@@ ( Comma @@ )*"`
}

// Key is the key of a table row: the tokens before the top-level `:`.
type Key struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Toks   []lexer.Token
}

// Parse implements participle.Parseable.
func (k *Key) Parse(lex *lexer.PeekingLexer) error { return k.read(lex) }

func (k *Key) read(lex tokenStream) error {
	depth := 0
	for {
		t := lex.Peek()
		if t.EOF() || t.Type == TokNewline && depth == 0 {
			break
		}
		if depth == 0 && t.Type == TokOp && t.Value == ":" {
			break
		}
		if depth == 0 && t.Type == TokPunct && t.Value == "}" {
			break
		}
		depth += BracketDelta(*t)
		if len(k.Toks) == 0 {
			k.Pos = t.Pos
		}
		k.Toks = append(k.Toks, *t)
		lex.Next()
		k.EndPos = t.Pos
		advancePos(&k.EndPos, t.Value)
	}
	if len(k.Toks) == 0 {
		return participle.NextMatch
	}
	return nil
}

// DeckDecl declares a deck; its name is also its draw pile, shuffled at the start of a run.
//
//	deck jeu standard {
//	  suit "♣" "Souffle" black "vitesse"
//	  jokers 2
//	}
type DeckDecl struct {
	Pos      lexer.Position
	Name     string      `parser:"\"deck\" @(Ident | Dice)"`
	Standard bool        `parser:"@\"standard\"?"`
	Lines    []*DeckLine `parser:"( \"{\" ( @@ | Newline )* \"}\" )?"`
}

// DeckLine is one line of a deck declaration: a suit, a rank change or a property.
type DeckLine struct {
	Pos    lexer.Position
	Suit   *Suit  `parser:"  @@"`
	Jokers string `parser:"| \"jokers\" @Number"`
	Rank   *Rank  `parser:"| @@"`
}

// Suit declares one suit of a deck with its properties.
type Suit struct {
	Symbol  string `parser:"\"suit\" @String"`
	Name    string `parser:"@String"`
	Colour  string `parser:"@Ident"`
	Meaning string `parser:"@String?"`
}

// Rank changes a rank's value or figure status: `rank V 11 figure`.
type Rank struct {
	Name   string `parser:"\"rank\" @(Ident | Number)"`
	Value  string `parser:"@Number"`
	Figure bool   `parser:"@\"figure\"?"`
}

// PileDecl declares an empty pile (a hand, a discard): `pile défausse`.
type PileDecl struct {
	Pos  lexer.Position
	Name string `parser:"\"pile\" @(Ident | Dice)"`
}

// MapDecl declares a hex board:
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
//	  units Unité at position marker sigle label nom side camp
//	}
type MapDecl struct {
	Pos   lexer.Position
	Name  string     `parser:"\"map\" @(Ident | Dice) \"{\""`
	Lines []*MapLine `parser:"( @@ | Newline )* \"}\""`
}

// MapLine is one line of a map declaration.
type MapLine struct {
	Pos    lexer.Position
	Rows   []*RowLine `parser:"  \"rows\" \"{\" Newline* ( @@ Newline* )+ \"}\""`
	Legend []*Legend  `parser:"| \"legend\" @@ ( Comma Newline* @@ )*"`
	Edge   *EdgeLine  `parser:"| @@"`
	Road   []*Hex     `parser:"| \"road\" @@ ( Comma @@ )*"`
	Height []*Height  `parser:"| \"height\" @@ ( Comma @@ )*"`
	Point  *Point     `parser:"| @@"`
	Units  *Units     `parser:"| @@"`
}

// Units names the entities drawn on a board: those of a kind, standing on the hex that a
// field (or a rule of the unit) gives, shown by a marker and a label and drawn in the
// colour of their side, each a field or a rule.
type Units struct {
	Pos    lexer.Position
	Kind   string      `parser:"\"units\" @(Ident | Dice)"`
	At     *UnitAccess `parser:"\"at\" @@"`
	Marker *UnitAccess `parser:"( \"marker\" @@ )?"`
	Label  *UnitAccess `parser:"( \"label\" @@ )?"`
	Side   *UnitAccess `parser:"( \"side\" @@ )?"`
}

// UnitAccess names a field of a unit's kind, or a rule taking the unit.
type UnitAccess struct {
	Pos  lexer.Position
	Name string `parser:"@(Ident | Dice)"`
}

// RowLine lists the terrain of one row of hexes.
type RowLine struct {
	Pos  lexer.Position
	Text string `parser:"@String"`
}

// Legend maps a terrain letter to its name.
type Legend struct {
	Pos     lexer.Position
	Char    string `parser:"@String"`
	Terrain string `parser:"@(Ident | Dice)"`
}

// EdgeLine lists edge features (rivers, walls) between pairs of hexes.
type EdgeLine struct {
	Pos   lexer.Position
	Kind  string  `parser:"@( \"river\" | \"stream\" | \"bridge\" | \"ford\" )"`
	Edges []*Edge `parser:"@@ ( Comma @@ )*"`
}

// Edge is one edge between two hexes.
type Edge struct {
	A *Hex `parser:"@@ \"-\""`
	B *Hex `parser:"@@"`
}

// Hex is one hex given by its axial coordinates.
type Hex struct {
	Pos lexer.Position
	Col string `parser:"\"(\" @Number Comma"`
	Row string `parser:"@Number \")\""`
}

// Height gives a hex its elevation.
type Height struct {
	H     *Hex   `parser:"@@"`
	Neg   bool   `parser:"@\"-\"?"`
	Value string `parser:"@Number"`
}

// Point names a hex: `village = (2, 3)`.
type Point struct {
	Pos   lexer.Position
	Name  string `parser:"\"point\" @(Ident | Dice)"`
	H     *Hex   `parser:"@@"`
	Label string `parser:"@String?"`
}
