package output

import (
	"bytes"
	"encoding/xml"
	"flag"
	"image"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden charts under testdata/charts")

// wellFormed fails the test when svg is not XML.
func wellFormed(t *testing.T, svg string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(svg))
	for {
		if _, err := d.Token(); err == io.EOF {
			return
		} else if err != nil {
			t.Fatalf("not XML: %v\n%s", err, svg)
		}
	}
}

// TestChartSVG: a chart is well-formed XML, has one bar per label and series with its value
// (and its fraction when exact) in its tooltip, escapes labels, and shows a legend only for
// two series.
func TestChartSVG(t *testing.T) {
	var b strings.Builder
	err := ChartSVG(&b, "2d6 < 5 & co", []string{"vrai", "<faux>"}, []Series{
		{Name: "a", Values: []float64{0.25, 0.75}, Fractions: []string{"1/4", "3/4"}},
		{Name: "b", Values: []float64{0.5, 0.5}}})
	if err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	wellFormed(t, svg)
	for _, want := range []string{"<title>a — vrai: 1/4 (25%)</title>", "<title>a — &lt;faux&gt;: 3/4 (75%)</title>",
		"<title>b — vrai: 50%</title>", "2d6 &lt; 5 &amp; co", ">a</text>", ">b</text>", ">80%</text>"} {
		if !strings.Contains(svg, want) {
			t.Errorf("no %q in\n%s", want, svg)
		}
	}
	if n := strings.Count(svg, "<title>"); n != 4 {
		t.Errorf("%d bars, want 4", n)
	}
	b.Reset()
	if err := ChartSVG(&b, "d6", []string{"1"}, []Series{{Name: "d6", Values: []float64{1.0 / 6}, Fractions: []string{"1/6"}}}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), ">d6</text><") || !strings.Contains(b.String(), "<title>1: 1/6 (16.67%)</title>") {
		t.Errorf("one series:\n%s", b.String())
	}
}

// svgBox is what an SVG's elements reach: the picture's size, and the extent of every text
// as laid out (its width measured as the layout measures it, turned texts by their turn).
type svgBox struct {
	width, height float64
	texts         []string
	overflow      []string
}

func measureSVG(t *testing.T, svg string) svgBox {
	t.Helper()
	var box svgBox
	d := xml.NewDecoder(strings.NewReader(svg))
	var pending map[string]string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("not XML: %v\n%s", err, svg)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range tok.Attr {
				attr[a.Name.Local] = a.Value
			}
			f := func(k string) float64 { v, _ := strconv.ParseFloat(attr[k], 64); return v }
			switch tok.Name.Local {
			case "svg":
				box.width, box.height = f("width"), f("height")
			case "rect", "circle":
				x, y, w, h := f("x"), f("y"), f("width"), f("height")
				if tok.Name.Local == "circle" {
					x, y, w, h = f("cx")-f("r"), f("cy")-f("r"), 2*f("r"), 2*f("r")
				}
				if x < 0 || y < 0 || x+w > box.width+0.01 || y+h > box.height+0.01 {
					box.overflow = append(box.overflow, tok.Name.Local+" "+attr["x"]+","+attr["y"])
				}
			case "text":
				pending = attr
			}
		case xml.CharData:
			if pending == nil {
				continue
			}
			s := string(tok)
			box.texts = append(box.texts, s)
			attr := pending
			pending = nil
			f := func(k string) float64 { v, _ := strconv.ParseFloat(attr[k], 64); return v }
			size, x, y := f("font-size"), f("x"), f("y")
			w := fitWidth(s, size)
			x0 := map[string]float64{"": x, "middle": x - w/2, "end": x - w}[attr["text-anchor"]]
			x1, y0, y1 := x0+w, y-size, y+size*0.3
			if strings.Contains(attr["transform"], "rotate(-45") {
				// Ending at (x, y) and rising at 45°: it reaches down and left by w/√2.
				x0, x1, y0, y1 = x-w/math.Sqrt2-size, x, y-size, y+w/math.Sqrt2+size/2
			}
			if x0 < 0 || y0 < 0 || x1 > box.width || y1 > box.height {
				box.overflow = append(box.overflow, "text "+strconv.Quote(s))
			}
		}
	}
	return box
}

