package output

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"rulesh/analysis"
	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

// Error renders err on w: diagnostics with their source lines (looked up in the merged
// srcs), a run-time error with its call stack, anything else as "rulesh: err". A rule's
// refusal (a require that fails) is the rule speaking to the players, not a fault: it is
// one line, its message; ErrorFull adds its position and calls.
func Error(w io.Writer, err error, srcs ...dsl.Sources) {
	render(w, err, false, srcs)
}

// ErrorFull is Error with a refusal shown as a fault is, with its position, source line and
// call stack: for a trace, and for output read by programs.
func ErrorFull(w io.Writer, err error, srcs ...dsl.Sources) {
	render(w, err, true, srcs)
}

// Plain reports whether Error writes err as "rulesh: err", the form of a command's own
// failure, rather than as diagnostics, a run-time error or a stopped analysis: the REPL says
// such an error as it says its others, "error: err".
func Plain(err error) bool {
	var every *analysis.ErrEveryRunFails
	var limits *analysis.ErrLimitRuns
	var diags dsl.Diagnostics
	var re *dsl.RuntimeError
	return !errors.As(err, &every) && !errors.As(err, &limits) && !errors.As(err, &diags) && !errors.As(err, &re)
}

func render(w io.Writer, err error, full bool, srcs []dsl.Sources) {
	all := dsl.Sources{}
	for _, s := range srcs {
		for k, v := range s {
			all[k] = v
		}
	}
	var every *analysis.ErrEveryRunFails
	if errors.As(err, &every) {
		in := ""
		if every.Side != "" {
			in = " in " + every.Side
		}
		if every.All {
			fmt.Fprintf(w, "every run%s fails the same way: %s\n", in, every.Msg)
			if every.Err != nil {
				Error(w, every.Err, all)
			}
			return
		}
		fmt.Fprintf(w, "the first %d runs%s fail the same way, so the analysis stopped there (the others would too):\n", every.Runs, in)
		render(w, every.Err, full, []dsl.Sources{all})
		return
	}
	var limits *analysis.ErrLimitRuns
	if errors.As(err, &limits) {
		fmt.Fprintln(w, LimitRunsHeader("", "", limits))
		Error(w, limits.Err, all)
		return
	}
	var diags dsl.Diagnostics
	if errors.As(err, &diags) {
		fmt.Fprint(w, diags.Render(all))
		return
	}
	var re *dsl.RuntimeError
	if errors.As(err, &re) {
		if re.Require && !full {
			fmt.Fprintln(w, re.Msg)
			return
		}
		fmt.Fprint(w, dsl.Diagnostics{{Pos: re.Pos, Summary: re.Msg}}.Render(all))
		for _, s := range re.Stack() {
			fmt.Fprintln(w, "    "+s)
		}
		return
	}
	fmt.Fprintf(w, "rulesh: %v\n", err)
}

// LimitRunsHeader is the sentence before the first failure of an analysis stopped because
// too many runs reached a limit: how many of how many, which limit, how to count them.
// cmd names the analysis ("prob"), "" for "the analysis", or the console's command (":sim");
// src is the expression, "" when the reader knows it. The console takes no flags: its
// header says how many runs it lets reach a limit and names the command line's flag.
func LimitRunsHeader(cmd, src string, e *analysis.ErrLimitRuns) string {
	flag := "--limit-runs N"
	switch {
	case cmd == "":
		cmd, flag = "the analysis", "rulesh prob --limit-runs N" // the REPL has no flags
	case strings.HasPrefix(cmd, ":"):
		flag = fmt.Sprintf("the console stops at %d; on the command line, rulesh %s --limit-runs N", analysis.DefaultLimitRuns, cmd[1:])
	}
	of := ""
	if src != "" {
		of = " of " + src
	}
	if e.Side != "" {
		of += " in " + e.Side
	}
	return fmt.Sprintf("%d of the first %d runs%s reached a limit, so %s stopped there (%s lets more count as outcomes; 0, all of them); the first reached %s:", e.Hits, e.Runs, of, cmd, flag, e.Limit)
}

// DiceError renders an error about the dice expression src, as file <expr>, with the
// expression and a caret under the column when the error names one.
func DiceError(w io.Writer, src string, err error) {
	if de, ok := err.(*dice.Error); ok {
		d := dsl.Diagnostics{{Pos: dsl.Pos{File: "<expr>", Line: 1, Col: de.Col}, Summary: de.Msg}}
		fmt.Fprint(w, d.Render(dsl.Sources{"<expr>": []byte(src)}))
		return
	}
	msg := err.Error()
	var col int
	if _, e := fmt.Sscanf(msg, "column %d:", &col); e == nil {
		msg = strings.TrimSpace(msg[strings.Index(msg, ":")+1:])
		d := dsl.Diagnostics{{Pos: dsl.Pos{File: "<expr>", Line: 1, Col: col}, Summary: msg}}
		fmt.Fprint(w, d.Render(dsl.Sources{"<expr>": []byte(src)}))
		return
	}
	fmt.Fprintf(w, "<expr>: %s\n", msg)
}

// Leftovers warns on w about hand-given results and cards that were never used: they
// usually mean a mistake in the list.
func Leftovers(w io.Writer, rolls, cards, choices []string) {
	if len(rolls) > 0 {
		fmt.Fprintf(w, "warning: hand-given results not used: %s\n", strings.Join(rolls, " "))
	}
	if len(cards) > 0 {
		fmt.Fprintf(w, "warning: hand-given cards not used: %s\n", strings.Join(cards, " "))
	}
	if len(choices) > 0 {
		fmt.Fprintf(w, "warning: hand-given choices not used: %s\n", strings.Join(choices, " "))
	}
}
