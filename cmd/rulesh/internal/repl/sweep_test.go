package repl

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSweep: :sweep answers once per value, a column each, for a name of the expression, a
// let it reads and an option (as :set has the others); its mistakes are said and mark the
// input failed.
func TestSweep(t *testing.T) {
	sh, out := newDuel(t)
	tests := []struct {
		input, want string
		failed      bool
	}{
		{":sweep n=1..3 2d6 + n >= 10", "2d6 + n >= 10\nvalue     n=1     n=2     n=3\nfalse  72.22%  58.33%  41.67%\n true  27.78%  41.67%  58.33%\n", false},
		{"let r = 1d6", "", false},
		{":sweep n=5,6 r >= n", "r >= n\nvalue     n=5     n=6\nfalse  66.67%  83.33%\n true  33.33%  16.67%\n", false},
		{":sweep malus=0,6 1d6 > malus", "1d6 > malus\nvalue  malus=0  malus=6\nfalse        —  100.00%\n true  100.00%        —\n", false},
		{":sweep zz=1..2 3d6", "error: :sweep zz: zz is not an option of the rules nor a name in the expression\n", true},
		{":sweep n=3..1 n", "error: :sweep ", true},
		{":sweep n=1..3", "error: :sweep NAME=A..B EXPR", true},
	}
	for _, tt := range tests {
		out.Reset()
		sh.Exec(tt.input)
		got := out.String()
		if tt.input == "let r = 1d6" {
			continue
		}
		if !strings.HasPrefix(got, tt.want) || sh.Failed() != tt.failed {
			t.Errorf("%s:\ngot  %q (failed %v)\nwant %q (failed %v)", tt.input, got, sh.Failed(), tt.want, tt.failed)
		}
	}
}

// TestSweepChart: with a picture receiver (the playground), :sweep draws one chart with a
// series per value, named in its legend.
func TestSweepChart(t *testing.T) {
	var out bytes.Buffer
	var pics []string
	sh, err := New(Config{Dir: examples, Files: []string{"duel.rules"}, Seed: 1, Stdout: &out, Stderr: &out, Picture: func(svg string) { pics = append(pics, svg) }})
	if err != nil {
		t.Fatal(err)
	}
	sh.Exec(":sweep n=1..3 2d6 + n >= 10")
	if len(pics) != 1 || !strings.HasPrefix(pics[0], "<svg") || !strings.Contains(pics[0], ">n=1</text>") || !strings.Contains(pics[0], ">n=3</text>") {
		t.Fatalf("got %d pictures: %q", len(pics), pics)
	}
	pics = nil
	sh.Exec(":prob 3d6 >= 12")
	if len(pics) != 1 || !strings.Contains(pics[0], "3d6 &gt;= 12") {
		t.Fatalf(":prob: got %d pictures: %q", len(pics), pics)
	}
}

// A question of :prob or :sweep refused for a reason of its own (here the die made from a
// rule cannot be made for a swept option value) is said as the REPL's other errors are,
// "error: …", not with the CLI's "rulesh: " prefix.
func TestProbPlainErrorPrefix(t *testing.T) {
	var out bytes.Buffer
	src := "option n = 6 \"sides\"\nrule r(): int {\n  return d(n)\n}\ndice a = r()\n"
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "o.rules"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	sh, err := New(Config{Dir: dir, Files: []string{"o.rules"}, Seed: 1, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	sh.Exec(":sweep n=0..1 1da")
	if got := out.String(); !strings.HasPrefix(got, "error: ") || strings.Contains(got, "rulesh:") || !strings.Contains(got, "a die has 1 to 1000000 sides, not 0") || !sh.Failed() {
		t.Errorf("got %q (failed %v)", got, sh.Failed())
	}
}
