package dsl

import (
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"

	"rulesh/dsl/internal/check"
	"rulesh/dsl/internal/exprx"
	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
)

// Symbol is one declaration of a rule file, as an editor shows it: an outline entry, a hover,
// the target of a "go to definition". Symbols come from the parse alone (Outline), so a file
// that does not check still has them.
type Symbol struct {
	Name string
	// Sort is the declaration's keyword (action, rule, table, kind, enum, entity, dice,
	// option, const, deck, pile, map), or field (of a kind), value (of an enum), param (of
	// a procedure or table).
	Sort string
	// Pos and End delimit the name (End just past it); Start and Stop the whole declaration
	// (Stop just past its last character).
	Pos, End, Start, Stop Pos
	// Container is the kind of a field, the enum of a value, the procedure of a parameter.
	Container string
	// Type is a field's or a parameter's declared type, an entity's kind, a procedure's
	// result type; "" when not written.
	Type string
	// Doc is the comment just above the declaration (its `//` lines, markers removed), or
	// for an option its doc string.
	Doc string
	// Text is the declaration as written: its first line for a procedure, an option, a
	// field, a parameter; the whole of it for a table, a die, a kind, an enum, a deck, a map.
	Text string
}

// Outline parses one rule file, without checking it, and lists its declarations in order
// (each kind followed by its fields, each enum by its values, each procedure by its
// parameters) and the files it includes, as written. A file that does not parse gives its
// first syntax error and nothing else. Outline never panics on any input.
func Outline(name string, src []byte) (syms []Symbol, includes []string, err *Diagnostic) {
	f, d := syntax.Parse(name, src)
	if d != nil {
		return nil, nil, d
	}
	o := outliner{name: name, src: src, text: string(src), lines: lineStarts(src)}
	for _, decl := range f.Decls {
		switch {
		case decl.Include != nil:
			if p, ok := syntax.Unquote(decl.Include.Path); ok {
				includes = append(includes, p)
			}
		case decl.Proc != nil:
			p := decl.Proc
			s := o.symbol(p.Name, p.Verb, p.Pos, false)
			s.Stop = o.pos(o.declEnd(o.offset(s.Start)))
			if p.Result != nil {
				s.Type = o.typeText(p.Result)
			}
			syms = append(syms, s)
			syms = append(syms, o.params(p.Name, p.Params)...)
		case decl.Table != nil:
			t := decl.Table
			syms = append(syms, o.symbol(t.Name, "table", t.Pos, true))
			syms = append(syms, o.params(t.Name, t.Params)...)
		case decl.Kind != nil:
			k := decl.Kind
			syms = append(syms, o.symbol(k.Name, "kind", k.Pos, true))
			for _, fd := range k.Fields {
				s := o.symbol(fd.Name, "field", fd.Pos, false)
				s.Container, s.Type = k.Name, o.typeText(fd.Type)
				syms = append(syms, s)
			}
		case decl.Enum != nil:
			e := decl.Enum
			syms = append(syms, o.symbol(e.Name, "enum", e.Pos, true))
			for _, v := range e.Values {
				s := o.symbol(v.Name, "value", v.Pos, false)
				s.Container, s.Text, s.Doc = e.Name, e.Name+"."+v.Name, ""
				syms = append(syms, s)
			}
		case decl.Entity != nil:
			s := o.symbol(decl.Entity.Name, "entity", decl.Entity.Pos, true)
			s.Type = decl.Entity.Kind
			syms = append(syms, s)
		case decl.Dice != nil:
			syms = append(syms, o.symbol(decl.Dice.Name, "dice", decl.Dice.Pos, true))
		case decl.Option != nil:
			op := decl.Option
			s := o.symbol(op.Name, "option", op.Pos, false)
			if toks := op.Value.Toks; len(toks) > 1 && toks[len(toks)-1].Type == syntax.TokString {
				if doc, ok := syntax.Unquote(toks[len(toks)-1].Value); ok {
					s.Doc = doc
				}
			}
			syms = append(syms, s)
		case decl.Const != nil:
			syms = append(syms, o.symbol(decl.Const.Name, "const", decl.Const.Pos, false))
		case decl.Deck != nil:
			syms = append(syms, o.symbol(decl.Deck.Name, "deck", decl.Deck.Pos, true))
		case decl.Pile != nil:
			syms = append(syms, o.symbol(decl.Pile.Name, "pile", decl.Pile.Pos, false))
		case decl.Map != nil:
			syms = append(syms, o.symbol(decl.Map.Name, "map", decl.Map.Pos, true))
		}
	}
	return syms, includes, nil
}

