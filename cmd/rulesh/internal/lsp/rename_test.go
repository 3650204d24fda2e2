package lsp

import (
	"io"
	"log"
	"os"
	"path/filepath"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

const renameA = `const x = 1
const y = 2
option o = 1 "doc"
kind K {
  a: int = 1
  b: int = 2
}
enum E { p, q }
action f(u, v) {
  emit "{u}{v}{x}"
}
table t(w) {
  else : 1
}
`

const renameB = `include "a.rules"
const z = 3
`

// TestRenameRefused: rename refuses what the checker would refuse, and says which rule: a
// builtin, a keyword, a non-name, a name declared in the same scope (across includes for
// top-level names), a parameter hiding a top-level name. A field or an enum value may
// take a builtin's name (it is read after a dot); a parameter may take one of another
// procedure's.
func TestRenameRefused(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"a.rules": renameA, "b.rules": renameB} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	uri := pathURI(filepath.Join(dir, "a.rules"))
	s := newServer(log.New(io.Discard, "", 0))
	defer s.stop()
	s.didOpen(nil, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri, Text: renameA}})
	x, u, a, p, k := pos(0, 6), pos(8, 9), pos(4, 2), pos(7, 9), pos(3, 5)
	for _, tc := range []struct {
		at      map[string]any
		newName string
		want    string // "" when the rename is made
	}{
		{x, "len", "cannot rename to len: it is a builtin"},
		{x, "d", "cannot rename to d: it is a builtin"},
		{x, "roll", "cannot rename to roll: it is a builtin"},
		{x, "sum", "cannot rename to sum: it is a builtin"},
		{x, "if", "cannot rename to if: it is a keyword"},
		{x, "dice", "cannot rename to dice: it is a keyword"},
		{x, "1a", `cannot rename to "1a": it is not a name (names are letters, digits and _, starting with a letter)`},
		{x, "", `cannot rename to "": it is not a name (names are letters, digits and _, starting with a letter)`},
		{x, "x\ny", `cannot rename to "x\ny": it is not a name (names are letters, digits and _, starting with a letter)`},
		{x, "__x", "cannot rename to __x: it starts with __, which is reserved"},
		{x, "y", "cannot rename to y: it is already declared at a.rules:2"},
		{x, "z", "cannot rename to z: it is already declared at b.rules:2"},
		{x, "u", "cannot rename to u: the parameter u of f at a.rules:9 would hide it"},
		{x, "x", ""},
		{x, "x2", ""},
		{k, "E", "cannot rename to E: it is already declared at a.rules:8"},
		{u, "v", "cannot rename to v: it is already declared at a.rules:9"},
		{u, "x", "cannot rename to x: the parameter would hide the const declared at a.rules:1"},
		{u, "len", "cannot rename to len: it is a builtin"},
		{u, "w", ""},
		{a, "b", "cannot rename to b: it is already declared at a.rules:6"},
		{a, "if", "cannot rename to if: it is a keyword"},
		{a, "len", ""},
		{p, "q", "cannot rename to q: it is already declared at a.rules:8"},
		{p, "sum", ""},
	} {
		params := &protocol.RenameParams{
			TextDocumentPositionParams: protocol.TextDocumentPositionParams{
				TextDocument: protocol.TextDocumentIdentifier{URI: uri},
				Position:     protocol.Position{Line: protocol.UInteger(tc.at["line"].(int)), Character: protocol.UInteger(tc.at["character"].(int))},
			},
			NewName: tc.newName,
		}
		edit, err := s.rename(nil, params)
		got := ""
		if err != nil {
			got = err.Error()
		} else if len(edit.Changes) == 0 {
			got = "no edit"
		}
		if got != tc.want {
			t.Errorf("rename %v to %q:\n got %s\nwant %s", tc.at, tc.newName, got, tc.want)
		}
	}
}
