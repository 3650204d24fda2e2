package lsp

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"rulesh/dsl"
)

func (s *server) didOpen(_ *glsp.Context, p *protocol.DidOpenTextDocumentParams) error {
	path := uriPath(p.TextDocument.URI)
	s.mu.Lock()
	s.docs[path] = &document{uri: p.TextDocument.URI, path: path, text: p.TextDocument.Text, version: p.TextDocument.Version}
	s.mu.Unlock()
	s.schedule(path)
	return nil
}

func (s *server) didChange(_ *glsp.Context, p *protocol.DidChangeTextDocumentParams) error {
	path := uriPath(p.TextDocument.URI)
	s.mu.Lock()
	d := s.docs[path]
	if d == nil {
		d = &document{uri: p.TextDocument.URI, path: path}
		s.docs[path] = d
	}
	for _, c := range p.ContentChanges {
		// The server asks for full sync (every change carries the whole text); a client
		// that sends a range anyway has it applied, in order, as the protocol says.
		switch c := c.(type) {
		case protocol.TextDocumentContentChangeEventWhole:
			d.text = c.Text
		case protocol.TextDocumentContentChangeEvent:
			d.text = applyChange(d.text, c.Range, c.Text)
		}
	}
	d.version = p.TextDocument.Version
	d.gen++
	s.mu.Unlock()
	s.schedule(path)
	return nil
}

// applyChange replaces the range r of text (lines from 0, characters in UTF-16 units, as
// the protocol counts them) with repl. A position past its line's end stands for the
// line's end, a line past the text's last for the text's end; a range given backwards is
// read forwards.
func applyChange(text string, r *protocol.Range, repl string) string {
	if r == nil {
		return repl
	}
	start, end := offset(text, r.Start), offset(text, r.End)
	if end < start {
		start, end = end, start
	}
	return text[:start] + repl + text[end:]
}

// offset is the byte offset in text of a position of the protocol.
func offset(text string, p protocol.Position) int {
	at := 0
	for line := protocol.UInteger(0); line < p.Line; line++ {
		i := strings.IndexByte(text[at:], '\n')
		if i < 0 {
			return len(text)
		}
		at += i + 1
	}
	units := 0
	for i, r := range text[at:] {
		if units >= int(p.Character) || r == '\n' {
			return at + i
		}
		units += utf16Len(r)
	}
	return len(text)
}

func (s *server) didClose(_ *glsp.Context, p *protocol.DidCloseTextDocumentParams) error {
	path := uriPath(p.TextDocument.URI)
	// Held through the clearing, so that a check finishing now publishes before it, not
	// after.
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	s.mu.Lock()
	uris := s.forget(path)
	s.mu.Unlock()
	// The file closed is no longer checked: its problems go with it.
	for _, u := range slices.Sorted(maps.Keys(uris)) {
		s.notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: u, Diagnostics: []protocol.Diagnostic{}})
	}
	return nil
}

// schedule checks a buffer's ruleset once the typing stops for Debounce.
func (s *server) schedule(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	if t := s.timers[path]; t != nil {
		s.cancelTimer(t)
	}
	s.checks.Add(1)
	var t *time.Timer
	t = time.AfterFunc(s.debounce, func() {
		defer s.checks.Done()
		s.mu.Lock()
		if s.timers[path] == t {
			delete(s.timers, path) // fired: nothing left to cancel
		}
		s.mu.Unlock()
		s.check(path)
	})
	s.timers[path] = t
}

// overlay reads the open buffers in place of the files on disk. It holds their texts as
// strings, shared with the buffers: a file is copied only when the loader reads it.
type overlay map[string]string

func (o overlay) ReadFile(name string) ([]byte, error) {
	if text, ok := o[filepath.Clean(name)]; ok {
		return []byte(text), nil
	}
	return dsl.OSFiles{}.ReadFile(name)
}

