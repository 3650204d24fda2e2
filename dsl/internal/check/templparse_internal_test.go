package check

import (
	"fmt"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"

	"rulesh/dsl/internal/runtime"
)

// TestParseTemplateParts: the literal parts of a template, its holes and its diagnostics,
// for escapes, doubled braces, a stray }, bytes that are no rune, holes at either end,
// holes too deep or not closed (what parseTemplate gave before it took plain runs whole).
func TestParseTemplateParts(t *testing.T) {
	cases := map[string]string{
		`""`:              ``,
		`"plain"`:         `lit "plain";`,
		`"dégâts ♥ é"`:    `lit "dégâts ♥ é";`,
		`"a\nb\tc\"d\\e"`: `lit "a\nb\tc\"d\\e";`,
		`"{{x}} {{"`:      `lit "{x} {";`,
		`"a}b"`:           `lit "ab";1:3: unmatched } in a string;`,
		"\"a\xffb\"":      "lit \"a\ufffdb\";",
		`"{x}"`:           `expr "x";`,
		`"a{x}b{y}"`:      `lit "a";expr "x";lit "b";expr "y";`,
		`"a\n{x}\{"`:      `lit "a\n";expr "x";lit "{";`,
		`"{x"`:            `1:2: unclosed { in a string;`,
		`"ab{x @ y}c"`:    `lit "ab";hole refused;lit "c";1:7: unrecognized character: U+0040 '@';`,
		`"a{((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))}"`: `1:68: nesting deeper than the limit of 64;`,
		`"a{'}'}b{[1, {2: 3}]}"`: `lit "a";expr "'}'";lit "b";expr "[1, {2: 3}]";`,
		`"\"`:                    `lit "\\";`,
	}
	for tok, want := range cases {
		c := inputCompiler(NewProgram(testLibrary(), nil, nil), "t", tok)
		tm := c.parseTemplate(tok, lexer.Position{Filename: "t", Line: 1, Column: 1}, inputScope(map[string]*runtime.Type{"x": runtime.IntType, "y": runtime.IntType}))
		var b strings.Builder
		for _, p := range tm.Parts {
			if p.Expr != nil {
				fmt.Fprintf(&b, "expr %q;", p.Expr.Text)
			} else if p.Lit == "" {
				b.WriteString("hole refused;")
			} else {
				fmt.Fprintf(&b, "lit %q;", p.Lit)
			}
		}
		for _, d := range c.Diags {
			fmt.Fprintf(&b, "%d:%d: %s;", d.Pos.Line, d.Pos.Col, d.Summary)
		}
		if got := b.String(); got != want {
			t.Errorf("parseTemplate(%s) = %s\n want %s", tok, got, want)
		}
	}
}
