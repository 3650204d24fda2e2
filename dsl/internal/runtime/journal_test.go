package runtime_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/peek"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/cards"
	"rulesh/stdlib/dice"
)

// deepState writes everything a failed call must leave as it was: every global, walked
// deeply (records and maps by identity and content, a key that is absent apart from one
// holding nil, piles by identity and the order of their cards), the allowances between every
// two piles and the hand-given cards still to come.
func deepState(s *dsl.Session) string {
	var b strings.Builder
	seen := map[any]int{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			id := fmt.Sprintf("%p", x)
			if n, ok := seen[id]; ok {
				fmt.Fprintf(&b, "@%d", n)
				return
			}
			seen[id] = len(seen)
			fmt.Fprintf(&b, "{#%d %s", seen[id], id)
			keys := runtime.SortedKeys(x)
			for _, k := range keys {
				fmt.Fprintf(&b, " %q:", k)
				walk(x[k])
			}
			b.WriteString("}")
		case []any:
			fmt.Fprintf(&b, "[%d", len(x))
			for _, e := range x {
				b.WriteString(" ")
				walk(e)
			}
			b.WriteString("]")
		case *cards.Pile:
			fmt.Fprintf(&b, "pile(%p %s", x, x.Name)
			for _, c := range x.Cards {
				fmt.Fprintf(&b, " %p=%s", c, c)
			}
			b.WriteString(")")
		case *cards.Card:
			fmt.Fprintf(&b, "card(%p=%s)", x, x)
		case nil:
			b.WriteString("nil")
		default:
			fmt.Fprintf(&b, "%T(%s)", v, runtime.Repr(v))
		}
	}
	var piles []*cards.Pile
	names := s.M.Program().Names()
	slices.Sort(names)
	for _, name := range names {
		v, ok := s.M.Global(name)
		if !ok {
			continue
		}
		fmt.Fprintf(&b, "%s = ", name)
		walk(v)
		b.WriteString("\n")
		if p, ok := v.(*cards.Pile); ok {
			piles = append(piles, p)
		}
	}
	for _, from := range piles {
		for _, to := range piles {
			if n := peek.Machine(s.M).Allowance(from, to); n != 0 {
				fmt.Fprintf(&b, "allow %s -> %s = %d\n", from.Name, to.Name, n)
			}
		}
	}
	fmt.Fprintf(&b, "given %q\n", peek.Machine(s.M).GivenCards)
	for _, name := range s.Vars() {
		v, _ := s.Var(name)
		fmt.Fprintf(&b, "var %s = ", name)
		walk(v)
		b.WriteString("\n")
	}
	return b.String()
}

const journalRules = `ruleset "j"
kind Pos {
  x: int = 0
  y: int = 0
}
kind U {
  pv: int = 10
  n: int = 0
  nom: string = "u"
  suivant: U
  où: Pos
  sac: map
  notes: []string
}
entity a: U { nom: "A" }
entity b: U { nom: "B" }
deck jeu standard {
}
pile main
pile défausse
action touche(n: int, échoue: bool) {
  allow(jeu, main, 3)
  allow(main, défausse, 5)
  for i in 1..n {
    a.pv = a.pv - i
    b.n += 1
    a.nom = a.nom + "!"
    a.notes = a.notes + [str(i)]
    a.sac["k" + str(i % 40)] = i
    b.sac["neuf"] = i
  }
  let p = Pos({x: 1})
  p.x = 7
  a.où = p
  a.où.y = 9
  b.suivant = U({nom: "C"})
  b.suivant.pv = 1
  b.suivant.suivant = a
  a.pv += d(6) + d(6)
  shuffle(jeu)
  deal(jeu, main, 5)
  draw(jeu)
  play(main, main.cards[0], défausse)
  pass(jeu, main, jeu.cards[0])
  shuffle(main)
  emit "fin"
  require !échoue else "échec voulu"
}
`

// TestFailedCallRestoresEverything: a failed top-level call leaves the state exactly as it
// was before it (fields written many times, fields of records created during the call, map
// entries added, piles shuffled, dealt and played, allowances, hand-given cards consumed),
// and the hand-given die results come back; whether the journal is short or long.
func TestFailedCallRestoresEverything(t *testing.T) {
	for _, n := range []int{1, 3, 100} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			newSession := func() *dsl.Session {
				prog, d := dsl.LoadSource("j.rules", []byte(journalRules))
				if d.HasErrors() {
					t.Fatal(d)
				}
				m, err := dsl.NewMachine(prog, dice.NewIntQueue([]int{1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6}, dice.NewPCG(7)), nil)
				if err != nil {
					t.Fatal(err)
				}
				return dsl.NewSession(m)
			}
			s, twin := newSession(), newSession()
			for _, x := range []*dsl.Session{s, twin} {
				// State from an earlier successful call, so that the failed one changes what
				// a call made before it.
				if _, err := x.Eval("<e>", "touche(2, false)"); err != nil {
					t.Fatal(err)
				}
				if _, err := x.Let("r", "a"); err != nil {
					t.Fatal(err)
				}
				peek.Machine(x.M).GivenCards = []string{"K♥", "Q♠", "2♦"}
			}
			before := deepState(s)
			_, err := s.Eval("<e>", fmt.Sprintf("touche(%d, true)", n))
			if err == nil || !strings.Contains(err.Error(), "échec voulu") {
				t.Fatalf("touche: %v", err)
			}
			if after := deepState(s); after != before {
				t.Errorf("state after the failed call differs:\n%s", diffLines(before, after))
			}
			// The hand-given dice results it took are given back (a seeded source, and the
			// shuffles, are not rewound).
			next := "[d(6), d(6), d(6), d(6), draw(jeu)]"
			got, err1 := s.Eval("<e>", next)
			want, err2 := twin.Eval("<e>", next)
			if err1 != nil || err2 != nil || runtime.Repr(got) != runtime.Repr(want) {
				t.Errorf("after the failed call %s, %v; on a machine without it %s, %v", runtime.Repr(got), err1, runtime.Repr(want), err2)
			}
		})
	}
}

