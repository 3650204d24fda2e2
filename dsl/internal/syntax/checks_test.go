package syntax

import (
	"strconv"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
)

// TestCheckEncoding: the first byte that is not UTF-8, or a NUL, with its line and column in
// runes.
func TestCheckEncoding(t *testing.T) {
	cases := []struct{ src, want string }{
		{"const x = 1\n", ""},
		{"", ""},
		{"é ♣\n", ""},
		{"\xff", "f.rules:1:1: invalid UTF-8 byte 0xff (save as UTF-8)"},
		{"ab\n\xfe", "f.rules:2:1: invalid UTF-8 byte 0xfe (save as UTF-8)"},
		{"éé\xe9t\xe9", "f.rules:1:3: invalid UTF-8 byte 0xe9 (save as UTF-8)"},
		{"Q♣ \xffx", "f.rules:1:4: invalid UTF-8 byte 0xff (save as UTF-8)"},
		{"♣\xe2\x99", "f.rules:1:2: invalid UTF-8 byte 0xe2 (save as UTF-8)"},
		{"a\n\nb\x00", "f.rules:3:2: NUL byte (is this a binary file?)"},
		{"\x00\xff", "f.rules:1:1: NUL byte (is this a binary file?)"},
	}
	for _, c := range cases {
		got := ""
		if d := CheckEncoding("f.rules", []byte(c.src), "save as UTF-8"); d != nil {
			got = d.Error()
		}
		if got != c.want {
			t.Errorf("CheckEncoding(%q) = %q, want %q", c.src, got, c.want)
		}
	}
}

