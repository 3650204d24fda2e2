package repl

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rulesh/cmd/rulesh/internal/transcript"
)

// runIn runs a session from dir with the rule files loaded and stdin piped in, as `rulesh
// repl --seed SEED -f FILE...` does, and returns its exit code (1 when an input failed),
// stdout and stderr.
func runIn(t *testing.T, dir string, stdin string, seed uint64, files ...string) (int, string, string) {
	t.Helper()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var out, errOut bytes.Buffer
	sh, err := New(Config{Files: files, Seed: seed, Stdout: &out, Stderr: &errOut})
	if err != nil {
		t.Fatal(err)
	}
	code := 0
	if !sh.Run(strings.NewReader(stdin)) {
		code = 1
	}
	return code, out.String(), errOut.String()
}

// TestRecordSavedOnEveryWayOut: the transcript is written as the session goes, so it is whole
// when the session ends without :record off (end of piped input, :quit, a failing input).
func TestRecordSavedOnEveryWayOut(t *testing.T) {
	root, _ := filepath.Abs("../../../..")
	for _, end := range []string{"", ":quit\n1 + 1\n", "1 +\n"} {
		dir := t.TempDir()
		path := filepath.Join(dir, "s.transcript")
		code, out, errOut := runIn(t, root, ":record "+path+"\nlet r = 3d6\nfrapper(ariane, brutus)\n"+end,
			4, "rulesets/examples/duel.rules")
		if code != 0 && end != "1 +\n" {
			t.Errorf("exit %d\n%s%s", code, out, errOut)
		}
		if !strings.HasSuffix(out, "recorded "+path+"\n") {
			t.Errorf("end %q: no word of the recording:\n%s", end, out)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "load ") || !strings.Contains(string(b), "> frapper(ariane, brutus)\n") {
			t.Errorf("end %q: recorded:\n%s", end, b)
		}
		if ok, msg := transcript.RunFile(path, false, Open); !ok {
			t.Errorf("end %q: does not replay:\n%s\n%s", end, msg, b)
		}
	}
}

