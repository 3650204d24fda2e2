package output

import (
	"encoding/xml"
	"io"
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
