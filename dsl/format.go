package dsl

import (
	"strings"
)

// Format returns a rule file in canonical layout: two spaces of indentation per open bracket,
// a continuation line (after a line ending with an operator) one level deeper, no trailing
// blanks, at most one blank line in a row, one final newline. Tokens are not changed, so the
// meaning is the same; the file must parse first.
func Format(name string, src []byte) ([]byte, error) {
	if _, err := fileParser.ParseBytes(name, src); err != nil {
		return nil, Diagnostics{parseDiag(name, err)}
	}
	lines := strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n")
	var out strings.Builder
	depth := 0
	continued := false
	blank := 0
	for _, raw := range lines {
		line := strings.TrimSpace(raw)
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
		out.WriteString(line)
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
	lex, err := ruleLexer.LexString("", line)
	if err != nil {
		return 0, 0, 0, false
	}
	leading := true
	var last string
	var lastType = tokNewline
	for {
		t, err := lex.Next()
		if err != nil || t.EOF() {
			break
		}
		if t.Type == tokPunct {
			switch t.Value {
			case "(", "[", "{":
				opens++
				leading = false
			case ")", "]", "}":
				closes++
				if leading {
					leadingCloses++
				}
			}
		} else {
			leading = false
		}
		last, lastType = t.Value, t.Type
	}
	if lastType == tokOp {
		switch last {
		case "+", "-", "*", "/", "%", "**", "&&", "||", "??", "==", "!=", "<", "<=", ">", ">=", "?", ":", "..", "|":
			endsWithOp = true
		}
	}
	if lastType == tokIdent && (last == "and" || last == "or") {
		endsWithOp = true
	}
	return opens, closes, leadingCloses, endsWithOp
}
