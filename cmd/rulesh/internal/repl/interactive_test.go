package repl

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rulesh/cmd/rulesh/internal/sysio"
)

// withStdio runs f with os.Stdin reading input and os.Stdout going to a file (where line
// editing writes its prompts), as the REPL's line editor reads and writes them.
func withStdio(t *testing.T, input string, f func()) {
	t.Helper()
	if sysio.IsTerminal(os.Stdin) || sysio.IsTerminal(os.Stdout) {
		t.Skip("the test's own terminal would be put in raw mode")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w.WriteString(input)
		w.Close()
	}()
	prompts, err := os.Create(filepath.Join(t.TempDir(), "prompts"))
	if err != nil {
		t.Fatal(err)
	}
	oldIn, oldOut := os.Stdin, os.Stdout
	os.Stdin, os.Stdout = r, prompts
	defer func() {
		os.Stdin, os.Stdout = oldIn, oldOut
		r.Close()
		prompts.Close()
	}()
	f()
}

// TestInteractiveSession drives the line-editing front end with its input redirected: the
// banner, inputs over several lines, history written with mode 0600 (each input on one line)
// and read back by the next session, :quit and the end of input both leaving.
func TestInteractiveSession(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	var out bytes.Buffer
	sh, err := New(Config{Dir: examples, Files: []string{"duel.rules"}, Seed: 3, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	withStdio(t, "ariane.pv\nlet x = [1,\n2]\n\n1 +\n:quit\n2 + 2\n", sh.interactive)
	got := out.String()
	if !strings.HasPrefix(got, "rulesh — ") || !strings.Contains(got, ", seed 3. :help lists the commands, Ctrl-D leaves.\n10\nx = [1, 2]\n") {
		t.Errorf("session:\n%s", got)
	}
	if strings.Contains(got, "\n4\n") {
		t.Errorf("inputs after :quit ran:\n%s", got)
	}
	hist := filepath.Join(state, "rulesh", "history")
	st, err := os.Stat(hist)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("history mode %v, want 0600", st.Mode().Perm())
	}
	if b, _ := os.ReadFile(hist); string(b) != "ariane.pv\nlet x = [1, 2]\n1 +\n:quit\n" {
		t.Errorf("history:\n%s", b)
	}
	// The next session reads the history back and adds to it; the end of input leaves.
	out.Reset()
	sh2, err := New(Config{Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	withStdio(t, "3 * 3\n", sh2.interactive)
	if got := out.String(); got != "rulesh — no rule file loaded. :help lists the commands, Ctrl-D leaves.\n9\n\n" {
		t.Errorf("second session:\n%q", got)
	}
	if b, _ := os.ReadFile(hist); string(b) != "ariane.pv\nlet x = [1, 2]\n1 +\n:quit\n3 * 3\n" {
		t.Errorf("history after the second session:\n%s", b)
	}
	// A history that cannot be written is no error: the session goes on.
	t.Setenv("XDG_STATE_HOME", filepath.Join(hist, "below-a-file"))
	out.Reset()
	withStdio(t, "1\n", sh2.interactive)
	if !strings.HasSuffix(out.String(), "1\n\n") {
		t.Errorf("without a history:\n%q", out.String())
	}
}

// TestHistoryFile: the history file is read only when it is a regular file of bounded size
// (a named pipe there blocked the session at its first input), and a line too long for the
// line editor is dropped alone instead of the whole history.
func TestHistoryFile(t *testing.T) {
	dir := t.TempDir()
	long := filepath.Join(dir, "long")
	os.WriteFile(long, []byte("1 + 1\n"+strings.Repeat("x", 20<<10)+"\nariane.pv\n"), 0o600)
	b, err := readHistory(long)
	if err != nil || string(b) != "1 + 1\nariane.pv\n" {
		t.Errorf("history with a long line: %q, %v", b, err)
	}
	if b, err := readHistory(filepath.Join(dir, "none")); err != nil || len(b) != 0 {
		t.Errorf("no history yet: %q, %v", b, err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := mkfifo(fifo); err != nil {
		t.Skip("no named pipes here:", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := readHistory(fifo)
		(&Shell{}).saveHistory(nil, fifo) // must not open it
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("history on a named pipe: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading or writing the history blocked on a named pipe")
	}
}
