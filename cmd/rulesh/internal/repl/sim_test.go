package repl

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestSimProgress: :sim tells the progress hook of its runs, from 0 to all of them, rising
// and not once per chunk of runs (the page redraws its bar at each call), and interrupts
// stop it.
func TestSimProgress(t *testing.T) {
	var mu sync.Mutex
	var seen [][2]int64
	var out bytes.Buffer
	progress := func(done, total int64) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, [2]int64{done, total})
	}
	sh, err := New(Config{Seed: 1, Stdout: &out, Stderr: &out, Progress: progress})
	if err != nil {
		t.Fatal(err)
	}
	sh.Exec(":sim 100000 d6")
	if sh.Failed() || !strings.HasPrefix(out.String(), "d6: 100000 runs, seed 1\n") {
		t.Fatalf("output %q", out.String())
	}
	if len(seen) < 3 || len(seen) > 102 || seen[0] != [2]int64{0, 100000} || seen[len(seen)-1] != [2]int64{100000, 100000} {
		t.Fatalf("progress %v: want 0 first, 100000 last, at most one call per percent", seen)
	}
	for i := 1; i < len(seen); i++ {
		if seen[i][0] <= seen[i-1][0] {
			t.Fatalf("progress %v does not rise", seen)
		}
	}
}

// TestSimInterrupted: Interrupt stops a long :sim within a step of a run, and the session
// goes on.
func TestSimInterrupted(t *testing.T) {
	var out syncBuffer
	sh, err := New(Config{Seed: 1, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		sh.Exec(":sim 1000000000 100d6")
	}()
	time.Sleep(200 * time.Millisecond)
	sh.Interrupt()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf(":sim still running 20 s after the interrupt; output %q", out.String())
	}
	if got := out.String(); !strings.HasPrefix(got, "error: :sim interrupted after ") || !sh.Failed() {
		t.Errorf("output %q, failed %v", got, sh.Failed())
	}
}

// TestChartTips: the charts of the page's console show the exact fraction when a bar is
// hovered (its <title>), as the CLI's do; a :sim's chart is of frequencies.
func TestChartTips(t *testing.T) {
	var pics []string
	var out bytes.Buffer
	sh, err := New(Config{Seed: 1, Stdout: &out, Stderr: &out, Picture: func(svg string) { pics = append(pics, svg) }})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ input, want string }{
		{":prob d6", "1/6"},                  // by convolution
		{":prob [1, 2, 3][d(3) - 1]", "1/3"}, // by the engine
		{":sweep n=1..2 d6 + n >= 6", "1/3"}, // each value of a sweep
		{":sim 100 d6", ">frequency</text>"}, // sampled: frequencies
	} {
		pics = nil
		sh.Exec(c.input)
		if len(pics) != 1 || !strings.Contains(pics[0], c.want) {
			t.Errorf("%s: %d pictures, want one with %q:\n%s", c.input, len(pics), c.want, strings.Join(pics, "\n"))
		}
	}
}

// TestSimCount: a first word that is a whole number is N, whatever blank follows it, and a
// whole number too large for N is refused as one rather than read as the start of EXPR
// (which gave a puzzling error about a dice literal).
func TestSimCount(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{":sim 100\td6", "d6: 100 runs, seed 1\n"},
		{":sim 100 \t d6", "d6: 100 runs, seed 1\n"},
		{":sim 99999999999999999999 d6", "error: :sim N must be between 1 and 1000000000\n"},
		{":sim -99999999999999999999 d6", "error: :sim N must be between 1 and 1000000000\n"},
		{":sim 1000000001 d6", "error: :sim N must be between 1 and 1000000000\n"},
	} {
		var out bytes.Buffer
		sh, err := New(Config{Seed: 1, Stdout: &out, Stderr: &out})
		if err != nil {
			t.Fatal(err)
		}
		sh.Exec(tc.in)
		if got, _, _ := strings.Cut(out.String(), "value"); got != tc.want {
			t.Errorf("%q: output %q, want it to start %q", tc.in, out.String(), tc.want)
		}
	}
}

// TestSimLimitRunsHint: a :sim stopped by runs at a limit says what the console does (it
// takes no flags) and names the command line's --limit-runs, not a flag it would refuse.
func TestSimLimitRunsHint(t *testing.T) {
	var out bytes.Buffer
	sh, err := New(Config{Dir: "../../../../analysis/testdata", Files: []string{"endless.rules"}, Seed: 1, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	sh.Exec(":sim 100 roule()")
	want := "error: :sim 3 of the first 3 runs of roule() reached a limit, so :sim stopped there (the console stops at 3; on the command line, rulesh sim --limit-runs N lets more count as outcomes; 0, all of them); the first reached max_loop_iterations:\n"
	if !sh.Failed() || !strings.HasPrefix(out.String(), want) {
		t.Fatalf("output\n%s\nwant it to start with\n%s", out.String(), want)
	}
}
