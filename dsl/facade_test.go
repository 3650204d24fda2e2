package dsl_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

const facadeRules = `ruleset "f" version "1.2"
option malus = 3 "each shooting malus"
option brume = false "the fog rule"
const BASE = 10
deck jeu standard
dice combat = [sabre, fusil]
kind Unit {
  nom: string
  pv: int = BASE
}
entity a: Unit { nom: "A" }
entity b: Unit { nom: "B" }
table loc roll 1d4 {
  1 .. 2 : "jambe"
  3 : "bras"
  4 : "tête"
}
rule plus(x: int): int {
  return x + malus
}
`

func facade(t *testing.T) (*dsl.Program, *dsl.Session) {
	t.Helper()
	prog, d := dsl.LoadSource("f.rules", []byte(facadeRules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), map[string]any{"malus": 1})
	if err != nil {
		t.Fatal(err)
	}
	return prog, dsl.NewSession(m)
}

// TestProgramView: a Program answers what the REPL and the CLI ask of it, and hands out
// copies: changing what it returned changes nothing in it.
func TestProgramView(t *testing.T) {
	prog, s := facade(t)
	if prog.Name() != "f" || prog.Prop("version") != "1.2" || prog.Prop("source") != "" {
		t.Errorf("header: %q %q %q", prog.Name(), prog.Prop("version"), prog.Prop("source"))
	}
	if got := prog.Files(); len(got) != 1 || got[0] != "f.rules" {
		t.Errorf("Files() = %v", got)
	}
	prog.Files()[0] = "x"
	if prog.Files()[0] != "f.rules" {
		t.Error("Files() hands out the Program's own slice")
	}
	srcs := prog.Sources()
	if string(srcs["f.rules"]) != facadeRules {
		t.Errorf("Sources() = %v", srcs)
	}
	delete(srcs, "f.rules")
	if len(prog.Sources()) != 1 {
		t.Error("Sources() hands out the Program's own map")
	}
	if got := strings.Join(prog.Names(), " "); !strings.Contains(got, "malus") || !strings.Contains(got, "plus") || !strings.Contains(got, "Unit") {
		t.Errorf("Names() = %s", got)
	}
	for name, want := range map[string]bool{"plus": true, "loc": true, "a": false, "malus": false, "nope": false} {
		if prog.HasProc(name) != want {
			t.Errorf("HasProc(%s) = %v", name, !want)
		}
	}
	if got := strings.Join(prog.Entities(), " "); got != "a b" {
		t.Errorf("Entities() = %s", got)
	}
	if got := prog.Counts(); got != (dsl.Counts{Options: 2, Consts: 1, Kinds: 1, Entities: 2, Dice: 1, Decks: 1, Procs: 2}) {
		t.Errorf("Counts() = %+v", got)
	}
	ds := prog.Dice()
	if len(ds) != 1 || ds["combat"] == nil || len(ds["combat"].Faces) != 2 {
		t.Errorf("Dice() = %v", ds)
	}
	delete(ds, "combat")
	if prog.Dice()["combat"] == nil {
		t.Error("Dice() hands out the Program's own map")
	}
	dist, err := prog.TableDist("loc")
	// One way in four to each row of a 1d4, two for the band 1 .. 2.
	if err != nil || dist.Min != 1 || fmt.Sprint(dist.W) != "[2 1 1]" || dist.Mass().String() != "4" {
		t.Fatalf("TableDist(loc) = %v, %v; want rows 1, 2, 3 weighing 2, 1, 1", dist, err)
	}
	if _, err := prog.TableDist("plus"); err == nil {
		t.Error("TableDist of a rule that rolls nothing: no error")
	}
	if c, err := prog.ParseCard("QC"); err != nil || c.String() != "Q♣" {
		t.Errorf("ParseCard(QC) = %v, %v", c, err)
	}
	if _, err := prog.ParseCard("ZZ"); err == nil {
		t.Error("ParseCard(ZZ): no error")
	}
	if s.M.Program() != prog {
		t.Error("the Machine runs another Program")
	}
	var opts []string
	for _, o := range s.M.Options() {
		opts = append(opts, o.Name+"="+dsl.Repr(o.Value)+"/"+dsl.Repr(o.Default)+" "+o.Doc)
	}
	if got, want := strings.Join(opts, "; "), "malus=1/3 each shooting malus; brume=false/false the fog rule"; got != want {
		t.Errorf("Options() = %s, want %s", got, want)
	}
}

