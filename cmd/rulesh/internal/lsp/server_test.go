package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"rulesh/dsl"
)

// client speaks JSON-RPC to a server through pipes, as an editor does on stdio.
type client struct {
	t       testing.TB
	wait    time.Duration // how long a reply may take before the test fails
	w       io.WriteCloser
	id      int
	replies chan map[string]json.RawMessage // responses, in order
	notes   chan map[string]json.RawMessage // notifications
	done    chan bool                       // Serve's result
}

// guard bounds every wait, only so that a broken server fails the test instead of hanging it.
// It is generous: under -race on a busy two-core machine, the 4 MiB buffer of
// TestLargeBuffer took more than 20 s to be refused, and the test failed though the server
// was right.
const guard = 2 * time.Minute

func newClient(t testing.TB) *client {
	t.Helper()
	return newClientOn(t, newServer(log.New(io.Discard, "", 0)), 100)
}

// newClientOn connects a client to a server made beforehand, keeping up to notes
// notifications unread.
func newClientOn(t testing.TB, s *server, notes int) *client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &client{t: t, wait: guard, w: inW,
		replies: make(chan map[string]json.RawMessage, 100),
		notes:   make(chan map[string]json.RawMessage, notes),
		done:    make(chan bool, 1)}
	go func() { c.done <- s.serve(context.Background(), inR, outW) }()
	go func() {
		r := bufio.NewReader(outR)
		for {
			n := 0
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					close(c.replies)
					return
				}
				line = strings.TrimSpace(line)
				if line == "" {
					break
				}
				if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
					n, _ = strconv.Atoi(v)
				}
			}
			body := make([]byte, n)
			if _, err := io.ReadFull(r, body); err != nil {
				close(c.replies)
				return
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(body, &m); err != nil {
				t.Errorf("bad message %s: %v", body, err)
				continue
			}
			if _, ok := m["id"]; ok {
				c.replies <- m
			} else {
				c.notes <- m
			}
		}
	}()
	return c
}

func (c *client) send(m map[string]any) {
	c.t.Helper()
	m["jsonrpc"] = "2.0"
	b, _ := json.Marshal(m)
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(b), b); err != nil {
		c.t.Fatal(err)
	}
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	c.send(map[string]any{"method": method, "params": params})
}

// call sends a request and returns its result as compact JSON (or the error).
func (c *client) call(method string, params any) string {
	c.t.Helper()
	c.id++
	c.send(map[string]any{"id": c.id, "method": method, "params": params})
	select {
	case m, ok := <-c.replies:
		if !ok {
			c.t.Fatalf("%s: connection closed", method)
		}
		if string(m["id"]) != strconv.Itoa(c.id) {
			c.t.Fatalf("%s: reply to %s", method, m["id"])
		}
		if e, ok := m["error"]; ok {
			return "error " + string(e)
		}
		return compact(m["result"])
	case <-time.After(c.wait):
		c.t.Fatalf("%s: no reply", method)
	}
	return ""
}

// diagnostics waits for the next diagnostics published for uri, skipping those of other
// files.
func (c *client) diagnostics(uri string) string {
	c.t.Helper()
	for {
		select {
		case m := <-c.notes:
			var p struct {
				URI         string          `json:"uri"`
				Diagnostics json.RawMessage `json:"diagnostics"`
			}
			json.Unmarshal(m["params"], &p)
			if string(m["method"]) == `"textDocument/publishDiagnostics"` && p.URI == uri {
				return compact(p.Diagnostics)
			}
		case <-time.After(guard):
			c.t.Fatalf("no diagnostics for %s", uri)
		}
	}
}

func compact(b []byte) string {
	var out bytes.Buffer
	json.Compact(&out, b)
	return out.String()
}

const libRules = `// Une figure du jeu.
kind Figure {
  pv: int = 10
}
`

const mainRules = `ruleset "t"
include "lib.rules"

option malus = 2 "le malus"

dice pièce = [aigle, lion]

table blessure(m) {
  .. 0 : "rien"
  else : "grave"
}

entity will: Figure { pv: 12 }

// Frappe une figure.
action frapper(f: Figure) {
    f.pv -= malus
}
`

