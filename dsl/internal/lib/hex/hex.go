// Package hex binds the hex-map library to the language: the builtins that read boards
// (terrain, heights, edges), measure (distance, rings, lines, line of fire) and move units
// (reach and paths, with costs and stops given by rules of the ruleset), with their argument
// checks and bounds. It holds no state. It imports runtime and stdlib/hex, never the checker
// or the facade.
package hex

import (
	"fmt"

	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/hex"
)

// maxHexCoord bounds hex coordinates, so that distances, lines and rings computed from them
// cannot overflow (hex_distance of two far hexes wrapped round to 2).
const maxHexCoord = 1_000_000_000

func asBoard(v any) (*hex.Map, error) {
	if m, ok := v.(*hex.Map); ok && m != nil {
		return m, nil
	}
	return nil, fmt.Errorf("expected a map, got %s", runtime.Repr(v))
}

func asHex(v any) (hex.Hex, error) {
	switch h := v.(type) {
	case hex.Hex:
		return h, nil
	case string:
		col, row, err := hex.ParseOffset(h)
		if err != nil {
			return hex.Hex{}, err
		}
		return fromOffset(col, row)
	}
	return hex.Hex{}, fmt.Errorf("expected a hex, got %s", runtime.Repr(v))
}

// fromOffset is the hex at a board position, within maxHexCoord of 0.
func fromOffset(col, row int) (hex.Hex, error) {
	if col < -maxHexCoord || col > maxHexCoord || row < -maxHexCoord || row > maxHexCoord {
		return hex.Hex{}, fmt.Errorf("hex(%d, %d): a column or row is at most %d away from 0", col, row, maxHexCoord)
	}
	return hex.FromOffset(col, row), nil
}

func hexList(hs []hex.Hex) []any {
	out := make([]any, len(hs))
	for i, h := range hs {
		out[i] = h
	}
	return out
}

// The calls the map builtins make of the procedures they are given.
var (
	moveParams    = []string{"unit", "from", "to"}
	blockCallback = runtime.Callback{Arg: 3, Params: []string{"map", "hex", "from", "to"}}
	// retreats(m, unit, from, attacker, libre) calls libre(unit, from, to); the older
	// retreats(m, from, attacker, libre) calls libre(hex).
	retreatCallback = runtime.Callback{Arg: 4, Args: 5, Params: moveParams}
	olderRetreat    = runtime.Callback{Arg: 3, Args: 4, Params: []string{"hex"},
		Older: "write retreats(m, unit, from, attacker, libre): the rule then receives the retreating unit, where it comes from and where it goes"}
)

// moveCallbacks are the cost and stop procedures of reachable (cost at 4) or path (at 5).
func moveCallbacks(cost int) []runtime.Callback {
	return []runtime.Callback{{Arg: cost, Params: moveParams}, {Arg: cost + 1, Params: moveParams}}
}

// costFunc turns procedures into the board's movement cost: cost(unit, from, to) returns
// the points to enter `to` (negative: forbidden); stop(unit, from, to), if given (not ""),
// says the mover must stop on entering.
func costFunc(m *runtime.Machine, fn string, cbs []runtime.Callback, unit, costArg, stopArg any) (hex.CostFunc, error) {
	cost, err := m.CallbackProc(fn, cbs[0], costArg)
	if err != nil {
		return nil, err
	}
	if cost == nil {
		return nil, fmt.Errorf("%s: a cost rule is needed", fn)
	}
	stop, err := m.CallbackProc(fn, cbs[1], stopArg)
	if err != nil {
		return nil, err
	}
	return func(from, to hex.Hex) (float64, bool, error) {
		v, err := m.CallAt(cost, []any{unit, from, to}, cost.Pos)
		if err != nil {
			return 0, false, err
		}
		c, ok := runtime.Number(v)
		if !ok {
			return 0, false, fmt.Errorf("%s must return a number, got %s", cost.Name, runtime.Repr(v))
		}
		halt := false
		if stop != nil && c >= 0 {
			sv, err := m.CallAt(stop, []any{unit, from, to}, stop.Pos)
			if err != nil {
				return 0, false, err
			}
			if halt, err = truth(stop, sv); err != nil {
				return 0, false, err
			}
		}
		return c, halt, nil
	}, nil
}

