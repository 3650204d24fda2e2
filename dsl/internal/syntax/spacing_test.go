package syntax

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
)

// TestFormatSpacing: fmt puts one space after commas, around binary operators, `=` and after
// `:`, none inside parentheses and brackets, and leaves every token as written: dice notation
// with its glued operators, strings, templates, percentages, unary operators, ranges, bands,
// cards, predicates, comments and the columns aligned by two blanks or more.
func TestFormatSpacing(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"rule    hit( h:Hero ) : bool {\n  return true\n}\n", "rule hit(h: Hero): bool {\n  return true\n}\n"},
		{"const x = d(6)+bonus>=5\n", "const x = d(6) + bonus >= 5\n"},
		{"const x = f(a,b ,c)\n", "const x = f(a, b, c)\n"},
		{"const x=1\n", "const x = 1\n"},
		// Dice notation is one token: its operators stay glued; spaced, it compares.
		{"const x = 3d6>=12\n", "const x = 3d6>=12\n"},
		{"const x = 3d6 >=12\n", "const x = 3d6 >= 12\n"},
		{"const x = 4d6kh3+2d6!r<3\n", "const x = 4d6kh3 + 2d6!r<3\n"},
		{"const x = d%+1\n", "const x = d% + 1\n"},
		{"const x = {4d10+5d6}k2\n", "const x = {4d10 + 5d6}k2\n"},
		{"const x = 1d[combat]ro=général\n", "const x = 1d[combat]ro=général\n"},
		// Strings, templates, comments are as written.
		{"const x = \"a+b,c\"+'{a.b}'   // x=1,y\n", "const x = \"a+b,c\" + '{a.b}'   // x=1,y\n"},
		{"const x = 1 // c\n", "const x = 1 // c\n"},
		// Percentages, unary operators, ranges.
		{"const x = y>=40%\n", "const x = y >= 40%\n"},
		{"const x = 10 % 3\n", "const x = 10 % 3\n"},
		{"const x = x - -1\n", "const x = x - -1\n"},
		{"const x = -x*2\n", "const x = -x * 2\n"},
		{"const x = f(-1, !y)\n", "const x = f(-1, !y)\n"},
		{"rule f(x) {\n  return -x\n}\n", "rule f(x) {\n  return -x\n}\n"},
		{"const x = 1..6\n", "const x = 1..6\n"},
		{"const x = 1 .. 6\n", "const x = 1 .. 6\n"},
		// Ternary, `?:`, `??`, `!`, predicates.
		{"const x = a?b:c\n", "const x = a?b : c\n"},
		{"const x = a ? l[:2] : l[0:1]\n", "const x = a ? l[:2] : l[0:1]\n"},
		{"const x = a ?: b\n", "const x = a ?: b\n"},
		{"const x = a??b\n", "const x = a ?? b\n"},
		{"const x = filter(l,.pv>0 && !.mort)\n", "const x = filter(l, .pv > 0 && !.mort)\n"},
		{"const x = any(l, # in m)\n", "const x = any(l, # in m)\n"},
		{"const x = a.b . c\n", "const x = a.b.c\n"},
		{"const x = [Q♣,10♥]\n", "const x = [Q♣, 10♥]\n"},
		{"const x = {a:1}\n", "const x = {a: 1}\n"},
		{"rule f(u,prudent=false):int {\n  let x:int=3\n  x+=1\n  return x*-1\n}\n", "rule f(u, prudent = false): int {\n  let x: int = 3\n  x += 1\n  return x * -1\n}\n"},
		// Columns aligned by two blanks or more stay aligned.
		{"table t(x) {\n  1      : \"a\"\n  (.. 2] : \"b\"\n  else   : \"c\"\n}\n", "table t(x) {\n  1      : \"a\"\n  (.. 2] : \"b\"\n  else   : \"c\"\n}\n"},
		{"option o = 3     \"texte\"\n", "option o = 3     \"texte\"\n"},
		// A continuation line keeps its operator at the end.
		{"const x = 1+\n  2\n", "const x = 1 +\n  2\n"},
		// A map's coordinates and edges are written glued.
		{"map m {\n  river (4,3)-(5,3), (1,2)-(1,3)\n  road (1,2), (2,2)\n}\n", "map m {\n  river (4,3)-(5,3), (1,2)-(1,3)\n  road (1,2), (2,2)\n}\n"},
	} {
		got, err := Format("t.rules", []byte(c.src))
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		if string(got) != c.want {
			t.Errorf("%q:\ngot  %q\nwant %q", c.src, got, c.want)
		}
		if again, _ := Format("t.rules", got); string(again) != string(got) {
			t.Errorf("%q: not a fixed point: %q", c.src, again)
		}
		if !sameFileTokens(c.src, string(got)) {
			t.Errorf("%q: the tokens changed: %q", c.src, got)
		}
	}
}

// TestSpaceLineRefusesRegluing: a spacing that would make the tokens read differently is
// not applied. A `.` beside a number keeps its blanks (`1 . 5` glued would be the number 1.5,
// `{. 0:` glued `.0`, which the fuzzer found), and the last check, sameTokens, refuses any
// line whose tokens a spacing changed.
func TestSpaceLineRefusesRegluing(t *testing.T) {
	for line, want := range map[string]string{
		"let x = 1 . 5":             "let x = 1 . 5",
		"let x = a ( 1 . 5 )":       "let x = a (1 . 5)",
		"let x = a . b":             "let x = a.b",
		"table A roll d1{. 0:\"\"}": "table A roll d1{. 0:\"\"}",
	} {
		if got := spaceLine(line); got != want {
			t.Errorf("%q became %q, want %q", line, got, want)
		}
	}
	if sameTokens("let x = 1 . 5", "let x = 1.5") {
		t.Error("sameTokens takes 1 . 5 and 1.5 for the same tokens")
	}
}

// sameFileTokens reports whether a and b scan to the same tokens, blank lines aside: what
// the grammar reads of them is the same. The entity fields fmt modernises (`=` to `:`) are
// taken as the same token.
func sameFileTokens(a, b string) bool {
	toks := func(s string) []lexer.Token {
		var out []lexer.Token
		Scan(s, func(t lexer.Token) bool {
			if t.Type == TokNewline && len(out) > 0 && out[len(out)-1].Type == TokNewline {
				return true
			}
			if t.Type == TokOp && t.Value == "=" {
				t.Value = ":"
			}
			out = append(out, t)
			return true
		})
		return out
	}
	ta, tb := toks(a), toks(b)
	if len(ta) != len(tb) {
		return false
	}
	for i := range ta {
		if ta[i].Type != tb[i].Type || ta[i].Value != tb[i].Value {
			return false
		}
	}
	return true
}

// TestFormatKeepsTokens: for every shipped rule file, the formatted text has the same tokens
// (the grammar reads the same file) and is a fixed point.
func TestFormatKeepsTokens(t *testing.T) {
	files, _ := filepath.Glob("../../../rulesets/*/*.rules")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		once, err := Format(f, src)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !sameFileTokens(string(src), string(once)) {
			t.Errorf("%s: formatting changed the tokens", f)
		}
		if twice, _ := Format(f, once); string(twice) != string(once) {
			t.Errorf("%s: formatting is not idempotent", f)
		}
	}
}
