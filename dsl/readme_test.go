package dsl

import (
	"os"
	"strings"
	"testing"

	"rulesh/stdlib/dice"
)

// TestReadmeRuleFile: the short rule file on the README's first screen loads and prints what
// the README says it prints.
func TestReadmeRuleFile(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	_, after, ok := strings.Cut(text, "A rule file reads like this")
	if !ok {
		t.Fatal("the README shows no rule file")
	}
	_, after, _ = strings.Cut(after, "```\n")
	src, rest, _ := strings.Cut(after, "```\n")
	if n := strings.Count(text[:len(text)-len(rest)], "\n"); n > 45 {
		t.Errorf("the rule file ends on line %d of the README, past its first screen", n)
	}
	prog, diags := LoadSource("duel.rules", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, err := NewMachine(prog, dice.NewIntQueue([]int{9, 2}, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	m.SetEmit(func(s string) { out = append(out, s) })
	if _, err := NewSession(m).Eval("<eval>", "strike(ariane, brutus)"); err != nil {
		t.Fatal(err)
	}
	said := "prints `Ariane hits Brutus\n(16 against 7)`"
	if len(out) != 1 || !strings.Contains(rest, said) || strings.ReplaceAll(said, "\n", " ") != "prints `"+out[0]+"`" {
		t.Errorf("emitted %q; the README says %q", out, said)
	}
}
