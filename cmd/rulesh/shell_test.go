package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

func TestReloadKeepsState(t *testing.T) {
	dir := t.TempDir()
	rules := filepath.Join(dir, "r.rules")
	v1 := "option bonus = 1 \"b\"\nkind U {\n  pv: int = 10\n  nom: string\n}\nentity u: U { nom = \"u\" }\nrule coup(x: U) {\n  x.pv -= 3\n}\n"
	if err := os.WriteFile(rules, []byte(v1), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sh, err := newShell(&cli{stdout: &out, stderr: &out}, dir, []string{"r.rules"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	sh.exec("coup(u)")
	sh.exec(":set bonus 4")
	v2 := strings.Replace(v1, "  nom: string\n", "  nom: string\n  moral: int = 5\n", 1) + "rule soin(x: U) {\n  x.pv += bonus\n}\n"
	if err := os.WriteFile(rules, []byte(v2), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	sh.exec(":reload")
	if got := out.String(); !strings.Contains(got, "reloaded 1 file(s)") || !strings.Contains(got, "+ rule soin") {
		t.Errorf("reload said:\n%s", got)
	}
	out.Reset()
	sh.exec("[u.pv, u.moral, bonus]")
	if got := strings.TrimSpace(out.String()); got != "[7, 5, 4]" {
		t.Errorf("after reload: %s, want [7, 5, 4] (pv and option kept, new field at its default)", got)
	}
	// A broken edit keeps the previous version loaded.
	if err := os.WriteFile(rules, []byte("rule {"), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	sh.exec(":reload")
	sh.exec("soin(u)")
	sh.exec("u.pv")
	if got := out.String(); !strings.Contains(got, "previous version stays loaded") || !strings.HasSuffix(got, "11\n") {
		t.Errorf("broken reload:\n%s", got)
	}
}

func TestRecordReplays(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	sh, err := newShell(&cli{stdout: &out, stderr: &out}, dir, nil, 9)
	if err != nil {
		t.Fatal(err)
	}
	sh.exec(":record s.transcript")
	sh.exec("let r = 3d6")
	sh.exec(":rolls 4")
	sh.exec("1d6 + r")
	sh.exec("1 +")
	sh.exec(":record off")
	path := filepath.Join(dir, "s.transcript")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "seed 9\n> let r = 3d6\nr = 3d6 [") {
		t.Errorf("recorded:\n%s", b)
	}
	if ok, msg := runTranscriptFile(path, false); !ok {
		t.Errorf("the recorded transcript does not replay:\n%s\n%s", msg, b)
	}
}

func TestPipedScript(t *testing.T) {
	root, _ := filepath.Abs("../..")
	var out, errOut bytes.Buffer
	wd, _ := os.Getwd()
	_ = os.Chdir(root)
	defer os.Chdir(wd)
	code := Main([]string{"repl", "--seed", "2", "-f", "rulesets/examples/duel.rules"},
		strings.NewReader("ariane.pv\nlet x = [1,\n 2]\nx\n:quit\nariane.pv\n"), &out, &errOut)
	if code != 0 || out.String() != "10\nx = [1, 2]\n[1, 2]\n" {
		t.Errorf("exit %d, output %q, stderr %q", code, out.String(), errOut.String())
	}
	// `rulesh` with flags and no command is the REPL too.
	out.Reset()
	code = Main([]string{"--seed", "2", "-f", "rulesets/examples/duel.rules"}, strings.NewReader("ariane.pv\n"), &out, &errOut)
	if code != 0 || out.String() != "10\n" {
		t.Errorf("rulesh -f: exit %d, output %q, stderr %q", code, out.String(), errOut.String())
	}
	// A script saved with a byte order mark reads as one saved without.
	out.Reset()
	if code := Main([]string{"repl"}, strings.NewReader("\ufeff1 + 1\n"), &out, &errOut); code != 0 || out.String() != "2\n" {
		t.Errorf("script with a BOM: exit %d, output %q", code, out.String())
	}
	out.Reset()
	if code := Main([]string{"repl"}, strings.NewReader("1 +\n"), &out, &errOut); code != 1 {
		t.Errorf("a failing script should exit 1, got %d", code)
	}
}

// TestInteractiveTerminal drives the real binary through a pseudo-terminal: completion,
// Ctrl-C clearing the line, history written with mode 0600, Ctrl-D leaving; and checks that
// stdin from /dev/null does not start the interactive REPL.
func TestInteractiveTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(t.TempDir(), "rulesh")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	root, _ := filepath.Abs("../..")
	// Stdin from /dev/null (a character device, not a terminal) reads plainly: no prompt,
	// no banner, exit 0 on empty input.
	null := exec.Command(bin, "repl", "--seed", "1")
	null.Env = append(os.Environ(), "XDG_STATE_HOME="+dir, "TERM=xterm")
	if devNull, err := os.Open(os.DevNull); err == nil {
		null.Stdin = devNull
		out, err := null.CombinedOutput()
		devNull.Close()
		if err != nil || len(out) != 0 {
			t.Errorf("rulesh < /dev/null: %v, output %q", err, out)
		}
	}
	cmd := exec.Command(bin, "repl", "--seed", "1", "-f", filepath.Join(root, "rulesets/examples/duel.rules"))
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+dir, "TERM=xterm")
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer f.Close()
	// The reader goroutine writes the screen while the test reads it: share it under a lock.
	var screen lockedBuffer
	done := make(chan struct{})
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := f.Read(buf)
			screen.Write(buf[:n])
			if err != nil {
				close(done)
				return
			}
		}
	}()
	waitFor := func(s string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			if strings.Contains(screen.String(), s) {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("timed out waiting for %q; screen:\n%s", s, screen.String())
	}
	waitFor("> ")
	f.Write([]byte("ari\t"))  // completes to ariane
	f.Write([]byte(".p\t\r")) // completes to ariane.pv
	waitFor("10")
	f.Write([]byte("1 + 1000"))
	f.Write([]byte{3}) // Ctrl-C clears the pending line
	f.Write([]byte("2 + 2\r"))
	waitFor("4\r\n")
	rec := filepath.Join(dir, "i.transcript")
	f.Write([]byte(":record " + rec + "\r"))
	waitFor("recording to")
	f.Write([]byte("3 + 3\r"))
	waitFor("6\r\n")
	f.Write([]byte{4}) // Ctrl-D leaves, and the transcript is whole
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Ctrl-D did not end the REPL")
	}
	_ = cmd.Wait()
	if strings.Contains(screen.String(), "1002") {
		t.Error("Ctrl-C did not clear the pending input")
	}
	if b, err := os.ReadFile(rec); err != nil || !strings.HasSuffix(string(b), "# :record started here.\n> 3 + 3\n6\n") || !strings.Contains(screen.String(), "recorded "+rec) {
		t.Errorf("recording ended by Ctrl-D: %v\n%s\nscreen:\n%s", err, b, screen.String())
	} else if ok, msg := runTranscriptFile(rec, false); !ok {
		t.Errorf("the recorded transcript does not replay:\n%s\n%s", msg, b)
	}
	hist := filepath.Join(dir, "rulesh", "history")
	st, err := os.Stat(hist)
	if err != nil {
		t.Fatalf("no history file: %v", err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("history mode %v, want 0600", st.Mode().Perm())
	}
	b, _ := os.ReadFile(hist)
	if !strings.Contains(string(b), "ariane.pv") || !strings.Contains(string(b), "2 + 2") {
		t.Errorf("history:\n%s", b)
	}
}

// lockedBuffer is a bytes.Buffer safe for one writer and one reader goroutine.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestReloadKeepsCards: reloading an unchanged file keeps the decks, piles and their cards,
// pass allowances and session variables, and uses up no dice; an edited deck starts afresh,
// with every pile emptied of its cards, and the notes say so.
func TestReloadKeepsCards(t *testing.T) {
	root, _ := filepath.Abs("../..")
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
	session := func(reload bool) (*shell, *bytes.Buffer) {
		var out bytes.Buffer
		sh, err := newShell(&cli{stdout: &out, stderr: &out}, dir, []string{"c.rules"}, 3)
		if err != nil {
			t.Fatal(err)
		}
		sh.exec("distribuer(3)")
		sh.exec("let h = capitaine.main")
		sh.exec("let c = gabier.main.cards[0]")
		sh.exec("let n = 7")
		sh.exec("pass(gabier.main, capitaine.main, c)")
		sh.exec("move(capitaine.main, défausse, capitaine.main.cards[1])")
		out.Reset()
		if reload {
			sh.exec(":reload")
		}
		sh.exec(count)
		sh.exec("[h == capitaine.main, capitaine.main.cards[0] == c, n]")
		sh.exec("1d20")
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
	sh.exec(":reload")
	sh.exec(count)
	sh.exec("n")
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

// TestCaptureKeepsItsStart: once an output passes the limit, later small writes are dropped
// too, so what is kept is the output's start, whole (a hole used to open in the middle).
func TestCaptureKeepsItsStart(t *testing.T) {
	c := &capture{limit: 10}
	for _, s := range []string{"abcd", "efghijkl", "mn"} {
		c.Write([]byte(s))
	}
	if got := c.buf.String(); got != "abcd" || !c.over {
		t.Errorf("kept %q (over %v), want \"abcd\" and over", got, c.over)
	}
}
