package analysis

import (
	"errors"
	"math"
	"math/big"
	"testing"

	"rulesh/dsl"
)

// load loads testdata files.
func loadFiles(t testing.TB, files ...string) *dsl.Program {
	t.Helper()
	prog, diags := dsl.Load(nil, files...)
	if diags.HasErrors() || prog == nil {
		t.Fatalf("load: %v", diags)
	}
	return prog
}

// brute is a distribution computed in the test: outcome text -> exact probability.
type brute map[string]*big.Rat

func (b brute) add(key string, num, den int64) {
	if b[key] == nil {
		b[key] = new(big.Rat)
	}
	b[key].Add(b[key], big.NewRat(num, den))
}

// checkExact compares an exact answer with a brute-force distribution.
func checkExact(t *testing.T, d *Dist, want brute) {
	t.Helper()
	if !d.Exact {
		t.Fatalf("%s: sampled, want exact", d.Expr)
	}
	if len(d.Outcomes) != len(want) {
		t.Errorf("%s: %d outcomes, want %d", d.Expr, len(d.Outcomes), len(want))
	}
	for _, o := range d.Outcomes {
		w, ok := want[o.Text]
		if !ok {
			t.Errorf("%s: outcome %s not expected", d.Expr, o.Text)
			continue
		}
		if o.Fraction.Cmp(w) != 0 {
			t.Errorf("%s: P(%s) = %s, want %s", d.Expr, o.Text, o.Fraction.RatString(), w.RatString())
		}
	}
}

func prob(t *testing.T, prog *dsl.Program, expr string, opt ProbOptions) *Dist {
	t.Helper()
	d, err := Prob(Question{Prog: prog, Expr: expr, Seed: 1}, opt)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return d
}

func itoa(n int) string { return big.NewInt(int64(n)).String() }

// sommeBrute: the first d6 rerolled once on a 1, plus a second d6.
func sommeBrute(bonus int) brute {
	want := brute{}
	for a := 1; a <= 6; a++ {
		for b := 1; b <= 6; b++ {
			if a == 1 {
				for r := 1; r <= 6; r++ {
					want.add(itoa(r+b+bonus), 1, 216)
				}
				continue
			}
			want.add(itoa(a+b+bonus), 1, 36)
		}
	}
	return want
}

func TestExactRerollRule(t *testing.T) {
	prog := loadFiles(t, "testdata/odds.rules")
	d := prob(t, prog, "somme()", ProbOptions{})
	checkExact(t, d, sommeBrute(0))
	// The mean, from the brute-force fractions.
	mean := new(big.Rat)
	for k, p := range sommeBrute(0) {
		v, _ := new(big.Rat).SetString(k)
		mean.Add(mean, new(big.Rat).Mul(v, p))
	}
	if m, _ := mean.Float64(); d.Mean != m || !d.Numeric {
		t.Errorf("mean %v, want %v", d.Mean, m)
	}
}

func TestExactStateRolledBackPerBranch(t *testing.T) {
	prog := loadFiles(t, "testdata/odds.rules")
	d := prob(t, prog, "blesser()", ProbOptions{})
	want := brute{}
	for a := 1; a <= 4; a++ {
		if 10-a > 7 {
			want.add("Pion{pv: "+itoa(10-a)+"}", 1, 4)
			continue
		}
		for b := 1; b <= 3; b++ {
			want.add("Pion{pv: "+itoa(10-a-b)+"}", 1, 12)
		}
	}
	checkExact(t, d, want)
	if d.Numeric {
		t.Error("records are not numbers")
	}
}

func TestExactFailingRequireIsAnOutcome(t *testing.T) {
	prog := loadFiles(t, "testdata/odds.rules")
	d := prob(t, prog, "tenter()", ProbOptions{})
	want := brute{"error: raté": big.NewRat(1, 3)}
	for r := 3; r <= 6; r++ {
		want.add(itoa(r), 1, 6)
	}
	checkExact(t, d, want)
	if last := d.Outcomes[len(d.Outcomes)-1]; last.Err != "raté" {
		t.Errorf("the failure is not last: %+v", last)
	}
	if d.Numeric {
		t.Error("an outcome is a failure: no mean")
	}
}

// permutations calls f with every order of xs.
func permutations(xs []string, f func([]string)) {
	if len(xs) <= 1 {
		f(xs)
		return
	}
	for i := range xs {
		rest := append(append([]string{}, xs[:i]...), xs[i+1:]...)
		permutations(rest, func(p []string) { f(append([]string{xs[i]}, p...)) })
	}
}

