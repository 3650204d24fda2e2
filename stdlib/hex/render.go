package hex

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"sort"
	"strings"
	"sync"
)

// Unit is a piece drawn on a board: where it stands, its marker (a few characters; the text
// drawing shows the first), its label and its side ("" : none), which the drawings tell
// apart by a colour and a mark.
type Unit struct {
	At     Hex
	Marker string
	Label  string
	Side   string
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

// sideMarks gives each side of the units, in the order they first appear, the mark the text
// drawing puts after a unit's character: the side's first letter (lower-cased) when the
// sides' first letters differ, else 1, 2, 3…
func sideMarks(units []Unit) ([]string, map[string]rune) {
	var sides []string
	marks := map[string]rune{}
	for _, u := range units {
		if _, ok := marks[u.Side]; u.Side != "" && !ok {
			sides = append(sides, u.Side)
			marks[u.Side] = []rune(strings.ToLower(u.Side))[0]
		}
	}
	seen := map[rune]bool{}
	distinct := true
	for _, sd := range sides {
		distinct = distinct && !seen[marks[sd]]
		seen[marks[sd]] = true
	}
	if !distinct {
		const seq = "123456789abcdefghijklmnopqrstuvwxyz"
		for i, sd := range sides {
			marks[sd] = '?'
			if i < len(seq) {
				marks[sd] = rune(seq[i])
			}
		}
	}
	return sides, marks
}

// Render draws the board as text, one line per row, odd rows shifted half a hex: each hex is
// its terrain's character, the first character of the marker of the unit on it, or the
// number of units stacked there (+ above 9). Column numbers run along the top and bottom
// edges, row numbers along the left and right ones. When units have sides, each hex is
// twice as wide and a unit's character is followed by its side's mark (a stack's by its
// side's, * when sides mix), the marks listed under the legend, then by its hex's terrain
// character unless that is "." (a road on the plain: "="); a 36-column board without
// sides fits an 80-column terminal, 18 columns with sides. Rivers, points and units (marker
// and label, by hex) are listed under the board.
func (m *Map) Render(units []Unit) string {
	hs, by := stacks(units)
	sides, marks := sideMarks(units)
	cell := 2 // characters per hex: its character and a space, or with sides a mark and two
	if len(sides) > 0 {
		cell = 4
	}
	var b strings.Builder
	// The column numbers: with sides, whole in each hex's width; without, a line of units
	// digits and, from 10 columns, a line of tens digits outside it.
	digits := func(tens bool) {
		var r strings.Builder
		for c := 1; c <= m.Cols; c++ {
			switch {
			case cell == 4:
				fmt.Fprintf(&r, "%-4d", c)
			case tens && c < 10:
				r.WriteString("  ")
			case tens:
				fmt.Fprintf(&r, "%d ", c/10%10)
			default:
				fmt.Fprintf(&r, "%d ", c%10)
			}
		}
		b.WriteString(strings.TrimRight("    "+r.String(), " ") + "\n")
	}
	wide := cell == 2 && m.Cols >= 10
	if wide {
		digits(true)
	}
	digits(false)
	width := cell * m.Cols // the widest (shifted) row, without the margin
	for r := 1; r <= m.Rows; r++ {
		var row strings.Builder
		if r%2 == 0 {
			row.WriteString(strings.Repeat(" ", cell/2))
		}
		for c := 1; c <= m.Cols; c++ {
			h := FromOffset(c, r)
			ch, mark, under := "?", " ", ""
			// With sides a hex has room for a third character: under units, the terrain's
			// (a village, a wood, a hill a unit stands on stays visible), unless it is ".".
			if cell == 4 && len(by[h]) > 0 {
				if t, ok := m.Terrain[h]; ok {
					under = string(m.Symbol[t])
					if m.Road[h] && under == "." {
						under = "="
					}
					if under == "." || under == "\x00" {
						under = ""
					}
				}
			}
			if us := by[h]; len(us) > 1 {
				ch = "+"
				if len(us) <= 9 {
					ch = fmt.Sprint(len(us))
				}
				mark = string(marks[us[0].Side])
				for _, u := range us[1:] {
					if u.Side != us[0].Side {
						mark = "*"
					}
				}
			} else if len(us) == 1 && us[0].Marker != "" {
				ch = string([]rune(us[0].Marker)[0])
				if us[0].Side != "" {
					mark = string(marks[us[0].Side])
				}
			} else if t, ok := m.Terrain[h]; ok {
				ch = string(m.Symbol[t])
				if m.Road[h] && ch == "." {
					ch = "="
				}
			}
			row.WriteString(ch)
			if cell == 4 {
				row.WriteString(mark + under)
			}
			if c < m.Cols {
				row.WriteString(strings.Repeat(" ", cell-len([]rune(ch))-boolInt(cell == 4)-len([]rune(under))))
			}
		}
		line := strings.TrimRight(row.String(), " ")
		fmt.Fprintf(&b, "%3d %s%s %d\n", r, line, strings.Repeat(" ", max(width-len([]rune(line)), 0)), r)
	}
	digits(false)
	if wide {
		digits(true)
	}
	var legend []string
	for t, s := range m.Symbol {
		legend = append(legend, fmt.Sprintf("%c %s", s, t))
	}
	sort.Strings(legend)
	if len(legend) > 0 {
		b.WriteString("    " + strings.Join(legend, ", ") + "\n")
	}
	if len(sides) > 0 {
		var ms []string
		for _, sd := range sides {
			ms = append(ms, fmt.Sprintf("%c %s", marks[sd], sd))
		}
		b.WriteString("    sides: " + strings.Join(ms, ", ") + "\n")
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

// SVG draws the board as a picture: column and row numbers along its edges, terrain colours,
// heights as a number, rivers and streams as blue edges, a bridge as a brown deck across
// one and a ford as sand-coloured stepping stones, roads as a dotted line through hex
// centres, units as discs bearing their markers, side by side when several share a hex,
// each titled with its label and filled with its side's colour, point names over them; under
// the board a legend of the sides, then a key of every terrain, the road, each edge kind and
// each crossing the board shows.
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
	const top = 14.0 // room for the column numbers above the board
	w := math.Sqrt(3) * size
	centre := func(h Hex) (float64, float64) {
		c, r := h.Offset()
		x := w*float64(c) + w/2*float64((r-1)&1)
		y := 1.5*size*float64(r-1) + size + 8 + top
		return x, y
	}
	sides, _ := sideMarks(units)
	corner := func(x, y float64, i int) (float64, float64) {
		a := math.Pi / 180 * float64(60*i-30)
		return x + size*math.Cos(a), y + size*math.Sin(a)
	}
	width := w*float64(m.Cols) + w + 24
	bottom := 1.5*size*float64(m.Rows-1) + 2*size + 8 + top // the lowest hex corner
	key := m.legendItems()
	keyRows := layoutLegend(key, width)
	height := bottom + 20 + 16*float64(keyRows)
	if len(sides) > 0 {
		height += 16
	}
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
	// Coordinates along the edges: columns above and below (at odd rows' centres), rows left
	// and right.
	for c := 1; c <= m.Cols; c++ {
		x, _ := centre(FromOffset(c, 1))
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="#555">%d</text>`+"\n", x, top+4, c)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="#555">%d</text>`+"\n", x, bottom+12, c)
	}
	for r := 1; r <= m.Rows; r++ {
		_, y := centre(FromOffset(1, r))
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="#555">%d</text>`+"\n", w/4+2, y+3, r)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="#555">%d</text>`+"\n", width-11, y+3, r)
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
		// A crossing: a bridge is a deck across the water (from one hex towards the other), a
		// ford stepping stones along it; another name a square.
		ux, uy := (bx-ax)/math.Hypot(bx-ax, by-ay), (by-ay)/math.Hypot(bx-ax, by-ay)
		switch c := m.Crossing[e]; c {
		case "":
		case "bridge":
			fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#8b5a2b" stroke-width="7"><title>bridge</title></line>`+"\n",
				mx-ux*9, my-uy*9, mx+ux*9, my+uy*9)
		case "ford":
			fmt.Fprintf(b, `<g fill="#e8d7a0" stroke="#8b7d50" stroke-width="0.5"><title>ford</title>`)
			for _, t := range []float64{-1, 0, 1} {
				fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="2.5"/>`, mx+dx*k*0.6*t, my+dy*k*0.6*t)
			}
			fmt.Fprint(b, "</g>\n")
		default:
			fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="8" height="8" fill="#a0522d"><title>%s</title></rect>`+"\n", mx-4, my-4, escape(c))
		}
	}
	// Point names are drawn after the units, with a white halo, so a disc or a hex side
	// never hides one.
	var names, pointLabels []string
	for n := range m.Points {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		x, y := centre(m.Points[n])
		pointLabels = append(pointLabels, fmt.Sprintf(`<text x="%.1f" y="%.1f" text-anchor="middle" font-weight="bold" stroke="#fff" stroke-width="3" paint-order="stroke">%s</text>`+"\n", x, y+size/2+2, escape(n)))
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
			fill, stroke := "#fff", "#000"
			title := u.Label
			if u.Side != "" {
				fill, stroke = sideColour(u.Side, sides)
				title += " (" + u.Side + ")"
			}
			fmt.Fprintf(b, `<g><title>%s</title><circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s" stroke="%s"/><text x="%.1f" y="%.1f" text-anchor="middle">%s</text></g>`+"\n",
				escape(title), ux, y, r, fill, stroke, ux, y+3, escape(u.Marker))
		}
	}
	for _, l := range pointLabels {
		fmt.Fprint(b, l)
	}
	// The legend of the sides, under the board, then what the colours and lines mean.
	for i, sd := range sides {
		fill, stroke := sideColour(sd, sides)
		x := 20 + 90*float64(i)
		fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="6" fill="%s" stroke="%s"/><text x="%.1f" y="%.1f">%s</text>`+"\n",
			x, bottom+26, fill, stroke, x+10, bottom+29, escape(sd))
	}
	y0 := bottom + 26
	if len(sides) > 0 {
		y0 += 16
	}
	for _, it := range key {
		x, y := it.x, y0+16*float64(it.row)
		switch it.kind {
		case "terrain":
			fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="12" height="12" fill="%s" stroke="#666" stroke-width="0.5"/>`, x-6, y-6, colour(it.name))
		case "road":
			fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#8b5a2b" stroke-width="3" stroke-dasharray="4 2"/>`, x-8, y, x+6, y)
		case "edge":
			wpx := 2
			if it.name == "river" {
				wpx = 4
			}
			fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#1e64c8" stroke-width="%d"/>`, x-8, y, x+6, y, wpx)
		case "bridge":
			fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#1e64c8" stroke-width="4"/><line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#8b5a2b" stroke-width="7"/>`,
				x-8, y, x+6, y, x-1, y-6, x-1, y+6)
		case "ford":
			fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#1e64c8" stroke-width="4"/><g fill="#e8d7a0" stroke="#8b7d50" stroke-width="0.5">`, x-8, y, x+6, y)
			for _, dx := range []float64{-6, -1, 4} {
				fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="2.5"/>`, x+dx, y)
			}
			fmt.Fprint(b, "</g>")
		default: // another crossing: the square the board draws
			fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="8" height="8" fill="#a0522d"/>`, x-4, y-4)
		}
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f">%s</text>`+"\n", x+10, y+3, escape(it.name))
	}
	fmt.Fprint(b, "</svg>\n")
	if b.err != nil {
		return b.err
	}
	return bw.Flush()
}

