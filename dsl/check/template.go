package check

import (
	"strings"
	"unicode/utf8"

	"rulesh/dsl/runtime"
	"rulesh/dsl/syntax"

	"github.com/alecthomas/participle/v2/lexer"
)

// parseTemplate splits a string token into literal text and the source of each hole, with
// the position where each hole's text starts in the file.
func (c *compiler) parseTemplate(tok string, pos lexer.Position, sc *scope) *runtime.Template {
	t := &runtime.Template{}
	runes := []rune(tok)
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			t.Parts = append(t.Parts, runtime.TemplatePart{Lit: lit.String()})
			lit.Reset()
		}
	}
	at := func(i int) lexer.Position {
		p := pos
		p.Column += i
		p.Offset += len(string(runes[:i]))
		return p
	}
	for i := 1; i < len(runes)-1; i++ {
		r := runes[i]
		switch {
		case r == '\\' && i+1 < len(runes)-1:
			i++
			switch runes[i] {
			case 'n':
				lit.WriteRune('\n')
			case 't':
				lit.WriteRune('\t')
			default:
				lit.WriteRune(runes[i])
			}
		case r == '{' && runes[i+1] == '{', r == '}' && runes[i+1] == '}':
			lit.WriteRune(r)
			i++
		case r == '{':
			// The hole ends at the first } outside brackets and strings, found by the
			// same scanner as everywhere else.
			inner := string(runes[i+1 : len(runes)-1])
			end, depth := -1, 0
			syntax.Scan(inner, func(t lexer.Token) bool {
				depth += syntax.BracketDelta(t)
				if depth < 0 {
					end = t.Pos.Offset
					return false
				}
				return true
			})
			if end < 0 {
				c.errorf(at(i), "unclosed { in a string", "write {{ for a literal brace")
				return t
			}
			j := i + 1 + utf8.RuneCountInString(inner[:end])
			// A hole reaches expr-lang without the grammar: bound it as an input is.
			if d := syntax.CheckNesting(string(runes[i+1:j]), at(i+1), true); d != nil {
				c.Diags = append(c.Diags, d)
				return t
			}
			flush()
			e := c.CompileText(string(runes[i+1:j]), at(i+1), sc, nil)
			t.Parts = append(t.Parts, runtime.TemplatePart{Expr: e})
			i = j
		case r == '}':
			c.errorf(at(i), "unmatched } in a string", "write }} for a literal brace")
		default:
			lit.WriteRune(r)
		}
	}
	flush()
	return t
}
