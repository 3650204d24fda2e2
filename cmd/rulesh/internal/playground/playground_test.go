package playground

import (
	"os"
	"path/filepath"
	"rulesh/dsl"
	"strings"
	"testing"
)

const mistake = "option bonus = 2 \"le bonus\"\nrule attaque(): int {\n  return roll(\"1d6\").total + bonuss\n}\n"

func TestCheck(t *testing.T) {
	tests := []struct {
		name  string
		files Files
		want  []Diag
	}{
		{"clean", Files{"a.rules": strings.ReplaceAll(mistake, "bonuss", "bonus")}, []Diag{}},
		{"unknown name, underlined whole, with its suggestion", Files{"a.rules": mistake}, []Diag{{
			File: "a.rules", Line: 3, Col: 30, EndLine: 3, EndCol: 36, Severity: "error",
			Message: "unknown name bonuss (did you mean bonus?)",
		}}},
		{"a missing include is said at the top of the root", Files{"a.rules": "include \"b.rules\"\n"}, nil},
		{"an include's problem is said in its file", Files{"a.rules": "include \"b.rules\"\n", "b.rules": mistake}, []Diag{{
			File: "b.rules", Line: 3, Col: 30, EndLine: 3, EndCol: 36, Severity: "error",
			Message: "unknown name bonuss (did you mean bonus?)",
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Check(tt.files, "a.rules")
			if tt.want == nil {
				if len(got) != 1 || got[0].File != "a.rules" || got[0].Line != 1 || got[0].Col != 1 || got[0].Severity != "error" || !strings.Contains(got[0].Message, "cannot read b.rules") {
					t.Fatalf("got %+v, want one error at a.rules:1:1", got)
				}
				return
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("diag %d: got %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestNameEnd(t *testing.T) {
	tests := []struct {
		src       string
		line, col int
		want      int
	}{
		{"x + dégâts * 2", 1, 5, 11}, // columns in characters, not bytes
		{"x + (y)", 1, 5, 6},         // no name there: one character
		{"x", 3, 1, 2},               // past the text: one character
	}
	for _, tt := range tests {
		if got := nameEnd(tt.src, lineStarts(tt.src), pos(tt.line, tt.col)); got.Col != tt.want || got.Line != tt.line {
			t.Errorf("nameEnd(%q, %d:%d) = %v, want col %d", tt.src, tt.line, tt.col, got, tt.want)
		}
	}
}

// texts joins the text segments; pictures counts the SVG ones.
func texts(segs []Segment) (string, int) {
	var b strings.Builder
	n := 0
	for _, s := range segs {
		switch s.Kind {
		case "text":
			b.WriteString(s.Text)
		case "svg":
			if !strings.HasPrefix(s.Text, "<svg") {
				t := s.Text
				if len(t) > 40 {
					t = t[:40]
				}
				b.WriteString("[bad picture " + t + "]")
			}
			n++
		}
	}
	return b.String(), n
}

func TestConsole(t *testing.T) {
	c := NewConsole()
	files := Files{"a.rules": strings.ReplaceAll(mistake, "bonuss", "bonus")}
	run := func(version int, input string) (string, int) {
		return texts(c.Exec(Request{Files: files, Root: "a.rules", Version: version, Seed: 1, Input: input}))
	}
	out, pics := run(1, ":prob 3d6 >= 12")
	if !strings.Contains(out, "loaded a.rules, seed 1") || !strings.Contains(out, "3/8") || pics != 1 {
		t.Fatalf(":prob: got %q with %d pictures, want the session started, the table and a chart", out, pics)
	}
	if out, pics = run(1, ":prob attaque()"); !strings.Contains(out, "8  ") && !strings.Contains(out, "1/6") || pics != 1 {
		t.Fatalf(":prob attaque(): got %q with %d pictures", out, pics)
	}
	if out, _ = run(1, "let x = 4"); out != "x = 4\n" {
		t.Fatalf("let: got %q", out)
	}
	// An edit of the rules is reloaded before the next input, the session's variables kept.
	files["a.rules"] = strings.ReplaceAll(files["a.rules"], "bonus = 2", "bonus = 10")
	if out, _ = run(2, ":prob attaque() >= 11"); !strings.Contains(out, "reloaded 1 file(s)") || !strings.Contains(out, "true             1") && !strings.Contains(out, "100.00%") {
		t.Fatalf("after an edit: got %q, want a reload and the new odds", out)
	}
	if out, _ = run(2, "x"); out != "4\n" {
		t.Fatalf("a let after the reload: got %q", out)
	}
	// Rules with errors leave the previous version loaded, and say why.
	files["a.rules"] = mistake
	if out, _ = run(3, "attaque() >= 11"); !strings.Contains(out, "bonuss (did you mean bonus?)") || !strings.Contains(out, "previous version stays loaded") || !strings.HasSuffix(out, "true\n") {
		t.Fatalf("after a mistake: got %q", out)
	}
}

func TestConsoleStartsWithoutBrokenRules(t *testing.T) {
	c := NewConsole()
	files := Files{"a.rules": mistake}
	out, _ := texts(c.Exec(Request{Files: files, Root: "a.rules", Version: 1, Input: "2 + 2"}))
	if !strings.Contains(out, "runs without the rules") || !strings.HasSuffix(out, "4\n") {
		t.Fatalf("got %q, want the rules refused and the expression answered", out)
	}
	files["a.rules"] = strings.ReplaceAll(mistake, "bonuss", "bonus")
	out, _ = texts(c.Exec(Request{Files: files, Root: "a.rules", Version: 2, Input: "bonus"}))
	if !strings.Contains(out, "loaded a.rules") || !strings.HasSuffix(out, "2\n") {
		t.Fatalf("after the fix: got %q, want the rules loaded", out)
	}
}

func TestConsoleMap(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "rulesets", "examples", "carte.rules"))
	if err != nil {
		t.Fatal(err)
	}
	c := NewConsole()
	out, pics := texts(c.Exec(Request{Files: Files{"carte.rules": string(src)}, Root: "carte.rules", Version: 1, Input: ":map"}))
	if !strings.Contains(out, "hussards") || pics != 1 {
		t.Fatalf(":map: got %q with %d pictures, want the board as text and as a picture", out, pics)
	}
}

func TestFilesRefusesMissingAndLarge(t *testing.T) {
	f := Files{"a.rules": "x", "big.rules": strings.Repeat("a", 17<<20)}
	if _, err := f.ReadFile("b.rules"); err == nil {
		t.Error("a missing file was read")
	}
	if b, err := f.ReadFile("./a.rules"); err != nil || string(b) != "x" {
		t.Errorf("./a.rules: %q, %v", b, err)
	}
	if _, err := f.ReadFile("big.rules"); err == nil {
		t.Error("a file over the size limit was read")
	}
}

func pos(line, col int) dsl.Pos { return dsl.Pos{Line: line, Col: col} }

func TestConsoleComplete(t *testing.T) {
	c := NewConsole()
	files := Files{"a.rules": strings.ReplaceAll(mistake, "bonuss", "bonus")}
	head, cands := c.Complete(Request{Files: files, Root: "a.rules", Version: 1, Complete: ":prob att"})
	if head != ":prob " || len(cands) != 1 || cands[0] != "attaque" {
		t.Fatalf("got %q %q, want the rule's name after :prob", head, cands)
	}
	// The session the completion started is the one the next input runs in, started once.
	out, _ := texts(c.Exec(Request{Files: files, Root: "a.rules", Version: 1, Input: "bonus"}))
	if out != "2\n" {
		t.Fatalf("the input after a completion: got %q", out)
	}
}

func TestConsoleQuitStartsAfresh(t *testing.T) {
	c := NewConsole()
	files := Files{"a.rules": "option bonus = 2 \"b\"\n"}
	run := func(input string) string {
		out, _ := texts(c.Exec(Request{Files: files, Root: "a.rules", Version: 1, Input: input}))
		return out
	}
	run("let x = 4")
	if out := run(":quit"); !strings.Contains(out, "session ended") {
		t.Fatalf(":quit: got %q", out)
	}
	if out := run("x"); !strings.Contains(out, "loaded a.rules") || !strings.Contains(out, "unknown name x") {
		t.Fatalf("after :quit: got %q, want a new session without x", out)
	}
}

// TestConsoleSim: :sim in the page says its progress to the hook as it runs, then answers
// with sim's table and a chart of the outcomes.
func TestConsoleSim(t *testing.T) {
	c := NewConsole()
	var last, calls int64
	c.Progress = func(done, total int64) {
		if total != 20000 || done < last {
			t.Errorf("progress %d/%d after %d", done, total, last)
		}
		last = done
		calls++
	}
	files := Files{"a.rules": strings.ReplaceAll(mistake, "bonuss", "bonus")}
	out, pics := texts(c.Exec(Request{Files: files, Root: "a.rules", Version: 1, Seed: 1, Input: ":sim 20000 attaque() >= 6"}))
	if !strings.Contains(out, "attaque() >= 6: 20000 runs, seed 1") || !strings.Contains(out, "95% interval") || pics != 1 {
		t.Fatalf("got %q with %d pictures, want sim's table and a chart", out, pics)
	}
	if last != 20000 || calls < 3 {
		t.Errorf("progress ended at %d after %d calls, want 20000 after several", last, calls)
	}
}
