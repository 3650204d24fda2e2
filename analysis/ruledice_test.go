package analysis

import (
	"errors"
	"math/big"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

// volleySrc is the volley of docs/LANGUAGE.md: hit on 3+, wound on 4+, the armour save
// (save+) fails below save, damage d3.
const volleySrc = `option save = 4
rule attack(): int {
  if d(6) < 3 { return 0 }
  if d(6) < 4 { return 0 }
  if d(6) >= save { return 0 }
  return d(3)
}
dice attaque = attack()
`

// bruteAttack is one attack's distribution written out over its draws: every hit, wound,
// save and damage die, each path weighted 1/(6·6·6·3), with the save as given.
func bruteAttack(save int) map[int]*big.Rat {
	out := map[int]*big.Rat{}
	add := func(v int, w *big.Rat) {
		if out[v] == nil {
			out[v] = new(big.Rat)
		}
		out[v].Add(out[v], w)
	}
	one := big.NewRat(1, 6*6*6*3)
	for hit := 1; hit <= 6; hit++ {
		for wound := 1; wound <= 6; wound++ {
			for sv := 1; sv <= 6; sv++ {
				for dmg := 1; dmg <= 3; dmg++ {
					switch {
					case hit < 3, wound < 4, sv >= save:
						add(0, one)
					default:
						add(dmg, one)
					}
				}
			}
		}
	}
	return out
}

// convolveN is the sum of n independent draws of d, by repeated convolution.
func convolveN(d map[int]*big.Rat, n int) map[int]*big.Rat {
	acc := map[int]*big.Rat{0: big.NewRat(1, 1)}
	for range n {
		next := map[int]*big.Rat{}
		for a, pa := range acc {
			for b, pb := range d {
				if next[a+b] == nil {
					next[a+b] = new(big.Rat)
				}
				next[a+b].Add(next[a+b], new(big.Rat).Mul(pa, pb))
			}
		}
		acc = next
	}
	return acc
}

func loadDie(t *testing.T, src string) *dsl.Program {
	t.Helper()
	prog, diags := dsl.LoadSource("t.rules", []byte(src))
	if diags.HasErrors() {
		t.Fatalf("load: %v", diags)
	}
	return prog
}

// checkOdds asks Odds expr with the options over and compares its exact answer, by
// convolution, with want.
func checkOdds(t *testing.T, prog *dsl.Program, over map[string]any, expr string, want map[int]*big.Rat) {
	t.Helper()
	a, err := Odds(Question{Prog: prog, Overrides: over, Expr: expr}, ProbOptions{})
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	if a.Conv == nil {
		t.Fatalf("%s: answered by the engine, not by convolution", expr)
	}
	total := new(big.Rat)
	for v := a.Conv.Min; v <= a.Conv.Max(); v++ {
		got := a.Conv.P(v)
		total.Add(total, got)
		w := want[v]
		if w == nil {
			w = new(big.Rat)
		}
		if got.Cmp(w) != 0 {
			t.Errorf("%s (%v): P(%d) = %s, want %s", expr, over, v, got.RatString(), w.RatString())
		}
	}
	for v, w := range want {
		if (v < a.Conv.Min || v > a.Conv.Max()) && w.Sign() != 0 {
			t.Errorf("%s (%v): P(%d) missing, want %s", expr, over, v, w.RatString())
		}
	}
	if total.Cmp(big.NewRat(1, 1)) != 0 {
		t.Errorf("%s: the probabilities sum to %s", expr, total.RatString())
	}
}

// A die made from a rule has the rule's exact distribution, and NdX of it convolves: checked
// against the attack's draws written out and a convolution written here, with the options'
// default and with --set.
func TestRuleDieVolley(t *testing.T) {
	prog := loadDie(t, volleySrc)
	for _, save := range []int{4, 6, 1} {
		var over map[string]any
		if save != 4 {
			over = map[string]any{"save": save}
		}
		one := bruteAttack(save)
		checkOdds(t, prog, over, "attaque", one)
		checkOdds(t, prog, over, "1dattaque", one)
		checkOdds(t, prog, over, "10dattaque", convolveN(one, 10))
	}
}

// Keep/drop over a die made from a rule is exact: the two highest of four attacks, against
// every ordered draw of four written out.
func TestRuleDieKeep(t *testing.T) {
	prog := loadDie(t, volleySrc)
	one := bruteAttack(4)
	want := map[int]*big.Rat{}
	var vals []int
	for v := range one {
		vals = append(vals, v)
	}
	for _, a := range vals {
		for _, b := range vals {
			for _, c := range vals {
				for _, d := range vals {
					xs := []int{a, b, c, d}
					for i := range xs {
						for j := i + 1; j < len(xs); j++ {
							if xs[j] > xs[i] {
								xs[i], xs[j] = xs[j], xs[i]
							}
						}
					}
					p := new(big.Rat).Mul(one[a], one[b])
					p.Mul(p, one[c]).Mul(p, one[d])
					s := xs[0] + xs[1]
					if want[s] == nil {
						want[s] = new(big.Rat)
					}
					want[s].Add(want[s], p)
				}
			}
		}
	}
	checkOdds(t, prog, nil, "4d[attaque]kh2", want)
}

// A machine's die follows its options: made with --set, or changed by SetOption, it has
// the faces of the options in force; a value that cannot make the die is refused and the
// option keeps its value.
func TestRuleDieOptions(t *testing.T) {
	prog := loadDie(t, volleySrc+`option bound = 1
rule borné(): int {
  require bound < 5 else "trop"
  return d(2)
}
dice b = borné()
`)
	zeros := func(m *dsl.Machine) (int, int) {
		v, _ := m.Global("attaque")
		faces := dieFaces(t, v)
		n := 0
		for _, f := range faces {
			if f == 0 {
				n++
			}
		}
		return n, len(faces)
	}
	m, err := dsl.NewMachine(prog, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if z, n := zeros(m); z*6 != n*5 {
		t.Errorf("defaults: %d zeros of %d faces, want 5/6", z, n)
	}
	if err := m.SetOption("save", 6); err != nil {
		t.Fatal(err)
	}
	if z, n := zeros(m); z*18 != n*13 {
		t.Errorf(":set save=6: %d zeros of %d faces, want 13/18", z, n)
	}
	m2, err := dsl.NewMachine(prog, nil, map[string]any{"save": 6})
	if err != nil {
		t.Fatal(err)
	}
	if z, n := zeros(m2); z*18 != n*13 {
		t.Errorf("--set save=6: %d zeros of %d faces, want 13/18", z, n)
	}
	err = m.SetOption("bound", 9)
	if err == nil || !strings.Contains(err.Error(), `t.rules:14:1: dice b = borné(): it fails on every branch (trop)`) {
		t.Errorf("SetOption(bound, 9) = %v, want the die's refusal", err)
	}
	if v, _ := m.Global("bound"); v != 1 {
		t.Errorf("bound = %v after a refused value, want 1", v)
	}
	if _, err := dsl.NewMachine(prog, nil, map[string]any{"bound": 7}); err == nil || !strings.Contains(err.Error(), "trop") {
		t.Errorf("--set bound=7: %v, want the die's refusal", err)
	}
}

// A reload keeps the options :set changed, and makes the dice made from rules for them: they
// kept the faces of the defaults, so d[a] rolled 1 or 2 with bonus 5. When the edited rules
// cannot make a die with them, the options go back to their defaults, said in a note.
func TestRuleDieCarryOver(t *testing.T) {
	const before = `option bonus = 0
rule r(): int { return d(2) + bonus }
dice a = r()
`
	cases := []struct {
		name, after string
		bonus       int
		faces       []int
		note        string
	}{
		{"the die made again", before + "// edited\n", 5, []int{6, 7}, ""},
		{"the options reset", `option bonus = 0
rule r(): int {
  require bonus < 3 else "trop"
  return d(2)
}
dice a = r()
`, 0, []int{1, 2}, "option bonus reset to its default: t.rules:6:1: dice a = r(): it fails on every branch (trop)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := dsl.NewMachine(loadDie(t, before), nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.SetOption("bonus", 5); err != nil {
				t.Fatal(err)
			}
			m2, err := dsl.NewMachine(loadDie(t, tc.after), nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			notes, _ := dsl.NewSession(m2).CarryOver(dsl.NewSession(m))
			if v, _ := m2.Global("bonus"); v != tc.bonus {
				t.Errorf("bonus = %v, want %d", v, tc.bonus)
			}
			v, _ := m2.Global("a")
			if got := dieFaces(t, v); !slices.Equal(got, tc.faces) {
				t.Errorf("faces of a = %v, want %v", got, tc.faces)
			}
			if got := strings.Join(notes, "\n"); !strings.Contains(got, tc.note) || (tc.note == "") != (got == "") {
				t.Errorf("notes %q, want %q", got, tc.note)
			}
		})
	}
}

// dieFaces is the face values of a die value.
func dieFaces(t *testing.T, v any) []int {
	t.Helper()
	d, ok := v.(*dice.Die)
	if !ok {
		t.Fatalf("%T is not a die", v)
	}
	out := make([]int, len(d.Faces))
	for i, f := range d.Faces {
		out[i] = f.Value
	}
	return out
}

// What the loader learns only from the odds keeps a rule from being a die: each refused at
// the declaration with its reason.
func TestRuleDieLoadRefusals(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"a branch fails", `rule r(): int {
  require d(4) > 1 else "raté"
  return 1
}
dice a = r()`, `t.rules:5:1: dice a = r(): it fails on some branches (raté, with probability 1/4), and a die always shows a face`},
		{"every branch fails", `rule r(): int {
  require false else "jamais"
  return 1
}
dice a = r()`, `t.rules:5:1: dice a = r(): it fails on every branch (jamais), and a die always shows a face`},
		{"not a number", `rule r() {
  if d(2) == 1 { return "pile" }
  return 1
}
dice a = r()`, `t.rules:5:1: dice a = r(): it returns "pile", and a die's faces are whole numbers`},
		{"a fraction", `rule r() {
  return d(2) / 4
}
dice a = r()`, `t.rules:4:1: dice a = r(): it returns 0.25, and a die's faces are whole numbers`},
		{"over the budget", `rule r(): int {
  return d(1000) + d(1000) + d(1000)
}
dice a = r()`, `t.rules:4:1: dice a = r(): its exact odds need about 1e+09 branches of the dice, over the budget of 1000000 (a die is made from exact odds only)`},
		{"too many faces", `rule r(): int {
  return d(317) * 1000 + d(317)
}
dice a = r()`, `t.rules:4:1: dice a = r(): its odds have a common denominator over 100000, the most faces a die made from a rule may have`},
		// Notation built at run time naming the die being made, or a later one, rolled the
		// stand-in face 0: the die came out as one face 0, silently.
		{"its own die in notation", `rule r(): int {
  return roll("1d" + "a").total
}
dice a = r()`, `t.rules:4:1: dice a = r(): it fails on every branch (roll("1da"): a is a die made from a rule that is not made yet (a die's rule may roll only the dice made from rules declared before it))`},
		{"a later die in notation", `rule r(): int { return roll("2d[b]").total }
rule s(): int { return d(2) }
dice a = r()
dice b = s()`, `t.rules:3:1: dice a = r(): it fails on every branch (roll("2d[b]"): b is a die made from a rule that is not made yet`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "too many faces" && testing.Short() {
				t.Skip("enumerates 100,489 branches (seconds)")
			}
			prog, diags := dsl.LoadSource("t.rules", []byte(tc.src))
			if prog != nil || !strings.Contains(diags.Error(), tc.want) {
				t.Errorf("load = %v, %v; want %s", prog != nil, diags, tc.want)
			}
		})
	}
}