// TestNewMachineOverrides: an override of an unknown option, or of the wrong type, is refused.
func TestNewMachineOverrides(t *testing.T) {
	prog, _ := facade(t)
	for over, want := range map[string]string{"malis": "did you mean malus", "brume": "expected bool"} {
		if _, err := dsl.NewMachine(prog, nil, map[string]any{over: "x"}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("override %s: %v, want %q", over, err, want)
		}
	}
}

// TestSessionVariables: Let binds a value for later inputs with the type it has, Var and
// Vars read the bindings back, and Fields lists a record's fields in declaration order.
func TestSessionVariables(t *testing.T) {
	_, s := facade(t)
	for name, src := range map[string]string{"i": "plus(1)", "f": "1.5", "ok": "true", "s": `"x"`, "l": "[1, 2]", "u": "a", "n": "nil", "r": "1d6", "m": "{k: 1}"} {
		if _, err := s.Let(name, src); err != nil {
			t.Fatalf("let %s = %s: %v", name, src, err)
		}
	}
	if got := strings.Join(s.Vars(), " "); got != "f i l m n ok r s u" {
		t.Errorf("Vars() = %s", got)
	}
	for src, want := range map[string]string{"i + 1": "3", "f * 2": "3.0", "!ok": "false", "s + s": `"xx"`, "len(l)": "2", "u.nom": `"A"`, "n == nil": "true", "m.k": "1"} {
		v, err := s.Eval("<e>", src)
		if err != nil || dsl.Repr(v) != want {
			t.Errorf("%s = %v, %v; want %s", src, dsl.Repr(v), err, want)
		}
	}
	if _, err := s.Eval("<e>", "u.pvv"); err == nil || !strings.Contains(err.Error(), "unknown field pvv") {
		t.Errorf("a session record keeps its kind for the checker: %v", err)
	}
	if _, err := s.Let("x", "nope"); err == nil {
		t.Error("let x = nope: no error")
	}
	if _, ok := s.Var("x"); ok {
		t.Error("a failed let binds its name")
	}
	if v, ok := s.Var("i"); !ok || dsl.Repr(v) != "2" {
		t.Errorf("Var(i) = %v, %v", v, ok)
	}
	u, _ := s.Var("u")
	m, _ := s.Var("m")
	if got := strings.Join(dsl.Fields(u), " "); got != "nom pv" {
		t.Errorf("Fields(a) = %s", got)
	}
	if got := strings.Join(dsl.Fields(m), " "); got != "k" {
		t.Errorf("Fields({k: 1}) = %s", got)
	}
	if dsl.Fields(3) != nil {
		t.Error("Fields(3) is not nil")
	}
	if err := s.Exec("<e>", "i = i * 10\nlet j = i + 1"); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Var("j"); dsl.Repr(v) != "21" {
		t.Errorf("after Exec, j = %s", dsl.Repr(v))
	}
	if err := s.Exec("<e>", "i = 1\nrequire false else \"non\""); err == nil {
		t.Error("a failing Exec succeeds")
	}
	if v, _ := s.Var("i"); dsl.Repr(v) != "20" {
		t.Errorf("after a failed Exec, i = %s, want 20", dsl.Repr(v))
	}
}

// TestSessionCarryOver: a session reloaded from edited files keeps its variables that still
// fit (the cases are runtime's TestCarryOver).
func TestSessionCarryOver(t *testing.T) {
	_, old := facade(t)
	if _, err := old.Let("v", "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := old.Let("w", "3"); err != nil {
		t.Fatal(err)
	}
	_, s := facade(t)
	notes, kept := s.CarryOver(old)
	if len(notes) != 0 || kept != (dsl.Kept{Entities: 2, Piles: 1, Vars: 2}) {
		t.Errorf("CarryOver = %q, %+v", notes, kept)
	}
	if v, err := s.Eval("<e>", "v.nom + str(w)"); err != nil || v != "A3" {
		t.Errorf("carried variables: %v, %v", v, err)
	}
}

// TestCheckEncoding: REPL input that is not UTF-8 or holds a NUL is refused with a position.
func TestCheckEncoding(t *testing.T) {
	for src, want := range map[string]string{
		"ok":          "",
		"a\xffb":      "<i>:1:2: invalid UTF-8 byte 0xff",
		"ab\x00":      "<i>:1:3: NUL byte",
		":load é\xc3": "<i>:1:8: invalid UTF-8 byte 0xc3",
	} {
		err := dsl.CheckEncoding("<i>", src)
		var ds dsl.Diagnostics
		switch {
		case want == "" && err != nil:
			t.Errorf("%q: %v", src, err)
		case want != "" && (!errors.As(err, &ds) || !strings.HasPrefix(err.Error(), want)):
			t.Errorf("%q: %v, want %s", src, err, want)
		}
	}
}

