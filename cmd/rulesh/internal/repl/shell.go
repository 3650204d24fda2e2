package repl

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"rulesh/cmd/rulesh/internal/output"
	"rulesh/cmd/rulesh/internal/sysio"
	"rulesh/cmd/rulesh/internal/transcript"
	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

// Shell is the REPL's state and its line interpreter; the interactive front end, piped
// scripts and golden transcripts all drive it through Exec. A Shell is used by one goroutine
// at a time, except for the interrupt flag that Ctrl-C sets.
type Shell struct {
	stdout io.Writer      // the user's output, teed into out
	user   io.Writer      // the user's output alone (Config.Stdout), flushed when input is awaited
	stderr io.Writer      // what is said after the session: unused hand-given results
	dir    string         // relative paths (load, record) are taken from here
	fsys   dsl.FileSystem // where rule files are read from, when not the disk (Config.FS)
	// picture, when set, receives the SVG pictures of the answers that have one (a chart of
	// :prob, the board of :map), after their text.
	picture func(svg string)
	files   []string // rule files loaded, as given
	prog    *dsl.Program
	m       *dsl.Machine
	sess    *dsl.Session
	// lets are the session's let inputs in order, for :prob to ask of what they bind (its
	// question starts from the rules as loaded, where a let is unknown).
	lets  []letInput
	seed  uint64
	queue *dice.Queue
	trace bool
	rec   *recorder
	// ask asks a player to choose (a numbered menu at the terminal); nil elsewhere, so
	// choose applies the ruleset's policy in scripts and transcripts.
	ask   func(prompt string, options []string) (int, error)
	asked []string // the numbers answered at the menu during the input being run
	// progress, when set, hears how many of a :sim's runs are done (Config.Progress).
	progress  func(done, total int64)
	quit      bool
	interrupt atomic.Bool
	failed    bool // the last input ended in an error
	replay    bool // replaying a transcript: nothing may write a file

	// The whole session so far, so that :record started late can write a transcript that
	// replays from the start: the seed and files it began with, then every input with its
	// output. Past maxLog bytes the log is dropped and :record says so.
	startSeed   uint64
	startFiles  []string
	log         []logEntry
	logSize     int
	logLost     bool
	interrupted bool               // an input was interrupted (Ctrl-C): replay may differ
	out         transcript.Capture // the output of the input being run
}

// logEntry is one input of the session and its output.
type logEntry struct{ input, output string }

// maxLog bounds the session log kept for :record (inputs and outputs).
const maxLog = 4 << 20

// metaCommands is the one table of meta commands: help text and completion come from it.
var metaCommands = []struct{ name, args, help string }{
	{":help", "", "this list"},
	{":load", "FILE", "load a rule file (added to the files already loaded)"},
	{":reload", "", "re-read the rule files, keep the state that still fits, say what changed"},
	{":set", "NAME VALUE", "set an option"},
	{":options", "", "list the options with their values"},
	{":seed", "N", "restart the dice from seed N (hand-given results are dropped)"},
	{":rolls", "[7 3 5]", "the next dice results, as rolled by hand (a line with one no die shows is refused; a record die's face by its place or its record, {s: 1}); alone lists them, `clear` empties"},
	{":cards", "[Q♣ 7♠]", "the next cards drawn, as dealt by hand (a line with one not of the deck is refused); alone lists them, `clear` empties"},
	{":choices", "[2 bois]", "the next answers to choose (option numbers from 1, or names); alone lists them, `clear` empties"},
	{":state", "full|NAME", "show the options, entities and session variables (a list of more than 8 as its count); `full` shows all, NAME one value whole"},
	{":show", "NAME", "show one value"},
	{":trace", "on|off", "show every draw (dice, d(n), pick, cards; hand-given ones marked (given)), call and branch taken, and where a refusal (require) stands"},
	{":prob", "EXPR", "the odds of any expression, as rulesh prob gives them (rules as loaded, options as set; a let it reads is evaluated afresh with it, so `let r = 2d6` then `:prob r >= 7`)"},
	{":sim", "[N] EXPR", "N runs of EXPR (10000 without N), each from the rules as loaded, counted as rulesh sim counts them"},
	{":sweep", "NAME=A..B", "EXPR: the odds of EXPR once per value of NAME (an option, or a name EXPR leaves free; NAME=a,b,c lists the values), a column each, as rulesh prob --sweep"},
	{":map", "[NAME]", "draw a hex map with the units on it; `:map [NAME] svg FILE` writes it as an SVG picture"},
	{":record", "FILE|off", "record the session as a golden transcript (FILE.transcript)"},
	{":quit", "", "leave (Ctrl-D too)"},
}