// Keywords lists the reserved words of the language, sorted.
func Keywords() []string { return check.ReservedWords() }

// IsReserved says why a rule file cannot declare name, as the checker would refuse it
// ("it is not a name …", "it starts with __, which is reserved", "it is a keyword", "it is
// a builtin"), or "" when it can. A builtin is refused for a top-level declaration, which
// would clash with it, and hides it when a parameter or a local takes its name; a field or
// an enum value, read after a dot, may take it (see IsBuiltin).
func IsReserved(name string) (why string) {
	switch {
	case !runtime.IdentRE.Get().MatchString(name):
		return "it is not a name (names are letters, digits and _, starting with a letter)"
	case strings.HasPrefix(name, "__"):
		return "it starts with __, which is reserved"
	case check.IsReservedWord(name):
		return "it is a keyword"
	case IsBuiltin(name):
		return "it is a builtin"
	}
	return ""
}

// IsBuiltin reports whether name is a function every rule may call (len, sum, d, roll…):
// the library's and expr-lang's, as the checker knows them.
func IsBuiltin(name string) bool { return exprx.FuncNames(library.Get())[name] }

// Name is one name written in a rule file, a use or a declaration: an identifier outside
// strings and comments, or inside a string's template hole (`emit "{x.pv}"`).
type Name struct {
	Name     string
	Pos, End Pos
	// AfterDot says the name follows a `.`: a field or an enum value (`x.pv`, `Allure.largue`).
	AfterDot bool
}

// Names lists every name of a rule file or input, in order, reserved words left out. It uses
// the tolerant scanner, so a half-typed file has its names too.
func Names(name string, src []byte) []Name {
	lines := lineStarts(src)
	var out []Name
	var scan func(text string, base int)
	scan = func(text string, base int) {
		var prev lexer.Token
		syntax.Scan(text, func(t lexer.Token) bool {
			off := base + t.Pos.Offset
			switch t.Type {
			case syntax.TokIdent, syntax.TokDice:
				if t.Type == syntax.TokIdent && check.IsReservedWord(t.Value) || !isName(t.Value) {
					break
				}
				out = append(out, Name{
					Name:     t.Value,
					Pos:      posAt(name, src, lines, off),
					End:      posAt(name, src, lines, off+len(t.Value)),
					AfterDot: prev.Value == ".",
				})
			case syntax.TokString:
				// Template holes, in strings written without escapes (where the token's
				// text and the string's value line up).
				if !strings.ContainsRune(t.Value, '\\') && len(t.Value) >= 2 {
					for _, h := range holes(t.Value[1 : len(t.Value)-1]) {
						scan(t.Value[1+h[0]:1+h[1]], off+1+h[0])
					}
				}
			}
			prev = t
			return true
		})
	}
	scan(string(src), 0)
	return out
}

// isName tells a name from the other words the Dice token covers (3d6, d%).
func isName(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > utf8.RuneSelf && r != utf8.RuneError
}

// holes returns the byte ranges of the template holes of a string's text: `{…}`, `{{` and
// `}}` being literal braces.
func holes(s string) [][2]int {
	var out [][2]int
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], "{{") || strings.HasPrefix(s[i:], "}}"):
			i++
		case s[i] == '{':
			depth := 0
			for j := i; j < len(s); j++ {
				if s[j] == '{' {
					depth++
				} else if s[j] == '}' {
					depth--
					if depth == 0 {
						out = append(out, [2]int{i + 1, j})
						i = j
						break
					}
				}
			}
			if depth != 0 {
				return out
			}
		}
	}
	return out
}

type outliner struct {
	name  string
	src   []byte
	text  string // src once as a string: its slices copy nothing
	lines []int
}

func (o *outliner) pos(off int) Pos { return posAt(o.name, o.src, o.lines, off) }