func TestExactCardDraw(t *testing.T) {
	prog := loadFiles(t, "testdata/odds.rules")
	red := map[string]bool{"Q♣": false, "7♥": true, "2♦": true}
	want, withLines := brute{}, brute{}
	permutations([]string{"Q♣", "7♥", "2♦"}, func(p []string) {
		n := 0
		for _, c := range p[:2] {
			if red[c] {
				n++
			}
		}
		want.add(itoa(n), 1, 6)
		withLines.add(itoa(n)+"|"+p[0]+" "+p[1], 1, 6)
	})
	checkExact(t, prob(t, prog, "rouges()", ProbOptions{}), want)
	d, err := Prob(Question{Prog: prog, Expr: "rouges()", Emits: true}, ProbOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Outcomes) != len(withLines) {
		t.Fatalf("%d outcomes with their lines, want %d", len(d.Outcomes), len(withLines))
	}
	for _, o := range d.Outcomes {
		k := o.Text + "|" + o.Emitted[0]
		if w := withLines[k]; w == nil || w.Cmp(o.Fraction) != 0 {
			t.Errorf("P(%s) = %s, want %v", k, o.Fraction.RatString(), w)
		}
	}
}

func TestRuleCache(t *testing.T) {
	prog := loadFiles(t, "testdata/odds.rules")
	d := prob(t, prog, "deux_jets()", ProbOptions{})
	want := brute{}
	for a := 1; a <= 4; a++ {
		for b := 1; b <= 4; b++ {
			want.add(itoa(2*a+2*b+2), 1, 16)
		}
	}
	// jet rolls, so it is never cached (a cached roll would make every branch alike);
	// double draws nothing and is cached by its argument.
	checkExact(t, d, want)
	if d.CacheHits == 0 {
		t.Errorf("no call answered from the cache (%d misses)", d.CacheMisses)
	}
}

func TestSampledIntervalsHoldExact(t *testing.T) {
	prog := loadFiles(t, "testdata/odds.rules")
	var notes []string
	d := prob(t, prog, "somme()", ProbOptions{Budget: 10, Samples: 20000, Note: func(s string) { notes = append(notes, s) }})
	if d.Exact || d.Samples != 20000 || len(notes) != 1 {
		t.Fatalf("exact %v, %d samples, notes %q", d.Exact, d.Samples, notes)
	}
	want := sommeBrute(0)
	var total int64
	for _, o := range d.Outcomes {
		total += o.Count
		p, _ := want[o.Text].Float64()
		if p < o.Lo || p > o.Hi {
			t.Errorf("P(%s) = %.4f outside [%.4f, %.4f]", o.Text, p, o.Lo, o.Hi)
		}
	}
	if total != d.Samples {
		t.Errorf("counts sum to %d", total)
	}
	// The mean's 95% interval: Z95 standard errors each side, holding the exact mean (7 plus
	// somme's bonus of 0: two d6).
	var exactMean float64
	for v, p := range want {
		x, _ := new(big.Rat).SetString(v)
		f, _ := new(big.Rat).Mul(x, p).Float64()
		exactMean += f
	}
	half := Z95 * d.Stddev / math.Sqrt(float64(d.Samples))
	if math.Abs(d.MeanHi-d.Mean-half) > 1e-12 || math.Abs(d.Mean-d.MeanLo-half) > 1e-12 {
		t.Errorf("mean %v in [%v, %v], want ± %v", d.Mean, d.MeanLo, d.MeanHi, half)
	}
	if exactMean < d.MeanLo || exactMean > d.MeanHi {
		t.Errorf("exact mean %v outside [%v, %v]", exactMean, d.MeanLo, d.MeanHi)
	}
	again := prob(t, prog, "somme()", ProbOptions{Budget: 10, Samples: 20000})
	for i := range d.Outcomes {
		if d.Outcomes[i].Count != again.Outcomes[i].Count {
			t.Fatal("the same seed gave other counts")
		}
	}
}

func TestExactRefusesToSample(t *testing.T) {
	prog := loadFiles(t, "testdata/odds.rules")
	_, err := Prob(Question{Prog: prog, Expr: "somme()"}, ProbOptions{Budget: 10, Exact: true})
	var big *ErrTooBig
	if !errors.As(err, &big) || big.Budget != 10 || big.Estimate <= 10 {
		t.Fatalf("err = %v", err)
	}
}

