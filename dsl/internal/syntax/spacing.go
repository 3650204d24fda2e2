package syntax

import (
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// The spacing within a line, decided from the scanner's tokens (never from the raw text): a
// token is printed exactly as written, dice notation included (`3d6>=12` is one token, so its
// glued operators are never spaced), and only the blanks between tokens change. Where the
// canonical spacing is not certain (a unary operator, `..`, `#`, braces), the blank or its
// absence is kept as written, collapsed to one space.

// spaceLine returns line (already trimmed) with canonical spacing between its tokens. A line
// the scanner cannot read cleanly, or whose tokens would read differently once spaced, is
// returned as it is.
func spaceLine(line string) string {
	type tok struct {
		lexer.Token
		gap string // the text between the previous token (or the line's start) and this one
	}
	var toks []tok
	end, bad := 0, false
	Scan(line, func(t lexer.Token) bool {
		if t.Type == TokBad || t.Type == TokNewline {
			bad = true
			return false
		}
		toks = append(toks, tok{t, line[end:t.Pos.Offset]})
		end = t.Pos.Offset + len(t.Value)
		return true
	})
	if bad || len(toks) == 0 {
		return line
	}
	tail := line[end:] // blanks and a comment
	var b strings.Builder
	// Per open bracket on the line: its kind and the `?` whose `:` is still to come.
	type level struct {
		bracket string
		ternary int
	}
	stack := []level{{}}
	ternaryColon := false // the previous token is the `:` of a `?`
	for i, t := range toks {
		top := &stack[len(stack)-1]
		if i > 0 {
			c := spot{start: toks[0].Token, prev: toks[i-1].Token, t: t.Token, prevGap: toks[i-1].gap, gap: t.gap, first: i == 1,
				inTernary: isOp(t.Token, ":") && top.ternary > 0 || ternaryColon, inIndex: top.bracket == "["}
			if i > 1 {
				c.before = toks[i-2].Token
			}
			if i+1 < len(toks) {
				c.nextGap = toks[i+1].gap
			}
			b.WriteString(c.gapFor())
		}
		ternaryColon = false
		switch {
		case isOp(t.Token, "?"):
			top.ternary++
		case isOp(t.Token, ":") && top.ternary > 0:
			top.ternary--
			ternaryColon = true
		case BracketDelta(t.Token) > 0:
			stack = append(stack, level{bracket: t.Value})
		case BracketDelta(t.Token) < 0 && len(stack) > 1:
			stack = stack[:len(stack)-1]
		}
		b.WriteString(t.Value)
	}
	if strings.Trim(tail, " \t") != "" {
		b.WriteString(tail)
	}
	out := b.String()
	if !sameTokens(line, out) {
		return line
	}
	return out
}

// sameTokens reports whether a and b scan to the same tokens.
func sameTokens(a, b string) bool {
	var ta []lexer.Token
	Scan(a, func(t lexer.Token) bool { ta = append(ta, t); return true })
	i, same := 0, true
	Scan(b, func(t lexer.Token) bool {
		if i >= len(ta) || ta[i].Type != t.Type || ta[i].Value != t.Value {
			same = false
			return false
		}
		i++
		return true
	})
	return same && i == len(ta)
}

// blank reports whether gap is made of spaces and tabs only (a BOM or other text is kept).
func blank(gap string) bool { return strings.Trim(gap, " \t") == "" }

// kept is the gap as written, collapsed: none stays none, one blank or more becomes one space,
// except a run of two or more kept where it aligns a column (see aligns).
func kept(gap string, align bool) string {
	switch {
	case gap == "":
		return ""
	case align && len(gap) >= 2:
		return gap
	default:
		return " "
	}
}

// isOpen and isClose are the brackets that take no space inside: ( [ and ) ]. Braces keep
// their spacing (`{a: 1}` and `{ nom: "A" }` are both written).
func isOpen(t lexer.Token) bool  { return t.Type == TokPunct && (t.Value == "(" || t.Value == "[") }
func isClose(t lexer.Token) bool { return t.Type == TokPunct && (t.Value == ")" || t.Value == "]") }

func isOp(t lexer.Token, vals ...string) bool {
	if t.Type != TokOp {
		return false
	}
	for _, v := range vals {
		if t.Value == v {
			return true
		}
	}
	return false
}

// keywords reports whether s is a word after which an operator is unary (`return -1`, `if !x`).
func keywords(s string) bool {
	switch s {
	case "return", "and", "or", "not", "in", "if", "else", "emit", "let", "while", "for",
		"then":
		return true
	}
	return false
}

// endsValue reports whether t ends an operand, so that an operator after it is binary. prev is
// the token before t: a `%` glued to a number is a percentage (`40%`), which ends a value.
func endsValue(prev, t lexer.Token, gap string) bool {
	switch t.Type {
	case TokNumber, TokString, TokDice, TokCard:
		return true
	case TokIdent:
		return !keywords(t.Value)
	case TokPunct:
		return t.Value == ")" || t.Value == "]" || t.Value == "}"
	case TokOp:
		return t.Value == "%" && prev.Type == TokNumber && gap == ""
	}
	return false
}

// binaryOps take one space on each side when they follow an operand.
var binaryOps = []string{"==", "!=", "<=", ">=", "+=", "-=", "*=", "&&", "||", "??", "**",
	"+", "-", "*", "/", "<", ">", "="}

// spot is the place between two tokens, prev and t: start is the line's first token, before is the token before prev; prevGap,
// gap and nextGap are the text before prev, t and the token after t as written; first says
// prev is the line's first token; inTernary that t, or prev, is the `:` of a `?` on the line; inIndex
// that the innermost open bracket is `[`.
type spot struct {
	start, before, prev, t    lexer.Token
	prevGap, gap, nextGap     string
	first, inTernary, inIndex bool
}

// gapFor returns the blanks to print between prev and t.
func (c spot) gapFor() string {
	prev, t, gap := c.prev, c.t, c.gap
	if !blank(gap) {
		return gap
	}
	switch {
	case isOp(prev, ".", "?.") && t.Type == TokNumber, isOp(t, ".", "?.") && prev.Type == TokNumber:
		return gap // `1 . 5` or `. 0` glued would read as a number (`1.5`, `.0`)
	case t.Type == TokComma, isClose(t), isOpen(prev), isOp(prev, ".", "?."):
		return ""
	case isOp(t, ".", "?.") && endsValue(c.before, prev, c.prevGap):
		return "" // a field; a `.` after a comma or an operator starts a predicate (`.état`)
	case isOp(t, "%") && prev.Type == TokNumber && gap == "":
		return "" // a percentage, `40%`
	}
	// Two blanks or more align a column (values in a table, strings after options), except
	// after a line's first word: `rule    hit` is `rule hit`.
	if len(gap) >= 2 && !(c.first && t.Type == TokIdent) {
		return gap
	}
	colon := isOp(t, ":")
	glued := gap == "" && c.nextGap == ""
	switch {
	case prev.Type == TokComma && gap == "" && c.before.Type == TokNumber && t.Type == TokNumber && !c.inIndex:
		return "" // a hex's coordinates, (4,3)
	case prev.Type == TokComma:
		return " "
	case colon && isOp(prev, "?"):
		return gap // `?:`
	case colon && c.inTernary:
		return " "
	case colon && prev.Type == TokPunct && prev.Value == ")" && c.start.Type == TokIdent,
		colon && prev.Type == TokIdent && (isOpen(c.before) || c.before.Type == TokComma):
		return "" // `): bool`, `(h: Hero`; a table's band `(0 .. 5) : x` keeps its blank
	case colon:
		return kept(gap, false)
	case isOp(prev, ":") && c.inTernary:
		return " "
	case isOp(prev, ":") && !isOp(c.before, "?"):
		if c.prevGap == "" && gap == "" && (c.inIndex || c.before.Type == TokNumber) {
			return "" // a ratio 1:3, a slice [0:1]
		}
		return " "
	case isOp(t, "-") && isClose(prev) && glued,
		isOp(prev, "-") && isClose(c.before) && c.prevGap == "" && gap == "":
		return "" // a map's edge (4,3)-(5,3)
	case isOp(t, binaryOps...) && endsValue(c.before, prev, c.prevGap):
		if isOp(t, "-", "+") && prev.Type == TokIdent && gap != "" && c.nextGap == "" {
			return gap // `f -1`: perhaps a unary minus after a word the list does not know
		}
		return " "
	case isOp(prev, binaryOps...) && endsValue(lexer.Token{}, c.before, ""):
		return " "
	}
	return kept(gap, false)
}
