package check

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"

	"github.com/alecthomas/participle/v2/lexer"
)

// parseTemplate splits a string token into literal text and the source of each hole, with
// the position where each hole's text starts in the file.
func (c *Compiler) parseTemplate(tok string, pos lexer.Position, sc *Scope) *runtime.Template {
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

// namePathRE matches what a template hole reading a name looks like: `{nom}`, `{a.arme.nom}`.
// Compiled on first use: its Unicode classes took most of the package's initialisation, paid
// by every command, `rulesh roll` included.
var namePathRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*([\p{L}_][\p{L}\p{N}\p{Mn}_]*)(\.[\p{L}_][\p{L}\p{N}\p{Mn}_]*)*\s*$`)
})

// literalHoles warns on a `{name}` in a string literal inside an expression: only a string
// that is a statement's whole value is a template, so this one is shown as written. Only a
// name the expression can see counts (a local, a parameter or a global): `{4d10, 5d6}` in a
// dice group or a `{nom}` meant as text are left alone.
func (c *Compiler) literalHoles(x *runtime.Expr, sc *Scope) {
	syntax.Scan(x.Text, func(t lexer.Token) bool {
		if t.Type != syntax.TokString || !strings.Contains(t.Value, "{") {
			return true
		}
		runes := []rune(t.Value)
		for i := 1; i < len(runes)-1; i++ {
			switch {
			case runes[i] == '\\':
				i++
			case runes[i] == '{' && runes[i+1] == '{':
				i++
			case runes[i] == '{':
				end := i + 1
				for end < len(runes)-1 && runes[end] != '}' {
					end++
				}
				if end == len(runes)-1 {
					return true
				}
				m := namePathRE().FindStringSubmatch(string(runes[i+1 : end]))
				if m == nil || !c.visible(m[1], sc) {
					i = end
					continue
				}
				hole := string(runes[i : end+1])
				at := x.PosAt(utf8.RuneCountInString(x.Text[:t.Pos.Offset]) + i)
				c.Diags = append(c.Diags, &syntax.Diagnostic{Severity: Warning, Pos: syntax.PosOf(at),
					End:     syntax.After(syntax.PosOf(at), hole),
					Summary: hole + " is not interpolated in a string inside an expression",
					Detail: "only a string that is a statement's whole value (after emit, require … else, return, let or =) is a template; " +
						"give this one its own let (let texte = \"…" + hole + "…\"), or join it: \"…\" + str(" + strings.TrimSpace(hole[1:len(hole)-1]) + ") + \"…\""})
				i = end
			}
		}
		return true
	})
}

// visible says whether a name is a local, a parameter or a global where sc stands.
func (c *Compiler) visible(name string, sc *Scope) bool {
	if _, ok := sc.lookup(name); ok {
		return true
	}
	_, ok := c.prog.Globals[name]
	return ok
}
