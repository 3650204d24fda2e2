package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"rulesh/analysis"
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
		{[]string{a2}, "shard 1/2 missing: the merge needs all 2 shards of the study in " + a2},
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

// TestSimShardRefused: more shards than runs, and a malformed I/N, are usage errors (exit 2)
// before any run; the message names both numbers.
func TestSimShardRefused(t *testing.T) {
	for _, c := range []struct {
		shard, runs, want string
	}{
		{"1/5", "3", `rulesh sim: --shard 1/5: 5 shards of 3 runs: a shard would do no run; use at most 3 shards`},
		{"4/3", "10", `want I/N with 1 ≤ I ≤ N`},
		{"0/3", "10", `want I/N with 1 ≤ I ≤ N`},
		{"1/0", "10", `want I/N with 1 ≤ I ≤ N`},
		{"+1/2", "10", `want I/N with 1 ≤ I ≤ N`},
		{"1-2", "10", `want I/N with 1 ≤ I ≤ N`},
	} {
		out, errOut, code := simRun(t, "--runs", c.runs, "--seed", "1", "--shard", c.shard, "d6")
		if code != 2 || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("--shard %s of %s runs: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.shard, c.runs, code, out, errOut, c.want)
		}
	}
}

// TestSimMergeHostileFiles: --merge reads regular files only, of bounded size: a folder, a
// named pipe, /dev/zero, a socket and a file over the limit are refused at once (exit 1,
// the file named), never read without end or waited on.
func TestSimMergeHostileFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock.json")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file: over the limit without writing it.
	if err := f.Truncate(analysis.MaxShardSize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, c := range []struct{ file, want string }{
		{dir, dir + " is a folder, not a file"},
		{fifo, fifo + " is a named pipe, not a regular file"},
		{"/dev/zero", "/dev/zero is a device, not a regular file"},
		{sock, sock + " is a socket, not a regular file"},
		{big, big + " is longer than the limit of 64 MiB"},
		{filepath.Join(dir, "none.json"), "cannot read " + filepath.Join(dir, "none.json") + ": no such file or directory"},
	} {
		type result struct {
			out, errOut string
			code        int
		}
		done := make(chan result, 1)
		go func() {
			out, errOut, code := simRun(t, "--merge", c.file)
			done <- result{out, errOut, code}
		}()
		select {
		case r := <-done:
			if r.code != 1 || r.out != "" || r.errOut != "rulesh sim --merge: "+c.want+"\n" {
				t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 and %q", c.file, r.code, r.out, r.errOut, c.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the merge is still reading after 10s", c.file)
		}
	}
}

