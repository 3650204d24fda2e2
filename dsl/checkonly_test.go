package dsl_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/ruletest"
	"rulesh/stdlib/dice"
)

// TestCheckMatchesLoad: Check, which compiles the procedures for expr's VM only, gives
// every rule file of the repository the diagnostics Load gives, byte for byte, and a
// program declaring the same.
func TestCheckMatchesLoad(t *testing.T) {
	refused := 0
	for _, f := range ruletest.RuleFiles(t, "..") {
		render := func(prog *dsl.Program, diags dsl.Diagnostics) string {
			var srcs dsl.Sources
			if prog != nil {
				srcs = prog.Sources()
			}
			return diags.Render(srcs)
		}
		lp, ld := dsl.Load(nil, f)
		cp, cd := dsl.Check(nil, f)
		if got, want := render(cp, cd), render(lp, ld); got != want {
			t.Errorf("%s: Check gives\n%s\nLoad gives\n%s", f, got, want)
		}
		if (lp == nil) != (cp == nil) {
			t.Errorf("%s: Load's program %v, Check's %v", f, lp != nil, cp != nil)
			continue
		}
		if lp == nil {
			refused++
			continue
		}
		if lp.Counts() != cp.Counts() {
			t.Errorf("%s: Load counts %+v, Check %+v", f, lp.Counts(), cp.Counts())
		}
	}
	if refused == 0 {
		t.Error("no refused rule file compared")
	}
}

// TestCheckedProgramRuns: a program from Check runs as Load's does (on expr's VM, its
// locals in the frames' maps): same values from the same seed.
func TestCheckedProgramRuns(t *testing.T) {
	const src = `kind Unit {
  nom: string
  pv: int = 10
}
entity a: Unit { nom: "A" }
rule blesse(u: Unit, n: int): int {
  let reste = u.pv - n
  let total = 0
  for i in [1, 2, 3] {
    total = total + i * reste
  }
  let r = 2d6
  return total + r
}
`
	eval := func(load loader) []any {
		s := sessionOn(t, load, src)
		var out []any
		for range 3 {
			v, err := s.Eval("<e>", "blesse(a, 3)")
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, v)
		}
		return out
	}
	want, got := eval(dsl.LoadSource), eval(checkSource)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("run %d: Check's program gave %v, Load's %v", i, got[i], want[i])
		}
	}
}

// loader loads one rule file given as text: dsl.LoadSource, or checkSource.
type loader func(name string, src []byte) (*dsl.Program, dsl.Diagnostics)

// checkSource is dsl.Check of one rule file given as text.
func checkSource(name string, src []byte) (*dsl.Program, dsl.Diagnostics) {
	return dsl.Check(mapFS{name: src}, name)
}

// sessionOn loads src with load and starts a session on a machine seeded with 7.
func sessionOn(t *testing.T, load loader, src string) *dsl.Session {
	t.Helper()
	prog, d := load("u.rules", []byte(src))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(7), nil)
	if err != nil {
		t.Fatal(err)
	}
	return dsl.NewSession(m)
}

type mapFS map[string][]byte

func (m mapFS) ReadFile(name string) ([]byte, error) {
	if b, ok := m[filepath.ToSlash(name)]; ok {
		return b, nil
	}
	return nil, os.ErrNotExist
}

// TestCheckedProgramCharges: a check for the diagnostics leaves the budget's patch of an
// expression to its first compile, which a run of Check's program makes: the program
// charges the steps of its builtins as Load's does, to the same errors at the same limit.
func TestCheckedProgramCharges(t *testing.T) {
	const src = `rule pas(n: int): int {
  return sum(map(1..n, # * 2))
}
rule tas(n: int): int {
  return len(map(1..n, [#, #]))
}
rule double(n: int): int {
  return len(filter(1..n, # % 2 == 0))
}
`
	run := func(load loader) []string {
		s := sessionOn(t, load, src)
		l := s.M.Limits()
		l.MaxSteps = 5000
		s.M.SetLimits(l)
		var out []string
		for _, e := range []string{"pas(100)", "pas(4000)", "tas(100)", "tas(2000)", "double(100)", "double(3000)"} {
			// Each twice: the second run finds the procedure's bytecode made.
			for range 2 {
				v, err := s.Eval("<e>", e)
				out = append(out, fmt.Sprintf("%s: %v %v", e, v, err))
			}
		}
		return out
	}
	want, got := run(dsl.LoadSource), run(checkSource)
	failed := 0
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Check's program gave %s, Load's %s", got[i], want[i])
		}
		if strings.Contains(want[i], "step limit") {
			failed++
		}
	}
	if failed < 4 {
		t.Errorf("only %d runs at the step limit: %q", failed, want)
	}
}
