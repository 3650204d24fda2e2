// Package hex models hexagonal boards: axial coordinates, distances, rings, terrain, edge
// features (rivers and their crossings), roads, heights, movement with a caller's cost
// function, zones of control, retreats and lines of fire. It knows nothing of any ruleset:
// every game decision (what a move costs, who exerts a zone of control, what blocks fire) is
// a function the caller passes.
package hex

import (
	"container/heap"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Hex is a cell in axial coordinates (pointy-top hexes; the third cube coordinate is -Q-R).
type Hex struct {
	Q int `expr:"q"`
	R int `expr:"r"`
}

// Directions are the six neighbours' offsets, clockwise from east.
var Directions = []Hex{{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}}

// Add returns h + d.
func (h Hex) Add(d Hex) Hex { return Hex{h.Q + d.Q, h.R + d.R} }

// S is the third cube coordinate.
func (h Hex) S() int { return -h.Q - h.R }

// Distance is the number of steps between two hexes.
func Distance(a, b Hex) int {
	dq, dr, ds := a.Q-b.Q, a.R-b.R, a.S()-b.S()
	return (abs(dq) + abs(dr) + abs(ds)) / 2
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Neighbours returns the six adjacent hexes, clockwise from east.
func (h Hex) Neighbours() []Hex {
	out := make([]Hex, 6)
	for i, d := range Directions {
		out[i] = h.Add(d)
	}
	return out
}

// Ring returns the hexes at exactly distance r (6r of them; the centre for r = 0).
func Ring(c Hex, r int) []Hex {
	if r < 0 {
		return nil
	}
	if r == 0 {
		return []Hex{c}
	}
	out := make([]Hex, 0, 6*r)
	h := Hex{c.Q + Directions[4].Q*r, c.R + Directions[4].R*r}
	for i := 0; i < 6; i++ {
		for j := 0; j < r; j++ {
			out = append(out, h)
			h = h.Add(Directions[i])
		}
	}
	return out
}

// Range returns every hex within distance r: 3r(r+1)+1 of them.
func Range(c Hex, r int) []Hex {
	var out []Hex
	for q := -r; q <= r; q++ {
		for s := max(-r, -q-r); s <= min(r, -q+r); s++ {
			out = append(out, Hex{c.Q + q, c.R - q - s})
		}
	}
	return out
}

// Offset converts to the (column, row) of a board printed in rows ("odd-r": odd rows are
// shifted half a hex to the right). Rows and columns count from 1, as on a printed board.
func (h Hex) Offset() (col, row int) {
	row = h.R
	col = h.Q + (h.R-(h.R&1))/2
	return col + 1, row + 1
}

// FromOffset is the inverse of Offset.
func FromOffset(col, row int) Hex {
	c, r := col-1, row-1
	return Hex{c - (r-(r&1))/2, r}
}

// String writes a hex the way rule files do: its board position (col,row).
func (h Hex) String() string {
	c, r := h.Offset()
	return fmt.Sprintf("(%d,%d)", c, r)
}

// JSON is the hex as JSON output shows it.
func (h Hex) JSON() any { return h.String() }

// ParseHex reads "(col,row)" or "col,row".
func ParseHex(s string) (Hex, error) {
	c, r, err := ParseOffset(s)
	if err != nil {
		return Hex{}, err
	}
	return FromOffset(c, r), nil
}

// ParseOffset reads the board position of "(col,row)" or "col,row", so that a caller can
// bound it before converting (FromOffset of the largest ints overflows).
func ParseOffset(s string) (col, row int, err error) {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(s), "("), ")"))
	a, b, ok := strings.Cut(s, ",")
	c, err1 := strconv.Atoi(strings.TrimSpace(a))
	r, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("%q is not a hex such as (3,4)", s)
	}
	return c, r, nil
}

// Edge is the side between two adjacent hexes, stored in a canonical order.
type Edge struct{ A, B Hex }

// EdgeOf returns the canonical edge between a and b.
func EdgeOf(a, b Hex) Edge {
	if a.Q > b.Q || a.Q == b.Q && a.R > b.R {
		a, b = b, a
	}
	return Edge{a, b}
}

// Map is a board: its hexes with terrain, heights, roads, features on edges and named points.
type Map struct {
	Name     string
	Cols     int
	Rows     int
	Terrain  map[Hex]string
	Symbol   map[string]rune // terrain → the character that drew it
	Height   map[Hex]int
	Road     map[Hex]bool
	Edges    map[Edge]string // "river", "stream" …
	Crossing map[Edge]string // "bridge", "ford" …
	Points   map[string]Hex
	Labels   map[string]string
}

// NewMap returns an empty board of cols × rows.
func NewMap(name string, cols, rows int) *Map {
	return &Map{Name: name, Cols: cols, Rows: rows, Terrain: map[Hex]string{}, Symbol: map[string]rune{},
		Height: map[Hex]int{}, Road: map[Hex]bool{}, Edges: map[Edge]string{}, Crossing: map[Edge]string{},
		Points: map[string]Hex{}, Labels: map[string]string{}}
}

// In reports whether h is on the board.
func (m *Map) In(h Hex) bool {
	c, r := h.Offset()
	return c >= 1 && c <= m.Cols && r >= 1 && r <= m.Rows
}

