package repl

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const examples = "../../../../rulesets/examples"

// newDuel starts a session on duel.rules, seed 1, with all output in the returned buffer.
func newDuel(t *testing.T) (*Shell, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	sh, err := New(Config{Dir: examples, Files: []string{"duel.rules"}, Seed: 1, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	return sh, &out
}

// TestMetaCommands: each meta command, in one session, says what it did or what is wrong;
// a wrong one marks the input failed and changes nothing.
func TestMetaCommands(t *testing.T) {
	sh, out := newDuel(t)
	tests := []struct {
		input, want string
		failed      bool
	}{
		{":options", "malus = 3  (default 3)  malus appliqué par circonstance défavorable\nblessure_grave = 5  (default 5)  points de vie perdus à partir desquels on est « grièvement blessé »\n", false},
		{":set malus 1", "malus = 1\n", false},
		{":set blessure_grave=4", "blessure_grave = 4\n", false},
		{":set malus", "error: :set needs NAME VALUE\n", true},
		{":set nope 2", "error: unknown option nope\n", true},
		{":seed x", "error: :seed needs a whole number\n", true},
		{":seed 5", "seed 5\n", false},
		{":rolls 3 4", "next results: 3 4\n", false},
		{":rolls", "next results: 3 4\n", false},
		{":seed 6", "seed 6 (hand-given results dropped: 3 4)\n", false},
		{":rolls x.5", "error: :rolls 7 3 5, :rolls clear or :rolls alone: bad die result \"x.5\": give numbers or face names\n", true},
		{":rolls 2", "next results: 2\n", false},
		{":rolls clear", "next results: none (the dice follow the seed)\n", false},
		{":cards Q♣", "next cards: Q♣\n", false},
		{":cards Z", "error: :cards Q♣ 7♠ (or QC 7S), :cards clear or :cards alone: \"Z\" is not a card of deck standard (write Q♣, 10♥, or QC, 10H)\n", true},
		{":cards", "next cards: Q♣\n", false},
		{":cards clear", "next cards: none (draws take the top of the pile)\n", false},
		{":show malus", "1\n", false},
		{":show zut", "error: nothing is called \"zut\"\n", true},
		{"let a = 2", "a = 2\n", false},
		{":show a", "2\n", false},
		{":trace on", "trace on\n", false},
		{":trace maybe", "error: :trace on or :trace off\n", true},
		{":trace off", "trace off\n", false},
		{":prob 1d", "<expr>:1:3: missing number of sides after d\n    1d\n      ^\n", true},
		{":prob 1d2", "1d2: mean 1.5000, stddev 0.5000\nvalue  probability       %     P(≥)     P(≤)\n    1          1/2  50.00%  100.00%   50.00%  ████████████████████████████████████████\n    2          1/2  50.00%   50.00%  100.00%  ████████████████████████████████████████\n", false},
		{":map", "error: no map is declared\n", true},
		{":lod x", "error: unknown command :lod (:help lists them); did you mean :load?\n", true},
		{":zzzzzz", "error: unknown command :zzzzzz (:help lists them)\n", true},
		{":load", "error: :load needs a file\n", true},
		{":load nope.rules", "nope.rules: cannot read nope.rules (no such file or directory)\nerror: rule files have errors; nothing changed\n", true},
		{":record", "error: :record FILE.transcript or :record off\n", true},
		{":record off", "error: not recording\n", true},
		{"// a comment", "", false},
		{"", "", false},
		{":state", "option malus = 1\noption blessure_grave = 4\nariane = Combattant{nom: \"Ariane\", aptitude: 7, pv: 10, arme: Arme{nom: \"épée\", dégâts: 3, allonge: 1.5}, a_bougé: false, journal: []}\nbrutus = Combattant{nom: \"Brutus\", aptitude: 5, pv: 10, arme: Arme{nom: \"dague\", dégâts: 2, allonge: 1.0}, a_bougé: false, journal: []}\népée = Arme{nom: \"épée\", dégâts: 3, allonge: 1.5}\ndague = Arme{nom: \"dague\", dégâts: 2, allonge: 1.0}\nlet a = 2\n", false},
		{":quit", "", false},
	}
	for _, tt := range tests {
		out.Reset()
		sh.Exec(tt.input)
		if out.String() != tt.want || sh.Failed() != tt.failed {
			t.Errorf("%s: failed %v, said\n%q\nwant (failed %v)\n%q", tt.input, sh.Failed(), out.String(), tt.failed, tt.want)
		}
	}
	if !sh.Quit() {
		t.Error(":quit did not end the session")
	}
	out.Reset()
	sh.Exec(":help")
	if h := out.String(); !strings.HasPrefix(h, "  :help                this list\n") || !strings.Contains(h, "  :record   FILE|off   record the session") || !strings.HasSuffix(h, "or `let name = expression`.\n") {
		t.Errorf(":help said\n%s", h)
	}
}

// TestMetaMapAndState: :map draws a declared map; :state lists hand-given results waiting.
func TestMetaMapAndState(t *testing.T) {
	var out bytes.Buffer
	sh, err := New(Config{Dir: examples, Files: []string{"carte.rules"}, Seed: 1, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	sh.Exec(":map")
	if sh.Failed() || !strings.Contains(out.String(), "\n") || len(out.String()) < 50 {
		t.Errorf(":map drew %q", out.String())
	}
	out.Reset()
	sh.Exec(":map nulle_part")
	if !sh.Failed() || !strings.HasPrefix(out.String(), "error: ") {
		t.Errorf(":map nulle_part said %q", out.String())
	}
	sh.Exec(":rolls 4 2")
	out.Reset()
	sh.Exec(":state")
	if !strings.HasSuffix(out.String(), "next results: 4 2\n") {
		t.Errorf(":state said\n%s", out.String())
	}
}

// TestSessionMethods: the methods transcripts replay with set options, queue results and
// cards, and refuse what the rules do not know.
func TestSessionMethods(t *testing.T) {
	var out bytes.Buffer
	s, err := Open(examples, []string{"cartes.rules"}, 1, &out)
	if err != nil {
		t.Fatal(err)
	}
	sh := s.(*Shell)
	if err := sh.SetOption("nope", "1"); err == nil {
		t.Error("an unknown option was set")
	}
	if err := sh.GiveCards("Q♣,7S"); err != nil {
		t.Fatal(err)
	}
	if err := sh.GiveCards("Z♣"); err == nil {
		t.Error("an unknown card was given")
	}
	if err := sh.GiveRolls("3 5"); err != nil {
		t.Fatal(err)
	}
	if err := sh.GiveRolls("4 0"); err == nil {
		t.Error("a result no die shows was given")
	}
	sh.Exec(":cards")
	sh.Exec(":rolls")
	if got := out.String(); got != "next cards: Q♣ 7S\nnext results: 3 5\n" {
		t.Errorf("got %q", got)
	}
	sh.Exec(":record x.transcript")
	if !strings.Contains(out.String(), "replay writes no file") {
		t.Errorf("replay recorded: %q", out.String())
	}
	if _, err := Open(t.TempDir(), []string{"missing.rules"}, 1, &out); err == nil {
		t.Error("a session opened on a missing file")
	}
	// A session of its own with duel.rules: options set from text.
	sh2, out2 := newDuel(t)
	if err := sh2.SetOption("malus", "2"); err != nil {
		t.Fatal(err)
	}
	sh2.Exec("malus")
	if out2.String() != "2\n" {
		t.Errorf("malus = %q", out2.String())
	}
}

func TestCompletions(t *testing.T) {
	sh, _ := newDuel(t)
	sh.Exec("let arme_a = ariane.arme")
	tests := []struct {
		line, head string
		want       []string
	}{
		{":re", "", []string{":record", ":reload"}},
		{"x :re", "x ", nil},
		{"ari", "", []string{"ariane"}},
		{"frapper(bru", "frapper(", []string{"brutus"}},
		{"1 + ariane.a", "1 + ", []string{"ariane.a_bougé", "ariane.aptitude", "ariane.arme"}},
		{"ariane.arme.n", "", []string{"ariane.arme.nom"}},
		{"arme_a.d", "", []string{"arme_a.dégâts"}},
		{"ariane.pv.x", "", nil},
		{"zut.x", "", nil},
		{"arme_", "", []string{"arme_a"}},
		{"[mal", "[", []string{"malus"}},
	}
	for _, tt := range tests {
		head, got := sh.completions(tt.line)
		if head != tt.head || strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("completions(%q) = %q, %q; want %q, %q", tt.line, head, got, tt.head, tt.want)
		}
	}
}

func TestHistoryPath(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/state")
	if got := historyPath(); got != filepath.Join("/state", "rulesh", "history") {
		t.Errorf("with XDG_STATE_HOME: %s", got)
	}
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "/home/gm")
	if got := historyPath(); got != "/home/gm/.local/state/rulesh/history" {
		t.Errorf("from HOME: %s", got)
	}
	t.Setenv("HOME", "")
	if got := historyPath(); got != "" {
		t.Errorf("without a home: %q", got)
	}
}

// TestDescribe: the banner names the ruleset (or the files) and the seed.
func TestDescribe(t *testing.T) {
	sh, _ := newDuel(t)
	if got := sh.describe(); !strings.HasSuffix(got, ", seed 1") || strings.HasPrefix(got, ",") {
		t.Errorf("describe: %q", got)
	}
	var out bytes.Buffer
	empty, err := New(Config{Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	if got := empty.describe(); got != "no rule file loaded" {
		t.Errorf("describe without files: %q", got)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.rules"), []byte("const a = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	anon, err := New(Config{Dir: dir, Files: []string{"a.rules"}, Seed: 7, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	if got := anon.describe(); got != "a.rules, seed 7" {
		t.Errorf("describe without a ruleset name: %q", got)
	}
}
