package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"rulesh/cmd/rulesh/internal/output"
	"rulesh/cmd/rulesh/internal/repl"
	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

// Exit codes of the CLI contract.
const (
	ExitOK    = 0
	ExitError = 1 // a rule or input error
	ExitUsage = 2 // bad usage
)

// IO holds the standard streams a command runs with.
type IO struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// A Command runs one command of the CLI with its arguments (after the command's name) and
// returns its exit code. Usage errors and help are said on Stderr.
type Command func(std IO, args []string) int

// The commands. Each parses its own flags, wherever they stand among its arguments. They are
// functions, not variables set by a call: those would be built at every start of the program.

// Check is `rulesh check FILE...`: diagnostics as file:line:col: message.
func Check(std IO, args []string) int { return newCLI(std).check(args) }

// Eval is `rulesh eval [-f FILE]... [--seed N] [--rolls LIST] [--cards LIST] [--choices LIST] [--set K=V]... [--json] EXPR`.
func Eval(std IO, args []string) int { return newCLI(std).eval(args) }

// Roll is `rulesh roll [--seed N] [-n COUNT] [--stats] [--json] [-f FILE]... EXPR`.
func Roll(std IO, args []string) int { return newCLI(std).roll(args) }

// Prob is `rulesh prob [-f FILE]... [--set K=V]... [--json] [--svg OUT] [--emits] [--samples N]
// [--seed S] [--shuffle] [--exact] [--budget N] [--compare K=V | --variant FILE] EXPR`: the odds
// of any expression, exact when the tree of draws is within the budget, else sampled.
func Prob(std IO, args []string) int { return newCLI(std).prob(args) }

// Fmt is `rulesh fmt [-w] [-l] FILE...`: canonical layout.
func Fmt(std IO, args []string) int { return newCLI(std).fmtCmd(args) }

// Map is `rulesh map FILE [--name MAP] [--svg OUT]`: a declared hex map drawn.
func Map(std IO, args []string) int { return newCLI(std).mapCmd(args) }

// Test is `rulesh test [--update] [PATH]...`: golden transcripts replayed.
func Test(std IO, args []string) int { return newCLI(std).test(args) }

// REPL is `rulesh repl [-f FILE]... [--seed N] [FILE]...`: the REPL, on the terminal or
// reading a piped script.
func REPL(std IO, args []string) int { return newCLI(std).repl(args) }

// newCLI is one command's run on the streams std.
func newCLI(std IO) *cli { return &cli{stdin: std.Stdin, stdout: std.Stdout, stderr: std.Stderr} }

// cli is one command's run: its streams.
type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// listFlag collects a repeatable flag (-f FILE, --set K=V).
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