func pos(line, char int) map[string]any { return map[string]any{"line": line, "character": char} }

func TestServer(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"lib.rules": libRules, "main.rules": mainRules} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	uri, libURI := pathURI(filepath.Join(dir, "main.rules")), pathURI(filepath.Join(dir, "lib.rules"))
	doc := map[string]any{"uri": uri}
	c := newClient(t)
	expect := func(what, got, want string) {
		t.Helper()
		want = strings.NewReplacer("MAIN", uri, "LIB", libURI, "'''", "```").Replace(want)
		if got != want {
			t.Errorf("%s:\n got %s\nwant %s", what, got, want)
		}
	}

	expect("initialize", c.call("initialize", map[string]any{"capabilities": map[string]any{}}),
		`{"capabilities":{"textDocumentSync":{"openClose":true,"change":1},"completionProvider":{"triggerCharacters":["."]},"hoverProvider":true,"definitionProvider":true,"referencesProvider":true,"documentSymbolProvider":true,"documentFormattingProvider":true,"renameProvider":true},"serverInfo":{"name":"rulesh"}}`)
	c.notify("initialized", map[string]any{})

	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "rules", "version": 1, "text": mainRules}})
	expect("open", c.diagnostics(uri), `[]`)

	// An error typed, then fixed: published, then cleared.
	bad := strings.Replace(mainRules, "f.pv -=", "f.pvv -=", 1)
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2}, "contentChanges": []any{map[string]any{"text": bad}}})
	expect("error", c.diagnostics(uri),
		`[{"range":{"start":{"line":16,"character":6},"end":{"line":16,"character":9}},"severity":1,"source":"rulesh","message":"unknown field pvv (did you mean pv?)"}]`)
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 3}, "contentChanges": []any{map[string]any{"text": mainRules}}})
	expect("fixed", c.diagnostics(uri), `[]`)
	// A look-alike name is a warning, published as check reports it.
	lookAlike := mainRules + "const m\u0430lus = 3\n"
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 4}, "contentChanges": []any{map[string]any{"text": lookAlike}}})
	expect("look-alike", c.diagnostics(uri),
		`[{"range":{"start":{"line":18,"character":6},"end":{"line":18,"character":11}},"severity":2,"source":"rulesh","message":"name m`+"\u0430"+`lus looks like malus (declared at `+filepath.Join(dir, "main.rules")+`:4:8) but differs: U+0430 CYRILLIC SMALL LETTER A"}]`)
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 5}, "contentChanges": []any{map[string]any{"text": mainRules}}})
	expect("fixed again", c.diagnostics(uri), `[]`)

	expect("symbols", c.call("textDocument/documentSymbol", map[string]any{"textDocument": doc}),
		`[{"name":"malus","detail":"option","kind":7,"range":{"start":{"line":3,"character":0},"end":{"line":3,"character":27}},"selectionRange":{"start":{"line":3,"character":7},"end":{"line":3,"character":12}}},{"name":"pièce","detail":"dice","kind":18,"range":{"start":{"line":5,"character":0},"end":{"line":5,"character":26}},"selectionRange":{"start":{"line":5,"character":5},"end":{"line":5,"character":10}}},{"name":"blessure","detail":"table","kind":23,"range":{"start":{"line":7,"character":0},"end":{"line":10,"character":1}},"selectionRange":{"start":{"line":7,"character":6},"end":{"line":7,"character":14}},"children":[{"name":"m","detail":"param","kind":13,"range":{"start":{"line":7,"character":15},"end":{"line":7,"character":16}},"selectionRange":{"start":{"line":7,"character":15},"end":{"line":7,"character":16}}}]},{"name":"will","detail":"entity Figure","kind":19,"range":{"start":{"line":12,"character":0},"end":{"line":12,"character":30}},"selectionRange":{"start":{"line":12,"character":7},"end":{"line":12,"character":11}}},{"name":"frapper","detail":"action","kind":12,"range":{"start":{"line":15,"character":0},"end":{"line":17,"character":1}},"selectionRange":{"start":{"line":15,"character":7},"end":{"line":15,"character":14}},"children":[{"name":"f","detail":"param Figure","kind":13,"range":{"start":{"line":15,"character":15},"end":{"line":15,"character":24}},"selectionRange":{"start":{"line":15,"character":15},"end":{"line":15,"character":16}}}]}]`)
	expect("completion after f.", c.call("textDocument/completion", map[string]any{"textDocument": doc, "position": pos(16, 6)}),
		`{"isIncomplete":false,"items":[{"label":"pv","kind":5,"detail":"field int","documentation":{"kind":"markdown","value":"'''rules\npv: int = 10\n'''\n\nfield of Figure"}}]}`)
	expect("hover option", c.call("textDocument/hover", map[string]any{"textDocument": doc, "position": pos(16, 12)}),
		`{"contents":{"kind":"markdown","value":"'''rules\noption malus = 2 \"le malus\"\n'''\n\nle malus"},"range":{"start":{"line":16,"character":12},"end":{"line":16,"character":17}}}`)
	expect("hover table", c.call("textDocument/hover", map[string]any{"textDocument": doc, "position": pos(7, 8)}),
		`{"contents":{"kind":"markdown","value":"'''rules\ntable blessure(m) {\n  .. 0 : \"rien\"\n  else : \"grave\"\n}\n'''"},"range":{"start":{"line":7,"character":6},"end":{"line":7,"character":14}}}`)
	expect("hover kind, across includes", c.call("textDocument/hover", map[string]any{"textDocument": doc, "position": pos(12, 15)}),
		`{"contents":{"kind":"markdown","value":"'''rules\nkind Figure {\n  pv: int = 10\n}\n'''\n\nUne figure du jeu."},"range":{"start":{"line":12,"character":13},"end":{"line":12,"character":19}}}`)
	expect("hover die", c.call("textDocument/hover", map[string]any{"textDocument": doc, "position": pos(5, 6)}),
		`{"contents":{"kind":"markdown","value":"'''rules\ndice pièce = [aigle, lion]\n'''"},"range":{"start":{"line":5,"character":5},"end":{"line":5,"character":10}}}`)
	expect("definition across includes", c.call("textDocument/definition", map[string]any{"textDocument": doc, "position": pos(15, 20)}),
		`[{"uri":"LIB","range":{"start":{"line":1,"character":5},"end":{"line":1,"character":11}}}]`)
	expect("references of a field", c.call("textDocument/references", map[string]any{"textDocument": doc, "position": pos(16, 7), "context": map[string]any{"includeDeclaration": true}}),
		`[{"uri":"MAIN","range":{"start":{"line":12,"character":22},"end":{"line":12,"character":24}}},{"uri":"MAIN","range":{"start":{"line":16,"character":6},"end":{"line":16,"character":8}}},{"uri":"LIB","range":{"start":{"line":2,"character":2},"end":{"line":2,"character":4}}}]`)
	expect("rename", c.call("textDocument/rename", map[string]any{"textDocument": doc, "position": pos(16, 12), "newName": "pénalité"}),
		`{"changes":{"MAIN":[{"range":{"start":{"line":3,"character":7},"end":{"line":3,"character":12}},"newText":"pénalité"},{"range":{"start":{"line":16,"character":12},"end":{"line":16,"character":17}},"newText":"pénalité"}]}}`)
	expect("rename refused", c.call("textDocument/rename", map[string]any{"textDocument": doc, "position": pos(16, 12), "newName": "if"}),
		`error {"code":-32600,"message":"cannot rename to if: it is a keyword"}`)
	expect("formatting", c.call("textDocument/formatting", map[string]any{"textDocument": doc, "options": map[string]any{"tabSize": 2, "insertSpaces": true}}),
		`[{"range":{"start":{"line":0,"character":0},"end":{"line":18,"character":0}},"newText":"ruleset \"t\"\ninclude \"lib.rules\"\n\noption malus = 2 \"le malus\"\n\ndice pièce = [aigle, lion]\n\ntable blessure(m) {\n  .. 0 : \"rien\"\n  else : \"grave\"\n}\n\nentity will: Figure { pv: 12 }\n\n// Frappe une figure.\naction frapper(f: Figure) {\n  f.pv -= malus\n}\n"}]`)

	expect("shutdown", c.call("shutdown", nil), `null`)
	c.notify("exit", nil)
	select {
	case ok := <-c.done:
		if !ok {
			t.Error("exit after shutdown: Serve reports no shutdown")
		}
	case <-time.After(guard):
		t.Fatal("the server did not exit")
	}
}

