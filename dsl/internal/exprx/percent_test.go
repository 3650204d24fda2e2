package exprx_test

import (
	"testing"

	"rulesh/dsl/internal/exprx"
	"rulesh/dsl/internal/runtime"
)

// TestPercent: a number followed by % and no operand is a percentage, the point moved two
// places with no rounding; with an operand after it, % is the remainder; with + or - after
// it, either reading could be meant and the load fails showing both spellings.
func TestPercent(t *testing.T) {
	prog := load(t)
	for _, tt := range []struct{ text, want, diag string }{
		{text: "40%", want: "0.4"},
		{text: "12.5%", want: "0.125"},
		{text: "5% * 2", want: "0.1"},
		{text: "100% == 1.0", want: "true"},
		{text: "[5%, 250%]", want: "[0.05, 2.5]"},
		{text: "{a: 7%}.a", want: "0.07"},
		{text: "(40%) - x", want: "-0.6"},
		{text: "x >= 40% and true", want: "true"},
		{text: "0.5 in [50%]", want: "true"},
		{text: "7 % 3", want: "1"},
		{text: "7 % x", want: "0"},
		{text: "7 % (2)", want: "1"},
		{text: "-7 % 3", want: "-1"},
		{text: "40% - x", diag: "<t>:1:1: 40% - is ambiguous (write (40%) - … for a percentage, or 40 % (-…) for a remainder)"},
		{text: "40% + x", diag: "<t>:1:1: 40% + is ambiguous (write (40%) + … for a percentage, or 40 % (+…) for a remainder)"},
	} {
		t.Run(tt.text, func(t *testing.T) {
			m, err := runtime.NewMachine(prog, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			x := expr(tt.text)
			_, diags, cerr := exprx.NewCompiler(prog).Compile(x, &scope{prog: prog, locals: map[string]*runtime.Type{"x": runtime.IntType}, inProc: true})
			if cerr != nil {
				t.Fatal(cerr)
			}
			if tt.diag != "" {
				if !diags.HasErrors() || diags.Error() != tt.diag {
					t.Fatalf("diagnostics %v, want %q", diags, tt.diag)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			v, err := m.Eval(x, map[string]any{"__rt": m, "x": 1, "malus": 3, "base": 10})
			if err != nil {
				t.Fatal(err)
			}
			if got := runtime.Repr(v); got != tt.want {
				t.Errorf("= %s, want %s", got, tt.want)
			}
		})
	}
}
