package output

import (
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// The charts are drawn by hand rather than with gonum/plot: gonum/plot embeds its fonts and
// adds about 3.8 MB (gzip -9) to a WebAssembly build, most of the playground's 6 MB; it cannot
// give a bar its own <title> (the exact fraction a page shows on hover); and its SVG sets
// text in fonts a page may not have. Here one layout (Chart.layout) computes every position,
// tick and wrapped line once, measuring text with Go Regular's metrics, and two small
// writers draw the same picture: SVG text and PNG pixels.

// Series is one distribution drawn in a chart: a name (shown in the legend when there are
// several) and a probability or frequency per label, in the labels' order.
type Series struct {
	Name   string
	Values []float64
	// Fractions are the exact odds as fractions ("7/36"), in the labels' order, shown in
	// the tooltips beside the percentages; nil, or "" at a label, where there is none
	// (sampled odds).
	Fractions []string
}

// Chart is a chart of one or more series over the same labels (outcomes, or the values of
// a sweep), drawn by SVG and PNG alike.
type Chart struct {
	Title  string
	Labels []string
	Series []Series
	// XLabel and YLabel name the axes; "" gives "outcome" and "probability".
	XLabel, YLabel string
	// Lines draws each series as a line across the labels, a point per label, instead of
	// bars: the odds of each outcome across the values of a sweep.
	Lines bool
	// AtLeast and AtMost add each series' P(≥ label) and P(≤ label) as curves over the
	// bars, summing in the labels' order (numbers ascending).
	AtLeast, AtMost bool
}

// ChartSVG writes a bar chart of one or more series over the same labels (outcomes), bars of
// one label side by side in the order of the series, as a standalone SVG picture titled
// title, with a legend when there are several. Values are fractions of 1 and the axis reads
// in percent; each bar's <title> gives its value. It writes only what it is given: the
// caller sorts labels. It is Chart{Title: title, Labels: labels, Series: series}.SVG(w).
func ChartSVG(w io.Writer, title string, labels []string, series []Series) error {
	return Chart{Title: title, Labels: labels, Series: series}.SVG(w)
}

// SVG writes the chart as a standalone SVG picture.
func (c Chart) SVG(w io.Writer) error {
	_, err := io.WriteString(w, c.layout().svg())
	return err
}

// PNG writes the chart as a PNG picture, twice the SVG's size so that its text is sharp.
func (c Chart) PNG(w io.Writer) error { return c.layout().png(w, pngScale) }

// chartColours is the Okabe–Ito palette, told apart by the colour-blind, black last; past
// eight series the colours come round again, lines then dashed, the legend telling them
// apart by order.
var chartColours = []string{"#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"}

// ChartColours is how many series a chart tells apart by colour alone.
const ChartColours = 8

const (
	inkColour  = "#222222"
	gridColour = "#e3e3e3"
	axisColour = "#555555"
	// chartFontFamily is the SVG's fonts: Go's own (whose metrics laid the text out) when
	// the viewer has it, else ones as wide or narrower, widths allowed for by fitSlack.
	chartFontFamily = "Go, 'DejaVu Sans', Verdana, Arial, sans-serif"
	pngScale        = 2
)

// Sizes of the layout, in pixels.
const (
	margin      = 16.0
	titleSize   = 16.0
	axisSize    = 12.0
	tickSize    = 11.0
	legendSize  = 12.0
	plotH       = 260.0
	minPlotW    = 420.0
	maxPlotW    = 960.0 // the widest the bars are spread before they get thinner
	lineHeight  = 1.3   // times the font size
	swatch      = 12.0
	markerR     = 3.5
	maxBarW     = 56.0
	legendGap   = 20.0
	maxTitleRow = 3 // lines of title before it is set smaller
)

type anchor int8

const (
	anchorStart anchor = iota
	anchorMiddle
	anchorEnd
)

type itemKind int8

const (
	itemRect itemKind = iota
	itemLine
	itemCircle
	itemText
)

// item is one thing drawn: a rectangle (x, y, w, h), a polyline (pts as x0, y0, x1, y1, …),
// a circle (centre x, y, radius w) or a text (its anchor on the baseline at x, y, turned by
// rotate degrees about it). tip, when set, is shown on hover (an SVG <title>).
type item struct {
	kind         itemKind
	x, y, w, h   float64
	pts          []float64
	fill, stroke string
	width        float64
	dash         bool
	text         string
	size         float64
	anchor       anchor
	rotate       float64
	tip          string
}

// drawing is a laid-out chart: its size and what is drawn, in order.
type drawing struct {
	w, h  float64
	items []item
}

func (d *drawing) add(it item) { d.items = append(d.items, it) }

func (d *drawing) text(s string, x, y, size float64, a anchor, fill string) {
	d.add(item{kind: itemText, text: s, x: x, y: y, size: size, anchor: a, fill: fill})
}

// legendEntry is one line of the legend: a box of colour (bars) or a stroke (lines).
type legendEntry struct {
	name   string
	colour string
	line   bool
	dash   bool
}

// curve is a line drawn across the labels: a series of a sweep, or a P(≥)/P(≤) curve.
type curve struct {
	values []float64
	tips   []string
	colour string
	dash   bool
}

// layout places everything once: the writers only draw what it gives.
func (c Chart) layout() *drawing {
	n, s := len(c.Labels), len(c.Series)
	xName, yName := c.XLabel, c.YLabel
	if xName == "" {
		xName = "outcome"
	}
	if yName == "" {
		yName = "probability"
	}
	value := func(j, i int) float64 {
		if i < len(c.Series[j].Values) && c.Series[j].Values[i] > 0 {
			return c.Series[j].Values[i] // a negative or NaN value (never odds) draws as 0
		}
		return 0
	}
	fraction := func(j, i int) string {
		if i < len(c.Series[j].Fractions) {
			return c.Series[j].Fractions[i]
		}
		return ""
	}
	prefix := func(j int) string {
		if s > 1 || c.Lines {
			return c.Series[j].Name + " — "
		}
		return ""
	}

	// What is drawn: bars, or lines, and curves; and the legend naming them.
	var curves []curve
	var legend []legendEntry
	peak := 0.0
	if c.Lines {
		for j := range c.Series {
			cv := curve{colour: chartColours[j%len(chartColours)], dash: j >= len(chartColours)}
			for i := range c.Labels {
				cv.values = append(cv.values, value(j, i))
				at := c.Labels[i]
				if c.XLabel != "" && !strings.Contains(at, "=") {
					at = c.XLabel + "=" + at // n=3, as a sweep's columns are named
				}
				cv.tips = append(cv.tips, at+" — "+c.Series[j].Name+": "+oddsText(value(j, i), fraction(j, i)))
			}
			curves = append(curves, cv)
			legend = append(legend, legendEntry{name: c.Series[j].Name, colour: cv.colour, line: true, dash: cv.dash})
		}
	} else if s > 1 {
		for j := range c.Series {
			legend = append(legend, legendEntry{name: c.Series[j].Name, colour: chartColours[j%len(chartColours)]})
		}
	} else if s == 1 && (c.AtLeast || c.AtMost) {
		// The bars beside the curves: named as the curves are, not by the title again.
		legend = append(legend, legendEntry{name: "P(= " + xName + ")", colour: chartColours[0]})
	}
	for j := range c.Series {
		for i := range c.Labels {
			peak = max(peak, value(j, i))
		}
	}
	for _, side := range []struct {
		on   bool
		sign string
		dash bool
	}{{c.AtLeast, "≥", false}, {c.AtMost, "≤", true}} {
		if !side.on || c.Lines {
			continue
		}
		for j := range c.Series {
			cv := curve{colour: chartColours[j%len(chartColours)], dash: side.dash}
			name := c.Series[j].Name + " P(" + side.sign + ")"
			if s == 1 {
				// One series: the curves stand apart from the bars' blue.
				cv.colour = map[bool]string{false: chartColours[3], true: chartColours[7]}[side.dash]
				name = "P(" + side.sign + " " + xName + ")"
			}
			cv.values, cv.tips = cumulative(c.Labels, c.Series[j], side.sign == "≥", prefix(j))
			curves = append(curves, cv)
			legend = append(legend, legendEntry{name: name, colour: cv.colour, line: true, dash: cv.dash})
			peak = 1
		}
	}
	ticks, decimals := axisTicks(peak)
	top := ticks[len(ticks)-1]

	// Widths: a group per label, wide enough for its bars or its label, the plot at least
	// minPlotW, the groups then sharing out the width.
	barW, gap := 0.0, 8.0
	if !c.Lines && s > 0 {
		barW = max(2, min(24, 96/float64(s)))
		gap = max(8, barW*0.8)
		if float64(n)*(float64(s)*barW+gap) > maxPlotW {
			// Many bars: thinner ones rather than a wider picture; past a few pixels a
			// group, no gap, as a histogram.
			group := maxPlotW / float64(n)
			gap = 0
			if group >= 6 {
				gap = max(2, group/6)
			}
			barW = (group - gap) / float64(s)
		}
	}
	maxLabel := 0.0
	for _, l := range c.Labels {
		maxLabel = max(maxLabel, fitWidth(l, tickSize))
	}
	groupW := float64(s)*barW + gap
	if c.Lines {
		groupW = max(40, maxLabel+12)
	}
	plotW := max(minPlotW, float64(n)*groupW)
	entryW := 0.0
	for _, e := range legend {
		entryW = max(entryW, swatch+6+fitWidth(e.name, legendSize)+legendGap)
	}
	plotW = max(plotW, entryW-legendGap, fitWidth(xName, axisSize))
	if n > 0 {
		groupW = plotW / float64(n)
	}
	if !c.Lines && s > 0 {
		barW = min(maxBarW, max(barW, (groupW-gap)/float64(s)))
	}

	// The labels of the x axis: across when every one fits its group, else turned by 45°;
	// too many to turn without overlapping, every stride-th across.
	turned, stride := maxLabel > groupW-4, 1
	if turned && groupW < 1.5*tickSize {
		turned, stride = false, roundStride((maxLabel+8)/groupW)
	}
	tickH := tickSize * lineHeight
	labelsH := tickH
	// How far a label reaches left of the plot, and right of it.
	leftReach, rightReach := max(0, maxLabel/2-groupW/2), max(0, maxLabel/2-groupW/2)
	if turned {
		leftReach, rightReach = 0, 0
		labelsH = 0
		for i, l := range c.Labels {
			w := fitWidth(l, tickSize)
			labelsH = max(labelsH, (w+tickSize)*math.Sqrt2/2)
			leftReach = max(leftReach, w*math.Sqrt2/2-(float64(i)+0.5)*groupW)
		}
	}

	// Across: the y axis' tick labels left of the plot.
	tickLabelW := 0.0
	for _, t := range ticks {
		tickLabelW = max(tickLabelW, fitWidth(tickLabel(t, decimals), tickSize))
	}
	left := margin + max(tickLabelW+6, leftReach)
	width := math.Ceil(left + plotW + max(margin, rightReach+4))

	// The title, wrapped to the width and set smaller when it takes many lines.
	size := titleSize
	title := balancedWrap(c.Title, size, width-2*margin)
	for len(title) > maxTitleRow && size > tickSize {
		size--
		title = balancedWrap(c.Title, size, width-2*margin)
	}

	d := &drawing{w: width}
	y := margin
	for _, line := range title {
		y += size
		d.text(line, margin, y, size, anchorStart, inkColour)
		y += size * (lineHeight - 1)
	}
	y += 10 + axisSize
	d.text(yName, margin, y, axisSize, anchorStart, inkColour)
	plotTop := y + 12
	plotBottom := plotTop + plotH
	right := left + plotW
	yOf := func(v float64) float64 { return plotBottom - v/top*plotH }

	for _, t := range ticks {
		if t > 0 { // 0 is the axis, drawn over the bars
			ty := crisp(yOf(t))
			d.add(item{kind: itemLine, pts: []float64{left, ty, right, ty}, stroke: gridColour, width: 1})
		}
		d.text(tickLabel(t, decimals), left-6, yOf(t)+tickSize*0.35, tickSize, anchorEnd, inkColour)
	}
	centre := func(i int) float64 { return left + (float64(i)+0.5)*groupW }
	if !c.Lines {
		for i := range c.Labels {
			x0 := centre(i) - float64(s)*barW/2
			for j := range c.Series {
				v := value(j, i)
				inner := barW
				if s > 1 && barW > 3 {
					inner = barW - 1 // a hairline apart, so that equal bars do not merge
				}
				d.add(item{kind: itemRect, x: x0 + float64(j)*barW, y: yOf(v), w: inner, h: plotBottom - yOf(v),
					fill: chartColours[j%len(chartColours)], tip: prefix(j) + c.Labels[i] + ": " + oddsText(v, fraction(j, i))})
			}
		}
	}
	ax := crisp(plotBottom)
	d.add(item{kind: itemLine, pts: []float64{left, ax, right, ax}, stroke: axisColour, width: 1})
	for _, cv := range curves {
		var pts []float64
		for i, v := range cv.values {
			pts = append(pts, centre(i), yOf(v))
		}
		d.add(item{kind: itemLine, pts: pts, stroke: cv.colour, width: 2, dash: cv.dash})
		for i, v := range cv.values {
			if groupW < 3*markerR {
				break // points too close to tell apart: the line alone
			}
			d.add(item{kind: itemCircle, x: centre(i), y: yOf(v), w: markerR, fill: cv.colour, tip: cv.tips[i]})
		}
	}

	y = plotBottom + 4
	for i, l := range c.Labels {
		if i%stride != 0 {
			continue
		}
		if stride > 1 {
			d.add(item{kind: itemLine, pts: []float64{centre(i), ax, centre(i), ax + 4}, stroke: axisColour, width: 1})
		}
		if turned {
			d.add(item{kind: itemText, text: l, x: centre(i) + tickSize*0.35, y: y + 4, size: tickSize, anchor: anchorEnd, rotate: -45, fill: inkColour})
		} else {
			d.text(l, centre(i), y+tickSize, tickSize, anchorMiddle, inkColour)
		}
	}
	y += labelsH + 8 + axisSize
	d.text(xName, left+plotW/2, y, axisSize, anchorMiddle, inkColour)
	y += axisSize * (lineHeight - 1)

	if len(legend) > 0 {
		perRow := max(1, int((plotW+legendGap)/entryW))
		y += 10
		for k, e := range legend {
			x := left + float64(k%perRow)*entryW
			ry := y + float64(k/perRow)*legendSize*1.6
			if e.line {
				d.add(item{kind: itemLine, pts: []float64{x, ry + swatch/2, x + swatch, ry + swatch/2}, stroke: e.colour, width: 2, dash: e.dash})
			} else {
				d.add(item{kind: itemRect, x: x, y: ry, w: swatch, h: swatch, fill: e.colour})
			}
			d.text(e.name, x+swatch+6, ry+swatch-1.5, legendSize, anchorStart, inkColour)
		}
		y += float64((len(legend)+perRow-1)/perRow)*legendSize*1.6 - legendSize*0.6
	}
	d.h = math.Ceil(y + margin)
	return d
}

// roundStride is the first of 1, 2, 5, 10, 20, 50… at or above k: one label in so many.
func roundStride(k float64) int {
	for p := 1; ; p *= 10 {
		for _, m := range []int{1, 2, 5} {
			if float64(m*p) >= k || p > 1e8 {
				return m * p
			}
		}
	}
}

// crisp puts a one-pixel line on a pixel's middle, so a viewer draws it sharp.
func crisp(y float64) float64 { return math.Floor(y) + 0.5 }

// oddsText is a tooltip's value: the fraction when exact, and the percentage.
func oddsText(p float64, frac string) string {
	if frac != "" {
		return frac + " (" + trimFloat(100*p) + "%)"
	}
	return trimFloat(100*p) + "%"
}

// cumulative gives a series' P(≥ label) (atLeast) or P(≤ label) at each label and their
// tooltips, exact fractions summed when every label has one.
func cumulative(labels []string, s Series, atLeast bool, prefix string) ([]float64, []string) {
	n := len(labels)
	vals, tips := make([]float64, n), make([]string, n)
	exact := len(s.Fractions) >= n
	fracs := make([]*big.Rat, n)
	for i := range n {
		if exact {
			if r, ok := new(big.Rat).SetString(s.Fractions[i]); ok {
				fracs[i] = r
			} else {
				exact = false
			}
		}
	}
	sum, rsum := 0.0, new(big.Rat)
	sign := "≤"
	if atLeast {
		sign = "≥"
	}
	for k := range n {
		i := k
		if atLeast {
			i = n - 1 - k
		}
		if i < len(s.Values) {
			sum += s.Values[i]
		}
		frac := ""
		if exact {
			rsum.Add(rsum, fracs[i])
			frac = rsum.RatString()
			sum, _ = rsum.Float64()
		}
		vals[i] = min(1, sum)
		tips[i] = prefix + "P(" + sign + " " + labels[i] + "): " + oddsText(vals[i], frac)
	}
	return vals, tips
}

// trimFloat writes a percentage with at most two decimals, without trailing zeros.
func trimFloat(f float64) string {
	s := strings.TrimRight(strconv.FormatFloat(f, 'f', 2, 64), "0")
	return strings.TrimSuffix(s, ".")
}
