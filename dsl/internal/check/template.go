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
	// The literal text between holes: runs of plain text are taken from the token whole
	// (a run alone is the part itself, not a copy), escapes and doubled braces written
	// into lit. Rune by rune, the literal text was most of the work of a template.
	var lit strings.Builder
	run := -1 // where the plain text pending in tok starts, or -1
	endRun := func(b int) {
		if run >= 0 {
			lit.WriteString(tok[run:b])
			run = -1
		}
	}
	flush := func(b int) {
		if run >= 0 && lit.Len() == 0 {
			t.Parts = append(t.Parts, runtime.TemplatePart{Lit: tok[run:b]})
			run = -1
			return
		}
		endRun(b)
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
			endRun(b)
			switch next {
			case 'n':
				lit.WriteByte('\n')
			case 't':
				lit.WriteByte('\t')
			default:
				lit.WriteRune(next)
			}
			i, b = i+2, b+size+nsize
			continue
		case r == '{' && next == '{', r == '}' && next == '}':
			endRun(b)
			lit.WriteRune(r)
			i, b = i+2, b+2
			continue
		case r == '{':
			// The hole ends at the first } outside brackets and strings, found by the
			// same scanner as everywhere else. A hole reaches expr-lang without the
			// grammar: it is bounded as an input is, in the same scan.
			inner := tok[b+1 : end]
			close, d := syntax.ScanHole(inner, at(i+1, b+1))
			if close < 0 {
				c.errorf(at(i, b), "unclosed { in a string", "write {{ for a literal brace")
				return t
			}
			if d != nil {
				c.Diags = append(c.Diags, d)
				return t
			}
			hole := inner[:close]
			flush(b)
			e := c.CompileText(hole, at(i+1, b+1), sc, nil)
			t.Parts = append(t.Parts, runtime.TemplatePart{Expr: e})
			// On past the hole and its closing } (one byte).
			i, b = i+2+utf8.RuneCountInString(hole), b+2+close
			continue
		case r == '}':
			endRun(b) // the brace is left out of the text
			c.errorf(at(i, b), "unmatched } in a string", "write }} for a literal brace")
		case r == utf8.RuneError && size == 1:
			endRun(b) // a byte that is no rune is written as the replacement character
			lit.WriteRune(r)
		case run < 0:
			run = b
		}
		i, b = i+1, b+size
	}
	flush(end)
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
