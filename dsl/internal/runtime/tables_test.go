package runtime_test

import (
	"math/big"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/dsltest"
	"rulesh/dsl/internal/peek"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

const tableRules = `ruleset "t"
dice combat = [sabre, fusil, boulet]
deck jeu standard
table bande(dist) {
  0 .. 1.5    : "contact"
  1.5 .. 2.5  : "lourde"
  2.5 .. 4    : "longue"
  else        : "hors"
}
table portée(dist, allonge) {
  (.. allonge]               : "impossible"
  (allonge .. allonge*6]     : "idéale"
  (allonge*6 .. allonge*10]  : "lointaine"
  else                       : "hors de portée"
}
table arme(x) {
  sabre, fusil : 1
  boulet : 2
  "mot" : 3
  < 0 : "négatif"
  >= 100 : "grand"
}
table localisation roll 3d6 {
  3 .. 4   : "tête"
  5 .. 9   : "torse"
  10 .. 12 : "bras"
  13 .. 18 : "jambes"
}
table symbole roll 1d[combat] {
  sabre : "taille"
  fusil, boulet : "feu"
}
table résultat(rapport, dé) {
  columns ratio 1:3, 1:2, 1:1, 3:2, 2:1, 3:1
  below   : "attaque impossible"
  1 .. 2  : ["AE", "AE", "AR", "EX", "DR", "DE"]
  3 .. 6  : ["AR", "EX", "DR", "DR", "DE", "DE"]
}
table lettres(col, dé) {
  columns "A", "B"
  1 .. 3 : [10, 20]
  4 .. 6 : [30, 40]
}
kind U {
  pv: int = 1
}
kind V {
  pv: int = 2
}
rule unité(u: U): int {
  return u.pv
}
rule sortes(a: []string, b: map, c: pile, d: card, f: []U, g: list): int {
  return 1
}
rule brut(x) {
  return x
}
rule typé(n: int, f: float, s: string, b: bool, l: []int, h: hex, r: any): string {
  return "ok"
}
table assaut(rapport, dé) {
  columns ratio 1:1, 2:1, 3:1
  below  : "repoussé"
  above  : "submergé " + str(dé)
  1 .. 6 : ["AR", "EX", "DE"]
}
`

// TestTables looks keys up in every sort of table: bands with shared ends, bands computed
// from parameters, values and symbols, one-sided bands, rolled tables with hand-given dice,
// ratio and value columns; a key no row holds is an error naming the table. Parameters of
// every declared type refuse a value of another type, with the parameter named.
func TestTables(t *testing.T) {
	prog, d := dsl.LoadSource("t.rules", []byte(tableRules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	dsltest.CheckEvals(t, prog, func() dice.Source { return dice.NewQueue(nil, nil) }, []dsltest.Case{
		{Src: "[bande(0), bande(1.5), bande(2), bande(2.5), bande(4), bande(4.01)]", Want: `["contact", "contact", "lourde", "lourde", "longue", "hors"]`},
		{Src: "[portée(1, 2), portée(2, 2), portée(2.5, 2), portée(12, 2), portée(13, 2), portée(20, 2), portée(21, 2)]", Want: `["impossible", "impossible", "idéale", "idéale", "lointaine", "lointaine", "hors de portée"]`},
		{Src: `[arme("sabre"), arme("fusil"), arme("boulet"), arme("mot"), arme(-1), arme(100)]`, Want: `[1, 1, 2, 3, "négatif", "grand"]`},
		{Src: "arme(50)", Err: "t.rules:16:1: table arme has no row for 50"},
		{Src: "[localisation(3), localisation(9), localisation(18)]", Want: `["tête", "torse", "jambes"]`},
		{Src: "localisation()", Rolls: []string{"1", "1", "2"}, Want: `"tête"`},
		{Src: "localisation()", Rolls: []string{"6", "6", "6"}, Want: `"jambes"`},
		{Src: "[résultat(1.0 / 3, 1), résultat(0.6, 2), résultat(1, 3), résultat(1.9, 4), résultat(2.5, 5), résultat(10, 6)]", Want: `["AE", "AE", "DR", "DR", "DE", "DE"]`},
		{Src: "résultat(0.2, 1)", Want: `"attaque impossible"`},
		{Src: "[assaut(0.5, 1), assaut(1, 1), assaut(2.99, 2), assaut(3, 3), assaut(6/2, 4), assaut(3.01, 5), assaut(9, 6), assaut(9, 0)]",
			Want: `["repoussé", "AR", "EX", "DE", "DE", "submergé 5", "submergé 6", "submergé 0"]`},
		{Src: "résultat(100, 1)", Want: `"DE"`},
		{Src: `[lettres("A", 1), lettres("B", 6)]`, Want: "[10, 40]"},
		{Src: `lettres("C", 1)`, Err: "lettres"},
		{Src: `typé(1, 2, "s", true, [1], hex(1, 1), nil)`, Want: `"ok"`},
		{Src: `typé(brut("x"), 2, "s", true, [1], hex(1, 1), nil)`, Err: "<e>:1:1: typé: parameter n: expected int, got \"x\""},
		{Src: `typé(1, brut("x"), "s", true, [1], hex(1, 1), nil)`, Err: "<e>:1:1: typé: parameter f: expected float, got \"x\""},
		{Src: `typé(1, 2, brut(3), true, [1], hex(1, 1), nil)`, Err: "<e>:1:1: typé: parameter s: expected string, got 3"},
		{Src: `typé(1, 2, "s", brut(1), [1], hex(1, 1), nil)`, Err: "<e>:1:1: typé: parameter b: expected bool, got 1"},
		{Src: `typé(1, 2, "s", true, brut(3), hex(1, 1), nil)`, Err: "<e>:1:1: typé: parameter l: expected []int, got 3"},
		{Src: `typé(1, 2, "s", true, [1], brut(3), nil)`, Err: "<e>:1:1: typé: parameter h: expected hex, got 3"},
		{Src: `typé(1.5, 2, "s", true, [1], hex(1, 1), nil)`, Err: "<e>:1:1: typé: parameter n: expected an int, got 1.5 (use floor, ceil or round)"},
		{Src: `unité(brut({pv: 1}))`, Err: "<e>:1:1: unité: parameter u: expected a U, got {pv: 1}"},
		{Src: `unité(brut(3))`, Err: "<e>:1:1: unité: parameter u: expected a U, got 3"},
		{Src: `unité(U())`, Want: "1"},
		{Src: `unité(brut(V()))`, Err: "<e>:1:1: unité: parameter u: expected a U, got V{pv: 2}"},
		{Src: `sortes([], {}, jeu, Q♣, [U()], [])`, Want: "1"},
		{Src: `sortes(brut(1), {}, jeu, Q♣, [], [])`, Err: "<e>:1:1: sortes: parameter a: expected []string, got 1"},
		{Src: `sortes([], brut(1), jeu, Q♣, [], [])`, Err: "<e>:1:1: sortes: parameter b: expected map, got 1"},
		{Src: `sortes([], {}, brut(1), Q♣, [], [])`, Err: "<e>:1:1: sortes: parameter c: expected pile, got 1"},
		{Src: `sortes([], {}, jeu, brut(1), [], [])`, Err: "<e>:1:1: sortes: parameter d: expected card, got 1"},
		{Src: `sortes([], {}, jeu, Q♣, brut(1), [])`, Err: "<e>:1:1: sortes: parameter f: expected []U, got 1"},
		{Src: `sortes([], {}, jeu, Q♣, [], brut(1))`, Err: "<e>:1:1: sortes: parameter g: expected list, got 1"},
	})
}

// TestTableOdds: the exact distribution of a rolled table adds the ways of its dice row by
// row: 3d6 has 4 ways to make 3 or 4, 77 for 5 to 9, 81 for 10 to 12 and 54 for 13 to 18, as
// counting the 216 rolls one by one says.
func TestTableOdds(t *testing.T) {
	prog, d := dsl.LoadSource("t.rules", []byte(tableRules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	want := make([]int, 4)
	for a := 1; a <= 6; a++ {
		for b := 1; b <= 6; b++ {
			for c := 1; c <= 6; c++ {
				switch s := a + b + c; {
				case s <= 4:
					want[0]++
				case s <= 9:
					want[1]++
				case s <= 12:
					want[2]++
				default:
					want[3]++
				}
			}
		}
	}
	dist, err := prog.TableDist("localisation")
	if err != nil {
		t.Fatal(err)
	}
	if dist.Min != 1 || len(dist.W) != 4 || dist.Mass().Int64() != 216 {
		t.Fatalf("dist from %d, %d rows, mass %v", dist.Min, len(dist.W), dist.Mass())
	}
	for i, w := range want {
		if got := dist.P(i + 1); got.Cmp(bigRat(w, 216)) != 0 {
			t.Errorf("row %d: P = %v, want %d/216", i+1, got, w)
		}
	}
	sym, err := prog.TableDist("symbole")
	if err != nil || sym.Mass().Int64() != 3 || sym.P(1).Cmp(bigRat(1, 3)) != 0 || sym.P(2).Cmp(bigRat(2, 3)) != 0 {
		t.Errorf("symbole: %v, %v; want 1/3 and 2/3", sym, err)
	}
	for _, name := range []string{"bande", "nope"} {
		if _, err := prog.TableDist(name); err == nil {
			t.Errorf("TableDist(%s): no error", name)
		}
	}
}

// TestParseValue reads values as the command line and transcripts write them.
func TestParseValue(t *testing.T) {
	for in, want := range map[string]string{
		"3": "3", "-2": "-2", "1.5": "1.5", "true": "true", "false": "false",
		"abc": `"abc"`, `"a b"`: `"a b"`, "": `""`,
	} {
		if got := runtime.Repr(runtime.ParseValue(in)); got != want {
			t.Errorf("ParseValue(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestTrace: a Machine with a Trace hook reports the calls and the rolls it makes.
func TestTrace(t *testing.T) {
	prog, d := dsl.LoadSource("t.rules", []byte(tableRules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := dsl.NewMachine(prog, dice.NewIntQueue([]int{1, 1, 2}, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	peek.Machine(m).Trace = func(depth int, line string) { lines = append(lines, strings.Repeat(" ", depth)+line) }
	if v, err := dsl.NewSession(m).Eval("<e>", "localisation()"); err != nil || v != "tête" {
		t.Fatalf("localisation() = %v, %v", v, err)
	}
	if got := strings.Join(lines, "\n"); !strings.Contains(got, "localisation") || !strings.Contains(got, "3d6") {
		t.Errorf("trace:\n%s", got)
	}
}

func bigRat(a, b int) *big.Rat { return big.NewRat(int64(a), int64(b)) }
