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

	"rulesh/cmd/rulesh/internal/repl"
	"rulesh/cmd/rulesh/internal/transcript"
)

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
	waitFor("10\r\n> ")       // the next prompt is up: keys typed now reach the line editor
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
	} else if ok, msg := transcript.RunFile(rec, false, repl.Open); !ok {
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
