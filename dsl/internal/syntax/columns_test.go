package syntax

import (
	"fmt"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// TestColumnsRatioNamedColumn: `ratio` followed by a comma is a column (a name), not the
// keyword, as the grammar of docs/LANGUAGE.md reads it; the parser used to take the keyword
// and then refuse the comma (found by TestGrammarMutations).
func TestColumnsRatioNamedColumn(t *testing.T) {
	for _, tc := range []struct {
		src   string
		ratio bool
		items int
	}{
		{"table t(r) {\n  columns ratio, 1\n  1: [1, 2]\n}\n", false, 2},
		{"table t(r) {\n  columns ratio 1:2, 1:1\n  1: [1, 2]\n}\n", true, 2},
	} {
		f, d := Parse("t.rules", []byte(tc.src))
		if d != nil {
			t.Fatalf("%q: %v", tc.src, d)
		}
		var c *Columns
		for _, decl := range f.Decls {
			if decl.Table != nil {
				for _, r := range decl.Table.Rows {
					if r.Columns != nil {
						c = r.Columns
					}
				}
			}
		}
		if c == nil || c.Ratio != tc.ratio || len(c.Items) != tc.items {
			t.Errorf("%q: columns %+v, want ratio %v with %d items", tc.src, c, tc.ratio, tc.items)
		}
	}
}

// advancePos moves a position past a span as participle's Position.Advance does, its short
// way (ASCII on one line) included.
func TestAdvancePosMatchesParticiple(t *testing.T) {
	for _, span := range []string{"", "x", "abc", "3d6", "\n", "a\nb", "\n\n  ", "é", "aé", "«»\nü", "ab\nc\xffdéfghijklé", "une chaîne d'été", "é\nabcdefghé\n", "\t", "x\r\n", "\u202e"} {
		start := lexer.Position{Filename: "f", Offset: 7, Line: 3, Column: 5}
		want, got := start, start
		want.Advance(span)
		advancePos(&got, span)
		if got != want {
			t.Errorf("%q: got %+v, want %+v", span, got, want)
		}
	}
}

// runeCount counts runes as utf8.RuneCountInString does, invalid bytes and runes cut at the
// end included, on either side of its 8-byte steps.
func TestRuneCount(t *testing.T) {
	for _, s := range []string{"", "a", "abcdefg", "abcdefgh", "abcdefghi", "é", "aaaaaaaé", "aaaaaaaéé",
		"ééééééééé", "l'été où \u202e tout «change»", "\xff", "abcdefg\xffabc", "abcdefg\xe2\x80", "\xe2\x80abcdefgh",
		"\x80\x80\x80\x80\x80\x80\x80\x80\x80", "😀😀😀abcdefgh😀", "abcdefghijklmnopqrstuvwxyz 0123456789 ÀÉÎÕÜ"} {
		if got, want := runeCount(s), utf8.RuneCountInString(s); got != want {
			t.Errorf("runeCount(%q) = %d, want %d", s, got, want)
		}
	}
}

// lineStarts gives the offset of every line's start, the line after a final newline too.
func TestLineStarts(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []int
	}{
		{"", []int{0}}, {"a", []int{0}}, {"\n", []int{0, 1}}, {"ab\ncd\n", []int{0, 3, 6}},
		{"\n\né\nx", []int{0, 1, 2, 5}},
	} {
		if got := lineStarts([]byte(c.src)); !slices.Equal(got, c.want) {
			t.Errorf("lineStarts(%q) = %v, want %v", c.src, got, c.want)
		}
	}
}

// The arena's slices stay apart: an append to one kept copies, a slice that outgrew the
// room is kept as it is, an empty one is nil.
func TestTokenArena(t *testing.T) {
	var a tokenArena
	tok := func(v string) lexer.Token { return lexer.Token{Value: v} }
	x := append(a.next(), tok("a"), tok("b"))
	x = a.keep(x)
	y := append(a.next(), tok("c"))
	y = a.keep(y)
	x2 := append(x, tok("z"))
	if y[0].Value != "c" || x2[2].Value != "z" || len(x) != 2 {
		t.Errorf("x %v, y %v, x2 %v", x, y, x2)
	}
	big := a.next()
	for i := range 600 {
		big = append(big, tok(fmt.Sprint(i)))
	}
	big = a.keep(big)
	z := a.keep(append(a.next(), tok("d")))
	if len(big) != 600 || big[599].Value != "599" || z[0].Value != "d" || y[0].Value != "c" {
		t.Errorf("big %d, z %v, y %v", len(big), z, y)
	}
	if e := a.keep(a.next()); e != nil {
		t.Errorf("empty: %v", e)
	}
}
