package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestCLIGolden replays the command scripts under tests/cli: each `$ rulesh …` line runs the
// CLI in-process from the repository root; the lines after it are its stdout, its stderr
// lines prefixed with "! ", and "[exit N]" when N is not 0. -update rewrites the scripts.
func TestCLIGolden(t *testing.T) {
	root, _ := filepath.Abs("../..")
	files, _ := filepath.Glob(filepath.Join(root, "tests/cli/*.txt"))
	if len(files) == 0 {
		t.Fatal("no scripts under tests/cli")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got := replay(t, root, string(raw))
			if *update {
				if err := os.WriteFile(f, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if got != string(raw) {
				t.Errorf("%s differs:\n%s", f, lineDiff(string(raw), got))
			}
		})
	}
}

// replay runs each command of a script and returns the script with fresh outputs.
func replay(t *testing.T, root, script string) string {
	var out strings.Builder
	for _, line := range strings.SplitAfter(script, "\n") {
		cmd, isCmd := strings.CutPrefix(strings.TrimRight(line, "\n"), "$ rulesh")
		if !isCmd {
			// Comments are kept; old outputs are dropped.
			if strings.HasPrefix(line, "#") {
				out.WriteString(line)
			}
			continue
		}
		args, err := splitArgs(cmd)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		out.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			out.WriteString("\n")
		}
		out.WriteString(runCLI(root, args))
	}
	return out.String()
}

func runCLI(root string, args []string) string {
	wd, _ := os.Getwd()
	_ = os.Chdir(root)
	defer os.Chdir(wd)
	var stdout, stderr bytes.Buffer
	code := Main(args, strings.NewReader(""), &stdout, &stderr)
	var b strings.Builder
	b.WriteString(stdout.String())
	for _, l := range strings.SplitAfter(stderr.String(), "\n") {
		if l != "" {
			b.WriteString("! " + l)
		}
	}
	if s := b.String(); s != "" && !strings.HasSuffix(s, "\n") {
		b.WriteString("\n")
	}
	if code != 0 {
		fmt.Fprintf(&b, "[exit %d]\n", code)
	}
	return b.String()
}

// splitArgs splits a command line with shell-like single and double quotes.
func splitArgs(s string) ([]string, error) {
	var args []string
	var cur strings.Builder
	inArg := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inArg = r, true
		case r == ' ' || r == '\t':
			if inArg {
				args = append(args, cur.String())
				cur.Reset()
				inArg = false
			}
		default:
			cur.WriteRune(r)
			inArg = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unclosed quote")
	}
	if inArg {
		args = append(args, cur.String())
	}
	return args, nil
}

// lineDiff shows the first differing line of two texts, with a little context.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, wl, gl)
		}
	}
	return ""
}

func TestExitCodes(t *testing.T) {
	root, _ := filepath.Abs("../..")
	tests := []struct {
		args []string
		code int
	}{
		{[]string{"--help"}, 0},
		{[]string{"eval", "-h"}, 0},
		{[]string{"check", "-h"}, 0},
		{[]string{"frobnicate"}, 2},
		{[]string{"eval"}, 2},
		{[]string{"eval", "--nope", "1"}, 2},
		{[]string{"eval", "1 +"}, 1},
		{[]string{"eval", "1 + 1"}, 0},
		{[]string{"eval", "--rolls", "1.5", "1"}, 2},
		{[]string{"eval", "--set", "novalue", "1"}, 2},
		{[]string{"check"}, 2},
		{[]string{"check", "missing.rules"}, 1},
		{[]string{"check", "rulesets/examples/duel.rules"}, 0},
		{[]string{"eval", "-f", "rulesets/examples/duel.rules", "--set", "malis=2", "1"}, 1},
	}
	for _, tt := range tests {
		out := runCLI(root, tt.args)
		code := 0
		if i := strings.LastIndex(out, "[exit "); i >= 0 {
			fmt.Sscanf(out[i:], "[exit %d]", &code)
		}
		if code != tt.code {
			t.Errorf("rulesh %s: exit %d, want %d\n%s", strings.Join(tt.args, " "), code, tt.code, out)
		}
	}
}
