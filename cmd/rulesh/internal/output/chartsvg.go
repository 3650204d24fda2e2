package output

import (
	"fmt"
	"html"
	"strconv"
	"strings"
)

// svg writes a laid-out chart as a standalone SVG picture, one element per line.
func (d *drawing) svg() string {
	var b strings.Builder
	w, h := num(d.w), num(d.h)
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="%s">`+"\n", w, h, w, h, chartFontFamily)
	fmt.Fprintf(&b, `<rect width="%s" height="%s" fill="white"/>`+"\n", w, h)
	for _, it := range d.items {
		switch it.kind {
		case itemRect:
			fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"`, num(it.x), num(it.y), num(it.w), num(it.h), it.fill)
		case itemCircle:
			fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="%s" fill="%s" stroke="white"`, num(it.x), num(it.y), num(it.w), it.fill)
		case itemLine:
			pts := make([]string, 0, len(it.pts)/2)
			for i := 0; i+1 < len(it.pts); i += 2 {
				pts = append(pts, num(it.pts[i])+","+num(it.pts[i+1]))
			}
			fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="%s"`, strings.Join(pts, " "), it.stroke, num(it.width))
			if it.dash {
				b.WriteString(` stroke-dasharray="6 4"`)
			}
		case itemText:
			fmt.Fprintf(&b, `<text x="%s" y="%s" font-size="%s" fill="%s"`, num(it.x), num(it.y), num(it.size), it.fill)
			switch it.anchor {
			case anchorMiddle:
				b.WriteString(` text-anchor="middle"`)
			case anchorEnd:
				b.WriteString(` text-anchor="end"`)
			}
			if it.rotate != 0 {
				fmt.Fprintf(&b, ` transform="rotate(%s %s %s)"`, num(it.rotate), num(it.x), num(it.y))
			}
			fmt.Fprintf(&b, ">%s</text>\n", xmlText(it.text))
			continue
		}
		if it.tip != "" {
			fmt.Fprintf(&b, "><title>%s</title></%s>\n", xmlText(it.tip), svgElement(it.kind))
		} else {
			b.WriteString("/>\n")
		}
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// xmlText escapes s as an SVG text or title: besides html.EscapeString's five characters, a
// character XML 1.0 forbids (a control character from a string literal, "a\x01b") becomes
// U+FFFD, since one such byte makes the whole picture unreadable to a browser.
func xmlText(s string) string {
	return html.EscapeString(strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF {
			return r
		}
		return '\uFFFD'
	}, s))
}

// svgElement is the SVG element that draws an item of kind k.
func svgElement(k itemKind) string {
	switch k {
	case itemRect:
		return "rect"
	case itemCircle:
		return "circle"
	case itemLine:
		return "polyline"
	}
	return ""
}

// num writes a coordinate to a tenth of a pixel, without a trailing ".0".
func num(f float64) string {
	s := strconv.FormatFloat(f, 'f', 1, 64)
	s = strings.TrimSuffix(s, ".0")
	if s == "-0" {
		s = "0"
	}
	return s
}
