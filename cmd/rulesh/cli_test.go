package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"rulesh/dsl"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestMain registers the real entry point as the command `rulesh` of the CLI scripts: the test
// binary runs it when a script says `exec rulesh …`. Before anything runs, it notes how many
// parsers the initialisation of every package of the command built (TestNoParserAtInit).
func TestMain(m *testing.M) {
	parsersAtInit = dsl.ParsersBuilt()
	testscript.Main(m, map[string]func(){"rulesh": rulesh})
}

// statusEnv names the environment variable holding the file where the command `rulesh` leaves
// its exit code for the script command `status`.
const statusEnv = "RULESH_STATUS_FILE"

// rulesh runs Main as the rulesh binary does (run: output buffered), and records its exit
// code for `status`.
func rulesh() {
	f := os.Getenv(statusEnv)
	if f != "" {
		_ = os.Remove(f)
	}
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if f != "" {
		_ = os.WriteFile(f, []byte(strconv.Itoa(code)), 0o644)
	}
	os.Exit(code)
}

// TestCLIScripts runs the testscript scripts tests/cli/*.txtar from the repository root (also
// in $REPO), so rule files are named as a user names them. `status N` asserts the exit code of
// the last `exec rulesh`. -update rewrites the golden files that `cmp stdout` and `cmp stderr`
// compare with.
func TestCLIScripts(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join(root, "tests", "cli"),
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(env *testscript.Env) error {
			env.Cd = root
			env.Setenv("REPO", root)
			env.Setenv(statusEnv, filepath.Join(env.WorkDir, ".rulesh-status"))
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"status": cmdStatus,
		},
	})
}

// cmdStatus is the script command `status N`: the last `exec rulesh` exited with code N (exec
// alone checks 0, and `! exec` only that the code is not 0).
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: status N")
	}
	f := ts.Getenv(statusEnv)
	b, err := os.ReadFile(f)
	if err != nil {
		ts.Fatalf("status: no exit code recorded (did rulesh run, or crash?): %v", err)
	}
	_ = os.Remove(f)
	if got := string(b); got != args[0] {
		ts.Fatalf("rulesh exited with %s, want %s", got, args[0])
	}
}

// runCLI runs the CLI in-process from the repository root and returns its stdout, its stderr
// lines prefixed with "! ", and "[exit N]" when N is not 0.
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

// TestUsage: the usage built from the table of commands reads as the CLI contract wrote it.
func TestUsage(t *testing.T) {
	want := `rulesh: check, run and explore tabletop house rules written as text.

Usage:
  rulesh        [-f FILE]... [--seed N]  REPL (same as rulesh repl)
  rulesh repl   [-f FILE]... [--seed N]  REPL with rule files loaded
  rulesh roll   [--seed N] [-n COUNT] [--stats] [--json] EXPR
  rulesh prob   [-f FILE]... [--set K=V]... [--json] [--svg OUT] [--png OUT] [--compare K=V | --variant FILE] EXPR   odds of any expression or procedure call: exact, or sampled with intervals
  rulesh sim    [-f FILE]... [--runs N] [--seed S] [--compare K=V] [--shard I/N] [--json] EXPR  Monte Carlo runs
  rulesh eval   [-f FILE]... [--seed N] [--rolls LIST] [--set K=V]... [--json] EXPR
  rulesh check  FILE...                  diagnostics as file:line:col: message; exit 1 on error
  rulesh fmt    [-w] [-l] FILE...        canonical formatting
  rulesh test   [PATH]...                run golden transcripts; --update rewrites them
  rulesh map    FILE [--svg OUT]         render a declared hex map (text, or an SVG picture)
  rulesh lsp                             language server on stdin/stdout, for editors

Run "rulesh COMMAND -h" for a command's flags. Exit codes: 0 success, 1 rule or input error,
2 bad usage.
`
	root, _ := filepath.Abs("../..")
	if got := runCLI(root, []string{"--help"}); got != want {
		t.Errorf("usage:\n%s\nwant:\n%s", got, want)
	}
	if got := runCLI(root, []string{"frobnicate"}); !strings.HasPrefix(got, "! rulesh: unknown command \"frobnicate\"\n! \n! rulesh: check, run") || !strings.HasSuffix(got, "! 2 bad usage.\n[exit 2]\n") {
		t.Errorf("unknown command:\n%s", got)
	}
}
