package repl

import (
	"strings"
	"testing"
)

// TestProbReadsLets: :prob starts from the rules as loaded, where a REPL let was an unknown
// name; the lets it reads (directly or through other lets) now come with it, evaluated
// afresh in each branch, so a roll bound once answers several questions.
func TestProbReadsLets(t *testing.T) {
	code, out, _ := runIn(t, ".", "let r = 2d6\n:prob r >= 7 and r <= 9\nlet s = r + 1\nlet r = 5\n:prob s >= 13\n:prob r\n", 1)
	if code != 0 {
		t.Fatalf("session failed:\n%s", out)
	}
	for _, want := range []string{
		"let r = 2d6; r >= 7 and r <= 9\n", " true         5/12",
		"let r = 2d6; let s = r + 1; s >= 13\n", " true         1/36",
		"let r = 5; r: mean 5.0000",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "unknown") {
		t.Errorf("a let is unknown to :prob:\n%s", out)
	}
}
