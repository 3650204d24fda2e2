package syntax

import (
	"regexp"
	"strings"
)

// participle ends a syntax error with what the grammar expected, written in the grammar's
// own notation: `(expected ")" (":" TypeRef)? Block)`. plainExpected keeps what may come
// first, in the language's terms (`(expected ")", ":" or "{")`), and drops the clause when
// it names something it cannot put in those terms.
func plainExpected(msg string) string {
	i := strings.Index(msg, " (expected ")
	if i < 0 || !strings.HasSuffix(msg, ")") {
		return msg
	}
	head := msg[:i]
	first, ok := firstOf(grammarUnits(msg[i+len(" (expected ") : len(msg)-1]))
	if !ok || len(first) == 0 {
		return head
	}
	return head + " (expected " + joinOr(first) + ")"
}

// grammarUnits splits participle's notation into literals, <token kinds>, names, brackets,
// | and the ? * + suffixes.
func grammarUnits(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ':
			i++
		case c == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(s))
			out = append(out, s[i:j])
			i = j
		case c == '<':
			j := strings.IndexByte(s[i:], '>')
			if j < 0 {
				return append(out, s[i:])
			}
			out = append(out, s[i:i+j+1])
			i += j + 1
		case strings.IndexByte("()|?*+", c) >= 0:
			out = append(out, s[i:i+1])
			i++
		default:
			j := i
			for j < len(s) && strings.IndexByte(` "<()|?*+`, s[j]) < 0 {
				j++
			}
			out = append(out, s[i:j])
			i = j
		}
	}
	return out
}

// unitWord says what a grammar unit means to a user, or is "".
func unitWord(s string) string {
	switch s {
	case "<string>":
		return "a string"
	case "<ident>":
		return "a name"
	case "<dice>":
		return "a name"
	case "<number>":
		return "a number"
	case "<card>":
		return "a card"
	case "<newline>":
		return "a new line"
	case "<comma>":
		return `","`
	case "Expr":
		return "an expression"
	case "Head":
		return "an expression"
	case "Key":
		return "a table key"
	case "Block":
		return `"{"`
	case "TypeRef":
		return "a type"
	}
	return ""
}

// firstOf returns what may start a sequence of grammar units: the first term's starts,
// and the next term's too while the terms are optional. ok is false when a unit has no
// plain meaning.
func firstOf(units []string) (first []string, ok bool) {
	for len(units) > 0 {
		var rest, starts []string
		if units[0] == "(" {
			end := closing(units)
			if end < 0 {
				return nil, false
			}
			for _, alt := range splitAlts(units[1:end]) {
				s, ok := firstOf(alt)
				if !ok {
					return nil, false
				}
				starts = append(starts, s...)
			}
			rest = units[end+1:]
		} else {
			u := units[0]
			switch {
			case strings.HasPrefix(u, `"`):
				starts = []string{u}
			case unitWord(u) != "":
				starts = []string{unitWord(u)}
			default:
				return nil, false
			}
			rest = units[1:]
		}
		first = append(first, starts...)
		optional := len(rest) > 0 && (rest[0] == "?" || rest[0] == "*")
		if len(rest) > 0 && (rest[0] == "?" || rest[0] == "*" || rest[0] == "+") {
			rest = rest[1:]
		}
		if !optional {
			return first, true
		}
		units = rest
	}
	return first, true
}

// closing finds the bracket that closes units[0].
func closing(units []string) int {
	depth := 0
	for i, u := range units {
		switch u {
		case "(":
			depth++
		case ")":
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// splitAlts splits units at the top-level |.
func splitAlts(units []string) [][]string {
	var out [][]string
	depth, start := 0, 0
	for i, u := range units {
		switch {
		case u == "(":
			depth++
		case u == ")":
			depth--
		case u == "|" && depth == 0:
			out = append(out, units[start:i])
			start = i + 1
		}
	}
	return append(out, units[start:])
}

// joinOr writes `a`, `a or b`, `a, b or c`, each once.
func joinOr(items []string) string {
	var uniq []string
	seen := map[string]bool{}
	for _, it := range items {
		if !seen[it] {
			seen[it] = true
			uniq = append(uniq, it)
		}
	}
	if len(uniq) == 1 {
		return uniq[0]
	}
	return strings.Join(uniq[:len(uniq)-1], ", ") + " or " + uniq[len(uniq)-1]
}

// exprTokenRE matches how expr-lang names a token in its messages: Number("2"), Bracket(")");
// it is compiled on first use, as only an error message needs it.
var exprTokenRE = &Lazy[*regexp.Regexp]{Build: func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:Identifier|Number|String|Operator|Bracket)\(("(?:[^"\\]|\\.)*")\)`)
}}

// PlainExprMessage puts expr-lang's syntax messages in the language's terms, as
// plainExpected does for the grammar's: `unexpected token Number("2")` reads
// `unexpected token "2"`, `unexpected token EOF` reads `unexpected end of input`.
func PlainExprMessage(msg string) string {
	msg = exprTokenRE.Get().ReplaceAllString(msg, "$1")
	return strings.Replace(msg, "unexpected token EOF", "unexpected end of input", 1)
}