// legendItem is one entry of the picture's key: a terrain, the road, an edge kind or a
// crossing, with its place once laid out.
type legendItem struct {
	kind, name string
	x          float64
	row        int
}

// legendItems lists what the board shows: its terrains in the text legend's order (by
// symbol), then the road, each edge kind and each crossing that appear on it, so a colour or
// a line is never left for the player to guess.
func (m *Map) legendItems() []legendItem {
	seen := map[string]bool{}
	for _, h := range m.Hexes() {
		seen[m.Terrain[h]] = true
	}
	var ts []string
	for t := range seen {
		if t != "" {
			ts = append(ts, t)
		}
	}
	sort.Slice(ts, func(i, j int) bool {
		a, b := m.Symbol[ts[i]], m.Symbol[ts[j]]
		if a != b {
			return a < b
		}
		return ts[i] < ts[j]
	})
	var out []legendItem
	for _, t := range ts {
		out = append(out, legendItem{kind: "terrain", name: t})
	}
	for _, road := range m.Road {
		if road {
			out = append(out, legendItem{kind: "road", name: "road"})
			break
		}
	}
	kinds := map[string]bool{}
	for _, k := range m.Edges {
		kinds[k] = true
	}
	crossings := map[string]bool{}
	for _, c := range m.Crossing {
		if c != "" {
			crossings[c] = true
		}
	}
	for _, group := range []struct {
		set  map[string]bool
		kind string
	}{{kinds, "edge"}, {crossings, "crossing"}} {
		var names []string
		for n := range group.set {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			kind := group.kind
			if kind == "crossing" && (n == "bridge" || n == "ford") {
				kind = n
			}
			out = append(out, legendItem{kind: kind, name: n})
		}
	}
	return out
}

