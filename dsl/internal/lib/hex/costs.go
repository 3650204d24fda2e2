package hex

import (
	"fmt"
	"strings"

	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
	"rulesh/stdlib/hex"
)

// costKeys are the keys of a cost map, sorted (for the message naming a wrong one).
var costKeys = []string{"blocked", "climb", "cost", "edges", "road", "stop", "stop_terrain", "terrain"}

// readCosts reads a cost map, the data that reachable and path take in place of a cost rule
// (docs/LANGUAGE.md, Hex maps): every key is optional, a nil value is as if left out, and an
// unknown key is an error (a typo would silently price nothing). A record of a kind whose
// fields bear these names is read the same way.
func readCosts(fn string, v map[string]any) (*hex.Costs, error) {
	c := &hex.Costs{Default: 1}
	for k, x := range v {
		if k == runtime.KindKey || x == nil {
			continue
		}
		var err error
		switch k {
		case "cost":
			c.Default, err = costNumber(x)
		case "climb":
			c.Climb, err = costNumber(x)
		case "terrain":
			c.Terrain, err = costTable(x)
		case "edges":
			c.Edges, err = edgeCosts(x)
		case "road":
			b, ok := x.(bool)
			if !ok {
				err = fmt.Errorf("expected true or false, got %s", runtime.Repr(x))
			}
			c.Road = b
		case "blocked":
			c.Blocked, err = hexSet(x)
		case "stop":
			c.Stop, err = hexSet(x)
		case "stop_terrain":
			c.StopTerrain, err = nameSet(x)
		default:
			detail := ""
			if near := syntax.DidYouMean(k, costKeys); near != "" {
				detail = fmt.Sprintf(" (did you mean %s?)", near)
			}
			return nil, fmt.Errorf("%s: a cost map has no key %s%s; its keys: %s", fn, k, detail, strings.Join(costKeys, ", "))
		}
		if err != nil {
			return nil, fmt.Errorf("%s: the cost map's %s: %w", fn, k, err)
		}
	}
	return c, nil
}

// stringMap reads a map of the language: a literal's keys are strings, a map that
// fromPairs built has keys of any type (then all must be strings). A record is not one.
func stringMap(x any) (map[string]any, bool) {
	switch m := x.(type) {
	case map[string]any:
		return m, m[runtime.KindKey] == nil
	case map[any]any:
		out := make(map[string]any, len(m))
		for k, v := range m {
			s, ok := k.(string)
			if !ok {
				return nil, false
			}
			out[s] = v
		}
		return out, true
	}
	return nil, false
}

// costMap reads the cost argument: a map (or a record) of the keys of readCosts.
func costMap(x any) (map[string]any, bool) {
	if m, ok := x.(map[string]any); ok {
		return m, true
	}
	return stringMap(x)
}

// costNumber reads a cost: a number (negative: forbidden).
func costNumber(x any) (float64, error) {
	if f, ok := runtime.Number(x); ok {
		return f, nil
	}
	return 0, fmt.Errorf("expected a number, got %s", runtime.Repr(x))
}

// costTable reads a map from names (terrains, crossings) to costs.
func costTable(x any) (map[string]float64, error) {
	m, ok := stringMap(x)
	if !ok {
		return nil, fmt.Errorf("expected a map from names to costs, got %s", runtime.Repr(x))
	}
	out := make(map[string]float64, len(m))
	for k, v := range m {
		f, err := costNumber(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = f
	}
	return out, nil
}

// edgeCosts reads the costs of the features: each a number (whatever the crossing), or a
// map from crossings to costs whose "" entry is the side without a crossing (a crossing it
// does not name counts as none; no "" entry: 0).
func edgeCosts(x any) (map[string]hex.EdgeCost, error) {
	m, ok := stringMap(x)
	if !ok {
		return nil, fmt.Errorf("expected a map from features (river, stream) to costs, got %s", runtime.Repr(x))
	}
	out := make(map[string]hex.EdgeCost, len(m))
	for feature, v := range m {
		if _, isMap := stringMap(v); isMap {
			by, err := costTable(v)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", feature, err)
			}
			ec := hex.EdgeCost{Cost: by[""], ByCrossing: by}
			delete(by, "")
			out[feature] = ec
			continue
		}
		f, err := costNumber(v)
		if err != nil {
			return nil, fmt.Errorf("%s: expected a number or a map from crossings (\"\", bridge, ford) to costs, got %s", feature, runtime.Repr(v))
		}
		out[feature] = hex.EdgeCost{Cost: f}
	}
	return out, nil
}

// hexSet reads a list of hexes (repeats allowed) as a set.
func hexSet(x any) (map[hex.Hex]bool, error) {
	l, ok := x.([]any)
	if !ok {
		return nil, fmt.Errorf("expected a list of hexes, got %s", runtime.Repr(x))
	}
	out := make(map[hex.Hex]bool, len(l))
	for _, e := range l {
		h, err := asHex(e)
		if err != nil {
			return nil, err
		}
		out[h] = true
	}
	return out, nil
}

// nameSet reads a list of names (terrains) as a set.
func nameSet(x any) (map[string]bool, error) {
	l, ok := x.([]any)
	if !ok {
		return nil, fmt.Errorf("expected a list of terrain names, got %s", runtime.Repr(x))
	}
	out := make(map[string]bool, len(l))
	for _, e := range l {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("expected a terrain name, got %s", runtime.Repr(e))
		}
		out[s] = true
	}
	return out, nil
}

// moveCost is the board's movement cost for reachable and path: from a cost map (data, the
// search stays in Go) when the cost argument is one, else from the cost rule; the stop rule,
// if given, is asked in both cases. Each step the data prices is charged one step of the
// budget, so a search on a large board is bounded as the rules' calls are.
func moveCost(m *runtime.Machine, fn string, cbs []runtime.Callback, b *hex.Map, unit, costArg, stopArg any) (hex.CostFunc, error) {
	data, ok := costMap(costArg)
	if !ok {
		return costFunc(m, fn, cbs, unit, costArg, stopArg)
	}
	costs, err := readCosts(fn, data)
	if err != nil {
		return nil, err
	}
	stop, err := m.CallbackProc(fn, cbs[1], stopArg)
	if err != nil {
		return nil, err
	}
	return func(from, to hex.Hex) (float64, bool, error) {
		if err := m.Charge(1); err != nil {
			return 0, false, err
		}
		c, halt := costs.Step(b, from, to)
		if stop != nil && c >= 0 && !halt {
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

// moveCostOf is move_cost(m, costs, from, to): what the cost map prices the step from
// `from` to its neighbour `to`, -1 when it forbids it; a step onto a hex off the board, or
// between hexes that do not touch, is forbidden as the search never makes it.
func moveCostOf(m *runtime.Machine, a []any) (any, error) {
	b, from, to, err := boardTwoHexes([]any{a[0], a[2], a[3]}, 1)
	if err != nil {
		return nil, err
	}
	data, ok := costMap(a[1])
	if !ok {
		return nil, fmt.Errorf("move_cost: expected a cost map, got %s", runtime.Repr(a[1]))
	}
	costs, err := readCosts("move_cost", data)
	if err != nil {
		return nil, err
	}
	if !b.In(from) || !b.In(to) || hex.Distance(from, to) != 1 {
		return -1.0, nil
	}
	c, _ := costs.Step(b, from, to)
	if c < 0 {
		c = -1
	}
	return c, nil
}
