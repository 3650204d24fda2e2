package runtime_test

import (
	"strings"
	"testing"

	"rulesh/dsl/internal/runtime"
)

// TestWithArticle: "an" before a vowel sound, accented capitals included (kinds are often
// French), "a" before a consonant and before the "you" sound of unit or user.
func TestWithArticle(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"roll", "a roll"},
		{"Unit", "a Unit"},
		{"unit", "a unit"},
		{"user", "a user"},
		{"Arme", "an Arme"},
		{"int", "an int"},
		{"Écaille", "an Écaille"},
		{"éclaireur", "an éclaireur"},
		{"Officier", "an Officier"},
		{"hour", "an hour"},
		{"Héros", "a Héros"},
		{"Brigade", "a Brigade"},
		{"A", "an A"},
		{"F", "an F"},
		{"U", "a U"},
		{"B", "a B"},
		{"", "a "},
	} {
		if got := runtime.WithArticle(c.name); got != c.want {
			t.Errorf("WithArticle(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestRecordExpectedArticle: a value that is not of a record's kind, given where one is
// declared, is said with the article the kind's name asks ("expected an Arme", not "a Arme").
func TestRecordExpectedArticle(t *testing.T) {
	const src = `ruleset "a"
kind Arme {
  portée: int = 1
}
kind Brigade {
  force: int = 1
}
rule id(x) {
  return x
}
rule portée(a: Arme): int {
  return a.portée
}
rule force(b: Brigade): int {
  return b.force
}
`
	for _, c := range []struct{ expr, want string }{
		{"portée(id(3))", "expected an Arme, got 3"},
		{"force(id(3))", "expected a Brigade, got 3"},
	} {
		_, _, err := run(t, src, c.expr)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want one containing %q", c.expr, err, c.want)
		}
	}
}