// newFlags returns a flag set that reports errors as usage errors on stderr.
func (c *cli) newFlags(name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: rulesh %s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses flags wherever they stand among the arguments (rulesh eval EXPR --json).
// An argument that starts with - and reads as an expression (-12*1d20, -d20, -(1d4)) where a
// flag could stand is an expression, not a flag. It returns the exit code to use when
// parsing stopped (help or a usage error).
func parseFlags(fs *flag.FlagSet, args []string) ([]string, int, bool) {
	var pos []string
	for {
		j := exprArg(fs, args)
		head, code, ok := parseFlagRun(fs, args[:j])
		pos = append(pos, head...)
		if !ok || j == len(args) {
			return pos, code, ok
		}
		pos = append(pos, args[j])
		args = args[j+1:]
	}
}

// exprArg is the index of the first argument standing where a flag could that starts with a
// minus and reads as an expression (a digit, a bracket or a die after it) and names no flag;
// len(args) when there is none. It skips flag values as givenTwice does.
func exprArg(fs *flag.FlagSet, args []string) int {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return len(args)
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		n, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := fs.Lookup(n)
		if f == nil {
			if a[1] != '-' && looksLikeExpr(a[1:]) {
				return i
			}
			continue
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !hasValue && !(ok && b.IsBoolFlag()) {
			i++
		}
	}
	return len(args)
}

// looksLikeExpr reports text that begins an expression rather than a flag's name: a digit,
// a bracket, or a die (d20, d%, dF, d[…]).
func looksLikeExpr(s string) bool {
	switch c := s[0]; {
	case c >= '0' && c <= '9', c == '(', c == '{', c == '[':
		return true
	case c == 'd' || c == 'D':
		return len(s) > 1 && (s[1] >= '0' && s[1] <= '9' || s[1] == '%' || s[1] == 'F' || s[1] == '[')
	}
	return false
}

// parseFlagRun is parseFlags over arguments holding no expression that starts with a minus.
func parseFlagRun(fs *flag.FlagSet, args []string) ([]string, int, bool) {
	var pos []string
	out := fs.Output()
	if name, value, twice := givenTwice(fs, args); twice {
		// The flag package would keep the last value silently (--sweep n=1..2 --sweep
		// m=1..2 then failed on the name n).
		fmt.Fprintf(out, "rulesh %s: %s given twice (%q the second time): it takes one value\n", fs.Name(), dashed(name), value)
		fs.Usage()
		return nil, ExitUsage, false
	}
	// The flag package's own messages name Go's parsing ("parse error"): it says nothing,
	// and flagError says it in plain words.
	fs.SetOutput(io.Discard)
	defer fs.SetOutput(out)
	for {
		if err := fs.Parse(args); err != nil {
			fs.SetOutput(out)
			if errors.Is(err, flag.ErrHelp) {
				fs.Usage()
				return nil, ExitOK, false
			}
			fmt.Fprintf(out, "rulesh %s: %s\n", fs.Name(), flagError(fs, err))
			fs.Usage()
			return nil, ExitUsage, false
		}
		args = fs.Args()
		if len(args) == 0 || args[0] == "--" {
			if msg := emptyValue(fs); msg != "" {
				fs.SetOutput(out)
				fmt.Fprintf(out, "rulesh %s: %s\n", fs.Name(), msg)
				fs.Usage()
				return nil, ExitUsage, false
			}
			if len(args) > 0 {
				args = args[1:]
			}
			return append(pos, args...), 0, true
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// emptyValue says which flag that takes a value was given an empty one (--svg "", --rolls
// ""), or "": an empty value is no file name and no list, and was taken as the flag not
// given (--svg "" printed the text map) or as no results where --rolls ,,, is refused.
func emptyValue(fs *flag.FlagSet) string {
	var msg string
	fs.Visit(func(f *flag.Flag) {
		if _, repeatable := f.Value.(*listFlag); repeatable || msg != "" {
			return
		}
		g, ok := f.Value.(flag.Getter)
		if !ok {
			return
		}
		if v, isString := g.Get().(string); isString && strings.TrimSpace(v) == "" {
			what := "a value"
			if arg, _ := flag.UnquoteUsage(f); arg == "OUT" || arg == "FILE" {
				what = "a file name"
			}
			msg = fmt.Sprintf("%s was given empty: it needs %s", dashed(f.Name), what)
		}
	})
	return msg
}

// givenTwice finds a flag that takes one value given a second time, with that value; the
// repeatable flags (-f, --set) may come many times, and so may a boolean flag (--json
// --json), the last one counting as the flag package reads it. It reads the arguments as the flag
// package does: a flag's value is after = or, for a flag that is not boolean, the next one.
func givenTwice(fs *flag.FlagSet, args []string) (name, value string, twice bool) {
	seen := map[string]bool{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		n, v, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := fs.Lookup(n)
		if f == nil {
			continue // the flag package says it is unknown
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !hasValue && !(ok && b.IsBoolFlag()) && i+1 < len(args) {
			i++
			v = args[i]
		}
		if _, repeatable := f.Value.(*listFlag); repeatable {
			continue
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			continue
		}
		if seen[f.Name] {
			return f.Name, v, true
		}
		seen[f.Name] = true
	}
	return "", "", false
}

// flagError says why the flag package refused the arguments, in plain words: the flag as
// the usage writes it (--runs, -n), the value given, and what it should be.
func flagError(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		return "unknown flag " + dashed(name)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return dashed(name) + " needs a value"
	}
	if arg, ok := strings.CutPrefix(msg, "bad flag syntax: "); ok {
		return fmt.Sprintf("%q is not a flag", arg)
	}
	rest, ok := strings.CutPrefix(msg, "invalid value ")
	if !ok {
		rest, ok = strings.CutPrefix(msg, "invalid boolean value ")
	}
	if !ok {
		return msg
	}
	quoted, err2 := strconv.QuotedPrefix(rest)
	if err2 != nil {
		return msg
	}
	value, _ := strconv.Unquote(quoted)
	rest = strings.TrimPrefix(strings.TrimPrefix(rest[len(quoted):], " for flag -"), " for -")
	name, reason, _ := strings.Cut(rest, ": ")
	f := fs.Lookup(name)
	if f == nil {
		return msg
	}
	var kind any
	if g, ok := f.Value.(flag.Getter); ok {
		kind = g.Get()
	}
	what := reason
	switch kind.(type) {
	case int, int64:
		what = "not a whole number"
	case uint, uint64:
		what = "not a whole number from 0"
	case float64:
		what = "not a number"
	case bool:
		what = "neither true nor false"
	case time.Duration:
		what = "not a duration (such as 500ms, 2s or 1m)"
	}
	if reason == "value out of range" && what != reason {
		what = "too large"
		if strings.HasPrefix(value, "-") {
			what = "too small"
		}
	}
	return fmt.Sprintf("%s %q: %s", dashed(name), value, what)
}

// dashed writes a flag as the usage does: -n for one letter, --runs for a word.
func dashed(name string) string {
	if len([]rune(name)) == 1 {
		return "-" + name
	}
	return "--" + name
}

func (c *cli) check(args []string) int {
	fs := c.newFlags("check", "check FILE...")
	files, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(files) == 0 {
		fmt.Fprintln(c.stderr, "rulesh check: no file given")
		fs.Usage()
		return ExitUsage
	}
	defer deferGC()()
	status := ExitOK
	for _, f := range files {
		prog, diags := dsl.Check(nil, f)
		var srcs dsl.Sources
		if prog != nil {
			srcs = prog.Sources()
		} else {
			srcs = readSources(diags)
		}
		fmt.Fprint(c.stderr, diags.Render(srcs))
		if diags.HasErrors() {
			status = ExitError
			continue
		}
		fmt.Fprintf(c.stdout, "%s: ok (%s)\n", f, summary(prog))
	}
	return status
}

func summary(p *dsl.Program) string {
	var parts []string
	add := func(n int, what string) {
		if n > 0 {
			s := ""
			if n > 1 && what != "dice" {
				s = "s"
			}
			if what == "entit" {
				s = "y"
				if n > 1 {
					s = "ies"
				}
			}
			parts = append(parts, fmt.Sprintf("%d %s%s", n, what, s))
		}
	}
	n := p.Counts()
	add(n.Options, "option")
	add(n.Consts, "const")
	add(n.Enums, "enum")
	add(n.Kinds, "kind")
	add(n.Entities, "entit")
	add(n.Dice, "dice")
	add(n.Decks, "deck")
	add(n.Maps, "map")
	add(n.Procs, "procedure")
	if len(parts) == 0 {
		return "empty"
	}
	return strings.Join(parts, ", ")
}

// readSources reads the files named in diagnostics so they can be quoted.
func readSources(diags dsl.Diagnostics) dsl.Sources {
	out := dsl.Sources{}
	for _, d := range diags {
		if _, ok := out[d.Pos.File]; ok || d.Pos.File == "" {
			continue
		}
		if b, err := (dsl.OSFiles{}).ReadFile(d.Pos.File); err == nil {
			out[d.Pos.File] = b
		}
	}
	return out
}

// runFlags are the flags shared by the commands that run rules.
type runFlags struct {
	files   listFlag
	sets    listFlag
	seed    *uint64
	rolls   *string
	json    *bool
	cards   *string
	choices *string
}

func (c *cli) addRunFlags(fs *flag.FlagSet, r *runFlags) {
	fs.Var(&r.files, "f", "load a rule `FILE` (repeatable)")
	fs.Var(&r.sets, "set", "set an option, `NAME=VALUE` (repeatable)")
	r.seed = fs.Uint64("seed", 0, "seed the dice (default: a random seed)")
	r.rolls = fs.String("rolls", "", "hand-given die results, in order: `LIST` such as 7,3,5 (a record die's face by its place or its record: {s: 1})")
	r.json = fs.Bool("json", false, "print one JSON document")
	r.cards = fs.String("cards", "", "hand-given cards, drawn in order: `LIST` such as Q♣,7♠ (or QC,7S)")
	r.choices = fs.String("choices", "", "hand-given answers to choose, in order: `LIST` of option numbers (from 1) or names, such as 2,colline")
}

// machine loads the files and prepares a machine with the run flags applied; exprs are the
// expressions it will run, whose dice (a dF) the hand-given results may be for.
func (c *cli) machine(fs *flag.FlagSet, r *runFlags, exprs ...string) (*dsl.Machine, int) {
	prog, code := c.loadProgram(r.files, true)
	if code != 0 {
		return nil, code
	}
	if prog == nil {
		prog, _ = dsl.LoadSource("<empty>", nil)
	}
	seed := *r.seed
	if !flagSet(fs, "seed") {
		seed = rand.Uint64()
	}
	var src dice.Source = dice.NewPCG(seed)
	var rolls []string
	if *r.rolls != "" {
		var err error
		if rolls, err = dice.ParseList(*r.rolls); err != nil {
			fmt.Fprintf(c.stderr, "rulesh: --rolls: %v\n", err)
			return nil, ExitUsage
		}
		q := dice.NewQueue(rolls, nil)
		q.Shuffle = dice.NewPCG(seed) // hand-given results are for dice; decks follow the seed
		src = q
	}
	overrides, code := c.parseSets("eval", "--set", r.sets)
	if code != ExitOK {
		return nil, code
	}
	m, err := dsl.NewMachine(prog, src, overrides)
	if err != nil {
		fmt.Fprintf(c.stderr, "rulesh: %v\n", err)
		return nil, ExitError
	}
	// Checked against the machine's dice: those made from rules follow the options.
	if err := m.CheckRolls(rolls, exprs...); err != nil {
		fmt.Fprintf(c.stderr, "rulesh: --rolls: %v\n", err)
		return nil, ExitUsage
	}
	if *r.cards != "" {
		list, err := repl.ParseCards(prog, *r.cards)
		if err != nil {
			fmt.Fprintf(c.stderr, "rulesh: --cards: %v\n", err)
			return nil, ExitUsage
		}
		m.SetGivenCards(list)
	}
	answers, err := repl.ParseChoices(*r.choices)
	if err != nil {
		fmt.Fprintf(c.stderr, "rulesh: --choices: %v\n", err)
		return nil, ExitUsage
	}
	m.SetGivenChoices(answers)
	return m, ExitOK
}

func (c *cli) eval(args []string) int {
	fs := c.newFlags("eval", "eval [-f FILE]... [--seed N] [--rolls LIST] [--cards LIST] [--choices LIST] [--set K=V]... [--json] EXPR")
	var r runFlags
	c.addRunFlags(fs, &r)
	pos, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(pos) == 0 {
		fmt.Fprintln(c.stderr, "rulesh eval: no expression given")
		fs.Usage()
		return ExitUsage
	}
	src := strings.Join(pos, " ")
	m, code := c.machine(fs, &r, src)
	if m == nil {
		return code
	}
	var emitted []string
	m.SetEmit(func(s string) {
		emitted = append(emitted, s)
		if !*r.json {
			fmt.Fprintln(c.stdout, s)
		}
	})
	v, err := dsl.NewSession(m).Eval("<eval>", src)
	if err != nil {
		show := output.Error
		if *r.json {
			show = output.ErrorFull // read by programs: the position and calls too
		}
		show(c.stderr, err, dsl.Sources{"<eval>": []byte(src)}, m.Program().Sources())
		var diags dsl.Diagnostics
		if errors.As(err, &diags) && dsl.IsStatement(src) && !strings.Contains(src, ";") {
			// What reads as a statement and does not compile as an expression (a let
			// followed by ; and a value is an expression of its own).
			fmt.Fprintln(c.stderr, "note: eval takes an expression (a value, a call); statements (let, assignments, loops) go in the REPL (rulesh repl) or in a rule")
		}
		return ExitError
	}
	// Results given by hand and never used usually mean a mistake in the list.
	var leftRolls []string
	if q, ok := m.Dice().(*dice.Queue); ok {
		leftRolls = q.Pending()
	}
	output.Leftovers(c.stderr, leftRolls, m.GivenCards(), m.GivenChoices())
	if *r.json {
		if emitted == nil {
			emitted = []string{}
		}
		return c.writeJSON(map[string]any{"expr": src, "emitted": emitted, "result": dsl.ToJSON(v)})
	}
	if v != nil || !m.Program().ReturnsNothing(src) {
		// A nil that is a value (a missing key of a plain map) is shown; a call of a
		// procedure that returns nothing shows nothing.
		fmt.Fprintln(c.stdout, dsl.Repr(v))
	}
	return ExitOK
}

func (c *cli) writeJSON(v any) int {
	if err := output.JSON(c.stdout, v); err != nil {
		fmt.Fprintf(c.stderr, "rulesh: %v\n", err)
		return ExitError
	}
	return ExitOK
}

// loadProgram loads rule files for a command, printing diagnostics on stderr (warnings too
// when warn is set). It returns nil without files, and exit code 1 on an error.
func (c *cli) loadProgram(files []string, warn bool) (*dsl.Program, int) {
	if len(files) == 0 {
		return nil, ExitOK
	}
	prog, diags := dsl.Load(nil, files...)
	srcs := readSources(diags)
	if prog != nil {
		srcs = prog.Sources()
	}
	if diags.HasErrors() || warn {
		fmt.Fprint(c.stderr, diags.Render(srcs))
	}
	if prog == nil {
		return nil, ExitError
	}
	return prog, ExitOK
}

// parseSets reads NAME=VALUE options given to command cmd by flag (--set, --compare).
func (c *cli) parseSets(cmd, flag string, sets []string) (map[string]any, int) {
	overrides := map[string]any{}
	for _, kv := range sets {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			fmt.Fprintf(c.stderr, "rulesh %s: %s %q: want NAME=VALUE\n", cmd, flag, kv)
			return nil, ExitUsage
		}
		overrides[strings.TrimSpace(k)] = dsl.ParseValue(v)
	}
	return overrides, ExitOK
}
