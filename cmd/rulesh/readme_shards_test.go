package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMEShards runs the README's ways of running shards on a batch engine (the GNU
// parallel one-liner, the Slurm array script, the command of the Kubernetes Indexed Job),
// each with the engine's index set by hand and fewer runs, and checks that their one merge
// prints the bytes the single machine prints. `rulesh` is the test binary (TestMain puts it
// on PATH); the parallel one-liner is skipped, saying so, when GNU parallel is not there.
func TestREADMEShards(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the README's shard scripts")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := codeBlocks(string(readme))
	block := func(t *testing.T, with string) string {
		for _, b := range blocks {
			if strings.Contains(b, with) {
				return b
			}
		}
		t.Fatalf("README.md has no code block with %q", with)
		return ""
	}
	// Fewer runs than the README's, the same everywhere else.
	const readmeRuns, runs = "--runs 300000", "--runs 1600"
	fewer := func(t *testing.T, s string) string {
		if !strings.Contains(s, readmeRuns) {
			t.Fatalf("no %q in %q", readmeRuns, s)
		}
		return strings.ReplaceAll(s, readmeRuns, runs)
	}
	// Each engine runs in a folder of its own holding the rulesets, as the README says.
	folder := func(t *testing.T) string {
		dir := t.TempDir()
		if err := os.CopyFS(filepath.Join(dir, "rulesets"), os.DirFS(filepath.Join(root, "rulesets"))); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	shell := func(t *testing.T, dir, name string, env []string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s %q: %v\n%s", name, args, err, errOut.String())
		}
		return out.String()
	}
	single := shell(t, folder(t), "rulesh", nil, "sim", "--json", "-f", "rulesets/mortebrume/forge.rules", "--runs", "1600", "--seed", "9", "frapper(will, jack)")
	par := strings.Split(strings.TrimSpace(block(t, "parallel --halt")), "\n")
	if len(par) != 2 || !strings.HasPrefix(par[1], "rulesh sim --merge") {
		t.Fatalf("the parallel block is not a one-liner and the merge: %q", par)
	}
	mergeLine := par[1]
	merged := func(t *testing.T, dir string) {
		t.Helper()
		shards, _ := filepath.Glob(filepath.Join(dir, "shard-*.json"))
		if len(shards) != 8 {
			t.Fatalf("%d shard files, want 8: %v", len(shards), shards)
		}
		if got := shell(t, dir, "sh", nil, "-c", mergeLine); got != single {
			t.Errorf("the merge of the shards:\n%s\nthe single machine:\n%s", got, single)
		}
	}

	t.Run("parallel", func(t *testing.T) {
		if _, err := exec.LookPath("parallel"); err != nil {
			t.Skip("GNU parallel is not on PATH: the README's parallel one-liner is not run")
		}
		if v, _ := exec.Command("parallel", "--version").Output(); !bytes.HasPrefix(v, []byte("GNU parallel")) {
			t.Skip("the parallel on PATH is not GNU parallel: the README's one-liner is not run")
		}
		dir := folder(t)
		shell(t, dir, "sh", nil, "-c", fewer(t, par[0]))
		merged(t, dir)
	})

	t.Run("slurm", func(t *testing.T) {
		if _, err := exec.LookPath("bash"); err != nil {
			t.Skip("no bash on PATH to run the Slurm script with")
		}
		script := fewer(t, block(t, "#SBATCH --array=1-8"))
		dir := folder(t)
		if err := os.WriteFile(filepath.Join(dir, "shards.sh"), []byte(script), 0o644); err != nil {
			t.Fatal(err)
		}
		for i := 1; i <= 8; i++ {
			shell(t, dir, "bash", []string{fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", i)}, "shards.sh")
		}
		merged(t, dir)
	})

	t.Run("kubernetes", func(t *testing.T) {
		script := fewer(t, blockScalar(t, block(t, "completionMode: Indexed"), "- |"))
		dir := folder(t)
		for i := 0; i < 8; i++ {
			shell(t, dir, "sh", []string{fmt.Sprintf("JOB_COMPLETION_INDEX=%d", i)}, "-c", script)
		}
		merged(t, dir)
	})
}

// codeBlocks returns the text of every fenced code block of a Markdown document.
func codeBlocks(doc string) []string {
	var blocks []string
	var cur *strings.Builder
	for _, line := range strings.Split(doc, "\n") {
		switch {
		case strings.HasPrefix(line, "```") && cur == nil:
			cur = &strings.Builder{}
		case strings.HasPrefix(line, "```"):
			blocks = append(blocks, cur.String())
			cur = nil
		case cur != nil:
			cur.WriteString(line + "\n")
		}
	}
	return blocks
}

// blockScalar returns the YAML block scalar that follows the line ending with marker in
// yaml, its indentation removed.
func blockScalar(t *testing.T, yaml, marker string) string {
	lines := strings.Split(yaml, "\n")
	for i, l := range lines {
		if !strings.HasSuffix(l, marker) {
			continue
		}
		indent := len(l) - len(strings.TrimLeft(l, " "))
		var b strings.Builder
		for _, s := range lines[i+1:] {
			if strings.TrimSpace(s) == "" || len(s)-len(strings.TrimLeft(s, " ")) <= indent {
				break
			}
			b.WriteString(strings.TrimLeft(s, " ") + "\n")
		}
		return b.String()
	}
	t.Fatalf("no %q in the YAML", marker)
	return ""
}
