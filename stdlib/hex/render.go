package hex

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"sort"
	"strings"
)

// Unit is a piece drawn on a board: where it stands, its marker (a few characters; the text
// drawing shows the first) and its label.
type Unit struct {
	At     Hex
	Marker string
	Label  string
}

// stacks groups units by hex, each hex's units in the order given, the hexes sorted.
func stacks(units []Unit) ([]Hex, map[Hex][]Unit) {
	by := map[Hex][]Unit{}
	var hs []Hex
	for _, u := range units {
		if by[u.At] == nil {
			hs = append(hs, u.At)
		}
		by[u.At] = append(by[u.At], u)
	}
	return Sorted(hs), by
}

// Render draws the board as text, one line per row, odd rows shifted half a hex: each hex is
// its terrain's character, the first character of the marker of the unit on it, or the
// number of units stacked there (+ above 9). A 38-column board fits an 80-column terminal.
// Rivers, points and units (marker and label, by hex) are listed under the board.
func (m *Map) Render(units []Unit) string {
	hs, by := stacks(units)
	var b strings.Builder
	b.WriteString("    ")
	for c := 1; c <= m.Cols; c++ {
		if c%5 == 0 {
			fmt.Fprintf(&b, "%-2d", c%100)
		} else {
			b.WriteString("  ")
		}
	}
	b.WriteString("\n")
	for r := 1; r <= m.Rows; r++ {
		fmt.Fprintf(&b, "%3d ", r)
		if r%2 == 0 {
			b.WriteString(" ")
		}
		for c := 1; c <= m.Cols; c++ {
			h := FromOffset(c, r)
			ch := "?"
			if us := by[h]; len(us) > 1 {
				ch = "+"
				if len(us) <= 9 {
					ch = fmt.Sprint(len(us))
				}
			} else if len(us) == 1 && us[0].Marker != "" {
				ch = string([]rune(us[0].Marker)[0])
			} else if t, ok := m.Terrain[h]; ok {
				ch = string(m.Symbol[t])
				if m.Road[h] && ch == "." {
					ch = "="
				}
			}
			b.WriteString(ch)
			if c < m.Cols {
				b.WriteString(" ")
			}
		}
		b.WriteString("\n")
	}
	var legend []string
	for t, s := range m.Symbol {
		legend = append(legend, fmt.Sprintf("%c %s", s, t))
	}
	sort.Strings(legend)
	if len(legend) > 0 {
		b.WriteString("    " + strings.Join(legend, ", ") + "\n")
	}
	if len(m.Edges) > 0 {
		var edges []string
		for e, kind := range m.Edges {
			s := fmt.Sprintf("%s %s-%s", kind, e.A, e.B)
			if c := m.Crossing[e]; c != "" {
				s += " (" + c + ")"
			}
			edges = append(edges, s)
		}
		sort.Strings(edges)
		b.WriteString("    " + strings.Join(edges, ", ") + "\n")
	}
	if len(m.Points) > 0 {
		var pts []string
		for name, h := range m.Points {
			pts = append(pts, name+" "+h.String())
		}
		sort.Strings(pts)
		b.WriteString("    " + strings.Join(pts, ", ") + "\n")
	}
	if len(hs) > 0 {
		var at []string
		for _, h := range hs {
			var us []string
			for _, u := range by[h] {
				us = append(us, strings.TrimSpace(u.Marker+" "+u.Label))
			}
			at = append(at, h.String()+" "+strings.Join(us, ", "))
		}
		b.WriteString("    " + strings.Join(at, "; ") + "\n")
	}
	return b.String()
}

// SVG draws the board as a picture: terrain colours, heights as a number, rivers and streams
// as blue edges (bridges and fords marked), roads as a dotted line through hex centres, units
// as discs bearing their markers, side by side when several share a hex, each titled with its
// label.
func (m *Map) SVG(units []Unit) string {
	var b strings.Builder
	_ = m.WriteSVG(&b, units) // a strings.Builder does not fail
	return b.String()
}

