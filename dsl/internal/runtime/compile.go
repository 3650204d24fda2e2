package runtime

import (
	"regexp"
	"sort"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"

	"rulesh/stdlib/dice"
)

// IdentRE matches a whole name as the language spells it: a letter or _, then letters,
// digits or _. The printer uses it to decide whether a record key needs quotes; exported for
// the checker, which validates declared names with it. It is compiled on first use.
var IdentRE = &Lazy[*regexp.Regexp]{Build: func() *regexp.Regexp {
	return regexp.MustCompile(`^[\p{L}_][\p{L}\p{N}_]*$`)
}}

// IsIdent reports what IdentRE matches, without the regular expression: the printer asks it
// of every key of every map it shows.
func IsIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r < utf8.RuneSelf {
			// The letters and digits of ASCII are the ones unicode's tables give it.
			if r != '_' && !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') && (i == 0 || r < '0' || r > '9') {
				return false
			}
			continue
		}
		if !unicode.IsLetter(r) && (i == 0 || !unicode.IsNumber(r)) {
			return false
		}
	}
	return true
}

// Code is an expression compiled by the expression engine (package dsl/internal/exprx, the
// only one that knows expr-lang), run through it. A Code is immutable and may be run by many
// Machines at once.
type Code interface {
	// Run evaluates the code against env. vm is the engine's reusable state for the running
	// Machine at the current nesting depth: nil at first, kept there by Run for the next
	// evaluation at that depth (an engine's VM is not re-entrant). memoryBudget bounds what
	// the evaluation allocates. A failure inside the expression is an *ExprError.
	Run(vm *any, env map[string]any, memoryBudget uint) (any, error)
}

// ExprError is an expression's failure as its engine reports it: At is the rune offset in
// the compiled text where it happened, Msg is in the language's words, OutOfMemory says the
// engine's memory budget ran out. Err, the engine's own error, may wrap a RuntimeError
// raised deeper (in a procedure the expression called): that one is reported as it is.
type ExprError struct {
	At          int
	Msg         string
	OutOfMemory bool
	Err         error
}

// Error implements error.
func (e *ExprError) Error() string { return e.Msg }

// Unwrap gives the engine's error.
func (e *ExprError) Unwrap() error { return e.Err }

// Expr is one compiled expression with where it came from, so run-time errors point into the
// rule file. The checker builds it and exprx fills what compiling tells (Code, Type, Origin,
// Fast, Names, Globals); it is read-only afterwards. Literals, bare names and rolled defaults
// skip the VM: Eval looks at IsLit, Ident, RollOf, Tmpl and Fast, in that order, before Code.
type Expr struct {
	// Fast, Ident and IsLit come first, on one cache line: every statement reads the three
	// to choose how it runs the expression (fastOf), and Fast is what it runs.
	//
	// Fast, when set, evaluates the expression without the VM (see fast.go).
	Fast Fast
	// Ident, when set, is the name of the local the expression reads, and all it does.
	Ident string
	// IsLit says the expression is the literal Lit.
	IsLit bool
	// Pos is where the expression starts, for diagnostics.
	Pos Pos
	// Text is the expression as compiled (after the rewrites of the rule's own text).
	Text string
	// Code runs the expression when none of the shortcuts below applies.
	Code Code
	// Type is the expression's static type, as the checker inferred it.
	Type *Type
	// Start is the parser's position of Text's first rune; PosAt counts from it.
	Start lexer.Position
	// Origin maps rune offsets in the compiled text back to the text as written (nil when
	// they are the same).
	Origin []int
	// Names are the names Fast reads, whose slots the program's resolver sets.
	Names []*NameRef
	// Lit is the literal's value, when IsLit.
	Lit any
	// IdentSlot is Ident's slot plus one, when it is a local with one (0: the frame's map).
	IdentSlot int
	RollOf    *dice.Expr // a rolled table's default key: roll these dice
	// RollPlus, with RollOf, is what the roll adds to its dice (roll 1d6 + m): the key is
	// then the sum, a number.
	RollPlus *Expr
	// Tmpl, when set, is the template the expression renders: a string literal with
	// {holes} standing alone as a statement's value.
	Tmpl *Template
	// Globals are the globals the expression reads, so its frame has them (set by the
	// checker).
	Globals []string
	// CallOf, when set, is the procedure the expression is one call of, and all it does:
	// its value is of the procedure's result type, or nil (a let of it keeps the mark,
	// ResolveSlots).
	CallOf *Proc
	// FieldOf, when set, is the field of a name the expression reads, and all it does
	// (arme = f.arme): its value is of the field's type when the name holds a record of a
	// known kind (ReturnStmt.FieldBy, ArgNames).
	FieldOf *FieldRead
}

// FieldSite is one read of a field of a name the frame holds, Obj.Field, in an expression's
// closures (Program.AddFieldSites). Keep, set at load (keepFields), is one more than the
// index of the value a frame keeps of it once read in a call (Frame.Kept), shared by every
// read of the same field of the same parameter in the procedure; 0: read each time.
type FieldSite struct {
	Obj   *NameRef
	Field string
	Keep  int
}

// FieldRead is an expression that reads a field of a name the frame holds, Obj.Field.
type FieldRead struct {
	Obj   *NameRef
	Field string
}

// PosAt converts a rune offset in the compiled text into a file position.
func (x *Expr) PosAt(from int) lexer.Position {
	if x.Origin != nil && from >= 0 && from < len(x.Origin) {
		from = x.Origin[from]
	}
	p := x.Start
	i := 0 // runes, where range counts bytes (a slice of runes was an allocation per call)
	for _, r := range x.Text {
		if i >= from {
			break
		}
		if r == '\n' {
			p.Line++
			p.Column = 1
		} else {
			p.Column++
		}
		i++
	}
	return p
}

// SortedKeys returns a map's keys in order (for deterministic listings).
func SortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
