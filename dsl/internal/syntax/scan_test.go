package syntax

import (
	"reflect"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// TestOpenBrackets pins the one scanner every bracket count goes through: brackets inside
// strings of either quote kind, escaped quotes and comments do not count; a string ends at
// its line's end.
func TestOpenBrackets(t *testing.T) {
	cases := []struct {
		src  string
		want int
	}{
		{`(`, 1},
		{`f(x, [1, {a: 2}])`, 0},
		{`"("`, 0},
		{`'('`, 0},
		{`"it's ("`, 0},
		{`'say "(" '`, 0},
		{`"\"(" (`, 1},
		{`'\'(' [`, 1},
		{`"\\" (`, 1},
		{`"a\\\"(" `, 0},
		{`1 // (`, 0},
		{"// (\n(", 1},
		{`"// (" (`, 1},
		{`'//' + "(" // )`, 0},
		{"\"(\n(", 1}, // the string ends with its line
		{"\"a\\\n(", 1},
		{`m["a]"] = 2`, 0},
		{`m["a["`, 1},
		{"`(`", 1}, // backquotes are not strings in the language
		{`)`, -1},
		// Past the most tokens an input may hold the line counts as closing what it
		// opened: it is refused at once, not scanned to its end and joined to the next.
		{strings.Repeat("(", MaxExprTokens+1), 0},
		{strings.Repeat("(", MaxExprTokens), MaxExprTokens},
	}
	for _, c := range cases {
		if got := OpenBrackets(c.src); got != c.want {
			t.Errorf("OpenBrackets(%q) = %d, want %d", c.src, got, c.want)
		}
	}
}

// TestScannersAgree: the formatter's line scan, statement detection and the grammar read
// strings and comments as OpenBrackets does.
func TestScannersAgree(t *testing.T) {
	for _, line := range []string{`x = "(" // [`, `m["a]"] = 2`, `m['{'] = "}"`, `emit "{x}" // {`} {
		opens, closes, _, _ := scanLine(line)
		if opens-closes != OpenBrackets(line) {
			t.Errorf("scanLine(%q) counts %d, OpenBrackets %d", line, opens-closes, OpenBrackets(line))
		}
		if !IsStatement(line) {
			t.Errorf("IsStatement(%q) = false", line)
		}
	}
	for _, src := range []string{`x == "="`, `"a = b"`, `f(x = 1)`, `// x = 1`} {
		if IsStatement(src) {
			t.Errorf("IsStatement(%q) = true", src)
		}
	}
	// ContinuesLine is shared by the grammar and the formatter: both go on after `in`.
	if _, _, _, more := scanLine("for x in"); !more {
		t.Error("the formatter does not continue a line ending with in")
	}
	if !ContinuesLine(lexer.Token{}, lexer.Token{Type: TokIdent, Value: "and"}) || ContinuesLine(lexer.Token{}, lexer.Token{Type: TokIdent, Value: "x"}) {
		t.Error("continuesLine")
	}
}

// TestParticipleMessagesInPlainTerms: participle's expectations and bounds reach the user
// without the grammar's Go type names.
func TestParticipleMessagesInPlainTerms(t *testing.T) {
	// A million blank lines in one block reach participle's bound on repetitions, which
	// names grammar types.
	d := parseDiag("t.rules", participle.Errorf(lexer.Position{Line: 1000001, Column: 1}, "too many iterations of (Stmt | <newline>)* (> 1000000)"))
	if want := "t.rules:1000001:1: more than 1000000 lines or items in one block or file"; d.Error() != want {
		t.Errorf("got %s, want %s", d.Error(), want)
	}
	for in, want := range map[string]string{
		`x (expected ")" (":" TypeRef)? Block)`:                   `x (expected ")")`,
		`x (expected (":" TypeRef)? Block)`:                       `x (expected ":" or "{")`,
		`x (expected <string> <string> <ident> <string>?)`:        `x (expected a string)`,
		`x (expected (<number> | (<ident> | <dice> | <string>)))`: `x (expected a number, a name or a string)`,
		`x (expected Unknown "=")`:                                `x`,
		`x (expected Head Block ("else" (IfStmt | Block))?)`:      `x (expected an expression)`,
	} {
		if got := plainExpected(in); got != want {
			t.Errorf("plainExpected(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestParsedNamesAreScans: the names a load keeps of each file (ParsedFile.Names, which
// the checks read instead of scanning again) are where Scan's names of its source are, in
// order, their text cut from ParsedFile.Text, on every rule file of the repository, those
// the grammar reads whole (a TokBad token) included.
func TestParsedNamesAreScans(t *testing.T) {
	for name, src := range repoRuleFiles(t) {
		files, _, diags := ParseFiles(memFiles{name: src}, name)
		if diags.HasErrors() || len(files) == 0 {
			continue // an include outside memFiles, or a counter-example
		}
		var want []NameAt
		Scan(string(src), func(tok lexer.Token) bool {
			if tok.Type == TokIdent {
				want = append(want, NameAt{int32(tok.Pos.Offset), int32(len(tok.Value)), int32(tok.Pos.Line), int32(tok.Pos.Column)})
				if got := files[0].Text[tok.Pos.Offset : tok.Pos.Offset+len(tok.Value)]; got != tok.Value {
					t.Fatalf("%s:%d:%d: the text gives %q, Scan %q", name, tok.Pos.Line, tok.Pos.Column, got, tok.Value)
				}
			}
			return true
		})
		if got := files[0].Names; !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: %d names kept, Scan gives %d", name, len(got), len(want))
		}
	}
}
