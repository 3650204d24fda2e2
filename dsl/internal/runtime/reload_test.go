package runtime_test

import (
	"fmt"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

// reloadOld and reloadNew are a ruleset before and after an edit: an option changes type,
// one is added; a pile, a die, a map, a kind and an entity go; a kind gains a field and
// changes another's type; an entity changes kind; a rule takes a session variable's name.
const reloadOld = `ruleset "r"
option bonus = 2 "b"
option mode = "a" "m"
deck jeu standard
pile main
pile défausse
dice combat = [sabre, fusil]
map champ {
  rows {
    ". ."
  }
  legend "." plaine
}
kind U {
  pv: int = 10
  nom: string = "u"
  main: pile
  cible: any
}
kind V {
  x: int = 1
}
entity a: U { }
entity b: U { }
entity c: V { }
`

const reloadNew = `ruleset "r"
option bonus = 2 "b"
option mode = 3 "m"
option neuve = 1 "n"
deck jeu standard
pile main
kind U {
  pv: int = 10
  nom: int = 0
  main: pile
  cible: any
  force: int = 4
}
entity a: U { }
entity c: U { }
entity e: U { }
rule f(): int {
  return 1
}
`

// reloadInputs set the old machine's state: fields, cards in declared piles and in an
// entity's pile, allowances, records that point at each other, session variables of
// every sort.
var reloadInputs = []string{"a.pv = 3", `a.nom = "x"`, "move(jeu, main, Q♣)", "move(jeu, a.main, 7♠)", "move(jeu, défausse, 2♥)",
	"allow(main, a.main, 2)", "allow(main, défausse, 1)", "a.cible = b", "b.cible = a",
	"let v1 = [1, {k: Q♣}]", "let v2 = a", "let v3 = b", "let v4 = combat", "let v5 = champ", "let v6 = c", "let v7 = 2♥",
	"let v8 = U()", "let f = 3", "let v9 = main", "let v10 = a.main"}

// TestCarryOver reloads edited rule files under a session: what is kept, what is reset and
// why, and the names added and removed; with the deck kept, cards stay where they were, and
// with the deck edited every card, pile and variable holding one starts afresh.
func TestCarryOver(t *testing.T) {
	for _, c := range []struct {
		name        string
		edit        func(string) string
		notes       []string
		kept        string
		vars, state []string
	}{
		{
			name: "deck kept",
			edit: func(s string) string { return s },
			notes: []string{
				"option mode reset to its default: option mode: expected int, got \"b\"",
				"entity c is now a U: it starts afresh",
				"a.nom reset to its default: expected int, got \"x\"",
				"a.cible reset to its default: it referred to entity b, which is gone or starts afresh",
				"session variable f dropped: the rule files now declare f",
				"session variable v3 dropped: it referred to entity b, which is gone or starts afresh",
				"session variable v4 dropped: die combat is gone",
				"session variable v5 dropped: map champ is gone",
				"session variable v6 dropped: it referred to entity c, which is gone or starts afresh",
				"session variable v8 dropped: U.nom: expected int, got \"u\"",
				"1 pass allowance(s) dropped: their piles are gone",
				"+ entity e",
				"+ rule f",
				"+ option neuve",
				"- kind V",
				"- entity b",
				"- map champ",
				"- dice combat",
				"- pile défausse",
			},
			kept: "{Entities:1 Piles:3 Allowances:1 Vars:5}",
			vars: []string{
				"v1 [1, {k: Q♣}]",
				"v10 pile[7♠]",
				"v2 U{pv: 3, nom: 0, main: pile[7♠], cible: nil, force: 4}",
				"v7 2♥",
				"v9 main[Q♣]",
			},
			state: []string{
				"[U{pv: 3, nom: 0, main: pile[7♠], cible: nil, force: 4}, U{pv: 10, nom: 0, main: pile[], cible: nil, force: 4}, U{pv: 10, nom: 0, main: pile[], cible: nil, force: 4}]",
				"[[Q♣], [7♠], 49]",
				"[2, 5, 3, 1]",
				"nil",
			},
		},
		{
			name: "deck edited",
			edit: func(s string) string {
				return strings.Replace(s, "deck jeu standard\n", "deck jeu standard {\n  jokers 1\n}\n", 1)
			},
			notes: []string{
				"option mode reset to its default: option mode: expected int, got \"b\"",
				"deck jeu was edited: it starts afresh, full and shuffled, and every pile loses the cards it held",
				"pile main emptied: it held Q♣, and deck jeu was edited",
				"entity c is now a U: it starts afresh",
				"a.nom reset to its default: expected int, got \"x\"",
				"a.main reset to its default: pile pile: it held 7♠, and deck jeu was edited",
				"a.cible reset to its default: it referred to entity b, which is gone or starts afresh",
				"session variable f dropped: the rule files now declare f",
				"session variable v1 dropped: it held Q♣, and deck jeu was edited",
				"session variable v10 dropped: pile pile: it held 7♠, and deck jeu was edited",
				"session variable v3 dropped: it referred to entity b, which is gone or starts afresh",
				"session variable v4 dropped: die combat is gone",
				"session variable v5 dropped: map champ is gone",
				"session variable v6 dropped: it referred to entity c, which is gone or starts afresh",
				"session variable v7 dropped: it held 2♥, and deck jeu was edited",
				"session variable v8 dropped: U.nom: expected int, got \"u\"",
				"2 pass allowance(s) dropped: their piles are gone",
				"+ entity e",
				"+ rule f",
				"+ option neuve",
				"- kind V",
				"- entity b",
				"- map champ",
				"- dice combat",
				"- pile défausse",
			},
			kept: "{Entities:1 Piles:2 Allowances:0 Vars:2}",
			vars: []string{
				"v2 U{pv: 3, nom: 0, main: pile[], cible: nil, force: 4}",
				"v9 main[]",
			},
			state: []string{
				"[U{pv: 3, nom: 0, main: pile[], cible: nil, force: 4}, U{pv: 10, nom: 0, main: pile[], cible: nil, force: 4}, U{pv: 10, nom: 0, main: pile[], cible: nil, force: 4}]",
				"[[], [], 53]",
				"[0, 5, 3, 1]",
				"nil",
			},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			old := reloadSession(t, reloadOld)
			if err := old.M.SetOption("mode", "b"); err != nil {
				t.Fatal(err)
			}
			if err := old.M.SetOption("bonus", 5); err != nil {
				t.Fatal(err)
			}
			for _, in := range reloadInputs {
				if err := old.Exec("<e>", in); err != nil {
					t.Fatalf("%s: %v", in, err)
				}
			}
			s := reloadSession(t, c.edit(reloadNew))
			notes, kept := s.CarryOver(old)
			if got, want := strings.Join(notes, "\n"), strings.Join(c.notes, "\n"); got != want {
				t.Errorf("notes:\n%s\nwant\n%s", got, want)
			}
			if got := fmt.Sprintf("%+v", kept); got != c.kept {
				t.Errorf("kept %s, want %s", got, c.kept)
			}
			var vars []string
			for _, name := range s.Vars() {
				v, _ := s.Var(name)
				vars = append(vars, name+" "+runtime.Repr(v))
			}
			if got, want := strings.Join(vars, "\n"), strings.Join(c.vars, "\n"); got != want {
				t.Errorf("vars:\n%s\nwant\n%s", got, want)
			}
			for i, src := range []string{"[a, c, e]", "[main.cards, a.main.cards, len(jeu.cards)]", "[passes(main, a.main), bonus, mode, neuve]", "a.cible"} {
				v, err := s.Eval("<e>", src)
				if err != nil || runtime.Repr(v) != c.state[i] {
					t.Errorf("%s = %s, %v; want %s", src, runtime.Repr(v), err, c.state[i])
				}
			}
		})
	}
}

func reloadSession(t *testing.T, src string) *dsl.Session {
	t.Helper()
	prog, d := dsl.LoadSource("t.rules", []byte(src))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	return dsl.NewSession(m)
}
