package output

import (
	"math"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// chartFonts holds the one font of the charts, Go Regular, parsed on first use (a command
// that draws no chart never parses it), and its faces by pixel size. A face is not safe for
// concurrent use, hence the mutex.
var chartFonts struct {
	once  sync.Once
	font  *opentype.Font
	err   error
	mu    sync.Mutex
	faces map[float64]font.Face
}

// chartFace is the face of Go Regular at size pixels, or nil if the font does not parse
// (it is compiled in, so never in practice; widths then fall back to an estimate).
func chartFace(size float64) font.Face {
	chartFonts.once.Do(func() {
		chartFonts.font, chartFonts.err = opentype.Parse(goregular.TTF)
		chartFonts.faces = map[float64]font.Face{}
	})
	if chartFonts.err != nil {
		return nil
	}
	if f, ok := chartFonts.faces[size]; ok {
		return f
	}
	f, err := opentype.NewFace(chartFonts.font, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		return nil
	}
	chartFonts.faces[size] = f
	return f
}

// textWidth is the width in pixels of s set in Go Regular at size pixels.
func textWidth(s string, size float64) float64 {
	chartFonts.mu.Lock()
	defer chartFonts.mu.Unlock()
	f := chartFace(size)
	if f == nil {
		return 0.6 * size * float64(len([]rune(s)))
	}
	return fixedFloat(font.MeasureString(f, s))
}

func fixedFloat(x fixed.Int26_6) float64 { return float64(x) / 64 }

// fitSlack widens every measured text before it is fitted: a browser draws the SVG with the
// first font of chartFontFamily it has, which may be wider than Go Regular (DejaVu Sans is
// about 8% wider), and a label must fit in any of them.
const fitSlack = 1.1

// fitWidth is the width a text is given room for.
func fitWidth(s string, size float64) float64 { return fitSlack * textWidth(s, size) }

// wrapText breaks s into lines no wider than maxW at size (by fitWidth): at spaces where it
// can, inside a word longer than a line where it must, so nothing is ever cut off. The lines
// joined by spaces give s back, less the spaces a break replaced.
func wrapText(s string, size, maxW float64) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
		case fitWidth(line+" "+word, size) <= maxW:
			line += " " + word
			continue
		default:
			lines = append(lines, line)
		}
		// word begins a line: a word too long for one is broken between its characters.
		line = ""
		for _, r := range word {
			if line != "" && fitWidth(line+string(r), size) > maxW {
				lines = append(lines, line)
				line = ""
			}
			line += string(r)
		}
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

// balancedWrap is wrapText with lines of even length: the narrowest width that still takes
// as many lines (and breaks no more words), so that a title never ends on a lone word.
func balancedWrap(s string, size, maxW float64) []string {
	lines := wrapText(s, size, maxW)
	if len(lines) < 2 {
		return lines
	}
	whole := strings.Join(strings.Fields(s), " ")
	wordsKept := strings.Join(lines, " ") == whole
	lo, hi := 0.0, maxW
	for range 16 {
		mid := (lo + hi) / 2
		try := wrapText(s, size, mid)
		if len(try) == len(lines) && (!wordsKept || strings.Join(try, " ") == whole) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return wrapText(s, size, hi)
}

// axisTicks chooses the ticks of a probability axis from 0 to at least peak: a step of 1, 2
// or 5 times a power of ten, the smallest giving at most maxIntervals intervals, the top
// being the first step at or past peak. A peak of 0 or less (or not a number) is taken as 1.
func axisTicks(peak float64) (ticks []float64, decimals int) {
	const maxIntervals = 7
	if !(peak > 0) || math.IsInf(peak, 0) {
		peak = 1
	}
	mag := math.Pow(10, math.Floor(math.Log10(peak/maxIntervals)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		step = m * mag
		// The small tolerance keeps 0.3/0.1 = 2.9999… from asking for a fourth interval.
		if math.Ceil(peak/step-1e-9) <= maxIntervals {
			break
		}
	}
	n := int(math.Ceil(peak/step - 1e-9))
	// Decimals of the step in percent: 10% none, 0.5% one, 0.02% two.
	decimals = max(0, int(math.Ceil(-math.Log10(step*100)-1e-9)))
	for i := 0; i <= n; i++ {
		// Rounded to the decimals shown, so 3 × 0.1 is 0.3 and not 0.30000000000000004.
		p := math.Pow(10, float64(decimals+2))
		ticks = append(ticks, math.Round(float64(i)*step*p)/p)
	}
	return ticks, decimals
}

// tickLabel writes a tick (a fraction of 1) in percent with the axis' decimals; the axis
// starts at a plain 0%.
func tickLabel(f float64, decimals int) string {
	if f == 0 {
		return "0%"
	}
	return strconv.FormatFloat(100*f, 'f', decimals, 64) + "%"
}
