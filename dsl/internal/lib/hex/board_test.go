package hex_test

import (
	"fmt"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/peek"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

// boardRules is the map of docs/LANGUAGE.md with the rules its functions call back: a cost
// that forbids rivers without a crossing and woods to cavalry, a stop on hills, blockers
// and retreat tests, some failing, and every builtin behind untyped parameters, so that a
// wrong argument gets past the checker and reaches the builtin's own checks.
const boardRules = `ruleset "h"
map champ {
  rows {
    ". . . . f f . . ."
    ". . . . f . . c ."
    ". v . . . . c c ."
  }
  legend "." plaine, "f" forêt, "c" colline, "v" village
  river (4,1)-(5,1), (4,2)-(5,1), (4,2)-(5,2)
  bridge (4,2)-(5,2)
  stream (7,2)-(7,3)
  ford (7,2)-(7,3)
  road (1,3), (2,3), (3,3)
  height (8,2) 2
  point moulin (8,2) "le moulin sur la colline"
}
kind U {
  genre: string = "inf"
}
entity inf: U { }
entity cav: U { genre: "cav" }
rule coût(u: U, a: hex, b: hex): int {
  if edge(champ, a, b) == "river" && crossing(champ, a, b) == "" {
    return -1
  }
  if terrain(champ, b) == "forêt" {
    return u.genre == "cav" ? -1 : 2
  }
  return 1
}
rule coût_texte(u, a, b) {
  return "x"
}
rule coût_faux(u, a, b) {
  require false else "coût refusé"
}
rule arrêt(u: U, a: hex, b: hex): bool {
  return terrain(champ, b) == "colline"
}
rule bloque(m, h, a, b): bool {
  return terrain(m, h) == "forêt"
}
rule bloque_faux(m, h, a, b) {
  require false else "bloque refusé"
}
rule un(u, a, b): int {
  return 1
}
rule libre(h): bool {
  return terrain(champ, h) != "forêt"
}
rule libre_faux(h) {
  return h.nope
}
rule any_hex_distance(a, b) {
  return hex_distance(a, b)
}
rule any_terrain(m, h) {
  return terrain(m, h)
}
rule any_edge(m, a, b) {
  return edge(m, a, b)
}
rule any_point(m) {
  return point(m, "moulin")
}
rule any_neigh(h) {
  return neighbours(h)
}
rule any_neigh2(m, h) {
  return neighbours(m, h)
}
rule any_ring(h) {
  return ring(h, 1)
}
rule any_range(h) {
  return hex_range(h, 1)
}
rule any_line(a, b) {
  return line(a, b)
}
rule any_lof(m, a, b) {
  return line_of_fire(m, a, b, bloque)
}
rule any_reach(m, h) {
  return reachable(m, inf, h, 2, coût)
}
rule any_path(m, a, b) {
  return path(m, inf, a, b, 5, coût)
}
rule any_retreats(m, a, b) {
  return retreats(m, inf, a, b, libre_pour)
}
rule libre_pour(u: U, de: hex, vers: hex): bool {
  return hex_distance(de, vers) == 1 && terrain(champ, vers) != (u.genre == "cav" ? "colline" : "forêt")
}
rule deux(a, b): int {
  return 1
}
rule trois_à_cinq(a, b, c, d = 1, e = 2): bool {
  return true
}
action marcher(u, de, vers) {
  u.genre = "las"
  return 1
}
rule quatre_texte(m, h, a, b) {
  return "x"
}
rule sans_retour(u, a, b) {
}
`

// TestHexBuiltins runs every hex builtin: values on the board of boardRules, and the message
// for a wrong argument, a missing rule, a failing or ill-typed rule callback, and a radius or
// line beyond the bound. Procedures are passed as values (checked at load: unknown, of
// another arity, or written where nothing calls them), by a string literal (the older form,
// resolved at load too), or by a name computed when the call runs.
func TestHexBuiltins(t *testing.T) {
	prog, d := dsl.LoadSource("t.rules", []byte(boardRules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	for _, c := range []struct{ src, want, err string }{
		{src: "hex(1, 1)", want: "(1,1)"},
		{src: "[hex(2, 3).q, hex(2, 3).r]", want: "[0, 2]"},
		{src: "hex(-1000000001, 1)", err: "<e>:1:1: hex(-1000000001, 1): a column or row is at most 1000000000 away from 0"},
		{src: "hex_distance(hex(1, 1), hex(9, 3))", want: "9"},
		{src: `hex_distance("1,1", hex(2,1))`, want: "1"},
		{src: "any_hex_distance(3, hex(1,1))", err: "t.rules:56:10: expected a hex, got 3"},
		{src: `any_hex_distance(hex(1,1), "zz")`, err: `t.rules:56:10: "zz" is not a hex such as (3,4)`},
		{src: "neighbours(hex(1, 1))", want: "[(2,1), (1,0), (0,0), (0,1), (0,2), (1,2)]"},
		{src: "neighbours(champ, hex(1, 1))", want: "[(2,1), (1,2)]"},
		{src: "all(neighbours(hex(5, 2)), hex_distance(#, hex(5, 2)) == 1)", want: "true"},
		{src: "any_neigh(3)", err: "t.rules:68:10: expected a hex, got 3"},
		{src: "any_neigh2(3, hex(1,1))", err: "t.rules:71:10: expected a map, got 3"},
		{src: "any_neigh2(champ, 3)", err: "t.rules:71:10: expected a hex, got 3"},
		{src: "ring(hex(5, 2), 0)", want: "[(5,2)]"},
		{src: "ring(hex(5, 2), 1)", want: "[(5,3), (6,3), (6,2), (6,1), (5,1), (4,2)]"},
		{src: "[all(1..4, len(ring(hex(5, 2), #)) == 6 * #), all(0..4, len(hex_range(hex(5, 2), #)) == 3 * # * (# + 1) + 1)]", want: "[true, true]"},
		{src: "all(1..4, all(ring(hex(5, 2), #), hex_distance(#, hex(5, 2)) > 0)) && all(ring(hex(5, 2), 3), hex_distance(#, hex(5, 2)) == 3)", want: "true"},
		{src: "any_ring(3)", err: "t.rules:74:10: expected a hex, got 3"},
		{src: "any_range(3)", err: "t.rules:77:10: expected a hex, got 3"},
		{src: "hex_range(hex(1, 1), 1000001)", err: "<e>:1:1: hex_range: 1000001 is too far (at most 1000000)"},
		{src: "[terrain(champ, hex(5, 1)), terrain(champ, hex(2, 3)), terrain(champ, hex(20, 20))]", want: `["forêt", "village", ""]`},
		{src: "[height(champ, hex(8, 2)), height(champ, hex(1, 1)), road(champ, hex(1, 3)), road(champ, hex(1, 1)), on_board(champ, hex(9, 3)), on_board(champ, hex(10, 3))]", want: "[2, 0, true, false, true, false]"},
		{src: "any_terrain(1, hex(1, 1))", err: "t.rules:59:10: expected a map, got 1"},
		{src: "any_terrain(champ, 1)", err: "t.rules:59:10: expected a hex, got 1"},
		{src: "[edge(champ, hex(4, 1), hex(5, 1)), crossing(champ, hex(4, 1), hex(5, 1)), edge(champ, hex(4, 2), hex(5, 2)), crossing(champ, hex(4, 2), hex(5, 2)), edge(champ, hex(7,2), hex(7,3)), crossing(champ, hex(7,2), hex(7,3)), edge(champ, hex(1,1), hex(2,1))]", want: `["river", "", "river", "bridge", "stream", "ford", ""]`},
		{src: "edge(champ, hex(5, 1), hex(4, 1))", want: `"river"`},
		{src: "any_edge(1, hex(1,1), hex(1,2))", err: "t.rules:62:10: expected a map, got 1"},
		{src: "any_edge(champ, hex(1,1), 2)", err: "t.rules:62:10: expected a hex, got 2"},
		{src: `point(champ, "moulin")`, want: "(8,2)"},
		{src: `point(champ, "moulinx")`, err: "<e>:1:1: map champ has no point moulinx"},
		{src: "any_point(2)", err: "t.rules:65:10: expected a map, got 2"},
		{src: "line(hex(1, 1), hex(9, 3))", want: "[(1,1), (2,1), (3,1), (3,2), (4,2), (5,2), (6,2), (7,3), (8,3), (9,3)]"},
		{src: "line(hex(1, 1), hex(1, 1))", want: "[(1,1)]"},
		{src: "any_line(1, hex(1, 1))", err: "t.rules:80:10: expected a hex, got 1"},
		{src: "line(hex(1, 1), hex(1000002, 1))", err: "<e>:1:1: line: 1000001 is too far (at most 1000000)"},
		{src: "line_of_fire(champ, hex(3, 1), hex(8, 1), bloque)", want: "false"},
		{src: "line_of_fire(champ, hex(1, 3), hex(9, 3), bloque)", want: "true"},
		{src: "line_of_fire(champ, hex(4, 1), hex(6, 1), bloque)", want: "false"},
		{src: "line_of_fire(champ, hex(5, 1), hex(6, 1), bloque)", want: "true"},
		{src: "line_of_fire(champ, hex(3, 1), hex(8, 1), bloque_faux)", err: "t.rules:44:3: bloque refusé"},
		{src: `line_of_fire(champ, hex(3, 1), hex(8, 1), "bloque")`, want: "false"},
		{src: `line_of_fire(champ, hex(3, 1), hex(8, 1), "nope")`, err: "<e>:1:43: line_of_fire: no procedure nope"},
		{src: "line_of_fire(champ, hex(3, 1), hex(8, 1), nope)", err: "<e>:1:43: unknown name nope"},
		{src: "line_of_fire(champ, hex(3, 1), hex(8, 1), deux)", err: "<e>:1:43: deux takes 2 parameters; line_of_fire calls it with 4: (map, hex, from, to) (rule deux is declared at t.rules:97:1)"},
		{src: `line_of_fire(champ, hex(3, 1), hex(8, 1), "blo" + "que")`, want: "false"},
		{src: `line_of_fire(champ, hex(3, 1), hex(8, 1), "no" + "pe")`, err: "<e>:1:1: line_of_fire: no procedure nope"},
		{src: `line_of_fire(champ, hex(3, 1), hex(8, 1), "de" + "ux")`, err: "<e>:1:1: deux takes 2 parameters; line_of_fire calls it with 4: (map, hex, from, to)"},
		{src: "line_of_fire(champ, hex(3, 1), hex(8, 1), 3)", err: "<e>:1:1: line_of_fire: expected a procedure, got 3"},
		{src: `line_of_fire(champ, hex(3, 1), hex(8, 1), "")`, err: "<e>:1:1: line_of_fire: a rule deciding what blocks is needed"},
		{src: "any_lof(1, hex(1,1), hex(2,2))", err: "t.rules:83:10: expected a map, got 1"},
		{src: "any_lof(champ, 1, hex(2,2))", err: "t.rules:83:10: expected a hex, got 1"},
		{src: "reachable(champ, inf, hex(4, 2), 2, coût)", want: "[(3,1), (4,1), (2,2), (3,2), (5,2), (3,3), (4,3), (5,3), (6,3)]"},
		{src: "reachable(champ, cav, hex(4, 2), 2, coût)", want: "[(3,1), (4,1), (2,2), (3,2), (3,3), (4,3), (5,3), (6,3)]"},
		{src: "reachable(champ, inf, hex(6, 2), 3, coût, arrêt)", want: "[(6,1), (7,1), (8,1), (9,1), (4,2), (5,2), (7,2), (8,2), (4,3), (5,3), (6,3), (7,3), (8,3)]"},
		{src: "reachable(champ, inf, hex(6, 2), 3, coût)", want: "[(6,1), (7,1), (8,1), (9,1), (4,2), (5,2), (7,2), (8,2), (9,2), (4,3), (5,3), (6,3), (7,3), (8,3), (9,3)]"},
		{src: "reachable(champ, inf, hex(1, 1), 0, coût)", want: "[]"},
		{src: "reachable(champ, inf, hex(1, 1), 2, coût_texte)", err: `<e>:1:1: coût_texte must return a number, got "x"`},
		{src: "reachable(champ, inf, hex(1, 1), 2, coût_faux)", err: "t.rules:35:3: coût refusé"},
		{src: `reachable(champ, inf, hex(1, 1), 2, "nope")`, err: "<e>:1:37: reachable: no procedure nope"},
		{src: `reachable(champ, inf, hex(1, 1), 2, coût, "nope")`, err: "<e>:1:43: reachable: no procedure nope"},
		{src: `reachable(champ, inf, hex(1, 1), 2, "")`, err: "<e>:1:1: reachable: a cost rule is needed"},
		{src: `reachable(champ, inf, hex(1, 1), 2, "coût", "arrêt")`, want: "[(2,1), (3,1), (1,2), (2,2), (1,3), (2,3)]"},
		{src: "reachable(champ, inf, hex(1, 1), 2, coût, arrêt)", want: "[(2,1), (3,1), (1,2), (2,2), (1,3), (2,3)]"},
		{src: "reachable(champ, inf, hex(1, 1), 2, deux)", err: "<e>:1:37: deux takes 2 parameters; reachable calls it with 3: (unit, from, to) (rule deux is declared at t.rules:97:1)"},
		{src: "reachable(champ, inf, hex(1, 1), 2, coût, un)", err: "<e>:1:1: un must return true or false, got 1"},
		{src: "path(champ, inf, hex(1, 1), hex(9, 3), 20, coût, sans_retour)", err: "<e>:1:1: sans_retour must return true or false, got nil"},
		{src: "line_of_fire(champ, hex(3, 1), hex(8, 1), quatre_texte)", err: `<e>:1:1: quatre_texte must return true or false, got "x"`},
		{src: "retreats(champ, inf, hex(5, 2), hex(4, 2), coût_texte)", err: `<e>:1:1: coût_texte must return true or false, got "x"`},
		{src: "reachable(champ, inf, hex(1, 1), 2, coût, trois_à_cinq)", want: "[(2,1), (1,2)]"},
		{src: "reachable(champ, inf, hex(1, 1), 2, coût, bloque)", err: "<e>:1:43: bloque takes 4 parameters; reachable calls it with 3: (unit, from, to) (rule bloque is declared at t.rules:40:1)"},
		{src: "coût", err: "<e>:1:1: rule coût is not called here (call it with coût(…); a procedure is a value only where a builtin calls it back (choose, line_of_fire, path, reachable, retreats))"},
		{src: "[1, arrêt]", err: "<e>:1:5: rule arrêt is not called here (call it with arrêt(…); a procedure is a value only where a builtin calls it back (choose, line_of_fire, path, reachable, retreats))"},
		{src: "reachable(champ, inf, hex(1, 1), 2, marcher)", err: "<e>:1:37: marcher is an action: reachable calls rules, which cannot change the state (declare it `rule marcher(…)`)"},
		{src: "path(champ, inf, hex(1, 1), hex(9, 3), 20, coût, marcher)", err: "<e>:1:50: marcher is an action: path calls rules, which cannot change the state (declare it `rule marcher(…)`)"},
		{src: `reachable(champ, inf, hex(1, 1), 2, "mar" + "cher")`, err: "<e>:1:1: marcher is an action: reachable calls rules, which cannot change the state (declare it `rule marcher(…)`)"},
		{src: "any_reach(1, hex(1,1))", err: "t.rules:86:10: expected a map, got 1"},
		{src: "any_reach(champ, 1)", err: "t.rules:86:10: expected a hex, got 1"},
		{src: "path(champ, inf, hex(1, 1), hex(9, 3), 20, coût)", want: "[(2,1), (3,1), (4,1), (4,2), (5,3), (6,3), (7,3), (8,3), (9,3)]"},
		{src: "path(champ, cav, hex(3, 1), hex(6, 1), 20, coût)", want: "[]"},
		{src: "path(champ, inf, hex(3, 1), hex(6, 1), 20, coût)", want: "[(4,1), (4,2), (5,2), (6,1)]"},
		{src: "path(champ, inf, hex(1, 1), hex(9, 3), 2, coût)", want: "[]"},
		{src: "path(champ, inf, hex(6, 2), hex(9, 3), 20, coût, arrêt)", want: "[(7,1), (8,1), (9,1), (9,2), (9,3)]"},
		{src: "path(champ, inf, hex(6, 2), hex(9, 3), 20, coût)", want: "[(7,2), (8,2), (9,3)]"},
		{src: "path(champ, inf, hex(1, 1), hex(9, 3), 20, coût_faux)", err: "t.rules:35:3: coût refusé"},
		{src: `path(champ, inf, hex(1, 1), hex(9, 3), 20, "")`, err: "<e>:1:1: path: a cost rule is needed"},
		{src: "path(champ, inf, hex(1, 1), hex(9, 3), 20, coût, libre)", err: "<e>:1:50: libre takes 1 parameter; path calls it with 3: (unit, from, to) (rule libre is declared at t.rules:49:1)"},
		{src: "path(champ, inf, hex(1, 1), hex(9, 3), 20, trois_à_cinq)", err: "<e>:1:1: trois_à_cinq must return a number, got true"},
		{src: "path(champ, inf, hex(1, 1), hex(9, 3), 20, un, deux)", err: "<e>:1:48: deux takes 2 parameters; path calls it with 3: (unit, from, to) (rule deux is declared at t.rules:97:1)"},
		{src: "any_path(1, hex(1,1), hex(2,2))", err: "t.rules:89:10: expected a map, got 1"},
		{src: "any_path(champ, hex(1,1), 2)", err: "t.rules:89:10: expected a hex, got 2"},
		{src: "retreats(champ, hex(5, 2), hex(4, 2), libre)", want: "[(6,2), (6,3)]"},
		{src: "retreats(champ, hex(1, 1), hex(2, 2), libre)", want: "[]"},
		{src: "retreats(champ, hex(5, 2), hex(4, 2), libre_faux)", err: "t.rules:53:12: cannot fetch nope from hex"},
		{src: `retreats(champ, hex(5, 2), hex(4, 2), "nope")`, err: "<e>:1:39: retreats: no procedure nope"},
		{src: "retreats(champ, hex(5, 2), hex(4, 2), libre_pour)", err: "<e>:1:39: libre_pour takes 3 parameters; retreats calls it with 1: (hex) (rule libre_pour is declared at t.rules:94:1)"},
		{src: "retreats(champ, inf, hex(5, 2), hex(4, 2), libre_pour)", want: "[(6,2), (6,3)]"},
		{src: "retreats(champ, inf, hex(7, 2), hex(6, 2), libre_pour)", want: "[(8,1), (8,2), (8,3)]"},
		{src: "retreats(champ, cav, hex(7, 2), hex(6, 2), libre_pour)", want: "[(8,1)]"},
		{src: `retreats(champ, inf, hex(5, 2), hex(4, 2), "libre_pour")`, want: "[(6,2), (6,3)]"},
		{src: "retreats(champ, inf, hex(5, 2), hex(4, 2), libre)", err: "<e>:1:44: libre takes 1 parameter; retreats calls it with 3: (unit, from, to) (rule libre is declared at t.rules:49:1)"},
		{src: "any_retreats(1, hex(1,1), hex(2,2))", err: "t.rules:92:10: expected a map, got 1"},
		{src: "any_retreats(champ, hex(1,1), 2)", err: "t.rules:92:10: expected a hex, got 2"},
	} {
		m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		peek.Machine(m).Limits.MaxSteps = 100_000
		v, err := dsl.NewSession(m).Eval("<e>", c.src)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%s: err = %v, want %q", c.src, err, c.err)
		case c.err == "" && (err != nil || runtime.Repr(v) != c.want):
			t.Errorf("%s = %v, %v; want %s", c.src, runtime.Repr(v), err, c.want)
		}
	}
}

// TestMovementAgainstDistance: with a cost of 1 everywhere, the hexes reachable with p
// points are exactly the board's hexes within distance p (start excluded), and the cheapest
// path between two hexes is as long as their distance, for every start and end on the board.
func TestMovementAgainstDistance(t *testing.T) {
	prog, d := dsl.LoadSource("t.rules", []byte(boardRules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := dsl.NewSession(m)
	n := 0
	for col := 1; col <= 9; col++ {
		for row := 1; row <= 3; row++ {
			for p := 0; p <= 4; p++ {
				if _, err := s.Let("r", fmt.Sprintf(`reachable(champ, inf, hex(%d, %d), %d, un)`, col, row, p)); err != nil {
					t.Fatal(err)
				}
				if _, err := s.Let("w", fmt.Sprintf(`filter(hex_range(hex(%d, %d), %d), on_board(champ, #) && # != hex(%d, %d))`, col, row, p, col, row)); err != nil {
					t.Fatal(err)
				}
				if v, err := s.Eval("<e>", "len(r) == len(w) && all(r, # in w)"); err != nil || v != true {
					r, _ := s.Var("r")
					w, _ := s.Var("w")
					t.Errorf("reachable from (%d,%d) with %d points: %s, want the hexes of %s (%v)", col, row, p, runtime.Repr(r), runtime.Repr(w), err)
				}
			}
			src := fmt.Sprintf(`all(filter(hex_range(hex(5, 2), 10), on_board(champ, #)), len(path(champ, inf, hex(%d, %d), #, 100, un)) == hex_distance(hex(%d, %d), #))`, col, row, col, row)
			if v, err := s.Eval("<e>", src); err != nil || v != true {
				t.Errorf("paths from (%d,%d): %v, %v", col, row, v, err)
			}
			n++
		}
	}
	if n != 27 {
		t.Errorf("%d starts, want the 27 hexes of the board", n)
	}
	if v, err := s.Eval("<e>", "len(filter(hex_range(hex(5, 2), 10), on_board(champ, #)))"); err != nil || runtime.Repr(v) != "27" {
		t.Errorf("the board holds %v hexes, %v; want 27", runtime.Repr(v), err)
	}
}
