package syntax

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
)

// TestOpLenIsOps: opLen measures the operator ops' longest match does, at every pair of
// ASCII bytes and at one alone; a card's suit is looked for only at the suits' common first
// byte.
func TestOpLenIsOps(t *testing.T) {
	byOps := func(s string) int {
		for _, op := range ops {
			if strings.HasPrefix(s, op) {
				return len(op)
			}
		}
		return 0
	}
	for c := range 128 {
		for d := -1; d < 128; d++ {
			s := string(rune(c))
			if d >= 0 {
				s += string(rune(d))
			}
			if got, want := opLen(s), byOps(s); got != want {
				t.Errorf("opLen(%q) = %d, ops give %d", s, got, want)
			}
		}
	}
	for _, suit := range suits {
		if suit[0] != suits[0][0] {
			t.Errorf("suit %q starts with another byte than %q", suit, suits[0])
		}
	}
}

// TestScanPositionsAreAdvance: every token the scanner gives, over a text of blanks,
// tabs, carriage returns, words and comments beyond ASCII, and over every rule file of the
// repository, is at the position participle's Position.Advance gives for the text before
// it, and has the value and type the text there reads.
func TestScanPositionsAreAdvance(t *testing.T) {
	texts := map[string]string{
		"mixed": "  \t x_1 = ténacité  // commentaire à é\n\r\n\t\tif a.b >= 3d6 && Q♣ != 10♥ { emit \"é {x}\" }\n" +
			"rule façon(n: int) {\n    return n ?? 0 + d% - 4dF\n}\n\u00a0",
	}
	root := filepath.Join("..", "..", "..")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "web" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if strings.HasSuffix(path, ".rules") {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			texts[path] = string(b)
		}
		return nil
	})
	if err != nil || len(texts) < 40 {
		t.Fatalf("%d texts: %v", len(texts), err)
	}
	for name, src := range texts {
		s := scanner{src: src, pos: lexer.Position{Filename: name, Line: 1, Column: 1}, tolerant: true}
		n := 0
		want := lexer.Position{Filename: name, Line: 1, Column: 1}
		for {
			tok, err := s.Next()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if tok.Pos.Offset < want.Offset {
				t.Fatalf("%s: token %q at %v, before the one earlier at %v", name, tok.Value, tok.Pos, want)
			}
			want.Advance(src[want.Offset:tok.Pos.Offset])
			if tok.Pos != want {
				t.Fatalf("%s: token %q at %v, Advance gives %v", name, tok.Value, tok.Pos, want)
			}
			if tok.EOF() {
				break
			}
			if !strings.HasPrefix(src[tok.Pos.Offset:], tok.Value) || tok.Value == "" {
				t.Fatalf("%s: token %q at offset %d, text %q", name, tok.Value, tok.Pos.Offset, src[tok.Pos.Offset:min(len(src), tok.Pos.Offset+10)])
			}
			n++
		}
		if n == 0 && strings.TrimSpace(src) != "" {
			t.Errorf("%s: no token", name)
		}
	}
}
