package exprx

import (
	"slices"
	"testing"
	"unicode"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"
)

// forEachIdentByRunes is ForEachIdent as it was written before its ASCII table: every
// rune through unicode's tests.
func forEachIdentByRunes(text string, f func(string)) {
	start := -1
	for i, r := range text {
		word := r == '_' || unicode.IsLetter(r) || start >= 0 && unicode.IsDigit(r)
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			f(text[start:i])
			start = -1
		}
	}
	if start >= 0 {
		f(text[start:])
	}
}

func TestForEachIdentMatchesRunes(t *testing.T) {
	texts := []string{
		"", "a", "_", "9", "a9", "9a", "x1 + y_2*z", "force.niveau >= 3 && !dégâts",
		"«tête» ou téte", "3d6+2", "a\xffb", "\xff", "é9", "٣x", "x٣", "ＡＢ1", "a$b", "`x` 'y' \"z\"",
		"_a_ __rt(x)", "a\u0301b", "日本語 x", "end_",
	}
	for _, s := range texts {
		var got, want []string
		ForEachIdent(s, func(n string) { got = append(got, n) })
		forEachIdentByRunes(s, func(n string) { want = append(want, n) })
		if !slices.Equal(got, want) {
			t.Errorf("ForEachIdent(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzForEachIdent(f *testing.F) {
	f.Add("x1 + dégâts_2 \xff ٣")
	f.Fuzz(func(t *testing.T, s string) {
		var got, want []string
		ForEachIdent(s, func(n string) { got = append(got, n) })
		forEachIdentByRunes(s, func(n string) { want = append(want, n) })
		if !slices.Equal(got, want) {
			t.Errorf("ForEachIdent(%q) = %q, want %q", s, got, want)
		}
	})
}

// envNamesOf returns the names of an expression that expr's parser reads as names
// (IdentifierNode), or false when it does not parse.
func envNamesOf(src string) ([]string, bool) {
	tree, err := parser.Parse(src)
	if err != nil {
		return nil, false
	}
	var names []string
	ast.Find(tree.Node, func(n ast.Node) bool {
		if id, ok := n.(*ast.IdentifierNode); ok {
			names = append(names, id.Value)
		}
		return false
	})
	return names, true
}

// checkEnvWords fails when a name expr reads in src, which ForEachIdent finds, is not
// among envWords' words: the environment would lack it.
func checkEnvWords(t *testing.T, src string) {
	names, ok := envNamesOf(src)
	if !ok {
		return
	}
	words, all := map[string]bool{}, map[string]bool{}
	envWords(src, func(w string) { words[w] = true })
	ForEachIdent(src, func(w string) { all[w] = true })
	for _, n := range names {
		if all[n] && !words[n] {
			t.Errorf("envWords(%q) misses %s", src, n)
		}
	}
}

var envWordsSeeds = []string{
	`a.b + c`, `a?.b ?? d`, `1..n`, `x in 1..len(l)`, `"a" + b + "c\"d" + e`, `'it''s' + f`,
	"`raw` + g", `filter(l, .f > x)`, `map(l, #.y + z)`, `m["k"] + m.k2 + k3`, `1.5 * r`,
	`f(a, "b").c + d`, `"\\" + h`, `x. y`, `x.dégâts + état`, `{a: b, "c": d}.a`, `[a, b][0] + c`,
	`not v`, `s matches "x" && t`, `u ? v.w : x`, `let y = 1; y + z`,
	// Comments, which expr's lexer skips: a quote in one opens no string.
	"max(1, // it's\n g)", "max(1, // a \"quote\n g)", `max(1, /* it's */ g)`, "a // x.\nb",
	`x /* " */ + y /* " */`, `a / b`, `a /* unclosed`,
}

func TestEnvWordsHoldTheNamesRead(t *testing.T) {
	for _, src := range envWordsSeeds {
		checkEnvWords(t, src)
	}
}

func FuzzEnvWords(f *testing.F) {
	for _, src := range envWordsSeeds {
		f.Add(src)
	}
	f.Fuzz(checkEnvWords)
}

// TestEnvWordsSkipComments: a quote inside a comment of a multi-line expression opened no
// string for envWords, so the names after it were missing from the environment (unknown
// name g where d16074c checked the file).
func TestEnvWordsSkipComments(t *testing.T) {
	var words []string
	envWords("max(1, // it's the floor\n    g) + h /* l'autre */ + i", func(w string) { words = append(words, w) })
	if want := []string{"max", "g", "h", "i"}; !slices.Equal(words, want) {
		t.Errorf("envWords = %q, want %q", words, want)
	}
}
