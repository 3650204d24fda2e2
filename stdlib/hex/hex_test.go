package hex

import (
	"encoding/xml"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestDistanceRingsRanges(t *testing.T) {
	c := Hex{3, -1}
	for r := 0; r <= 6; r++ {
		ring := Ring(c, r)
		want := 6 * r
		if r == 0 {
			want = 1
		}
		if len(ring) != want {
			t.Errorf("ring %d has %d hexes, want %d", r, len(ring), want)
		}
		for _, h := range ring {
			if Distance(c, h) != r {
				t.Errorf("ring %d holds %v at distance %d", r, h, Distance(c, h))
			}
		}
		if got, want := len(Range(c, r)), 3*r*(r+1)+1; got != want {
			t.Errorf("range %d has %d hexes, want 3r(r+1)+1 = %d", r, got, want)
		}
	}
	for _, h := range c.Neighbours() {
		if Distance(c, h) != 1 {
			t.Errorf("neighbour %v at distance %d", h, Distance(c, h))
		}
	}
}

func TestOffsetRoundTrip(t *testing.T) {
	for r := 1; r <= 9; r++ {
		for c := 1; c <= 9; c++ {
			h := FromOffset(c, r)
			if cc, rr := h.Offset(); cc != c || rr != r {
				t.Fatalf("(%d,%d) -> %v -> (%d,%d)", c, r, h, cc, rr)
			}
			if p, err := ParseHex(h.String()); err != nil || p != h {
				t.Fatalf("parse %s: %v %v", h, p, err)
			}
		}
	}
	// On a printed board, (2,2) touches (2,1) and (3,1) above it (odd rows shifted right? no:
	// even rows are shifted right in odd-r, so row 2 sits between columns of row 1).
	a := FromOffset(2, 2)
	for _, n := range []Hex{FromOffset(2, 1), FromOffset(3, 1), FromOffset(1, 2), FromOffset(3, 2), FromOffset(2, 3), FromOffset(3, 3)} {
		if Distance(a, n) != 1 {
			t.Errorf("%v should touch %v", a, n)
		}
	}
}

// A river down column 4 with a bridge at row 3: crossing elsewhere is forbidden.
func riverMap() *Map {
	m := NewMap("test", 8, 6)
	for _, h := range m.Hexes() {
		m.Terrain[h] = "plaine"
	}
	m.Symbol["plaine"] = '.'
	for r := 1; r <= 6; r++ {
		a, b := FromOffset(4, r), FromOffset(5, r)
		m.Edges[EdgeOf(a, b)] = "river"
		for _, n := range a.Neighbours() {
			if c, _ := n.Offset(); c == 5 {
				m.Edges[EdgeOf(a, n)] = "river"
			}
		}
	}
	m.Crossing[EdgeOf(FromOffset(4, 3), FromOffset(5, 3))] = "bridge"
	return m
}

func riverCost(m *Map) CostFunc {
	return func(from, to Hex) (float64, bool, error) {
		e := EdgeOf(from, to)
		if m.Edges[e] == "river" && m.Crossing[e] == "" {
			return -1, false, nil
		}
		return 1, false, nil
	}
}

func TestPathUsesTheBridge(t *testing.T) {
	m := riverMap()
	path, err := m.Path(FromOffset(2, 6), FromOffset(7, 6), 20, riverCost(m))
	if err != nil || path == nil {
		t.Fatalf("no path: %v", err)
	}
	crossed := false
	for i := range path {
		from := FromOffset(2, 6)
		if i > 0 {
			from = path[i-1].Hex
		}
		if e := EdgeOf(from, path[i].Hex); m.Edges[e] == "river" {
			if m.Crossing[e] != "bridge" {
				t.Fatalf("the path crosses the river at %v-%v without a bridge", from, path[i].Hex)
			}
			crossed = true
		}
	}
	if !crossed {
		t.Fatal("the path never crossed the river")
	}
	// Straight across would be 5 steps; through the bridge at row 3 it is longer.
	if len(path) <= 5 {
		t.Errorf("path of %d steps is too short to use the bridge: %v", len(path), path)
	}
	// Without enough points, the far bank is out of reach.
	best, _, _ := m.Reachable(FromOffset(2, 6), 4, riverCost(m))
	if _, ok := best[FromOffset(7, 6)]; ok {
		t.Error("the far bank should be out of reach with 4 points")
	}
}

func TestZOCStopsMovement(t *testing.T) {
	m := NewMap("zoc", 10, 3)
	enemy := FromOffset(5, 2)
	zoc := map[Hex]bool{}
	for _, n := range enemy.Neighbours() {
		zoc[n] = true
	}
	cost := func(from, to Hex) (float64, bool, error) {
		if to == enemy {
			return -1, false, nil
		}
		return 1, zoc[to], nil
	}
	best, _, _ := m.Reachable(FromOffset(1, 2), 8, cost)
	if _, ok := best[FromOffset(4, 2)]; !ok {
		t.Fatal("the hex next to the enemy is reachable")
	}
	// Every way past the enemy on this 3-row board enters its zone, where the move stops:
	// the hexes behind it are out of reach, though the points would suffice.
	if got, ok := best[FromOffset(7, 2)]; ok {
		t.Errorf("behind the enemy reached with %v points: the zone of control did not stop the move", got)
	}
	free, _, _ := m.Reachable(FromOffset(1, 2), 8, func(from, to Hex) (float64, bool, error) { return 1, false, nil })
	if _, ok := free[FromOffset(7, 2)]; !ok {
		t.Error("without the zone, the same hex is reachable")
	}
	// From off the board, even beside it, nothing is reached and there is no path.
	off := FromOffset(0, 2)
	if best, _, _ := m.Reachable(off, 8, cost); len(best) != 1 {
		t.Errorf("from off the board: %v", best)
	}
	if p, _ := m.Path(off, FromOffset(1, 2), 8, cost); p != nil {
		t.Errorf("a path from off the board: %v", p)
	}
}

func TestLineOfFire(t *testing.T) {
	line := Line(FromOffset(1, 1), FromOffset(6, 1))
	if len(line) != 6 || line[0] != FromOffset(1, 1) || line[5] != FromOffset(6, 1) {
		t.Fatalf("line %v", line)
	}
	for i := 1; i < len(line); i++ {
		if Distance(line[i-1], line[i]) != 1 {
			t.Fatalf("line is not contiguous: %v", line)
		}
	}
}

func TestRender(t *testing.T) {
	m := riverMap()
	out := m.Render([]Unit{{At: FromOffset(2, 2), Marker: "H", Label: "hussards"}})
	lines := strings.Split(out, "\n")
	if !strings.Contains(lines[2], "H") || !strings.Contains(out, "river (4,3)-(5,3) (bridge)") {
		t.Errorf("render:\n%s", out)
	}
	if svg := m.SVG(nil); !strings.HasPrefix(svg, "<svg") || !strings.Contains(svg, "bridge") {
		t.Error("svg")
	}
}

// TestRenderUnits: one unit shows the first character of its marker, a stack its count (+
// above nine); every unit is listed under the board by hex, in the order given.
func TestRenderUnits(t *testing.T) {
	m := NewMap("m", 3, 2)
	for _, h := range m.Hexes() {
		m.Terrain[h] = "plaine"
	}
	m.Symbol["plaine"] = '.'
	a, b := FromOffset(1, 1), FromOffset(3, 2)
	var ten []Unit
	for i := 0; i < 10; i++ {
		ten = append(ten, Unit{At: a, Marker: "x", Label: fmt.Sprint(i)})
	}
	cases := []struct {
		units []Unit
		want  string
	}{
		{nil, "    1 2 3\n  1 . . .  1\n  2  . . . 2\n    1 2 3\n    . plaine\n"},
		{[]Unit{{At: b, Marker: "Gr", Label: "grenadiers"}},
			"    1 2 3\n  1 . . .  1\n  2  . . G 2\n    1 2 3\n    . plaine\n    (3,2) Gr grenadiers\n"},
		{[]Unit{{At: b, Marker: "G", Label: "grenadiers"}, {At: a, Marker: "H", Label: "hussards"}, {At: b, Marker: "V", Label: "voltigeurs"}},
			"    1 2 3\n  1 H . .  1\n  2  . . 2 2\n    1 2 3\n    . plaine\n    (1,1) H hussards; (3,2) G grenadiers, V voltigeurs\n"},
		{ten[:9], "    1 2 3\n  1 9 . .  1\n  2  . . . 2\n    1 2 3\n    . plaine\n    (1,1) x 0, x 1, x 2, x 3, x 4, x 5, x 6, x 7, x 8\n"},
		{ten, "    1 2 3\n  1 + . .  1\n  2  . . . 2\n    1 2 3\n    . plaine\n    (1,1) x 0, x 1, x 2, x 3, x 4, x 5, x 6, x 7, x 8, x 9\n"},
	}
	for i, c := range cases {
		if got := m.Render(c.units); got != c.want {
			t.Errorf("%d: got\n%q\nwant\n%q", i, got, c.want)
		}
	}
	// From ten columns, the tens digits run outside the units digits, top and bottom.
	wide := NewMap("w", 11, 1)
	for _, h := range wide.Hexes() {
		wide.Terrain[h] = "plaine"
	}
	wide.Symbol["plaine"] = '.'
	if got, want := wide.Render(nil), "                      1 1\n    1 2 3 4 5 6 7 8 9 0 1\n  1 . . . . . . . . . . .  1\n    1 2 3 4 5 6 7 8 9 0 1\n                      1 1\n    . plaine\n"; got != want {
		t.Errorf("11 columns: got\n%q\nwant\n%q", got, want)
	}
	svg := m.SVG([]Unit{{At: b, Marker: "G", Label: "grenadiers"}, {At: b, Marker: "V", Label: "<voltigeurs>"}})
	for _, want := range []string{
		`<g><title>grenadiers</title><circle cx="135.9" cy="82.0" r="9.6" fill="#fff" stroke="#000"/><text x="135.9" y="85.0" text-anchor="middle">G</text></g>`,
		`<g><title>&lt;voltigeurs&gt;</title><circle cx="155.1" cy="82.0" r="9.6" fill="#fff" stroke="#000"/><text x="155.1" y="85.0" text-anchor="middle">V</text></g>`,
		// the coordinates along the edges: column 3 above and below, row 2 left and right
		`<text x="124.7" y="18.0" text-anchor="middle" fill="#555">3</text>`,
		`<text x="124.7" y="118.0" text-anchor="middle" fill="#555">3</text>`,
		`<text x="12.4" y="85.0" text-anchor="middle" fill="#555">2</text>`,
		`<text x="179.3" y="85.0" text-anchor="middle" fill="#555">2</text>`,
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("svg lacks %s:\n%s", want, svg)
		}
	}
}