// goldenCharts are the charts the golden files keep: a distribution with a long title and
// its curves, a comparison of three variants, a sweep of eight values as lines, one as bars,
// labels too long to stand across, and no data at all.
var goldenCharts = map[string]Chart{
	"long-title": {
		Title:   "frapper(will, jack) + frapper(jack, will) — both blows of the duel at the forge, Will with his long sword, Jack with his cutlass",
		Labels:  []string{"0", "5", "6", "11"},
		Series:  []Series{{Name: "x", Values: []float64{0.2356, 0.2444, 0.2444, 0.2756}, Fractions: []string{"53/225", "11/45", "11/45", "62/225"}}},
		AtLeast: true, AtMost: true,
	},
	"three-variants": {
		Title:  "somme()",
		Labels: []string{"2", "3", "4", "5"},
		Series: []Series{
			{Name: "A: the rules", Values: []float64{0.25, 0.5, 0.25, 0}, Fractions: []string{"1/4", "1/2", "1/4", "0"}},
			{Name: "B: --compare bonus=1", Values: []float64{0, 0.25, 0.5, 0.25}, Fractions: []string{"0", "1/4", "1/2", "1/4"}},
			{Name: "C: --variant renfort.rules", Values: []float64{0.1, 0.2, 0.3, 0.4}},
		},
	},
	"sweep-lines": {
		Title:  "2d6 + n >= 10 — n = 1, 2, 3, 4, 5, 6, 7, 8 (a name of the expression)",
		XLabel: "n", Lines: true,
		Labels: []string{"1", "2", "3", "4", "5", "6", "7", "8"},
		Series: []Series{
			{Name: "false", Values: []float64{13.0 / 18, 7.0 / 12, 5.0 / 12, 5.0 / 18, 1.0 / 6, 1.0 / 12, 1.0 / 36, 0},
				Fractions: []string{"13/18", "7/12", "5/12", "5/18", "1/6", "1/12", "1/36", "0"}},
			{Name: "true", Values: []float64{5.0 / 18, 5.0 / 12, 7.0 / 12, 13.0 / 18, 5.0 / 6, 11.0 / 12, 35.0 / 36, 1},
				Fractions: []string{"5/18", "5/12", "7/12", "13/18", "5/6", "11/12", "35/36", "1"}},
		},
	},
	"sweep-bars": {
		Title:  "1d4 + n — n = 0, 1, 2",
		Labels: []string{"1", "2", "3", "4", "5", "6"},
		Series: []Series{
			{Name: "n=0", Values: []float64{0.25, 0.25, 0.25, 0.25, 0, 0}},
			{Name: "n=1", Values: []float64{0, 0.25, 0.25, 0.25, 0.25, 0}},
			{Name: "n=2", Values: []float64{0, 0, 0.25, 0.25, 0.25, 0.25}},
		},
	},
	"long-labels": {
		Title:  "tirer(archer, jack)",
		Labels: []string{"touché pour 4", "touché pour 4 (réussite spéciale)", "raté", "error: pas de tir : la cible est hors de vue"},
		Series: []Series{{Name: "x", Values: []float64{0.4, 0.1, 0.45, 0.05}}},
	},
	"empty": {Title: "nothing"},
	// Not odds, but ChartSVG is an API: no negative height, no NaN in the picture.
	"bad-values": {Title: "bad", Labels: []string{"a", "b", "c"}, Series: []Series{{Name: "x", Values: []float64{-0.5, math.NaN(), 0.5}}}},
}

// TestChartGolden: each golden chart is the SVG its file keeps (go test -update rewrites
// them; read every changed line), and every text and shape of it lies inside the picture.
func TestChartGolden(t *testing.T) {
	names := make([]string, 0, len(goldenCharts))
	for name := range goldenCharts {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		var b strings.Builder
		if err := goldenCharts[name].SVG(&b); err != nil {
			t.Fatal(err)
		}
		got := b.String()
		box := measureSVG(t, got)
		if len(box.overflow) > 0 {
			t.Errorf("%s: outside the %v×%v picture: %s", name, box.width, box.height, strings.Join(box.overflow, "; "))
		}
		if strings.Contains(got, "NaN") || strings.Contains(got, `height="-`) || strings.Contains(got, `width="-`) {
			t.Errorf("%s: a NaN or a negative size in the picture", name)
		}
		path := filepath.Join("testdata", "charts", name+".svg")
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test -update writes it)", err)
		}
		if got != string(want) {
			t.Errorf("%s differs from %s (go test -update rewrites it):\n%s", name, path, got)
		}
	}
}