// TestSimMergeContents: a shard records the SHA-256 of every rule file it ran, includes
// too; shards of files whose contents differ do not merge, and the message names the file.
func TestSimMergeContents(t *testing.T) {
	dir := t.TempDir()
	main, inc := filepath.Join(dir, "main.rules"), filepath.Join(dir, "bonus.rules")
	write := func(p, text string) {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(main, "include \"bonus.rules\"\nconst base = 1\n")
	write(inc, "const bonus = 2\n")
	shard := func(name, i string) string {
		out, errOut, code := simRun(t, "-f", main, "--runs", "40", "--seed", "3", "--shard", i+"/2", "d6 + base + bonus")
		if code != 0 {
			t.Fatalf("shard %s: exit %d: %s", i, code, errOut)
		}
		p := filepath.Join(dir, name)
		write(p, out)
		return p
	}
	s1 := shard("s1.json", "1")
	b, _ := os.ReadFile(s1)
	var doc struct{ SHA256 map[string]string }
	if err := json.Unmarshal(b, &doc); err != nil || len(doc.SHA256) != 2 || len(doc.SHA256[filepath.ToSlash(inc)]) != 64 {
		t.Fatalf("sha256 of the files run: %v %v\n%s", doc.SHA256, err, b)
	}
	s2 := shard("s2.json", "2")
	if _, errOut, code := simRun(t, "--merge", s1, s2); code != 0 {
		t.Fatalf("same files: exit %d: %s", code, errOut)
	}
	write(inc, "const bonus = 2\n\n") // the same value, other bytes
	s2 = shard("s2.json", "2")
	_, errOut, code := simRun(t, "--merge", s1, s2)
	want := "rulesh sim --merge: " + s2 + " is a shard of another study than " + s1 + ": the rule file " + filepath.ToSlash(inc) + " differs"
	if code != 1 || !strings.HasPrefix(errOut, want) {
		t.Errorf("other contents: exit %d, %q; want %q", code, errOut, want)
	}
	// The --variant file is B's rules: its contents count too.
	variant := filepath.Join(dir, "v.rules")
	write(variant, "const extra = 1\n")
	vshard := func(name, i string) string {
		out, errOut, code := simRun(t, "-f", main, "--variant", variant, "--runs", "40", "--seed", "3", "--shard", i+"/2", "d6 + base")
		if code != 0 {
			t.Fatalf("variant shard %s: exit %d: %s", i, code, errOut)
		}
		p := filepath.Join(dir, name)
		write(p, out)
		return p
	}
	v1 := vshard("v1.json", "1")
	write(variant, "const extra = 2\n")
	v2 := vshard("v2.json", "2")
	_, errOut, code = simRun(t, "--merge", v1, v2)
	if want := "the rule file " + filepath.ToSlash(variant) + " differs"; code != 1 || !strings.Contains(errOut, want) {
		t.Errorf("other variant: exit %d, %q; want %q", code, errOut, want)
	}
}

// TestSimMergeSVGTarget: --merge --svg never turns a shard (or any file not a picture) into
// a picture, and a merge refused writes no picture.
func TestSimMergeSVGTarget(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, i := range []string{"1", "2"} {
		out, _, code := simRun(t, "--runs", "20", "--seed", "1", "--shard", i+"/2", "d6")
		p := filepath.Join(dir, "s"+i+".json")
		if code != 0 || os.WriteFile(p, []byte(out), 0o644) != nil {
			t.Fatal(code)
		}
		files = append(files, p)
	}
	before, _ := os.ReadFile(files[0])
	// --svg takes s1.json: the merge of s2.json alone must not replace it.
	if _, errOut, code := simRun(t, "--merge", "--svg", files[0], files[1]); code != 1 || !strings.Contains(errOut, "is not an SVG picture; not overwritten") {
		t.Errorf("--svg a shard: exit %d %q", code, errOut)
	}
	if after, _ := os.ReadFile(files[0]); !bytes.Equal(after, before) {
		t.Error("the shard was overwritten")
	}
	svg := filepath.Join(dir, "out.svg")
	if _, _, code := simRun(t, "--merge", "--svg", svg, files[1]); code != 1 {
		t.Errorf("a shard missing: exit %d", code)
	}
	if _, err := os.Stat(svg); err == nil {
		t.Error("a refused merge wrote its picture")
	}
	if _, errOut, code := simRun(t, "--merge", "--svg", svg, files[1], files[0]); code != 0 {
		t.Errorf("merge with --svg: exit %d %s", code, errOut)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("files in the folder: %v; want the two shards and out.svg", entries)
	}
}

// TestSimShardTooLong: --shard refuses to print a document longer than --merge reads.
func TestSimShardTooLong(t *testing.T) {
	defer func(n int) { shardLimit = n }(shardLimit)
	shardLimit = 1 << 20
	out, _, code := simRun(t, "--runs", "10", "--seed", "1", "--shard", "1/2", "d6")
	if code != 0 || len(out) > shardLimit {
		t.Fatalf("a short shard: exit %d", code)
	}
	shardLimit = len(out) - 1
	out, errOut, code := simRun(t, "--runs", "10", "--seed", "1", "--shard", "1/2", "d6")
	if code != 1 || out != "" || !strings.Contains(errOut, "over the 0 MiB that --merge reads") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestSimSweepAtLeastBars: a sweep with more outcomes than the chart has colours is drawn
// as grouped bars, and --at-least draws them as P(≥ each outcome), as the lines are: the
// bars showed P(=) and --at-least was silently ignored.
func TestSimSweepAtLeastBars(t *testing.T) {
	for _, atLeast := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "s.svg")
		args := []string{"--runs", "500", "--seed", "3", "--sweep", "n=1..3", "--svg", out, "2d6 + n"}
		if atLeast {
			args = append([]string{"--at-least"}, args...)
		}
		_, errOut, code := simRun(t, args...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		svg, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(svg), ">P(≥ 12)</text>") && strings.Contains(string(svg), "<title>n=1 — P(≥ 3): 100%</title>"); got != atLeast {
			t.Errorf("--at-least %v: P(≥) bars drawn: %v", atLeast, got)
		}
	}
}