// TestSVGEscapesControlCharacters: names come from string literals, which may hold control
// characters that XML 1.0 forbids; the picture replaces them (U+FFFD) so that a browser
// still reads it, and escapes the markup characters.
func TestSVGEscapesControlCharacters(t *testing.T) {
	m := NewMap("carte\x01", 2, 1)
	for _, h := range m.Hexes() {
		m.Terrain[h] = "pl\x00aine"
	}
	svg := m.SVG([]Unit{{At: FromOffset(1, 1), Marker: "G\x1b", Label: "gr\x7f<e>\x08", Side: "r\x0couge"}})
	for i, r := range svg {
		if r < 0x20 && r != '\n' && r != '\t' && r != '\r' || r == 0xFFFE || r == 0xFFFF {
			t.Fatalf("a character XML forbids (%U) at byte %d:\n%s", r, i, svg)
		}
	}
	for _, want := range []string{"<title>carte\uFFFD</title>", "pl\uFFFDaine", "gr\x7f&lt;e&gt;\uFFFD", ">G\uFFFD</text>", "r\uFFFDouge"} {
		if !strings.Contains(svg, want) {
			t.Errorf("svg lacks %q:\n%s", want, svg)
		}
	}
	if err := xml.Unmarshal([]byte(svg), new(struct{})); err != nil {
		t.Errorf("the picture is not well-formed XML: %v", err)
	}
}