// Config says how a Shell starts.
type Config struct {
	// Dir is the folder relative paths (rule files, :load, :record) are taken from; "" is the
	// working directory.
	Dir string
	// Files are the rule files loaded at the start.
	Files []string
	// Seed seeds the dice.
	Seed uint64
	// Stdout receives every output of the session, errors included: in the REPL, errors go
	// where the user looks. If it buffers (it has a Flush method), it is flushed after each
	// input of a piped script, and written through at once on the terminal.
	Stdout io.Writer
	// Stderr receives what is said once the session ends (hand-given results never used).
	Stderr io.Writer
	// FS, when set, is where rule files are read from instead of the disk (the playground
	// keeps the rules being edited in memory). Dir is then ignored.
	FS dsl.FileSystem
	// Picture, when set, receives the SVG picture of each answer that has one, after its
	// text: the bar chart of a :prob, the board of a :map. The terminal has none.
	Picture func(svg string)
	// Progress, when set, is called as a :sim goes on with the runs done and the runs asked
	// for: first with 0, then each time the whole percentage changes. It is called on the
	// goroutine of the runs, one call at a time: the page's engine posts it to the page.
	Progress func(done, total int64)
}

// New starts a session with the rule files of cfg loaded; their diagnostics, warnings
// included, are written on cfg.Stdout. It fails when a file has errors.
func New(cfg Config) (*Shell, error) {
	s := &Shell{dir: cfg.Dir, fsys: cfg.FS, picture: cfg.Picture, progress: cfg.Progress, seed: cfg.Seed, startSeed: cfg.Seed, stderr: cfg.Stderr}
	// Every output is teed into s.out, to log each input with its output for :record.
	s.out.Limit = maxLog
	s.user = cfg.Stdout
	s.stdout = io.MultiWriter(cfg.Stdout, &s.out)
	s.queue = dice.NewQueue(nil, dice.NewPCG(cfg.Seed))
	if _, _, err := s.loadFiles(cfg.Files, nil); err != nil {
		return nil, err
	}
	s.startFiles = s.files
	return s, nil
}

func (s *Shell) path(p string) string {
	if filepath.IsAbs(p) || s.dir == "" {
		return p
	}
	return filepath.Join(s.dir, p)
}

// loadFiles (re)builds the program and a fresh machine from files. With a previous session,
// what still fits is carried over from it (see dsl.Session.CarryOver) and the notes say
// what was reset and why.
func (s *Shell) loadFiles(files []string, from *dsl.Session) ([]string, dsl.Kept, error) {
	var prog *dsl.Program
	if len(files) > 0 {
		var fsys dsl.FileSystem = dsl.OSFiles{}
		if s.fsys != nil {
			fsys = s.fsys
		} else if s.dir != "" {
			fsys = dsl.DirFiles(s.dir)
		}
		var diags dsl.Diagnostics
		prog, diags = dsl.Load(fsys, files...)
		srcs := dsl.Sources{}
		for _, d := range diags {
			if b, err := fsys.ReadFile(d.Pos.File); err == nil {
				srcs[d.Pos.File] = b
			}
		}
		if prog != nil {
			srcs = prog.Sources()
		}
		if len(diags) > 0 {
			fmt.Fprint(s.stdout, diags.Render(srcs))
		}
		if prog == nil {
			return nil, dsl.Kept{}, errors.New("rule files have errors")
		}
	} else {
		prog, _ = dsl.LoadSource("<empty>", nil)
	}
	if from == nil {
		m, err := dsl.NewMachine(prog, s.queue, nil)
		if err != nil {
			return nil, dsl.Kept{}, err
		}
		s.files, s.prog = files, prog
		s.install(m)
		s.sess = dsl.NewSession(m)
		return nil, dsl.Kept{}, nil
	}
	// Built with a throwaway source, so that a reload does not use up the session's dice.
	m, err := dsl.NewMachine(prog, dice.NewPCG(0), nil)
	if err != nil {
		return nil, dsl.Kept{}, err
	}
	m.SetDice(s.queue)
	m.SetGivenCards(from.M.GivenCards())
	m.SetGivenChoices(from.M.GivenChoices())
	sess := dsl.NewSession(m)
	notes, kept := sess.CarryOver(from)
	s.files, s.prog = files, prog
	s.install(m)
	s.sess = sess
	return notes, kept, nil
}