// truth reads the answer of a rule asked a question (stop here? blocked? free?): true or
// false, never read into another value (a rule that forgot a return gives nil).
func truth(p *runtime.Proc, v any) (bool, error) {
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("%s must return true or false, got %s", p.Name, runtime.Repr(v))
	}
	return b, nil
}

// maxHexRadius bounds the radius or length a hex builtin accepts, before its work is
// charged: beyond it the count of hexes would overflow.
const maxHexRadius = 1_000_000

// chargeHexes checks a radius (or distance) and charges the hexes a builtin will produce,
// before producing them.
func chargeHexes(m *runtime.Machine, fn string, r, count int) error {
	if r < 0 {
		return fmt.Errorf("%s: the radius cannot be negative (got %d)", fn, r)
	}
	if r > maxHexRadius {
		return fmt.Errorf("%s: %d is too far (at most %d)", fn, r, maxHexRadius)
	}
	if err := m.Charge(count); err != nil {
		return err
	}
	return m.ChargeMem(count)
}

// boardQuery makes a map function of (map, hex) from what it reads on the board.
func boardQuery(f func(b *hex.Map, h hex.Hex) any) func(m *runtime.Machine, a []any) (any, error) {
	return func(m *runtime.Machine, a []any) (any, error) {
		b, h, err := boardHex(a)
		if err != nil {
			return nil, err
		}
		return f(b, h), nil
	}
}

// edgeQuery makes a map function of (map, hex, hex) from what it reads on their edge.
func edgeQuery(f func(b *hex.Map, e hex.Edge) any) func(m *runtime.Machine, a []any) (any, error) {
	return func(m *runtime.Machine, a []any) (any, error) {
		b, e, err := boardEdge(a)
		if err != nil {
			return nil, err
		}
		return f(b, e), nil
	}
}

func boardHex(a []any) (*hex.Map, hex.Hex, error) {
	b, err := asBoard(a[0])
	if err != nil {
		return nil, hex.Hex{}, err
	}
	h, err := asHex(a[1])
	return b, h, err
}

func boardEdge(a []any) (*hex.Map, hex.Edge, error) {
	b, err := asBoard(a[0])
	if err != nil {
		return nil, hex.Edge{}, err
	}
	hs, err := hexArgs(a, 1, 2)
	if err != nil {
		return nil, hex.Edge{}, err
	}
	return b, hex.EdgeOf(hs[0], hs[1]), nil
}

// boardTwoHexes reads (map, hex, hex) arguments from position at.
func boardTwoHexes(a []any, at int) (*hex.Map, hex.Hex, hex.Hex, error) {
	b, err := asBoard(a[0])
	if err != nil {
		return nil, hex.Hex{}, hex.Hex{}, err
	}
	hs, err := hexArgs(a, at, at+1)
	if err != nil {
		return nil, hex.Hex{}, hex.Hex{}, err
	}
	return b, hs[0], hs[1], nil
}

// hexArgs reads the arguments at the given positions as hexes.
func hexArgs(a []any, at ...int) ([]hex.Hex, error) {
	out := make([]hex.Hex, len(at))
	for i, k := range at {
		h, err := asHex(a[k])
		if err != nil {
			return nil, err
		}
		out[i] = h
	}
	return out, nil
}

// builtin is one hex builtin as the list below registers it: its name, and its function
// with its signatures and callbacks.
type builtin struct {
	name string
	runtime.Builtin
}

