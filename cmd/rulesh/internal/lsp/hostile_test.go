package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInvalidParams: params that do not read as the protocol's are refused with an
// InvalidParams error in plain words (not encoding/json's, which name Go types); a
// notification with bad params is skipped. The server goes on.
func TestInvalidParams(t *testing.T) {
	c := newClient(t)
	c.call("initialize", map[string]any{"capabilities": map[string]any{}})
	doc := map[string]any{"uri": "file:///nowhere/x.rules"}
	for _, tc := range []struct {
		params any
		want   string
	}{
		{map[string]any{"textDocument": doc, "position": pos(0, -5)}, "position.character is -5, where a whole number from 0 is expected"},
		{map[string]any{"textDocument": doc, "position": pos(1<<32, 0)}, "position.line is 4294967296, where a whole number from 0 is expected"},
		{map[string]any{"textDocument": doc, "position": map[string]any{"line": "x", "character": 1}}, "position.line is a string, where a whole number from 0 is expected"},
		{map[string]any{"textDocument": 3, "position": pos(0, 0)}, "textDocument is a number, where an object is expected"},
		{[]any{1, 2}, "an array given, where an object is expected"},
	} {
		want := `error {"code":-32602,"message":"invalid params for textDocument/hover: ` + tc.want + `"}`
		if got := c.call("textDocument/hover", tc.params); got != want {
			t.Errorf("%v:\n got %s\nwant %s", tc.params, got, want)
		}
	}
	c.notify("textDocument/didChange", map[string]any{"textDocument": 5})
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": []int{1}}})
	if got := c.call("shutdown", nil); got != "null" {
		t.Errorf("shutdown: %s", got)
	}
	c.notify("exit", nil)
	<-c.done
}

// TestHostileWorkspace: includes in a circle, a chain of 41 files, includes out of the
// folder, a file that does not parse, requests on a closed document, names a rename
// cannot use: each answered, nothing hangs.
func TestHostileWorkspace(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return pathURI(p)
	}
	a := write("a.rules", "include \"b.rules\"\nconst x = 1\n")
	b := write("b.rules", "include \"a.rules\"\nconst y = x\n")
	for i := range 40 {
		write(fmt.Sprintf("c%02d.rules", i), fmt.Sprintf("include \"c%02d.rules\"\nconst k%d = 1\naction f%d() { emit \"{k40}\" }\n", i+1, i, i))
	}
	last := write("c40.rules", "const k40 = 1\n")
	first := pathURI(filepath.Join(dir, "c00.rules"))
	out := write("out.rules", "include \"../x.rules\"\nconst z = 1\n")
	bad := write("bad.rules", "const = = (\n")
	c := newClient(t)
	c.call("initialize", map[string]any{"capabilities": map[string]any{}})
	open := func(uri string) string {
		t.Helper()
		text, _ := os.ReadFile(uriPath(uri))
		c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "rules", "version": 1, "text": string(text)}})
		return c.diagnostics(uri)
	}
	doc := func(uri string) map[string]any { return map[string]any{"uri": uri} }
	expect := func(what, got, want string) {
		t.Helper()
		want = strings.NewReplacer("A", a, "B", b, "LAST", last, "DIR", dir).Replace(want)
		if got != want {
			t.Errorf("%s:\n got %s\nwant %s", what, got, want)
		}
	}

	// Includes in a circle: each file is read once.
	expect("circle", open(a), `[]`)
	expect("references in a circle", c.call("textDocument/references", map[string]any{"textDocument": doc(a), "position": pos(1, 6), "context": map[string]any{"includeDeclaration": true}}),
		`[{"uri":"A","range":{"start":{"line":1,"character":6},"end":{"line":1,"character":7}}},{"uri":"B","range":{"start":{"line":1,"character":10},"end":{"line":1,"character":11}}}]`)
	for _, name := range []string{"", "1a", "a b", "if", "true", "__x", "x.y", "x\ny", "x//", `"x"`, "3d6"} {
		why := "it is not a name (names are letters, digits and _, starting with a letter)"
		shown := fmt.Sprintf("%q", name)
		switch name {
		case "if", "true":
			why, shown = "it is a keyword", name
		case "__x":
			why, shown = "it starts with __, which is reserved", name
		}
		want := fmt.Sprintf(`error {"code":-32600,"message":%q}`, "cannot rename to "+shown+": "+why)
		expect("rename to "+name, c.call("textDocument/rename", map[string]any{"textDocument": doc(a), "position": pos(1, 6), "newName": name}), want)
	}

	// A chain of 41 includes, opened at both ends.
	expect("chain, last", open(last), `[]`)
	expect("chain, first", open(first), `[]`)
	expect("definition down the chain", c.call("textDocument/definition", map[string]any{"textDocument": doc(first), "position": pos(2, 21)}),
		`[{"uri":"LAST","range":{"start":{"line":0,"character":6},"end":{"line":0,"character":9}}}]`)

	expect("include out of the folder", open(out),
		`[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"severity":1,"source":"rulesh","message":"include \"../x.rules\" is outside the ruleset's folder (includes are limited to DIR)"}]`)

	// A file that does not parse: its error published, formatting changes nothing.
	expect("bad", open(bad), `[{"range":{"start":{"line":0,"character":6},"end":{"line":0,"character":7}},"severity":1,"source":"rulesh","message":"unexpected token \"=\" (expected a name)"}]`)
	expect("formatting what does not parse", c.call("textDocument/formatting", map[string]any{"textDocument": doc(bad), "options": map[string]any{}}), `[]`)

	// Closed: its problems cleared, then every request answered.
	c.notify("textDocument/didClose", map[string]any{"textDocument": doc(bad)})
	expect("closed", c.diagnostics(bad), `[]`)
	for method, want := range map[string]string{
		"textDocument/formatting":     `error {"code":-32600,"message":"the document is not open"}`,
		"textDocument/hover":          `null`,
		"textDocument/documentSymbol": `[]`,
		"textDocument/rename":         `error {"code":-32600,"message":"no name to rename here"}`,
		"textDocument/references":     `[]`,
		"textDocument/definition":     `null`,
	} {
		expect("closed, "+method, c.call(method, map[string]any{"textDocument": doc(bad), "position": pos(0, 0), "newName": "q", "options": map[string]any{}, "context": map[string]any{}}), want)
	}
	for _, u := range []string{"file:///", "untitled:1", "", "%zz", "file:///nowhere/x.rules"} {
		expect("symbols of "+u, c.call("textDocument/documentSymbol", map[string]any{"textDocument": doc(u)}), `[]`)
	}

	expect("shutdown", c.call("shutdown", nil), `null`)
	c.notify("exit", nil)
	<-c.done
}
