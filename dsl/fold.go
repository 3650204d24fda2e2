package dsl

import (
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"rulesh/dsl/internal/syntax"
)

// Fold is an expression whose value is the sum of one share per element of a list, each
// share computed from that element alone: an aggregate (`sum`, `count` with a predicate,
// `len`) of a chain of `map` and `filter` over the list, e.g. `sum(map(1..10, attack()))`,
// `count(map(1..10, d(6)), # >= 5)`, `len(filter(map(1..10, d(6)), # >= 5))`,
// `sum(1..10, d(6))` or `count(1..10, d(6) >= 5)`. The exact odds of such an expression are
// the convolution of its shares' when the shares draw independently (analysis decides).
type Fold struct {
	// List is the list the chain starts from, as written.
	List string
	// PerElement is set when the first step over the list reads its element (`#` or a
	// `.field`): each element then has a share of its own; otherwise every share is alike.
	PerElement bool
	// Calls are the builtins the fold is made of, outermost first (a program that declared
	// a procedure of one of these names would not be folding).
	Calls []string

	src        string
	start, end int // List's byte span in src
}

// Share returns the expression whose value is element i's share: the fold over the list's
// element i alone, `(List)[i:i+1]` in place of the list.
func (f Fold) Share(i int) string {
	var b strings.Builder
	b.WriteString(f.src[:f.start])
	b.WriteString("(")
	b.WriteString(f.src[f.start:f.end])
	b.WriteString(")[")
	b.WriteString(strconv.Itoa(i))
	b.WriteString(":")
	b.WriteString(strconv.Itoa(i + 1))
	b.WriteString("]")
	b.WriteString(f.src[f.end:])
	return b.String()
}

// FoldOf tells whether src, as the language's scanner reads it, is a Fold as a whole. A
// text that reads `#index` anywhere is not (an element's place in the list would not be the
// same in its share), nor one with anything around the aggregate. `reduce(list, #acc + x,
// 0)` is one too, when x reads no `#acc` and binds tighter than its `+` (only `*`, `%`,
// `**`, `.` and brackets outside brackets): each element adds its x.
func FoldOf(src string) (Fold, bool) {
	var toks []lexer.Token
	bad := false
	accs := 0 // #acc read
	syntax.Scan(src, func(t lexer.Token) bool {
		switch {
		case t.Type == syntax.TokNewline:
			return true
		case t.Type == syntax.TokBad, len(toks) > syntax.MaxExprTokens:
			bad = true
			return false
		case t.Type == syntax.TokIdent && (t.Value == "index" || t.Value == "acc") && len(toks) > 0 && isHash(toks[len(toks)-1]):
			if t.Value == "index" {
				bad = true
				return false
			}
			accs++
		}
		toks = append(toks, t)
		return true
	})
	if bad || len(toks) == 0 {
		return Fold{}, false
	}
	p := foldParser{src: src, toks: toks}
	agg, args, ok := p.call(0, len(toks))
	if !ok {
		return Fold{}, false
	}
	f := Fold{src: src, Calls: []string{agg}}
	switch {
	case agg == "sum" && (len(args) == 1 || len(args) == 2),
		agg == "count" && len(args) == 2,
		agg == "len" && len(args) == 1:
		if accs > 0 {
			return Fold{}, false
		}
	case agg == "reduce" && len(args) == 3 && accs == 1:
		step, init := args[1], args[2]
		if init.to-init.from != 1 || toks[init.from].Value != "0" || toks[init.from].Type != syntax.TokNumber ||
			step.to-step.from < 4 || !isHash(toks[step.from]) || toks[step.from+2].Value != "+" {
			return Fold{}, false
		}
		x := span{step.from + 3, step.to}
		if !p.tight(x) {
			return Fold{}, false
		}
		args = []span{args[0], x}
	default:
		return Fold{}, false
	}
	// The steps over the list, outermost first: args[0] is a chain, args[1] (sum's or
	// count's predicate, reduce's term) a first step over it when the chain is the bare list.
	chain := args[0]
	first := span{}
	if len(args) == 2 {
		first = args[1]
	}
	steps := 0
	for {
		name, inner, ok := p.call(chain.from, chain.to)
		if !ok || (name != "map" && name != "filter") || len(inner) != 2 {
			break
		}
		f.Calls = append(f.Calls, name)
		chain, first = inner[0], inner[1]
		steps++
	}
	if steps == 0 && len(args) == 1 {
		return Fold{}, false // sum(list), len(list): no step draws anything per element
	}
	f.start, f.end = p.bytes(chain)
	for i := first.from; i < first.to; i++ {
		t := toks[i]
		// A . after an operand reads a field of it; elsewhere it is .field of the element.
		shorthand := t.Value == "." && t.Type == syntax.TokOp && (i == first.from || !operandEnd(toks[i-1]))
		if isHash(t) || shorthand {
			f.PerElement = true
		}
	}
	f.List = src[f.start:f.end]
	return f, true
}