// Machines made at once in several goroutines with the same new option values share one
// computation of the dice (go test -race checks the Program's cache).
func TestRuleDieOptionsShared(t *testing.T) {
	prog := loadDie(t, volleySrc)
	var wg sync.WaitGroup
	dies := make([]*dice.Die, 8)
	for i := range dies {
		wg.Go(func() {
			m, err := dsl.NewMachine(prog, nil, map[string]any{"save": 6})
			if err != nil {
				t.Error(err)
				return
			}
			v, _ := m.Global("attaque")
			dies[i], _ = v.(*dice.Die)
		})
	}
	wg.Wait()
	for i, d := range dies {
		if d == nil || d != dies[0] || len(d.Faces) != 54 {
			t.Fatalf("machine %d: die %p of %v, want the one die of 54 faces they share", i, d, d)
		}
	}
}

// A table that rolls its key with a die made from a rule reads the die of the options in
// force, by convolution and when it runs.
func TestRuleDieTable(t *testing.T) {
	prog := loadDie(t, volleySrc+`table blessure roll 1dattaque {
  0 : "rien"
  1..2 : "blessé"
  3 : "grave"
}
`)
	for _, tc := range []struct {
		save int
		want *big.Rat
	}{{4, big.NewRat(5, 6)}, {6, big.NewRat(13, 18)}} {
		a, err := Odds(Question{Prog: prog, Overrides: map[string]any{"save": tc.save}, Expr: "blessure()"}, ProbOptions{})
		if err != nil || a.Conv == nil {
			t.Fatalf("save %d: %v, %v", tc.save, a, err)
		}
		i := slices.Index(a.Conv.Syms, "rien")
		if got := a.Conv.P(i + 1); got.Cmp(tc.want) != 0 {
			t.Errorf("save %d: P(rien) = %s, want %s", tc.save, got.RatString(), tc.want.RatString())
		}
		d, err := Prob(Question{Prog: prog, Overrides: map[string]any{"save": tc.save}, Expr: `blessure() == "rien"`}, ProbOptions{Exact: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range d.Outcomes {
			if o.Text == "true" && o.Fraction.Cmp(tc.want) != 0 {
				t.Errorf("save %d, run: P(rien) = %s, want %s", tc.save, o.Fraction.RatString(), tc.want.RatString())
			}
		}
	}
}

// The faces stand in while the dice are computed: a table rolling the die over rows that
// leave out the stand-in face, and notation taking a face from the die, load all the same
// (they are checked once with the real faces).
func TestRuleDieStandIn(t *testing.T) {
	prog := loadDie(t, `rule jet(): int { return max(d(6), d(6)) }
dice avantage = jet()
table t roll 1davantage {
  1..3 : "bas"
  4..6 : "haut"
}
rule g(): int { return 1d[avantage]!3 }
rule h(): int { return 1d[avantage]r }
`)
	a, err := Odds(Question{Prog: prog, Expr: "t()"}, ProbOptions{})
	if err != nil || a.Conv == nil {
		t.Fatalf("t(): %v, %v", a, err)
	}
	if got := a.Conv.P(slices.Index(a.Conv.Syms, "bas") + 1); got.Cmp(big.NewRat(1, 4)) != 0 {
		t.Errorf("P(bas) = %s, want 1/4 (both d6 at most 3)", got.RatString())
	}
	// A bare r rerolls the lowest face, 1 (1/36): the others share its weight.
	checkOdds(t, prog, nil, "1d[avantage]r", map[int]*big.Rat{2: big.NewRat(3, 35), 3: big.NewRat(5, 35), 4: big.NewRat(7, 35), 5: big.NewRat(9, 35), 6: big.NewRat(11, 35)})
}

// BenchmarkRuleDieVolley is `rulesh prob -f salve.rules 10dattaque` without the process:
// the load (which computes the die) and the convolution.
func BenchmarkRuleDieVolley(b *testing.B) {
	for b.Loop() {
		prog, diags := dsl.LoadSource("t.rules", []byte(volleySrc))
		if diags.HasErrors() {
			b.Fatal(diags)
		}
		if _, err := Odds(Question{Prog: prog, Expr: "10dattaque"}, ProbOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// A rule die with far more outcomes than a die may have faces is refused as soon as its runs
// show more than that many, not after enumerating them all: d(1000000) listed its million
// outcomes (6 s and 1.7 GB) only to be refused. Allocation stands for the work, which a
// clock on a loaded machine would not measure.
func TestRuleDieTooManyFacesStopsEarly(t *testing.T) {
	for _, src := range []string{
		"rule f(x: int): int {\n  return d(x)\n}\ndice a = f(1000000)",
		"rule g(): int {\n  return d(997) + d(991) * 1000\n}\ndice a = g()",
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		prog, diags := dsl.LoadSource("t.rules", []byte(src))
		runtime.ReadMemStats(&after)
		if want := "its odds have a common denominator over 100000, the most faces a die made from a rule may have"; prog != nil || !strings.Contains(diags.Error(), want) {
			t.Errorf("load = %v, %v; want %s", prog != nil, diags, want)
		}
		if mb := (after.TotalAlloc - before.TotalAlloc) >> 20; mb > 400 {
			t.Errorf("%s: refused after allocating %d MB", src, mb)
		}
	}
}

// MaxOutcomes stops an exact answer past that many distinct outcomes, and only then.
func TestProbMaxOutcomes(t *testing.T) {
	prog := loadDie(t, "rule r(): int { return d(6) }\ndice a = r()")
	if _, err := Prob(Question{Prog: prog, Expr: "d(1000)"}, ProbOptions{Exact: true, MaxOutcomes: 100}); !errors.As(err, new(*ErrTooManyOutcomes)) {
		t.Errorf("d(1000) with 100 outcomes at most: %v", err)
	}
	if d, err := Prob(Question{Prog: prog, Expr: "d(100)"}, ProbOptions{Exact: true, MaxOutcomes: 100}); err != nil || len(d.Outcomes) != 100 {
		t.Errorf("d(100) with 100 outcomes at most: %v", err)
	}
}
