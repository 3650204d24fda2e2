package main

import (
	"bytes"
	"strings"
	"testing"
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
	{"let __x = 1", "<input>: names starting with __ are reserved"},
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
		sh, err := newShell(&cli{stdout: &out, stderr: &out}, "../../rulesets/examples", []string{"cartes.rules"}, 1)
		if err != nil {
			t.Fatal(err)
		}
		code := sh.plain(strings.NewReader(c.src + "\n1 + 1\n"))
		got := out.String()
		checkClean(t, "repl", got)
		if code != exitError || !strings.HasPrefix(got, c.want) || !strings.HasSuffix(got, "\n2\n") {
			t.Errorf("repl %.40q: exit %d\n%.300s\nwant %q, then the session goes on", c.src, code, got, c.want)
		}
	}
}

func TestEvalBadInput(t *testing.T) {
	for _, c := range badInputs {
		if strings.HasPrefix(c.src, "let ") {
			continue // eval takes an expression
		}
		var stdout, stderr bytes.Buffer
		code := Main([]string{"eval", "-f", "../../rulesets/examples/cartes.rules", "--", c.src}, strings.NewReader(""), &stdout, &stderr)
		want := strings.Replace(c.want, "<input>", "<eval>", 1)
		checkClean(t, "eval", stderr.String())
		if code != exitError || !strings.HasPrefix(stderr.String(), want) {
			t.Errorf("eval %.40q: exit %d\n%.300s\nwant %q", c.src, code, stderr.String(), want)
		}
	}
}

func TestTranscriptBadInput(t *testing.T) {
	var src strings.Builder
	src.WriteString("seed 1\nload ../../rulesets/examples/cartes.rules\n")
	for _, c := range badInputs {
		src.WriteString("> " + c.src + "\n")
	}
	tr, err := parseTranscript("x.transcript", []byte(src.String()))
	if err != nil {
		t.Fatal(err)
	}
	got, err := tr.run()
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
	sh, err := newShell(&cli{stdout: &out, stderr: &out}, t.TempDir(), nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	sh.plain(strings.NewReader("1 // (\n2\n\"(\" // [\n'\\'{'\n[3,\n4]\n"))
	if got, want := out.String(), "1\n2\n\"(\"\n\"'{\"\n[3, 4]\n"; got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestREPLMetaEncoding: meta commands are checked for UTF-8 too.
func TestREPLMetaEncoding(t *testing.T) {
	var out bytes.Buffer
	sh, err := newShell(&cli{stdout: &out, stderr: &out}, t.TempDir(), nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	sh.exec(":prob 1d6 \xff")
	if got, want := out.String(), "<input>:1:11: invalid UTF-8 byte 0xff"; !strings.HasPrefix(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
