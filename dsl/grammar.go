package dsl

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The grammar is the AST: one struct per production. Statements end at a newline; the text of
// an expression is captured as balanced tokens and handed to expr-lang, so the grammar only
// needs to know where an expression stops (a newline, or a top-level `{`, `}`, `,`, `=`, `else`).

var ruleLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Comment", Pattern: `//[^\n]*`},
	{Name: "String", Pattern: `"(\\.|[^"\\\n])*"|'(\\.|[^'\\\n])*'`},
	{Name: "Dice", Pattern: `\d*[dD](\d+|%|F\b)[^\s,;()\[\]{}]*|\d+D(?:[^\p{L}\p{N}_]|$)[^\s,;()\[\]{}+*/-]*`},
	{Name: "Number", Pattern: `\d+(\.\d+)?`},
	{Name: "Card", Pattern: `(10|[2-9AJQKR]|V|D)[♣♠♥♦]`},
	{Name: "Ident", Pattern: `[\p{L}_][\p{L}\p{N}_]*`},
	{Name: "Op", Pattern: `==|!=|<=|>=|\+=|-=|\*=|&&|\|\||\?\?|\?\.|\.\.|\*\*|[-+*/%<>=!?:.;^#|&~@$]`},
	{Name: "Comma", Pattern: `,`},
	{Name: "Punct", Pattern: `[(){}\[\]]`},
	{Name: "Newline", Pattern: `\n`},
	{Name: "Whitespace", Pattern: `[ \t\r\x{FEFF}]+`},
})

var fileParser = participle.MustBuild[fileAST](
	participle.Lexer(ruleLexer),
	participle.Elide("Comment", "Whitespace"),
	participle.UseLookahead(2),
)

type fileAST struct {
	Decls []*declAST `( @@ | Newline )*`
}

type declAST struct {
	Pos     lexer.Position
	Ruleset *rulesetAST `  @@`
	Include *includeAST `| @@`
	Option  *optionAST  `| @@`
	Const   *constAST   `| @@`
	Kind    *kindAST    `| @@`
	Entity  *entityAST  `| @@`
	Proc    *procAST    `| @@`
}

type rulesetAST struct {
	Pos   lexer.Position
	Name  string     `"ruleset" @String`
	Props []*propAST `@@*`
}

type propAST struct {
	Key   string `@Ident`
	Value string `@String`
}

type includeAST struct {
	Pos  lexer.Position
	Path string `"include" @String`
}

type optionAST struct {
	Pos   lexer.Position
	Name  string   `"option" @Ident "="`
	Value *exprAST `@@`
}

type constAST struct {
	Pos   lexer.Position
	Name  string   `"const" @Ident "="`
	Value *exprAST `@@`
}

type kindAST struct {
	Pos    lexer.Position
	Name   string      `"kind" @Ident "{"`
	Fields []*fieldAST `( @@ | Newline | Comma )* "}"`
}

type fieldAST struct {
	Pos     lexer.Position
	Name    string   `@Ident ":"`
	Type    *typeAST `@@`
	Default *exprAST `( "=" @@ )?`
}

type typeAST struct {
	Pos  lexer.Position
	List bool   `@( "[" "]" )?`
	Name string `@Ident`
}

type entityAST struct {
	Pos    lexer.Position
	Name   string          `"entity" @Ident ":"`
	Kind   string          `@Ident "{"`
	Fields []*fieldInitAST `( @@ | Newline | Comma )* "}"`
}

type fieldInitAST struct {
	Pos   lexer.Position
	Name  string   `@Ident "="`
	Value *exprAST `@@`
}

type procAST struct {
	Pos    lexer.Position
	Verb   string      `@( "action" | "rule" )`
	Name   string      `@Ident "("`
	Params []*paramAST `( Newline* @@ ( Comma Newline* @@ )* )? Newline* ")"`
	Result *typeAST    `( ":" @@ )?`
	Body   *blockAST   `@@`
}

