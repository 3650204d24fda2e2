package runtime_test

import (
	"testing"

	"github.com/alecthomas/participle/v2/lexer"

	"rulesh/dsl/internal/runtime"
)

// PosAt counts runes, not bytes, from the expression's start, a newline starting a line.
func TestPosAt(t *testing.T) {
	x := &runtime.Expr{Text: "é + ü\n  x", Start: lexer.Position{Line: 4, Column: 10}}
	for _, c := range []struct{ from, line, col int }{
		{0, 4, 10}, {1, 4, 11}, {4, 4, 14}, {5, 4, 15}, {6, 5, 1}, {8, 5, 3}, {9, 5, 4}, {99, 5, 4}, {-1, 4, 10},
	} {
		if p := x.PosAt(c.from); p.Line != c.line || p.Column != c.col {
			t.Errorf("PosAt(%d) = %d:%d, want %d:%d", c.from, p.Line, p.Column, c.line, c.col)
		}
	}
	if n := testing.AllocsPerRun(10, func() { x.PosAt(8) }); n != 0 {
		t.Errorf("PosAt allocates %v times", n)
	}
}
