package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"rulesh/cmd/rulesh/internal/output"
	"rulesh/cmd/rulesh/internal/sysio"
	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

// shell is the REPL's state and its line interpreter; the interactive front end, piped
// scripts and golden transcripts all drive it through exec.
type shell struct {
	*cli
	dir       string   // relative paths (load, record) are taken from here
	files     []string // rule files loaded, as given
	prog      *dsl.Program
	m         *dsl.Machine
	sess      *dsl.Session
	seed      uint64
	queue     *dice.Queue
	trace     bool
	rec       *recorder
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
	interrupted bool    // an input was interrupted (Ctrl-C): replay may differ
	out         capture // the output of the input being run
}

// capture keeps the output of one input, up to limit bytes (maxLog when 0): an input that
// prints more (a loop of emits) must not hold it all in memory.
type capture struct {
	buf   bytes.Buffer
	over  bool
	limit int
}

// Write implements io.Writer, keeping at most the limit.
func (c *capture) Write(p []byte) (int, error) {
	limit := c.limit
	if limit == 0 {
		limit = maxLog
	}
	if c.over || c.buf.Len()+len(p) > limit {
		// Once cut, later writes are dropped too: the output kept is its start, whole.
		c.over = true
		return len(p), nil
	}
	return c.buf.Write(p)
}

// Reset empties the capture for the next input.
func (c *capture) Reset() { c.buf.Reset(); c.over = false }

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
	{":rolls", "[7 3 5]", "the next dice results, as rolled by hand; alone lists them, `clear` empties"},
	{":cards", "[Q♣ 7♠]", "the next cards drawn, as dealt by hand; alone lists them, `clear` empties"},
	{":state", "", "show the options, entities and session variables"},
	{":show", "NAME", "show one value"},
	{":trace", "on|off", "show every roll, call and branch taken"},
	{":prob", "EXPR", "exact distribution of a dice expression or a rolled table"},
	{":map", "[NAME]", "draw a hex map with the units on it"},
	{":record", "FILE|off", "record the session as a golden transcript (FILE.transcript)"},
	{":quit", "", "leave (Ctrl-D too)"},
}

func newShell(c *cli, dir string, files []string, seed uint64) (*shell, error) {
	// The shell gets a cli of its own: it tees stdout to capture each input's output.
	own := *c
	s := &shell{cli: &own, dir: dir, seed: seed, startSeed: seed}
	s.stdout = io.MultiWriter(c.stdout, &s.out)
	s.queue = dice.NewQueue(nil, dice.NewPCG(seed))
	if _, _, err := s.loadFiles(files, nil); err != nil {
		return nil, err
	}
	s.startFiles = s.files
	return s, nil
}

func (s *shell) path(p string) string {
	if filepath.IsAbs(p) || s.dir == "" {
		return p
	}
	return filepath.Join(s.dir, p)
}

