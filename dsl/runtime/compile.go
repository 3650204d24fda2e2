package runtime

import (
	"regexp"
	"sort"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/expr-lang/expr/vm"

	"rulesh/stdlib/dice"
)

var IdentRE = regexp.MustCompile(`^[\p{L}_][\p{L}\p{N}_]*$`)

// Expr is one compiled expression with where it came from, so run-time errors point into the
// rule file. Literals and bare names skip the VM.
type Expr struct {
	Pos   Pos
	Text  string
	Prog  *vm.Program
	Type  *Type
	Start lexer.Position
	// origin maps rune offsets in the compiled text back to the text as written.
	Origin []int
	IsLit  bool
	Lit    any
	Ident  string
	RollOf *dice.Expr // a rolled table's default key: roll these dice
	// Simple, when set, evaluates the expression without the VM (see simple.go).
	Simple *Simple
	// globals are the globals the expression reads.
	Globals []string
}

// posAt converts a rune offset in the compiled text into a file position.
func (x *Expr) PosAt(from int) lexer.Position {
	if x.Origin != nil && from >= 0 && from < len(x.Origin) {
		from = x.Origin[from]
	}
	p := x.Start
	for i, r := range []rune(x.Text) {
		if i >= from {
			break
		}
		if r == '\n' {
			p.Line++
			p.Column = 1
		} else {
			p.Column++
		}
	}
	return p
}

// sortedKeys returns a map's keys in order (for deterministic listings).
func SortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
