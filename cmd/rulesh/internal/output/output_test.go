package output

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"rulesh/analysis"
	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

func TestError(t *testing.T) {
	src := dsl.Sources{"r.rules": []byte("const a = 1\nconst b = zut\n")}
	pos := dsl.Pos{File: "r.rules", Line: 2, Col: 11}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"diagnostics quote their line", dsl.Diagnostics{{Pos: pos, Summary: "unknown name zut"}},
			"r.rules:2:11: unknown name zut\n    const b = zut\n              ^\n"},
		{"wrapped diagnostics too", fmt.Errorf("load: %w", dsl.Diagnostics{{Pos: pos, Summary: "bad"}}),
			"r.rules:2:11: bad\n    const b = zut\n              ^\n"},
		{"a run-time error shows its stack", &dsl.RuntimeError{Pos: pos, Msg: "division by zero", Frames: []dsl.CallFrame{{Proc: "f", Pos: dsl.Pos{File: "r.rules", Line: 1, Col: 1}}, {Proc: "g", Pos: dsl.Pos{File: "r.rules", Line: 2, Col: 3}}}},
			"r.rules:2:11: division by zero\n    const b = zut\n              ^\n    in f called at r.rules:1:1\n    in g called at r.rules:2:3\n"},
		{"runs failing the same way say so, then the first", &analysis.ErrEveryRunFails{Runs: 20, Side: "B", Err: &dsl.RuntimeError{Pos: pos, Msg: "while loop exceeds the limit", Frames: []dsl.CallFrame{{Proc: "f", Pos: dsl.Pos{File: "<prob>", Line: 1, Col: 1}}}}},
			"the first 20 runs in B fail the same way, so the analysis stopped there (the others would too):\nr.rules:2:11: while loop exceeds the limit\n    const b = zut\n              ^\n    in f called at <prob>:1:1\n"},
		{"anything else is the command's", errors.New("disk full"), "rulesh: disk full\n"},
		{"a refusal is the rule speaking: one line", &dsl.RuntimeError{Pos: pos, Msg: "on ne recule pas", Require: true, Frames: []dsl.CallFrame{{Proc: "déplacer", Pos: dsl.Pos{File: "<input>", Line: 1, Col: 1}}}},
			"on ne recule pas\n"},
		{"runs refused the same way give the refusal", &analysis.ErrEveryRunFails{Runs: 20, Err: &dsl.RuntimeError{Pos: pos, Msg: "on ne recule pas", Require: true}},
			"the first 20 runs fail the same way, so the analysis stopped there (the others would too):\non ne recule pas\n"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		Error(&b, tt.err, dsl.Sources{"other": []byte("x")}, src)
		if got := b.String(); got != tt.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}

