package output

import (
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"testing"
)

// TestChartSVG: a chart is well-formed XML, has one bar per label and series with its value
// in its tooltip, escapes labels, and shows a legend only for two series.
func TestChartSVG(t *testing.T) {
	var b strings.Builder
	err := ChartSVG(&b, "2d6 < 5 & co", []string{"vrai", "<faux>"}, []Series{{"a", []float64{0.25, 0.75}}, {"b", []float64{0.5, 0.5}}})
	if err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	d := xml.NewDecoder(strings.NewReader(svg))
	for {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("not XML: %v\n%s", err, svg)
		}
	}
	for _, want := range []string{"<title>vrai: 25%</title>", "<title>&lt;faux&gt;: 75%</title>", "<title>vrai: 50%</title>", "2d6 &lt; 5 &amp; co", ">a</text>", ">b</text>", ">75%</text>"} {
		if !strings.Contains(svg, want) {
			t.Errorf("no %q in\n%s", want, svg)
		}
	}
	if n := strings.Count(svg, "<title>"); n != 4 {
		t.Errorf("%d bars, want 4", n)
	}
	b.Reset()
	if err := ChartSVG(&b, "d6", []string{"1"}, []Series{{"d6", []float64{1.0 / 6}}}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), ">d6</text><") || !strings.Contains(b.String(), "<title>1: 16.67%</title>") {
		t.Errorf("one series:\n%s", b.String())
	}
}

// TestChartSVGManySeries: a sweep's chart has a bar per label and series, a colour per series
// (ten before they come round), and every name in a legend that stays inside the picture.
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
	d := xml.NewDecoder(strings.NewReader(svg))
	var width, height int
	maxX, maxY := 0, 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("not XML: %v\n%s", err, svg)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		for _, a := range se.Attr {
			n, _ := strconv.ParseFloat(a.Value, 64)
			switch {
			case se.Name.Local == "svg" && a.Name.Local == "width":
				width = int(n)
			case se.Name.Local == "svg" && a.Name.Local == "height":
				height = int(n)
			case se.Name.Local == "rect" && a.Name.Local == "x":
				maxX = max(maxX, int(n))
			case se.Name.Local == "text" && a.Name.Local == "y", se.Name.Local == "rect" && a.Name.Local == "y":
				maxY = max(maxY, int(n))
			}
		}
	}
	if n := strings.Count(svg, "<title>"); n != 36 {
		t.Errorf("%d bars, want 36", n)
	}
	for i := range 12 {
		if !strings.Contains(svg, ">n="+strconv.Itoa(i)+"</text>") {
			t.Errorf("no legend for n=%d", i)
		}
	}
	for _, c := range chartColours {
		if !strings.Contains(svg, `fill="`+c+`"`) {
			t.Errorf("colour %s unused", c)
		}
	}
	if maxX >= width || maxY >= height {
		t.Errorf("drawn up to (%d, %d) in a picture of %d×%d", maxX, maxY, width, height)
	}
}