// text reads a file as ReadFile does, a buffer without a copy.
func (o overlay) text(name string) (string, bool) {
	if text, ok := o[filepath.Clean(name)]; ok {
		return text, true
	}
	b, err := dsl.OSFiles{}.ReadFile(name)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// Stat describes the file on disk, so the loader reads a file reached by two paths once;
// a buffer not yet saved is known by its path alone.
func (o overlay) Stat(name string) (os.FileInfo, error) {
	return dsl.OSFiles{}.Stat(name)
}

// Resolve follows symbolic links as the loader's confinement of includes needs; a buffer
// not yet saved resolves through its folder.
func (o overlay) Resolve(name string) (string, error) {
	r, err := dsl.OSFiles{}.Resolve(name)
	if err == nil {
		return r, nil
	}
	if _, ok := o[filepath.Clean(name)]; ok {
		dir, derr := dsl.OSFiles{}.Resolve(filepath.Dir(name))
		if derr != nil {
			return filepath.Clean(name), nil
		}
		return filepath.Join(dir, filepath.Base(name)), nil
	}
	return "", err
}

// file is one rule file of a ruleset as the server sees it now.
type file struct {
	path, uri string
	text      string
	lines     []string
	syms      []dsl.Symbol
	names     []dsl.Name
}

// outline is what Outline and Names gave for a text.
type outline struct {
	text  string
	syms  []dsl.Symbol
	names []dsl.Name
}

// workspace is a snapshot of the files of one ruleset: the file asked about first.
type workspace struct {
	files  []*file
	byPath map[string]*file
	roots  []string // the files no other file of the group includes
	fs     overlay
}

// snapshot gathers the ruleset of the file at path: the rule files of its folder joined to it
// by includes, each read from its buffer when open.
func (s *server) snapshot(path string) *workspace {
	s.mu.Lock()
	fs := overlay{}
	uris := map[string]string{}
	for p, d := range s.docs {
		fs[p] = d.text
		uris[p] = d.uri
	}
	s.mu.Unlock()

	read := fs.text
	group := []string{path}
	if filepath.IsAbs(path) {
		group = groupOf(path, fs, read)
	}
	w := &workspace{byPath: map[string]*file{}, fs: fs}
	included := map[string]bool{}
	for _, p := range group {
		text, ok := read(p)
		if !ok && p != path {
			continue
		}
		f := &file{path: p, uri: uris[p], text: text, lines: strings.Split(text, "\n")}
		if f.uri == "" {
			f.uri = pathURI(p)
		}
		f.syms, f.names = s.outlineOf(p, text)
		w.files = append(w.files, f)
		w.byPath[p] = f
		for _, inc := range includesOf(text) {
			included[filepath.Join(filepath.Dir(p), inc)] = true
		}
	}
	for _, f := range w.files {
		if !included[f.path] {
			w.roots = append(w.roots, f.path)
		}
	}
	if len(w.roots) == 0 { // includes in a circle: the loader says so
		w.roots = []string{path}
	}
	return w
}

// outlineOf outlines a text and lists its names, or gives the last outline of the file if
// this text does not parse. Both are kept for the next request on the same text, while a
// buffer of the file's folder is open (see keepOutline). A text over the loader's limit
// (dsl.MaxLoadSize) is not outlined: it has no names.
func (s *server) outlineOf(path, text string) ([]dsl.Symbol, []dsl.Name) {
	if tooLarge(text) {
		return nil, nil
	}
	s.mu.Lock()
	last, ok := s.outlines[path]
	s.mu.Unlock()
	if ok && last.text == text {
		return last.syms, last.names
	}
	names := dsl.Names(path, []byte(text))
	syms, _, err := dsl.Outline(path, []byte(text))
	if err != nil {
		syms = last.syms
	}
	s.mu.Lock()
	if s.keepOutline(path) {
		s.outlines[path] = outline{text, syms, names}
	}
	s.mu.Unlock()
	return syms, names
}

// tooLarge reports whether a text is over the most a load reads: the loader would refuse
// it, and outlining it would take a hundred times its size.
func tooLarge(text string) bool { return len(text) > dsl.MaxLoadSize }

// keepOutline reports whether the outline of the file at path is worth keeping: the file is
// open, or a file of its folder is (it may be of that file's ruleset). s.mu is held.
func (s *server) keepOutline(path string) bool {
	if s.docs[path] != nil {
		return true
	}
	dir := filepath.Dir(path)
	for p := range s.docs {
		if filepath.Dir(p) == dir {
			return true
		}
	}
	return false
}

// forget drops what is kept for the file at path, once it is closed: its buffer, its
// pending check, what it published, and the outlines no open file needs any more. It
// returns the URIs the file published diagnostics for. s.mu is held.
func (s *server) forget(path string) map[string]bool {
	delete(s.docs, path)
	if t := s.timers[path]; t != nil {
		s.cancelTimer(t)
		delete(s.timers, path)
	}
	uris := s.published[path]
	delete(s.published, path)
	dirs := map[string]bool{}
	for p := range s.docs {
		dirs[filepath.Dir(p)] = true
	}
	for p := range s.outlines {
		if s.docs[p] == nil && !dirs[filepath.Dir(p)] { // as keepOutline, in one pass
			delete(s.outlines, p)
		}
	}
	return uris
}

// groupOf lists path and the rule files of its folder joined to it by includes, either
// way, path first and the others sorted.
func groupOf(path string, fs overlay, read func(string) (string, bool)) []string {
	dir := filepath.Dir(path)
	candidates := map[string]bool{path: true}
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".rules") {
				candidates[filepath.Join(dir, e.Name())] = true
			}
		}
	}
	for p := range fs {
		if filepath.Dir(p) == dir {
			candidates[p] = true
		}
	}
	edges := map[string][]string{}
	for p := range candidates {
		text, ok := read(p)
		if !ok {
			continue
		}
		for _, inc := range includesOf(text) {
			q := filepath.Join(dir, inc)
			if candidates[q] {
				edges[p] = append(edges[p], q)
				edges[q] = append(edges[q], p)
			}
		}
	}
	seen := map[string]bool{path: true}
	queue := []string{path}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, q := range edges[p] {
			if !seen[q] {
				seen[q] = true
				queue = append(queue, q)
			}
		}
	}
	var rest []string
	for p := range seen {
		if p != path {
			rest = append(rest, p)
		}
	}
	slices.Sort(rest)
	return append([]string{path}, rest...)
}

