package repl

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rulesh/cmd/rulesh/internal/transcript"
)

func TestReloadKeepsState(t *testing.T) {
	dir := t.TempDir()
	rules := filepath.Join(dir, "r.rules")
	v1 := "option bonus = 1 \"b\"\nkind U {\n  pv: int = 10\n  nom: string\n}\nentity u: U { nom: \"u\" }\naction coup(x: U) {\n  x.pv -= 3\n}\n"
	if err := os.WriteFile(rules, []byte(v1), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sh, err := New(Config{Dir: dir, Files: []string{"r.rules"}, Seed: 1, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	sh.Exec("coup(u)")
	sh.Exec(":set bonus 4")
	v2 := strings.Replace(v1, "  nom: string\n", "  nom: string\n  moral: int = 5\n", 1) + "action soin(x: U) {\n  x.pv += bonus\n}\n"
	if err := os.WriteFile(rules, []byte(v2), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	sh.Exec(":reload")
	if got := out.String(); !strings.Contains(got, "reloaded 1 file(s)") || !strings.Contains(got, "+ action soin") {
		t.Errorf("reload said:\n%s", got)
	}
	out.Reset()
	sh.Exec("[u.pv, u.moral, bonus]")
	if got := strings.TrimSpace(out.String()); got != "[7, 5, 4]" {
		t.Errorf("after reload: %s, want [7, 5, 4] (pv and option kept, new field at its default)", got)
	}
	// A broken edit keeps the previous version loaded.
	if err := os.WriteFile(rules, []byte("rule {"), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	sh.Exec(":reload")
	sh.Exec("soin(u)")
	sh.Exec("u.pv")
	if got := out.String(); !strings.Contains(got, "previous version stays loaded") || !strings.HasSuffix(got, "11\n") {
		t.Errorf("broken reload:\n%s", got)
	}
}

func TestRecordReplays(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	sh, err := New(Config{Dir: dir, Files: nil, Seed: 9, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	sh.Exec(":record s.transcript")
	sh.Exec("let r = 3d6")
	sh.Exec(":rolls 4")
	sh.Exec("1d6 + r")
	sh.Exec("1 +")
	sh.Exec(":record off")
	path := filepath.Join(dir, "s.transcript")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "seed 9\n> let r = 3d6\nr = 3d6 [") {
		t.Errorf("recorded:\n%s", b)
	}
	if ok, msg := transcript.RunFile(path, false, Open); !ok {
		t.Errorf("the recorded transcript does not replay:\n%s\n%s", msg, b)
	}
}

// TestReloadKeepsCards: reloading an unchanged file keeps the decks, piles and their cards,
// pass allowances and session variables, and uses up no dice; an edited deck starts afresh,
// with every pile emptied of its cards, and the notes say so.
func TestReloadKeepsCards(t *testing.T) {
	root, _ := filepath.Abs("../../../..")
	src, err := os.ReadFile(filepath.Join(root, "rulesets/examples/cartes.rules"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rules := filepath.Join(dir, "c.rules")
	if err := os.WriteFile(rules, src, 0o644); err != nil {
		t.Fatal(err)
	}
	count := "[len(jeu.cards), len(capitaine.main.cards), len(gabier.main.cards), len(défausse.cards), passes(gabier.main, capitaine.main), passes(capitaine.main, gabier.main)]"
	session := func(reload bool) (*Shell, *bytes.Buffer) {
		var out bytes.Buffer
		sh, err := New(Config{Dir: dir, Files: []string{"c.rules"}, Seed: 3, Stdout: &out, Stderr: &out})
		if err != nil {
			t.Fatal(err)
		}
		sh.Exec("distribuer(3)")
		sh.Exec("let h = capitaine.main")
		sh.Exec("let c = gabier.main.cards[0]")
		sh.Exec("let n = 7")
		sh.Exec("pass(gabier.main, capitaine.main, c)")
		sh.Exec("move(capitaine.main, défausse, capitaine.main.cards[1])")
		out.Reset()
		if reload {
			sh.Exec(":reload")
		}
		sh.Exec(count)
		sh.Exec("[h == capitaine.main, capitaine.main.cards[0] == c, n]")
		sh.Exec("1d20")
		return sh, &out
	}
	_, plain := session(false)
	_, reloaded := session(true)
	want := "reloaded 1 file(s)\n  kept 2 entities, 4 decks and piles, 2 pass allowances, 3 session variables, with the options\n" + plain.String()
	if reloaded.String() != want {
		t.Errorf("after :reload:\n%s\nwant:\n%s", reloaded, want)
	}
	if !strings.HasPrefix(plain.String(), "[46, 3, 2, 1, 2, 1]\n[true, true, 7]\n") {
		t.Errorf("without reload:\n%s", plain)
	}

	// An edited deck (two jokers more) starts afresh; the hands lose their cards.
	sh, out := session(false)
	edited := strings.Replace(string(src), "deck jeu standard {", "deck jeu standard {\n  jokers 2", 1)
	if err := os.WriteFile(rules, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	sh.Exec(":reload")
	sh.Exec(count)
	sh.Exec("n")
	got := out.String()
	for _, w := range []string{
		"  deck jeu was edited: it starts afresh, full and shuffled, and every pile loses the cards it held\n",
		"  capitaine.main reset to its default: pile main du capitaine: it held ",
		"  session variable c dropped: it held 10♣, and deck jeu was edited\n",
		"[54, 0, 0, 0, 0, 0]\n7\n",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("edited deck: no %q in\n%s", w, got)
		}
	}
}

func TestLineDepth(t *testing.T) {
	tests := []struct {
		line  string
		depth int
	}{
		{"f(1, [2", 2},
		{"f(1) // (", 0},
		{`"(" + '[' + x`, 0},
		{`"a\\" + (`, 1},
		{`"a\"(" + (`, 1},
		{"}) ]", -3},
		{"x / (y / 2)", 0},
	}
	for _, tt := range tests {
		if got := lineDepth(tt.line); got != tt.depth {
			t.Errorf("lineDepth(%q) = %d, want %d", tt.line, got, tt.depth)
		}
	}
}

// TestGivenRollsRunOut: a roll that uses up the hand-given results and goes on with seeded
// dice says so (it went on silently, passing seeded dice off as the player's); a roll that
// uses exactly the results given, or a later roll of the same input, says nothing.
func TestGivenRollsRunOut(t *testing.T) {
	var out strings.Builder
	sh, err := New(Config{Seed: 1, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ input, note string }{
		{":rolls 3 4", ""},
		{"3d6", "note: the hand-given results ran out during 3d6 [3, 4, 4] = 11: its last 1 came from the seed\n"},
		{"2d6", ""},
		{":rolls 1 2", ""},
		{"2d6", ""},
		{":rolls 6", ""},
		{"[1d6, 2d6]", ""},
		{":rolls 6", ""},
		{"4d6", "note: the hand-given results ran out during 4d6 [6, 2, 4, 4] = 16: its last 3 came from the seed\n"},
	} {
		out.Reset()
		sh.Exec(c.input)
		if got := out.String(); strings.Contains(got, "note:") != (c.note != "") || c.note != "" && !strings.HasSuffix(got, c.note) {
			t.Errorf("%s:\n%s", c.input, got)
		}
	}
}

// TestMapSVG: `:map [NAME] svg FILE` writes the board as it stands as an SVG picture (one per
// turn, on request), never over a file that is not one, and not while a transcript replays.
func TestMapSVG(t *testing.T) {
	root, _ := filepath.Abs("../../../..")
	dir := t.TempDir()
	var out strings.Builder
	sh, err := New(Config{Dir: root, Files: []string{"rulesets/examples/carte.rules"}, Seed: 1, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	pic := filepath.Join(dir, "tour1.svg")
	sh.Exec(":map svg " + pic)
	if b, err := os.ReadFile(pic); err != nil || !strings.HasPrefix(string(b), "<svg") || !strings.Contains(out.String(), "wrote "+pic) {
		t.Fatalf("no picture: %v\n%s", err, out.String())
	}
	rules := filepath.Join(dir, "x.rules")
	os.WriteFile(rules, []byte("ruleset \"x\"\n"), 0o644)
	out.Reset()
	sh.Exec(":map svg " + rules)
	if b, _ := os.ReadFile(rules); string(b) != "ruleset \"x\"\n" || !strings.Contains(out.String(), "not an SVG picture; not overwritten") {
		t.Errorf("a rule file was overwritten or not refused:\n%s", out.String())
	}
	sh.replay = true
	out.Reset()
	sh.Exec(":map svg " + filepath.Join(dir, "replay.svg"))
	if _, err := os.Stat(filepath.Join(dir, "replay.svg")); err == nil || !strings.Contains(out.String(), "replay writes no file") {
		t.Errorf("replay wrote a picture:\n%s", out.String())
	}
}
