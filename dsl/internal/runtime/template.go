package runtime

import (
	"math"
	"slices"
	"strconv"
)

// Template is a string with `{expr}` holes: a string literal that is a statement's whole
// value (after emit, require … else, return, let and =).
// A literal brace is written `{{` or `}}`.
type Template struct {
	Parts []TemplatePart
	// slot is the template's index plus one among the program's templates that are an
	// expression's value (numberTemplates), where a machine keeps the text it gave last;
	// 0 for the others, kept in a map.
	slot int32
}

// TemplatePart is a run of literal text (Lit) or a hole (Expr), one or the other.
type TemplatePart struct {
	Lit  string
	Expr *Expr
}

// render gives the template's text as a string: built in one of the machine's buffers
// (renderTo), then copied once into a string of its exact length.
func (t *Template) render(m *Machine, f *Frame) (string, error) {
	switch {
	case len(t.Parts) == 1 && t.Parts[0].Expr == nil:
		return t.Parts[0].Lit, nil
	case len(t.Parts) == 1:
		// "{x}": a string is its own text, nothing to copy.
		v, err := m.eval(t.Parts[0].Expr, f)
		if err != nil {
			return "", err
		}
		return Str(v), nil
	}
	buf, err := t.renderTo(m, f, m.takeBuf())
	var s string
	if err == nil {
		s = string(buf)
	}
	m.putBuf(buf)
	return s, err
}

// value is render for a template that is an expression's value (let, return, =), its
// string boxed as a value. A template often renders the same text again (a roll's notation,
// a label): when the text is the one this machine last made of the template, the value is
// that one again, neither a string made nor one boxed. "{x}" of a string is x's own value.
func (t *Template) value(m *Machine, f *Frame) (any, error) {
	if len(t.Parts) == 1 {
		if t.Parts[0].Expr == nil {
			return t.Parts[0].Lit, nil
		}
		v, err := m.eval(t.Parts[0].Expr, f)
		if _, isStr := v.(string); isStr || err != nil {
			return v, err
		}
		return Str(v), nil
	}
	buf, err := t.renderTo(m, f, m.takeBuf())
	if err != nil {
		m.putBuf(buf)
		return nil, err
	}
	last := m.lastText(t)
	if s, _ := last.(string); last == nil || s != string(buf) {
		last = m.shortText(t, buf)
		if len(buf) <= maxKeptBuf { // a long text is not held for the rest of the run
			m.keepText(t, last)
		}
	}
	m.putBuf(buf)
	return last, nil
}

// maxShortText is the longest text the machine keeps among its short texts, and
// maxShortTexts how many it keeps: past that many, it forgets them all and starts again.
const (
	maxShortText  = 64
	maxShortTexts = 1024
)

// A template's credit (Machine.textCredits) rises by creditHit (up to creditMax) when its
// new text is one of the machine's short texts, and falls by one when it is not. At
// creditOff or below, its texts are not looked for (a counter's texts never repeat, and
// the look-up and the keeping would only add to each): the credit falls on at each
// rendering, and at creditRetry the template is tried again.
const (
	creditHit   = 4
	creditMax   = 64
	creditOff   = -16
	creditRetry = -64
)

// shortText gives the text in buf, a new text of the template t, boxed as a value: the box
// of it the machine kept when it is one of its short texts, else a new one, kept when the
// text is short.
func (m *Machine) shortText(t *Template, buf []byte) any {
	i := int(t.slot) - 1
	if i < 0 || len(buf) > maxShortText {
		return string(buf)
	}
	if i >= len(m.textCredits) {
		m.textCredits = slices.Grow(m.textCredits, max(i+1, int(m.prog.templates))-len(m.textCredits))
		m.textCredits = m.textCredits[:cap(m.textCredits)]
	}
	c := &m.textCredits[i]
	if *c <= creditOff {
		if *c--; *c > creditRetry {
			return string(buf)
		}
		*c = creditOff + 1
	}
	if v, ok := m.shortTexts[string(buf)]; ok {
		*c = min(*c+creditHit, creditMax)
		return v
	}
	*c--
	if m.shortTexts == nil || len(m.shortTexts) >= maxShortTexts {
		m.shortTexts = make(map[string]any, 64)
	}
	s := string(buf)
	v := any(s)
	m.shortTexts[s] = v
	return v
}

