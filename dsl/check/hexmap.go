package check

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"rulesh/dsl/runtime"
	"rulesh/dsl/syntax"
	"rulesh/stdlib/hex"
)

func (c *compiler) mapDecl(ma *syntax.MapDecl) {
	decl := &runtime.MapDecl{Name: ma.Name, Pos: syntax.PosOf(ma.Pos)}
	if !c.declare(ma.Name, ma.Pos, decl) {
		return
	}
	var rows []*syntax.RowLine
	legend := map[rune]string{}
	for _, l := range ma.Lines {
		if l.Rows != nil {
			rows = append(rows, l.Rows...)
		}
		for _, lg := range l.Legend {
			ch, _ := syntax.Unquote(lg.Char)
			if utf8.RuneCountInString(ch) != 1 {
				c.errorf(lg.Pos, "a legend key is one character, not "+lg.Char, "")
				continue
			}
			legend[[]rune(ch)[0]] = lg.Terrain
		}
	}
	if len(rows) == 0 {
		c.errorf(ma.Pos, "map "+ma.Name+" has no rows", `draw it: rows { ". . f" … }`)
		return
	}
	cols := -1
	grid := make([][]rune, len(rows))
	total := 0
	for i, r := range rows {
		text, _ := syntax.Unquote(r.Text)
		text = strings.ReplaceAll(text, " ", "")
		// Bounded before the board is built: the rows' hexes are counted as they are read.
		if total += utf8.RuneCountInString(text); total > MaxMapHexes {
			c.errorf(ma.Pos, fmt.Sprintf("map %s has more than %d hexes (%d rows), over the limit of %d hexes per map", ma.Name, MaxMapHexes, len(rows), MaxMapHexes), "")
			return
		}
		grid[i] = []rune(text)
		if cols < 0 {
			cols = len(grid[i])
		} else if len(grid[i]) != cols {
			c.errorf(r.Pos, fmt.Sprintf("row %d has %d hexes, the first row has %d", i+1, len(grid[i]), cols), "")
		}
	}
	m := hex.NewMap(ma.Name, cols, len(rows))
	for r, line := range grid {
		for col, ch := range line {
			t, ok := legend[ch]
			if !ok {
				c.errorf(rows[r].Pos, fmt.Sprintf("no legend for %q (row %d, column %d)", ch, r+1, col+1), `add it: legend "`+string(ch)+`" terrain`)
				legend[ch] = "?"
				continue
			}
			h := hex.FromOffset(col+1, r+1)
			m.Terrain[h] = t
			m.Symbol[t] = ch
		}
	}
	at := func(h *syntax.Hex) (hex.Hex, bool) {
		col, ok1 := c.declInt(h.Col, false, h.Pos, "the column")
		row, ok2 := c.declInt(h.Row, false, h.Pos, "the row")
		if !ok1 || !ok2 {
			return hex.Hex{}, false
		}
		x := hex.FromOffset(col, row)
		if !m.In(x) {
			c.errorf(h.Pos, fmt.Sprintf("(%d,%d) is off the board (%d columns, %d rows)", col, row, m.Cols, m.Rows), "")
			return x, false
		}
		return x, true
	}
	for _, l := range ma.Lines {
		switch {
		case l.Edge != nil:
			for _, e := range l.Edge.Edges {
				a, ok1 := at(e.A)
				b, ok2 := at(e.B)
				if !ok1 || !ok2 {
					continue
				}
				if hex.Distance(a, b) != 1 {
					c.errorf(e.A.Pos, fmt.Sprintf("%s and %s are not adjacent: a %s runs between neighbours", a, b, l.Edge.Kind), "")
					continue
				}
				edge := hex.EdgeOf(a, b)
				switch l.Edge.Kind {
				case "river", "stream":
					m.Edges[edge] = l.Edge.Kind
				default:
					m.Crossing[edge] = l.Edge.Kind
				}
			}
		case l.Road != nil:
			for _, h := range l.Road {
				if x, ok := at(h); ok {
					m.Road[x] = true
				}
			}
		case l.Height != nil:
			for _, h := range l.Height {
				if x, ok := at(h.H); ok {
					if v, ok := c.declInt(h.Value, h.Neg, h.H.Pos, "the height"); ok {
						m.Height[x] = v
					}
				}
			}
		case l.Point != nil:
			if x, ok := at(l.Point.H); ok {
				m.Points[l.Point.Name] = x
				label, _ := syntax.Unquote(l.Point.Label)
				m.Labels[l.Point.Name] = label
			}
		}
	}
	for e, kind := range m.Crossing {
		if m.Edges[e] == "" {
			c.errorf(ma.Pos, fmt.Sprintf("%s %s-%s crosses no river or stream", kind, e.A, e.B), "")
		}
	}
	decl.Map = m
	c.prog.Maps = append(c.prog.Maps, decl)
}