// symbol builds a declaration's symbol: its name is the first occurrence of name from p on
// (the keyword comes first), its extent one line or, when whole, up to the newline that ends
// it at bracket depth 0.
func (o *outliner) symbol(name, sort string, p lexer.Position, whole bool) Symbol {
	start := min(max(p.Offset, 0), len(o.src))
	at := start
	if sort != "field" && sort != "param" && sort != "value" {
		// Past the keyword and the blanks after it stands the name.
		rest := o.text[start:]
		i := strings.IndexAny(rest, " \t")
		if i < 0 {
			i = len(rest)
		}
		at = start + i + len(rest[i:]) - len(strings.TrimLeft(rest[i:], " \t"))
	}
	stop := o.lineEnd(start)
	if whole {
		stop = o.declEnd(start)
	}
	text := strings.TrimRight(o.text[start:stop], " \t\r\n")
	return Symbol{
		Name: name, Sort: sort,
		Pos: o.pos(at), End: o.pos(at + len(name)),
		Start: o.pos(start), Stop: o.pos(stop),
		Doc: o.docAbove(start), Text: text,
	}
}

func (o *outliner) params(container string, ps []*syntax.Param) []Symbol {
	var out []Symbol
	for _, p := range ps {
		s := o.symbol(p.Name, "param", p.Pos, false)
		s.Container, s.Doc = container, ""
		if p.Type != nil {
			s.Type = o.typeText(p.Type)
		}
		end := o.pos(p.Pos.Offset + len(p.Name))
		if p.Default != nil {
			end = o.pos(p.Default.EndPos.Offset)
		} else if p.Type != nil {
			end = o.pos(p.Type.Pos.Offset + len(s.Type))
		}
		s.Stop = end
		s.Text = o.text[min(p.Pos.Offset, len(o.src)):min(max(p.Pos.Offset, o.offset(end)), len(o.src))]
		out = append(out, s)
	}
	return out
}

func (o *outliner) offset(p Pos) int {
	if p.Line < 1 || p.Line > len(o.lines) {
		return len(o.src)
	}
	off := o.lines[p.Line-1]
	for c := 1; c < p.Col && off < len(o.src); c++ {
		_, size := utf8.DecodeRune(o.src[off:])
		off += size
	}
	return off
}

func (o *outliner) typeText(t *syntax.TypeRef) string {
	switch {
	case t == nil:
		return ""
	case t.List:
		return "[]" + t.Name
	case t.Key != nil && t.Value != nil:
		return t.Name + "[" + o.typeText(t.Key) + "]" + o.typeText(t.Value)
	}
	return t.Name
}

func (o *outliner) lineEnd(off int) int {
	if i := strings.IndexByte(o.text[off:], '\n'); i >= 0 {
		return off + i
	}
	return len(o.src)
}

// declEnd is where a declaration starting at off ends: the newline at bracket depth 0 after
// its first bracket closed, or the end of its line when it opens none.
func (o *outliner) declEnd(off int) int {
	end, depth := len(o.src), 0
	syntax.Scan(o.text[off:], func(t lexer.Token) bool {
		depth += syntax.BracketDelta(t)
		if t.Type == syntax.TokNewline && depth <= 0 {
			end = off + t.Pos.Offset
			return false
		}
		return true
	})
	return end
}

// docAbove gathers the `//` lines right above the line holding off, up to a blank line or
// code.
func (o *outliner) docAbove(off int) string {
	line := o.pos(off).Line - 1
	var doc []string
	for l := line - 1; l >= 0; l-- {
		end := len(o.src)
		if l+1 < len(o.lines) {
			end = o.lines[l+1]
		}
		text := strings.TrimSpace(o.text[o.lines[l]:end])
		if !strings.HasPrefix(text, "//") {
			break
		}
		doc = append(doc, strings.TrimSpace(strings.TrimPrefix(text, "//")))
	}
	for i, j := 0, len(doc)-1; i < j; i, j = i+1, j-1 {
		doc[i], doc[j] = doc[j], doc[i]
	}
	return strings.Join(doc, "\n")
}

// lineStarts returns the byte offset where each line starts.
func lineStarts(src []byte) []int {
	out := []int{0}
	for i, b := range src {
		if b == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}

// posAt converts a byte offset into a position, the column counted in runes.
func posAt(name string, src []byte, lines []int, off int) Pos {
	off = min(max(off, 0), len(src))
	lo, hi := 0, len(lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if lines[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return Pos{File: name, Line: lo + 1, Col: utf8.RuneCount(src[lines[lo]:off]) + 1}
}
