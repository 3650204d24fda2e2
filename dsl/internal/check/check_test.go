package check

import (
	"fmt"
	"rulesh/dsl/internal/libtest"
	"strings"
	"testing"

	"rulesh/dsl/internal/syntax"
)

// testLibrary is the library package dsl assembles.
var testLibrary = libtest.Library

// memFiles holds rule files in memory.
type memFiles = libtest.MemFiles

// checkSource parses and checks one file, and returns the compiler to look into.
func checkSource(t *testing.T, name string, src []byte) *Compiler {
	t.Helper()
	files, sources, diags := syntax.ParseFiles(memFiles{name: src}, name)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	c := NewCompiler(NewProgram(testLibrary(), sources, []string{name}))
	c.Program(files)
	return c
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
