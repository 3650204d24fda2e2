package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// simRun runs `rulesh sim args…` in-process from the repository root.
func simRun(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	root, _ := filepath.Abs("../../../..")
	wd, _ := os.Getwd()
	if err := os.Chdir(root); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var out, errOut bytes.Buffer
	code := Sim(IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut}, args)
	return out.String(), errOut.String(), code
}

// TestSimDeterminism: the JSON of a simulation is the same bytes on 1 and 4 workers, and
// from 3 shards merged (given in any order); with a comparison too. With -short (CI's race
// run) each study does a tenth of its runs, still more than the workers and shards.
func TestSimDeterminism(t *testing.T) {
	for _, study := range [][]string{
		{"-f", "rulesets/mortebrume/forge.rules", "--runs", "2000", "--seed", "11", "frapper(will, jack)"},
		{"-f", "rulesets/examples/duel.rules", "--runs", "1500", "--seed", "4", "--compare", "malus=1", "d6 + 2 - malus >= 4"},
		{"-f", "rulesets/examples/cartes.rules", "--runs", "700", "--seed", "2", "draw(jeu)"},
	} {
		if testing.Short() {
			n, _ := strconv.Atoi(study[3])
			study[3] = strconv.Itoa(n / 10)
		}
		var outs []string
		for _, w := range []string{"1", "4"} {
			out, errOut, code := simRun(t, append([]string{"--json", "--workers", w}, study...)...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", study, code, errOut)
			}
			outs = append(outs, out)
		}
		dir := t.TempDir()
		var files []string
		for _, i := range []int{3, 1, 2} {
			out, errOut, code := simRun(t, append([]string{"--shard", fmt.Sprintf("%d/3", i)}, study...)...)
			if code != 0 {
				t.Fatalf("shard %d: exit %d: %s", i, code, errOut)
			}
			f := filepath.Join(dir, fmt.Sprintf("s%d.json", i))
			if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		out, errOut, code := simRun(t, append([]string{"--merge", "--json"}, files...)...)
		if code != 0 {
			t.Fatalf("merge: exit %d: %s", code, errOut)
		}
		outs = append(outs, out)
		for i, o := range outs[1:] {
			if o != outs[0] {
				t.Errorf("%v: output %d differs:\n%s\nwant\n%s", study, i+1, o, outs[0])
			}
		}
		if !json.Valid([]byte(outs[0])) {
			t.Errorf("not JSON: %s", outs[0])
		}
		// The human output of the merge is the single machine's too.
		human, _, code := simRun(t, study...)
		merged, _, mcode := simRun(t, append([]string{"--merge"}, files...)...)
		if code != 0 || mcode != 0 || human == "" {
			t.Fatalf("exit %d and %d, output %q", code, mcode, human)
		}
		if human != merged {
			t.Errorf("merged text differs:\n%s\nwant\n%s", merged, human)
		}
	}
}

// TestSimJSONShape: the keys DESIGN.md gives, in its order, and a comparison's three parts.
func TestSimJSONShape(t *testing.T) {
	out, _, code := simRun(t, "--json", "--runs", "600", "--seed", "1", "d6")
	if code != 0 {
		t.Fatal(code)
	}
	var doc struct {
		Expr     string
		Runs     int
		Seed     uint64
		Outcomes []struct {
			Value     any
			Count     int
			Frequency float64
			CI95      []float64
		}
		Mean, Stddev *float64
		Quantiles    []struct{ Q, Value float64 }
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, `{"expr":"d6","runs":600,"seed":1,"outcomes":[{"value":1,"count":`) {
		t.Errorf("start of %s", out)
	}
	total := 0
	for _, o := range doc.Outcomes {
		total += o.Count
		if len(o.CI95) != 2 || o.CI95[0] > o.Frequency || o.CI95[1] < o.Frequency {
			t.Errorf("outcome %+v", o)
		}
	}
	if total != 600 || len(doc.Outcomes) != 6 || doc.Mean == nil || len(doc.Quantiles) != 5 || doc.Quantiles[2].Q != 0.5 {
		t.Errorf("doc %+v", doc)
	}
	out, _, code = simRun(t, "--json", "--runs", "100", "--seed", "1", "-f", "rulesets/examples/duel.rules", "--compare", "malus=0", "d6 - malus")
	var cmp map[string]json.RawMessage
	if code != 0 || json.Unmarshal([]byte(out), &cmp) != nil || len(cmp) != 3 || cmp["a"] == nil || cmp["b"] == nil || cmp["difference"] == nil {
		t.Errorf("compare: %s", out)
	}
	if !strings.Contains(out, `"difference":{"outcomes":[{"value":-2,"difference":-0.`) || !strings.Contains(out, `"mean":{"difference":3,"ci95":[3,3]}`) {
		t.Errorf("difference: %s", out)
	}
}

// TestSimMergeRefuses: shards of another study, given twice, missing, or not shards.
func TestSimMergeRefuses(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, args ...string) string {
		out, errOut, code := simRun(t, args...)
		if code != 0 {
			t.Fatalf("%v: %s", args, errOut)
		}
		f := filepath.Join(dir, name)
		os.WriteFile(f, []byte(out), 0o644)
		return f
	}
	a1 := write("a1", "--runs", "90", "--seed", "1", "--shard", "1/2", "d6")
	a2 := write("a2", "--runs", "90", "--seed", "1", "--shard", "2/2", "d6")
	b2 := write("b2", "--runs", "90", "--seed", "2", "--shard", "2/2", "d6")
	c3 := write("c3", "--runs", "90", "--seed", "1", "--shard", "3/3", "d6")
	junk := filepath.Join(dir, "junk")
	os.WriteFile(junk, []byte(`{"x": 1}`), 0o644)
	for _, c := range []struct {
		files []string
		want  string
	}{
		{[]string{a1, b2}, "another study than " + a1 + ": seed 2, not 1"},
		{[]string{a1, a1, a2}, "shard 1/2 is given twice"},
		{[]string{a2}, "shard 1/2 missing"},
		{[]string{a1, c3}, "the runs were sliced differently"},
		{[]string{junk}, "not a shard of rulesh sim --shard"},
	} {
		_, errOut, code := simRun(t, append([]string{"--merge"}, c.files...)...)
		if code != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("merge %v: exit %d, %q; want %q", c.files, code, errOut, c.want)
		}
	}
	if out, _, code := simRun(t, "--merge", a2, a1); code != 0 || !strings.HasPrefix(out, "d6: 90 runs, seed 1\n") {
		t.Errorf("merge: %d %s", code, out)
	}
}