func TestUnboundedTreeFallsBack(t *testing.T) {
	prog := loadFiles(t, "testdata/odds.rules")
	var notes []string
	d := prob(t, prog, "explose()", ProbOptions{Budget: 2000, Samples: 5000, Note: func(s string) { notes = append(notes, s) }})
	if d.Exact || len(notes) != 1 {
		t.Fatalf("exact %v, notes %q", d.Exact, notes)
	}
	// P(1) = 1/6 for an exploding d6.
	if o := d.Outcomes[0]; o.Text != "1" || o.Lo > 1.0/6 || o.Hi < 1.0/6 {
		t.Errorf("first outcome %+v", o)
	}
}

func TestCompareExact(t *testing.T) {
	prog := loadFiles(t, "testdata/odds.rules")
	a := Question{Prog: prog, Expr: "somme()", Seed: 1}
	b := a
	b.Overrides = map[string]any{"bonus": 2}
	c, err := Compare(a, b, ProbOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, c.A, sommeBrute(0))
	checkExact(t, c.B, sommeBrute(2))
	if !c.Diff.Exact || c.Diff.Mean != 2 {
		t.Errorf("difference exact %v mean %v", c.Diff.Exact, c.Diff.Mean)
	}
	wa, wb := sommeBrute(0), sommeBrute(2)
	for _, o := range c.Diff.Outcomes {
		pa, pb := new(big.Rat), new(big.Rat)
		if wa[o.Text] != nil {
			pa = wa[o.Text]
		}
		if wb[o.Text] != nil {
			pb = wb[o.Text]
		}
		want, _ := new(big.Rat).Sub(pb, pa).Float64()
		if diff := o.D - want; diff > 1e-12 || diff < -1e-12 || o.Lo != o.D || o.Hi != o.D {
			t.Errorf("difference at %s: %v [%v, %v], want %v", o.Text, o.D, o.Lo, o.Hi, want)
		}
	}
}

func TestCompareVariantSampledPaired(t *testing.T) {
	prog := loadFiles(t, "testdata/odds.rules")
	variant := loadFiles(t, "testdata/odds.rules", "testdata/renfort.rules")
	a := Question{Prog: prog, Expr: "somme()", Seed: 1}
	b := Question{Prog: variant, Expr: "somme()", Seed: 1}
	c, err := Compare(a, b, ProbOptions{Budget: 10, Samples: 20000})
	if err != nil {
		t.Fatal(err)
	}
	if c.Diff.Exact || c.A.Exact || c.B.Exact {
		t.Fatal("want sampled")
	}
	// The variant adds one Renfort: every sample is the same draws plus one, so the paired
	// difference of the means is exactly 1 with no spread.
	if c.Diff.Mean < 0.9999999 || c.Diff.Mean > 1.0000001 || c.Diff.MeanHi-c.Diff.MeanLo > 1e-9 {
		t.Errorf("mean difference %v [%v, %v]", c.Diff.Mean, c.Diff.MeanLo, c.Diff.MeanHi)
	}
	wa, wb := sommeBrute(0), sommeBrute(1)
	for _, o := range c.Diff.Outcomes {
		pa, pb := new(big.Rat), new(big.Rat)
		if wa[o.Text] != nil {
			pa = wa[o.Text]
		}
		if wb[o.Text] != nil {
			pb = wb[o.Text]
		}
		want, _ := new(big.Rat).Sub(pb, pa).Float64()
		if want < o.Lo || want > o.Hi {
			t.Errorf("difference at %s: %v outside [%v, %v]", o.Text, want, o.Lo, o.Hi)
		}
	}
}

func TestCompileErrorIsReturned(t *testing.T) {
	prog := loadFiles(t, "testdata/odds.rules")
	if _, err := Prob(Question{Prog: prog, Expr: "inconnu()"}, ProbOptions{}); err == nil {
		t.Fatal("no error for an unknown procedure")
	}
}

func TestRollIsItsTotal(t *testing.T) {
	prog := loadFiles(t, "testdata/odds.rules")
	d := prob(t, prog, "1d2 + 0 == 1 ? 2d3 : 1d1", ProbOptions{})
	want := brute{"1": big.NewRat(1, 2)}
	for a := 1; a <= 3; a++ {
		for b := 1; b <= 3; b++ {
			want.add(itoa(a+b), 1, 18)
		}
	}
	checkExact(t, d, want)
}
