package hex

import (
	"reflect"
	"testing"
)

// costBoard is a row of plain with a wood, a marsh, a hill, a road, a river with a bridge
// and a ford, and a stream:
//
//	row 1: (1,1) plaine, (2,1) forêt, (3,1) plaine height 1, (4,1) bourbier
//	row 2: (1,2) plaine road, (2,2) plaine road, (3,2) plaine, (4,2) plaine
//
// river (1,1)-(2,1) with no crossing, river (2,2)-(3,2) with a bridge, river (3,2)-(4,2)
// with a ford; stream (3,1)-(4,1).
func costBoard() *Map {
	m := NewMap("costs", 4, 2)
	for _, h := range m.Hexes() {
		m.Terrain[h] = "plaine"
	}
	m.Terrain[FromOffset(2, 1)] = "forêt"
	m.Terrain[FromOffset(4, 1)] = "bourbier"
	m.Height[FromOffset(3, 1)] = 1
	m.Road[FromOffset(1, 2)] = true
	m.Road[FromOffset(2, 2)] = true
	set := func(a, b Hex, feature, crossing string) {
		e := EdgeOf(a, b)
		m.Edges[e] = feature
		if crossing != "" {
			m.Crossing[e] = crossing
		}
	}
	set(FromOffset(1, 1), FromOffset(2, 1), "river", "")
	set(FromOffset(2, 2), FromOffset(3, 2), "river", "bridge")
	set(FromOffset(3, 2), FromOffset(4, 2), "river", "ford")
	set(FromOffset(3, 1), FromOffset(4, 1), "stream", "")
	return m
}

func TestCostsStep(t *testing.T) {
	m := costBoard()
	h := FromOffset
	river := EdgeCost{Cost: -1, ByCrossing: map[string]float64{"bridge": 0, "ford": 0}}
	cases := []struct {
		name     string
		costs    Costs
		from, to Hex
		cost     float64
		stop     bool
	}{
		{"the default", Costs{Default: 1}, h(3, 2), h(3, 1), 1, false},
		{"zero value: every step free", Costs{}, h(3, 2), h(3, 1), 0, false},
		{"a terrain named", Costs{Default: 1, Terrain: map[string]float64{"forêt": 2}}, h(1, 2), h(2, 1), 2, false},
		{"a terrain not named takes the default", Costs{Default: 3, Terrain: map[string]float64{"forêt": 2}}, h(2, 2), h(3, 1), 3, false},
		{"an impassable terrain", Costs{Default: 1, Terrain: map[string]float64{"bourbier": -1}}, h(4, 2), h(4, 1), -1, false},
		{"only one terrain allowed", Costs{Default: -1, Terrain: map[string]float64{"plaine": 1}}, h(1, 2), h(2, 1), -1, false},
		{"climbing adds", Costs{Default: 1, Climb: 1}, h(3, 2), h(3, 1), 2, false},
		{"climbing forbidden", Costs{Default: 1, Climb: -1}, h(3, 2), h(3, 1), -1, false},
		{"going down is no climb", Costs{Default: 1, Climb: -1}, h(3, 1), h(3, 2), 1, false},
		{"a river without a crossing", Costs{Default: 1, Edges: map[string]EdgeCost{"river": river}}, h(1, 1), h(2, 1), -1, false},
		{"a bridge", Costs{Default: 1, Edges: map[string]EdgeCost{"river": river}}, h(2, 2), h(3, 2), 1, false},
		{"a ford", Costs{Default: 1, Edges: map[string]EdgeCost{"river": river}}, h(4, 2), h(3, 2), 1, false},
		{"a crossing not named counts as none", Costs{Default: 1, Edges: map[string]EdgeCost{"river": {Cost: -1, ByCrossing: map[string]float64{"bridge": 0}}}}, h(3, 2), h(4, 2), -1, false},
		{"a feature whatever its crossing", Costs{Default: 1, Edges: map[string]EdgeCost{"river": {Cost: 5}}}, h(2, 2), h(3, 2), 6, false},
		{"a feature not named adds nothing", Costs{Default: 1, Edges: map[string]EdgeCost{"river": river}}, h(3, 1), h(4, 1), 1, false},
		{"a stream adds", Costs{Default: 1, Edges: map[string]EdgeCost{"stream": {Cost: 1}}}, h(3, 1), h(4, 1), 2, false},
		{"terrain, climb and edge add up", Costs{Default: 1, Terrain: map[string]float64{"bourbier": 2}, Climb: 1, Edges: map[string]EdgeCost{"stream": {Cost: 1}}}, h(3, 1), h(4, 1), 3, false},
		{"a forbidden part wins over the others", Costs{Default: 1, Terrain: map[string]float64{"bourbier": 2}, Edges: map[string]EdgeCost{"stream": {Cost: -1}}}, h(3, 1), h(4, 1), -1, false},
		{"road to road", Costs{Default: 1, Road: true}, h(1, 2), h(2, 2), 1, false},
		{"off the road", Costs{Default: 1, Road: true}, h(2, 2), h(3, 2), -1, false},
		{"onto the road from off it", Costs{Default: 1, Road: true}, h(1, 1), h(1, 2), -1, false},
		{"a blocked hex", Costs{Default: 1, Blocked: map[Hex]bool{h(3, 1): true}}, h(3, 2), h(3, 1), -1, false},
		{"a stop hex", Costs{Default: 1, Stop: map[Hex]bool{h(3, 1): true}}, h(3, 2), h(3, 1), 1, true},
		{"a stop terrain", Costs{Default: 1, StopTerrain: map[string]bool{"forêt": true}}, h(1, 2), h(2, 1), 1, true},
		{"a blocked stop hex is blocked", Costs{Default: 1, Blocked: map[Hex]bool{h(3, 1): true}, Stop: map[Hex]bool{h(3, 1): true}}, h(3, 2), h(3, 1), -1, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cost, stop := c.costs.Step(m, c.from, c.to)
			if cost != c.cost || stop != c.stop {
				t.Errorf("%s → %s: got cost %v stop %v, want %v %v", c.from, c.to, cost, stop, c.cost, c.stop)
			}
		})
	}
}

