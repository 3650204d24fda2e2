package exprx_test

import (
	"testing"

	"rulesh/dsl/internal/check"
	"rulesh/dsl/internal/exprx"
	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
)

// TestCountReading: a dice literal glued to a comparison counts successes; where a
// comparison or a boolean operator stands beside it, a reader takes it for a comparison of
// the total. Compared, it is a warning (it runs, comparing the count); used as true or
// false, an error that says so (expr would refuse it as a roll). Both give both spellings.
func TestCountReading(t *testing.T) {
	files, sources, diags := syntax.ParseFiles(memFiles{"t.rules": []byte(rules)}, "t.rules")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	prog := check.NewProgram(library(), sources, []string{"t.rules"})
	if diags := check.CheckFiles(prog, files); diags.HasErrors() {
		t.Fatal(diags)
	}
	locals := map[string]*runtime.Type{"d6": runtime.IntType, "ok": runtime.BoolType}
	const d8 = "(glued, 6d10>=8 counts the dice showing 8 or more; to compare the total write 6d10 >= 8 (spaced), to use the count write total(6d10>=8))"
	for _, tt := range []struct{ text, diag string }{
		{text: "6d10>=8"},
		{text: "6d10 >= 8"},
		{text: "total(6d10>=8) >= 3"},
		{text: "(6d10 >= 8) && ok"},
		{text: "d6>=3 && ok"}, // d6 is a local: a comparison, not a die
		{text: "6d10>=8 + 1"},
		{text: "6d10>=8 >= 3", diag: "<t>:1:1: warning: 6d10>=8 is a count of successes, compared here " + d8},
		{text: "3 <= 6d10>=8", diag: "<t>:1:6: warning: 6d10>=8 is a count of successes, compared here " + d8},
		{text: "6d10>=8 ==\n 2", diag: "<t>:1:1: warning: 6d10>=8 is a count of successes, compared here " + d8},
		{text: "6d10>=8 && ok", diag: "<t>:1:1: 6d10>=8 is a count of successes, not true or false " + d8},
		{text: "ok or 6d10>=8", diag: "<t>:1:7: 6d10>=8 is a count of successes, not true or false " + d8},
		{text: "!6d10>=8", diag: "<t>:1:2: 6d10>=8 is a count of successes, not true or false " + d8},
		{text: "6d10>=8 ? 1 : 0", diag: "<t>:1:1: 6d10>=8 is a count of successes, not true or false " + d8},
		{text: "4d6=6 > 0", diag: "<t>:1:1: warning: 4d6=6 is a count of successes, compared here (glued, 4d6=6 counts the dice showing 6; to compare the total write 4d6 == 6 (spaced), to use the count write total(4d6=6))"},
		{text: "5d10<3f10 != 0", diag: "<t>:1:1: warning: 5d10<3f10 is a count of successes, compared here (glued, 5d10<3f10 counts the dice showing less than 3; to compare the total write 5d10f10 < 3 (spaced), to use the count write total(5d10<3f10))"},
	} {
		t.Run(tt.text, func(t *testing.T) {
			x := expr(tt.text)
			_, diags, err := exprx.NewCompiler(prog).Compile(x, &scope{prog: prog, locals: locals, inProc: true})
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if len(diags) > 0 {
				got = diags[0].Error()
			}
			if got != tt.diag {
				t.Errorf("diagnostic %q\nwant       %q", got, tt.diag)
			}
			if !diags.HasErrors() && x.Code == nil {
				t.Error("no code")
			}
		})
	}
}

// TestCountCondition: a condition (of if, while, require) that is a lone dice literal
// counting successes is an error that gives both spellings; a spaced comparison, a literal
// among other tokens or a plain roll is not the checker's to refuse here.
func TestCountCondition(t *testing.T) {
	prog := load(t)
	const d8 = " (glued, 6d10>=8 counts the dice showing 8 or more; to compare the total write 6d10 >= 8 (spaced), to use the count write total(6d10>=8))"
	for _, tt := range []struct{ text, diag string }{
		{text: "6d10>=8", diag: "<t>:1:1: 6d10>=8 is a count of successes, not true or false" + d8},
		{text: "  6d10>=8 ", diag: "<t>:1:3: 6d10>=8 is a count of successes, not true or false" + d8},
		{text: "6d10 >= 8"},
		{text: "6d10>=8 && true"},
		{text: "3d6"},
		{text: "malus > 2"},
		{text: "true"},
	} {
		x := expr(tt.text)
		got := ""
		if d := exprx.NewCompiler(prog).CountCondition(x); d != nil {
			got = d.Error()
		}
		if got != tt.diag {
			t.Errorf("%q: diagnostic %q\nwant       %q", tt.text, got, tt.diag)
		}
	}
}
