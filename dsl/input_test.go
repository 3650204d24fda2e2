package dsl

import (
	"errors"
	"strings"
	"testing"

	"rulesh/stdlib/dice"
)

// inputRules is the small program behind the input tests and FuzzInput: a deck for card
// literals, a map, a rule with a die-named parameter.
const inputRules = `
deck jeu standard
const BASE = 10
kind U {
  pv: int = BASE
  tags: []string
}
entity u: U { }
rule f(d6) {
  return d6>=3
}
rule g(x: int): int {
  let d20 = x
  return d20 + 1
}
action h() {
  let m = {"a]": 1}
  m["a]"] = 2
  m['b"['] = 3
  return m
}
`

func newInputSession(t testing.TB) *Session {
	t.Helper()
	s := sessionOf(t, inputRules)
	l := s.M.Limits()
	l.MaxSteps = 10000
	s.M.SetLimits(l)
	return s
}

// sessionOf is a session on the rules src (a file t.rules), its dice seeded with 1.
func sessionOf(t testing.TB, src string) *Session {
	t.Helper()
	prog, diags := LoadSource("t.rules", []byte(src))
	if diags.HasErrors() {
		t.Fatalf("load: %v", diags)
	}
	m, err := NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	return NewSession(m)
}

// TestInputErrors: every entry point for typed text returns a positioned error for input
// that used to panic or overflow the stack.
func TestInputErrors(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"lone quote", `"`, "<input>:1:1: unterminated string"},
		{"lone single quote", `'`, "<input>:1:1: unterminated string"},
		{"quote after code", `1 + "ab`, "<input>:1:5: unterminated string"},
		{"invalid UTF-8 after dice", "1d6 \xff\xfe", "<input>:1:5: invalid UTF-8 byte 0xff"},
		{"invalid UTF-8 glued to dice", "1d6\xff", "<input>:1:4: invalid UTF-8 byte 0xff"},
		{"invalid UTF-8 after a card", "Q♣ \xffx", "<input>:1:4: invalid UTF-8 byte 0xff"},
		{"NUL", "1 +\x00", "<input>:1:4: NUL byte"},
		{"unary !", strings.Repeat("!", 1_000_000) + "true", "<input>:1:65: nesting deeper than the limit of 64"},
		{"unary -", strings.Repeat("- ", 1_000_000) + "1", "<input>:1:129: nesting deeper than the limit of 64"},
		{"not", strings.Repeat("not ", 100) + "true", "<input>:1:257: nesting deeper than the limit of 64"},
		{"brackets", strings.Repeat("(", 100_000), "<input>:1:65: nesting deeper than the limit of 64"},
		{"binary chain", strings.Repeat("1+", 500_000) + "1", "<input>:1:20001: expression longer than the limit of 20000 tokens"},
		{"backquote", "`a`", "<input>:1:1: unexpected character \"`\""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newInputSession(t)
			_, err := s.Eval("<input>", c.src)
			checkInputErr(t, "Eval", err, c.want)
			checkInputErr(t, "Exec", s.Exec("<input>", "let y = "+c.src), "")
			_, err = s.Let("y", c.src)
			checkInputErr(t, "Let", err, c.want)
		})
	}
}

func checkInputErr(t *testing.T, what string, err error, want string) {
	t.Helper()
	var ds Diagnostics
	if !errors.As(err, &ds) {
		t.Fatalf("%s: got %v, want diagnostics", what, err)
	}
	if want != "" && !strings.HasPrefix(ds.Error(), want) {
		t.Errorf("%s: got %q, want %q", what, ds.Error(), want)
	}
}

// TestStatementErrorsInPlainTerms: a statement typed at the REPL reports its syntax error
// as a file does (the file cases are syntax's TestSyntaxErrorsInPlainTerms).
func TestStatementErrorsInPlainTerms(t *testing.T) {
	err := newInputSession(t).Exec("<input>", `if true { emit "a" } else if`)
	if want := "<input>:1:29: unexpected end of file (expected an expression)"; err == nil || err.Error() != want {
		t.Errorf("REPL: %v, want %s", err, want)
	}
}