func (s *Shell) install(m *dsl.Machine) {
	s.m = m
	m.SetEmit(func(line string) { fmt.Fprintln(s.stdout, line) })
	m.SetInterrupt(&s.interrupt)
	m.SetAsk(nil)
	if s.ask != nil {
		m.SetAsk(s.answer)
	}
	s.setTrace(s.trace)
}

// answer asks the player through s.ask and keeps the number answered, so that the log and
// the transcript hold it as a hand-given answer (replay has no one to ask).
func (s *Shell) answer(prompt string, options []string) (int, error) {
	i, err := s.ask(prompt, options)
	if err == nil {
		s.asked = append(s.asked, strconv.Itoa(i+1))
	}
	return i, err
}

func (s *Shell) setTrace(on bool) {
	s.trace = on
	if !on {
		s.m.SetTrace(nil)
		return
	}
	s.m.SetTrace(func(depth int, line string) {
		fmt.Fprintf(s.stdout, "%s· %s\n", strings.Repeat("  ", depth), line)
	})
}

// letRE reads `let NAME = EXPR`; compiled on first use, not at init, so that a command
// that never runs the REPL does not pay for its Unicode classes.
// (A sync.Once, not a sync.OnceValue: a package variable set by a call is built at init.)
func letRE() *regexp.Regexp {
	letOnce.Do(func() { letPattern = regexp.MustCompile(`(?s)^let\s+([\p{L}_][\p{L}\p{N}_]*)\s*=\s*(.+)$`) })
	return letPattern
}

var (
	letOnce    sync.Once
	letPattern *regexp.Regexp
)

// Exec runs one complete input (an expression, a let, or a meta command), logs it with its
// output and, when recording, writes it to the transcript at once. Nothing an input does
// ends the session but :quit (see Quit); Failed tells whether it ended in an error.
func (s *Shell) Exec(input string) {
	s.failed = false
	input = strings.TrimSpace(input)
	s.out.Reset()
	pending := s.m.GivenChoices()
	s.asked = nil
	s.m.ClearMixed()
	s.run(input)
	for _, note := range s.m.Mixed() {
		fmt.Fprintf(s.stdout, "note: %s\n", note)
	}
	if input == "" || strings.HasPrefix(input, "//") || isRecordCommand(input) {
		return
	}
	if len(s.asked) > 0 {
		s.keepAnswers(pending)
	}
	e := logEntry{input, s.out.String()}
	over := s.out.Over()
	s.out.Reset()
	if over {
		s.log, s.logLost = nil, true
	}
	s.addLog(e)
	s.write(e, over)
}

// write appends an input and its output to the transcript being recorded, if any.
func (s *Shell) write(e logEntry, over bool) {
	if s.rec != nil {
		entry := s.rec.entry(e, s)
		if over {
			entry = fmt.Sprintf("# note: the output of the next input was longer than %d MiB and is cut here: replay will differ\n", maxLog>>20) + entry
			fmt.Fprintf(s.stdout, "note: the output was longer than %d MiB: the transcript holds only its start\n", maxLog>>20)
		}
		if _, err := s.rec.f.WriteString(entry); err != nil {
			s.rec.f.Close()
			s.rec = nil
			s.errorf("recording stopped: %v", err)
		}
	}
}

// keepAnswers writes the answers given at the menu during the last input as a `:choices`
// input run just before it, so that the log and the transcript replay the same game. A call
// that failed gives its answers back, as it gives back hand-given ones: the next call takes
// them unless `:choices clear` drops them.
func (s *Shell) keepAnswers(pending []string) {
	queued := append(pending, s.asked...)
	e := logEntry{":choices " + strings.Join(s.asked, " "), "next choices: " + strings.Join(queued, " ") + "\n"}
	if s.failed {
		s.m.SetGivenChoices(append(s.m.GivenChoices(), s.asked...))
		fmt.Fprintf(s.user, "note: the answers given (%s) are kept for the next call; :choices clear drops them\n", strings.Join(s.asked, " "))
	}
	s.asked = nil
	s.addLog(e)
	s.write(e, false)
}

func isRecordCommand(input string) bool {
	cmd, _, _ := strings.Cut(input, " ")
	return cmd == ":record"
}