// builtins are the hex-map builtins, each one a named function of this file. (Made when
// asked: the closures of a package variable are built at every start of the program.)
func builtins() []builtin {
	return []builtin{
		{"hex", runtime.Builtin{Fn: hexOf, Types: []any{new(func(*runtime.Machine, int, int) hex.Hex)}}},
		{"hex_distance", runtime.Builtin{Fn: hexDistance, Types: []any{new(func(*runtime.Machine, any, any) int)}}},
		{"neighbours", runtime.Builtin{Fn: neighbours, Types: []any{new(func(*runtime.Machine, any) []any), new(func(*runtime.Machine, any, any) []any)}}},
		{"ring", runtime.Builtin{Fn: ring, Types: []any{new(func(*runtime.Machine, any, int) []any)}}},
		{"hex_range", runtime.Builtin{Fn: hexRange, Types: []any{new(func(*runtime.Machine, any, int) []any)}}},
		{"terrain", runtime.Builtin{Fn: boardQuery(terrain), Types: []any{new(func(*runtime.Machine, any, any) string)}}},
		{"height", runtime.Builtin{Fn: boardQuery(height), Types: []any{new(func(*runtime.Machine, any, any) int)}}},
		{"road", runtime.Builtin{Fn: boardQuery(road), Types: []any{new(func(*runtime.Machine, any, any) bool)}}},
		{"on_board", runtime.Builtin{Fn: boardQuery(onBoard), Types: []any{new(func(*runtime.Machine, any, any) bool)}}},
		{"edge", runtime.Builtin{Fn: edgeQuery(edge), Types: []any{new(func(*runtime.Machine, any, any, any) string)}}},
		{"crossing", runtime.Builtin{Fn: edgeQuery(crossing), Types: []any{new(func(*runtime.Machine, any, any, any) string)}}},
		{"point", runtime.Builtin{Fn: point, Types: []any{new(func(*runtime.Machine, any, string) hex.Hex)}}},
		{"line", runtime.Builtin{Fn: line, Types: []any{new(func(*runtime.Machine, any, any) []any)}}},
		{"line_of_fire", runtime.Builtin{Fn: lineOfFire, Types: []any{new(func(*runtime.Machine, any, any, any, any) bool)},
			Callbacks: []runtime.Callback{blockCallback}}},
		{"reachable", runtime.Builtin{Fn: reachable,
			Types:     []any{new(func(*runtime.Machine, any, any, any, float64, any) []any), new(func(*runtime.Machine, any, any, any, float64, any, any) []any)},
			Callbacks: moveCallbacks(4)}},
		{"path", runtime.Builtin{Fn: path,
			Types:     []any{new(func(*runtime.Machine, any, any, any, any, float64, any) []any), new(func(*runtime.Machine, any, any, any, any, float64, any, any) []any)},
			Callbacks: moveCallbacks(5)}},
		{"move_cost", runtime.Builtin{Fn: moveCostOf, Types: []any{new(func(*runtime.Machine, any, any, any, any) float64)}}},
		{"units_at", runtime.Builtin{Fn: unitsAt, Types: []any{new(func(*runtime.Machine, any, any) []any), new(func(*runtime.Machine, any, any, string) []any)}}},
		{"units_within", runtime.Builtin{Fn: unitsWithin, Types: []any{new(func(*runtime.Machine, any, any, int) []any), new(func(*runtime.Machine, any, any, int, string) []any)}}},
		{"retreats", runtime.Builtin{Fn: retreats,
			Types:     []any{new(func(*runtime.Machine, any, any, any, any) []any), new(func(*runtime.Machine, any, any, any, any, any) []any)},
			Callbacks: []runtime.Callback{retreatCallback, olderRetreat}}},
	}
}

// Builtins are the hex-map functions rules call, by name: coordinates, distance,
// neighbours, rings, lines and line of fire, terrain and edges, the units on a hex or
// within a distance of it, reach
// and paths with movement costs given by rules or as data (a cost map), the cost of one
// step, retreats. None changes the run's state (ChangesState is
// unset): they read the board, and the rules they call back cannot change it either.
func Builtins() map[string]runtime.Builtin {
	list := builtins()
	out := make(map[string]runtime.Builtin, len(list))
	for _, b := range list {
		out[b.name] = b.Builtin
	}
	return runtime.CheckingNumbers(out)
}

// unitsAt is units_at(m, h) or units_at(m, h, "Kind"): the entities that the map's `units`
// lines place on h (of that kind), from an index of the positions rather than a walk.
func unitsAt(m *runtime.Machine, a []any) (any, error) {
	b, h, err := boardHex(a)
	if err != nil {
		return nil, err
	}
	kind := ""
	if len(a) > 2 {
		kind, _ = a[2].(string)
	}
	return m.UnitsAt(b, h, kind)
}