// TestFailedExecRestores: statements typed at the REPL that fail midway leave the state and
// the session variables as they were.
func TestFailedExecRestores(t *testing.T) {
	prog, d := dsl.LoadSource("j.rules", []byte(journalRules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(7), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := dsl.NewSession(m)
	if err := s.Exec("<input>", "let r = a\nlet k = 1"); err != nil {
		t.Fatal(err)
	}
	peek.Machine(m).GivenCards = []string{"K♥"}
	before := deepState(s)
	for _, src := range []string{
		"r.pv = 1\nk = 5\nlet z = 2\na.sac[\"x\"] = 1\nshuffle(jeu)\ndraw(jeu)\nallow(jeu, main, 2)\nb.suivant = U()\nb.suivant.n = 3\nrequire false else \"non\"",
		"for i in 1..50 {\n  a.pv -= 1\n  a.sac[str(i)] = i\n}\nr.n = 1 / 0",
		"touche(3, false)\nrequire false else \"non\"",
	} {
		if err := s.Exec("<input>", src); err == nil {
			t.Fatalf("%q did not fail", src)
		}
		if after := deepState(s); after != before {
			t.Errorf("%q: state after the failure differs:\n%s", src, diffLines(before, after))
		}
	}
}

// TestFailedCallRestoresAcrossReload: a failed call on a session carried over a reload
// restores the carried state.
func TestFailedCallRestoresAcrossReload(t *testing.T) {
	load := func(src string) *dsl.Session {
		prog, d := dsl.LoadSource("j.rules", []byte(src))
		if d.HasErrors() {
			t.Fatal(d)
		}
		m, err := dsl.NewMachine(prog, dice.NewPCG(7), nil)
		if err != nil {
			t.Fatal(err)
		}
		return dsl.NewSession(m)
	}
	old := load(journalRules)
	if _, err := old.Eval("<e>", "touche(4, false)"); err != nil {
		t.Fatal(err)
	}
	if _, err := old.Let("r", "b"); err != nil {
		t.Fatal(err)
	}
	s := load(journalRules + "\nrule plus(): int {\n  return 1\n}\n")
	s.CarryOver(old)
	peek.Machine(s.M).GivenCards = []string{"3♣", "7♦"}
	before := deepState(s)
	if _, err := s.Eval("<e>", "touche(60, true)"); err == nil {
		t.Fatal("touche did not fail")
	}
	if after := deepState(s); after != before {
		t.Errorf("state after the failed call differs:\n%s", diffLines(before, after))
	}
}

// diffLines shows the lines of b that are not in a and the other way round.
func diffLines(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out []string
	for _, l := range al {
		if !slices.Contains(bl, l) {
			out = append(out, "- "+l)
		}
	}
	for _, l := range bl {
		if !slices.Contains(al, l) {
			out = append(out, "+ "+l)
		}
	}
	return strings.Join(out, "\n")
}

// TestGivenCardKeptByRollback: a hand-given card the deck cannot give fails the call, and the
// rollback gives back every hand-given card as it was, that one included (it used to be
// dropped although the call was undone); `:cards clear` is the player's to do.
func TestGivenCardKeptByRollback(t *testing.T) {
	prog, d := dsl.LoadSource("j.rules", []byte("ruleset \"j\"\ndeck jeu standard {\n}\npile main\naction deux() {\n  deal(jeu, main, 1)\n  deal(jeu, main, 1)\n}\n"))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := dsl.NewSession(m)
	peek.Machine(m).GivenCards = []string{"K♥"}
	if _, err := s.Eval("<e>", "deal(jeu, main, 1)"); err != nil {
		t.Fatal(err)
	}
	peek.Machine(m).GivenCards = []string{"3♣", "K♥", "2♦"} // K♥ is in main: it cannot be drawn from jeu
	if _, err := s.Eval("<e>", "deux()"); err == nil || !strings.Contains(err.Error(), "K♥ is not in jeu (:cards clear drops it)") {
		t.Fatalf("deux(): %v", err)
	}
	if got := fmt.Sprint(peek.Machine(m).GivenCards); got != "[3♣ K♥ 2♦]" {
		t.Errorf("hand-given cards after the failed call: %s, want [3♣ K♥ 2♦]", got)
	}
	if v, err := s.Eval("<e>", "[len(jeu.cards), main.cards]"); err != nil || runtime.Repr(v) != "[51, [K♥]]" {
		t.Errorf("piles after the failed call: %s, %v", runtime.Repr(v), err)
	}
	peek.Machine(m).GivenCards = []string{"3♣", "2♦"}
	if _, err := s.Eval("<e>", "deux()"); err != nil {
		t.Errorf("the retry: %v", err)
	}
	if v, err := s.Eval("<e>", "main.cards"); err != nil || runtime.Repr(v) != "[K♥, 3♣, 2♦]" {
		t.Errorf("main: %s, %v", runtime.Repr(v), err)
	}
}
