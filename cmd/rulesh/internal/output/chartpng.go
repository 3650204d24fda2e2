package output

import (
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"strconv"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/math/f64"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// png draws a laid-out chart as pixels, scale pixels to the SVG's one: shapes filled by
// x/image/vector's anti-aliasing rasterizer, text by Go Regular's outlines.
func (d *drawing) png(w io.Writer, scale float64) error {
	W, H := int(math.Ceil(d.w*scale)), int(math.Ceil(d.h*scale))
	img := image.NewRGBA(image.Rect(0, 0, W, H))
	xdraw.Draw(img, img.Bounds(), image.White, image.Point{}, xdraw.Src)
	r := vector.NewRasterizer(W, H)
	fill := func(colour string) {
		r.Draw(img, img.Bounds(), image.NewUniform(hexColour(colour)), image.Point{})
		r.Reset(W, H)
	}
	for _, it := range d.items {
		switch it.kind {
		case itemRect:
			x0, y0, x1, y1 := it.x*scale, it.y*scale, (it.x+it.w)*scale, (it.y+it.h)*scale
			polygon(r, []float64{x0, y0, x1, y0, x1, y1, x0, y1})
			fill(it.fill)
		case itemCircle:
			disc(r, it.x*scale, it.y*scale, (it.w+0.5)*scale)
			fill("#ffffff")
			disc(r, it.x*scale, it.y*scale, (it.w-0.5)*scale)
			fill(it.fill)
		case itemLine:
			stroke(r, it.pts, it.width, it.dash, scale)
			fill(it.stroke)
		case itemText:
			drawText(img, it, scale)
		}
	}
	return png.Encode(w, img)
}

// polygon adds a closed path through pts (x0, y0, x1, y1, …) to r.
func polygon(r *vector.Rasterizer, pts []float64) {
	r.MoveTo(float32(pts[0]), float32(pts[1]))
	for i := 2; i+1 < len(pts); i += 2 {
		r.LineTo(float32(pts[i]), float32(pts[i+1]))
	}
	r.ClosePath()
}

// disc adds a circle of radius rad about (x, y), always turning the same way, so that
// overlapping shapes add up instead of cancelling out.
func disc(r *vector.Rasterizer, x, y, rad float64) {
	const n = 24
	pts := make([]float64, 0, 2*n)
	for k := range n {
		a := 2 * math.Pi * float64(k) / n
		pts = append(pts, x+rad*math.Cos(a), y+rad*math.Sin(a))
	}
	polygon(r, pts)
}

// stroke adds a polyline of width (in the SVG's pixels) to r, segment by segment with round
// joins, dashed 6 on 4 as the SVG's stroke-dasharray when dash is set.
func stroke(r *vector.Rasterizer, pts []float64, width float64, dash bool, scale float64) {
	half := width * scale / 2
	on, off := 6*scale, 4*scale
	phase := 0.0 // how far along the current dash pattern
	segment := func(x0, y0, x1, y1 float64) {
		dx, dy := x1-x0, y1-y0
		l := math.Hypot(dx, dy)
		if l == 0 {
			return
		}
		nx, ny := -dy/l*half, dx/l*half
		// Turning as disc does (its signed area positive), or the joins would cancel out.
		polygon(r, []float64{x0 - nx, y0 - ny, x1 - nx, y1 - ny, x1 + nx, y1 + ny, x0 + nx, y0 + ny})
	}
	for i := 0; i+3 < len(pts); i += 2 {
		x0, y0, x1, y1 := pts[i]*scale, pts[i+1]*scale, pts[i+2]*scale, pts[i+3]*scale
		if !dash {
			segment(x0, y0, x1, y1)
			disc(r, x1, y1, half)
			if i == 0 {
				disc(r, x0, y0, half)
			}
			continue
		}
		l := math.Hypot(x1-x0, y1-y0)
		for t := 0.0; t < l; {
			period := math.Mod(phase, on+off)
			var step float64
			if period < on {
				step = min(on-period, l-t)
				a, b := t/l, (t+step)/l
				segment(x0+(x1-x0)*a, y0+(y1-y0)*a, x0+(x1-x0)*b, y0+(y1-y0)*b)
			} else {
				step = min(on+off-period, l-t)
			}
			t += step
			phase += step
		}
	}
}

// drawText sets a text item at scale: straight onto img, or, turned, into an image of its
// own that is then turned onto img about the text's anchor.
func drawText(img *image.RGBA, it item, scale float64) {
	chartFonts.mu.Lock()
	defer chartFonts.mu.Unlock()
	face := chartFace(it.size * scale)
	if face == nil {
		return
	}
	adv := fixedFloat(font.MeasureString(face, it.text))
	dx := map[anchor]float64{anchorStart: 0, anchorMiddle: -adv / 2, anchorEnd: -adv}[it.anchor]
	src := image.NewUniform(hexColour(it.fill))
	x, y := it.x*scale, it.y*scale
	if it.rotate == 0 {
		dr := font.Drawer{Dst: img, Src: src, Face: face, Dot: fixed.Point26_6{X: fixed.Int26_6((x + dx) * 64), Y: fixed.Int26_6(y * 64)}}
		dr.DrawString(it.text)
		return
	}
	// The text alone, its anchor at (pad-dx, ascent) of a small picture.
	m := face.Metrics()
	asc, desc := fixedFloat(m.Ascent), fixedFloat(m.Descent)
	pad := 2.0
	tw, th := int(math.Ceil(adv+2*pad)), int(math.Ceil(asc+desc+2*pad))
	tmp := image.NewRGBA(image.Rect(0, 0, tw, th))
	dr := font.Drawer{Dst: tmp, Src: src, Face: face, Dot: fixed.Point26_6{X: fixed.Int26_6(pad * 64), Y: fixed.Int26_6((pad + asc) * 64)}}
	dr.DrawString(it.text)
	// Source to destination: move the anchor to the origin, turn, move it to (x, y).
	ax, ay := pad-dx, pad+asc
	a := it.rotate * math.Pi / 180
	cos, sin := math.Cos(a), math.Sin(a)
	s2d := f64.Aff3{
		cos, -sin, x - cos*ax + sin*ay,
		sin, cos, y - sin*ax - cos*ay,
	}
	xdraw.BiLinear.Transform(img, s2d, tmp, tmp.Bounds(), xdraw.Over, nil)
}

// hexColour reads "#rrggbb"; anything else is the text's ink.
func hexColour(s string) color.RGBA {
	if len(s) == 7 && s[0] == '#' {
		if v, err := strconv.ParseUint(s[1:], 16, 32); err == nil {
			return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}
		}
	}
	return color.RGBA{0x22, 0x22, 0x22, 0xff}
}