// TestErrorFull: a trace and --json show a refusal as any run-time error, placed and with
// its calls.
func TestErrorFull(t *testing.T) {
	src := dsl.Sources{"r.rules": []byte("const a = 1\nconst b = zut\n")}
	err := &dsl.RuntimeError{Pos: dsl.Pos{File: "r.rules", Line: 2, Col: 11}, Msg: "on ne recule pas", Require: true,
		Frames: []dsl.CallFrame{{Proc: "déplacer", Pos: dsl.Pos{File: "<input>", Line: 1, Col: 1}}}}
	var b bytes.Buffer
	ErrorFull(&b, err, src)
	want := "r.rules:2:11: on ne recule pas\n    const b = zut\n              ^\n    in déplacer called at <input>:1:1\n"
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestDiceError(t *testing.T) {
	tests := []struct {
		src  string
		err  error
		want string
	}{
		{"3d6 +", &dice.Error{Col: 6, Msg: "expected a term"}, "<expr>:1:6: expected a term\n    3d6 +\n         ^\n"},
		{"2d0", errors.New("column 2: a die needs sides"), "<expr>:1:2: a die needs sides\n    2d0\n     ^\n"},
		{"x", errors.New("too many dice"), "<expr>: too many dice\n"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		DiceError(&b, tt.src, tt.err)
		if b.String() != tt.want {
			t.Errorf("%q: got\n%q\nwant\n%q", tt.src, b.String(), tt.want)
		}
	}
	// A real parse error from the notation goes the same way.
	_, err := dice.Parse("3d6 +", nil)
	var b bytes.Buffer
	DiceError(&b, "3d6 +", err)
	if !strings.HasPrefix(b.String(), "<expr>:1:") || !strings.Contains(b.String(), "    3d6 +\n") {
		t.Errorf("parse error rendered as %q", b.String())
	}
}

func TestLeftovers(t *testing.T) {
	tests := []struct {
		rolls, cards, choices []string
		want                  string
	}{
		{nil, nil, nil, ""},
		{[]string{"4", "5"}, nil, nil, "warning: hand-given results not used: 4 5\n"},
		{nil, []string{"Q♣"}, nil, "warning: hand-given cards not used: Q♣\n"},
		{[]string{"1"}, []string{"7♠", "QC"}, nil, "warning: hand-given results not used: 1\nwarning: hand-given cards not used: 7♠ QC\n"},
		{nil, nil, []string{"2", "colline"}, "warning: hand-given choices not used: 2 colline\n"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		Leftovers(&b, tt.rolls, tt.cards, tt.choices)
		if b.String() != tt.want {
			t.Errorf("Leftovers(%v, %v, %v) = %q, want %q", tt.rolls, tt.cards, tt.choices, b.String(), tt.want)
		}
	}
}

func TestJSON(t *testing.T) {
	var b bytes.Buffer
	if err := JSON(&b, map[string]any{"expr": "1d6<3 && x>2", "n": 1}); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), `{"expr":"1d6<3 && x>2","n":1}`+"\n"; got != want {
		t.Errorf("got %q, want %q (no HTML escapes)", got, want)
	}
	if err := JSON(&b, math.NaN()); err == nil {
		t.Error("NaN was written")
	}
}

func TestFormats(t *testing.T) {
	syms := []string{"sabre", "fusil"}
	tests := []struct {
		got, want any
	}{
		{Float(10.5), "10.5000"},
		{Float(2.95803989), "2.9580"},
		{Percent(1.0 / 216), "0.46%"},
		{Percent(1), "100.00%"},
		{Label(1, true, nil), "true"},
		{Label(0, true, nil), "false"},
		{Label(2, false, syms), "fusil"},
		{Label(3, false, syms), "3"},
		{Label(-2, false, nil), "-2"},
		{Value(1, true, nil), true},
		{Value(1, false, syms), "sabre"},
		{Value(0, false, syms), 0},
		{Value(7, false, nil), 7},
		{bar(1, 1, 40), strings.Repeat("█", 40)},
		{bar(0.5, 1, 4), "██"},
		{bar(1.0/16, 1, 1), "▏"},
		{bar(1e-9, 1, 40), "▏"},
		{bar(0, 1, 40), ""},
		{bar(1, 0, 40), ""},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%d: got %#v, want %#v", i, tt.got, tt.want)
		}
	}
}

func TestTable(t *testing.T) {
	var b bytes.Buffer
	Table(&b, []string{"value", "n"}, [][]string{{"sabre", "10"}, {"é", "5"}}, []float64{2, 1})
	want := "value   n\n" +
		"sabre  10  " + strings.Repeat("█", 40) + "\n" +
		"    é   5  " + strings.Repeat("█", 20) + "\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func dist(t *testing.T, src string, named map[string]*dice.Die) *dice.Dist {
	t.Helper()
	e, err := dice.Parse(src, named)
	if err != nil {
		t.Fatal(err)
	}
	d, err := e.Distribution()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestDist(t *testing.T) {
	combat, err := dice.NewDie("combat", []dice.Face{{Sym: "sabre"}, {Sym: "fusil"}, {Sym: "fusil"}})
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]*dice.Die{"combat": combat}
	tests := []struct {
		src    string
		asJSON bool
		want   string
	}{
		{"1d2", false, "1d2: mean 1.5000, stddev 0.5000\n" +
			"value  probability       %     P(≥)     P(≤)\n" +
			"    1          1/2  50.00%  100.00%   50.00%  " + strings.Repeat("█", 40) + "\n" +
			"    2          1/2  50.00%   50.00%  100.00%  " + strings.Repeat("█", 40) + "\n"},
		{"1d2", true, `{"expr":"1d2","mean":1.5,"outcomes":[{"value":1,"probability":0.5,"fraction":"1/2"},{"value":2,"probability":0.5,"fraction":"1/2"}],"stddev":0.5}` + "\n"},
		{"heads", false, "heads: mean 0.2500, stddev 0.4330\n" +
			"value  probability       %\n" +
			"false          3/4  75.00%  " + strings.Repeat("█", 40) + "\n" +
			" true          1/4  25.00%  " + strings.Repeat("█", 13) + "▍\n"},
		{"combat", false, "combat\n" +
			"value  probability       %\n" +
			"sabre          1/3  33.33%  " + strings.Repeat("█", 20) + "\n" +
			"fusil          2/3  66.67%  " + strings.Repeat("█", 40) + "\n"},
		{"combat", true, `{"expr":"combat","mean":null,"outcomes":[{"value":"sabre","probability":0.3333333333333333,"fraction":"1/3"},{"value":"fusil","probability":0.6666666666666666,"fraction":"2/3"}],"stddev":null}` + "\n"},
	}
	// A comparison: 0 is false, 1 is true.
	heads := &dice.Dist{Min: 0, W: []*big.Int{big.NewInt(3), big.NewInt(1)}, Den: big.NewInt(4), Bool: true}
	for _, tt := range tests {
		d := heads
		if tt.src != "heads" {
			d = dist(t, tt.src, named)
		}
		var b bytes.Buffer
		if err := Dist(&b, tt.src, d, tt.asJSON); err != nil {
			t.Fatal(err)
		}
		if b.String() != tt.want {
			t.Errorf("%s (json %v): got\n%s\nwant\n%s", tt.src, tt.asJSON, b.String(), tt.want)
		}
	}
}

// TestDistTruncated: exploding dice are followed until little is left; the mass beyond is reported, in
// both forms.
func TestDistTruncated(t *testing.T) {
	d := dist(t, "1d2!", nil)
	var b bytes.Buffer
	if err := Dist(&b, "1d2!", d, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), fmt.Sprintf("(explosions followed until each exploding term leaves out less than %g; left out: ", dice.ExplodeCutoff)) {
		t.Errorf("no word of the truncation:\n%s", b.String())
	}
	b.Reset()
	if err := Dist(&b, "1d2!", d, true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"truncated":`) {
		t.Errorf("no truncated key: %s", b.String())
	}
}

// One branch is "1 branch", in prob's heading as in the sweep's total.
func TestBranchesCount(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{{1, "exact: 1 branch of the dice enumerated"}, {0, "exact: 0 branches of the dice enumerated"}, {645, "exact: 645 branches of the dice enumerated"}} {
		if got := howAnswered(&analysis.Dist{Exact: true, Leaves: c.n}, 0); got != c.want {
			t.Errorf("%d: %q, want %q", c.n, got, c.want)
		}
	}
}
