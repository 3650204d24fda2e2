package dsl

import (
	"fmt"
	"strings"
	"testing"

	"rulesh/stdlib/dice"
)

// totalOnlyCases are dice literals whose faces nobody reads, each beside the same rule with
// the literal first kept in a local, which records every face. Both must give the same
// values, draw the same dice and charge the same steps.
var totalOnlyCases = []struct{ bare, kept string }{
	{"3d6 + 2 >= 12", "let r = 3d6\n  return r + 2 >= 12"},
	{"2d6 - 1d4", "let r = 2d6\n  let s = 1d4\n  return r - s"},
	{"4d6kh3 * 2", "let r = 4d6kh3\n  return r * 2"},
	{"10 < 1d20 + 1d4", "let r = 1d20\n  let s = 1d4\n  return 10 < r + s"},
	{"d6 == 6", "let r = d6\n  return r == 6"},
	{"1d6! + 1", "let r = 1d6!\n  return r + 1"},               // explodes: a full roll either way
	{"2d6>=5 + 1", "let r = 2d6>=5\n  return r + 1"},           // counts successes: a full roll
	{"(3d6+1) * 2 != 7", "let r = 3d6+1\n  return r * 2 != 7"}, // a literal with arithmetic inside
	{"max(3d6, 2d6 + 1, 10)", "let r = 3d6\n  let s = 2d6\n  return max(r, s + 1, 10)"},
}

// runTotalOnly calls rule f n times on a machine over src, then rolls one more d1000 from
// the source: every result, the steps counted, and the trace, as one text.
func runTotalOnly(t *testing.T, body string, src dice.Source, trace bool) string {
	t.Helper()
	prog, d := LoadSource("t.rules", []byte("rule f(): any {\n  "+body+"\n}\nrule g(): int {\n  return d(1000)\n}\n"))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := NewMachine(prog, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if trace {
		m.SetTrace(func(_ int, line string) {
			if strings.HasPrefix(line, "roll ") {
				fmt.Fprintln(&b, line)
			}
		})
	}
	for range 200 {
		v, err := m.Call("f")
		fmt.Fprintf(&b, "%v %v %d\n", v, err, m.Steps())
	}
	v, err := m.Call("g")
	fmt.Fprintf(&b, "then %v %v, %d steps, mixed %q\n", v, err, m.Steps(), m.Mixed())
	return b.String()
}

// TestTotalOnlyDiceDrawTheSame: a literal rolled for its total alone gives what the full
// roll gives and leaves the source where the full roll leaves it: seeded, hand-given
// (running out midway), from a queue with nothing left (the REPL's), and traced (the trace
// shows the faces: traced, the full roll runs).
func TestTotalOnlyDiceDrawTheSame(t *testing.T) {
	given := func() dice.Source {
		var vals []string
		for i := range 300 {
			vals = append(vals, fmt.Sprint(1+i%4))
		}
		return dice.NewQueue(vals, dice.NewPCG(9))
	}
	for _, c := range totalOnlyCases {
		for _, mode := range []string{"seeded", "given", "traced", "queue used up"} {
			src := func() dice.Source { return dice.NewPCG(5) }
			switch mode {
			case "given":
				src = given
			case "queue used up": // the REPL's source: a queue, empty until :rolls
				src = func() dice.Source { return dice.NewQueue(nil, dice.NewPCG(5)) }
			}
			// As many statements as the kept form, so that both count the same steps.
			pad := ""
			for i := range strings.Count(c.kept, "let ") {
				pad += fmt.Sprintf("let unused%d = 0\n  ", i)
			}
			bare := runTotalOnly(t, pad+"return "+c.bare, src(), mode == "traced")
			kept := runTotalOnly(t, c.kept, src(), mode == "traced")
			if bare != kept {
				t.Errorf("%s, %s: differs from the roll kept in a local\n%s\n---\n%s", c.bare, mode, firstLines(bare), firstLines(kept))
			}
		}
	}
}

func firstLines(s string) string {
	lines := strings.SplitN(s, "\n", 6)
	return strings.Join(lines[:min(5, len(lines))], "\n")
}
