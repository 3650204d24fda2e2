package output

import (
	"fmt"
	"html"
	"io"
	"strings"
)

// Series is one distribution drawn in a chart: a name (shown in the legend when there are
// several) and a probability or frequency per label, in the labels' order.
type Series struct {
	Name   string
	Values []float64
}

// chart colours: the first series, then the second (a variant, drawn beside it), then the
// others of a sweep; past ten they come round again, the legend telling them apart by order.
var chartColours = []string{"#3b6ea5", "#d08c2e", "#4f9a56", "#b8455a", "#7b5ea7",
	"#8c6d46", "#d16fb0", "#6f6f6f", "#a6a337", "#3ea6b3"}

// legendW is the width of one entry of the legend.
const legendW = 160

// ChartSVG writes a bar chart of one or more series over the same labels (outcomes), bars of
// one label side by side in the order of the series, as a standalone SVG picture titled
// title, with a legend (in rows of as many entries as the width holds) when there are
// several. Values are fractions of 1 and the axis reads in percent. It writes only what it
// is given: the caller sorts labels.
func ChartSVG(w io.Writer, title string, labels []string, series []Series) error {
	const (
		left, right, top, bottom = 56, 16, 40, 64
		plotH                    = 240
		minBar                   = 6
	)
	barW := max(minBar, 28/max(1, len(series)))
	groupW := barW*len(series) + 6
	width := left + right + max(1, len(labels))*groupW
	perRow, legendRows := 1, 0
	if len(series) > 1 {
		width = max(width, left+right+2*legendW)
		perRow = max(1, (width-left-right)/legendW)
		legendRows = (len(series) + perRow - 1) / perRow
	}
	height := top + plotH + bottom + max(0, legendRows-1)*16
	peak := 0.0
	for _, s := range series {
		for _, v := range s.Values {
			peak = max(peak, v)
		}
	}
	if peak <= 0 {
		peak = 1
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(&b, `<text x="%d" y="20" font-size="14">%s</text>`+"\n", left, html.EscapeString(title))
	// Axis: 0, half the peak and the peak, in percent.
	for _, f := range []float64{0, 0.5, 1} {
		y := float64(top+plotH) - f*plotH
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ccc"/>`+"\n", left, y, width-right, y)
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%s%%</text>`+"\n", left-4, y+4, trimFloat(100*f*peak))
	}
	for i, label := range labels {
		x0 := left + i*groupW + 3
		for j, s := range series {
			v := 0.0
			if i < len(s.Values) {
				v = s.Values[i]
			}
			h := v / peak * plotH
			fmt.Fprintf(&b, `<rect x="%d" y="%.1f" width="%d" height="%.1f" fill="%s"><title>%s: %s%%</title></rect>`+"\n",
				x0+j*barW, float64(top+plotH)-h, barW-1, h, chartColours[j%len(chartColours)], html.EscapeString(label), trimFloat(100*v))
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end" transform="rotate(-45 %d %d)">%s</text>`+"\n",
			x0+groupW/2, top+plotH+14, x0+groupW/2, top+plotH+14, html.EscapeString(label))
	}
	if len(series) > 1 {
		for j, s := range series {
			x := left + (j%perRow)*legendW
			y := top + plotH + bottom - 14 + (j/perRow)*16
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d">%s</text>`+"\n",
				x, y, chartColours[j%len(chartColours)], x+14, y+9, html.EscapeString(s.Name))
		}
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// trimFloat writes a percentage with at most two decimals, without trailing zeros.
func trimFloat(f float64) string {
	s := strings.TrimRight(fmt.Sprintf("%.2f", f), "0")
	return strings.TrimSuffix(s, ".")
}
