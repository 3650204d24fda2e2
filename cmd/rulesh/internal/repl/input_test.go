package repl

import (
	"bytes"
	"strings"
	"testing"

	"rulesh/cmd/rulesh/internal/transcript"
)

// badInputs crashed the REPL, `eval` and transcripts (issue 11); each must end in an error
// naming the problem.
var badInputs = []struct{ src, want string }{
	{`"`, "<input>:1:1: unterminated string"},
	{"1d6 \xff\xfe", "<input>:1:5: invalid UTF-8 byte 0xff"},
	{"1d6\xff", "<input>:1:4: invalid UTF-8 byte 0xff"},
	{"Q♣ \xffx", "<input>:1:4: invalid UTF-8 byte 0xff"},
	{strings.Repeat("!", 1_000_000) + "true", "<input>:1:65: nesting deeper than the limit of 64"},
	{strings.Repeat("-", 400_000) + "1", "<input>:1:65: nesting deeper than the limit of 64"},
	{"let __x = 1", "<input>:1:5: names starting with __ are reserved\n    let __x = 1\n        ^"},
	// A let's errors point into the line as typed, and show it whole.
	{"let a = 1 + nope", "<input>:1:13: unknown name nope\n    let a = 1 + nope\n                ^"},
	{strings.Repeat("1+", 100_000) + "1", "<input>:1:20001: expression longer than the limit of 20000 tokens"},
	{strings.Repeat("a", 5<<20), "<input>: input longer than the limit of 4 MiB"},
}

var goWords = []string{"panic", "goroutine", "runtime error", "fatal error"}

func checkClean(t *testing.T, what, out string) {
	t.Helper()
	for _, w := range goWords {
		if strings.Contains(out, w) {
			t.Errorf("%s: %.300s", what, out)
		}
	}
}

func TestREPLBadInput(t *testing.T) {
	for _, c := range badInputs {
		var out bytes.Buffer
		sh, err := New(Config{Dir: "../../../../rulesets/examples", Files: []string{"cartes.rules"}, Seed: 1, Stdout: &out, Stderr: &out})
		if err != nil {
			t.Fatal(err)
		}
		ok := sh.Run(strings.NewReader(c.src + "\n1 + 1\n"))
		got := out.String()
		checkClean(t, "repl", got)
		if ok || !strings.HasPrefix(got, c.want) || !strings.HasSuffix(got, "\n2\n") {
			t.Errorf("repl %.40q: ok %v\n%.300s\nwant %q, then the session goes on", c.src, ok, got, c.want)
		}
	}
}

// TestREPLLetLines: a let typed over two lines points into its second line.
func TestREPLLetLines(t *testing.T) {
	var out bytes.Buffer
	sh, err := New(Config{Dir: "../../../../rulesets/examples", Files: []string{"cartes.rules"}, Seed: 1, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	sh.Run(strings.NewReader("let  é = [1,\n 2, nope]\n"))
	if want := "<input>:2:5: unknown name nope\n     2, nope]\n        ^"; !strings.HasPrefix(out.String(), want) {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

func TestTranscriptBadInput(t *testing.T) {
	var src strings.Builder
	src.WriteString("seed 1\nload ../../../../rulesets/examples/cartes.rules\n")
	for _, c := range badInputs {
		src.WriteString("> " + c.src + "\n")
	}
	tr, err := transcript.Parse("x.transcript", []byte(src.String()))
	if err != nil {
		t.Fatal(err)
	}
	got, err := tr.Replay(Open)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range badInputs {
		checkClean(t, "transcript", got[i])
		if !strings.HasPrefix(got[i], c.want) {
			t.Errorf("transcript %.40q:\n%.300s\nwant %q", c.src, got[i], c.want)
		}
	}
}

// TestContinuationIgnoresComments: a `//` comment holding a bracket does not make the REPL
// wait for more; brackets in strings do not either, open ones do.
func TestContinuationIgnoresComments(t *testing.T) {
	var out bytes.Buffer
	sh, err := New(Config{Dir: t.TempDir(), Files: nil, Seed: 1, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	sh.Run(strings.NewReader("1 // (\n2\n\"(\" // [\n'\\'{'\n[3,\n4]\n"))
	if got, want := out.String(), "1\n2\n\"(\"\n\"'{\"\n[3, 4]\n"; got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestREPLMetaEncoding: meta commands are checked for UTF-8 too.
func TestREPLMetaEncoding(t *testing.T) {
	var out bytes.Buffer
	sh, err := New(Config{Dir: t.TempDir(), Files: nil, Seed: 1, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	sh.Exec(":prob 1d6 \xff")
	if got, want := out.String(), "<input>:1:11: invalid UTF-8 byte 0xff"; !strings.HasPrefix(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
