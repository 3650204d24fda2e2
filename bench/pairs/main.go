// Command pairs times whole processes: it runs a command A, and a second command B when one
// is given, in turn (after a warm-up run of each, A B, B A, A B …: the order alternates, so
// that neither always runs second), and prints one row of a Markdown table: the CPU time of
// each (user + system of the finished process, as the kernel counted it), its peak resident
// set, and the ratio A/B taken pair by pair. Each figure is the median over the runs, with
// the range in brackets. Taking the ratio of runs made one after the other keeps it
// meaningful when the machine's speed drifts.
//
// Usage:
//
//	go run ./bench/pairs [-n RUNS] [-label TEXT] -- COMMAND_A [ARG]... [--vs COMMAND_B [ARG]...]
//
// The commands run without a shell, their standard output thrown away; a command that fails
// stops the timing, with the end of what it wrote on its standard error. Exit codes: 0 done,
// 1 a command failed, 2 bad usage.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

const usage = "usage: pairs [-n RUNS] [-label TEXT] -- COMMAND_A [ARG]... [--vs COMMAND_B [ARG]...]"

// run is the command with its arguments and output streams, returning the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pairs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, usage)
		fs.PrintDefaults()
	}
	n := fs.Int("n", 11, "timed runs of each command")
	label := fs.String("label", "", "the row's first cell (default: command A)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	a, b, vs := splitVs(fs.Args())
	if len(a) == 0 || vs && len(b) == 0 || *n < 1 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	if *label == "" {
		*label = strings.Join(a, " ")
	}
	var runsA, runsB []sample
	// One run of each before the timed ones: the binaries are read into memory.
	for i := -1; i < *n; i++ {
		sa, sb, err := pair(a, b, i%2 != 0)
		if err != nil {
			fmt.Fprintf(stderr, "pairs: %v\n", err)
			return 1
		}
		if i >= 0 {
			runsA = append(runsA, sa)
			if len(b) > 0 {
				runsB = append(runsB, sb)
			}
		}
	}
	fmt.Fprintln(stdout, row(*label, runsA, runsB))
	return 0
}

// splitVs cuts the arguments at --vs into command A and command B; vs tells whether --vs
// was there.
func splitVs(args []string) (a, b []string, vs bool) {
	if i := slices.Index(args, "--vs"); i >= 0 {
		return args[:i], args[i+1:], true
	}
	return args, nil, false
}

// pair runs A and then B (B first when bFirst), or A alone without B.
func pair(a, b []string, bFirst bool) (sa, sb sample, err error) {
	switch {
	case len(b) == 0:
		sa, err = measure(a)
	case bFirst:
		if sb, err = measure(b); err == nil {
			sa, err = measure(a)
		}
	default:
		if sa, err = measure(a); err == nil {
			sb, err = measure(b)
		}
	}
	return
}

// sample is one finished run: its CPU time and its peak resident set.
type sample struct {
	cpu    time.Duration
	peakKB int64
}

// measure runs the command once, its output thrown away. A failure is told with the last
// lines the command wrote on its standard error.
func measure(cmd []string) (sample, error) {
	c := exec.Command(cmd[0], cmd[1:]...)
	var errs tail
	c.Stderr = &errs
	if err := c.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return sample{}, err // exec's error names the command
		}
		what := exit.String() // "exit status 3", "signal: killed"
		if msg := strings.TrimSpace(string(errs.b)); msg != "" {
			what += ": " + msg
		}
		return sample{}, fmt.Errorf("%s: %s", cmd[0], what)
	}
	return sample{cpu: c.ProcessState.UserTime() + c.ProcessState.SystemTime(), peakKB: peakKB(c.ProcessState)}, nil
}

// tail keeps the last bytes written to it: the end of a failing command's messages.
type tail struct{ b []byte }

const tailBytes = 2000

func (t *tail) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > tailBytes {
		t.b = t.b[len(t.b)-tailBytes:]
		if i := bytes.IndexByte(t.b, '\n'); i >= 0 {
			t.b = t.b[i+1:] // from a line's start
		}
	}
	return len(p), nil
}

// row is the table row of the runs: A's CPU and peak, B's, and A/B pair by pair. Without
// runs of B, its cells and the ratio's are empty; a run of B that took no measurable CPU
// time leaves the ratio unsaid.
func row(label string, a, b []sample) string {
	cells := []string{label, spread(a, cpuMs), spread(a, peakMiB), "", "", ""}
	if len(b) > 0 {
		cells[3], cells[4], cells[5] = spread(b, cpuMs), spread(b, peakMiB), "n/a (a run of B took no CPU time)"
		ratios := make([]float64, len(a))
		for i := range a {
			ratios[i] = float64(a[i].cpu) / float64(b[i].cpu)
		}
		if !slices.ContainsFunc(ratios, func(r float64) bool { return math.IsInf(r, 0) || math.IsNaN(r) }) {
			cells[5] = rangeOf(ratios, "%.3f")
		}
	}
	return "| " + strings.Join(cells, " | ") + " |"
}

func cpuMs(s sample) float64   { return float64(s.cpu) / float64(time.Millisecond) }
func peakMiB(s sample) float64 { return float64(s.peakKB) / 1024 }

// spread is the median and range of one figure of the runs, to one decimal.
func spread(runs []sample, figure func(sample) float64) string {
	v := make([]float64, len(runs))
	for i, s := range runs {
		v[i] = figure(s)
	}
	return rangeOf(v, "%.1f")
}

// rangeOf prints the median of v and, in brackets, its minimum and maximum.
func rangeOf(v []float64, format string) string {
	v = slices.Clone(v)
	slices.Sort(v)
	f := func(x float64) string { return fmt.Sprintf(format, x) }
	return f(median(v)) + " (" + f(v[0]) + "–" + f(v[len(v)-1]) + ")"
}

// median of sorted values.
func median(v []float64) float64 {
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}
