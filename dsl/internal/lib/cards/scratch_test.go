package cards_test

import (
	"os"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/peek"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

func TestScratch(t *testing.T) {
	src, _ := os.ReadFile(os.Getenv("RULES"))
	prog, d := dsl.LoadSource("t.rules", src)
	if d.HasErrors() {
		t.Fatal(d.Render(dsl.Sources{"t.rules": src}))
	}
	ins, _ := os.ReadFile(os.Getenv("INPUTS"))
	for _, in := range strings.Split(strings.TrimSpace(string(ins)), "\n") {
		m, _ := dsl.NewMachine(prog, dice.NewPCG(1), nil)
		peek.Machine(m).Limits.MaxSteps = 100000
		var out []string
		peek.Machine(m).Emit = func(s string) { out = append(out, s) }
		v, err := dsl.NewSession(m).Eval("<e>", in)
		t.Logf("%s => %s | %v | %q", in, runtime.Repr(v), err, out)
	}
}
