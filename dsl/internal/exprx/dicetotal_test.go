package exprx_test

import (
	"strings"
	"testing"

	"rulesh/dsl/internal/check"
	"rulesh/dsl/internal/exprx"
	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
)

// TestTotalOnlyDiceCompiled: a dice literal that is an operand of arithmetic or a
// comparison with an int compiles to the total-only roller (__dicetotal); one whose roll can
// be read (kept, passed, .faces, beside a value of unknown type, a symbolic die, an exploding
// die whose number of dice varies) keeps the full roll.
func TestTotalOnlyDiceCompiled(t *testing.T) {
	src := "dice combat = [fusil, épée, bouclier]\n"
	files, sources, diags := syntax.ParseFiles(memFiles{"t.rules": []byte(src)}, "t.rules")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	prog := check.NewProgram(library(), sources, []string{"t.rules"})
	if diags := check.CheckFiles(prog, files); diags.HasErrors() {
		t.Fatal(diags)
	}
	locals := map[string]*runtime.Type{"x": runtime.AnyType, "i": runtime.IntType, "r": runtime.RollType}
	tests := []struct {
		text  string
		total int // the literals rolled for their total only
	}{
		{"3d6 + 2 >= 12", 1},
		{"2d6 - 1d4", 2},
		{"i * 4d6kh3", 1},
		{"1d20 == i", 1},
		{"max(3d6, 2d6 + 1, i)", 2},
		{"sum([1d6, 2])", 0},
		{"abs(1d6! - 3)", 0},
		{"3d6", 0},
		{"total(3d6)", 0},
		{"(3d6).faces", 0},
		{"[3d6, 1]", 0},
		{"1dcombat == fusil", 0},
		{"x + 1d6", 0},
		{"r + 1d6", 0},
		{"1d6! + 1", 0},
		{"2d6>=5 + 1", 0},
		{"3d6 / 2", 0},
		{"3d6 % 2", 0},
	}
	for _, tt := range tests {
		x := expr(tt.text)
		if _, d, err := exprx.NewCompiler(prog).Compile(x, &scope{prog: prog, locals: locals, inProc: true}); err != nil || d.HasErrors() {
			t.Errorf("%s: %v %v", tt.text, err, d)
			continue
		}
		code := exprx.Disassemble(x)
		if got := strings.Count(code, "__dicetotal"); got != tt.total {
			t.Errorf("%s: %d literals rolled for their total only, want %d\n%s", tt.text, got, tt.total, code)
		}
		if tt.total > 0 && strings.Contains(code, "__roll_") {
			// A total is an int: expr's own operator applies, not the roll overload.
			t.Errorf("%s: a roll operator on a total\n%s", tt.text, code)
		}
	}
}
