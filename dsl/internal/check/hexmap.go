package check

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
	"rulesh/stdlib/hex"
)

func (c *Compiler) mapDecl(ma *syntax.MapDecl) {
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
	for _, l := range ma.Lines {
		if l.Units != nil {
			c.unitLines = append(c.unitLines, pendingUnits{decl, l.Units})
		}
	}
}

// pendingUnits is a map's `units` line, resolved once kinds and procedure signatures are
// known (mapUnits).
type pendingUnits struct {
	decl *runtime.MapDecl
	line *syntax.Units
}

// mapUnits resolves the `units` lines of the maps: a kind, and for the position, marker,
// label and side a field of it or a rule taking one unit.
func (c *Compiler) mapUnits() {
	for _, p := range c.unitLines {
		l := p.line
		k, ok := c.prog.Globals[l.Kind].(*runtime.Kind)
		if !ok {
			var kinds []string
			for _, k := range c.prog.Kinds {
				kinds = append(kinds, k.Name)
			}
			c.errorf(l.Pos, "units of "+l.Kind+": no kind "+l.Kind, didYouMeanDetail(l.Kind, kinds))
			continue
		}
		u := &runtime.MapUnits{Kind: k, Pos: syntax.PosOf(l.Pos)}
		ok = true
		for _, part := range []struct {
			what string
			in   *syntax.UnitAccess
			to   *runtime.UnitPart
			want runtime.TypeKind
		}{{"position", l.At, &u.At, runtime.THex}, {"marker", l.Marker, &u.Marker, runtime.TString}, {"label", l.Label, &u.Label, runtime.TString}, {"side", l.Side, &u.Side, runtime.TString}} {
			if part.in != nil && !c.unitPart(k, part.what, part.in, part.to, part.want) {
				ok = false
			}
		}
		if ok {
			p.decl.Units = append(p.decl.Units, u)
		}
	}
}

// unitPart resolves a name of a `units` line: a field of kind k, or a rule whose one
// required parameter takes a k; either must give a want (or any).
func (c *Compiler) unitPart(k *runtime.Kind, what string, in *syntax.UnitAccess, to *runtime.UnitPart, want runtime.TypeKind) bool {
	wantType := &runtime.Type{Kind: want}
	fits := func(t *runtime.Type) bool {
		return t == nil || t.Kind == runtime.TAny || t.Kind == want || want == runtime.TString && t.Kind == runtime.TEnum
	}
	if f := k.ByName[in.Name]; f != nil {
		if !fits(f.Type) {
			c.errorf(in.Pos, fmt.Sprintf("the %s of %s is %s, a field of type %s", what, runtime.WithArticle(k.Name), in.Name, f.Type), "a "+what+" is a "+wantType.String())
			return false
		}
		to.Field = in.Name
		return true
	}
	if pr, ok := c.prog.Globals[in.Name].(*runtime.Proc); ok && pr.Table == nil {
		switch {
		case pr.Verb != "rule":
			c.errorf(in.Pos, fmt.Sprintf("the %s of %s is given by a rule; %s is an action", what, runtime.WithArticle(k.Name), in.Name), "drawing a board changes nothing: declare it rule")
		case len(pr.Params) == 0 || pr.MinArg > 1 || !runtime.Assignable(pr.Params[0].Type, k.Type()):
			c.errorf(in.Pos, fmt.Sprintf("%s cannot give the %s of %s: it must take one %s", in.Name, what, runtime.WithArticle(k.Name), k.Name), "")
		case pr.Result != nil && !fits(pr.Result):
			c.errorf(in.Pos, fmt.Sprintf("%s cannot give the %s of %s: it returns %s, not %s", in.Name, what, runtime.WithArticle(k.Name), pr.Result, wantType), "")
		default:
			to.Rule = pr
			return true
		}
		return false
	}
	var names []string
	for _, f := range k.Fields {
		names = append(names, f.Name)
	}
	for _, pr := range c.prog.Procs {
		if pr.Verb == "rule" && pr.Table == nil {
			names = append(names, pr.Name)
		}
	}
	c.errorf(in.Pos, fmt.Sprintf("the %s of %s: %s is no field of %s and no rule", what, runtime.WithArticle(k.Name), in.Name, k.Name), didYouMeanDetail(in.Name, names))
	return false
}
