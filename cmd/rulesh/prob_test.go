package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProbCLIMatchesREPL holds `rulesh prob` and the REPL's :prob to one answer: both print
// what analysis.Odds decides. They used to decide apart, and résultat_aidé(stat) failed in
// the CLI (the name stat read as the text "stat": cannot apply + to int and string) while
// :prob answered 5/12, 5/12, 1/6; moral(clair) was a column in one, an unknown name in the
// other.
func TestProbCLIMatchesREPL(t *testing.T) {
	root, _ := filepath.Abs("../..")
	wd, _ := os.Getwd()
	_ = os.Chdir(root)
	defer os.Chdir(wd)
	for _, tc := range []struct{ file, expr string }{
		{"rulesets/examples/bandes.rules", "résultat_aidé(stat)"},
		{"rulesets/examples/bandes.rules", "résultat_aidé(2)"},
		{"rulesets/examples/bandes.rules", "résultat()"},
		{"rulesets/examples/bandes.rules", `résultat() != "échec"`},
		{"rulesets/examples/coups.rules", "coup(2)"},
		{"rulesets/examples/coups.rules", "coup"},
		{"rulesets/examples/combats.rules", "combats(1:1)"},
		{"rulesets/examples/combats.rules", `moral("clair")`},
		{"rulesets/examples/combats.rules", "moral(clair)"},
		{"rulesets/examples/combats.rules", "2d6 >= 10"},
		{"rulesets/examples/combats.rules", "3d0"},
		{"rulesets/examples/combats.rules", "do_move"},
	} {
		var cliOut bytes.Buffer
		Main([]string{"prob", "-f", tc.file, tc.expr}, strings.NewReader(""), &cliOut, &cliOut)
		var replOut, replErr bytes.Buffer
		Main([]string{"repl", "-f", tc.file}, strings.NewReader(":prob "+tc.expr+"\n"), &replOut, &replErr)
		// The CLI says its own failures as "rulesh prob: …", the REPL as "error: …".
		cli := strings.Replace(cliOut.String(), "rulesh prob: ", "error: ", 1)
		if cli != replOut.String() {
			t.Errorf("%s: prob and :prob differ\nrulesh prob:\n%s\n:prob:\n%s%s", tc.expr, cli, replOut.String(), replErr.String())
		}
	}
}