// TestChartTitleNeverCut: a title of any length is all there, in lines that fit the picture.
func TestChartTitleNeverCut(t *testing.T) {
	for _, title := range []string{
		"frapper(will, jack)",
		strings.Repeat("une très longue question ", 20),
		strings.Repeat("x", 300), // one word longer than any line
	} {
		var b strings.Builder
		if err := (Chart{Title: title, Labels: []string{"0", "6"}, Series: []Series{{Values: []float64{0.38, 0.62}}}}).SVG(&b); err != nil {
			t.Fatal(err)
		}
		box := measureSVG(t, b.String())
		if len(box.overflow) > 0 {
			t.Errorf("%.20q: outside the picture: %v", title, box.overflow)
		}
		joined := strings.Join(box.texts, " ")
		for _, word := range strings.Fields(title) {
			if !strings.Contains(strings.ReplaceAll(joined, " ", ""), word) {
				t.Errorf("%.20q: the word %.20q is missing from the picture", title, word)
			}
		}
	}
}

// TestChartSVGManySeries: a sweep's chart has a bar per label and series, a colour per series
// (eight before they come round), every name in a legend that stays inside the picture, the
// names lined up in columns.
func TestChartSVGManySeries(t *testing.T) {
	var series []Series
	for i := range 12 {
		series = append(series, Series{Name: "n=" + strconv.Itoa(i), Values: []float64{0.5, 0.25, 0.25}})
	}
	var b strings.Builder
	if err := ChartSVG(&b, "2d6 + n", []string{"a", "b", "c"}, series); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	box := measureSVG(t, svg)
	if len(box.overflow) > 0 {
		t.Errorf("outside the picture: %v", box.overflow)
	}
	if n := strings.Count(svg, "<title>"); n != 36 {
		t.Errorf("%d bars, want 36", n)
	}
	xs := map[string]bool{}
	for i := range 12 {
		at := strings.Index(svg, ">n="+strconv.Itoa(i)+"</text>")
		if at < 0 {
			t.Errorf("no legend for n=%d", i)
			continue
		}
		line := svg[strings.LastIndex(svg[:at], "\n")+1 : at]
		xs[strings.Fields(line)[1]] = true
	}
	if len(xs) < 2 || len(xs) > 6 {
		t.Errorf("the legend's names start at %d places, want a few columns: %v", len(xs), xs)
	}
	for _, c := range chartColours {
		if !strings.Contains(svg, `fill="`+c+`"`) {
			t.Errorf("colour %s unused", c)
		}
	}
}

// TestAxisTicks: the y axis steps by 1, 2 or 5 times a power of ten, from 0 to the first
// tick at or past the peak, in at most seven steps.
func TestAxisTicks(t *testing.T) {
	for _, c := range []struct {
		peak float64
		want string
	}{
		{0.4167, "0% 10% 20% 30% 40% 50%"},
		{0.8333, "0% 20% 40% 60% 80% 100%"},
		{5.0 / 6, "0% 20% 40% 60% 80% 100%"},
		{1, "0% 20% 40% 60% 80% 100%"},
		{0.62, "0% 10% 20% 30% 40% 50% 60% 70%"},
		{0.5, "0% 10% 20% 30% 40% 50%"},
		{0.3, "0% 5% 10% 15% 20% 25% 30%"},
		{1.0 / 6, "0% 5% 10% 15% 20%"},
		{0.125, "0% 2% 4% 6% 8% 10% 12% 14%"},
		{0.1157, "0% 2% 4% 6% 8% 10% 12%"},
		{0.012, "0% 0.2% 0.4% 0.6% 0.8% 1.0% 1.2%"},
		{0.00046, "0% 0.01% 0.02% 0.03% 0.04% 0.05%"},
		{0, "0% 20% 40% 60% 80% 100%"},
		{math.NaN(), "0% 20% 40% 60% 80% 100%"},
	} {
		ticks, dec := axisTicks(c.peak)
		var got []string
		for _, tk := range ticks {
			got = append(got, tickLabel(tk, dec))
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("peak %v: ticks %s, want %s", c.peak, g, c.want)
		}
		if top := ticks[len(ticks)-1]; c.peak > 0 && top < c.peak {
			t.Errorf("peak %v above the top tick %v", c.peak, top)
		}
	}
}

