package lsp

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"rulesh/dsl"
)

// A decl is a declaration found in the ruleset, with its file.
type decl struct {
	f   *file
	sym *dsl.Symbol
}

func (d decl) same(e decl) bool { return d.f == e.f && d.sym.Pos == e.sym.Pos }

// topLevel reports whether a symbol is a declaration at the top of a file.
func topLevel(s *dsl.Symbol) bool {
	return s.Sort != "field" && s.Sort != "value" && s.Sort != "param"
}

// at opens the ruleset of a document and finds the position in it.
func (s *server) at(uri string, p protocol.Position) (*workspace, *file, int, int) {
	path := uriPath(uri)
	w := s.snapshot(path)
	f := w.byPath[path]
	line, col := f.pos(p)
	return w, f, line, col
}

// find lists the declarations of the workspace that match.
func (w *workspace) find(match func(*dsl.Symbol) bool) []decl {
	var out []decl
	for _, f := range w.files {
		for i := range f.syms {
			if match(&f.syms[i]) {
				out = append(out, decl{f, &f.syms[i]})
			}
		}
	}
	return out
}

// enclosing is the procedure or table of f whose declaration holds line:col, or nil.
func (f *file) enclosing(line, col int) *dsl.Symbol {
	for i := range f.syms {
		s := &f.syms[i]
		if (s.Sort == "action" || s.Sort == "rule" || s.Sort == "table") && within(line, col, s.Start, s.Stop) {
			return s
		}
	}
	return nil
}

// chainBefore reads the names joined by dots that end just before rune column col of a line
// (`a.b.` before col gives [a b]), or nil when no dot stands there.
func chainBefore(line string, col int) []string {
	rs := []rune(line)
	i := min(col-1, len(rs))
	var chain []string
	for i > 0 && rs[i-1] == '.' {
		j := i - 1
		k := j
		for k > 0 && isNameRune(rs[k-1]) {
			k--
		}
		if k == j {
			return nil
		}
		chain = append([]string{string(rs[k:j])}, chain...)
		i = k
	}
	return chain
}

func isNameRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// typeOf follows a chain of names (`ariane.arme`) from where it is written to the kind of
// record or the enum it ends on; "" when the types are not written down.
func (w *workspace) typeOf(f *file, line, col int, chain []string) (kind string, enum bool) {
	if len(chain) == 0 {
		return "", false
	}
	head := chain[0]
	t := ""
	if p := f.enclosing(line, col); p != nil {
		for _, d := range w.find(func(s *dsl.Symbol) bool { return s.Sort == "param" && s.Container == p.Name && s.Name == head }) {
			t = d.sym.Type
		}
	}
	if t == "" {
		for _, d := range w.find(func(s *dsl.Symbol) bool { return topLevel(s) && s.Name == head }) {
			switch d.sym.Sort {
			case "entity":
				t = d.sym.Type
			case "enum":
				if len(chain) == 1 {
					return head, true
				}
			}
		}
	}
	for _, name := range chain[1:] {
		if t == "" {
			return "", false
		}
		next := ""
		for _, d := range w.find(func(s *dsl.Symbol) bool { return s.Sort == "field" && s.Container == t && s.Name == name }) {
			next = d.sym.Type
		}
		t = next
	}
	return t, false
}

