package hex_test

import (
	"fmt"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/peek"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

// costRules adds to boardRules the cost maps that say what its rules coût and arrêt say,
// for each kind of unit, and a record whose fields are a cost map.
const costRules = boardRules + `
const RIVIÈRE = {river: {"": -1, bridge: 0, ford: 0}}
rule coûts(u: U): map {
  return {terrain: {forêt: u.genre == "cav" ? -1 : 2}, edges: RIVIÈRE}
}
rule coûts_arrêt(u: U): map {
  return {terrain: {forêt: u.genre == "cav" ? -1 : 2}, edges: RIVIÈRE, stop_terrain: ["colline"]}
}
kind Prix {
  cost: int = 1
  road: bool
}
entity par_la_route: Prix { road: true }
`

func costMachine(t *testing.T) (*dsl.Session, *runtime.Machine) {
	t.Helper()
	prog, d := dsl.LoadSource("t.rules", []byte(costRules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	return dsl.NewSession(m), peek.Machine(m)
}

// TestCostMaps: reachable and path given a cost map in place of the cost rule, each key
// alone (terrain, default, climb, edges and crossings, road, blocked and stop hexes, stop
// terrains), with a stop rule beside it, from a record, and every wrong key or value
// refused with what it should be; move_cost prices one step the same way.
func TestCostMaps(t *testing.T) {
	for _, c := range []struct{ src, want, err string }{
		// the same answers as the rule coût of TestHexBuiltins
		{src: "reachable(champ, inf, hex(4, 2), 2, coûts(inf))", want: "[(3,1), (4,1), (2,2), (3,2), (5,2), (3,3), (4,3), (5,3), (6,3)]"},
		{src: "reachable(champ, cav, hex(4, 2), 2, coûts(cav))", want: "[(3,1), (4,1), (2,2), (3,2), (3,3), (4,3), (5,3), (6,3)]"},
		{src: "path(champ, inf, hex(1, 1), hex(9, 3), 20, coûts(inf))", want: "[(2,1), (3,1), (4,1), (4,2), (5,3), (6,3), (7,3), (8,3), (9,3)]"},
		{src: "path(champ, cav, hex(3, 1), hex(6, 1), 20, coûts(cav))", want: "[]"},
		// a stop rule beside the data; the data's stop terrains
		{src: "reachable(champ, inf, hex(6, 2), 3, coûts(inf), arrêt)", want: "[(6,1), (7,1), (8,1), (9,1), (4,2), (5,2), (7,2), (8,2), (4,3), (5,3), (6,3), (7,3), (8,3)]"},
		{src: "reachable(champ, inf, hex(6, 2), 3, coûts_arrêt(inf))", want: "[(6,1), (7,1), (8,1), (9,1), (4,2), (5,2), (7,2), (8,2), (4,3), (5,3), (6,3), (7,3), (8,3)]"},
		{src: "path(champ, inf, hex(6, 2), hex(9, 3), 20, coûts_arrêt(inf))", want: "[(7,1), (8,1), (9,1), (9,2), (9,3)]"},
		// each key alone
		{src: "reachable(champ, inf, hex(4, 1), 1, {})", want: "[(3,1), (5,1), (3,2), (4,2)]"},
		{src: "reachable(champ, inf, hex(4, 1), 1, {edges: {river: -1}})", want: "[(3,1), (3,2), (4,2)]"},
		{src: `reachable(champ, inf, hex(4, 2), 1, {edges: {river: {"": -1, ford: 0}}})`, want: "[(4,1), (3,2), (4,3), (5,3)]"},
		{src: `reachable(champ, inf, hex(4, 2), 1, {edges: {river: {"": -1, bridge: 0}}})`, want: "[(4,1), (3,2), (5,2), (4,3), (5,3)]"},
		{src: "reachable(champ, inf, hex(7, 2), 1, {edges: {stream: 1}})", want: "[(7,1), (8,1), (6,2), (8,2), (8,3)]"},
		{src: "reachable(champ, inf, hex(7, 2), 1, {edges: {stream: {ford: 0}}})", want: "[(7,1), (8,1), (6,2), (8,2), (7,3), (8,3)]"},
		{src: "reachable(champ, inf, hex(7, 2), 1, {climb: -1})", want: "[(7,1), (8,1), (6,2), (7,3), (8,3)]"},
		{src: "reachable(champ, inf, hex(7, 2), 2, {climb: 1})", want: "[(6,1), (7,1), (8,1), (9,1), (5,2), (6,2), (8,2), (6,3), (7,3), (8,3), (9,3)]"},
		{src: "reachable(champ, inf, hex(4, 2), 1, {cost: 2, terrain: {forêt: 1}})", want: "[(5,1), (5,2)]"},
		{src: "reachable(champ, inf, hex(6, 1), 9, {cost: -1, terrain: {forêt: 1}})", want: "[(5,1), (5,2)]"},
		{src: "reachable(champ, inf, hex(1, 3), 9, {road: true})", want: "[(2,3), (3,3)]"},
		{src: "reachable(champ, inf, hex(1, 3), 9, par_la_route)", want: "[(2,3), (3,3)]"},
		{src: "reachable(champ, inf, hex(1, 1), 9, {road: true})", want: "[]"},
		{src: "reachable(champ, inf, hex(1, 1), 2, {blocked: [hex(2, 1), hex(1, 2)]})", want: "[]"},
		{src: `reachable(champ, inf, hex(1, 1), 2, {blocked: ["(2,1)"], stop: [hex(1, 2), hex(1, 2)]})`, want: "[(1,2)]"},
		{src: "reachable(champ, inf, hex(1, 1), 1, {cost: 0.5})", want: "[(2,1), (3,1), (1,2), (2,2), (1,3), (2,3)]"},
		{src: "reachable(champ, inf, hex(1, 1), 1, {terrain: fromPairs([[\"plaine\", 2]])})", want: "[]"},
		{src: "reachable(champ, inf, hex(1, 1), 1, {terrain: nil, stop: nil})", want: "[(2,1), (1,2)]"},
		{src: "reachable(champ, inf, hex(0, 1), 9, {})", want: "[]"},
		{src: "path(champ, inf, hex(1, 1), hex(20, 1), 99, {})", want: "[]"},
		// one step
		{src: "[move_cost(champ, {edges: RIVIÈRE}, hex(4, 1), hex(5, 1)), move_cost(champ, {edges: RIVIÈRE}, hex(4, 2), hex(5, 2)), move_cost(champ, {edges: {stream: 1}}, hex(7, 2), hex(7, 3))]", want: "[-1.0, 1.0, 2.0]"},
		{src: "[move_cost(champ, {}, hex(9, 1), hex(10, 1)), move_cost(champ, {}, hex(1, 1), hex(3, 1)), move_cost(champ, {cost: -5}, hex(1, 1), hex(2, 1))]", want: "[-1.0, -1.0, -1.0]"},
		{src: "move_cost(champ, 3, hex(1, 1), hex(2, 1))", err: "<e>:1:1: move_cost: expected a cost map, got 3"},
		{src: "move_cost(champ, {}, 3, hex(2, 1))", err: "<e>:1:1: expected a hex, got 3"},
		{src: "move_cost(champ, {clim: 1}, hex(1, 1), hex(2, 1))", err: "<e>:1:1: move_cost: a cost map has no key clim (did you mean climb?); its keys: blocked, climb, cost, edges, road, stop, stop_terrain, terrain"},
		// wrong keys and values
		{src: "reachable(champ, inf, hex(1, 1), 2, {terrian: {}})", err: "<e>:1:1: reachable: a cost map has no key terrian (did you mean terrain?); its keys: blocked, climb, cost, edges, road, stop, stop_terrain, terrain"},
		{src: "reachable(champ, inf, hex(1, 1), 2, {xyz: 1})", err: "<e>:1:1: reachable: a cost map has no key xyz; its keys: blocked, climb, cost, edges, road, stop, stop_terrain, terrain"},
		{src: `path(champ, inf, hex(1, 1), hex(2, 1), 2, {cost: "x"})`, err: `<e>:1:1: path: the cost map's cost: expected a number, got "x"`},
		{src: "reachable(champ, inf, hex(1, 1), 2, {climb: true})", err: "<e>:1:1: reachable: the cost map's climb: expected a number, got true"},
		{src: "reachable(champ, inf, hex(1, 1), 2, {terrain: 3})", err: "<e>:1:1: reachable: the cost map's terrain: expected a map from names to costs, got 3"},
		{src: `reachable(champ, inf, hex(1, 1), 2, {terrain: {forêt: "x"}})`, err: `<e>:1:1: reachable: the cost map's terrain: forêt: expected a number, got "x"`},
		{src: "reachable(champ, inf, hex(1, 1), 2, {terrain: inf})", err: `<e>:1:1: reachable: the cost map's terrain: expected a map from names to costs, got U{genre: "inf"}`},
		{src: "reachable(champ, inf, hex(1, 1), 2, {terrain: fromPairs([[1, 2]])})", err: "<e>:1:1: reachable: the cost map's terrain: expected a map from names to costs, got {1: 2}"},
		{src: "reachable(champ, inf, hex(1, 1), 2, {edges: [1]})", err: "<e>:1:1: reachable: the cost map's edges: expected a map from features (river, stream) to costs, got [1]"},
		{src: `reachable(champ, inf, hex(1, 1), 2, {edges: {river: "x"}})`, err: `<e>:1:1: reachable: the cost map's edges: river: expected a number or a map from crossings ("", bridge, ford) to costs, got "x"`},
		{src: `reachable(champ, inf, hex(1, 1), 2, {edges: {river: {bridge: "x"}}})`, err: `<e>:1:1: reachable: the cost map's edges: river: bridge: expected a number, got "x"`},
		{src: "reachable(champ, inf, hex(1, 1), 2, {road: 1})", err: "<e>:1:1: reachable: the cost map's road: expected true or false, got 1"},
		{src: "reachable(champ, inf, hex(1, 1), 2, {blocked: hex(1, 1)})", err: "<e>:1:1: reachable: the cost map's blocked: expected a list of hexes, got (1,1)"},
		{src: "reachable(champ, inf, hex(1, 1), 2, {stop: [3]})", err: "<e>:1:1: reachable: the cost map's stop: expected a hex, got 3"},
		{src: `reachable(champ, inf, hex(1, 1), 2, {stop_terrain: "forêt"})`, err: `<e>:1:1: reachable: the cost map's stop_terrain: expected a list of terrain names, got "forêt"`},
		{src: "reachable(champ, inf, hex(1, 1), 2, {stop_terrain: [1]})", err: "<e>:1:1: reachable: the cost map's stop_terrain: expected a terrain name, got 1"},
		{src: "reachable(champ, inf, hex(1, 1), 2, {}, coût_texte)", err: `<e>:1:1: coût_texte must return true or false, got "x"`},
		{src: "reachable(champ, inf, hex(1, 1), 2, {}, deux)", err: "<e>:1:41: deux takes 2 parameters; reachable calls it with 3: (unit, from, to) (rule deux is declared at t.rules:97:1)"},
		{src: "reachable(champ, inf, hex(1, 1), 2, [1])", err: "<e>:1:1: reachable: expected a procedure, got [1]"},
	} {
		s, m := costMachine(t)
		m.Limits.MaxSteps = 100_000
		v, err := s.Eval("<e>", c.src)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%s: err = %v, want %q", c.src, err, c.err)
		case c.err == "" && (err != nil || runtime.Repr(v) != c.want):
			t.Errorf("%s = %v, %v; want %s", c.src, runtime.Repr(v), err, c.want)
		}
	}
}

// TestCostMapsMatchRules: for both units, every start, budget and goal of the board, the
// cost maps give what the rules coût and arrêt give: the same reach and the same paths
// (ties broken alike, the search being the same).
func TestCostMapsMatchRules(t *testing.T) {
	s, _ := costMachine(t)
	for _, u := range []string{"inf", "cav"} {
		for col := 1; col <= 9; col++ {
			for row := 1; row <= 3; row++ {
				h := fmt.Sprintf("hex(%d, %d)", col, row)
				for p := 0; p <= 5; p++ {
					for _, pair := range [][2]string{
						{fmt.Sprintf("reachable(champ, %s, %s, %d, coût)", u, h, p), fmt.Sprintf("reachable(champ, %[1]s, %s, %d, coûts(%[1]s))", u, h, p)},
						{fmt.Sprintf("reachable(champ, %s, %s, %d, coût, arrêt)", u, h, p), fmt.Sprintf("reachable(champ, %[1]s, %s, %d, coûts_arrêt(%[1]s))", u, h, p)},
					} {
						expectSame(t, s, pair[0], pair[1])
					}
				}
				for gc := 1; gc <= 9; gc++ {
					for gr := 1; gr <= 3; gr++ {
						g := fmt.Sprintf("hex(%d, %d)", gc, gr)
						expectSame(t, s, fmt.Sprintf("path(champ, %s, %s, %s, 20, coût, arrêt)", u, h, g),
							fmt.Sprintf("path(champ, %[1]s, %s, %s, 20, coûts_arrêt(%[1]s))", u, h, g))
					}
				}
			}
		}
	}
}

func expectSame(t *testing.T, s *dsl.Session, a, b string) {
	t.Helper()
	va, erra := s.Eval("<e>", a)
	vb, errb := s.Eval("<e>", b)
	if erra != nil || errb != nil || runtime.Repr(va) != runtime.Repr(vb) {
		t.Errorf("%s = %s (%v)\n%s = %s (%v)", a, runtime.Repr(va), erra, b, runtime.Repr(vb), errb)
	}
}

// TestCostMapsCharged: a search priced by data is charged one step per step it prices, so
// the step limit bounds it as it bounds a search that calls rules.
func TestCostMapsCharged(t *testing.T) {
	s, m := costMachine(t)
	m.Limits.MaxSteps = 60
	_, err := s.Eval("<e>", "reachable(champ, inf, hex(5, 2), 20, {})")
	if err == nil || !strings.Contains(err.Error(), "step") {
		t.Fatalf("a search of the whole board within 60 steps: err = %v, want the step limit", err)
	}
	m.Limits.MaxSteps = 100_000
	if v, err := s.Eval("<e>", "len(reachable(champ, inf, hex(5, 2), 20, {}))"); err != nil || runtime.Repr(v) != "26" {
		t.Errorf("with room: %v, %v; want the 26 other hexes", runtime.Repr(v), err)
	}
}
