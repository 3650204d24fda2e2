package dsl

import (
	"os"
	"path/filepath"
	"testing"

	"rulesh/stdlib/dice"
)

// FuzzLoad feeds arbitrary bytes to the parser and checker: whatever the input, loading must
// return a program or diagnostics, never panic or hang. Seeds: every rule file in the repo.
func FuzzLoad(f *testing.F) {
	for _, pattern := range []string{"testdata/diag/*.rules", "../rulesets/*/*.rules"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil && len(b) < 20000 {
				f.Add(b)
			}
		}
	}
	f.Add([]byte(unitRules))
	f.Add([]byte("rule f() {\n  emit \"{1 + }\"\n}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		prog, diags := LoadSource("fuzz.rules", src)
		if prog == nil && !diags.HasErrors() {
			t.Fatal("no program and no error")
		}
		_ = diags.Render(Sources{"fuzz.rules": src})
		if prog == nil {
			return
		}
		m, err := NewMachine(prog, dice.NewPCG(1), nil)
		if err != nil {
			return
		}
		m.Limits.MaxSteps = 10000
		for _, p := range prog.Procs {
			if p.minArg == 0 {
				_, _ = m.CallProc(p)
			}
		}
	})
}