// loadFiles (re)builds the program and a fresh machine from files. With a previous session,
// what still fits is carried over from it (see dsl.Session.CarryOver) and the notes say
// what was reset and why.
func (s *shell) loadFiles(files []string, from *dsl.Session) ([]string, dsl.Kept, error) {
	var prog *dsl.Program
	if len(files) > 0 {
		var fsys dsl.FileSystem = dsl.OSFiles{}
		if s.dir != "" {
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
			srcs = prog.Sources
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
	m.Dice = s.queue
	m.GivenCards = from.M.GivenCards
	sess := dsl.NewSession(m)
	notes, kept := sess.CarryOver(from)
	s.files, s.prog = files, prog
	s.install(m)
	s.sess = sess
	return notes, kept, nil
}

func (s *shell) install(m *dsl.Machine) {
	s.m = m
	m.Emit = func(line string) { fmt.Fprintln(s.stdout, line) }
	m.Interrupt = &s.interrupt
	s.setTrace(s.trace)
}

func (s *shell) setTrace(on bool) {
	s.trace = on
	if !on {
		s.m.Trace = nil
		return
	}
	s.m.Trace = func(depth int, line string) {
		fmt.Fprintf(s.stdout, "%s· %s\n", strings.Repeat("  ", depth), line)
	}
}

var letRE = regexp.MustCompile(`(?s)^let\s+([\p{L}_][\p{L}\p{N}_]*)\s*=\s*(.+)$`)

// exec runs one complete input (an expression, a let, or a meta command), logs it with its
// output and, when recording, writes it to the transcript at once.
func (s *shell) exec(input string) {
	s.failed = false
	input = strings.TrimSpace(input)
	s.out.Reset()
	s.run(input)
	if input == "" || strings.HasPrefix(input, "//") || isRecordCommand(input) {
		return
	}
	e := logEntry{input, s.out.buf.String()}
	over := s.out.over
	s.out.Reset()
	if over {
		s.log, s.logLost = nil, true
	}
	s.addLog(e)
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

func isRecordCommand(input string) bool {
	cmd, _, _ := strings.Cut(input, " ")
	return cmd == ":record"
}

func (s *shell) addLog(e logEntry) {
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
func (s *shell) run(input string) {
	switch err := dsl.CheckEncoding("<input>", input); {
	case err != nil:
		s.showError(err, input)
	case input == "" || strings.HasPrefix(input, "//"):
	case strings.HasPrefix(input, ":"):
		s.meta(input)
	default:
		if dsl.IsStatement(input) && !letRE.MatchString(input) {
			if err := s.sess.Exec("<input>", input); err != nil {
				s.showError(err, input)
			}
			return
		}
		if m := letRE.FindStringSubmatch(input); m != nil {
			v, err := s.sess.Let(m[1], m[2])
			if err != nil {
				s.showError(err, m[2])
				return
			}
			fmt.Fprintf(s.stdout, "%s = %s\n", m[1], dsl.Repr(v))
			return
		}
		v, err := s.sess.Eval("<input>", input)
		if err != nil {
			s.showError(err, input)
			return
		}
		if v != nil {
			fmt.Fprintln(s.stdout, dsl.Repr(v))
		}
	}
}

func (s *shell) showError(err error, input string) {
	s.failed = true
	srcs := dsl.Sources{"<input>": []byte(input)}
	for k, v := range s.prog.Sources {
		srcs[k] = v
	}
	output.Error(s.stdout, err, srcs) // in the REPL, errors go where the user looks
}

func (s *shell) errorf(format string, args ...any) {
	s.failed = true
	fmt.Fprintf(s.stdout, "error: "+format+"\n", args...)
}

func (s *shell) meta(input string) {
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
			list, err := dice.ParseList(arg)
			if err != nil {
				s.errorf(":rolls 7 3 5, :rolls clear or :rolls alone: %v", err)
				return
			}
			s.queue.Push(list...)
		}
		fmt.Fprintf(s.stdout, "next results: %s\n", orNone(s.queue.Pending(), "the dice follow the seed"))
	case ":cards":
		switch arg {
		case "":
		case "clear":
			s.m.GivenCards = nil
		default:
			list, err := parseCards(s.prog, arg)
			if err != nil {
				s.errorf(":cards Q♣ 7♠ (or QC 7S), :cards clear or :cards alone: %v", err)
				return
			}
			s.m.GivenCards = append(s.m.GivenCards, list...)
		}
		fmt.Fprintf(s.stdout, "next cards: %s\n", orNone(s.m.GivenCards, "draws take the top of the pile"))
	case ":state":
		s.showState()
	case ":show":
		if v, ok := s.sess.Var(arg); ok {
			fmt.Fprintln(s.stdout, dsl.Repr(v))
		} else if v, ok := s.m.Global(arg); ok {
			fmt.Fprintln(s.stdout, dsl.Repr(v))
		} else {
			s.errorf("nothing is called %q", arg)
		}
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
		if name := strings.TrimSuffix(arg, "()"); s.prog.Proc(name) != nil {
			d, err := s.prog.TableDist(name)
			if err != nil {
				s.errorf("%v", err)
				return
			}
			_ = output.Dist(s.stdout, arg, d, false)
			return
		}
		e, err := dice.Parse(arg, s.prog.Dice())
		if err == nil {
			var d *dice.Dist
			if d, err = e.Distribution(); err == nil {
				_ = output.Dist(s.stdout, arg, d, false)
				return
			}
		}
		output.DiceError(s.stdout, arg, err)
		s.failed = true
	case ":record":
		s.record(arg)
	case ":map":
		board, err := s.m.Map(arg)
		if err != nil {
			s.errorf("%v", err)
			return
		}
		fmt.Fprint(s.stdout, board.Render(s.m.Units()))
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
func (s *shell) reportCarry(notes []string, k dsl.Kept) {
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

func (s *shell) showState() {
	for _, o := range s.m.Options() {
		fmt.Fprintf(s.stdout, "option %s = %s\n", o.Name, dsl.Repr(o.Value))
	}
	for _, e := range s.prog.Entities {
		v, _ := s.m.Global(e.Name)
		fmt.Fprintf(s.stdout, "%s = %s\n", e.Name, dsl.Repr(v))
	}
	for _, name := range s.sess.Vars() {
		v, _ := s.sess.Var(name)
		fmt.Fprintf(s.stdout, "let %s = %s\n", name, dsl.Repr(v))
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

// recorder writes a golden transcript of the session as it goes: each input and its output
// are appended as soon as the input has run, so the file is whole however the session ends.
type recorder struct {
	f    *os.File
	path string
	dir  string // the transcript's folder: load paths are written relative to it
	// positions matches a position in each loaded file, compiled once per file name.
	positions map[string]*regexp.Regexp
}

// position matches a position in file f (the name, a colon, a line number), not inside a
// longer file name (b.rules within ab.rules or x/b.rules).
func (r *recorder) position(f string) *regexp.Regexp {
	re, ok := r.positions[f]
	if !ok {
		if r.positions == nil {
			r.positions = map[string]*regexp.Regexp{}
		}
		re = regexp.MustCompile(`(^|[^\pL\pN_./-])` + regexp.QuoteMeta(f) + `:(\d)`)
		r.positions[f] = re
	}
	return re
}

// record is :record FILE and :record off. FILE must end in .transcript, and an existing
// file is replaced only if it reads as a transcript: a rule file is never overwritten.
func (s *shell) record(arg string) {
	if s.replay {
		s.errorf(":record is refused while a transcript is replayed: replay writes no file")
		return
	}
	if arg == "off" {
		if s.rec == nil {
			s.errorf("not recording")
			return
		}
		path, err := s.rec.path, s.rec.f.Close()
		s.rec = nil
		if err != nil {
			s.errorf("%v", err)
			return
		}
		fmt.Fprintf(s.stdout, "recorded %s\n", path)
		return
	}
	if arg == "" {
		s.errorf(":record FILE.transcript or :record off")
		return
	}
	if s.rec != nil {
		s.errorf("already recording to %s", s.rec.path)
		return
	}
	path := s.path(arg)
	if !strings.HasSuffix(path, ".transcript") {
		s.errorf(":record writes only files named *.transcript, not %s", arg)
		return
	}
	if st, err := os.Lstat(path); err == nil {
		if !st.Mode().IsRegular() {
			s.errorf("%s exists and is not a regular file; not overwritten", arg)
			return
		}
		src, err := dsl.OSFiles{}.ReadFile(path)
		if err == nil {
			_, err = parseTranscript(path, src)
		}
		// An empty file, or a transcript recorded without any input yet, may be replaced.
		if err != nil && !errors.Is(err, errNoInput) && len(bytes.TrimSpace(src)) > 0 {
			s.errorf("%s exists and does not read as a transcript; not overwritten", arg)
			return
		}
	}
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		s.errorf("%v", err)
		return
	}
	r := &recorder{path: arg, dir: dir}
	head, notes := s.transcriptHead(r)
	// The head replaces the file whole (a failure leaves the old transcript), then each
	// entry is appended.
	if err := sysio.WriteFile(path, []byte(head)); err != nil {
		s.errorf("%v", err)
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		s.errorf("%v", err)
		return
	}
	r.f = f
	s.rec = r
	fmt.Fprintf(s.stdout, "recording to %s\n", arg)
	for _, n := range notes {
		fmt.Fprintf(s.stdout, "note: %s\n", n)
	}
}

// transcriptHead writes what replay needs to reach the present state: the seed and files the
// session started with, then every input so far with its output. What replay cannot
// reproduce is said in the file and returned to be said on screen.
func (s *shell) transcriptHead(r *recorder) (string, []string) {
	var b strings.Builder
	b.WriteString("# Recorded by rulesh; `rulesh test` replays it.\n")
	var notes []string
	if s.logLost {
		notes = append(notes, fmt.Sprintf("the session before :record was longer than %d MiB and was not kept: replay starts from a fresh state and its dice may differ", maxLog>>20))
		fmt.Fprintf(&b, "seed %d\n", s.seed)
		for _, file := range s.files {
			fmt.Fprintf(&b, "load %s\n", r.rel(s.path(file)))
		}
		for _, o := range s.m.Options() {
			if o.Value != o.Default {
				fmt.Fprintf(&b, "set %s %s\n", o.Name, dsl.Repr(o.Value))
			}
		}
		if p := s.queue.Pending(); len(p) > 0 {
			fmt.Fprintf(&b, "rolls %s\n", strings.Join(p, " "))
		}
		if len(s.m.GivenCards) > 0 {
			fmt.Fprintf(&b, "cards %s\n", strings.Join(s.m.GivenCards, " "))
		}
	} else {
		fmt.Fprintf(&b, "seed %d\n", s.startSeed)
		for _, file := range s.startFiles {
			fmt.Fprintf(&b, "load %s\n", r.rel(s.path(file)))
		}
		reloads := false
		for _, e := range s.log {
			cmd, _, _ := strings.Cut(e.input, " ")
			reloads = reloads || cmd == ":load" || cmd == ":reload"
		}
		if reloads {
			notes = append(notes, "the session loaded or reloaded rule files: replay reads them as they are then")
		}
		if s.interrupted {
			notes = append(notes, "an input was interrupted (Ctrl-C): replay runs it to its end")
		}
	}
	for _, n := range notes {
		fmt.Fprintf(&b, "# note: %s\n", n)
	}
	if len(s.log) > 0 {
		b.WriteString("# The session before :record, replayed to reach the same state:\n")
		for _, e := range s.log {
			b.WriteString(r.entry(e, s))
		}
		b.WriteString("# :record started here.\n")
	}
	return b.String(), notes
}

// rel writes a path relative to the transcript's folder (absolute if it cannot).
func (r *recorder) rel(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if rel, err := filepath.Rel(r.dir, abs); err == nil {
		return filepath.ToSlash(rel)
	}
	return abs
}

// entry writes one input and its output in transcript form; a :load path is rewritten
// relative to the transcript.
func (r *recorder) entry(e logEntry, s *shell) string {
	input, output := e.input, e.output
	if cmd, arg, _ := strings.Cut(input, " "); cmd == ":load" && strings.TrimSpace(arg) != "" {
		arg = strings.TrimSpace(arg)
		input = ":load " + r.rel(s.path(arg))
		output = strings.Replace(output, "loaded "+arg+"\n", "loaded "+r.rel(s.path(arg))+"\n", 1)
	}
	// Positions in loaded files name them as replay will: relative to the transcript.
	for _, f := range s.files {
		if rel := r.rel(s.path(f)); rel != f {
			output = r.position(f).ReplaceAllStringFunc(output, func(m string) string {
				return strings.Replace(m, f+":", rel+":", 1)
			})
		}
	}
	var b strings.Builder
	writeInput(&b, input)
	b.WriteString(escapeOutput(output))
	return b.String()
}

// finish ends the session: a transcript being recorded is closed (it is already whole) and
// hand-given results never used are reported, on stderr.
func (s *shell) finish() {
	if s.rec != nil {
		if err := s.rec.f.Close(); err != nil {
			fmt.Fprintf(s.stderr, "rulesh: %s: %v\n", s.rec.path, err)
		} else {
			fmt.Fprintf(s.stdout, "recorded %s\n", s.rec.path)
		}
		s.rec = nil
	}
	output.Leftovers(s.stderr, s.queue.Pending(), s.m.GivenCards)
}

// completions returns the candidates for the word being typed at the end of line: meta
// commands, procedures, options, entities, dice, session variables and, after `x.`, the
// fields of x.
func (s *shell) completions(line string) (string, []string) {
	start := len(line)
	for start > 0 {
		r := line[start-1]
		if r == ' ' || r == '(' || r == ',' || r == '[' || r == '{' || r == '+' || r == '-' || r == '*' || r == '/' || r == '!' || r == '=' || r == '<' || r == '>' {
			break
		}
		start--
	}
	head, word := line[:start], line[start:]
	var cands []string
	if strings.HasPrefix(word, ":") && strings.TrimSpace(head) == "" {
		for _, c := range metaCommands {
			cands = append(cands, c.name)
		}
	} else if dot := strings.LastIndexByte(word, '.'); dot > 0 {
		if v, ok := s.lookup(word[:dot]); ok {
			for _, f := range dsl.Fields(v) {
				cands = append(cands, word[:dot+1]+f)
			}
		}
	} else {
		cands = append(cands, s.prog.Names()...)
		cands = append(cands, s.sess.Vars()...)
	}
	var out []string
	for _, c := range cands {
		if strings.HasPrefix(c, word) {
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return head, out
}

func (s *shell) lookup(path string) (any, bool) {
	parts := strings.Split(path, ".")
	v, ok := s.sess.Var(parts[0])
	if !ok {
		v, ok = s.m.Global(parts[0])
	}
	for _, p := range parts[1:] {
		if !ok {
			return nil, false
		}
		rec, isRec := v.(map[string]any)
		if !isRec {
			return nil, false
		}
		v, ok = rec[p]
	}
	return v, ok
}
