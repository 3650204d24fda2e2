// Command pairs times whole processes: it runs a command A, and a second command B when one
// is given, in turn (A B A B …, after a warm-up run of each), and prints one row of a
// Markdown table: the CPU time of each (user + system of the finished process, as the
// kernel counted it), its peak resident set, and the ratio A/B taken pair by pair. Each
// figure is the median over the runs, with the range in brackets. Taking the ratio of runs
// made one after the other keeps it meaningful when the machine's speed drifts.
//
// Usage:
//
//	go run ./bench/pairs [-n RUNS] [-label TEXT] -- COMMAND_A [ARG]... [--vs COMMAND_B [ARG]...]
//
// The commands run without a shell, their output thrown away; a command that fails stops
// the timing with its error. Exit codes: 0 done, 1 a command failed, 2 bad usage.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pairs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 11, "timed runs of each command")
	label := fs.String("label", "", "the row's first cell (default: command A)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	a, b := splitVs(fs.Args())
	if len(a) == 0 || *n < 1 {
		fmt.Fprintln(stderr, "usage: pairs [-n RUNS] [-label TEXT] -- COMMAND_A [ARG]... [--vs COMMAND_B [ARG]...]")
		return 2
	}
	if *label == "" {
		*label = strings.Join(a, " ")
	}
	var runsA, runsB []sample
	// One run of each before the timed ones: the binaries are read into memory.
	for i := -1; i < *n; i++ {
		sa, err := measure(a)
		if err != nil {
			fmt.Fprintf(stderr, "pairs: %s: %v\n", a[0], err)
			return 1
		}
		var sb sample
		if len(b) > 0 {
			if sb, err = measure(b); err != nil {
				fmt.Fprintf(stderr, "pairs: %s: %v\n", b[0], err)
				return 1
			}
		}
		if i >= 0 {
			runsA, runsB = append(runsA, sa), append(runsB, sb)
		}
	}
	fmt.Fprintln(stdout, row(*label, runsA, runsB))
	return 0
}

// splitVs cuts the arguments at --vs into command A and command B.
func splitVs(args []string) (a, b []string) {
	if i := slices.Index(args, "--vs"); i >= 0 {
		return args[:i], args[i+1:]
	}
	return args, nil
}

// sample is one finished run: its CPU time and its peak resident set.
type sample struct {
	cpu    time.Duration
	peakKB int64
}

// measure runs the command once, its standard streams on the null device.
func measure(cmd []string) (sample, error) {
	c := exec.Command(cmd[0], cmd[1:]...)
	if err := c.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return sample{}, fmt.Errorf("exit status %d", exit.ExitCode())
		}
		return sample{}, err
	}
	s := sample{cpu: c.ProcessState.UserTime() + c.ProcessState.SystemTime()}
	if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.peakKB = int64(ru.Maxrss) // kilobytes on Linux
	}
	return s, nil
}

// row is the table row of the runs: A's CPU and peak, B's, and A/B pair by pair. Without
// runs of B, its cells and the ratio's are empty.
func row(label string, a, b []sample) string {
	cells := []string{label, spread(a, cpuMs), spread(a, peakMiB)}
	if len(b) > 0 && b[0].cpu > 0 {
		ratios := make([]float64, len(a))
		for i := range a {
			ratios[i] = float64(a[i].cpu) / float64(b[i].cpu)
		}
		cells = append(cells, spread(b, cpuMs), spread(b, peakMiB), rangeOf(ratios, "%.3f"))
	} else {
		cells = append(cells, "", "", "")
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
