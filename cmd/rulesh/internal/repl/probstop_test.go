package repl

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe to read while a Shell writes it from another goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestProbInterrupted: Ctrl-C did not reach :prob, whose machines are the analysis' own:
// an hour-long sample could not be stopped. Interrupt stops it within a step of a run, and
// the session goes on.
func TestProbInterrupted(t *testing.T) {
	dir := t.TempDir()
	const rules = "rule lent(): int {\n  let t = 0\n  for i in 1..90000 {\n    t = t + d(6)\n  }\n  return t\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "lent.rules"), []byte(rules), 0o644); err != nil {
		t.Fatal(err)
	}
	var out syncBuffer
	sh, err := New(Config{Dir: dir, Files: []string{"lent.rules"}, Seed: 1, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		sh.Exec(":prob lent()")
	}()
	time.Sleep(200 * time.Millisecond)
	sh.Interrupt()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf(":prob still running 20 s after the interrupt; output %q", out.String())
	}
	if got := out.String(); !strings.HasPrefix(got, "error: :prob interrupted after ") || !sh.Failed() {
		t.Errorf("output %q, failed %v", got, sh.Failed())
	}
	sh.Exec("1+1")
	if got := out.String(); !strings.HasSuffix(got, "\n2\n") {
		t.Errorf("after the interrupt: %q", got)
	}
}

// TestProbEveryRunFails: :prob of an expression whose every run fails printed
// "error: division by zero 100%" without a position, where `rulesh prob` says every run fails
// and where; both now take it from analysis.Odds.
func TestProbEveryRunFails(t *testing.T) {
	var out bytes.Buffer
	sh, err := New(Config{Dir: t.TempDir(), Seed: 1, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	sh.Exec(":prob 1/0")
	want := "every run fails the same way: division by zero\n<prob>:1:2: division by zero\n    1/0\n     ^\n"
	if out.String() != want || !sh.Failed() {
		t.Errorf("output %q, failed %v; want %q", out.String(), sh.Failed(), want)
	}
}

// TestProbSomeRunsAtALimit: :prob of a procedure that loops without end on some runs ran
// for an hour; it stops at the third run at a limit, as prob does, pointing at the CLI's flag
// (the REPL has none).
func TestProbSomeRunsAtALimit(t *testing.T) {
	dir := t.TempDir()
	const rules = "rule sf2(): int {\n  let t = 0\n  if d(2) == 1 {\n    while true { t = t + d(6) }\n  }\n  return t\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "sf.rules"), []byte(rules), 0o644); err != nil {
		t.Fatal(err)
	}
	var out syncBuffer
	sh, err := New(Config{Dir: dir, Files: []string{"sf.rules"}, Seed: 1, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		sh.Exec(":prob sf2()")
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		sh.Interrupt()
		t.Fatalf(":prob still running after 20 s")
	}
	got := out.String()
	if !strings.HasPrefix(got, "3 of the first ") || !strings.Contains(got, "(rulesh prob --limit-runs N lets more count as outcomes; 0, all of them); the first reached max_loop_iterations:\nsf.rules:4:5: while loop exceeds the limit") || !sh.Failed() {
		t.Errorf("output %q, failed %v", got, sh.Failed())
	}
}