// TestFacadeHelpers: the names package dsl lends from syntax and runtime.
func TestFacadeHelpers(t *testing.T) {
	if got := dsl.Str("a"); got != "a" {
		t.Errorf("Str = %q", got)
	}
	if got := dsl.Repr("a"); got != `"a"` {
		t.Errorf("Repr = %q", got)
	}
	if got := dsl.ToJSON([]any{1, "a"}); dsl.Repr(got) != `[1, "a"]` {
		t.Errorf("ToJSON = %v", got)
	}
	for in, want := range map[string]string{"3": "3", "1.5": "1.5", "true": "true", "x": `"x"`} {
		if got := dsl.Repr(dsl.ParseValue(in)); got != want {
			t.Errorf("ParseValue(%s) = %s, want %s", in, got, want)
		}
	}
	if got := dsl.DidYouMean("malis", []string{"malus", "brume"}); got != "malus" {
		t.Errorf("DidYouMean = %q", got)
	}
	if got := dsl.OpenBrackets("f(a, [1"); got != 2 {
		t.Errorf("OpenBrackets = %d", got)
	}
	if !dsl.IsStatement("let x = 1") || dsl.IsStatement("1 + 2") {
		t.Error("IsStatement")
	}
	path := filepath.Join(t.TempDir(), "r.rules")
	if err := os.WriteFile(path, []byte(facadeRules), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := dsl.ReadLimited(path, 1<<20); err != nil || string(b) != facadeRules {
		t.Errorf("ReadLimited = %d bytes, %v", len(b), err)
	}
	if _, err := dsl.ReadLimited(path, 10); err == nil {
		t.Error("ReadLimited over the limit: no error")
	}
	if _, err := dsl.ReadLimited(filepath.Dir(path), 1<<20); err == nil {
		t.Error("ReadLimited of a folder: no error")
	}
	if prog, d := dsl.Load(dsl.DirFiles(filepath.Dir(path)), "r.rules"); d.HasErrors() || prog.Name() != "f" {
		t.Errorf("Load from a folder: %v", d)
	}
}

// TestSessionKeepsItsSources: the text of an input is kept by the session that ran it, beside
// the rule files, and never written into the shared Program.
func TestSessionKeepsItsSources(t *testing.T) {
	prog, d := dsl.LoadSource("s.rules", []byte("const a = 1\n"))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := dsl.NewSession(m)
	if _, err := s.Eval("<input>", "a + inconnu"); err == nil {
		t.Fatal("an unknown name was accepted")
	}
	srcs := s.Sources()
	if string(srcs["<input>"]) != "a + inconnu" || string(srcs["s.rules"]) != "const a = 1\n" {
		t.Errorf("session sources: %q", srcs)
	}
	if _, ok := prog.Sources()["<input>"]; ok {
		t.Error("the input was written into the Program")
	}
}

// TestTrial: a trial sees the value before the state is undone, and leaves the state as it
// was whether the expression succeeded or failed; a compiled expression runs many times.
func TestTrial(t *testing.T) {
	prog, d := dsl.LoadSource("t.rules", []byte(`ruleset "t"
kind Compteur { n: int = 0 }
entity c: Compteur {}
action plus(): int {
  c.n += 1
  return c.n
}
action échec() {
  c.n += 5
  require false else "non"
}
`))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := dsl.NewSession(m)
	plus, err := s.Compile("<t>", "plus()")
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		err := s.Trial(plus, func(v any, err error) error {
			if err != nil || dsl.Repr(v) != "1" {
				t.Errorf("plus() = %v, %v in a trial; want 1", dsl.Repr(v), err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	échec, _ := s.Compile("<t>", "échec()")
	err = s.Trial(échec, func(v any, err error) error { return err })
	if err == nil || !strings.Contains(err.Error(), "non") {
		t.Errorf("échec() in a trial: %v", err)
	}
	if v, err := s.Eval("<t>", "c.n"); err != nil || dsl.Repr(v) != "0" {
		t.Errorf("after trials c.n = %v, %v; want 0", dsl.Repr(v), err)
	}
	if _, err := s.Compile("<t>", "plus(1)"); err == nil {
		t.Error("plus(1) compiles")
	}
}

// TestFreshTrial: a fresh trial with a seed gives what a new machine with that seed gives
// (decks shuffled afresh, then the expression's dice), every time, and undoes its changes.
func TestFreshTrial(t *testing.T) {
	prog, d := dsl.LoadSource("t.rules", []byte(`ruleset "t"
deck jeu standard {}
kind Compteur { n: int = 0 }
entity c: Compteur {}
action tirer(): string {
  c.n += 1
  let carte = draw(jeu)
  return "{carte} {1d6} {c.n} {len(jeu.cards)}"
}
`))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(0), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := dsl.NewSession(m)
	c, err := s.Compile("<t>", "tirer()")
	if err != nil {
		t.Fatal(err)
	}
	for _, seed := range []uint64{5, 6, 5, 7} {
		fresh, _ := dsl.NewMachine(prog, dice.NewPCG(seed), nil)
		want, err := dsl.NewSession(fresh).Eval("<t>", "tirer()")
		if err != nil {
			t.Fatal(err)
		}
		err = s.FreshTrial(c, seed, func(v any, err error) error {
			if err != nil || v != want {
				t.Errorf("seed %d: %v, %v; a new machine gives %v", seed, v, err, want)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if v, _ := s.Eval("<t>", "[c.n, len(jeu.cards)]"); dsl.Repr(v) != "[0, 52]" {
		t.Errorf("after fresh trials: %s", dsl.Repr(v))
	}
	other, _ := dsl.NewMachine(prog, dice.NewQueue(nil, nil), nil)
	if err := dsl.NewSession(other).FreshTrial(c, 1, func(any, error) error { return nil }); err == nil {
		t.Error("a fresh trial on a hand-given source")
	}
}

// TestTrialEnvReused: trials one after another fill one environment map again, so each sees
// the session's variables as they are now and only its own names; a trial run from inside
// another's callback gets a map of its own.
func TestTrialEnvReused(t *testing.T) {
	prog, d := dsl.LoadSource("t.rules", []byte(`ruleset "t"
option o = 2
kind Compteur { n: int = 0 }
entity c: Compteur {}
`))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := dsl.NewSession(m)
	if _, err := s.Let("x", "1"); err != nil {
		t.Fatal(err)
	}
	sum, err := s.Compile("<t>", "x + c.n")
	if err != nil {
		t.Fatal(err)
	}
	run := func(c *dsl.Compiled, inner func()) string {
		var out string
		err := s.Trial(c, func(v any, err error) error {
			out = dsl.Repr(v)
			if inner != nil {
				inner()
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if got := run(sum, nil); got != "1" {
		t.Errorf("x + c.n = %s, want 1", got)
	}
	if _, err := s.Let("x", "5"); err != nil {
		t.Fatal(err)
	}
	var inner string
	if got := run(sum, func() { inner = run(sum, nil) }); got != "5" || inner != "5" {
		t.Errorf("after x = 5: x + c.n = %s, inside its callback %s; want 5 and 5", got, inner)
	}
	if got := run(sum, nil); got != "5" {
		t.Errorf("third trial: x + c.n = %s, want 5", got)
	}
	// A trial of the same expression runs in the last one's environment as it is, until
	// the globals or the variables change: an option set, an Exec, another expression.
	withO, err := s.Compile("<t>", "x + o")
	if err != nil {
		t.Fatal(err)
	}
	if got := run(withO, nil); got != "7" {
		t.Errorf("x + o = %s, want 7", got)
	}
	if err := m.SetOption("o", 10); err != nil {
		t.Fatal(err)
	}
	if got := run(withO, nil); got != "15" {
		t.Errorf("after o = 10: x + o = %s, want 15", got)
	}
	if err := s.Exec("<t>", "x = 20"); err != nil {
		t.Fatal(err)
	}
	if got := run(withO, nil); got != "30" {
		t.Errorf("after x = 20: x + o = %s, want 30", got)
	}
	if got, again := run(sum, nil), run(withO, nil); got != "20" || again != "30" {
		t.Errorf("alternating: x + c.n = %s, x + o = %s; want 20 and 30", got, again)
	}
}

// TestConstFromInclude: a const may use a const of a file included above it (the included
// file's declarations are met where its include stands), not one included below it.
func TestConstFromInclude(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"q.rules":     "const w = 3\noption o = w * 2\n",
		"r.rules":     "const v = 2\n",
		"above.rules": "ruleset \"a\"\ninclude \"q.rules\"\nconst p = w + o\n",
		"below.rules": "ruleset \"b\"\nconst a = v\ninclude \"r.rules\"\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	prog, d := dsl.Load(nil, filepath.Join(dir, "above.rules"))
	if d.HasErrors() {
		t.Fatalf("above: %v", d)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := dsl.NewSession(m).Eval("<t>", "p"); err != nil || dsl.Repr(v) != "9" {
		t.Errorf("p = %v, %v; want 9", dsl.Repr(v), err)
	}
	if _, d := dsl.Load(nil, filepath.Join(dir, "below.rules")); !d.HasErrors() || !strings.Contains(d.Error(), "unknown name v") {
		t.Errorf("below: %v, want unknown name v", d)
	}
}