// includesOf finds the include lines of a text, even one that does not parse.
func includesOf(text string) []string {
	var out []string
	for line := range strings.Lines(text) {
		if !strings.Contains(line, "include") {
			continue
		}
		line = strings.TrimSpace(line)
		rest, ok := strings.CutPrefix(line, "include")
		if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '\t') {
			continue
		}
		rest = strings.TrimSpace(rest)
		if i := strings.Index(rest, "//"); i > 0 {
			rest = strings.TrimSpace(rest[:i])
		}
		if p, err := strconv.Unquote(rest); err == nil && !strings.ContainsAny(p, "/\\") {
			out = append(out, p)
		}
	}
	return out
}

// check loads the ruleset of an open buffer from each of its roots and publishes the
// problems of every file, clearing those that went away.
func (s *server) check(path string) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Printf("check %s: internal error: %v", path, r)
		}
	}()
	if s.beforeCheck != nil {
		s.beforeCheck()
	}
	s.checkMu.Lock()
	defer s.checkMu.Unlock()
	s.mu.Lock()
	d := s.docs[path]
	if d == nil || s.closed {
		s.mu.Unlock()
		return
	}
	gen := d.gen
	s.mu.Unlock()

	w := s.snapshot(path)
	byURI := map[string][]protocol.Diagnostic{w.byPath[path].uri: {}}
	seen := map[string]bool{}
	roots := w.roots
	if f := w.byPath[path]; tooLarge(f.text) {
		// Not loaded: the loader would refuse it all the same, after reading it whole.
		roots = nil
		byURI[f.uri] = []protocol.Diagnostic{{
			Range:    protocol.Range{End: protocol.Position{Character: 1}},
			Severity: ptr(protocol.DiagnosticSeverityError),
			Source:   ptr("rulesh"),
			Message:  fmt.Sprintf("this file is %d bytes, over the limit of %d MiB of rule files a load reads: it is not checked, and has no outline", len(f.text), dsl.MaxLoadSize>>20),
		}}
	}
	for _, root := range roots {
		_, diags := dsl.Check(w.fs, root)
		for _, dg := range diags {
			start, end := dg.Range()
			f := w.byPath[filepath.Clean(start.File)]
			if f == nil {
				// A file outside the group (an include refused, a missing file): said
				// where the check started.
				f = w.byPath[root]
				start, end = dsl.Pos{Line: 1, Col: 1}, dsl.Pos{Line: 1, Col: 1}
			}
			msg := dg.Summary
			if dg.Detail != "" {
				msg += " (" + dg.Detail + ")"
			}
			key := f.uri + "\x00" + start.String() + "\x00" + msg
			if seen[key] {
				continue
			}
			seen[key] = true
			sev := protocol.DiagnosticSeverityError
			if dg.Severity == dsl.Warning {
				sev = protocol.DiagnosticSeverityWarning
			}
			if end.Line < start.Line || end.Line == start.Line && end.Col <= start.Col {
				// Only the start is known: underline the name there, or one character.
				end = dsl.Pos{Line: start.Line, Col: start.Col + 1}
				if n := f.nameAt(start.Line, start.Col); n != nil {
					end = n.End
				}
			}
			byURI[f.uri] = append(byURI[f.uri], protocol.Diagnostic{
				Range:    protocol.Range{Start: f.position(start), End: f.position(end)},
				Severity: &sev,
				Source:   ptr("rulesh"),
				Message:  msg,
			})
		}
	}

	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	s.mu.Lock()
	if d := s.docs[path]; d == nil || d.gen != gen || s.closed {
		s.mu.Unlock()
		return // a newer text is on its way, or the file is closed
	}
	old := s.published[path]
	now := map[string]bool{}
	for u, ds := range byURI {
		if len(ds) > 0 || u == w.byPath[path].uri {
			now[u] = true
		}
	}
	s.published[path] = now
	s.mu.Unlock()
	for u := range old {
		if _, ok := byURI[u]; !ok {
			byURI[u] = []protocol.Diagnostic{}
		}
	}
	for _, u := range slices.Sorted(maps.Keys(byURI)) {
		s.notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: u, Diagnostics: byURI[u]})
	}
}

var errNoFile = errors.New("the document is not open")

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }
