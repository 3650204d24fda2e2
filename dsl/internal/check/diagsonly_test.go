package check

import (
	"testing"

	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
)

// TestDiagnoseFilesBuildsNoClosures: a check for the diagnostics only compiles the
// procedures' expressions for the VM (no closures, no slots), and still computes the
// consts; a full check builds them all.
func TestDiagnoseFilesBuildsNoClosures(t *testing.T) {
	const src = `option bonus = 2 + 1 "a bonus"
const BASE = bonus * 10
rule plus(x: int): int {
  let y = x + BASE
  return y * 2
}
`
	for _, diagsOnly := range []bool{false, true} {
		files, sources, diags := syntax.ParseFiles(memFiles{"p.rules": []byte(src)}, "p.rules")
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		prog := NewProgram(testLibrary(), sources, []string{"p.rules"})
		check := CheckFiles
		if diagsOnly {
			check = DiagnoseFiles
		}
		if d := check(prog, files); d.HasErrors() {
			t.Fatal(d)
		}
		p := prog.Globals["plus"].(*runtime.Proc)
		var exprs []*runtime.Expr
		for _, s := range p.Body {
			switch s := s.(type) {
			case *runtime.LetStmt:
				exprs = append(exprs, s.Value)
			case *runtime.ReturnStmt:
				exprs = append(exprs, s.Value)
			}
		}
		if len(exprs) != 2 {
			t.Fatalf("diagsOnly %v: %d expressions in plus", diagsOnly, len(exprs))
		}
		for _, x := range exprs {
			if (x.Fast == nil) != diagsOnly || x.Code == nil {
				t.Errorf("diagsOnly %v: %q has closures %v, code %v", diagsOnly, x.Text, x.Fast != nil, x.Code != nil)
			}
		}
		if (p.Locals == nil) != diagsOnly {
			t.Errorf("diagsOnly %v: slots %v", diagsOnly, p.Locals)
		}
		if c := prog.Globals["BASE"].(*runtime.Const); c.Value != 30 {
			t.Errorf("diagsOnly %v: BASE = %v", diagsOnly, c.Value)
		}
	}
}
