package cards_test

import (
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/peek"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

// pilesRules gives every card builtin untyped parameters, so that a wrong argument gets
// past the checker and reaches the builtin's own argument checks.
const pilesRules = `ruleset "c"
deck jeu standard
pile main
pile tapis
action any_shuffle(x) {
  return shuffle(x)
}
action any_draw(x) {
  return draw(x)
}
action any_deal(x, y) {
  return deal(x, y, 1)
}
action any_play(x, c) {
  return play(x, c)
}
action any_play3(x, c, y) {
  return play(x, c, y)
}
action any_move(x, y, c) {
  return move(x, y, c)
}
action any_allow(x, y) {
  return allow(x, y, 1)
}
action any_pass(x, y, c) {
  return pass(x, y, c)
}
rule any_passes(x, y) {
  return passes(x, y)
}
rule any_card(x) {
  return card(x)
}
action jouer_mal() {
  move(jeu, main, Q♣)
  deal(jeu, tapis, 2)
  any_play3(main, Q♣, 3)
}
`

// TestCardBuiltins runs every card builtin on a fresh machine: what it returns, what it
// leaves in the piles, and its message for a wrong argument, an empty pile, a card that is
// not where it should be and a pass without allowance.
func TestCardBuiltins(t *testing.T) {
	prog, d := dsl.LoadSource("t.rules", []byte(pilesRules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	cases := []evalCase{
		{Src: "any_shuffle(3)", Err: "t.rules:6:10: expected a pile, got 3"},
		{Src: `any_draw("x")`, Err: `t.rules:9:10: expected a pile, got "x"`},
		{Src: "any_deal(jeu, 1)", Err: "t.rules:12:10: expected a pile, got 1"},
		{Src: "any_deal(1, jeu)", Err: "t.rules:12:10: expected a pile, got 1"},
		{Src: "any_play(1, Q♣)", Err: "t.rules:15:10: expected a pile, got 1"},
		{Src: "any_play(main, 3)", Err: "t.rules:15:10: expected a card, got 3"},
		{Src: "any_play3(main, Q♣, 3)", Err: "t.rules:18:10: cannot play Q♣: it is not in main"},
		{Src: "[move(jeu, main, Q♣), any_play3(main, Q♣, 3)]", Err: "t.rules:18:10: expected a pile, got 3"},
		{Src: `any_move(jeu, main, "ZZ")`, Err: `t.rules:21:10: "ZZ" is not a card of deck jeu (write Q♣, 10♥, or QC, 10H)`},
		{Src: "any_move(1, main, Q♣)", Err: "t.rules:21:10: expected a pile, got 1"},
		{Src: "any_allow(main, 2)", Err: "t.rules:24:10: expected a pile, got 2"},
		{Src: "any_pass(main, tapis, 4)", Err: "t.rules:27:10: expected a card, got 4"},
		{Src: "any_passes(main, 1)", Err: "t.rules:30:10: expected a pile, got 1"},
		{Src: "any_card(3)", Err: "t.rules:33:10: expected a card, got 3"},
		{Src: `card("ZZ")`, Err: `<e>:1:1: "ZZ" is not a card of deck jeu (write Q♣, 10♥, or QC, 10H)`},
		{Src: `card("QC")`, Want: "Q♣"},
		{Src: `[card("10H"), card("VS") == J♠]`, Want: "[10♥, true]"},
		{Src: "draw(main)", Err: "<e>:1:1: cannot draw: main is empty"},
		{Src: "draw(main, 2)", Err: "<e>:1:1: cannot draw: main is empty"},
		{Src: "draw(jeu, 0)", Want: "[]"},
		{Src: "[len(draw(jeu, 3)), len(jeu.cards)]", Want: "[3, 49]"},
		{Src: "[len(draw(jeu, 52)), len(jeu.cards)]", Want: "[52, 0]"},
		{Src: "draw(jeu, 53)", Err: "<e>:1:1: cannot draw: jeu is empty"},
		{Src: "[deal(jeu, main, 3) == main, len(main.cards), len(jeu.cards)]", Want: "[true, 3, 49]"},
		{Src: "deal(main, tapis, 1)", Err: "<e>:1:1: cannot draw: main is empty"},
		{Src: "deal(jeu, main, 53)", Err: "<e>:1:1: cannot draw: jeu is empty"},
		{Src: "[deal(jeu, main, 2), len(jeu.cards)]", Want: "[main[4♥ 3♠], 50]"},
		{Src: "jeu.cards[0:2] == deal(jeu, main, 2).cards", Want: "true"},
		{Src: "[move(jeu, main, Q♣), main.cards, Q♣ in jeu.cards, len(jeu.cards)]", Want: "[Q♣, [Q♣], false, 51]"},
		{Src: "move(main, jeu, Q♣)", Err: "<e>:1:1: Q♣ is not in main"},
		{Src: "[move(jeu, main, Q♣), play(main, Q♣), len(main.cards), Q♣ in jeu.cards]", Want: "[Q♣, Q♣, 0, false]"},
		{Src: "[move(jeu, main, Q♣), move(jeu, main, 7♠), play(main, Q♣, tapis), main.cards, tapis.cards]", Want: "[Q♣, 7♠, Q♣, [7♠], [Q♣]]"},
		{Src: "play(main, Q♣)", Err: "<e>:1:1: cannot play Q♣: it is not in main"},
		{Src: "[allow(main, tapis, 2), passes(main, tapis), passes(tapis, main)]", Want: "[2, 2, 0]"},
		{Src: "pass(main, tapis, Q♣)", Err: "<e>:1:1: cannot pass Q♣ from main to tapis: no passes left (allow(main, tapis, n) sets them)"},
		{Src: "[allow(main, tapis, 1), move(jeu, main, Q♣), pass(main, tapis, Q♣), passes(main, tapis), tapis.cards, main.cards]", Want: "[1, Q♣, Q♣, 0, [Q♣], []]"},
		{Src: "[allow(main, tapis, 1), pass(main, tapis, Q♣)]", Err: "<e>:1:25: cannot pass Q♣: it is not in main"},
		{Src: "[move(jeu, main, Q♣), move(jeu, main, 7♠), allow(main, tapis, 1), pass(main, tapis, Q♣), pass(main, tapis, 7♠)]", Err: "<e>:1:90: cannot pass 7♠ from main to tapis: no passes left (allow(main, tapis, n) sets them)"},
		{Src: `new_pile("x")`, Want: "x[]"},
		{Src: `len(new_pile("x").cards)`, Want: "0"},
		{Src: "shuffle(main)", Want: "main[]"},
		{Src: "[len(shuffle(jeu).cards), len(uniq(jeu.cards))]", Want: "[52, 52]"},
	}
	checkEvals(t, prog, func() dice.Source { return dice.NewPCG(1) }, cases)
}

// TestFailedCardMovesUndone: a call that fails after moving cards puts every card back.
func TestFailedCardMovesUndone(t *testing.T) {
	prog, d := dsl.LoadSource("t.rules", []byte(pilesRules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := dsl.NewSession(m)
	before, err := s.Eval("<e>", "[jeu.cards, main.cards, tapis.cards]")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Eval("<e>", "jouer_mal()"); err == nil || !strings.Contains(err.Error(), "t.rules:18:10: expected a pile, got 3") {
		t.Fatalf("jouer_mal() = %v", err)
	}
	after, err := s.Eval("<e>", "[jeu.cards, main.cards, tapis.cards]")
	if err != nil || runtime.Repr(after) != runtime.Repr(before) {
		t.Errorf("piles after a failed call:\n%s\nwant\n%s", runtime.Repr(after), runtime.Repr(before))
	}
}

// TestHandGivenCards: draws from a shuffled pile (a deck) take the cards given by hand first,
// in order, wherever they lie in it; a draw from a pile in a known order (a hand) takes its
// top card and leaves them; a given card the deck does not hold fails the call, which keeps
// it given, and a call that fails gives the cards it drew back to the hand-given list.
func TestHandGivenCards(t *testing.T) {
	prog, d := dsl.LoadSource("t.rules", []byte(pilesRules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	for _, c := range []struct {
		given     []string
		src, want string
		left      int
	}{
		{[]string{"Q♣", "7♠"}, "[draw(jeu), draw(jeu), len(jeu.cards)]", "[Q♣, 7♠, 50]", 0},
		{[]string{"QC"}, "draw(jeu, 1)", "[Q♣]", 0},
		{[]string{"Q♣", "7♠"}, "[deal(jeu, main, 1), main.cards]", "[main[Q♣], [Q♣]]", 1},
		{[]string{"Q♣"}, "[move(jeu, main, Q♣), draw(jeu)]", `"<e>:1:23: hand-given card: Q♣ is not in jeu (:cards clear drops it)"`, 1},
		{[]string{"Q♣"}, "[move(jeu, main, 2♦), deal(main, tapis, 1), draw(jeu)]", "[2♦, tapis[2♦], Q♣]", 0},
		{[]string{"7♠", "Q♣"}, "[draw(jeu), move(jeu, main, 2♦), move(jeu, main, Q♣), len(shuffle(main).cards), draw(main)]", "[7♠, 2♦, Q♣, 2, Q♣]", 0},
		{[]string{"Q♣"}, "[draw(jeu), draw(main)]", `"<e>:1:13: cannot draw: main is empty"`, 1},
	} {
		m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		peek.Machine(m).GivenCards = c.given
		v, err := dsl.NewSession(m).Eval("<e>", c.src)
		got := runtime.Repr(v)
		if err != nil {
			got = runtime.Repr(err.Error())
		}
		if got != c.want || len(peek.Machine(m).GivenCards) != c.left {
			t.Errorf("%v %s = %s, %d given left; want %s, %d", c.given, c.src, got, len(peek.Machine(m).GivenCards), c.want, c.left)
		}
	}
}

// TestDrawsTraced: :trace shows every card drawn, dealt ones included, a hand-given card
// marked (given); cards did not appear in the trace at all.
func TestDrawsTraced(t *testing.T) {
	prog, d := dsl.LoadSource("t.rules", []byte(pilesRules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	peek.Machine(m).GivenCards = []string{"Q♣"}
	var lines []string
	peek.Machine(m).Trace = func(_ int, line string) { lines = append(lines, line) }
	if _, err := dsl.NewSession(m).Eval("<e>", "[deal(jeu, main, 2), draw(main)]"); err != nil {
		t.Fatal(err)
	}
	if len(lines) < 3 || lines[0] != "draw Q♣ from jeu (given)" || !strings.HasPrefix(lines[1], "draw ") || strings.Contains(lines[1], "given") || !strings.HasSuffix(lines[2], " from main") {
		t.Errorf("trace %q", lines)
	}
}
