package analysis

import (
	"fmt"
	"math/big"
	"strings"
	"testing"
)

// genesysFaces are the Genesys dice as the test's own tables, for the brute force: each face
// a string of symbols (s success, a advantage, T triumph, f failure, t threat, D despair).
var genesysFaces = map[string][]string{
	"ability":     {"", "s", "s", "ss", "a", "a", "sa", "aa"},
	"proficiency": {"", "s", "s", "ss", "ss", "a", "sa", "sa", "sa", "aa", "aa", "sT"},
	"difficulty":  {"", "f", "ff", "t", "t", "t", "tt", "ft"},
	"challenge":   {"", "f", "f", "ff", "ff", "t", "t", "ft", "ft", "tt", "tt", "fD"},
}

// genesysRules declares the same dice in the language.
func genesysRules() string {
	names := map[rune]string{'s': "s", 'a': "a", 'T': "tr", 'f': "f", 't': "t", 'D': "de"}
	var b strings.Builder
	for _, die := range []string{"ability", "proficiency", "difficulty", "challenge"} {
		var faces []string
		for _, f := range genesysFaces[die] {
			counts := map[string]int{}
			var order []string
			for _, c := range f {
				if counts[names[c]] == 0 {
					order = append(order, names[c])
				}
				counts[names[c]]++
			}
			var fields []string
			for _, n := range order {
				fields = append(fields, fmt.Sprintf("%s: %d", n, counts[n]))
			}
			faces = append(faces, "{"+strings.Join(fields, ", ")+"}")
		}
		fmt.Fprintf(&b, "dice %s = [%s]\n", die, strings.Join(faces, ", "))
	}
	return b.String()
}

// bruteNet lists every face of every die of the pool and counts, for each pair (net
// successes >= 1, net advantage), the ways to roll it: the independent reference.
func bruteNet(pool []string) (map[string]int64, int64) {
	out := map[string]int64{}
	var total int64
	var walk func(i, s, a, f, t int)
	walk = func(i, s, a, f, t int) {
		if i == len(pool) {
			out[fmt.Sprintf("[%v, %d]", s-f >= 1, a-t)]++
			total++
			return
		}
		for _, face := range genesysFaces[pool[i]] {
			// A triumph's face is written sT (its success and the triumph), a despair's fD.
			ds, da, df, dt := strings.Count(face, "s"), strings.Count(face, "a"), strings.Count(face, "f"), strings.Count(face, "t")
			walk(i+1, s+ds, a+da, f+df, t+dt)
		}
	}
	walk(0, 0, 0, 0, 0)
	return out, total
}

func TestRecordDiceOddsMatchBruteForce(t *testing.T) {
	prog := loadSource(t, genesysRules())
	for _, c := range []struct {
		expr string
		pool []string
	}{
		{"let r = 2dability + 1dproficiency + 2ddifficulty; [r.s - r.f >= 1, r.a - r.t]",
			[]string{"ability", "ability", "proficiency", "difficulty", "difficulty"}},
		// Two literals added: two draws, the same odds.
		{"let r = (1dchallenge + 1dability) + 1dproficiency; [r.s - r.f >= 1, r.a - r.t]",
			[]string{"challenge", "ability", "proficiency"}},
	} {
		d, err := Prob(Question{Prog: prog, Expr: c.expr}, ProbOptions{Exact: true})
		if err != nil {
			t.Fatal(err)
		}
		want, total := bruteNet(c.pool)
		if len(d.Outcomes) != len(want) {
			t.Errorf("%s: %d outcomes, want %d", c.expr, len(d.Outcomes), len(want))
		}
		for _, o := range d.Outcomes {
			w := big.NewRat(want[o.Text], total)
			if o.Fraction == nil || o.Fraction.Cmp(w) != 0 {
				t.Errorf("%s: %s has %v, want %v", c.expr, o.Text, o.Fraction, w)
			}
		}
	}
}

// TestRecordDiceOneDraw checks that a sum of record dice written in a row is one weighted
// draw: the branches are its distinct records of counts, not the faces of its dice.
func TestRecordDiceOneDraw(t *testing.T) {
	prog := loadSource(t, genesysRules())
	d, err := Prob(Question{Prog: prog, Expr: "2dability + 1dproficiency + 2ddifficulty"}, ProbOptions{Exact: true})
	if err != nil {
		t.Fatal(err)
	}
	if d.Leaves != int64(len(d.Outcomes)) || d.Leaves >= 8*8*12*8*8 {
		t.Errorf("%d leaves for %d outcomes", d.Leaves, len(d.Outcomes))
	}
	// Sorted by counts, field after field: {s: 10…} after {s: 2…} would need counts past 9;
	// here the first is the blank pool and the last the most successes.
	if first := d.Outcomes[0].Text; first != "{s: 0, a: 0, tr: 0, f: 0, t: 0}" {
		t.Errorf("first outcome %s", first)
	}
	if v, ok := d.Outcomes[0].Value.(string); !ok || v != d.Outcomes[0].Text {
		t.Errorf("value %#v, want the text", d.Outcomes[0].Value)
	}
}

func TestCompareCounts(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
		ok   bool
	}{
		{"{s: 2, a: 0}", "{s: 10, a: 0}", -1, true},
		{"{s: 2, a: 3}", "{s: 2, a: 1}", 1, true},
		{"{s: 2}", "{s: 2}", 0, true},
		{"{s: 2}", "{a: 2}", 0, false},
		{"[1, 2]", "[1, 3]", 0, false},
	} {
		got, ok := compareCounts(c.a, c.b)
		if got != c.want || ok != c.ok {
			t.Errorf("compareCounts(%s, %s) = %d, %v; want %d, %v", c.a, c.b, got, ok, c.want, c.ok)
		}
	}
}
