package dsl

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"rulesh/dsl/internal/racetest"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

// sharedMachines is how many machines run one Program at once in
// TestProgramSharedByMachines.
const sharedMachines = 2

// transcriptRun is what a shipped transcript loads and types: its rule files, and its
// one-line inputs (meta commands and continued lines left out).
type transcriptRun struct {
	name   string
	files  []string
	inputs []string
}

func readTranscriptRuns(t *testing.T) []transcriptRun {
	t.Helper()
	paths, _ := filepath.Glob("../tests/*/*.transcript")
	var out []transcriptRun
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		run := transcriptRun{name: p}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := sc.Text()
			if rest, ok := strings.CutPrefix(line, "load "); ok {
				run.files = append(run.files, filepath.Join(filepath.Dir(p), strings.TrimSpace(rest)))
			}
			if in, ok := strings.CutPrefix(line, "> "); ok && !strings.HasPrefix(in, ":") && !strings.HasSuffix(in, "{") {
				run.inputs = append(run.inputs, in)
			}
		}
		f.Close()
		if len(run.files) > 0 {
			out = append(out, run)
		}
	}
	return out
}

// TestProgramSharedByMachines runs the shipped rulesets' transcripts on two machines at
// once, both on one Program per ruleset: with -race it proves a loaded Program is only read
// while running, compiling REPL inputs included. Each machine must also give the results a
// lone machine gives. Two machines are enough: the race detector reports any write to the
// Program that another goroutine's access is not ordered with, and there are two cores here;
// eight machines replayed every transcript nine times for no further proof. The golden
// replay of the transcripts is the REPL's TestTranscripts; this test needs only the same
// inputs, so under -race it cuts each input at a smaller step budget.
func TestProgramSharedByMachines(t *testing.T) {
	sharedSteps := 50_000
	if racetest.Enabled {
		sharedSteps = 10_000
	}
	runs := readTranscriptRuns(t)
	if len(runs) < 5 {
		t.Fatalf("found %d transcripts with rule files", len(runs))
	}
	for _, run := range runs {
		prog, d := Load(nil, run.files...)
		if d.HasErrors() {
			t.Fatalf("%s: %v", run.name, d)
		}
		play := func(seed uint64) string {
			m, err := NewMachine(prog, dice.NewPCG(seed), nil)
			if err != nil {
				return err.Error()
			}
			// Each input is cut at a modest budget: a whole automatic game (sabre's partie
			// takes seconds, tens under -race) then stops at the same step on every
			// machine, which still compares them, in bounded time.
			l := m.Limits()
			l.MaxSteps = sharedSteps
			m.SetLimits(l)
			var out strings.Builder
			m.SetEmit(func(s string) { out.WriteString(s + "\n") })
			s := NewSession(m)
			for _, in := range run.inputs {
				var err error
				var v any
				if IsStatement(in) {
					err = s.Exec("<input>", in)
				} else {
					v, err = s.Eval("<input>", in)
				}
				out.WriteString(runtime.Repr(v))
				if err != nil {
					out.WriteString(" " + err.Error())
				}
				out.WriteString("\n")
			}
			return out.String()
		}
		want := play(7)
		var wg sync.WaitGroup
		got := make([]string, sharedMachines)
		for i := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i] = play(7)
			}()
		}
		wg.Wait()
		for i, g := range got {
			if g != want {
				t.Errorf("%s: machine %d gave other results:\n%s\nwant\n%s", run.name, i, g, want)
				break
			}
		}
	}
}