// TestCompletionNames: elsewhere than after a dot, the parameters of the procedure, the
// declarations of the whole ruleset (includes too) and the keywords.
func TestCompletionNames(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "lib.rules"), []byte(libRules), 0o644)
	path := filepath.Join(dir, "main.rules")
	s := newServer(log.New(io.Discard, "", 0))
	s.didOpen(nil, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: pathURI(path), Text: mainRules}})
	r, err := s.completion(nil, &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(path)}, Position: protocol.Position{Line: 16, Character: 4}}})
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, it := range r.(protocol.CompletionList).Items {
		labels = append(labels, it.Label)
	}
	got := strings.Join(labels, " ")
	want := "f malus pièce blessure will frapper Figure " + strings.Join(dsl.Keywords(), " ")
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	s.stop()
}

// TestHalfTyped: every shipped rule file, opened whole, then cut back to three quarters, a
// half and a quarter (a GM deleting the end to type it again), then whole again. At each
// cut the check and every request answer without an error or a panic (a check's panic is
// only logged, so the log is read), and hovering the name of each declaration still typed
// whole describes that declaration: a text that does not parse keeps the outline of the
// last one that did, so the names before the cut are still known.
func TestHalfTyped(t *testing.T) {
	files, _ := filepath.Glob("../../../../rulesets/*/*.rules")
	if len(files) == 0 {
		t.Fatal("no ruleset found")
	}
	var logs bytes.Buffer
	s := newServer(log.New(&logs, "", 0))
	defer s.stop()
	// With -short (CI's race run) each file is cut only in half, a third as many names hovered.
	cutAt, every, least := []int{4, 3, 2, 1, 4}, 7, 500
	if testing.Short() {
		cutAt, every, least = []int{4, 2, 4}, 21, 100
	}
	hovered := 0
	for _, f := range files {
		path, _ := filepath.Abs(f)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		syms, _, d := dsl.Outline(path, src)
		if d != nil {
			t.Fatalf("%s: %v", f, d)
		}
		uri := pathURI(path)
		doc := protocol.TextDocumentIdentifier{URI: uri}
		const cuts = 4
		for _, i := range cutAt {
			text := string(src[:len(src)*i/cuts])
			s.didOpen(nil, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri, Text: text}})
			// Checked here, once: the check didOpen scheduled would run it again, later.
			s.mu.Lock()
			s.timers[path].Stop()
			s.mu.Unlock()
			s.check(path)
			file := s.snapshot(path).byPath[path]
			typed := strings.Count(text, "\n") // lines typed whole
			for n, sym := range syms {
				// One declaration typed whole in every few, fields and parameters included.
				if n%every != 0 || sym.Stop.Line > typed {
					continue
				}
				at := protocol.TextDocumentPositionParams{TextDocument: doc, Position: file.position(sym.Pos)}
				h, err := s.hover(nil, &protocol.HoverParams{TextDocumentPositionParams: at})
				if err != nil || h == nil {
					t.Errorf("%s cut at %d/%d: hover on %s %s at %s: %v, %v", f, i, cuts, sym.Sort, sym.Name, sym.Pos, h, err)
					continue
				}
				if md, ok := h.Contents.(protocol.MarkupContent); !ok || !strings.Contains(md.Value, sym.Name) {
					t.Errorf("%s cut at %d/%d: hover on %s %s says %v", f, i, cuts, sym.Sort, sym.Name, h.Contents)
				}
				hovered++
			}
			// The other requests, at a line in forty-one and where the text stops.
			lines := strings.Split(text, "\n")
			for l := 0; l < len(lines); l += 41 {
				for _, at := range []protocol.TextDocumentPositionParams{
					{TextDocument: doc, Position: protocol.Position{Line: protocol.UInteger(l), Character: protocol.UInteger(len(lines[l]) / 2)}},
					{TextDocument: doc, Position: protocol.Position{Line: protocol.UInteger(len(lines) - 1), Character: protocol.UInteger(len(lines[len(lines)-1]))}},
				} {
					if _, err := s.hover(nil, &protocol.HoverParams{TextDocumentPositionParams: at}); err != nil {
						t.Errorf("%s cut at %d/%d: hover: %v", f, i, cuts, err)
					}
					if _, err := s.definition(nil, &protocol.DefinitionParams{TextDocumentPositionParams: at}); err != nil {
						t.Errorf("%s cut at %d/%d: definition: %v", f, i, cuts, err)
					}
					if _, err := s.completion(nil, &protocol.CompletionParams{TextDocumentPositionParams: at}); err != nil {
						t.Errorf("%s cut at %d/%d: completion: %v", f, i, cuts, err)
					}
					if _, err := s.references(nil, &protocol.ReferenceParams{TextDocumentPositionParams: at}); err != nil {
						t.Errorf("%s cut at %d/%d: references: %v", f, i, cuts, err)
					}
				}
			}
			if _, err := s.documentSymbol(nil, &protocol.DocumentSymbolParams{TextDocument: doc}); err != nil {
				t.Errorf("%s cut at %d/%d: symbols: %v", f, i, cuts, err)
			}
			s.formatting(nil, &protocol.DocumentFormattingParams{TextDocument: doc})
		}
		s.didClose(nil, &protocol.DidCloseTextDocumentParams{TextDocument: doc})
	}
	t.Logf("%d declarations hovered", hovered)
	if hovered < least {
		t.Errorf("only %d declarations hovered", hovered)
	}
	if strings.Contains(logs.String(), "internal error") {
		t.Errorf("log:\n%s", logs.String())
	}
}

