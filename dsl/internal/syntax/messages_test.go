package syntax

import (
	"errors"
	"regexp"
	"strings"
	"testing"
)

// grammarWords finds the grammar's production names and token classes in a message.
var grammarWords = regexp.MustCompile(`<[a-z]+>|\b(?:Decl|Stmt|TypeRef|Block|Expr|Head|Key|Row|RowGrammar|[A-Z][a-z]+(?:Decl|Stmt|Line|AST))\b`)

// TestSyntaxErrorsInPlainTerms: participle's expectations reach the user without the
// grammar's Go type names, at the position of the token that does not fit.
func TestSyntaxErrorsInPlainTerms(t *testing.T) {
	cases := map[string]string{
		"rule f( {\n":                `t.rules:1:9: unexpected token "{" (expected ")")`,
		"rule f() {\n  for x }\n}\n": `t.rules:2:9: unexpected token "}" (expected "in")`,
		"option x\n":                 `t.rules:1:9: unexpected end of line (expected "=")`,
		"const = 1\n":                `t.rules:1:7: unexpected token "=" (expected a name)`,
		"dice x = [":                 `t.rules:1:11: unexpected end of file (expected a number, a name or a string)`,
		"rule f() {\n  if true { } else if }\n}\n": `t.rules:2:15: unexpected token "else" (expected "}")`,
		"rule é(x) {\n  emit 'a\n}\n":              `t.rules:2:8: unterminated string`,
		"rule f() {\n  return €\n}\n":              `t.rules:2:10: unexpected character "€"`,
	}
	for src, want := range cases {
		_, d := Parse("t.rules", []byte(src))
		if d == nil || d.Error() != want {
			t.Errorf("%q:\ngot  %v\nwant %s", src, d, want)
			continue
		}
		if grammarWords.MatchString(d.Error()) {
			t.Errorf("%q: %s", src, d.Error())
		}
	}
	// A file of very many short tokens is refused before the parser holds them all.
	_, d := Parse("t.rules", []byte("const L = ["+strings.Repeat("1,", 600_000)+"1]\n"))
	if want := "t.rules:1:1000008: more than 1000000 tokens in one file (the limit)"; d == nil || d.Error() != want {
		t.Errorf("got %v, want %s", d, want)
	}
}

// TestParseStatements: statements typed at the REPL parse with the file grammar's
// statements, and their errors read as a file's.
func TestParseStatements(t *testing.T) {
	st, d := ParseStatements("<input>", "\nlet x = 1\nx += 2\n\n")
	if d != nil || len(st.Stmts) != 2 {
		t.Fatalf("%v, %v", st, d)
	}
	for src, want := range map[string]string{
		`if true { emit "a" } else if`: "<input>:1:29: unexpected end of file (expected an expression)",
		"for x }":                      `<input>:1:7: unexpected token "}" (expected "in")`,
		"let x = `a`":                  "<input>:1:9: unexpected character \"`\"",
		"let x = 'a":                   "<input>:1:9: unterminated string",
		"":                             "<input>:1:1: unexpected end of file",
	} {
		_, d := ParseStatements("<input>", src)
		if d == nil || d.Error() != want {
			t.Errorf("ParseStatements(%q) = %v, want %s", src, d, want)
		}
	}
}

// TestParseDiagOtherErrors: an error that is not participle's keeps its text, at the file.
func TestParseDiagOtherErrors(t *testing.T) {
	if d := parseDiag("f.rules", errors.New("disk on fire")); d.Error() != "f.rules: disk on fire" {
		t.Errorf("got %s", d.Error())
	}
}

// TestPlainExpected: participle's notation of what may come next, reduced to what may come
// first, in the language's words.
func TestPlainExpected(t *testing.T) {
	for in, want := range map[string]string{
		`x`:                                           `x`,
		`x (expected "a"`:                             `x (expected "a"`,
		`x (expected "in")`:                           `x (expected "in")`,
		`x (expected "a" | "b")`:                      `x (expected "a")`,
		`x (expected ("a" | "b" | "a") "c")`:          `x (expected "a" or "b")`,
		`x (expected ("a" | "b")+ "c")`:               `x (expected "a" or "b")`,
		`x (expected "a"* "b"? <card> "c")`:           `x (expected "a", "b" or a card)`,
		`x (expected <newline>* <comma>)`:             `x (expected a new line or ",")`,
		`x (expected Key ":")`:                        `x (expected a table key)`,
		`x (expected "\"" "a")`:                       `x (expected "\"")`,
		`x (expected ("a" "b")`:                       `x`,
		`x (expected (Unknown | "a"))`:                `x`,
		`x (expected <foo)`:                           `x`,
		`x (expected "a"?)`:                           `x (expected "a")`,
		`unexpected token "}" (expected TypeRef "=")`: `unexpected token "}" (expected a type)`,
	} {
		if got := plainExpected(in); got != want {
			t.Errorf("plainExpected(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPlainExprMessage: expr-lang's token names are dropped for the token's text.
func TestPlainExprMessage(t *testing.T) {
	for in, want := range map[string]string{
		`unexpected token Number("2")`:             `unexpected token "2"`,
		`unexpected token Bracket(")") (1:4)`:      `unexpected token ")" (1:4)`,
		`unexpected token Operator(",")`:           `unexpected token ","`,
		`unexpected token String("a\"b")`:          `unexpected token "a\"b"`,
		`unexpected token Identifier("x") and EOF`: `unexpected token "x" and EOF`,
		`unexpected token EOF`:                     `unexpected end of input`,
		`unknown name Number`:                      `unknown name Number`,
		`unexpected token MyNumber("2")`:           `unexpected token MyNumber("2")`,
	} {
		if got := PlainExprMessage(in); got != want {
			t.Errorf("PlainExprMessage(%q) = %q, want %q", in, got, want)
		}
	}
}