// Hexes returns every hex of the board, row by row.
func (m *Map) Hexes() []Hex {
	out := make([]Hex, 0, m.Cols*m.Rows)
	for r := 1; r <= m.Rows; r++ {
		for c := 1; c <= m.Cols; c++ {
			out = append(out, FromOffset(c, r))
		}
	}
	return out
}

// CostFunc says what entering `to` from `from` costs; a negative cost forbids the move. stop
// reports that the mover must stop on entering (a zone of control, a marsh…).
type CostFunc func(from, to Hex) (cost float64, stop bool, err error)

// Step is one hex of a path with the movement spent on reaching it.
type Step struct {
	Hex   Hex
	Spent float64
}

type node struct {
	h     Hex
	spent float64
	index int
}

type queue []*node

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	if q[i].spent != q[j].spent {
		return q[i].spent < q[j].spent
	}
	// Ties in a fixed order, so paths are the same on every run.
	if q[i].h.R != q[j].h.R {
		return q[i].h.R < q[j].h.R
	}
	return q[i].h.Q < q[j].h.Q
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i]; q[i].index = i; q[j].index = j }
func (q *queue) Push(x any)   { n := x.(*node); n.index = len(*q); *q = append(*q, n) }
func (q *queue) Pop() any     { old := *q; n := old[len(old)-1]; *q = old[:len(old)-1]; return n }

// Reachable returns every hex reachable from start with at most budget movement points, with
// the cheapest cost to reach it and the previous hex of that path (Dijkstra). A hex where the
// mover must stop is reached but not left. From a hex off the board nothing is reached
// (the start alone), even beside the board: a unit off the map does not move on it.
func (m *Map) Reachable(start Hex, budget float64, cost CostFunc) (map[Hex]float64, map[Hex]Hex, error) {
	return m.search(start, budget, cost, nil)
}

// search is Reachable's search; with a goal, it ends as soon as the goal is settled (taken
// from the queue at its cheapest cost): that cost and the previous hexes of its path are
// then final, costs being never negative, and the rest of the board is not needed.
func (m *Map) search(start Hex, budget float64, cost CostFunc, goal *Hex) (map[Hex]float64, map[Hex]Hex, error) {
	best := map[Hex]float64{start: 0}
	prev := map[Hex]Hex{}
	if !m.In(start) {
		return best, prev, nil
	}
	stopped := map[Hex]bool{}
	q := &queue{{h: start}}
	for q.Len() > 0 {
		n := heap.Pop(q).(*node)
		if n.spent > best[n.h] {
			continue
		}
		if goal != nil && n.h == *goal {
			break
		}
		if stopped[n.h] && n.h != start {
			continue
		}
		for _, d := range Directions {
			to := n.h.Add(d)
			if !m.In(to) {
				continue
			}
			c, stop, err := cost(n.h, to)
			if err != nil {
				return nil, nil, err
			}
			if c < 0 {
				continue
			}
			spent := n.spent + c
			if spent > budget+1e-9 {
				continue
			}
			if old, seen := best[to]; seen && old <= spent {
				continue
			}
			best[to] = spent
			prev[to] = n.h
			stopped[to] = stop
			heap.Push(q, &node{h: to, spent: spent})
		}
	}
	return best, prev, nil
}

// Path returns the cheapest path from start to goal within budget (start excluded), or nil
// (always from a start off the board, as Reachable).
func (m *Map) Path(start, goal Hex, budget float64, cost CostFunc) ([]Step, error) {
	best, prev, err := m.search(start, budget, cost, &goal)
	if err != nil {
		return nil, err
	}
	if _, ok := best[goal]; !ok || goal == start {
		return nil, nil
	}
	var rev []Step
	for h := goal; h != start; h = prev[h] {
		rev = append(rev, Step{h, best[h]})
	}
	out := make([]Step, len(rev))
	for i := range rev {
		out[i] = rev[len(rev)-1-i]
	}
	return out, nil
}

// Sorted returns hexes in board order (row, then column), for deterministic listings.
func Sorted(hs []Hex) []Hex {
	out := append([]Hex(nil), hs...)
	sort.Slice(out, func(i, j int) bool {
		ci, ri := out[i].Offset()
		cj, rj := out[j].Offset()
		if ri != rj {
			return ri < rj
		}
		return ci < cj
	})
	return out
}

// Line returns the hexes on the straight line from a to b, ends included (cube
// interpolation, nudged so that a line along an edge picks one side consistently).
func Line(a, b Hex) []Hex {
	n := Distance(a, b)
	out := make([]Hex, 0, n+1)
	for i := 0; i <= n; i++ {
		t := 0.0
		if n > 0 {
			t = float64(i) / float64(n)
		}
		q := float64(a.Q) + 1e-6 + (float64(b.Q-a.Q))*t
		r := float64(a.R) + 1e-6 + (float64(b.R-a.R))*t
		out = append(out, round(q, r, -q-r))
	}
	return out
}

func round(q, r, s float64) Hex {
	rq, rr, rs := math.Round(q), math.Round(r), math.Round(s)
	dq, dr, ds := math.Abs(rq-q), math.Abs(rr-r), math.Abs(rs-s)
	switch {
	case dq > dr && dq > ds:
		rq = -rr - rs
	case dr > ds:
		rr = -rq - rs
	}
	return Hex{int(rq), int(rr)}
}