// layoutLegend places the key's entries left to right, wrapping at the picture's width, and
// returns how many rows they take.
func layoutLegend(items []legendItem, width float64) int {
	if len(items) == 0 {
		return 0
	}
	x, row := 20.0, 0
	for i := range items {
		w := 24 + 6*float64(len([]rune(items[i].name))) // swatch, gap and about 6px a letter
		if x+w > width-10 && x > 20 {
			x, row = 20, row+1
		}
		items[i].x, items[i].row = x, row
		x += w
	}
	return row + 1
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

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// escape makes s safe as SVG text, a title or an attribute value: the markup characters
// become entities and a character XML 1.0 forbids (a control character from a string
// literal, "a\x01b") becomes U+FFFD, as in the charts, since one such byte makes the whole
// picture unreadable to a browser.
func escape(s string) string {
	return xmlEscaper().Replace(strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF {
			return r
		}
		return '\uFFFD'
	}, s))
}

// xmlEscaper escapes text for XML, built on first use (set by a call, a package variable is
// built at every start of the program).
func xmlEscaper() *strings.Replacer {
	xmlOnce.Do(func() { xmlReplacer = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;") })
	return xmlReplacer
}

var (
	xmlOnce     sync.Once
	xmlReplacer *strings.Replacer
)

// sideColour is the fill and outline of a side's discs: common colour names (French or
// English) get their colour, other sides the next of a palette in the order they appear.
func sideColour(side string, sides []string) (string, string) {
	known := map[string][2]string{
		"rouge": {"#f08080", "#8b0000"}, "red": {"#f08080", "#8b0000"},
		"bleu": {"#87aee8", "#0b3d91"}, "blue": {"#87aee8", "#0b3d91"},
		"vert": {"#90d890", "#1e5e1e"}, "green": {"#90d890", "#1e5e1e"},
		"jaune": {"#f4e07a", "#7a6500"}, "yellow": {"#f4e07a", "#7a6500"},
		"blanc": {"#ffffff", "#000000"}, "white": {"#ffffff", "#000000"},
		"noir": {"#909090", "#000000"}, "black": {"#909090", "#000000"},
	}
	if c, ok := known[strings.ToLower(side)]; ok {
		return c[0], c[1]
	}
	palette := [][2]string{{"#f08080", "#8b0000"}, {"#87aee8", "#0b3d91"}, {"#90d890", "#1e5e1e"},
		{"#f4e07a", "#7a6500"}, {"#d0a0e0", "#5a1e78"}, {"#f4b07a", "#8b4000"}}
	i := 0
	for j, sd := range sides {
		if sd == side {
			i = j
		}
	}
	c := palette[i%len(palette)]
	return c[0], c[1]
}

// colour picks a stable colour per terrain name (common names get natural colours).
func colour(t string) string {
	// Water is blue and marsh a muddy olive, never the reverse: a player reads blue as water.
	known := map[string]string{
		"plaine": "#d8e8a8", "clair": "#d8e8a8", "plain": "#d8e8a8", "open": "#d8e8a8", "champ": "#d8e8a8",
		"forêt": "#4f8a3c", "bois": "#4f8a3c", "forest": "#4f8a3c", "wood": "#4f8a3c", "woods": "#4f8a3c",
		"colline": "#c8a860", "hill": "#c8a860", "montagne": "#a08868", "mountain": "#a08868",
		"village": "#c0a0a0", "ville": "#c0a0a0", "town": "#c0a0a0",
		"marais": "#8a9a5b", "bourbier": "#8a9a5b", "marécage": "#8a9a5b", "marsh": "#8a9a5b", "swamp": "#8a9a5b",
		"eau": "#6fa8dc", "étang": "#6fa8dc", "lac": "#6fa8dc", "mer": "#4a86c8", "rivière": "#6fa8dc",
		"water": "#6fa8dc", "pond": "#6fa8dc", "lake": "#6fa8dc", "sea": "#4a86c8", "river": "#6fa8dc",
		"désert": "#ecd9a0", "sable": "#ecd9a0", "desert": "#ecd9a0", "sand": "#ecd9a0",
		"": "#eeeeee",
	}
	if c, ok := known[t]; ok {
		return c
	}
	h := fnv.New32a()
	h.Write([]byte(t))
	v := h.Sum32()
	return fmt.Sprintf("#%02x%02x%02x", 120+v%100, 120+(v>>8)%100, 120+(v>>16)%100)
}