// TestSimSVGAndHistogram: --svg draws A and B side by side; many distinct numbers print as
// ranges of whole numbers whose counts add up to the runs.
func TestSimSVGAndHistogram(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "c.svg")
	_, errOut, code := simRun(t, "--runs", "300", "--seed", "1", "-f", "rulesets/examples/duel.rules", "--compare", "malus=1", "--svg", svg, "d6 - malus")
	b, err := os.ReadFile(svg)
	if code != 0 || err != nil || !strings.Contains(string(b), "B: --compare malus=1") || strings.Count(string(b), "<rect") < 2*8 {
		t.Errorf("svg: exit %d %s %v\n%s", code, errOut, err, b)
	}
	out, _, code := simRun(t, "--runs", "2000", "--seed", "1", "10d10")
	if code != 0 || !strings.Contains(out, "55 distinct values, in 17 ranges") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	total := 0
	ranges := 0
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) >= 3 && strings.HasSuffix(f[2], "%") {
			n, _ := strconv.Atoi(f[1])
			total += n
			ranges++
		}
	}
	// 22 to 86 is 65 whole numbers: ranges of 4 (65/20 rounded up), 17 of them.
	if ranges != 17 || !strings.Contains(out, "\n22–25  ") || !strings.Contains(out, "\n   86  ") {
		t.Errorf("%d ranges of whole numbers, want 17 of 4 from 22\n%s", ranges, out)
	}
	if total != 2000 {
		t.Errorf("histogram counts add up to %d\n%s", total, out)
	}
}