// resolve finds what a name written in f stands for: a declaration's own name, a field
// set in an entity, a field or an enum value after a dot, a parameter of the enclosing
// procedure, a top-level declaration. A field whose record type is not written down
// resolves to every field of that name.
func (w *workspace) resolve(f *file, n *dsl.Name) []decl {
	for i := range f.syms {
		if f.syms[i].Pos == n.Pos {
			return []decl{{f, &f.syms[i]}}
		}
	}
	line, col := n.Pos.Line, n.Pos.Col
	if n.AfterDot {
		chain := chainBefore(f.lines[line-1], col)
		kind, enum := w.typeOf(f, line, col, chain)
		switch {
		case enum:
			return w.find(func(s *dsl.Symbol) bool { return s.Sort == "value" && s.Container == kind && s.Name == n.Name })
		case kind != "":
			return w.find(func(s *dsl.Symbol) bool { return s.Sort == "field" && s.Container == kind && s.Name == n.Name })
		}
		return w.find(func(s *dsl.Symbol) bool { return s.Sort == "field" && s.Name == n.Name })
	}
	// A field set in an entity's braces: `pv: 12`.
	for i := range f.syms {
		e := &f.syms[i]
		if e.Sort == "entity" && within(line, col, e.Start, e.Stop) && before(e.End, n.Pos) && followedBySep(f.lines[line-1], n.End.Col) {
			if ds := w.find(func(s *dsl.Symbol) bool { return s.Sort == "field" && s.Container == e.Type && s.Name == n.Name }); len(ds) > 0 {
				return ds
			}
		}
	}
	if p := f.enclosing(line, col); p != nil {
		var out []decl
		for i := range f.syms {
			s := &f.syms[i]
			if s.Sort == "param" && s.Container == p.Name && s.Name == n.Name && within(s.Pos.Line, s.Pos.Col, p.Start, p.Stop) {
				out = append(out, decl{f, s})
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return w.find(func(s *dsl.Symbol) bool { return topLevel(s) && s.Name == n.Name })
}

// followedBySep reports whether a `:` or `=` follows rune column col of line (blanks
// between).
func followedBySep(line string, col int) bool {
	rs := []rune(line)
	for i := col - 1; i < len(rs); i++ {
		switch rs[i] {
		case ' ', '\t':
			continue
		case ':':
			return true
		case '=':
			return i+1 >= len(rs) || rs[i+1] != '='
		}
		return false
	}
	return false
}

// references lists every name of the ruleset that stands for one of the targets, the
// declarations included, in the order of the files and of the text.
func (w *workspace) references(targets []decl) []decl {
	var out []decl
	names := map[string]bool{}
	for _, t := range targets {
		names[t.sym.Name] = true
	}
	for _, f := range w.files {
		for i := range f.names {
			n := &f.names[i]
			if !names[n.Name] {
				continue
			}
			for _, d := range w.resolve(f, n) {
				if hit(d, targets) {
					out = append(out, decl{f, &dsl.Symbol{Name: n.Name, Pos: n.Pos, End: n.End}})
					break
				}
			}
		}
	}
	return out
}

func hit(d decl, targets []decl) bool {
	for _, t := range targets {
		if d.same(t) {
			return true
		}
	}
	return false
}

func (s *server) definition(_ *glsp.Context, p *protocol.DefinitionParams) (any, error) {
	w, f, line, col := s.at(p.TextDocument.URI, p.Position)
	n := f.nameAt(line, col)
	if n == nil {
		return nil, nil
	}
	locs := []protocol.Location{}
	for _, d := range w.resolve(f, n) {
		locs = append(locs, protocol.Location{URI: d.f.uri, Range: d.f.rangeOf(d.sym.Pos, d.sym.End)})
	}
	return locs, nil
}

func (s *server) references(_ *glsp.Context, p *protocol.ReferenceParams) ([]protocol.Location, error) {
	w, f, line, col := s.at(p.TextDocument.URI, p.Position)
	n := f.nameAt(line, col)
	locs := []protocol.Location{}
	if n == nil {
		return locs, nil
	}
	targets := w.resolve(f, n)
	for _, r := range w.references(targets) {
		if !p.Context.IncludeDeclaration && hit(decl{r.f, r.sym}, targets) {
			continue
		}
		locs = append(locs, protocol.Location{URI: r.f.uri, Range: r.f.rangeOf(r.sym.Pos, r.sym.End)})
	}
	return locs, nil
}

func (s *server) rename(_ *glsp.Context, p *protocol.RenameParams) (*protocol.WorkspaceEdit, error) {
	w, f, line, col := s.at(p.TextDocument.URI, p.Position)
	n := f.nameAt(line, col)
	if n == nil {
		return nil, errorf("no name to rename here")
	}
	targets := w.resolve(f, n)
	if len(targets) == 0 {
		return nil, errorf("%s is not declared in the ruleset", n.Name)
	}
	if err := w.canRename(targets, p.NewName); err != nil {
		return nil, err
	}
	changes := map[string][]protocol.TextEdit{}
	for _, r := range w.references(targets) {
		changes[r.f.uri] = append(changes[r.f.uri], protocol.TextEdit{Range: r.f.rangeOf(r.sym.Pos, r.sym.End), NewText: p.NewName})
	}
	return &protocol.WorkspaceEdit{Changes: changes}, nil
}

// canRename refuses a new name the checker would refuse for the declarations renamed: a
// keyword, a non-name, a __ prefix, a builtin (except for a field or an enum value, read
// after a dot), a name declared already in the same scope, and a name a parameter and a
// top-level declaration would then share (the checker says the parameter hides it).
// Locals are not in the outline: a clash with one is left to the check that follows.
func (w *workspace) canRename(targets []decl, name string) error {
	shown := name
	if name == "" || unicode.IsDigit([]rune(name)[0]) || strings.ContainsFunc(name, func(r rune) bool { return !isNameRune(r) }) {
		shown = strconv.Quote(name)
	}
	refuse := func(why string) error { return errorf("cannot rename to %s: %s", shown, why) }
	at := func(d decl) string { return fmt.Sprintf("%s:%d", filepath.Base(d.f.path), d.sym.Pos.Line) }
	for _, t := range targets {
		if t.sym.Name == name {
			continue // nothing changes
		}
		if why := dsl.IsReserved(name); why != "" {
			afterDot := t.sym.Sort == "field" || t.sym.Sort == "value"
			if !afterDot || !dsl.IsBuiltin(name) {
				return refuse(why)
			}
		}
		var same func(*dsl.Symbol) bool
		switch {
		case topLevel(t.sym):
			same = topLevel
		case t.sym.Sort == "param":
			// Parameters of the same procedure or table: the same container, declared
			// within the same declaration (two procedures may share a name by mistake).
			proc := t.f.enclosing(t.sym.Pos.Line, t.sym.Pos.Col)
			same = func(s *dsl.Symbol) bool {
				return s.Sort == "param" && s.Container == t.sym.Container && (proc == nil || within(s.Pos.Line, s.Pos.Col, proc.Start, proc.Stop))
			}
		default: // a field of a kind, a value of an enum
			same = func(s *dsl.Symbol) bool { return s.Sort == t.sym.Sort && s.Container == t.sym.Container }
		}
		for _, d := range w.find(func(s *dsl.Symbol) bool { return s.Name == name && same(s) }) {
			if !hit(d, targets) {
				return refuse("it is already declared at " + at(d))
			}
		}
		// A parameter may not take the name of an option, a const, a kind, an enum or a
		// procedure (check: "hides the … declared at …").
		hidden := func(s *dsl.Symbol) bool {
			switch s.Sort {
			case "option", "const", "kind", "enum", "action", "rule":
				return true
			}
			return false
		}
		switch {
		case t.sym.Sort == "param":
			for _, d := range w.find(func(s *dsl.Symbol) bool { return s.Name == name && topLevel(s) && hidden(s) }) {
				return refuse(fmt.Sprintf("the parameter would hide the %s declared at %s", d.sym.Sort, at(d)))
			}
		case hidden(t.sym):
			for _, d := range w.find(func(s *dsl.Symbol) bool { return s.Name == name && s.Sort == "param" }) {
				return refuse(fmt.Sprintf("the parameter %s of %s at %s would hide it", name, d.sym.Container, at(d)))
			}
		}
	}
	return nil
}

func (s *server) formatting(_ *glsp.Context, p *protocol.DocumentFormattingParams) ([]protocol.TextEdit, error) {
	path := uriPath(p.TextDocument.URI)
	s.mu.Lock()
	d := s.docs[path]
	s.mu.Unlock()
	if d == nil {
		return nil, errNoFile
	}
	if tooLarge(d.text) {
		return []protocol.TextEdit{}, nil // its one diagnostic says why
	}
	out, err := dsl.Format(path, []byte(d.text))
	if err != nil {
		// The diagnostics already say why; an editor formats nothing.
		return []protocol.TextEdit{}, nil
	}
	if string(out) == d.text {
		return []protocol.TextEdit{}, nil
	}
	f := &file{lines: strings.Split(d.text, "\n")}
	return []protocol.TextEdit{{
		Range:   protocol.Range{Start: protocol.Position{}, End: f.endPosition()},
		NewText: string(out),
	}}, nil
}

// symbolKind is the protocol's kind of symbol for a sort of declaration, 0 for another. (A
// switch: a map is built at every start of the program, for every command.)
func symbolKind(s string) protocol.SymbolKind {
	switch s {
	case "action", "rule":
		return protocol.SymbolKindFunction
	case "table":
		return protocol.SymbolKindStruct
	case "kind":
		return protocol.SymbolKindClass
	case "field":
		return protocol.SymbolKindField
	case "enum":
		return protocol.SymbolKindEnum
	case "value":
		return protocol.SymbolKindEnumMember
	case "entity":
		return protocol.SymbolKindObject
	case "dice", "deck", "pile":
		return protocol.SymbolKindArray
	case "option":
		return protocol.SymbolKindProperty
	case "const":
		return protocol.SymbolKindConstant
	case "map":
		return protocol.SymbolKindModule
	case "param":
		return protocol.SymbolKindVariable
	}
	return 0
}

func (s *server) documentSymbol(_ *glsp.Context, p *protocol.DocumentSymbolParams) (any, error) {
	path := uriPath(p.TextDocument.URI)
	w := s.snapshot(path)
	f := w.byPath[path]
	out := []protocol.DocumentSymbol{}
	for i := range f.syms {
		sym := &f.syms[i]
		ds := protocol.DocumentSymbol{
			Name:           sym.Name,
			Detail:         ptr(sym.Sort),
			Kind:           symbolKind(sym.Sort),
			Range:          f.rangeOf(sym.Start, sym.Stop),
			SelectionRange: f.rangeOf(sym.Pos, sym.End),
		}
		if sym.Type != "" {
			ds.Detail = ptr(sym.Sort + " " + sym.Type)
		}
		if !topLevel(sym) && len(out) > 0 {
			parent := &out[len(out)-1]
			parent.Children = append(parent.Children, ds)
			continue
		}
		out = append(out, ds)
	}
	return out, nil
}

// maxHoverLines bounds the declaration shown on hover (a long table).
const maxHoverLines = 30

// describe renders a declaration for a hover or a completion's documentation: the
// declaration as written, then its doc comment.
func describe(sym *dsl.Symbol) string {
	text := sym.Text
	if lines := strings.Split(text, "\n"); len(lines) > maxHoverLines {
		text = strings.Join(lines[:maxHoverLines], "\n") + "\n…"
	}
	var b strings.Builder
	b.WriteString("```rules\n" + text + "\n```")
	switch sym.Sort {
	case "field":
		b.WriteString("\n\nfield of " + sym.Container)
	case "param":
		b.WriteString("\n\nparameter of " + sym.Container)
	}
	if sym.Doc != "" {
		b.WriteString("\n\n" + sym.Doc)
	}
	return b.String()
}

func (s *server) hover(_ *glsp.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	w, f, line, col := s.at(p.TextDocument.URI, p.Position)
	n := f.nameAt(line, col)
	if n == nil {
		return nil, nil
	}
	ds := w.resolve(f, n)
	if len(ds) == 0 {
		return nil, nil
	}
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = describe(d.sym)
	}
	r := f.rangeOf(n.Pos, n.End)
	return &protocol.Hover{
		Contents: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: strings.Join(parts, "\n\n---\n\n")},
		Range:    &r,
	}, nil
}

// completionKind is the protocol's kind of completion for a sort of declaration, 0 for
// another.
func completionKind(s string) protocol.CompletionItemKind {
	switch s {
	case "action", "rule", "table":
		return protocol.CompletionItemKindFunction
	case "kind":
		return protocol.CompletionItemKindClass
	case "field":
		return protocol.CompletionItemKindField
	case "enum":
		return protocol.CompletionItemKindEnum
	case "value":
		return protocol.CompletionItemKindEnumMember
	case "entity", "deck", "pile", "param":
		return protocol.CompletionItemKindVariable
	case "dice":
		return protocol.CompletionItemKindValue
	case "option":
		return protocol.CompletionItemKindProperty
	case "const":
		return protocol.CompletionItemKindConstant
	case "map":
		return protocol.CompletionItemKindModule
	}
	return 0
}

func item(sym *dsl.Symbol) protocol.CompletionItem {
	detail := sym.Sort
	if sym.Type != "" {
		detail += " " + sym.Type
	}
	return protocol.CompletionItem{
		Label:         sym.Name,
		Kind:          ptr(completionKind(sym.Sort)),
		Detail:        &detail,
		Documentation: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: describe(sym)},
	}
}

