package hex

// Costs prices movement as data, from what the board says of the two hexes of a step and
// the side between them, so that a search needs no call of the caller's code at each step.
// The cost of entering `to` from `from` is the terrain's cost, plus Climb when `to` is
// higher, plus the cost of the feature on the side crossed; any negative part forbids the
// step. The zero value prices every step 0: set Default (1 for "one point a hex").
type Costs struct {
	// Default is the cost of entering a hex whose terrain Terrain does not name.
	Default float64
	// Terrain is the cost of entering a hex of each terrain (negative: forbidden).
	Terrain map[string]float64
	// Climb is added on entering a hex higher than the one left (negative: forbidden).
	Climb float64
	// Edges is the cost added on crossing a side with a feature ("river", "stream"); a
	// feature it does not name adds nothing.
	Edges map[string]EdgeCost
	// Road, when set, allows only the steps from a road hex to a road hex.
	Road bool
	// Blocked hexes are never entered (an enemy's hex).
	Blocked map[Hex]bool
	// Stop hexes are entered but not left (a zone of control); so are the hexes of a terrain
	// of StopTerrain.
	Stop        map[Hex]bool
	StopTerrain map[string]bool
}

// EdgeCost is what crossing one feature adds: Cost without a crossing, or the cost of the
// crossing there ("bridge", "ford") when ByCrossing names it. A crossing it does not name
// counts as none: only the crossings named help.
type EdgeCost struct {
	Cost       float64
	ByCrossing map[string]float64
}

// Step is the cost of entering `to` from its neighbour `from` (negative: forbidden), and
// whether the mover must stop there. It does not look whether `to` is on the board: the
// search does.
func (c *Costs) Step(m *Map, from, to Hex) (cost float64, stop bool) {
	if c.Blocked[to] {
		return -1, false
	}
	if c.Road && (!m.Road[from] || !m.Road[to]) {
		return -1, false
	}
	t := m.Terrain[to]
	cost = c.Default
	if v, ok := c.Terrain[t]; ok {
		cost = v
	}
	if cost < 0 {
		return -1, false
	}
	if c.Climb != 0 && m.Height[to] > m.Height[from] {
		if c.Climb < 0 {
			return -1, false
		}
		cost += c.Climb
	}
	if len(c.Edges) > 0 {
		e := EdgeOf(from, to)
		if f := m.Edges[e]; f != "" {
			if ec, ok := c.Edges[f]; ok {
				add := ec.Cost
				if v, ok := ec.ByCrossing[m.Crossing[e]]; ok {
					add = v
				}
				if add < 0 {
					return -1, false
				}
				cost += add
			}
		}
	}
	return cost, c.Stop[to] || c.StopTerrain[t]
}

// Func is the CostFunc of these costs on board m, for Reachable and Path.
func (c *Costs) Func(m *Map) CostFunc {
	return func(from, to Hex) (float64, bool, error) {
		cost, stop := c.Step(m, from, to)
		return cost, stop, nil
	}
}