func (s *Shell) addLog(e logEntry) {
	if s.replay || s.logLost {
		return
	}
	s.logSize += len(e.input) + len(e.output)
	if s.logSize > maxLog {
		s.log, s.logLost = nil, true
		return
	}
	s.log = append(s.log, e)
}

// run runs one input.
func (s *Shell) run(input string) {
	switch err := dsl.CheckEncoding("<input>", input); {
	case err != nil:
		s.showError(err, input)
	case input == "" || strings.HasPrefix(input, "//"):
	case strings.HasPrefix(input, ":"):
		s.meta(input)
	default:
		// Bounded first: what follows reads the whole input.
		if err := dsl.CheckInput("<input>", input); err != nil {
			s.showError(err, input)
			return
		}
		if dsl.IsStatement(input) && !letRE().MatchString(input) {
			if err := s.sess.Exec("<input>", input); err != nil {
				s.showError(err, input)
			}
			return
		}
		if m := letRE().FindStringSubmatchIndex(input); m != nil {
			// Columns in characters, as positions count them.
			name, src := input[m[2]:m[3]], input[m[4]:m[5]]
			nameCol := utf8.RuneCountInString(input[:m[2]]) + 1
			srcCol := utf8.RuneCountInString(input[:m[4]]) + 1
			v, err := s.sess.LetLine(input, name, nameCol, src, srcCol)
			if err != nil {
				s.showError(err, input)
				return
			}
			s.lets = append(s.lets, letInput{name, src})
			fmt.Fprintf(s.stdout, "%s = %s\n", name, dsl.Repr(v))
			return
		}
		v, err := s.sess.Eval("<input>", input)
		if err != nil {
			s.showError(err, input)
			return
		}
		if v != nil || !s.prog.ReturnsNothing(input) {
			// A nil that is a value (a missing key of a plain map) is shown; a call of a
			// procedure that returns nothing shows nothing.
			fmt.Fprintln(s.stdout, dsl.Repr(v))
		}
	}
}

func (s *Shell) showError(err error, input string) {
	s.failed = true
	srcs := s.sess.Sources()
	srcs["<input>"] = []byte(input)
	// In the REPL, errors go where the user looks; a trace shows where a refusal stands.
	if s.trace {
		output.ErrorFull(s.stdout, err, srcs)
		return
	}
	output.Error(s.stdout, err, srcs)
}

func (s *Shell) errorf(format string, args ...any) {
	s.failed = true
	fmt.Fprintf(s.stdout, "error: "+format+"\n", args...)
}

