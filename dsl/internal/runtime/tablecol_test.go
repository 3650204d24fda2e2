package runtime_test

import (
	"testing"

	"rulesh/dsl"
	"rulesh/stdlib/tables"
)

const colRules = `table combats(rapport, dé) roll 1d6 {
  columns ratio 1:2, 1:1, 2:1, 3:1
  below   : "impossible"
  above   : "submergé"
  1 .. 2  : ["AE", "AR", "EX", "DR"]
  3 .. 4  : ["AR", "EX", "DR", "DE"]
  5 .. 6  : ["EX", "DR", "DE", "DE"]
}
table moral(terrain, dé) roll 2d6 {
  columns "clair", "bois", "ville"
  2 .. 5   : ["déroute", "recul", "tient"]
  6 .. 9   : ["recul", "tient", "tient"]
  10 .. 12 : ["tient", "tient", "tient"]
}
table sans(rapport, dé) roll 1d6 {
  columns ratio 1:1, 2:1
  1 .. 6 : ["A", "B"]
}
table calcul(rapport, dé) roll 1d6 {
  columns ratio 1:1, 2:1
  1 .. 6 : [dé, dé * 10]
}
table court(rapport, dé) roll 1d6 {
  columns ratio 1:1, 2:1
  1 .. 6 : "A"
}
`

// TestColumnOdds: one column's odds, counted face by face against the rows as written.
func TestColumnOdds(t *testing.T) {
	prog, d := dsl.LoadSource("t.rules", []byte(colRules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	rows := [][]string{{"AE", "AR", "EX", "DR"}, {"AR", "EX", "DR", "DE"}, {"EX", "DR", "DE", "DE"}}
	ratios := []tables.Ratio{{Num: 1, Den: 2}, {Num: 1, Den: 1}, {Num: 2, Den: 1}, {Num: 3, Den: 1}}
	for _, c := range []struct {
		arg  any
		odds float64
	}{{"1:2", 0.5}, {"1:1", 1}, {1, 1}, {1.5, 1.5}, {"5/2", 2.5}, {"2:1", 2}, {3, 3}, {"3:1", 3}, {"1:3", 1.0 / 3}, {0.4, 0.4}, {"7:2", 3.5}, {4, 4}} {
		count := map[string]int{}
		var order []string
		col := tables.Column(ratios, c.odds, 1)
		for f := 1; f <= 6; f++ {
			label := "submergé"
			switch {
			case col < 0:
				label = "impossible"
			case !tables.Over(ratios, c.odds, 1):
				label = rows[(f-1)/2][col]
			}
			if count[label] == 0 {
				order = append(order, label)
			}
			count[label]++
		}
		dist, err := prog.TableDist("combats", c.arg)
		if err != nil {
			t.Fatalf("combats(%v): %v", c.arg, err)
		}
		if len(dist.W) != len(order) {
			t.Fatalf("combats(%v): %v, want %v", c.arg, dist.Syms, order)
		}
		for i, label := range order {
			if dist.Syms[i] != label || dist.P(i+1).Cmp(bigRat(count[label], 6)) != 0 {
				t.Errorf("combats(%v): %s = %v, want %s %d/6", c.arg, dist.Syms[i], dist.P(i+1), label, count[label])
			}
		}
	}
	mrows := [][]string{{"déroute", "recul", "tient"}, {"recul", "tient", "tient"}, {"tient", "tient", "tient"}}
	for col, terrain := range []string{"clair", "bois", "ville"} {
		count := map[string]int{}
		var order []string
		for a := 1; a <= 6; a++ {
			for b := 1; b <= 6; b++ {
				r := 0
				switch s := a + b; {
				case s >= 10:
					r = 2
				case s >= 6:
					r = 1
				}
				label := mrows[r][col]
				if count[label] == 0 {
					order = append(order, label)
				}
				count[label]++
			}
		}
		dist, err := prog.TableDist("moral", terrain)
		if err != nil {
			t.Fatal(err)
		}
		for i, label := range order {
			if dist.Syms[i] != label || dist.P(i+1).Cmp(bigRat(count[label], 36)) != 0 {
				t.Errorf("moral(%s): %s = %v, want %s %d/36", terrain, dist.Syms[i], dist.P(i+1), label, count[label])
			}
		}
	}
	calc, err := prog.TableDist("calcul", 2)
	if err != nil || len(calc.W) != 6 || calc.Syms[0] != "10" || calc.Syms[5] != "60" || calc.P(1).Cmp(bigRat(1, 6)) != 0 {
		t.Errorf("calcul(2): %v, %v; want 10 … 60, 1/6 each", calc, err)
	}
	for _, c := range []struct {
		name string
		args []any
		err  string
	}{
		{"combats", nil, "table combats has columns: its odds take one argument, the column, as in combats(1:2), not 0"},
		{"combats", []any{1, 2}, "table combats has columns: its odds take one argument, the column, as in combats(1:2), not 2"},
		{"combats", []any{"x"}, `table combats: the column is odds, a number or a ratio such as 1:2, got "x"`},
		{"combats", []any{true}, `table combats: the column is odds, a number or a ratio such as 1:2, got true`},
		{"moral", []any{"mer"}, `table moral has no column "mer": its columns are clair, bois, ville`},
		{"moral", nil, `table moral has columns: its odds take one argument, the column, as in moral("clair"), not 0`},
		{"sans", []any{"1:2"}, "table sans: odds 1:2 are below the first column 1:1"},
		{"court", []any{1}, "table court: row t.rules:25:3 has no value for column 1"},
	} {
		if _, err := prog.TableDist(c.name, c.args...); err == nil || err.Error() != c.err {
			t.Errorf("TableDist(%s, %v): %v, want %q", c.name, c.args, err, c.err)
		}
	}
}

// TestParseTableCall reads the odds commands' argument.
func TestParseTableCall(t *testing.T) {
	for _, c := range []struct {
		in, name string
		args     []any
	}{
		{"coup", "coup", nil},
		{"coup()", "coup", nil},
		{" coup(2) ", "coup", []any{2}},
		{"combats(1:1)", "combats", []any{"1:1"}},
		{`moral("bois", -1.5)`, "moral", []any{"bois", -1.5}},
	} {
		name, args, _ := dsl.ParseTableCall(c.in)
		if name != c.name || len(args) != len(c.args) {
			t.Errorf("ParseTableCall(%q) = %s %v, want %s %v", c.in, name, args, c.name, c.args)
			continue
		}
		for i := range args {
			if args[i] != c.args[i] {
				t.Errorf("ParseTableCall(%q) arg %d = %v, want %v", c.in, i, args[i], c.args[i])
			}
		}
	}
}