// reach lists what Reachable finds from start, start excluded, in board order.
func reach(t *testing.T, m *Map, start Hex, budget float64, cost CostFunc) []Hex {
	t.Helper()
	best, _, err := m.Reachable(start, budget, cost)
	if err != nil {
		t.Fatal(err)
	}
	var out []Hex
	for h := range best {
		if h != start {
			out = append(out, h)
		}
	}
	return Sorted(out)
}

func TestCostsReachable(t *testing.T) {
	m := costBoard()
	h := FromOffset
	river := map[string]EdgeCost{"river": {Cost: -1, ByCrossing: map[string]float64{"bridge": 0, "ford": 0}}}
	cases := []struct {
		name   string
		costs  Costs
		start  Hex
		budget float64
		want   []Hex
	}{
		{"one step", Costs{Default: 1}, h(1, 1), 1, []Hex{h(2, 1), h(1, 2)}},
		{"the river holds", Costs{Default: 1, Edges: river}, h(1, 1), 1, []Hex{h(1, 2)}},
		{"the bridge lets through", Costs{Default: 1, Edges: river}, h(2, 2), 1,
			[]Hex{h(2, 1), h(3, 1), h(1, 2), h(3, 2)}},
		{"a river whatever its crossing holds", Costs{Default: 1, Edges: map[string]EdgeCost{"river": {Cost: -1}}}, h(2, 2), 1,
			[]Hex{h(2, 1), h(3, 1), h(1, 2)}},
		{"an impassable terrain is not reached", Costs{Default: 1, Terrain: map[string]float64{"forêt": -1}}, h(1, 2), 1,
			[]Hex{h(1, 1), h(2, 2)}},
		{"without a stop", Costs{Default: 1}, h(1, 2), 2,
			[]Hex{h(1, 1), h(2, 1), h(3, 1), h(2, 2), h(3, 2)}},
		{"a stop hex is reached, not left", Costs{Default: 1, Stop: map[Hex]bool{h(2, 2): true}}, h(1, 2), 2,
			[]Hex{h(1, 1), h(2, 1), h(3, 1), h(2, 2)}},
		{"a blocked hex is gone round", Costs{Default: 1, Blocked: map[Hex]bool{h(2, 1): true}}, h(1, 1), 2,
			[]Hex{h(1, 2), h(2, 2)}},
		{"the road only", Costs{Default: 1, Road: true}, h(1, 2), 5, []Hex{h(2, 2)}},
		{"off the board nothing is reached", Costs{Default: 1}, h(0, 1), 5, nil},
		{"a start off the road reaches nothing by road", Costs{Default: 1, Road: true}, h(3, 2), 5, nil},
		{"fractional costs within the budget", Costs{Default: 0.5}, h(1, 1), 0.5, []Hex{h(2, 1), h(1, 2)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := reach(t, m, c.start, c.budget, c.costs.Func(m)); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

// TestCostsSameAsAFunction: the data and a CostFunc that says the same thing give the same
// reach and the same paths, ties included (two paths of one cost: the search's fixed order
// picks the same one).
func TestCostsSameAsAFunction(t *testing.T) {
	m := NewMap("ties", 6, 5)
	for _, x := range m.Hexes() {
		m.Terrain[x] = "plaine"
	}
	m.Terrain[FromOffset(3, 3)] = "étang"
	m.Height[FromOffset(4, 2)] = 1
	m.Edges[EdgeOf(FromOffset(2, 2), FromOffset(3, 2))] = "stream"
	stop := FromOffset(5, 4)
	data := Costs{Default: 1, Terrain: map[string]float64{"étang": -1}, Climb: 1,
		Edges: map[string]EdgeCost{"stream": {Cost: 1}}, Stop: map[Hex]bool{stop: true}}
	fn := func(from, to Hex) (float64, bool, error) {
		if m.Terrain[to] == "étang" {
			return -1, false, nil
		}
		c := 1.0
		if m.Height[to] > m.Height[from] {
			c++
		}
		if m.Edges[EdgeOf(from, to)] == "stream" {
			c++
		}
		return c, to == stop, nil
	}
	start := FromOffset(1, 3)
	for budget := 0.0; budget <= 8; budget++ {
		if a, b := reach(t, m, start, budget, data.Func(m)), reach(t, m, start, budget, fn); !reflect.DeepEqual(a, b) {
			t.Errorf("budget %v: data reach %v, function %v", budget, a, b)
		}
	}
	for _, goal := range m.Hexes() {
		a, err1 := m.Path(start, goal, 20, data.Func(m))
		b, err2 := m.Path(start, goal, 20, fn)
		if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("path to %s: data %v (%v), function %v (%v)", goal, a, err1, b, err2)
		}
	}
}

// TestPathSettlesTheGoal: Path ends its search once the goal is settled, and gives the path
// that the whole search's previous hexes give, ties included (a plain board has many paths
// of one length), for every start and goal; a near goal asks fewer steps than the board.
func TestPathSettlesTheGoal(t *testing.T) {
	m := NewMap("plain", 7, 6)
	for _, x := range m.Hexes() {
		m.Terrain[x] = "plaine"
	}
	m.Terrain[FromOffset(4, 3)] = "étang"
	costs := Costs{Default: 1, Terrain: map[string]float64{"étang": -1}, Stop: map[Hex]bool{FromOffset(2, 5): true}}
	calls := 0
	counted := func(from, to Hex) (float64, bool, error) {
		calls++
		return costs.Func(m)(from, to)
	}
	for _, start := range m.Hexes() {
		calls = 0
		best, prev, err := m.Reachable(start, 50, counted)
		if err != nil {
			t.Fatal(err)
		}
		whole := calls
		for _, goal := range m.Hexes() {
			var want []Step
			if _, ok := best[goal]; ok && goal != start {
				for h := goal; h != start; h = prev[h] {
					want = append([]Step{{h, best[h]}}, want...)
				}
			}
			calls = 0
			got, err := m.Path(start, goal, 50, counted)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("%s → %s: got %v (%v), want %v", start, goal, got, err, want)
			}
			if Distance(start, goal) == 1 && m.Terrain[goal] != "étang" && calls >= whole {
				t.Errorf("%s → %s, a neighbour: %d steps asked, as many as the whole board's %d", start, goal, calls, whole)
			}
		}
	}
}
