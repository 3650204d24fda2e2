package runtime_test

import (
	"errors"
	"maps"

	"rulesh/dsl/check"
	libcards "rulesh/dsl/lib/cards"
	libdice "rulesh/dsl/lib/dice"
	libhex "rulesh/dsl/lib/hex"
	"rulesh/dsl/syntax"

	"fmt"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/runtime"
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
	if parsed, rollers := s.M.RollCaches(); parsed > runtime.MaxParsedRolls || rollers > runtime.MaxParsedRolls+10 {
		t.Errorf("cache holds %d parses and %d rollers", parsed, rollers)
	}
}

// TestFramesDoNotCopyGlobals: a call frame holds its locals only, so memory does not grow as
// globals × depth (150,000 entities and a deep recursion used to exhaust memory).
func TestFramesDoNotCopyGlobals(t *testing.T) {
	var b strings.Builder
	b.WriteString("ruleset \"f\"\noption bonus = 2 \"b\"\nkind U {\n  pv: int = 1\n}\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "entity u%d: U { pv = %d }\n", i, i)
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
	lib := map[string]runtime.Builtin{}
	for _, l := range []map[string]runtime.Builtin{runtime.Core(), libdice.Builtins(), libcards.Builtins(), libhex.Builtins()} {
		maps.Copy(lib, l)
	}
	prog := check.NewProgram(&runtime.Library{Builtins: lib}, sources, []string{name})
	if diags := check.CheckFiles(prog, files); diags.HasErrors() {
		return nil, diags
	}
	return prog, nil
}

type memFiles map[string][]byte

func (m memFiles) ReadFile(name string) ([]byte, error) {
	if b, ok := m[name]; ok {
		return b, nil
	}
	return nil, errors.New("no such file")
}