// TestPanicIsAnError: a handler that panics fails its request with an internal error,
// logged; the server goes on.
func TestPanicIsAnError(t *testing.T) {
	var logs bytes.Buffer
	s := newServer(log.New(&logs, "", 0))
	s.proto.TextDocumentHover = func(*glsp.Context, *protocol.HoverParams) (*protocol.Hover, error) { panic("boom") }
	s.proto.SetInitialized(true)
	params := json.RawMessage(`{"textDocument":{"uri":"file:///x.rules"},"position":{"line":0,"character":0}}`)
	_, err := s.handle(context.Background(), nil, &jsonrpc2.Request{Method: "textDocument/hover", Params: &params})
	if e, ok := err.(*jsonrpc2.Error); !ok || e.Code != jsonrpc2.CodeInternalError || e.Message != "rulesh lsp: internal error in textDocument/hover" {
		t.Errorf("err = %#v", err)
	}
	if !strings.Contains(logs.String(), "textDocument/hover: internal error: boom") {
		t.Errorf("log = %s", logs.String())
	}
}

// TestUnknownDocument: requests on a file never opened nor on disk are answered, empty.
func TestUnknownDocument(t *testing.T) {
	c := newClient(t)
	c.call("initialize", map[string]any{"capabilities": map[string]any{}})
	doc := map[string]any{"uri": "file:///nowhere/x.rules"}
	for method, want := range map[string]string{
		"textDocument/hover":      "null",
		"textDocument/definition": "null",
		"textDocument/references": "[]",
	} {
		if got := c.call(method, map[string]any{"textDocument": doc, "position": pos(1000, 1000), "context": map[string]any{}}); got != want {
			t.Errorf("%s: %s", method, got)
		}
	}
	if got := c.call("shutdown", nil); got != "null" {
		t.Errorf("shutdown: %s", got)
	}
	c.notify("exit", nil)
	<-c.done
}