// TestRenderSides: units with sides draw each side apart: in text, hexes twice as wide, a
// unit's character followed by its side's mark (its first letter, or 1, 2… when first
// letters clash; a stack's mark is * when sides mix) and the marks listed; in the picture,
// discs filled with the side's colour and a legend. Units without a side keep the plain
// layout (TestRenderUnits).
func TestRenderSides(t *testing.T) {
	m := NewMap("m", 3, 2)
	for _, h := range m.Hexes() {
		m.Terrain[h] = "plaine"
	}
	m.Symbol["plaine"] = '.'
	a, b, c := FromOffset(1, 1), FromOffset(3, 2), FromOffset(2, 1)
	cases := []struct {
		units []Unit
		want  string
	}{
		{[]Unit{{At: a, Marker: "i", Side: "rouge"}, {At: b, Marker: "L", Side: "bleu"}},
			"    1   2   3\n  1 ir  .   .    1\n  2   .   .   Lb 2\n    1   2   3\n    . plaine\n    sides: r rouge, b bleu\n    (1,1) i; (3,2) L\n"},
		{[]Unit{{At: a, Marker: "i", Side: "rouge"}, {At: a, Marker: "G", Side: "rouge"}, {At: b, Marker: "L", Side: "russe"}, {At: b, Marker: "x", Side: "rouge"}, {At: c, Marker: "n"}},
			"    1   2   3\n  1 21  n   .    1\n  2   .   .   2* 2\n    1   2   3\n    . plaine\n    sides: 1 rouge, 2 russe\n    (1,1) i, G; (2,1) n; (3,2) L, x\n"},
	}
	for i, c := range cases {
		if got := m.Render(c.units); got != c.want {
			t.Errorf("%d: got\n%q\nwant\n%q", i, got, c.want)
		}
	}
	svg := m.SVG([]Unit{{At: a, Marker: "i", Label: "ligne", Side: "rouge"}, {At: b, Marker: "L", Label: "cuirassiers", Side: "Bleu"}, {At: c, Marker: "v", Label: "vert", Side: "orange"}, {At: c, Marker: "n", Label: "neutre"}})
	for _, want := range []string{
		`<title>ligne (rouge)</title><circle cx="41.6" cy="46.0" r="10.9" fill="#f08080" stroke="#8b0000"/>`,
		`<title>cuirassiers (Bleu)</title><circle cx="145.5" cy="82.0" r="10.9" fill="#87aee8" stroke="#0b3d91"/>`,
		`<title>vert (orange)</title><circle cx="73.5" cy="46.0" r="9.6" fill="#90d890" stroke="#1e5e1e"/>`, // the third of the palette
		`<title>neutre</title><circle cx="92.7" cy="46.0" r="9.6" fill="#fff" stroke="#000"/>`,
		`<text x="30.0" y="135.0">rouge</text>`, `<text x="120.0" y="135.0">Bleu</text>`, `<text x="210.0" y="135.0">orange</text>`,
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("svg lacks %s:\n%s", want, svg)
		}
	}
}