// unitsWithin is units_within(m, h, r) or units_within(m, h, r, "Kind"): the entities that
// the map's `units` lines place within distance r of h (of that kind).
func unitsWithin(m *runtime.Machine, a []any) (any, error) {
	b, h, err := boardHex(a)
	if err != nil {
		return nil, err
	}
	r := runtime.ToInt(a[2])
	if r < 0 {
		return nil, fmt.Errorf("units_within: the distance cannot be negative (got %d)", r)
	}
	kind := ""
	if len(a) > 3 {
		kind, _ = a[3].(string)
	}
	return m.UnitsWithin(b, h, r, kind)
}

// hexOf is hex(col, row): the hex at a board position.
func hexOf(m *runtime.Machine, a []any) (any, error) {
	return fromOffset(runtime.ToInt(a[0]), runtime.ToInt(a[1]))
}

// hexDistance is hex_distance(a, b): the steps between two hexes.
func hexDistance(m *runtime.Machine, a []any) (any, error) {
	hs, err := hexArgs(a, 0, 1)
	if err != nil {
		return nil, err
	}
	return hex.Distance(hs[0], hs[1]), nil
}

// neighbours is neighbours(h), the six hexes around, or neighbours(m, h), those on the board
// (none for a hex off it).
func neighbours(m *runtime.Machine, a []any) (any, error) {
	if len(a) == 1 {
		h, err := asHex(a[0])
		return hexList(h.Neighbours()), err
	}
	b, err := asBoard(a[0])
	if err != nil {
		return nil, err
	}
	h, err := asHex(a[1])
	if err != nil {
		return nil, err
	}
	var out []hex.Hex
	for _, n := range h.Neighbours() {
		// A hex off the board has no neighbours on it, even beside it.
		if b.In(h) && b.In(n) {
			out = append(out, n)
		}
	}
	return hexList(out), nil
}

// ring is ring(h, r): the hexes at distance r.
func ring(m *runtime.Machine, a []any) (any, error) {
	h, err := asHex(a[0])
	if err != nil {
		return nil, err
	}
	r := runtime.ToInt(a[1])
	if err := chargeHexes(m, "ring", r, 6*r); err != nil {
		return nil, err
	}
	return hexList(hex.Ring(h, r)), nil
}

// hexRange is hex_range(h, r): the hexes within distance r.
func hexRange(m *runtime.Machine, a []any) (any, error) {
	h, err := asHex(a[0])
	if err != nil {
		return nil, err
	}
	r := runtime.ToInt(a[1])
	if err := chargeHexes(m, "hex_range", r, 3*r*(r+1)+1); err != nil {
		return nil, err
	}
	return hexList(hex.Range(h, r)), nil
}

// terrain is terrain(m, h): "" off the board.
func terrain(b *hex.Map, h hex.Hex) any {
	if !b.In(h) {
		return ""
	}
	return b.Terrain[h]
}

// height is height(m, h).
func height(b *hex.Map, h hex.Hex) any { return b.Height[h] }

// road is road(m, h).
func road(b *hex.Map, h hex.Hex) any { return b.Road[h] }

// onBoard is on_board(m, h).
func onBoard(b *hex.Map, h hex.Hex) any { return b.In(h) }

// edge is edge(m, a, b): the feature between two hexes.
func edge(b *hex.Map, e hex.Edge) any { return b.Edges[e] }

// crossing is crossing(m, a, b): the crossing of the feature between two hexes.
func crossing(b *hex.Map, e hex.Edge) any { return b.Crossing[e] }

// point is point(m, name): a named point of the board.
func point(m *runtime.Machine, a []any) (any, error) {
	b, err := asBoard(a[0])
	if err != nil {
		return nil, err
	}
	h, ok := b.Points[runtime.Str(a[1])]
	if !ok {
		return nil, fmt.Errorf("map %s has no point %s", b.Name, runtime.Str(a[1]))
	}
	return h, nil
}

// line is line(a, b): the hexes on the straight line, ends included.
func line(m *runtime.Machine, a []any) (any, error) {
	hs, err := hexArgs(a, 0, 1)
	if err != nil {
		return nil, err
	}
	n := hex.Distance(hs[0], hs[1])
	if err := chargeHexes(m, "line", n, n+1); err != nil {
		return nil, err
	}
	return hexList(hex.Line(hs[0], hs[1])), nil
}

