package lsp

import (
	"sort"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"rulesh/dsl"
)

// The language counts columns in characters (runes) from 1; the protocol counts UTF-16 code
// units from 0. Both count lines alike, from 1 and from 0.

// position converts a position of the language into the protocol's.
func (f *file) position(p dsl.Pos) protocol.Position {
	line := max(p.Line-1, 0)
	if line >= len(f.lines) {
		return protocol.Position{Line: protocol.UInteger(line)}
	}
	units, col := 0, 1
	for _, r := range f.lines[line] {
		if col >= p.Col {
			break
		}
		units += utf16Len(r)
		col++
	}
	return protocol.Position{Line: protocol.UInteger(line), Character: protocol.UInteger(units)}
}

// pos converts a position of the protocol into the language's (line and rune column).
func (f *file) pos(p protocol.Position) (line, col int) {
	line = int(p.Line) + 1
	if int(p.Line) >= len(f.lines) {
		return line, 1
	}
	units, col := 0, 1
	for _, r := range f.lines[p.Line] {
		if units >= int(p.Character) {
			break
		}
		units += utf16Len(r)
		col++
	}
	return line, col
}

func (f *file) rangeOf(start, end dsl.Pos) protocol.Range {
	return protocol.Range{Start: f.position(start), End: f.position(end)}
}

// endPosition is just past the file's last character.
func (f *file) endPosition() protocol.Position {
	last := len(f.lines) - 1
	n := 0
	for _, r := range f.lines[last] {
		n += utf16Len(r)
	}
	return protocol.Position{Line: protocol.UInteger(last), Character: protocol.UInteger(n)}
}

func utf16Len(r rune) int {
	if r >= 0x10000 && r <= utf8.MaxRune {
		return 2
	}
	return 1
}

// before reports whether position a comes before b.
func before(a, b dsl.Pos) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
}

// within reports whether line:col lies in [start, stop).
func within(line, col int, start, stop dsl.Pos) bool {
	p := dsl.Pos{Line: line, Col: col}
	return !before(p, start) && before(p, stop)
}

// nameAt finds the name under line:col (a cursor just past a name counts as on it). The
// names are in the order of the text, so the line's are found by a binary search.
func (f *file) nameAt(line, col int) *dsl.Name {
	i := sort.Search(len(f.names), func(i int) bool { return f.names[i].Pos.Line >= line })
	for ; i < len(f.names) && f.names[i].Pos.Line == line; i++ {
		n := &f.names[i]
		if n.Pos.Col <= col && col <= n.End.Col {
			return n
		}
	}
	return nil
}