// TestSVGCrossings: a bridge and a ford are drawn apart: a brown deck across the river, and
// sand-coloured stepping stones along it.
func TestSVGCrossings(t *testing.T) {
	m := riverMap()
	for e := range m.Crossing {
		m.Crossing[e] = "bridge"
	}
	bridge := m.SVG(nil)
	for e := range m.Crossing {
		m.Crossing[e] = "ford"
	}
	ford := m.SVG(nil)
	if !strings.Contains(bridge, `stroke="#8b5a2b" stroke-width="7"><title>bridge</title></line>`) || strings.Contains(bridge, "<title>ford</title>") {
		t.Errorf("bridge:\n%s", bridge)
	}
	if !strings.Contains(ford, `<g fill="#e8d7a0" stroke="#8b7d50" stroke-width="0.5"><title>ford</title><circle`) || strings.Contains(ford, "<title>bridge</title>") {
		t.Errorf("ford:\n%s", ford)
	}
}

// TestSVGKey: under the board, a key names every terrain the board shows with the colour of
// its hexes, then the road, each edge kind and each crossing; water is drawn blue and marsh
// not, so the one a unit cannot enter is never the one that looks like dry land.
func TestSVGKey(t *testing.T) {
	m := riverMap()
	m.Crossing[EdgeOf(FromOffset(4, 5), FromOffset(5, 5))] = "ford"
	pond, marsh := FromOffset(1, 1), FromOffset(2, 1)
	m.Terrain[pond], m.Terrain[marsh] = "étang", "bourbier"
	m.Symbol["étang"], m.Symbol["bourbier"] = 'e', 'b'
	m.Road[FromOffset(1, 2)], m.Road[FromOffset(2, 2)] = true, true
	m.Points["moulin"] = FromOffset(1, 2)
	svg := m.SVG([]Unit{{At: FromOffset(1, 2), Marker: "a", Side: "rouge"}})
	key := svg[strings.Index(svg, ">rouge</text>"):]
	order := []string{">plaine<", ">bourbier<", ">étang<", ">road<", ">river<", ">bridge<", ">ford<"}
	last := -1
	for _, w := range order {
		i := strings.Index(key, w)
		if i < 0 || i < last {
			t.Fatalf("key lacks %s, or out of order (%v):\n%s", w, order, key)
		}
		last = i
	}
	for _, c := range []string{colour("étang"), colour("bourbier"), colour("plaine")} {
		if !strings.Contains(key, `fill="`+c+`"`) {
			t.Errorf("key lacks the swatch %s:\n%s", c, key)
		}
	}
	if colour("étang") != colour("eau") || colour("bourbier") == colour("étang") || colour("bourbier") != colour("marais") {
		t.Errorf("pond %s, water %s, marsh %s, bourbier %s", colour("étang"), colour("eau"), colour("marais"), colour("bourbier"))
	}
	// the point's name is drawn after the unit's disc, over it
	if strings.Index(svg, ">moulin</text>") < strings.Index(svg, "<circle") {
		t.Error("point name under the unit")
	}
	// a board too narrow for its key wraps it: the picture grows by a row
	if n := layoutLegend(m.legendItems(), 150); n < 2 {
		t.Errorf("%d rows on a narrow picture", n)
	}
}