func (s *Shell) meta(input string) {
	cmd, arg, _ := strings.Cut(input, " ")
	arg = strings.TrimSpace(arg)
	switch cmd {
	case ":help", ":h", ":?":
		for _, c := range metaCommands {
			fmt.Fprintf(s.stdout, "  %-9s %-10s %s\n", c.name, c.args, c.help)
		}
		fmt.Fprintln(s.stdout, "  Anything else is an expression (it may call procedures), or `let name = expression`.")
	case ":quit", ":q", ":exit":
		s.quit = true
	case ":load":
		if arg == "" {
			s.errorf(":load needs a file")
			return
		}
		notes, kept, err := s.loadFiles(append(append([]string(nil), s.files...), arg), s.sess)
		if err != nil {
			s.errorf("%v; nothing changed", err)
			return
		}
		fmt.Fprintf(s.stdout, "loaded %s\n", arg)
		s.reportCarry(notes, kept)
	case ":reload":
		notes, kept, err := s.loadFiles(s.files, s.sess)
		if err != nil {
			s.errorf("%v; the previous version stays loaded", err)
			return
		}
		fmt.Fprintf(s.stdout, "reloaded %d file(s)\n", len(s.files))
		s.reportCarry(notes, kept)
	case ":set":
		name, val, ok := strings.Cut(arg, " ")
		if !ok {
			name, val, ok = strings.Cut(arg, "=")
		}
		if !ok {
			s.errorf(":set needs NAME VALUE")
			return
		}
		if err := s.m.SetOption(strings.TrimSpace(name), dsl.ParseValue(val)); err != nil {
			s.errorf("%v", err)
			return
		}
		v, _ := s.m.Global(strings.TrimSpace(name))
		fmt.Fprintf(s.stdout, "%s = %s\n", strings.TrimSpace(name), dsl.Repr(v))
	case ":options":
		opts := s.m.Options()
		if len(opts) == 0 {
			fmt.Fprintln(s.stdout, "no options")
		}
		for _, o := range opts {
			fmt.Fprintf(s.stdout, "%s = %s  (default %s)  %s\n", o.Name, dsl.Repr(o.Value), dsl.Repr(o.Default), o.Doc)
		}
	case ":seed":
		n, err := strconv.ParseUint(arg, 10, 64)
		if err != nil {
			s.errorf(":seed needs a whole number")
			return
		}
		s.seed = n
		s.queue.Next = dice.NewPCG(n)
		// A new seed starts the dice afresh: hand-given results waiting would shadow it.
		if p := s.queue.Pending(); len(p) > 0 {
			s.queue.Clear()
			fmt.Fprintf(s.stdout, "seed %d (hand-given results dropped: %s)\n", n, strings.Join(p, " "))
			return
		}
		fmt.Fprintf(s.stdout, "seed %d\n", n)
	case ":rolls":
		switch arg {
		case "":
		case "clear":
			s.queue.Clear()
		default:
			if err := s.GiveRolls(arg); err != nil {
				s.errorf(":rolls 7 3 5, :rolls clear or :rolls alone: %v", err)
				return
			}
		}
		fmt.Fprintf(s.stdout, "next results: %s\n", orNone(s.queue.Pending(), "the dice follow the seed"))
	case ":cards":
		switch arg {
		case "":
		case "clear":
			s.m.SetGivenCards(nil)
		default:
			list, err := ParseCards(s.prog, arg)
			if err != nil {
				s.errorf(":cards Q♣ 7♠ (or QC 7S), :cards clear or :cards alone: %v", err)
				return
			}
			s.m.SetGivenCards(append(s.m.GivenCards(), list...))
		}
		fmt.Fprintf(s.stdout, "next cards: %s\n", orNone(s.m.GivenCards(), "draws take the top of the pile"))
	case ":choices":
		switch arg {
		case "":
		case "clear":
			s.m.SetGivenChoices(nil)
		default:
			if err := s.GiveChoices(arg); err != nil {
				s.errorf(":choices 2 bois, :choices clear or :choices alone: %v", err)
				return
			}
		}
		fmt.Fprintf(s.stdout, "next choices: %s\n", orNone(s.m.GivenChoices(), "choose asks at the terminal, else applies the ruleset's policy"))
	case ":state":
		switch arg {
		case "":
			s.showState(stateListMax)
		case "full":
			s.showState(0)
		default:
			s.showOne(arg)
		}
	case ":show":
		s.showOne(arg)
	case ":trace":
		switch arg {
		case "on":
			s.setTrace(true)
		case "off":
			s.setTrace(false)
		default:
			s.errorf(":trace on or :trace off")
			return
		}
		fmt.Fprintf(s.stdout, "trace %s\n", arg)
	case ":prob":
		s.prob(arg)
	case ":sim":
		s.sim(arg)
	case ":sweep":
		s.sweep(arg)
	case ":record":
		s.record(arg)
	case ":map":
		s.drawMap(arg)
	default:
		var names []string
		for _, c := range metaCommands {
			names = append(names, c.name)
		}
		s.errorf("unknown command %s (:help lists them)%s", cmd, suggest(cmd, names))
	}
}

// orNone lists hand-given items, or says there are none and where the next ones come from.
func orNone(items []string, instead string) string {
	if len(items) == 0 {
		return "none (" + instead + ")"
	}
	return strings.Join(items, " ")
}

func suggest(name string, cands []string) string {
	if best := dsl.DidYouMean(name, cands); best != "" {
		return "; did you mean " + best + "?"
	}
	return ""
}

// reportCarry says what a reload kept, then every reset with its reason and the names the
// edit added or removed.
func (s *Shell) reportCarry(notes []string, k dsl.Kept) {
	var parts []string
	add := func(n int, one, many string) {
		if n == 1 {
			parts = append(parts, "1 "+one)
		} else if n > 1 {
			parts = append(parts, fmt.Sprintf("%d %s", n, many))
		}
	}
	add(k.Entities, "entity", "entities")
	add(k.Piles, "deck or pile", "decks and piles")
	add(k.Allowances, "pass allowance", "pass allowances")
	add(k.Vars, "session variable", "session variables")
	if len(parts) > 0 {
		fmt.Fprintf(s.stdout, "  kept %s, with the options\n", strings.Join(parts, ", "))
	}
	for _, n := range notes {
		fmt.Fprintln(s.stdout, "  "+n)
	}
}

