package analysis

import (
	"errors"
	"fmt"

	"rulesh/dsl"
)

// FailFastRuns is how many first random runs of prob's estimate and samples, and of sim,
// must all fail the same way for the analysis to stop and report the failure instead of
// counting it: twenty runs that fail at the same place with the same message are a mistake in
// the rules or the expression, not odds (an endless loop that rolls dice would otherwise cost
// every one of tens of thousands of runs its whole step budget). A rule that succeeds in one
// run out of twenty or more and fails the same way otherwise may be stopped with it; a failed
// `require` never stops the analysis, being a rule's own answer ("no shot").
const FailFastRuns = 20

// failFastFew is how few first runs suffice once they have spent a whole step budget
// (max_steps) together: each such run costs a second or more, and the few say as much.
const failFastFew = 2

// ErrEveryRunFails is the error of an analysis stopped because its first runs all failed
// the same way (see FailFastRuns).
type ErrEveryRunFails struct {
	Runs int64 // the runs that failed before the analysis stopped
	// Side is "B" when the runs of a comparison's B failed, "" otherwise.
	Side string
	// Err is the first run's failure, with its position and call stack (a *dsl.RuntimeError
	// for a failure of the rules; nil only with All, when the failure kept none).
	Err error
	// All is set when the analysis did every run and each failed the same way (Odds' answer
	// of a single failure), rather than stopping after the first.
	All bool
	// Msg is the failure's message without its position (set with All).
	Msg string
}

// Error says how many runs failed, and how.
func (e *ErrEveryRunFails) Error() string {
	in := ""
	if e.Side != "" {
		in = "in " + e.Side + ": "
	}
	if e.All && e.Err == nil {
		return fmt.Sprintf("%severy run fails: %s", in, e.Msg)
	}
	if e.All {
		return fmt.Sprintf("%severy run fails: %v", in, e.Err)
	}
	return fmt.Sprintf("%sthe first %d runs fail the same way, so the others would too: %v", in, e.Runs, e.Err)
}

// Unwrap gives the first run's failure.
func (e *ErrEveryRunFails) Unwrap() error { return e.Err }

// failWatch watches the first runs of an analysis for the same failure over and over.
type failWatch struct {
	n     int64
	steps int
	first error
	key   string
	done  bool // a run succeeded, failed otherwise, or the watch already stopped an analysis
}

// see notes what a run gave (nil for a success) and the steps it spent; it returns the error
// to stop the analysis with once the first runs have all failed the same way. ordered runs
// (the leaves of an enumeration, each with its first faces) fail alike for the order's
// sake, so only the costly few stop them.
func (w *failWatch) see(err error, steps, maxSteps int, ordered bool) error {
	if w.done {
		return nil
	}
	var re *dsl.RuntimeError
	if err == nil || errors.As(err, &re) && re.Require {
		w.done = true
		return nil
	}
	key := err.Error() // the position and the message
	if w.n == 0 {
		w.first, w.key = err, key
	} else if key != w.key {
		w.done = true
		return nil
	}
	w.n++
	w.steps += steps
	if w.n >= failFastFew && w.steps >= maxSteps || !ordered && w.n >= FailFastRuns {
		w.done = true
		return &ErrEveryRunFails{Runs: w.n, Err: w.first}
	}
	// Past the first runs, a failure repeated is counted as the outcome it is.
	w.done = w.n >= FailFastRuns
	return nil
}

// DefaultLimitRuns is how many runs of an analysis may fail at a limit of the machine
// (max_steps, max_loop_iterations, max_call_depth, memory_budget) before it stops with an
// *ErrLimitRuns. Such a run may have spent its whole work (a loop that never ends on some
// runs costs each of them max_loop_iterations turns, a second or more), and an analysis does
// tens of thousands of runs: stopping at the third bounds what they cost together by about
// three runs at max_steps. ProbOptions.LimitRuns and SimConfig.LimitRuns (--limit-runs)
// change it; negative counts every such run as its outcome, as any other failure.
const DefaultLimitRuns = 3

// ErrLimitRuns is the error of an analysis stopped because LimitRuns of its runs reached a
// limit of the machine.
type ErrLimitRuns struct {
	Hits  int    // the runs that reached a limit
	Runs  int64  // the runs done so far, those included
	Limit string // the limit the first of them reached ("max_loop_iterations")
	// Side is "B" when the runs of a comparison's B reached it, "" otherwise.
	Side string
	// Err is the first such run's failure, with its position and call stack.
	Err error
}

// Error says how many runs reached which limit, and how to count them instead.
func (e *ErrLimitRuns) Error() string {
	in := ""
	if e.Side != "" {
		in = "in " + e.Side + ": "
	}
	return fmt.Sprintf("%s%d of the %d runs so far reached a limit (first %s), so the analysis stopped (--limit-runs counts more of them as outcomes): %v", in, e.Hits, e.Runs, e.Limit, e.Err)
}

// Unwrap gives the first such run's failure.
func (e *ErrLimitRuns) Unwrap() error { return e.Err }

// ErrInterrupted is the error of an analysis stopped by its interrupt flag (Ctrl-C).
type ErrInterrupted struct {
	Runs int64 // the runs done before it stopped
}

// Error says so.
func (e *ErrInterrupted) Error() string {
	return fmt.Sprintf("interrupted after %d runs", e.Runs)
}

// limitWatch counts the runs of an analysis, and those that reached a limit.
type limitWatch struct {
	max   int // the runs that may reach a limit (DefaultLimitRuns); negative: any number
	runs  int64
	hits  int
	limit string
	first error
}

// see notes a run that gave err, having reached limit ("" for none, the machine's
// LimitReached) or been interrupted; it returns the error that stops the analysis.
func (l *limitWatch) see(err error, limit string, interrupted bool) error {
	l.runs++
	if interrupted {
		return &ErrInterrupted{Runs: l.runs}
	}
	if err == nil || limit == "" || l.max < 0 {
		return nil
	}
	l.hits++
	if l.hits == 1 {
		l.limit, l.first = limit, err
	}
	if l.hits < max(l.max, 1) {
		return nil
	}
	return &ErrLimitRuns{Hits: l.hits, Runs: l.runs, Limit: l.limit, Err: l.first}
}
