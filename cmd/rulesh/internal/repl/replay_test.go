package repl

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"rulesh/cmd/rulesh/internal/transcript"
	"rulesh/dsl"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts under tests/")

// heavyTranscripts take most of the replay's time, and under -race ten times as long (four
// minutes between them). A replay runs on one goroutine, so the race detector has nothing to
// find in them that the rest does not reach: CI's race run (-short) leaves them to the full
// run just before it, which replays every transcript. The shared-Program test of package dsl
// runs their inputs on machines at once.
var heavyTranscripts = map[string]string{
	"tests/examples/initiative.transcript": "exact odds over 148,824 branches",
	"tests/sabre/partie.transcript":        "a whole automatic game",
}

// TestTranscripts replays every golden transcript under tests/ (go test -update rewrites
// them, like rulesh test --update); -short leaves out heavyTranscripts.
func TestTranscripts(t *testing.T) {
	files, err := transcript.Find([]string{"../../../../tests"})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no transcripts under tests/")
	}
	for name := range heavyTranscripts {
		if !slices.Contains(files, filepath.Join("../../../..", filepath.FromSlash(name))) {
			t.Errorf("%s: no such transcript (heavyTranscripts names it)", name)
		}
	}
	for _, f := range files {
		rel, _ := filepath.Rel("../../../..", f)
		t.Run(rel, func(t *testing.T) {
			if why, heavy := heavyTranscripts[filepath.ToSlash(rel)]; heavy && testing.Short() {
				t.Skipf("-short: %s, replayed by the full run", why)
			}
			if ok, msg := transcript.RunFile(f, *update, Open); !ok {
				t.Errorf("%s", msg)
			}
		})
	}
}

func TestTranscriptCatchesMismatch(t *testing.T) {
	tr, err := transcript.Parse("x.transcript", []byte("seed 1\n> 1 + 1\n3\n> 2 + 2\n4\n"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := tr.Replay(Open)
	if err != nil {
		t.Fatal(err)
	}
	d := tr.Diff(got)
	want := "--- x.transcript (expected)\n+++ x.transcript (actual)\n@@ > 1 + 1 @@\n+2\n-3\n"
	if d != want {
		t.Errorf("diff:\n%s\nwant:\n%s", d, want)
	}
}

// TestTranscriptEscape: outputs that look like inputs, continuations, comments or blank
// lines survive --update and replay (they are written with a leading "\").
func TestTranscriptEscape(t *testing.T) {
	dir := t.TempDir()
	rules := "action dire() {\n" +
		"  emit \"> pas une entrée\"\n" +
		"  emit \">\"\n" +
		"  emit \"... ni une suite\"\n" +
		"  emit \"\\\\ une barre\"\n" +
		"  emit \"\"\n" +
		"  emit \"milieu\"\n" +
		"  emit \"# pas un commentaire\"\n" +
		"  emit \"\"\n" +
		"}\n"
	if err := os.WriteFile(filepath.Join(dir, "r.rules"), []byte(rules), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "t.transcript")
	src := "load r.rules\n> dire()\n\n# avant la suite\n> dire()\n# à la fin\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if ok, msg := transcript.RunFile(path, true, Open); !ok {
		t.Fatal(msg)
	}
	out := "\\> pas une entrée\n\\>\n\\... ni une suite\n\\\\ une barre\n\nmilieu\n\\# pas un commentaire\n\\\n"
	want := "load r.rules\n> dire()\n" + out + "\n# avant la suite\n> dire()\n" + out + "# à la fin\n"
	b, _ := os.ReadFile(path)
	if string(b) != want {
		t.Errorf("--update wrote:\n%s\nwant:\n%s", b, want)
	}
	if ok, msg := transcript.RunFile(path, false, Open); !ok {
		t.Errorf("the updated transcript does not replay:\n%s", msg)
	}
	// Updating again changes nothing.
	if ok, msg := transcript.RunFile(path, true, Open); !ok {
		t.Fatal(msg)
	}
	if b2, _ := os.ReadFile(path); string(b2) != want {
		t.Errorf("a second --update changed the file:\n%s", b2)
	}
}

// TestTranscriptDirectives: bad directives are errors, an empty transcript fails, and a
// trailing comment is not expected output.
func TestTranscriptDirectives(t *testing.T) {
	root, _ := filepath.Abs("../../../..")
	cartes := filepath.Join(root, "rulesets/examples/cartes.rules")
	tests := []struct{ src, want string }{
		{"rolls 3 x.5\n> 1\n1\n", "x.transcript:1: rolls: bad die result \"x.5\""},
		{"rolls\n> 1\n1\n", "x.transcript:1: rolls: no result given"},
		{"cards\n> 1\n1\n", "x.transcript:1: cards needs at least one card"},
		{"seed 1\nload " + cartes + "\ncards Z♣\n> 1\n1\n", "x.transcript:3: cards: \"Z♣\": no rank \"Z\""},
		{"", "x.transcript: no input"},
		{"# only a comment\nseed 2\n", "x.transcript: no input"},
		{"> 1 + 1\n2\n# the end\n\n", ""},
		{"> 1 + 1\n2\n\\# not a comment\n", "@@ > 1 + 1 @@\n 2\n-# not a comment\n"},
		// A byte order mark, as some Windows editors write, is not a directive.
		{"\ufeffseed 1\r\n> 1 + 1\r\n2\r\n", ""},
	}
	for _, tt := range tests {
		msg := ""
		tr, err := transcript.Parse("x.transcript", []byte(tt.src))
		if err == nil {
			var got []string
			if got, err = tr.Replay(Open); err == nil {
				msg = tr.Diff(got)
			}
		}
		if err != nil {
			msg = err.Error()
		}
		if tt.want == "" && msg != "" || !strings.Contains(msg, tt.want) {
			t.Errorf("%q: %q, want %q", tt.src, msg, tt.want)
		}
	}
}

// TestTranscriptBoundsOutput: replay keeps no more actual output than a transcript can hold.
func TestTranscriptBoundsOutput(t *testing.T) {
	line := strings.Repeat("x", 199)
	tr, err := transcript.Parse("x.transcript", []byte(`> for i in 1..50000 { emit "`+line+`" }`+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := tr.Replay(Open)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(got[0]); n > dsl.MaxFileSize+200 || !strings.HasSuffix(got[0], "(output cut: longer than a transcript may be, 8 MiB)\n") {
		t.Errorf("%d bytes, ending %q", n, got[0][len(got[0])-100:])
	}
}
