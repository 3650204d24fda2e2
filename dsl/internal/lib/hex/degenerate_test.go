package hex_test

import (
	"regexp"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/lib/hex"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

// goRuntimeText is what Go's runtime says of a panic: it must never reach a rule's author.
var goRuntimeText = regexp.MustCompile(`out of range|divide by zero|invalid memory address|nil pointer|nil map|runtime error|goroutine|panic`)

// TestHexBuiltinsDegenerate runs every hex builtin on degenerate input (the same hex twice,
// hexes off the board, zero and negative radii and budgets, nil for a hex or a map, huge
// coordinates written as text) on the board of boardRules, directly and through a rule
// (the VM's path): each gives a defined answer or an error placed at the call in the
// language's words, never Go's (line_of_fire from a hex to itself said "slice bounds out of
// range [1:0]"; "(9223372036854775807,1)" as a hex overflowed distances).
func TestHexBuiltinsDegenerate(t *testing.T) {
	prog, d := dsl.LoadSource("t.rules", []byte(boardRules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	const huge = `"(9223372036854775807,1)"`
	const hugeErr = "a column or row is at most 1000000000 away from 0"
	cases := []struct{ fn, src, want, err string }{
		{fn: "hex", src: "hex(0, 0)", want: "(0,0)"},
		{fn: "hex", src: "hex(-5, -5)", want: "(-5,-5)"},
		{fn: "hex", src: "hex(1, -9223372036854775807)", err: hugeErr},
		{fn: "hex_distance", src: "hex_distance(hex(2, 2), hex(2, 2))", want: "0"},
		{fn: "hex_distance", src: "hex_distance(hex(-50, -50), hex(50, 50))", want: "150"},
		{fn: "hex_distance", src: "hex_distance(" + huge + `, "(-9223372036854775807,1)")`, err: hugeErr},
		{fn: "hex_distance", src: "any_hex_distance(nil, nil)", err: "t.rules:56:10: expected a hex, got nil"},
		{fn: "neighbours", src: "neighbours(champ, hex(-100, -100))", want: "[]"},
		// Off the board but beside it: still no neighbours on the board, no reach, no
		// path, no retreat (reachable listed 19 board hexes from hex(0, 0)).
		{fn: "neighbours", src: "neighbours(champ, hex(0, 1))", want: "[]"},
		{fn: "neighbours", src: "neighbours(champ, hex(10, 3))", want: "[]"},
		{fn: "neighbours", src: "any_neigh(nil)", err: "t.rules:68:10: expected a hex, got nil"},
		{fn: "neighbours", src: "any_neigh2(nil, nil)", err: "t.rules:71:10: expected a map, got nil"},
		{fn: "neighbours", src: "any_neigh(" + huge + ")", err: hugeErr},
		{fn: "ring", src: "ring(hex(2, 2), 0)", want: "[(2,2)]"},
		{fn: "ring", src: "ring(hex(2, 2), -1)", err: "<e>:1:1: ring: the radius cannot be negative (got -1)"},
		{fn: "ring", src: "any_ring(" + huge + ")", err: hugeErr},
		{fn: "ring", src: "any_ring(nil)", err: "t.rules:74:10: expected a hex, got nil"},
		{fn: "hex_range", src: "hex_range(hex(2, 2), 0)", want: "[(2,2)]"},
		{fn: "hex_range", src: "hex_range(hex(2, 2), -1)", err: "hex_range: the radius cannot be negative (got -1)"},
		{fn: "hex_range", src: "any_range(nil)", err: "expected a hex, got nil"},
		{fn: "terrain", src: "terrain(champ, hex(0, 0))", want: `""`},
		{fn: "terrain", src: "any_terrain(champ, nil)", err: "t.rules:59:10: expected a hex, got nil"},
		{fn: "terrain", src: "any_terrain(nil, hex(1, 1))", err: "t.rules:59:10: expected a map, got nil"},
		{fn: "terrain", src: "any_terrain(champ, " + huge + ")", err: hugeErr},
		{fn: "height", src: "height(champ, hex(-1, -1))", want: "0"},
		{fn: "road", src: "road(champ, hex(100, 100))", want: "false"},
		{fn: "on_board", src: "on_board(champ, hex(0, 1))", want: "false"},
		{fn: "on_board", src: `on_board(champ, "(9223372036854775807,9223372036854775807)")`, err: hugeErr},
		{fn: "edge", src: "edge(champ, hex(1, 1), hex(1, 1))", want: `""`},
		{fn: "edge", src: "edge(champ, hex(1, 1), hex(9, 3))", want: `""`},
		{fn: "edge", src: "any_edge(champ, nil, hex(1, 1))", err: "expected a hex, got nil"},
		{fn: "crossing", src: "crossing(champ, hex(50, 50), hex(50, 50))", want: `""`},
		{fn: "point", src: `point(champ, "")`, err: "<e>:1:1: map champ has no point"},
		{fn: "point", src: "any_point(nil)", err: "t.rules:65:10: expected a map, got nil"},
		{fn: "line", src: "line(hex(2, 2), hex(2, 2))", want: "[(2,2)]"},
		{fn: "line", src: "any_line(nil, nil)", err: "t.rules:80:10: expected a hex, got nil"},
		{fn: "line", src: "any_line(" + huge + `, "(-9223372036854775807,1)")`, err: hugeErr},
		{fn: "line_of_fire", src: "line_of_fire(champ, hex(2, 2), hex(2, 2), bloque)", want: "true"},
		{fn: "line_of_fire", src: "line_of_fire(champ, hex(5, 1), hex(5, 1), bloque)", want: "true"},
		{fn: "line_of_fire", src: "line_of_fire(champ, hex(20, 20), hex(20, 20), bloque)", want: "true"},
		{fn: "line_of_fire", src: "line_of_fire(champ, hex(1, 1), hex(2, 1), bloque)", want: "true"},
		{fn: "line_of_fire", src: "any_lof(champ, hex(3, 3), hex(3, 3))", want: "true"},
		{fn: "line_of_fire", src: "any_lof(champ, nil, nil)", err: "t.rules:83:10: expected a hex, got nil"},
		{fn: "line_of_fire", src: "any_lof(nil, hex(1, 1), hex(1, 1))", err: "t.rules:83:10: expected a map, got nil"},
		{fn: "line_of_fire", src: "line_of_fire(champ, hex(1, 1), hex(1000000000, 1), bloque)", err: "line_of_fire: 999999999 is too far (at most 1000000)"},
		{fn: "reachable", src: "any_reach(champ, hex(50, 50))", want: "[]"},
		{fn: "reachable", src: "any_reach(champ, hex(0, 0))", want: "[]"},
		{fn: "reachable", src: "reachable(champ, inf, hex(0, 1), 5, coût)", want: "[]"},
		{fn: "reachable", src: "reachable(champ, inf, hex(10, 2), 5, coût)", want: "[]"},
		{fn: "reachable", src: "reachable(champ, inf, hex(1, 1), -5, coût)", want: "[]"},
		{fn: "reachable", src: "reachable(champ, inf, hex(1, 1), 0, coût)", want: "[]"},
		{fn: "reachable", src: "any_reach(champ, nil)", err: "t.rules:86:10: expected a hex, got nil"},
		{fn: "path", src: "any_path(champ, hex(1, 1), hex(1, 1))", want: "[]"},
		{fn: "path", src: "any_path(champ, hex(50, 50), hex(60, 60))", want: "[]"},
		{fn: "path", src: "any_path(champ, hex(0, 0), hex(2, 3))", want: "[]"},
		{fn: "path", src: "path(champ, inf, hex(0, 1), hex(1, 1), 10, coût)", want: "[]"},
		{fn: "path", src: "path(champ, inf, hex(1, 1), hex(0, 1), 10, coût)", want: "[]"},
		{fn: "path", src: "path(champ, inf, hex(1, 1), hex(9, 3), -1, coût)", want: "[]"},
		{fn: "path", src: "any_path(champ, nil, hex(1, 1))", err: "t.rules:89:10: expected a hex, got nil"},
		{fn: "reachable", src: "reachable(champ, inf, hex(0, 1), 5, {})", want: "[]"},
		{fn: "reachable", src: "reachable(champ, inf, hex(1, 1), -5, {cost: -1})", want: "[]"},
		{fn: "reachable", src: "reachable(champ, inf, hex(1, 1), 3, {cost: 0, blocked: [], stop: [nil]})", err: "<e>:1:1: reachable: the cost map's stop: expected a hex, got nil"},
		{fn: "reachable", src: "reachable(champ, inf, hex(1, 1), 3, {stop: [" + huge + "]})", err: hugeErr},
		{fn: "reachable", src: "reachable(champ, inf, hex(1, 1), 3, nil)", err: "<e>:1:1: reachable: expected a procedure, got nil"},
		{fn: "path", src: "path(champ, inf, hex(1, 1), hex(1, 1), 10, {})", want: "[]"},
		{fn: "path", src: "path(champ, inf, hex(0, 1), hex(1, 1), 10, {})", want: "[]"},
		{fn: "move_cost", src: "move_cost(champ, {}, hex(1, 1), hex(1, 1))", want: "-1.0"},
		{fn: "move_cost", src: "move_cost(champ, {}, hex(0, 1), hex(1, 1))", want: "-1.0"},
		{fn: "move_cost", src: "move_cost(champ, {}, hex(-100, -100), hex(-100, -101))", want: "-1.0"},
		{fn: "move_cost", src: "move_cost(nil, {}, hex(1, 1), hex(2, 1))", err: "<e>:1:1: expected a map, got nil"},
		{fn: "move_cost", src: "move_cost(champ, nil, hex(1, 1), hex(2, 1))", err: "<e>:1:1: move_cost: expected a cost map, got nil"},
		{fn: "move_cost", src: "move_cost(champ, {}, nil, hex(2, 1))", err: "<e>:1:1: expected a hex, got nil"},
		{fn: "move_cost", src: "move_cost(champ, {}, hex(1, 1), " + huge + ")", err: hugeErr},
		{fn: "units_at", src: "units_at(champ, hex(-100, -100))", want: "[]"},
		{fn: "units_at", src: "units_at(nil, hex(1, 1))", err: "<e>:1:1: expected a map, got nil"},
		{fn: "units_at", src: "units_at(champ, nil)", err: "<e>:1:1: expected a hex, got nil"},
		{fn: "units_at", src: "units_at(champ, " + huge + ")", err: hugeErr},
		{fn: "units_at", src: `units_at(champ, hex(1, 1), "")`, want: "[]"},
		{fn: "units_at", src: `units_at(champ, hex(1, 1), "Inf")`, err: "<e>:1:1: units_at: the map champ has no units line"},
		{fn: "units_within", src: "units_within(champ, hex(-100, -100), 1000000000)", want: "[]"},
		{fn: "units_within", src: `units_within(champ, hex(1, 1), 0, "")`, want: "[]"},
		{fn: "units_within", src: `units_within(champ, hex(1, 1), 0, "Inf")`, err: "<e>:1:1: units_within: the map champ has no units line"},
		{fn: "units_within", src: "units_within(champ, nil, 1)", err: "<e>:1:1: expected a hex, got nil"},
		{fn: "units_within", src: "units_within(champ, hex(1, 1), -1)", err: "<e>:1:1: units_within: the distance cannot be negative (got -1)"},
		{fn: "units_within", src: "units_within(champ, " + huge + ", 1)", err: hugeErr},
		{fn: "retreats", src: "any_retreats(champ, hex(1, 1), hex(1, 1))", want: "[(2,1), (1,2)]"},
		{fn: "retreats", src: "any_retreats(champ, hex(50, 50), hex(1, 1))", want: "[]"},
		{fn: "retreats", src: "any_retreats(champ, hex(0, 1), hex(-2, 1))", want: "[]"},
		{fn: "retreats", src: "retreats(champ, hex(1, 1), hex(1, 1), libre)", want: "[(2,1), (1,2)]"},
		{fn: "retreats", src: "any_retreats(champ, nil, nil)", err: "t.rules:92:10: expected a hex, got nil"},
	}
	covered := map[string]bool{}
	for _, c := range cases {
		covered[c.fn] = true
		m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		l := m.Limits()
		l.MaxSteps = 100_000
		m.SetLimits(l)
		v, err := dsl.NewSession(m).Eval("<e>", c.src)
		switch {
		case err != nil && goRuntimeText.MatchString(err.Error()):
			t.Errorf("%s: Go's words reach the rule: %v", c.src, err)
		case c.err == "" && (err != nil || runtime.Repr(v) != c.want):
			t.Errorf("%s = %s, %v; want %s", c.src, runtime.Repr(v), err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s = %s, %v; want the error %q", c.src, runtime.Repr(v), err, c.err)
		case err != nil && !strings.HasPrefix(err.Error(), "<e>:1:") && !strings.HasPrefix(err.Error(), "t.rules:"):
			t.Errorf("%s: %v is not placed in the rules", c.src, err)
		}
	}
	for name := range hex.Builtins() {
		if !covered[name] {
			t.Errorf("hex builtin %s has no degenerate case", name)
		}
	}
}
