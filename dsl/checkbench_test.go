package dsl

import (
	"fmt"
	"strings"
	"testing"

	"rulesh/dsl/internal/check"
	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
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
	return check.NewProgram(library.Get(), Sources{name: src}, []string{name}), files
}

// checkParsed runs the checker on parsed files into a fresh Program.
func checkParsed(tb testing.TB, p *runtime.Program, files []syntax.ParsedFile) {
	prog := check.NewProgram(library.Get(), p.Sources, p.Files)
	if diags := check.CheckFiles(prog, files); diags.HasErrors() {
		tb.Fatal(diags)
	}
}

func BenchmarkCheck100kConsts(b *testing.B) {
	p, files := parsed(b, "consts.rules", genConsts(50_000))
	for b.Loop() {
		checkParsed(b, p, files)
	}
}

func BenchmarkCheck100kBands(b *testing.B) {
	p, files := parsed(b, "bands.rules", genBands(100_000))
	for b.Loop() {
		checkParsed(b, p, files)
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

// BenchmarkLoadLargestRuleset: what a run command does with the largest shipped ruleset
// before it runs (parse, check, compile), without the process start-up.
func BenchmarkLoadLargestRuleset(b *testing.B) {
	for b.Loop() {
		if _, d := Load(nil, "../rulesets/starwars/starwars.rules"); d.HasErrors() {
			b.Fatal(d)
		}
	}
}

// BenchmarkCheckLargestRuleset: what `rulesh check` does with it (Check: the diagnostics
// only), without the process start-up.
func BenchmarkCheckLargestRuleset(b *testing.B) {
	for b.Loop() {
		if _, d := Check(nil, "../rulesets/starwars/starwars.rules"); d.HasErrors() {
			b.Fatal(d)
		}
	}
}