// isHash reports whether t is the # of a predicate's element.
func isHash(t lexer.Token) bool { return t.Value == "#" && t.Type == syntax.TokOp }

// span is a run of tokens, [from, to).
type span struct{ from, to int }

// foldParser reads the calls of a Fold from tokens.
type foldParser struct {
	src  string
	toks []lexer.Token
}

// call reads toks[from:to] as exactly NAME(ARG, …) and returns the name and the arguments'
// spans (split at the commas outside brackets).
func (p *foldParser) call(from, to int) (string, []span, bool) {
	t := p.toks
	if to-from < 3 || t[from].Type != syntax.TokIdent || t[from+1].Value != "(" || t[to-1].Value != ")" {
		return "", nil, false
	}
	var args []span
	depth, start := 0, from+2
	for i := from + 1; i < to; i++ {
		depth += syntax.BracketDelta(t[i])
		switch {
		case depth == 0 && i != to-1:
			return "", nil, false // the call's bracket closes before the end
		case depth == 1 && t[i].Type == syntax.TokComma:
			args = append(args, span{start, i})
			start = i + 1
		}
	}
	if depth != 0 {
		return "", nil, false
	}
	args = append(args, span{start, to - 1})
	for _, a := range args {
		if a.from >= a.to {
			return "", nil, false
		}
	}
	return t[from].Value, args, true
}

// tight reports whether the tokens of s hold, outside brackets, no operator binding as
// loosely as + or more loosely (so that #acc + s adds s), nor a word operator (and, in, …).
func (p *foldParser) tight(s span) bool {
	depth := 0
	for _, t := range p.toks[s.from:s.to] {
		depth += syntax.BracketDelta(t)
		if depth > 0 || syntax.BracketDelta(t) != 0 {
			continue
		}
		switch t.Type {
		case syntax.TokOp:
			switch t.Value {
			case "*", "%", "**", "^", ".", "#", "?.":
			default:
				return false
			}
		case syntax.TokIdent:
			switch t.Value {
			case "and", "or", "not", "in", "contains", "matches", "startsWith", "endsWith":
				return false
			}
		case syntax.TokComma:
			return false
		}
	}
	return true
}

// bytes returns the byte span of a run of tokens in the source: from its first token to the
// end of its last.
func (p *foldParser) bytes(s span) (int, int) {
	last := p.toks[s.to-1]
	return p.toks[s.from].Pos.Offset, last.Pos.Offset + len(last.Value)
}

// operandEnd reports whether a token can end an operand (a name, a literal, a closing
// bracket), so that a . after it reads a field.
func operandEnd(t lexer.Token) bool {
	switch t.Type {
	case syntax.TokIdent, syntax.TokNumber, syntax.TokString, syntax.TokDice, syntax.TokCard:
		return true
	}
	return t.Value == ")" || t.Value == "]" || t.Value == "}"
}
