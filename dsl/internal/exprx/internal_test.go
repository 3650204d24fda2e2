package exprx

import (
	"fmt"
	"strings"
	"testing"

	exprbuiltin "github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/file"

	"rulesh/dsl/internal/lib/cards"
	"rulesh/dsl/internal/lib/core"
	"rulesh/dsl/internal/lib/dice"
	"rulesh/dsl/internal/lib/hex"
	"rulesh/dsl/internal/runtime"
	stdcards "rulesh/stdlib/cards"
)

// TestPureFunctionsAreNotBuiltins: no pure function shares a name with a builtin of the
// libraries (a rule calling it would reach only one of them).
func TestPureFunctionsAreNotBuiltins(t *testing.T) {
	for _, lib := range []map[string]runtime.Builtin{runtime.Core(), dice.Builtins(), cards.Builtins(), hex.Builtins()} {
		for name := range lib {
			if _, ok := core.Funcs()[name]; ok {
				t.Errorf("builtin %s is also a pure function", name)
			}
		}
	}
}

// TestBuiltinsDoNotShadowExprs: no builtin of the libraries shares a name with one of
// expr-lang's builtins (a rule calling it would reach the other).
func TestBuiltinsDoNotShadowExprs(t *testing.T) {
	for _, lib := range []map[string]runtime.Builtin{runtime.Core(), dice.Builtins(), cards.Builtins(), hex.Builtins()} {
		for name := range lib {
			for _, n := range exprbuiltin.Names {
				if n == name {
					t.Errorf("builtin %s shadows expr-lang's", name)
				}
			}
		}
	}
}

// globalsScope sees the program's consts as globals, and no local.
type globalsScope struct{ prog *runtime.Program }

func (s globalsScope) Local(string) (*runtime.Type, bool) { return nil, false }
func (s globalsScope) Global(name string) (*runtime.Type, bool) {
	if c, ok := s.prog.Globals[name].(*runtime.Const); ok {
		return c.Type, true
	}
	return nil, false
}
func (s globalsScope) InProc() bool                           { return false }
func (s globalsScope) DefaultsNow(*runtime.Kind) string       { return "" }
func (s globalsScope) Suggest(string, func() []string) string { return "" }

// Checking stays linear in the number of declarations: an expression's environment holds
// the names it uses, not a copy of every global (which made 10,000 consts take 8 s).
func TestEnvironmentIsPerExpression(t *testing.T) {
	for _, n := range []int{100, 400} {
		p := &runtime.Program{Library: &runtime.Library{}, Globals: map[string]runtime.Global{}}
		for i := range n {
			name := fmt.Sprintf("c%d", i)
			p.Globals[name] = &runtime.Const{Name: name, Type: runtime.IntType, Value: i}
		}
		env := NewCompiler(p).envNature(globalsScope{p}, "c1 + c2 + nothing")
		if len(env.Fields) != 3 { // __rt, c1, c2
			t.Errorf("%d consts: the environment of c1 + c2 holds %d names", n, len(env.Fields))
		}
	}
}

// TestWithoutStack: a panic expr's compiler recovered is said in one line, without its Go
// stack; other messages are kept.
func TestWithoutStack(t *testing.T) {
	got := withoutStack("invalid memory address or nil pointer dereference\ngoroutine 1 [running]:\nruntime/debug.Stack()\n")
	if got != "internal error compiling this expression: invalid memory address or nil pointer dereference (please report it with the rule that caused it)" {
		t.Errorf("got %q", got)
	}
	if got := withoutStack("unknown name x"); got != "unknown name x" {
		t.Errorf("got %q", got)
	}
	// expr's compiler gives a recovered panic as a plain error (fmt.Errorf), not a
	// file.Error: its stack goes too (it reached the user after 1d6 + str(1, 2)).
	plain := plainCompileError(fmt.Errorf("%v\n%s", "index out of range [1] with length 1", "goroutine 1 [running]:\nruntime/debug.Stack()\n"))
	if want := "internal error compiling this expression: index out of range [1] with length 1 (please report it with the rule that caused it)"; plain.Error() != want {
		t.Errorf("plain error: got %q", plain)
	}
	fe := plainCompileError(&file.Error{Message: "boom\ngoroutine 7 [running]:\n"})
	if !strings.HasPrefix(fe.(*file.Error).Message, "internal error compiling this expression: boom") {
		t.Errorf("file.Error: got %q", fe)
	}
	if plainCompileError(nil) != nil {
		t.Error("nil error made non-nil")
	}
}

// mayHoldLiterals finds the suits of card literals anywhere in a text, and nothing in a text
// whose characters only look like them or share their first bytes (♡ is U+2661).
func TestMayHoldLiteralsSuits(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"main == [A♠]", true}, {"x + 10♥", true}, {"é + Q♦", true}, {"K♣", true},
		{"x + y", false}, {"\"♡ ♤\"", false}, {"nom == \"éàü\"", false}, {"3d6 + 1", true},
	} {
		if got := mayHoldLiterals(c.text); got != c.want {
			t.Errorf("mayHoldLiterals(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// TestSameCard: sameCard tells what DeepEqual of the two cards would, or says it cannot
// (only the decks differ): the same card, two cards of one deck, a copy, and the same card
// of another deck.
func TestSameCard(t *testing.T) {
	d := stdcards.NewDeck("d", stdcards.StandardSuits(), stdcards.StandardRanks(), 0)
	other := stdcards.NewDeck("e", stdcards.StandardSuits(), stdcards.StandardRanks(), 0)
	card := func(deck *stdcards.Deck, s string) *stdcards.Card {
		c, err := deck.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	q := card(d, "Q♣")
	cp := *q
	meaning := *q
	meaning.Meaning = "autre"
	for _, tc := range []struct {
		name     string
		x, y     *stdcards.Card
		eq, sure bool
	}{
		{"the same card", q, q, true, true},
		{"another value", q, card(d, "K♣"), false, true},
		{"another suit", q, card(d, "Q♠"), false, true},
		{"a copy", q, &cp, true, true},
		{"another meaning", q, &meaning, false, true},
		{"another deck", q, card(other, "Q♣"), false, false},
	} {
		if eq, sure := sameCard(tc.x, tc.y); eq != tc.eq || sure != tc.sure {
			t.Errorf("%s: sameCard = %v, %v; want %v, %v", tc.name, eq, sure, tc.eq, tc.sure)
		}
	}
}