// stateListMax is how many elements a list may have before :state shows it as its count: an
// army of 46 soldiers would otherwise fill the screen with one line.
const stateListMax = 8

// showOne prints one session variable or global (an entity, a constant) whole.
func (s *Shell) showOne(name string) {
	if v, ok := s.sess.Var(name); ok {
		fmt.Fprintln(s.stdout, dsl.Repr(v))
	} else if v, ok := s.m.Global(name); ok {
		fmt.Fprintln(s.stdout, dsl.Repr(v))
	} else {
		s.errorf("nothing is called %q", name)
	}
}

// showState prints the options, entities and session variables; lists longer than maxList
// print as their count (maxList 0: every element).
func (s *Shell) showState(maxList int) {
	for _, o := range s.m.Options() {
		fmt.Fprintf(s.stdout, "option %s = %s\n", o.Name, dsl.ReprSummary(o.Value, maxList))
	}
	for _, e := range s.prog.Entities() {
		v, _ := s.m.Global(e)
		fmt.Fprintf(s.stdout, "%s = %s\n", e, dsl.ReprSummary(v, maxList))
	}
	for _, name := range s.sess.Vars() {
		v, _ := s.sess.Var(name)
		fmt.Fprintf(s.stdout, "let %s = %s\n", name, dsl.ReprSummary(v, maxList))
	}
	if p := s.queue.Pending(); len(p) > 0 {
		fmt.Fprintf(s.stdout, "next results: %s\n", strings.Join(p, " "))
	}
}

// lineDepth returns how many brackets one input line opens (negative: closes), outside
// strings and comments, as the language's own scanner sees them. Strings and comments end
// with the line, so an input needs more lines while the sum over its lines is positive; the
// REPL adds line by line, never rescanning.
func lineDepth(line string) int { return dsl.OpenBrackets(line) }

// finish ends the session: a transcript being recorded is closed (it is already whole) and
// hand-given results never used are reported, on stderr.
func (s *Shell) finish() {
	if s.rec != nil {
		if err := s.rec.f.Close(); err != nil {
			fmt.Fprintf(s.stderr, "rulesh: %s: %v\n", s.rec.path, err)
		} else {
			fmt.Fprintf(s.stdout, "recorded %s\n", s.rec.path)
		}
		s.rec = nil
	}
	output.Leftovers(s.stderr, s.queue.Pending(), s.m.GivenCards(), s.m.GivenChoices())
}

// Interrupt stops the input running at its next step, as Ctrl-C does: a call, or every run
// of :prob. It may be called from another goroutine.
func (s *Shell) Interrupt() { s.interrupt.Store(true) }

// Failed reports whether the last input ended in an error.
func (s *Shell) Failed() bool { return s.failed }

// Quit reports whether an input asked to leave (:quit).
func (s *Shell) Quit() bool { return s.quit }

// SetOption sets an option from its written value, as --set and the set directive of a
// transcript do.
func (s *Shell) SetOption(name, value string) error {
	return s.m.SetOption(name, dsl.ParseValue(value))
}

// GiveRolls queues hand-given die results written as a list ("7 3 5" or "7,3,5"), as :rolls
// does. A list with a result that no die could show is refused whole, with the reason.
func (s *Shell) GiveRolls(list string) error {
	rolls, err := ParseRolls(s.m, list)
	if err != nil {
		return err
	}
	s.queue.Push(rolls...)
	return nil
}

// ParseRolls reads hand-given die results "7,3,5" or "7 3 5" (numbers, face names, or the
// records of record dice's faces, {s: 1, a: 1}),
// checking each against the dice m (with its options) and texts (an expression given with
// them) could roll.
func ParseRolls(m *dsl.Machine, list string, texts ...string) ([]string, error) {
	rolls, err := dice.ParseList(list)
	if err != nil {
		return nil, err
	}
	if err := m.CheckRolls(rolls, texts...); err != nil {
		return nil, err
	}
	return rolls, nil
}

// GiveCards replaces the hand-given cards by list ("Q♣ 7♠" or "QC,7S"), each checked against
// the decks of the loaded rules.
func (s *Shell) GiveCards(list string) error {
	cards, err := ParseCards(s.prog, list)
	if err != nil {
		return err
	}
	s.m.SetGivenCards(cards)
	return nil
}

