package syntax

import (
	"bytes"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// Format returns a rule file in canonical layout: two spaces of indentation per open bracket,
// a continuation line (after a line ending with an operator) one level deeper, no trailing
// blanks, at most one blank line in a row, one final newline; within a line, the canonical
// spacing between tokens (see spaceLine), every token as written. One token changes: an entity's
// field in the older form `pv = 12` becomes `pv: 12` (see modernize); the meaning is the
// same. The file must pass the same checks as the first stage of Load (text, nesting,
// grammar); the diagnostics are those check would print.
func Format(name string, src []byte) ([]byte, error) {
	f, d := Parse(name, src)
	if d != nil {
		return nil, Diagnostics{d}
	}
	src = modernize(f, src)
	lines := strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n")
	var out strings.Builder
	depth := 0
	continued := false
	blank := 0
	for _, raw := range lines {
		// Only the blanks the lexer skips: trimming other spaces (U+00A0…) would turn an
		// unexpected character into valid code.
		line := strings.Trim(raw, " \t\r")
		if line == "" {
			blank++
			continue
		}
		if blank > 0 && out.Len() > 0 {
			out.WriteString("\n")
		}
		blank = 0
		opens, closes, leadingCloses, endsWithOp := scanLine(line)
		indent := depth - leadingCloses
		if continued {
			indent++
		}
		out.WriteString(strings.Repeat("  ", max(indent, 0)))
		out.WriteString(spaceLine(line))
		out.WriteString("\n")
		depth += opens - closes
		if depth < 0 {
			depth = 0
		}
		continued = endsWithOp && opens == closes
	}
	return []byte(out.String()), nil
}

// scanLine counts a line's brackets outside strings and comments, the closing brackets it
// starts with, and whether it ends with a binary operator (the statement goes on).
func scanLine(line string) (opens, closes, leadingCloses int, endsWithOp bool) {
	leading := true
	var prev, last lexer.Token
	Scan(line, func(t lexer.Token) bool {
		switch BracketDelta(t) {
		case 1:
			opens++
			leading = false
		case -1:
			closes++
			if leading {
				leadingCloses++
			}
		default:
			leading = false
		}
		prev, last = last, t
		return true
	})
	return opens, closes, leadingCloses, ContinuesLine(prev, last)
}

// modernize rewrites the entity fields of f written in the older form, `name = value`, as
// `name: value`, the constructor's form. The blanks before `=` move after the colon, less
// one, so values aligned in a column stay aligned; at least one space follows the colon.
// Nothing else changes; a field whose text is not the name, blanks and `=` is left as it is.
func modernize(f *File, src []byte) []byte {
	var out []byte
	last := 0
	for _, d := range f.Decls {
		if d.Entity == nil {
			continue
		}
		for _, fi := range d.Entity.Fields {
			if !fi.OldSep() {
				continue
			}
			nameEnd, eq := fi.Pos.Offset+len(fi.Name), fi.Sep.Pos.Offset
			if nameEnd > eq || eq >= len(src) || src[eq] != '=' || string(src[fi.Pos.Offset:nameEnd]) != fi.Name {
				continue
			}
			after := eq + 1
			for after < len(src) && (src[after] == ' ' || src[after] == '\t') {
				after++
			}
			pad := append(bytes.Clone(src[nameEnd:eq]), src[eq+1:after]...)
			if len(bytes.Trim(pad, " \t")) != 0 {
				continue
			}
			if len(pad) > 1 {
				pad = pad[1:]
			} else {
				pad = []byte(" ")
			}
			out = append(out, src[last:nameEnd]...)
			out = append(out, ':')
			out = append(out, pad...)
			last = after
		}
	}
	if out == nil {
		return src
	}
	return append(out, src[last:]...)
}