// TestRenderTerrainUnderUnits: with sides, a unit's cell ends with its hex's terrain
// character, so a village, a wood or a hill stays visible under it (a road on the plain
// shows "="; the plain itself, "." , leaves the cell as it was).
func TestRenderTerrainUnderUnits(t *testing.T) {
	m := NewMap("m", 4, 1)
	for _, h := range m.Hexes() {
		m.Terrain[h] = "plaine"
	}
	m.Symbol["plaine"], m.Symbol["village"] = '.', 'v'
	m.Terrain[FromOffset(2, 1)] = "village"
	m.Road[FromOffset(3, 1)] = true
	us := []Unit{{At: FromOffset(1, 1), Marker: "i", Side: "rouge"}, {At: FromOffset(2, 1), Marker: "i", Side: "rouge"},
		{At: FromOffset(3, 1), Marker: "G", Side: "bleu"}, {At: FromOffset(2, 1), Marker: "a", Side: "rouge"}}
	got := strings.Split(m.Render(us), "\n")[1]
	if want := "  1 ir  2rv Gb= .    1"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// BenchmarkReachable40x40 is the figure: a 6-point move on a 40×40 board.
func BenchmarkReachable40x40(b *testing.B) {
	m := NewMap("bench", 40, 40)
	for _, h := range m.Hexes() {
		m.Terrain[h] = "plaine"
		if (h.Q*7+h.R*3)%5 == 0 {
			m.Terrain[h] = "forêt"
		}
	}
	cost := func(from, to Hex) (float64, bool, error) {
		if m.Terrain[to] == "forêt" {
			return 2, false, nil
		}
		return 1, false, nil
	}
	start := FromOffset(20, 20)
	for b.Loop() {
		if _, _, err := m.Reachable(start, 6, cost); err != nil {
			b.Fatal(err)
		}
	}
}

// TestWriteSVGStreams: the SVG is written as it is drawn (the same text as SVG), and a
// failing writer stops it with the error.
func TestWriteSVGStreams(t *testing.T) {
	m := &Map{Name: "m", Cols: 30, Rows: 20, Terrain: map[Hex]string{}, Symbol: map[string]rune{"plaine": '.'}}
	for r := 1; r <= m.Rows; r++ {
		for c := 1; c <= m.Cols; c++ {
			m.Terrain[FromOffset(c, r)] = "plaine"
		}
	}
	var b strings.Builder
	if err := m.WriteSVG(&b, nil); err != nil {
		t.Fatal(err)
	}
	if b.String() != m.SVG(nil) || !strings.HasSuffix(b.String(), "</svg>\n") {
		t.Fatal("WriteSVG and SVG differ")
	}
	w := &limitedWriter{left: 1000}
	if err := m.WriteSVG(w, nil); err == nil {
		t.Fatal("want the write error")
	}
	if w.written > 1000+4096 {
		t.Errorf("kept writing after the error: %d bytes", w.written)
	}
}

type limitedWriter struct{ left, written int }

func (w *limitedWriter) Write(p []byte) (int, error) {
	w.written += len(p)
	if w.left -= len(p); w.left < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

// TestSVGDeterministic: a board with rivers draws the same picture every time (its edges came
// in Go's map order, so two drawings of one board differed).
func TestSVGDeterministic(t *testing.T) {
	m := riverMap()
	first := m.SVG(nil)
	for range 20 {
		if m.SVG(nil) != first {
			t.Fatal("two drawings of one board differ")
		}
	}
}

// TestParseOffset: the board position is read as written, before any conversion, so that a
// caller can bound it (FromOffset of the largest ints overflows).
func TestParseOffset(t *testing.T) {
	for _, c := range []struct {
		src      string
		col, row int
		ok       bool
	}{
		{"(3,4)", 3, 4, true},
		{" 3 , 4 ", 3, 4, true},
		{"(9223372036854775807,-9223372036854775808)", 9223372036854775807, -9223372036854775808, true},
		{"(3)", 0, 0, false},
		{"(99999999999999999999,1)", 0, 0, false},
		{"", 0, 0, false},
	} {
		col, row, err := ParseOffset(c.src)
		if (err == nil) != c.ok || col != c.col || row != c.row {
			t.Errorf("ParseOffset(%q) = %d, %d, %v", c.src, col, row, err)
		}
		if h, err := ParseHex(c.src); c.ok && (err != nil || h != FromOffset(c.col, c.row)) {
			t.Errorf("ParseHex(%q) = %v, %v", c.src, h, err)
		}
	}
}