// menu shows options numbered from 1 under prompt and reads answers (a number or an
// option's name) with read until one fits; a read that fails (Ctrl-C, Ctrl-D) gives no answer.
func menu(w io.Writer, read func(prompt string) (string, error), prompt string, options []string) (int, error) {
	fmt.Fprintln(w, prompt)
	for i, o := range options {
		fmt.Fprintf(w, "  %d) %s\n", i+1, o)
	}
	for {
		line, err := read(fmt.Sprintf("choice (1-%d)? ", len(options)))
		if err != nil {
			return 0, fmt.Errorf("no answer given (%v)", err)
		}
		i, err := dsl.PickAnswer(strings.TrimSpace(line), options)
		if err == nil {
			return i, nil
		}
		fmt.Fprintf(w, "%v\n", err)
	}
}

// GiveChoices queues hand-given answers to choose ("2 colline" or "2,colline"), as :choices
// does. A list with an answer that fits no menu (0, -1) is refused whole, with the reason.
func (s *Shell) GiveChoices(list string) error {
	answers, err := ParseChoices(list)
	if err != nil {
		return err
	}
	s.m.SetGivenChoices(append(s.m.GivenChoices(), answers...))
	return nil
}

// ParseChoices reads hand-given answers to choose, separated by commas or spaces: an
// option's number in the menu (from 1) or its name. An empty list gives none; a number
// below 1 is refused.
func ParseChoices(list string) ([]string, error) {
	answers := strings.FieldsFunc(list, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
	if err := dsl.CheckChoices(answers); err != nil {
		return nil, err
	}
	return answers, nil
}

// Open starts a session to replay a transcript in (a transcript.Opener): every output,
// errors and warnings included, goes to out, and :record is refused, so replay writes no file.
func Open(dir string, files []string, seed uint64, out io.Writer) (transcript.Session, error) {
	s, err := New(Config{Dir: dir, Files: files, Seed: seed, Stdout: out, Stderr: out})
	if err != nil {
		return nil, err
	}
	s.replay = true
	return s, nil
}

// ParseCards reads hand-given cards "Q♣,7♠" or "QC 7S" (commas or spaces between them),
// checking each against the decks of prog.
func ParseCards(prog *dsl.Program, s string) ([]string, error) {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
	for _, c := range f {
		if _, err := prog.ParseCard(c); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// mapArgs splits the argument of :map into the map's name and the SVG file to write ("" for
// none).
func mapArgs(arg string) (name, svg string) {
	if f := strings.Fields(arg); len(f) >= 2 && f[len(f)-2] == "svg" {
		return strings.Join(f[:len(f)-2], " "), f[len(f)-1]
	}
	return arg, ""
}

// writesFile reports whether an input writes a file (`:map … svg FILE`): replay writes
// none, and such an input changes nothing else, so a recorded transcript keeps it as a
// comment.
func writesFile(input string) bool {
	cmd, arg, _ := strings.Cut(input, " ")
	_, svg := mapArgs(arg)
	return cmd == ":map" && svg != ""
}

// drawMap is :map [NAME] [svg FILE]: the board as it stands, as text, or as an SVG picture
// written to FILE (one per turn of a game, on request); replay writes no file.
func (s *Shell) drawMap(arg string) {
	name, svg := mapArgs(arg)
	board, err := s.m.Map(name)
	if err != nil {
		s.errorf("%v", err)
		return
	}
	units, err := s.m.Units(name)
	if err != nil {
		s.errorf("%v", err)
		return
	}
	if svg == "" {
		fmt.Fprint(s.stdout, board.Render(units))
		if s.picture != nil {
			var b strings.Builder
			if err := board.WriteSVG(&b, units); err == nil {
				s.picture(b.String())
			}
		}
		return
	}
	if s.replay {
		s.errorf(":map … svg is refused while a transcript is replayed: replay writes no file")
		return
	}
	path := s.path(svg)
	if err := sysio.ReplaceableSVG(path); err != nil {
		s.errorf("%v", err)
		return
	}
	if err := sysio.Write(path, func(w io.Writer) error { return board.WriteSVG(w, units) }); err != nil {
		s.errorf("%v", err)
		return
	}
	fmt.Fprintf(s.stdout, "wrote %s\n", svg)
}
