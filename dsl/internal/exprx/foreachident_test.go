package exprx

import (
	"slices"
	"testing"
	"unicode"
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