type paramAST struct {
	Pos     lexer.Position
	Name    string   `@Ident`
	Type    *typeAST `( ":" @@ )?`
	Default *exprAST `( "=" @@ )?`
}

type blockAST struct {
	Pos    lexer.Position
	Stmts  []*stmtAST `"{" ( @@ | Newline )*`
	EndPos lexer.Position
	Close  string `"}"`
}

type stmtAST struct {
	Pos     lexer.Position
	Let     *letAST     `  @@`
	If      *ifAST      `| @@`
	For     *forAST     `| @@`
	While   *whileAST   `| @@`
	Return  *returnAST  `| @@`
	Require *requireAST `| @@`
	Emit    *emitAST    `| @@`
	Simple  *simpleAST  `| @@`
}

type letAST struct {
	Pos   lexer.Position
	Name  string   `"let" @Ident`
	Type  *typeAST `( ":" @@ )?`
	Value *exprAST `"=" @@`
}

type ifAST struct {
	Pos    lexer.Position
	Cond   *headAST  `"if" @@`
	Then   *blockAST `@@`
	ElseIf *ifAST    `( "else" ( @@`
	Else   *blockAST `| @@ ) )?`
}

type forAST struct {
	Pos  lexer.Position
	Var  string    `"for" @Ident`
	Var2 string    `( Comma @Ident )?`
	Coll *headAST  `"in" @@`
	Body *blockAST `@@`
}

type whileAST struct {
	Pos  lexer.Position
	Cond *headAST  `"while" @@`
	Body *blockAST `@@`
}

type returnAST struct {
	Pos   lexer.Position
	Value *exprAST `"return" @@?`
}

type requireAST struct {
	Pos     lexer.Position
	Cond    *exprAST `"require" @@`
	Message *exprAST `"else" @@`
}

type emitAST struct {
	Pos   lexer.Position
	Value *exprAST `"emit" @@`
}

type simpleAST struct {
	Pos    lexer.Position
	Target *exprAST `@@`
	Op     string   `( @( "=" | "+=" | "-=" | "*=" )`
	Value  *exprAST `  @@ )?`
}

// exprAST is the raw text of one expr-lang expression: balanced tokens, positions kept.
type exprAST struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Parts  []*exprPart `@@+`
}

type exprPart struct {
	Group *groupAST `  @@`
	Tok   string    `| @!( Newline | Comma | "{" | "}" | "(" | ")" | "[" | "]" | "=" | "+=" | "-=" | "*=" | "else" )`
}

// headAST is an expression in an if, for or while header: a top-level `{` opens the block,
// so braces there must stand inside parentheses (as in Go).
type headAST struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Parts  []*headPart `@@+`
}

type headPart struct {
	Group *parenGroup `  @@`
	Tok   string    `| @!( Newline | Comma | "{" | "}" | "(" | ")" | "[" | "]" | "=" | "+=" | "-=" | "*=" | "else" )`
}

func (h *headAST) expr() *exprAST {
	e := &exprAST{Pos: h.Pos, EndPos: h.EndPos}
	for _, p := range h.Parts {
		part := &exprPart{Tok: p.Tok}
		if p.Group != nil {
			part.Group = &groupAST{Open: p.Group.Open, Inner: p.Group.Inner, Close: p.Group.Close}
		}
		e.Parts = append(e.Parts, part)
	}
	return e
}

// parenGroup is a bracketed group that may not start with a brace (see headAST).
type parenGroup struct {
	Open  string       `@( "(" | "[" )`
	Inner []*innerPart `@@*`
	Close string       `@( ")" | "]" | "}" )`
}

type groupAST struct {
	Open  string       `@( "(" | "[" | "{" )`
	Inner []*innerPart `@@*`
	Close string       `@( ")" | "]" | "}" )`
}

type innerPart struct {
	Group *groupAST `  @@`
	Tok   string    `| @!( ")" | "]" | "}" | "(" | "[" | "{" )`
}
