package runtime

import (
	"strings"
)

// Template is a string with `{expr}` holes: a string literal that is a statement's whole
// value (after emit, require … else, return, let and =).
// A literal brace is written `{{` or `}}`.
type Template struct {
	Parts []TemplatePart
}

// TemplatePart is a run of literal text (Lit) or a hole (Expr), one or the other.
type TemplatePart struct {
	Lit  string
	Expr *Expr
}

func (t *Template) render(m *Machine, f *Frame) (string, error) {
	if len(t.Parts) == 1 && t.Parts[0].Expr == nil {
		return t.Parts[0].Lit, nil
	}
	var b strings.Builder
	b.Grow(t.size())
	for _, p := range t.Parts {
		if p.Expr == nil {
			b.WriteString(p.Lit)
			continue
		}
		v, err := m.eval(p.Expr, f)
		if err != nil {
			return "", err
		}
		WriteStr(&b, v)
	}
	return b.String(), nil
}

// size guesses the length of a rendering, so that the builder grows once: the literal text
// and a dozen bytes a hole.
func (t *Template) size() int {
	n := 0
	for _, p := range t.Parts {
		n += len(p.Lit)
		if p.Expr != nil {
			n += 12
		}
	}
	return n
}
