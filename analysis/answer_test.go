package analysis

import (
	"errors"
	"testing"
)

// TestOddsWay: Odds alone decides how a question is answered, by convolution or by the
// engine, and which error a bad one gets.
func TestOddsWay(t *testing.T) {
	bandes := loadFiles(t, "../rulesets/examples/bandes.rules")
	coups := loadFiles(t, "../rulesets/examples/coups.rules")
	for _, c := range []struct {
		name string
		q    Question
		conv bool   // answered by convolution
		err  string // "dice", "table", "other" or "" for an answer
	}{
		{"dice", Question{Expr: "3d6 >= 12"}, true, ""},
		{"rolled table", Question{Prog: bandes, Expr: "résultat()"}, true, ""},
		{"constant argument", Question{Prog: bandes, Expr: "résultat_aidé(2)"}, true, ""},
		{"option set", Question{Prog: bandes, Expr: "résultat()", Overrides: map[string]any{"stat": 3}}, true, ""},
		// A name among the arguments is an expression: the text "stat" is no bonus.
		{"name argument", Question{Prog: bandes, Expr: "résultat_aidé(stat)"}, false, ""},
		{"roll argument", Question{Prog: coups, Expr: "coup(1d2)"}, false, ""},
		{"expression", Question{Prog: bandes, Expr: `résultat() != "échec"`}, false, ""},
		{"emits", Question{Expr: "2d6", Emits: true}, false, ""},
		{"bound", Question{Expr: "2d6 + n", Bind: map[string]any{"n": 1}}, false, ""},
		{"no sides", Question{Expr: "3d0"}, false, "dice"},
		{"meant as dice", Question{Expr: "do_move"}, false, "dice"},
		{"a call", Question{Expr: "do_move(2)"}, false, "other"},
		// An expression's let that does not compile said `unknown die "let"`.
		{"a let", Question{Expr: "let r = 2; r + nope"}, false, "other"},
		{"missing argument", Question{Prog: coups, Expr: "coup"}, false, "table"},
		{"unknown option", Question{Prog: bandes, Expr: "résultat()", Overrides: map[string]any{"nope": 1}}, false, "other"},
	} {
		a, err := Odds(c.q, ProbOptions{})
		var de *DiceError
		var te *TableError
		got := ""
		switch {
		case errors.As(err, &de):
			got = "dice"
		case errors.As(err, &te):
			got = "table"
		case err != nil:
			got = "other"
		}
		if got != c.err {
			t.Errorf("%s: error %v, want %q", c.name, err, c.err)
			continue
		}
		if err == nil && (a.Conv != nil) != c.conv {
			t.Errorf("%s: by convolution %v, want %v", c.name, a.Conv != nil, c.conv)
		}
	}
	// résultat_aidé(stat) at stat 1 is 2d6 + 2: échec ≤ 6 is 1/6, 7..9 and ≥ 10 are 5/12.
	a, err := Odds(Question{Prog: bandes, Expr: "résultat_aidé(stat)"}, ProbOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{`"échec"`: "1/6", `"succès partiel"`: "5/12", `"succès"`: "5/12"}
	for _, o := range a.Dist.Outcomes {
		if want[o.Text] != o.Fraction.RatString() {
			t.Errorf("%s: %s, want %s", o.Text, o.Fraction.RatString(), want[o.Text])
		}
	}
	if len(a.Dist.Outcomes) != 3 {
		t.Errorf("%d outcomes, want 3", len(a.Dist.Outcomes))
	}
}
