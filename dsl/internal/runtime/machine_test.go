package runtime_test

import (
	"errors"

	"rulesh/dsl/internal/check"
	"rulesh/dsl/internal/libtest"
	"rulesh/dsl/internal/syntax"

	"fmt"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/peek"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

// session loads rules into a fresh session seeded with 1.
func session(t *testing.T, rules string) *dsl.Session {
	t.Helper()
	prog, d := dsl.LoadSource("t.rules", []byte(rules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	return dsl.NewSession(m)
}

// TestRollCacheBounded: notation built at run time is cached, but not without bound.
func TestRollCacheBounded(t *testing.T) {
	s := session(t, "ruleset \"b\"\n")
	if _, err := s.Eval("<e>", `count(1..5000, roll("1d6+" + str(#)).total > 0)`); err != nil {
		t.Fatal(err)
	}
	if parsed, rollers := peek.Machine(s.M).RollCaches(); parsed > runtime.MaxParsedRolls || rollers > runtime.MaxParsedRolls+10 {
		t.Errorf("cache holds %d parses and %d rollers", parsed, rollers)
	}
}

// TestFramesDoNotCopyGlobals: a call frame holds its locals only, so memory does not grow as
// globals × depth (150,000 entities and a deep recursion used to exhaust memory).
func TestFramesDoNotCopyGlobals(t *testing.T) {
	var b strings.Builder
	b.WriteString("ruleset \"f\"\noption bonus = 2 \"b\"\nkind U {\n  pv: int = 1\n}\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "entity u%d: U { pv: %d }\n", i, i)
	}
	b.WriteString(`rule descend(n: int): int {
  if n == 0 {
    return u2999.pv + bonus
  }
  return descend(n - 1)
}
`)
	prog, d := compile("f.rules", b.String())
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := runtime.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	v, err := m.Call("descend", 150)
	if err != nil || runtime.Repr(v) != "3001" {
		t.Fatalf("descend(150) = %v, %v", v, err)
	}
	if err := m.SetOption("bonus", 5); err != nil {
		t.Fatal(err)
	}
	if v, err := m.Call("descend", 150); err != nil || runtime.Repr(v) != "3004" {
		t.Fatalf("after :set, descend(150) = %v, %v; want 3004", v, err)
	}
	for _, n := range m.FrameSizes() {
		if n > 10 {
			t.Fatalf("a frame holds %d names", n)
		}
	}
}

// compile checks one rule file into the compiled form, without the facade: what package
// dsl's Load does, less freezing.
func compile(name, src string) (*runtime.Program, syntax.Diagnostics) {
	files, sources, diags := syntax.ParseFiles(memFiles{name: []byte(src)}, name)
	if diags.HasErrors() {
		return nil, diags
	}
	prog := check.NewProgram(libtest.Library(), sources, []string{name})
	if diags := check.CheckFiles(prog, files); diags.HasErrors() {
		return nil, diags
	}
	return prog, nil
}

// newMachine checks src as the file t.rules and returns its program and a machine on it
// seeded with 1, failing the test on any error.
func newMachine(t *testing.T, src string) (*runtime.Program, *runtime.Machine) {
	t.Helper()
	prog, diags := compile("t.rules", src)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, err := runtime.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	return prog, m
}

type memFiles map[string][]byte

func (m memFiles) ReadFile(name string) ([]byte, error) {
	if b, ok := m[name]; ok {
		return b, nil
	}
	return nil, errors.New("no such file")
}

// TestJournalOnePerField: a long call keeps one undo per field (and per pile) it changed,
// whatever the number of writes, and a failure still restores the values from before it.
func TestJournalOnePerField(t *testing.T) {
	s := session(t, `ruleset "j"
kind U {
  pv: int = 10
  n: int = 0
}
entity a: U { }
entity b: U { }
deck jeu standard {
}
pile p
action boucle(n: int, échoue: bool) {
  for i in 1..n {
    a.pv = i
    b.n += 1
    a.n = a.n + b.n
    deal(jeu, p, 1)
    deal(p, jeu, 1)
  }
  emit "fin"
  require !échoue else "échec voulu"
}
`)
	var seen []int
	peek.Machine(s.M).Emit = func(string) { seen = append(seen, peek.Machine(s.M).JournalLen()) }
	if _, err := s.Eval("<e>", "boucle(20000, false)"); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || seen[0] != 5 { // a.pv, b.n, a.n, jeu, p
		t.Errorf("journal at the end of the call: %v, want [5]", seen)
	}
	if v, err := s.Eval("<e>", "[a.pv, b.n, len(jeu.cards), len(p.cards)]"); err != nil || runtime.Repr(v) != "[20000, 20000, 52, 0]" {
		t.Errorf("after the call: %v, %v", runtime.Repr(v), err)
	}
	if _, err := s.Eval("<e>", "boucle(30000, true)"); err == nil || !strings.Contains(err.Error(), "échec voulu") {
		t.Fatalf("boucle(30000, true): %v", err)
	}
	if v, err := s.Eval("<e>", "[a.pv, b.n, len(jeu.cards), len(p.cards)]"); err != nil || runtime.Repr(v) != "[20000, 20000, 52, 0]" {
		t.Errorf("after the failed call: %v, %v (want the values from before it)", runtime.Repr(v), err)
	}
}
