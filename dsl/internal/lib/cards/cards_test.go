package cards_test

import (
	"fmt"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/dsltest"
	"rulesh/dsl/internal/peek"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

// TestBuiltinArgumentsChecked: card builtins refuse a negative or huge count in the
// language's words, before doing the work (the hex cases are lib/hex').
func TestBuiltinArgumentsChecked(t *testing.T) {
	prog, d := dsl.LoadSource("c.rules", []byte("ruleset \"c\"\ndeck jeu standard {\n}\npile main\n"))
	if d.HasErrors() {
		t.Fatal(d)
	}
	cases := []struct{ src, want string }{
		{"draw(jeu, -1)", "cannot be negative"},
		{"deal(jeu, main, -1)", "cannot be negative"},
		{"allow(main, jeu, -5)", "cannot be negative"},
	}
	for _, c := range cases {
		m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		peek.Machine(m).Limits.MaxSteps = 100_000
		_, err = dsl.NewSession(m).Eval("<e>", c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.src, err, c.want)
		}
	}
}

// evalCase and checkEvals are dsltest's.
type evalCase = dsltest.Case

var checkEvals = dsltest.CheckEvals

// TestCardMembershipAndTypes: `in` finds a card in a list or a pile's cards (expr alone
// dereferenced the card and found nothing of its type), and type() names values in the
// language's words, not Go's.
func TestCardMembershipAndTypes(t *testing.T) {
	prog, d := dsl.LoadSource("c.rules", []byte("ruleset \"c\"\ndeck jeu standard {\n}\npile main\nkind Poste {\n  nom: string\n}\nentity p: Poste { nom: \"P\" }\n"))
	if d.HasErrors() {
		t.Fatal(d)
	}
	cases := []evalCase{
		{Src: "Q♣ in [Q♣]", Want: "true"},
		{Src: "K♣ in [Q♣, 7♠]", Want: "false"},
		{Src: "jeu.cards[3] in jeu.cards", Want: "true"},
		{Src: "Q♣ in main.cards", Want: "false"},
		{Src: "2 in [1, 2]", Want: "true"},
		{Src: `"a" in {"a": 1}`, Want: "true"},
		{Src: "type(Q♣)", Want: `"card"`},
		{Src: "type(1d6)", Want: `"roll"`},
		{Src: "type(p)", Want: `"Poste"`},
		{Src: "type([1])", Want: `"list"`},
	}
	checkEvals(t, prog, func() dice.Source { return dice.NewPCG(1) }, cases)
}

// TestCardMovesStayFlat: a pile keeps, for the rollback, only its cards from before the
// call, however often they move (dealing a deck back and forth 100,000 times in one call
// took 4 GB when every change was kept; then moves were charged to the memory budget, and
// 1,000 round trips hit it); the step limit bounds the work: with the memory budget as
// tight, it is the step limit, set by the test at a twentieth of the default, that stops
// thousands of round trips, not the memory.
func TestCardMovesStayFlat(t *testing.T) {
	src := "ruleset \"c\"\ndeck jeu standard {\n}\npile p\naction va_et_vient(n: int): int {\n  for i in 1..n {\n    deal(jeu, p, 52)\n    deal(p, jeu, 52)\n  }\n  return len(jeu.cards)\n}\n"
	prog, d := dsl.LoadSource("c.rules", []byte(src))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	peek.Machine(m).Limits.MemoryBudget = 100_000
	if v, err := dsl.NewSession(m).Eval("<e>", "va_et_vient(10)"); err != nil || runtime.Repr(v) != "52" {
		t.Errorf("va_et_vient(10) = %v, %v", runtime.Repr(v), err)
	}
	if v, err := dsl.NewSession(m).Eval("<e>", "va_et_vient(1000)"); err != nil || runtime.Repr(v) != "52" {
		t.Errorf("va_et_vient(1000) = %v, %v", runtime.Repr(v), err)
	}
	rt := peek.Machine(m)
	rt.Limits.MaxSteps = runtime.DefaultLimits.MaxSteps / 20
	if _, err := dsl.NewSession(m).Eval("<e>", "va_et_vient(99999)"); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("max_steps = %d", rt.Limits.MaxSteps)) {
		t.Errorf("va_et_vient(99999): %v, want the step limit", err)
	}
}