// TestWrapText: lines fit the width, break at spaces, and break a word only when it is
// longer than a line; nothing is lost.
func TestWrapText(t *testing.T) {
	for _, c := range []struct {
		s     string
		maxW  float64
		lines int
	}{
		{"frapper(will, jack)", 400, 1},
		{"frapper(will, jack)", 90, 2},
		{"2d6 + n >= 10 — n = 1, 2, 3, 4, 5, 6, 7, 8 (a name of the expression)", 300, 2},
		{strings.Repeat("a", 100), 100, 10},
		{"", 100, 1},
	} {
		lines := wrapText(c.s, 16, c.maxW)
		if len(lines) != c.lines {
			t.Errorf("%q in %v: %d lines %q, want %d", c.s, c.maxW, len(lines), lines, c.lines)
		}
		for _, l := range lines {
			if w := fitWidth(l, 16); w > c.maxW {
				t.Errorf("%q in %v: line %q is %v wide", c.s, c.maxW, l, w)
			}
		}
		if strings.ReplaceAll(strings.Join(lines, ""), " ", "") != strings.ReplaceAll(c.s, " ", "") {
			t.Errorf("%q: wrapped into %q, text lost", c.s, lines)
		}
	}
	// Balanced: the same lines, of even length, none a lone word.
	for _, s := range []string{"frapper(will, jack) + frapper(jack, will) — 2000 runs, seed 3", strings.Repeat("mot ", 40)} {
		greedy, even := wrapText(s, 16, 400), balancedWrap(s, 16, 400)
		if len(even) != len(greedy) || strings.Join(even, " ") != strings.Join(greedy, " ") {
			t.Errorf("balanced %q, greedy %q", even, greedy)
		}
		if last := even[len(even)-1]; fitWidth(last, 16) < 0.5*fitWidth(even[0], 16) {
			t.Errorf("%q: last line %q much shorter than the first", s, last)
		}
	}
	if w1, w2 := textWidth("iiii", 12), textWidth("WWWW", 12); w1 <= 0 || w2 < 2*w1 {
		t.Errorf("widths are not a font's: iiii %v, WWWW %v", w1, w2)
	}
	if w1, w2 := textWidth("abc", 12), textWidth("abc", 24); math.Abs(w2-2*w1) > 0.5 {
		t.Errorf("width does not scale with the size: %v at 12, %v at 24", w1, w2)
	}
}

// TestCumulative: P(≥) and P(≤) sum the exact fractions when every label has one, and the
// floats otherwise.
func TestCumulative(t *testing.T) {
	labels := []string{"1", "2", "3"}
	s := Series{Values: []float64{1.0 / 6, 1.0 / 3, 1.0 / 2}, Fractions: []string{"1/6", "1/3", "1/2"}}
	geq, tips := cumulative(labels, s, true, "")
	if geq[0] != 1 || math.Abs(geq[1]-5.0/6) > 1e-12 || geq[2] != 0.5 || tips[1] != "P(≥ 2): 5/6 (83.33%)" {
		t.Errorf("P(≥) %v %q", geq, tips)
	}
	leq, tips := cumulative(labels, s, false, "")
	if math.Abs(leq[0]-1.0/6) > 1e-12 || leq[2] != 1 || tips[2] != "P(≤ 3): 1 (100%)" {
		t.Errorf("P(≤) %v %q", leq, tips)
	}
	s.Fractions = nil
	_, tips = cumulative(labels, s, true, "A — ")
	if tips[1] != "A — P(≥ 2): 83.33%" {
		t.Errorf("sampled: %q", tips)
	}
}

