package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRewritesAreAtomic: fmt -w, test --update and map --svg replace their target by a
// rename, so a reader holding the old file still sees it whole.
func TestRewritesAreAtomic(t *testing.T) {
	root, _ := filepath.Abs("../../../..")
	dir := t.TempDir()
	write := func(name, text string) (string, *os.File) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o640); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return p, f
	}
	messy := "rule f(x) {\n    return x\n}\n"
	rules, oldRules := write("m.rules", messy)
	tr, oldTr := write("t.transcript", "> 1 + 1\n3\n")
	svg, oldSvg := write("map.svg", "<svg>old picture</svg>\n")
	runs := []struct {
		cmd  Command
		args []string
	}{
		{Fmt, []string{"-w", rules}},
		{Test, []string{"--update", tr}},
		{Map, []string{filepath.Join(root, "rulesets/examples/carte.rules"), "--svg", svg}},
	}
	for _, r := range runs {
		if code, out, errOut := runIn(t, root, "", r.cmd, r.args...); code != 0 {
			t.Fatalf("rulesh %v: exit %d\n%s%s", r.args, code, out, errOut)
		}
	}
	for _, c := range []struct {
		f    *os.File
		path string
		old  string
	}{{oldRules, rules, messy}, {oldTr, tr, "> 1 + 1\n3\n"}, {oldSvg, svg, "<svg>old picture</svg>\n"}} {
		if b, _ := io.ReadAll(c.f); string(b) != c.old {
			t.Errorf("%s was written in place: the old file now reads %q", c.path, b)
		}
		st, _ := os.Stat(c.path)
		if st.Mode().Perm() != 0o640 {
			t.Errorf("%s: mode %v, want 0640 kept", c.path, st.Mode().Perm())
		}
		if b, _ := os.ReadFile(c.path); string(b) == c.old {
			t.Errorf("%s was not rewritten", c.path)
		}
	}
}

// TestMapSVGSparesOtherFiles: map --svg replaces an existing file only if it is empty or
// already a picture, so `--svg duel.rules` (or a link to a rule file) cannot turn a rule file
// into an SVG.
func TestMapSVGSparesOtherFiles(t *testing.T) {
	root, _ := filepath.Abs("../../../..")
	carte := filepath.Join(root, "rulesets/examples/carte.rules")
	dir := t.TempDir()
	files := map[string]string{
		"duel.rules": "const a = 1\n",
		"old.svg":    "\ufeff  <?xml version=\"1.0\"?>\n<svg></svg>\n",
		"empty.svg":  "",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("duel.rules", filepath.Join(dir, "link.svg")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		out     string
		refused bool
	}{{"duel.rules", true}, {"link.svg", true}, {"old.svg", false}, {"empty.svg", false}, {"new.svg", false}} {
		code, out, errOut := runIn(t, root, "", Map, carte, "--svg", filepath.Join(dir, c.out))
		if refused := strings.Contains(errOut, "is not an SVG picture; not overwritten"); refused != c.refused || refused != (code == 1) {
			t.Errorf("map --svg %s: exit %d\n%s%s", c.out, code, out, errOut)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "duel.rules")); string(b) != files["duel.rules"] {
		t.Errorf("duel.rules was overwritten: %.60q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "old.svg")); !strings.Contains(string(b), "<svg") || len(b) < 100 {
		t.Errorf("old.svg was not redrawn: %.60q", b)
	}
}