// TestCheckNesting: what counts one level, where each count ends, and the position of the
// token that passes a limit, counted from the start given (its column only on line 1).
func TestCheckNesting(t *testing.T) {
	const lim = "nesting deeper than the limit of 64"
	start := lexer.Position{Filename: "in", Line: 1, Column: 1}
	cases := []struct {
		name, src string
		expr      bool
		want      string
	}{
		{"65 brackets", strings.Repeat("(", 65), true, "in:1:65: " + lim},
		{"64 brackets", strings.Repeat("(", 64), true, ""},
		{"closed brackets do not add up", strings.Repeat("()", 100), true, ""},
		{"extra closing brackets", strings.Repeat(")", 100) + strings.Repeat("(", 64), true, ""},
		{"unary !", strings.Repeat("!", 65) + "x", true, "in:1:65: " + lim},
		{"unary - with blanks", strings.Repeat("- ", 65) + "1", true, "in:1:129: " + lim},
		{"not", strings.Repeat("not ", 65) + "x", true, "in:1:257: " + lim},
		{"binary minus is not unary", strings.Repeat("1 - ", 200) + "1", true, ""},
		{"a binary operator ends the unaries", strings.Repeat("!x && ", 100) + "x", true, ""},
		{"a comma ends the unaries", "f(" + strings.Repeat("-1, ", 100) + "1)", true, ""},
		{"unaries inside brackets close with them", strings.Repeat("-(", 32) + "1" + strings.Repeat(")", 32) + " + " + strings.Repeat("(", 64), true, ""},
		{"mixed", strings.Repeat("-(", 33), true, "in:1:65: " + lim},
		{"a line end closes an else if", "if x { }" + strings.Repeat(" else if x { }\n", 100), false, ""},
		{"an else if chain nests", "if x {\n" + strings.Repeat("} else if x {\n", 64), false, "in:65:13: " + lim},
		{"else if on one line", strings.Repeat("} else if x { ", 65), false, "in:1:" + strconv.Itoa(14*63+13) + ": " + lim},
		{"after a word that takes an operand", "return " + strings.Repeat("-", 65) + "1", true, "in:1:72: " + lim},
		{"tokens of an expression", strings.Repeat("1 ", MaxExprTokens), true, ""},
		{"one token too many", strings.Repeat("1 ", MaxExprTokens) + "1", true, "in:1:40001: expression longer than the limit of 20000 tokens"},
		{"a file is not bound to expression length", strings.Repeat("1+", MaxExprTokens) + "1", false, ""},
		{"open string in an expression", "1 + \"ab", true, "in:1:5: unterminated string (a string ends on its line with the quote it began with)"},
		{"open single-quoted string", "x\n'ab", true, "in:2:1: unterminated string (a string ends on its line with the quote it began with)"},
		{"bad character in an expression", "a `b`", true, "in:1:3: unexpected character \"`\""},
		{"bad characters in a file are the grammar's", "a `b` \"c", false, ""},
	}
	for _, c := range cases {
		got := ""
		if d := CheckNesting(c.src, start, c.expr); d != nil {
			got = d.Pos.String() + ": " + d.Summary
			if strings.HasPrefix(d.Summary, "unterminated") {
				got = d.Error()
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestCheckNestingStart: positions count from the start given; its column shifts line 1 only.
func TestCheckNestingStart(t *testing.T) {
	start := lexer.Position{Filename: "t.rules", Line: 7, Column: 12}
	cases := []struct{ src, want string }{
		{strings.Repeat("(", 65), "t.rules:7:76"},
		{"é `", "t.rules:7:14"},
		{"x\n  `", "t.rules:8:3"},
		{"\n\n" + strings.Repeat("[", 65), "t.rules:9:65"},
	}
	for _, c := range cases {
		d := CheckNesting(c.src, start, true)
		if d == nil || d.Pos.String() != c.want {
			t.Errorf("CheckNesting(%.20q) at %v, want %s", c.src, d, c.want)
		}
	}
	// The detail says what counts.
	d := CheckNesting(strings.Repeat("(", 65), start, false)
	if d == nil || d.Detail != "brackets, blocks, else if and unary operators (!, not, -, +) each count one level" {
		t.Errorf("detail: %v", d)
	}
}

// TestCheckNestingFileTokens: a file of more than MaxFileTokens tokens is refused at the
// token past the limit.
func TestCheckNestingFileTokens(t *testing.T) {
	src := strings.Repeat("1,", MaxFileTokens/2)
	if d := CheckNesting(src, lexer.Position{Filename: "f", Line: 1, Column: 1}, false); d != nil {
		t.Fatalf("%d tokens: %v", MaxFileTokens, d)
	}
	d := CheckNesting(src+"1", lexer.Position{Filename: "f", Line: 1, Column: 1}, false)
	if d == nil || d.Error() != "f:1:1000001: more than 1000000 tokens in one file (the limit)" {
		t.Errorf("one token more: %v", d)
	}
	// Parse counts in its own scan of the file, with the same words.
	if _, d := Parse("f", []byte(src+"1")); d == nil || d.Error() != "f:1:1000001: more than 1000000 tokens in one file (the limit)" {
		t.Errorf("Parse, one token more: %v", d)
	}
}

// TestReservedUse: the offset (in runes) and message of the first reserved name; names in
// strings and names merely containing __ are the user's.
func TestReservedUse(t *testing.T) {
	cases := []struct {
		text string
		at   int
		msg  string
	}{
		{"__x", 0, "names starting with __ are reserved"},
		{"a + __x", 4, "names starting with __ are reserved"},
		{"é ü __z", 4, "names starting with __ are reserved"},
		{"string(__rt)", 7, "names starting with __ are reserved"},
		{"keys($env)", 5, "$ is not part of the language"},
		{"é $env", 2, "$ is not part of the language"},
		{"$ + __x", 0, "$ is not part of the language"},
		{`"__x" $`, 6, "$ is not part of the language"},
		{`"__rt $env"`, -1, ""},
		{"a__b + x__", -1, ""},
		{"x // __y $", -1, ""},
		{"plain", -1, ""},
	}
	for _, c := range cases {
		at, msg := ReservedUse(c.text)
		if at != c.at || msg != c.msg {
			t.Errorf("ReservedUse(%q) = %d, %q; want %d, %q", c.text, at, msg, c.at, c.msg)
		}
	}
}