// completion offers, after `x.`, the fields of x's kind (or an enum's values) when its type
// is written down; elsewhere the parameters of the enclosing procedure, every top-level
// name of the ruleset and the keywords.
func (s *server) completion(_ *glsp.Context, p *protocol.CompletionParams) (any, error) {
	w, f, line, col := s.at(p.TextDocument.URI, p.Position)
	items := []protocol.CompletionItem{}
	text := ""
	if line-1 < len(f.lines) {
		text = f.lines[line-1]
	}
	// Step back over the word being typed.
	rs := []rune(text)
	start := min(col-1, len(rs))
	for start > 0 && isNameRune(rs[start-1]) {
		start--
	}
	if start > 0 && rs[start-1] == '.' {
		chain := chainBefore(text, start+1)
		kind, enum := w.typeOf(f, line, col, chain)
		sort := "field"
		if enum {
			sort = "value"
		}
		if kind != "" {
			for _, d := range w.find(func(s *dsl.Symbol) bool { return s.Sort == sort && s.Container == kind }) {
				items = append(items, item(d.sym))
			}
		}
		return protocol.CompletionList{IsIncomplete: false, Items: items}, nil
	}
	seen := map[string]bool{}
	if proc := f.enclosing(line, col); proc != nil {
		for i := range f.syms {
			sym := &f.syms[i]
			if sym.Sort == "param" && sym.Container == proc.Name && within(sym.Pos.Line, sym.Pos.Col, proc.Start, proc.Stop) && !seen[sym.Name] {
				seen[sym.Name] = true
				items = append(items, item(sym))
			}
		}
	}
	for _, d := range w.find(topLevel) {
		if !seen[d.sym.Name] {
			seen[d.sym.Name] = true
			items = append(items, item(d.sym))
		}
	}
	for _, k := range dsl.Keywords() {
		items = append(items, protocol.CompletionItem{Label: k, Kind: ptr(protocol.CompletionItemKindKeyword)})
	}
	return protocol.CompletionList{IsIncomplete: false, Items: items}, nil
}
