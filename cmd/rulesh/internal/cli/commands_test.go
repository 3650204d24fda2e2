package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommands runs each command from the repository root, as a user types it, and checks
// its exit code and output (want is the whole stdout unless it ends in "…", then its start;
// wantErr is a part of stderr, "" for none at all).
func TestCommands(t *testing.T) {
	root, _ := filepath.Abs("../../../..")
	bad := filepath.Join(t.TempDir(), "bad.rules")
	if err := os.WriteFile(bad, []byte("const a = zut\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	messy, err := os.ReadFile(filepath.Join(root, "tests/cli/messy.rules"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		cmd           Command
		args          []string
		stdin         string
		code          int
		want, wantErr string
	}{
		{Check, []string{"rulesets/examples/duel.rules", "tests/cli/messy.rules"}, "", 0,
			"rulesets/examples/duel.rules: ok (2 options, 2 consts, 2 kinds, 4 entities, 6 procedures)\ntests/cli/messy.rules: ok (1 procedure)\n", ""},
		{Check, []string{"tests/cli/cycles.rules"}, "", 0, "tests/cli/cycles.rules: ok (1 kind, 2 entities, 1 procedure)\n", ""},
		{Check, []string{bad}, "", 1, "", bad + ":1:11: unknown name zut\n    const a = zut\n              ^\n"},
		{Check, []string{"missing.rules"}, "", 1, "", "missing.rules: cannot read missing.rules"},
		{Check, nil, "", 2, "", "rulesh check: no file given\nUsage: rulesh check FILE...\n"},
		{Check, []string{"-h"}, "", 0, "", "Usage: rulesh check FILE..."},
		{Check, []string{"--nope"}, "", 2, "", "rulesh check: unknown flag --nope\n"},

		{Roll, []string{"--seed", "1", "2d6+3"}, "", 0, "2d6 [4, 1] + 3 = 8\n", ""},
		{Roll, []string{"--seed", "1", "-n", "2", "1d6"}, "", 0, "1d6 [4] = 4\n1d6 [1] = 1\n", ""},
		{Roll, []string{"--seed", "1", "-f", "rulesets/naval/naval.rules", "1d6"}, "", 0, "1d6 [4] = 4\n", ""},
		{Roll, []string{"--seed", "3", "-n", "20", "--stats", "2d6"}, "", 0,
			"2d6: 20 rolls\nmean 7.0500  stddev 2.5392  min 3  max 12\nvalue  count       %\n    3      3  15.00%  ████████████████████████\n    4      1   5.00%  ████████\n…", ""},
		{Roll, []string{"--seed", "3", "-n", "5", "--stats", "--json", "1d6>=4"}, "", 0,
			`{"counts":{"0":3,"1":2},"expr":"1d6>=4","max":1,"mean":0.4,"min":0,"n":5,"stddev":0.4898979485566356}` + "\n", ""},
		{Roll, []string{"--seed", "3", "-n", "4", "--stats", "1d6", ">=", "4"}, "", 0, "1d6 >= 4: 4 rolls\n…", ""},
		{Roll, []string{"-n", "0", "1d6"}, "", 2, "", "rulesh roll: -n must be between 1 and 100000000\n"},
		{Roll, []string{"1d6/0"}, "", 1, "", "<expr>:1:5: division by zero\n    1d6/0\n        ^\n"},
		{Roll, []string{"-n", "3", "--stats", "1d6/0"}, "", 1, "", "<expr>:1:5: division by zero\n"},
		{Roll, []string{"d"}, "", 1, "", "<expr>:1:"},
		{Roll, []string{"-n", "100000000", "1000d6"}, "", 1, "", "rulesh roll: 100000000 rolls of 1000 dice each is more than the limit of 200000000 dice in all; roll fewer\n"},
		{Roll, nil, "", 2, "", "rulesh roll: no dice expression given\nUsage: rulesh roll "},
		{Roll, []string{"-f", "nope.rules", "1d6"}, "", 1, "", "nope.rules: cannot read nope.rules"},

		{Prob, []string{"--json", "1d2"}, "", 0,
			`{"exact":true,"expr":"1d2","mean":1.5,"outcomes":[{"value":1,"probability":0.5,"fraction":"1/2"},{"value":2,"probability":0.5,"fraction":"1/2"}],"stddev":0.5}` + "\n", ""},
		{Prob, []string{"-f", "rulesets/examples/tables.rules", "localisation"}, "", 0,
			"localisation\n value  probability       %\n  tête         1/54   1.85%  ██\n…", ""},
		{Prob, []string{"-f", "rulesets/examples/tables.rules", "localisation()"}, "", 0, "localisation()\n…", ""},
		{Prob, []string{"-f", "rulesets/examples/tables.rules", "blessure"}, "", 1, "", "<prob>:1:1: table blessure is not called here"},
		{Prob, []string{"-f", "rulesets/examples/tables.rules", "1d"}, "", 1, "", "<expr>:1:3: missing number of sides after d\n"},
		{Prob, []string{"1d1!"}, "", 1, "", "<expr>:1:1: d1 explodes on every face: it would never stop (add a limit, e.g. !3)\n"},
		{Prob, nil, "", 2, "", "rulesh prob: no expression given\n"},
		{Prob, []string{"-f", bad, "1d6"}, "", 1, "", "unknown name zut"},

		{Eval, []string{"--seed", "1", "--json", "1+1"}, "", 0, `{"emitted":[],"expr":"1+1","result":2}` + "\n", ""},
		{Eval, []string{"-f", "rulesets/examples/duel.rules", "--seed", "4", "--json", "frapper(ariane,brutus)"}, "", 0,
			`{"emitted":["Brutus pare (15 contre 12)"],"expr":"frapper(ariane,brutus)","result":null}` + "\n", ""},
		{Eval, []string{"-f", "rulesets/examples/duel.rules", "--seed", "4", "frapper(ariane,", "brutus)"}, "", 0, "Brutus pare (15 contre 12)\n", ""},
		{Eval, []string{"--set", "malus=1", "-f", "rulesets/examples/duel.rules", "malus"}, "", 0, "1\n", ""},
		{Eval, []string{"--rolls", "3", "--cards", "QC,7S", "-f", "rulesets/examples/cartes.rules", "1d6"}, "", 0, "1d6 [3] = 3\n", "warning: hand-given cards not used: QC 7S\n"},
		{Eval, []string{"--rolls", "3,4", "1d6"}, "", 0, "1d6 [3] = 3\n", "warning: hand-given results not used: 4\n"},
		{Eval, []string{"--cards", "ZZ", "-f", "rulesets/examples/cartes.rules", "1"}, "", 2, "", "rulesh: --cards: \"ZZ\" is not a card of deck jeu"},
		{Eval, []string{"--rolls", "1.5", "1"}, "", 2, "", "rulesh: --rolls: "},
		{Eval, []string{"--set", "novalue", "1"}, "", 2, "", "rulesh eval: --set \"novalue\": want NAME=VALUE\n"},
		{Eval, []string{"-f", "rulesets/examples/duel.rules", "--set", "malis=2", "1"}, "", 1, "", "rulesh: "},
		{Eval, []string{"-f", "rulesets/examples/duel.rules", "frapper(ariane)"}, "", 1, "",
			"<eval>:1:1: frapper takes 2 to 3 arguments, got 1 (declared at rulesets/examples/duel.rules:40:1)\n    frapper(ariane)\n    ^\n"},
		{Eval, []string{"-f", bad, "1"}, "", 1, "", "unknown name zut"},
		{Eval, nil, "", 2, "", "rulesh eval: no expression given\n"},
		{Eval, []string{"--", "-1"}, "", 0, "-1\n", ""},

		{Fmt, []string{"tests/cli/messy.rules"}, "", 0, "rule f(x) {\n  let y = x +\n    1\n…", ""},
		{Fmt, []string{"-l", "tests/cli/messy.rules", "nope.rules"}, "", 1, "tests/cli/messy.rules\n", "rulesh fmt: "},
		{Fmt, []string{"-l", "rulesets/examples/duel.rules"}, "", 0, "", ""},
		{Fmt, []string{bad + ".none"}, "", 1, "", "rulesh fmt: "},
		{Fmt, nil, "", 2, "", "rulesh fmt: no file given\n"},

		{Map, []string{"rulesets/examples/carte.rules"}, "", 0, "…", ""},
		{Map, []string{"rulesets/examples/pions.rules"}, "", 0, "    1 2 3 4\n  1 . . . f  1\n  2  . 2 . . 2\n  3 . . . G  3\n    1 2 3 4\n    . plaine, c colline, f forêt\n    (2,2) Gd la Garde, L 2e de ligne; (4,3) GM murat\n", ""},
		{Map, []string{"rulesets/examples/pions.rules", "--name", "champ"}, "", 1, "", "rulesh map: no map champ (maps: bataille)\n"},
		{Map, []string{"rulesets/examples/duel.rules"}, "", 1, "", "rulesh map: no map is declared\n"},
		{Map, []string{bad}, "", 1, "", "unknown name zut"},
		{Map, nil, "", 2, "", "rulesh map: no rule file given\n"},
		{Map, []string{"rulesets/examples/carte.rules", "--svg", "/dev/null"}, "", 1, "", "rulesh map: cannot write /dev/null: not a regular file\n"},
		// A failed write names the path given, never the temporary file beside it.
		{Map, []string{"rulesets/examples/carte.rules", "--svg", "nodir/x.svg"}, "", 1, "", "rulesh map: cannot write nodir/x.svg: no such folder\n"},
		{Prob, []string{"--svg", "nodir/x.svg", "1d2"}, "", 1, "", "rulesh prob: --svg: cannot write nodir/x.svg: no such folder\n"},

		{Test, []string{"tests/naval/tir.transcript"}, "", 0, "ok    tests/naval/tir.transcript\n1 passed, 0 failed\n", ""},
		{Test, []string{"nope"}, "", 1, "", "rulesh test: stat nope: no such file or directory\n"},
		{Test, []string{"tests/cli"}, "", 1, "", "rulesh test: no .transcript file under tests/cli\n"},
		{Test, []string{"--nope"}, "", 2, "", "rulesh test: unknown flag --nope\n"},

		{REPL, []string{"--seed", "2", "-f", "rulesets/examples/duel.rules"}, "ariane.pv\nlet x = [1,\n 2]\nx\n:quit\nariane.pv\n", 0, "10\nx = [1, 2]\n[1, 2]\n", ""},
		{REPL, []string{"rulesets/examples/duel.rules"}, "ariane.pv\n", 0, "10\n", ""},
		{REPL, nil, "1 +\n", 1, "<input>:1:…", ""},
		// In the REPL, diagnostics go where the user looks.
		{REPL, []string{"nope.rules"}, "", 1, "nope.rules: cannot read nope.rules (no such file or directory)\n", "rulesh: rule files have errors\n"},
		{REPL, []string{"--seed", "x"}, "", 2, "", "rulesh repl: --seed \"x\": not a whole number from 0\n"},
		// An empty value is bad usage, for a file name as for a list (--rolls '' as --rolls ,,,);
		// a boolean flag given twice is taken as given once.
		{Map, []string{"rulesets/examples/carte.rules", "--svg", ""}, "", 2, "", "rulesh map: --svg was given empty: it needs a file name\n"},
		{Prob, []string{"--svg=", "1d2"}, "", 2, "", "rulesh prob: --svg was given empty: it needs a file name\n"},
		{Eval, []string{"--rolls", "", "1d6"}, "", 2, "", "rulesh eval: --rolls was given empty: it needs a value\n"},
		{Eval, []string{"--rolls", ",,,", "1d6"}, "", 2, "", "--rolls: no result given"},
		{Eval, []string{"--seed", "1", "--json", "--json", "1d6"}, "", 0, `{"emitted":[],"expr":"1d6"…`, ""},
	}
	for _, tt := range tests {
		code, out, errOut := runIn(t, root, tt.stdin, tt.cmd, tt.args...)
		okOut := out == tt.want
		if start, cut := strings.CutSuffix(tt.want, "…"); cut {
			okOut = strings.HasPrefix(out, start) && len(out) > len(start)
		}
		okErr := strings.Contains(errOut, tt.wantErr) && (tt.wantErr != "" || errOut == "")
		if code != tt.code || !okOut || !okErr {
			t.Errorf("%v: exit %d, want %d\nstdout:\n%s\nstderr:\n%s\nwant stdout:\n%s\nwant in stderr: %q", tt.args, code, tt.code, out, errOut, tt.want, tt.wantErr)
		}
	}
	// fmt -w left a file already in canonical layout as it was, and rewrites a messy one.
	if b, _ := os.ReadFile(filepath.Join(root, "tests/cli/messy.rules")); string(b) != string(messy) {
		t.Error("fmt -l changed tests/cli/messy.rules")
	}
	tmp := filepath.Join(t.TempDir(), "m.rules")
	if err := os.WriteFile(tmp, messy, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runIn(t, root, "", Fmt, "-w", tmp); code != 0 || out != "" || errOut != "" {
		t.Errorf("fmt -w: exit %d\n%s%s", code, out, errOut)
	}
	if _, out, _ := runIn(t, root, "", Fmt, "-l", tmp); out != "" {
		t.Errorf("after fmt -w, fmt -l still lists %s", out)
	}
}
