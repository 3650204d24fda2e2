package syntax

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Severity tells an error (the file cannot run) from a warning (it can, but something looks wrong).
type Severity int

const (
	// Error marks a problem that stops the file from loading.
	Error Severity = iota
	// Warning marks suspicious code that still loads.
	Warning
)

// String is the severity as diagnostics print it: error or warning.
func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Pos is a position in a rule file; Line and Col count from 1, Col in characters (runes).
type Pos struct {
	File string
	Line int
	Col  int
}

// String prints the position as file:line:col, or the file alone when there is no line.
func (p Pos) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Diagnostic is one problem found in a rule file. Summary is terse; Detail, when set, is a
// sentence suggesting a fix. Pos is where the problem starts; End, when known, is where it
// ends (just past its last character, in the same file), so an editor can underline the
// whole token or expression; End.Line is 0 when only the start is known.
type Diagnostic struct {
	Severity Severity
	Pos      Pos
	End      Pos
	Summary  string
	Detail   string
}

// Range returns where the problem starts and ends; the end is the start when unknown.
func (d *Diagnostic) Range() (start, end Pos) {
	if d.End.Line == 0 {
		return d.Pos, d.Pos
	}
	return d.Pos, d.End
}

// After returns the position just past text written from p (text may hold newlines).
func After(p Pos, text string) Pos {
	for _, r := range text {
		if r == '\n' {
			p.Line, p.Col = p.Line+1, 1
		} else {
			p.Col++
		}
	}
	return p
}

// Diagnostics is a list of problems; it implements error when it holds at least one error.
type Diagnostics []*Diagnostic

// HasErrors reports whether any diagnostic is an error (not only warnings).
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Error renders every diagnostic without source lines.
func (ds Diagnostics) Error() string {
	var b strings.Builder
	for i, d := range ds {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(d.header())
	}
	return b.String()
}

func (d *Diagnostic) header() string {
	s := d.Pos.String() + ": "
	if d.Severity == Warning {
		s += "warning: "
	}
	s += d.Summary
	if d.Detail != "" {
		s += " (" + d.Detail + ")"
	}
	return s
}

// Error renders the diagnostic as `file:line:col: message`.
func (d *Diagnostic) Error() string { return d.header() }

// Sort orders diagnostics by file, line and column, keeping the order of equal positions.
func (ds Diagnostics) Sort() {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i].Pos, ds[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// Sources maps file names to their text, so diagnostics can quote the offending line.
type Sources map[string][]byte

// Render writes each diagnostic as `file:line:col: message`, then the source line and a caret
// under the column (tabs kept so the caret lines up).
func (ds Diagnostics) Render(src Sources) string {
	var b strings.Builder
	lines := map[string][]int{} // line starts per file, found once: many diagnostics stay linear
	for _, d := range ds {
		b.WriteString(d.header())
		b.WriteByte('\n')
		text := src[d.Pos.File]
		starts, ok := lines[d.Pos.File]
		if !ok && text != nil {
			starts = lineStarts(text)
			lines[d.Pos.File] = starts
		}
		line, ok := sourceLineAt(text, starts, d.Pos.Line)
		if !ok || d.Pos.Col < 1 || !printable(line) {
			continue
		}
		const maxShown = 160
		runes := []rune(line)
		col := d.Pos.Col - 1
		start := 0
		before, after := "", ""
		if len(runes) > maxShown {
			// Long lines are cut around the column so a 600 KB line prints in one screen;
			// a column past the end (a file changed since it was read) shows the end. An
			// ellipsis marks each cut end, so the excerpt is not read as the whole line.
			start = max(0, min(col-maxShown/2, len(runes)-maxShown))
			end := min(len(runes), start+maxShown)
			if start > 0 {
				before = "…"
			}
			if end < len(runes) {
				after = "…"
			}
			runes = runes[start:end]
		}
		b.WriteString("    ")
		b.WriteString(before)
		b.WriteString(string(runes))
		b.WriteString(after)
		b.WriteString("\n    ")
		if before != "" {
			b.WriteByte(' ')
		}
		for i := start; i < col && i-start < len(runes); i++ {
			if runes[i-start] == '\t' {
				b.WriteByte('\t')
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString("^\n")
	}
	return b.String()
}

// lineStarts returns the offset where each line of src starts.
func lineStarts(src []byte) []int {
	starts := make([]int, 1, bytes.Count(src, newline)+1)
	for off := 0; ; {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return starts
		}
		off += i + 1
		starts = append(starts, off)
	}
}

var newline = []byte{'\n'}

// sourceLineAt is sourceLine with the line starts already found.
func sourceLineAt(src []byte, starts []int, n int) (string, bool) {
	if src == nil || n < 1 || n > len(starts) {
		return "", false
	}
	return sourceLine(src[starts[n-1]:], 1)
}

func sourceLine(src []byte, n int) (string, bool) {
	if src == nil || n < 1 {
		return "", false
	}
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(src, '\n')
		if j < 0 {
			return "", false
		}
		src = src[j+1:]
	}
	if j := bytes.IndexByte(src, '\n'); j >= 0 {
		src = src[:j]
	}
	return strings.ToValidUTF8(strings.TrimRight(string(src), "\r"), "\uFFFD"), true
}

// DidYouMean returns the candidate closest to name (edit distance below 3 and below the
// name's length), or "".
func DidYouMean(name string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := levenshtein(name, c); d < bestD && d < len([]rune(name)) && c != name {
			best, bestD = c, d
		}
	}
	return best
}

func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// printable reports whether a source line is worth quoting (not binary noise).
func printable(line string) bool {
	for _, r := range line {
		if r == utf8.RuneError || (r < 0x20 && r != '\t') || r == 0x7f {
			return false
		}
	}
	return true
}