// TestChartPNG: the PNG decodes, is twice the SVG's size, and is not blank: it has the
// first series' blue and the dark of the text.
func TestChartPNG(t *testing.T) {
	c := goldenCharts["long-title"]
	var svg strings.Builder
	if err := c.SVG(&svg); err != nil {
		t.Fatal(err)
	}
	box := measureSVG(t, svg.String())
	var b bytes.Buffer
	if err := c.PNG(&b); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := img.Bounds().Size(), (image.Point{int(2 * box.width), int(2 * box.height)}); got != want {
		t.Errorf("size %v, want %v", got, want)
	}
	counts := map[string]int{}
	bd := img.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			switch {
			case r>>8 == 0x00 && g>>8 == 0x72 && bl>>8 == 0xB2:
				counts["bar"]++
			case r>>8 < 0x40 && g>>8 < 0x40 && bl>>8 < 0x40:
				counts["ink"]++
			case r>>8 == 0xff && g>>8 == 0xff && bl>>8 == 0xff:
				counts["white"]++
			}
		}
	}
	total := bd.Dx() * bd.Dy()
	if counts["bar"] < total/50 || counts["ink"] < total/500 || counts["white"] < total/2 {
		t.Errorf("pixels: %v of %d", counts, total)
	}
}

// TestChartManyOutcomes: hundreds of outcomes make thin bars in a picture no wider than
// maxPlotW and its margins (a PNG of a reasonable size), every outcome a bar with its
// tooltip, one label in a few, every text inside the picture.
func TestChartManyOutcomes(t *testing.T) {
	var labels []string
	var values []float64
	for i := range 601 {
		labels = append(labels, strconv.Itoa(100+i))
		values = append(values, math.Exp(-math.Pow(float64(i-300)/80, 2)))
	}
	var b strings.Builder
	c := Chart{Title: "600d2", Labels: labels, Series: []Series{{Name: "600d2", Values: values}}, AtLeast: true}
	if err := c.SVG(&b); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	box := measureSVG(t, svg)
	if len(box.overflow) > 0 {
		t.Errorf("outside the picture: %v", box.overflow[:min(5, len(box.overflow))])
	}
	if box.width > maxPlotW+120 {
		t.Errorf("%v wide", box.width)
	}
	if n := strings.Count(svg, "</rect>"); n != 601 {
		t.Errorf("%d bars with a tooltip, want 601", n)
	}
	shown := 0
	for _, s := range box.texts {
		if n, err := strconv.Atoi(s); err == nil && n >= 100 {
			shown++
		}
	}
	if shown < 10 || shown > 100 {
		t.Errorf("%d of 601 outcome labels shown, want one in a few", shown)
	}
	if !strings.Contains(svg, ">200</text>") || !strings.Contains(svg, ">300</text>") {
		t.Error("the labels shown are not round steps from the first")
	}
	if strings.Contains(svg, "rotate(") {
		t.Error("labels turned although one in a few is shown across")
	}
}

// TestPNGStrokeJoins: a line's round ends and joins add to its segments' ink, not cancel
// it out (the shapes of one stroke must turn the same way for the rasterizer).
func TestPNGStrokeJoins(t *testing.T) {
	d := &drawing{w: 40, h: 20, items: []item{{kind: itemLine, pts: []float64{5, 10, 20, 10, 35, 5}, stroke: "#D55E00", width: 4}}}
	var b bytes.Buffer
	if err := d.png(&b, 2); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []image.Point{{10, 20}, {40, 20}, {30, 20}} { // an end, the join, a segment
		r, g, bl, _ := img.At(p.X, p.Y).RGBA()
		if r>>8 != 0xD5 || g>>8 != 0x5E || bl>>8 != 0x00 {
			t.Errorf("pixel %v is %02x%02x%02x, want the stroke's D55E00", p, r>>8, g>>8, bl>>8)
		}
	}
}

// TestChartSVGControlCharacters: a title or label holding characters XML 1.0 forbids (a
// control character written in a string literal, "a\x01b") still gives well-formed XML,
// each such character shown as U+FFFD, so that a browser or the playground draws the chart.
func TestChartSVGControlCharacters(t *testing.T) {
	var b strings.Builder
	err := ChartSVG(&b, "d6 > 3 ? \"a\x01b\" : \"c\x1bd\"", []string{"a\x01b", "c\x1bd\x7f", "tab\tok"},
		[]Series{{Name: "s\x00", Values: []float64{0.5, 0.25, 0.25}}, {Name: "t", Values: []float64{0.5, 0.25, 0.25}}})
	if err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	wellFormed(t, svg)
	if !strings.Contains(svg, "a\uFFFDb") || strings.ContainsAny(svg, "\x00\x01\x1b") {
		t.Errorf("control characters not replaced:\n%q", svg)
	}
}
