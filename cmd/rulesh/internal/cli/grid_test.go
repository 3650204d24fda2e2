package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSweepGrid: two --sweep make a grid, one answer per pair of values, the first sweep's
// values the slower (the second --sweep was refused as given twice); three are refused.
func TestSweepGrid(t *testing.T) {
	code, out, errOut := runIn(t, ".", "", Prob, "--sweep", "n=1..2", "--sweep", "m=0,6", "d(6) + n >= 5 + m")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"for n = 1, 2 (a name of the expression) × m = 0, 6", "n=1 m=0", "n=2 m=6", "true   1/2 50.00%          —  2/3 66.67%          —"} {
		if !strings.Contains(out, want) {
			t.Errorf("prob grid lacks %q:\n%s", want, out)
		}
	}
	code, out, errOut = runIn(t, ".", "", Prob, "--json", "--sweep", "n=1..2", "--sweep", "m=0,6", "n + m")
	var doc struct {
		Sweep struct {
			Kind   string  `json:"kind"`
			Values [][]int `json:"values"`
		} `json:"sweep"`
		Results []struct {
			Mean float64 `json:"mean"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil {
		t.Fatalf("exit %d, %v: %s", code, err, errOut)
	}
	if doc.Sweep.Kind != "grid" || len(doc.Results) != 4 || doc.Results[1].Mean != 7 || doc.Sweep.Values[3][0] != 2 || doc.Sweep.Values[3][1] != 6 {
		t.Errorf("grid JSON %s", out)
	}
	code, out, _ = runIn(t, ".", "", Sim, "--runs", "200", "--seed", "3", "--sweep", "n=1..2", "--sweep", "m=0,6", "n + m")
	if code != 0 || !strings.Contains(out, "n=2 m=6") || !strings.Contains(out, "8            —        —        —  100.00%") {
		t.Errorf("sim grid exit %d:\n%s", code, out)
	}
	if code, _, errOut = runIn(t, ".", "", Prob, "--sweep", "n=1,2", "--sweep", "m=1,2", "--sweep", "k=1,2", "n"); code != ExitUsage || !strings.Contains(errOut, "two make a grid") {
		t.Errorf("three sweeps: exit %d, %s", code, errOut)
	}
}

// TestSimSweepHistogram: a sim sweep of many numbers is binned into ranges, the same for
// every value, as one sim draws them (it listed every number, 45 rows for 10d6 + n).
func TestSimSweepHistogram(t *testing.T) {
	code, out, errOut := runIn(t, ".", "", Sim, "--runs", "500", "--seed", "1", "--sweep", "n=0,10", "10d6 + n")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "40 distinct values, in 15 ranges") || !strings.Contains(out, "\n19–21 ") || strings.Count(out, "\n") > 24 {
		t.Errorf("not binned:\n%s", out)
	}
	code, out, _ = runIn(t, ".", "", Sim, "--runs", "500", "--seed", "1", "--sweep", "n=0,1", "d(6) + n")
	if code != 0 || strings.Contains(out, "ranges") {
		t.Errorf("few values binned:\n%s", out)
	}
}

// TestSweepBesideCompare: a sweep takes --compare, answering A and B at each value side by
// side (it was refused); prob and sim alike, sim with the same seeds for both, and a
// --compare of the swept name is refused.
func TestSweepBesideCompare(t *testing.T) {
	rules := "../../../../analysis/testdata/odds.rules"
	code, out, errOut := runIn(t, ".", "", Prob, "-f", rules, "--sweep", "n=0,1", "--compare", "bonus=2", "somme() + n >= 9")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"A: the rules; B: --compare bonus=2", "n=0 A", "n=1 B", "true   35/108 32.41%  47/72 65.28%  35/72 48.61%  85/108 78.70%"} {
		if !strings.Contains(out, want) {
			t.Errorf("prob lacks %q:\n%s", want, out)
		}
	}
	code, out, errOut = runIn(t, ".", "", Sim, "-f", rules, "--runs", "300", "--seed", "2", "--sweep", "n=0,1", "--compare", "bonus=2", "somme() + n >= 9")
	if code != 0 || !strings.Contains(out, "n=1 B") || !strings.Contains(out, "B: --compare bonus=2") {
		t.Errorf("sim exit %d: %s\n%s", code, errOut, out)
	}
	code, out, _ = runIn(t, ".", "", Prob, "--json", "-f", rules, "--sweep", "n=0,1", "--compare", "bonus=2", "somme() + n >= 9")
	if code != 0 || !strings.Contains(out, `"compare":"bonus=2","compare_results":[`) {
		t.Errorf("prob JSON exit %d: %s", code, out)
	}
	if code, _, errOut = runIn(t, ".", "", Prob, "-f", rules, "--sweep", "bonus=0,1", "--compare", "bonus=2", "somme()"); code != ExitUsage || !strings.Contains(errOut, "compare another option") {
		t.Errorf("compare of the swept name: exit %d, %s", code, errOut)
	}
}
