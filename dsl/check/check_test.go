package check

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"rulesh/dsl/lib/cards"
	"rulesh/dsl/lib/dice"
	"rulesh/dsl/lib/hex"
	"rulesh/dsl/runtime"
	"rulesh/dsl/syntax"
)

// testLibrary is the library package dsl assembles, for the checker's own tests.
func testLibrary() *runtime.Library {
	all := map[string]runtime.Builtin{}
	for _, lib := range []map[string]runtime.Builtin{runtime.Core(), dice.Builtins(), cards.Builtins(), hex.Builtins()} {
		for name, b := range lib {
			all[name] = b
		}
	}
	return &runtime.Library{Builtins: all}
}

type memFiles map[string][]byte

func (m memFiles) ReadFile(name string) ([]byte, error) {
	if b, ok := m[name]; ok {
		return b, nil
	}
	return nil, errors.New("no such file")
}

// checkSource parses and checks one file, and returns the compiler to look into.
func checkSource(t *testing.T, name string, src []byte) *compiler {
	t.Helper()
	files, sources, diags := syntax.ParseFiles(memFiles{name: src}, name)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	c := NewCompiler(NewProgram(testLibrary(), sources, []string{name}))
	c.Program(files)
	return c
}

// genConsts is a file of n consts, each built on the one before, and n options.
func genConsts(n int) []byte {
	var b strings.Builder
	b.WriteString("const c0 = 0\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "const c%d = c%d + 1\n", i, i-1)
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "option o%d = %d \"o\"\n", i, i)
	}
	return []byte(b.String())
}

// TestPureFunctionsAreNotBuiltins: no pure function shares a name with a builtin of the
// libraries (a rule calling it would reach only one of them).
func TestPureFunctionsAreNotBuiltins(t *testing.T) {
	for name := range testLibrary().Builtins {
		if _, ok := pureFuncs[name]; ok {
			t.Errorf("builtin %s is also a pure function", name)
		}
	}
}

// Checking stays linear in the number of declarations: an expression's environment holds
// the names it uses, not a copy of every global (which made 10,000 consts take 8 s).
func TestCheckEnvironmentIsPerExpression(t *testing.T) {
	for _, n := range []int{100, 400} {
		c := checkSource(t, "consts.rules", genConsts(n))
		if c.Diags.HasErrors() {
			t.Fatal(c.Diags)
		}
		env := c.envNature(globalScope, "c1 + o2 + nothing")
		if len(env.Fields) != 3 { // __rt, c1, o2
			t.Errorf("%d consts: the environment of c1 + o2 holds %d names", n, len(env.Fields))
		}
	}
}

// "Did you mean" compares a bounded number of names per load: 20,000 unknown names among
// 20,000 consts took 4.5 minutes of edit distances.
func TestSuggestionsAreBounded(t *testing.T) {
	var b strings.Builder
	n := 2000
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "const c%d = %d\n", i, i)
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "const d%d = zz%d\n", i, i)
	}
	c := checkSource(t, "unknown.rules", []byte(b.String()))
	if len(c.Diags) != n {
		t.Fatalf("%d diagnostics, want %d", len(c.Diags), n)
	}
	if c.suggested > maxSuggestions+2*n+1 {
		t.Errorf("%d names compared, over the budget of %d", c.suggested, maxSuggestions)
	}
	if !strings.Contains(c.Diags[0].Detail, "did you mean") {
		t.Errorf("the first unknown name has no suggestion: %v", c.Diags[0])
	}
}
