package check

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"

	"github.com/alecthomas/participle/v2/lexer"
)

// parseTemplate splits a string token into literal text and the source of each hole, with
// the position where each hole's text starts in the file. It walks the token's bytes,
// counting runes for the columns: a slice of its runes, and the strings cut from it for
// every hole and every position, were most of what a template cost to check.
func (c *Compiler) parseTemplate(tok string, pos lexer.Position, sc *Scope) *runtime.Template {
	t := &runtime.Template{}
	if tok == "" {
		return t
	}
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			t.Parts = append(t.Parts, runtime.TemplatePart{Lit: lit.String()})
			lit.Reset()
		}
	}
	// at is the position of the i-th rune of the token, b its byte offset.
	at := func(i, b int) lexer.Position {
		p := pos
		p.Column += i
		p.Offset += b
		return p
	}
	// The text between the quotes: from the first rune's end to the last rune's start.
	_, first := utf8.DecodeRuneInString(tok)
	_, last := utf8.DecodeLastRuneInString(tok)
	end := len(tok) - last
	// i counts the runes of the token, b its bytes; r is the rune at b, next the one after
	// it (at worst the closing quote).
	for i, b := 1, first; b < end; {
		r, size := utf8.DecodeRuneInString(tok[b:])
		next, nsize := utf8.DecodeRuneInString(tok[b+size:])
		switch {
		case r == '\\' && b+size < end:
			switch next {
			case 'n':
				lit.WriteRune('\n')
			case 't':
				lit.WriteRune('\t')
			default:
				lit.WriteRune(next)
			}
			i, b = i+2, b+size+nsize
			continue
		case r == '{' && next == '{', r == '}' && next == '}':
			lit.WriteRune(r)
			i, b = i+2, b+2
			continue
		case r == '{':
			// The hole ends at the first } outside brackets and strings, found by the
			// same scanner as everywhere else.
			inner := tok[b+1 : end]
			close, depth := -1, 0
			syntax.Scan(inner, func(t lexer.Token) bool {
				depth += syntax.BracketDelta(t)
				if depth < 0 {
					close = t.Pos.Offset
					return false
				}
				return true
			})
			if close < 0 {
				c.errorf(at(i, b), "unclosed { in a string", "write {{ for a literal brace")
				return t
			}
			hole := inner[:close]
			// A hole reaches expr-lang without the grammar: bound it as an input is.
			if d := syntax.CheckNesting(hole, at(i+1, b+1), true); d != nil {
				c.Diags = append(c.Diags, d)
				return t
			}
			flush()
			e := c.CompileText(hole, at(i+1, b+1), sc, nil)
			t.Parts = append(t.Parts, runtime.TemplatePart{Expr: e})
			// On past the hole and its closing } (one byte).
			i, b = i+2+utf8.RuneCountInString(hole), b+2+close
			continue
		case r == '}':
			c.errorf(at(i, b), "unmatched } in a string", "write }} for a literal brace")
		default:
			lit.WriteRune(r)
		}
		i, b = i+1, b+size
	}
	flush()
	return t
}

// namePathRE matches what a template hole reading a name looks like: `{nom}`, `{a.arme.nom}`.
// Compiled on first use: its Unicode classes took most of the package's initialisation, paid
// by every command, `rulesh roll` included.
var namePathRE = &runtime.Lazy[*regexp.Regexp]{Build: func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*([\p{L}_][\p{L}\p{N}\p{Mn}_]*)(\.[\p{L}_][\p{L}\p{N}\p{Mn}_]*)*\s*$`)
}}

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
				m := namePathRE.Get().FindStringSubmatch(string(runes[i+1 : end]))
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
