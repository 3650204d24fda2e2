package dsl

import (
	"fmt"
	"strings"
	"testing"

	"rulesh/dsl/runtime"
	"rulesh/dsl/syntax"
)

// genConsts is a rule file of n consts, each using the one before, and n options.
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

// genBands is a table of n sorted bands, the seeds' shape: (lo .. hi] rows, the lower band
// taking the shared boundary.
func genBands(n int) []byte {
	var b strings.Builder
	b.WriteString("table t(x) {\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  (%d .. %d] : %d\n", i, i+1, i)
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

// parsed parses a generated file once, so a benchmark can time the checker alone.
func parsed(tb testing.TB, name string, src []byte) (*runtime.Program, []syntax.ParsedFile) {
	files, _, d := syntax.ParseFiles(memFiles{name: src}, name)
	if d != nil {
		tb.Fatal(d)
	}
	return NewProgram(library(), Sources{name: src}, []string{name}), files
}

// check runs the checker on parsed files into a fresh Program.
func check(tb testing.TB, p *runtime.Program, files []syntax.ParsedFile) *compiler {
	prog := NewProgram(library(), p.Sources, p.Files)
	c := NewCompiler(prog)
	c.Program(files)
	if c.Diags.HasErrors() {
		tb.Fatal(c.Diags)
	}
	return c
}

func BenchmarkCheck100kConsts(b *testing.B) {
	p, files := parsed(b, "consts.rules", genConsts(50_000))
	for b.Loop() {
		check(b, p, files)
	}
}

func BenchmarkCheck100kBands(b *testing.B) {
	p, files := parsed(b, "bands.rules", genBands(100_000))
	for b.Loop() {
		check(b, p, files)
	}
}

func BenchmarkLoad100kConsts(b *testing.B) {
	src := genConsts(50_000)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, d := LoadSource("consts.rules", src); d.HasErrors() {
			b.Fatal(d)
		}
	}
}

func BenchmarkLoad100kBands(b *testing.B) {
	src := genBands(100_000)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, d := LoadSource("bands.rules", src); d.HasErrors() {
			b.Fatal(d)
		}
	}
}

// Checking stays linear in the number of declarations: an expression's environment holds
// the names it uses, not a copy of every global (which made 10,000 consts take 8 s).
func TestCheckEnvironmentIsPerExpression(t *testing.T) {
	for _, n := range []int{100, 400} {
		p, files := parsed(t, "consts.rules", genConsts(n))
		c := check(t, p, files)
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
	p, files := parsed(t, "unknown.rules", []byte(b.String()))
	c := NewCompiler(NewProgram(library(), p.Sources, p.Files))
	c.Program(files)
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