// WriteSVG is SVG written to w as it is drawn, so a large board is never held whole in
// memory. It returns the first write error.
func (m *Map) WriteSVG(out io.Writer, units []Unit) error {
	bw := bufio.NewWriter(out)
	b := &errWriter{w: bw}
	const size = 24.0
	w := math.Sqrt(3) * size
	centre := func(h Hex) (float64, float64) {
		c, r := h.Offset()
		x := w*float64(c) + w/2*float64((r-1)&1)
		y := 1.5*size*float64(r-1) + size + 8
		return x, y
	}
	corner := func(x, y float64, i int) (float64, float64) {
		a := math.Pi / 180 * float64(60*i-30)
		return x + size*math.Cos(a), y + size*math.Sin(a)
	}
	width := w*float64(m.Cols) + w + 16
	height := 1.5*size*float64(m.Rows) + size + 24
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="10">`+"\n", width, height, width, height)
	fmt.Fprintf(b, "<title>%s</title>\n", escape(m.Name))
	for _, h := range m.Hexes() {
		x, y := centre(h)
		var pts []string
		for i := 0; i < 6; i++ {
			px, py := corner(x, y, i)
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px, py))
		}
		fmt.Fprintf(b, `<polygon points="%s" fill="%s" stroke="#666" stroke-width="0.5"><title>%s %s</title></polygon>`+"\n",
			strings.Join(pts, " "), colour(m.Terrain[h]), h, escape(m.Terrain[h]))
		if ht := m.Height[h]; ht != 0 {
			fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="#333">%d</text>`+"\n", x, y-size/2, ht)
		}
	}
	for _, h := range m.Hexes() {
		if !m.Road[h] {
			continue
		}
		x, y := centre(h)
		for _, n := range h.Neighbours() {
			if m.Road[n] && (n.R > h.R || n.R == h.R && n.Q > h.Q) {
				nx, ny := centre(n)
				fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#8b5a2b" stroke-width="3" stroke-dasharray="4 2"/>`+"\n", x, y, nx, ny)
			}
		}
	}
	// Edges in a fixed order: the same board gives the same picture byte for byte.
	edges := make([]Edge, 0, len(m.Edges))
	for e := range m.Edges {
		edges = append(edges, e)
	}
	sort.Slice(edges, func(i, j int) bool {
		a, b := edges[i], edges[j]
		if a.A != b.A {
			return a.A.R < b.A.R || a.A.R == b.A.R && a.A.Q < b.A.Q
		}
		return b.B.R > a.B.R || a.B.R == b.B.R && a.B.Q < b.B.Q
	})
	for _, e := range edges {
		kind := m.Edges[e]
		ax, ay := centre(e.A)
		bx, by := centre(e.B)
		mx, my := (ax+bx)/2, (ay+by)/2
		dx, dy := (by-ay)/2, -(bx-ax)/2 // along the shared side
		k := size / 2 / math.Hypot(dx, dy)
		widthPx := 4.0
		if kind != "river" {
			widthPx = 2
		}
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#1e64c8" stroke-width="%.0f"><title>%s</title></line>`+"\n",
			mx-dx*k, my-dy*k, mx+dx*k, my+dy*k, widthPx, escape(kind))
		if c := m.Crossing[e]; c != "" {
			fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="8" height="8" fill="#a0522d"><title>%s</title></rect>`+"\n", mx-4, my-4, escape(c))
		}
	}
	var names []string
	for n := range m.Points {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		x, y := centre(m.Points[n])
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle" font-weight="bold">%s</text>`+"\n", x, y+size/2+2, escape(n))
	}
	hs, by := stacks(units)
	for _, h := range hs {
		x, y := centre(h)
		us := by[h]
		// One disc fills the hex; a stack shares its width.
		r := size / 2.2
		if len(us) > 1 {
			r = 1.6 * size / float64(2*len(us))
		}
		for i, u := range us {
			ux := x + (float64(i)-float64(len(us)-1)/2)*2*r
			fmt.Fprintf(b, `<g><title>%s</title><circle cx="%.1f" cy="%.1f" r="%.1f" fill="#fff" stroke="#000"/><text x="%.1f" y="%.1f" text-anchor="middle">%s</text></g>`+"\n",
				escape(u.Label), ux, y, r, ux, y+3, escape(u.Marker))
		}
	}
	fmt.Fprint(b, "</svg>\n")
	if b.err != nil {
		return b.err
	}
	return bw.Flush()
}

// errWriter keeps the first write error, so drawing code need not check every line.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

func escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// colour picks a stable colour per terrain name (common names get natural colours).
func colour(t string) string {
	known := map[string]string{
		"plaine": "#d8e8a8", "clair": "#d8e8a8", "forêt": "#4f8a3c", "bois": "#4f8a3c", "colline": "#c8a860",
		"village": "#c0a0a0", "marais": "#7aa89a", "eau": "#6fa8dc", "": "#eeeeee",
	}
	if c, ok := known[t]; ok {
		return c
	}
	h := fnv.New32a()
	h.Write([]byte(t))
	v := h.Sum32()
	return fmt.Sprintf("#%02x%02x%02x", 120+v%100, 120+(v>>8)%100, 120+(v>>16)%100)
}