// lineOfFire is line_of_fire(m, from, to, bloque): true when no hex strictly between the
// two ends makes the rule bloque(m, hex, from, to) true.
func lineOfFire(m *runtime.Machine, a []any) (any, error) {
	b, x, y, err := boardTwoHexes(a, 1)
	if err != nil {
		return nil, err
	}
	blocks, err := m.CallbackProc("line_of_fire", blockCallback, a[3])
	if err != nil {
		return nil, err
	}
	if blocks == nil {
		return nil, fmt.Errorf("line_of_fire: a rule deciding what blocks is needed")
	}
	n := hex.Distance(x, y)
	if n <= 1 {
		return true, nil // no hex between: a hex sees itself and its neighbours
	}
	if err := chargeHexes(m, "line_of_fire", n, n+1); err != nil {
		return nil, err
	}
	line := hex.Line(x, y)
	for _, h := range line[1 : len(line)-1] {
		v, err := m.CallAt(blocks, []any{b, h, x, y}, blocks.Pos)
		if err != nil {
			return nil, err
		}
		if v, err := truth(blocks, v); err != nil {
			return nil, err
		} else if v {
			m.Tracef("line of fire %s→%s blocked at %s", x, y, h)
			return false, nil
		}
	}
	return true, nil
}

// reachable is reachable(m, unit, from, points, coût, arrêt): the hexes a unit can reach.
func reachable(m *runtime.Machine, a []any) (any, error) {
	b, err := asBoard(a[0])
	if err != nil {
		return nil, err
	}
	from, err := asHex(a[2])
	if err != nil {
		return nil, err
	}
	var stop any = ""
	if len(a) > 5 {
		stop = a[5]
	}
	cost, err := moveCost(m, "reachable", moveCallbacks(4), b, a[1], a[4], stop)
	if err != nil {
		return nil, err
	}
	best, _, err := b.Reachable(from, runtime.ToFloat(a[3]), cost)
	if err != nil {
		return nil, err
	}
	var hs []hex.Hex
	for h := range best {
		if h != from {
			hs = append(hs, h)
		}
	}
	return hexList(hex.Sorted(hs)), nil
}

// path is path(m, unit, from, to, points, coût, arrêt): the cheapest path, start excluded.
func path(m *runtime.Machine, a []any) (any, error) {
	b, err := asBoard(a[0])
	if err != nil {
		return nil, err
	}
	hs, err := hexArgs(a, 2, 3)
	if err != nil {
		return nil, err
	}
	from, to := hs[0], hs[1]
	var stop any = ""
	if len(a) > 6 {
		stop = a[6]
	}
	cost, err := moveCost(m, "path", moveCallbacks(5), b, a[1], a[5], stop)
	if err != nil {
		return nil, err
	}
	steps, err := b.Path(from, to, runtime.ToFloat(a[4]), cost)
	if err != nil {
		return nil, err
	}
	out := []any{}
	for _, s := range steps {
		out = append(out, s.Hex)
	}
	return out, nil
}

// retreats is retreats(m, unit, from, attacker, libre): the neighbours of from on the
// board, farther from the attacker, where libre(unit, from, to) holds (free, outside enemy
// zones…). The older retreats(m, from, attacker, libre) calls libre(hex).
func retreats(m *runtime.Machine, a []any) (any, error) {
	cb, unit, at := retreatCallback, any(nil), 2
	if len(a) == 4 {
		cb, at = olderRetreat, 1
	} else {
		unit = a[1]
	}
	b, from, att, err := boardTwoHexes(a, at)
	if err != nil {
		return nil, err
	}
	ok, err := m.CallbackProc("retreats", cb, a[cb.Arg])
	if err != nil {
		return nil, err
	}
	if ok == nil {
		return nil, fmt.Errorf("retreats: a rule deciding which hexes are free is needed")
	}
	var out []hex.Hex
	for _, n := range from.Neighbours() {
		// From off the board there is no retreat onto it, as there is no move (reachable).
		if !b.In(from) || !b.In(n) || hex.Distance(n, att) <= hex.Distance(from, att) {
			continue
		}
		args := []any{unit, from, n}
		if len(a) == 4 {
			args = []any{n}
		}
		v, err := m.CallAt(ok, args, ok.Pos)
		if err != nil {
			return nil, err
		}
		if v, err := truth(ok, v); err != nil {
			return nil, err
		} else if v {
			out = append(out, n)
		}
	}
	return hexList(hex.Sorted(out)), nil
}