// TestRecordWritesAsItGoes: each input is in the file as soon as it has run.
func TestRecordWritesAsItGoes(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	sh, err := New(Config{Dir: dir, Files: nil, Seed: 9, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	sh.Exec(":record s.transcript")
	sh.Exec("2 + 3")
	b, _ := os.ReadFile(filepath.Join(dir, "s.transcript"))
	if !strings.HasSuffix(string(b), "> 2 + 3\n5\n") {
		t.Errorf("not written at once:\n%s", b)
	}
}

// TestRecordRefusesToOverwrite: :record writes only *.transcript files, and replaces an
// existing one only if it reads as a transcript.
func TestRecordRefusesToOverwrite(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"duel.rules":       "const a = 1\n",
		"notes.transcript": "my notes, not a transcript\n",
		"old.transcript":   "seed 1\n> 1 + 1\n2\n",
		"new.transcript":   "# Recorded by rulesh; `rulesh test` replays it.\nseed 1\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	sh, err := New(Config{Dir: dir, Files: []string{"duel.rules"}, Seed: 1, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ arg, want string }{
		{"duel.rules", "error: :record writes only files named *.transcript, not duel.rules\n"},
		{"notes.transcript", "error: notes.transcript exists and does not read as a transcript; not overwritten\n"},
		{"new.transcript", "recording to new.transcript\n"},
		{"off", "recorded new.transcript\n"},
		{"old.transcript", "recording to old.transcript\n"},
	} {
		out.Reset()
		sh.Exec(":record " + c.arg)
		if out.String() != c.want {
			t.Errorf(":record %s said %q, want %q", c.arg, out.String(), c.want)
		}
	}
	sh.Exec("a")
	sh.Exec(":record off")
	for name, text := range files {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		if changed := string(b) != text; changed != (name == "old.transcript") && name != "new.transcript" {
			t.Errorf("%s: changed %v:\n%s", name, changed, b)
		}
	}
}

// TestReplayWritesNoFile: a transcript that asks to record is replayed without writing.
func TestReplayWritesNoFile(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim.transcript")
	if err := os.WriteFile(victim, []byte("seed 1\n> 1\n1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tr := filepath.Join(dir, "t.transcript")
	src := "> :record victim.transcript\nerror: :record is refused while a transcript is replayed: replay writes no file\n> 2\n2\n> :record off\nerror: :record is refused while a transcript is replayed: replay writes no file\n"
	if err := os.WriteFile(tr, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if ok, msg := transcript.RunFile(tr, false, Open); !ok {
		t.Error(msg)
	}
	if b, _ := os.ReadFile(victim); string(b) != "seed 1\n> 1\n1\n" {
		t.Errorf("replay wrote %s:\n%s", victim, b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("files after replay: %v", entries)
	}
}

// TestRecordMidSession: :record started late writes the session so far, so the transcript
// replays to the same state; load paths and positions are written relative to the
// transcript's folder.
func TestRecordMidSession(t *testing.T) {
	root, _ := filepath.Abs("../../../..")
	dir := t.TempDir()
	path := filepath.Join(dir, "late.transcript")
	script := strings.Join([]string{
		"let a = 2d6",
		":set malus 1",
		":rolls 3",
		"frapper(ariane, brutus)",
		":load rulesets/examples/armes.rules",
		"frapper(ariane)",
		":record " + path,
		"[ariane.pv, brutus.pv, a.total]",
		"frapper(brutus, ariane)",
		":rolls",
		":record off",
	}, "\n") + "\n"
	code, out, errOut := runIn(t, root, script, 11, "rulesets/examples/duel.rules")
	if code != 1 { // frapper(ariane) fails on purpose
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	rel, _ := filepath.Rel(dir, filepath.Join(root, "rulesets/examples"))
	for _, want := range []string{
		"seed 11\n",
		"load " + rel + "/duel.rules\n",
		"# note: the session loaded or reloaded rule files",
		"> :load " + rel + "/armes.rules\nloaded " + rel + "/armes.rules\n",
		"(declared at " + rel + "/duel.rules:",
		"# :record started here.\n> [ariane.pv, brutus.pv, a.total]\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("recorded transcript lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "unknown name a") {
		t.Errorf(":load forgot the session variable a:\n%s", text)
	}
	if !strings.Contains(out, "note: the session loaded or reloaded rule files") {
		t.Errorf("the note is not on screen:\n%s", out)
	}
	if ok, msg := transcript.RunFile(path, false, Open); !ok {
		t.Errorf("does not replay:\n%s\n%s", msg, text)
	}
}

// TestPipedInput: an over-long line, or an input left open over 16 MiB, ends the session
// with an error (in linear time); brackets in comments do not count; leftover hand-given
// results are reported on stderr.
func TestPipedInput(t *testing.T) {
	root, _ := filepath.Abs("../../../..")
	long := "1 + 1\n" + strings.Repeat("1", maxLine+10) + "\n2 + 2\n"
	code, out, errOut := runIn(t, root, long, 1)
	if code != 1 || out != "2\n" || errOut != "rulesh: input line 2 is longer than the 16 MiB limit; stopped there\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	open := "[\n" + strings.Repeat(strings.Repeat("1,", 500)+"\n", (maxLine/1000)+10)
	code, out, errOut = runIn(t, root, open, 1)
	if code != 1 || out != "" || !strings.HasSuffix(errOut, "is longer than the 16 MiB limit (a bracket left open?); stopped there\n") {
		t.Errorf("open bracket: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = runIn(t, root, "1 + 1 // (\n2\n[1,\n 2] // ]\n", 1)
	if code != 0 || out != "2\n2\n[1, 2]\n" {
		t.Errorf("comments: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = runIn(t, root, ":rolls 3 4\n1d6\n", 1)
	if code != 0 || errOut != "warning: hand-given results not used: 4\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestRecordBoundsOutput: an input that prints more than the log can hold is cut, said so in
// the transcript and on screen, and not kept in memory.
func TestRecordBoundsOutput(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	sh, err := New(Config{Dir: dir, Files: nil, Seed: 1, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	sh.Exec(":record big.transcript")
	line := strings.Repeat("x", 99)
	sh.Exec(`for i in 1..50000 { emit "` + line + `" }`)
	if got := out.Len(); got < 5_000_000 {
		t.Fatalf("the loop printed only %d bytes:\n%.300s", got, out.String())
	}
	if !sh.logLost || sh.out.Len() > 1000 {
		t.Errorf("log kept: lost %v, capture %d bytes", sh.logLost, sh.out.Len())
	}
	if !strings.HasSuffix(out.String(), "note: the output was longer than 4 MiB: the transcript holds only its start\n") {
		t.Errorf("no note on screen: %q", out.String()[out.Len()-200:])
	}
	st, err := os.Stat(filepath.Join(dir, "big.transcript"))
	if err != nil || st.Size() > maxLog+4096 {
		t.Errorf("transcript: %v, %d bytes", err, st.Size())
	}
	b, _ := os.ReadFile(filepath.Join(dir, "big.transcript"))
	if !strings.Contains(string(b), "# note: the output of the next input was longer than 4 MiB") {
		t.Errorf("no note in the transcript: %.400s", b)
	}
}

// TestRecordMenuAnswers: answers given at the menu are recorded as `:choices` before the
// input that asked, so the transcript replays the game played (replay has no one to ask);
// a call that failed keeps its answers for the next call, as it keeps hand-given ones.
func TestRecordMenuAnswers(t *testing.T) {
	root, _ := filepath.Abs("../../../..")
	dir := t.TempDir()
	path := filepath.Join(dir, "menu.transcript")
	var out bytes.Buffer
	sh, err := New(Config{Dir: root, Files: []string{"rulesets/examples/replis.rules"}, Seed: 1, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	answers := []int{2, 0, 1} // village, relancer, colline (from 0)
	sh.ask = func(prompt string, options []string) (int, error) {
		a := answers[0]
		answers = answers[1:]
		return a, nil
	}
	sh.install(sh.m)
	for _, in := range []string{":record " + path, ":choices 2", "repli(garde)", "repli(garde)", ":trace on", "relance(garde)", "repli_bloqué(garde)", "garde.relances", ":record off"} {
		sh.Exec(in)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"> :choices 2\nnext choices: 2\n> repli(garde)\n",
		"> :choices 3\nnext choices: 3\n> repli(garde)\n",
		"> :choices 1\nnext choices: 1\n> relance(garde)\n",
		"choose \"la Garde relance-t-elle ?\": relancer (given)\n",
		"> :choices 2\nnext choices: 2\n> repli_bloqué(garde)\n", // failed: the hill is taken, its answer is kept
		"> garde.relances\n",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("transcript lacks %q:\n%s", want, b)
		}
	}
	if got := strings.Join(sh.m.GivenChoices(), " "); got != "2" {
		t.Errorf("choices left %q, want the failed call's answer 2", got)
	}
	if ok, msg := transcript.RunFile(path, false, Open); !ok {
		t.Errorf("does not replay:\n%s\n%s", msg, b)
	}
}

// TestRecordMapSVG: a transcript recorded around `:map … svg` replays green: the picture,
// drawn before or during the recording, is kept as a comment (replay writes no file), and a
// failed write names the path given, not a temporary file.
func TestRecordMapSVG(t *testing.T) {
	root, _ := filepath.Abs("../../../..")
	dir := t.TempDir()
	path := filepath.Join(dir, "s.transcript")
	pic := filepath.Join(dir, "x.svg")
	in := ":map svg " + pic + "\n:record " + path + "\n1 + 1\n:map svg " + filepath.Join(dir, "nodir", "y.svg") + "\n:record off\n"
	_, out, errOut := runIn(t, root, in, 1, "rulesets/examples/carte.rules")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err, out, errOut)
	}
	if strings.Contains(string(b), ".tmp") || !strings.Contains(string(b), "# not replayed (replay writes no file): :map svg "+pic+"\n") {
		t.Errorf("recorded:\n%s", b)
	}
	if !strings.Contains(out, "error: cannot write "+filepath.Join(dir, "nodir", "y.svg")+": no such folder\n") {
		t.Errorf("the failed write:\n%s", out)
	}
	if ok, msg := transcript.RunFile(path, false, Open); !ok {
		t.Errorf("does not replay:\n%s\n%s", msg, b)
	}
}