// lastText is the text this machine last made of t (value), nil before the first.
func (m *Machine) lastText(t *Template) any {
	if i := int(t.slot); i > 0 {
		if i <= len(m.textSlots) {
			return m.textSlots[i-1]
		}
		return nil
	}
	return m.texts[t]
}

// keepText keeps v as the text this machine last made of t: by the template's slot, a
// program's templates all at once (no hashing of the template on each rendering), the
// others (an expression typed at the REPL) in a map. Two templates with one slot (from
// two programs) only miss each other's text: value compares the text before it reuses it.
func (m *Machine) keepText(t *Template, v any) {
	if i := int(t.slot); i > 0 {
		if i > len(m.textSlots) {
			m.textSlots = slices.Grow(m.textSlots, max(i, int(m.prog.templates))-len(m.textSlots))
			m.textSlots = m.textSlots[:cap(m.textSlots)]
		}
		m.textSlots[i-1] = v
		return
	}
	if m.texts == nil {
		m.texts = map[*Template]any{}
	}
	m.texts[t] = v
}

// renderTo appends the template's text to buf. A hole may call a rule that renders
// templates of its own: each rendering takes its own buffer (takeBuf).
func (t *Template) renderTo(m *Machine, f *Frame, buf []byte) ([]byte, error) {
	for _, p := range t.Parts {
		if p.Expr == nil {
			buf = append(buf, p.Lit...)
			continue
		}
		v, err := m.eval(p.Expr, f)
		if err != nil {
			return buf, err
		}
		buf = AppendStr(buf, v)
	}
	return buf, nil
}

// maxKeptBuf is the largest rendering buffer a machine keeps for the next rendering: a
// line that printed a whole state does not hold its memory for the rest of the run.
const maxKeptBuf = 4 << 10

// takeBuf gives an empty buffer to render a template into, one of the machine's when it
// has one free; putBuf gives it back. Renderings nest (a hole calls a rule that emits), so
// the free buffers are a stack and each rendering holds its own until it is done.
func (m *Machine) takeBuf() []byte {
	if n := len(m.tbufs); n > 0 {
		b := m.tbufs[n-1]
		m.tbufs = m.tbufs[:n-1]
		return b
	}
	return make([]byte, 0, 128)
}

func (m *Machine) putBuf(b []byte) {
	if cap(b) <= maxKeptBuf {
		m.tbufs = append(m.tbufs, b[:0])
	}
}

// AppendStr appends Str(v) to b: a template's holes written where the line is built, not
// each made a string of its own first.
func AppendStr(b []byte, v any) []byte {
	switch x := v.(type) {
	case string:
		return append(b, x...)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case bool:
		return strconv.AppendBool(b, x)
	case *Roll:
		if sym := x.Symbol(); sym != "" {
			return append(b, sym...)
		}
		if x.result.IsBool {
			return strconv.AppendBool(b, x.Bool)
		}
		return strconv.AppendInt(b, int64(x.Total), 10)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return appendWhole(b, x)
		}
	case []any, map[string]any:
		// Records, maps and lists print as Repr does, their size bound counted from the
		// hole, straight into b.
		return appendRepr(b, v)
	case Appender:
		return x.AppendTo(b)
	}
	return append(b, Str(v)...)
}

// appendWhole appends a whole float below 1e15 as strconv.AppendFloat(b, x, 'f', 0, 64)
// does, from its int: a distance or a mean in a line (every such float is an int exactly),
// without the float's formatting. Negative zero keeps its sign.
func appendWhole(b []byte, x float64) []byte {
	if x == 0 && math.Signbit(x) {
		return append(b, "-0"...)
	}
	return strconv.AppendInt(b, int64(x), 10)
}
