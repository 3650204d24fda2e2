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
}

// metaCommands is the one table of meta commands: help text and completion come from it.
var metaCommands = []struct{ name, args, help string }{
	{":help", "", "this list"},
	{":load", "FILE", "load a rule file (added to the files already loaded)"},
	{":reload", "", "re-read the rule files, keep the state that still fits, say what changed"},
	{":set", "NAME VALUE", "set an option"},
	{":options", "", "list the options with their values"},
	{":seed", "N", "restart the dice from seed N"},
	{":rolls", "7 3 5", "the next dice results, as rolled by hand"},
	{":cards", "Q♣ 7♠", "the next cards drawn, as dealt by hand"},
	{":state", "", "show the options, entities and session variables"},
	{":show", "NAME", "show one value"},
	{":trace", "on|off", "show every roll, call and branch taken"},
	{":prob", "EXPR", "exact distribution of a dice expression or a rolled table"},
	{":map", "[NAME]", "draw a hex map with the units on it"},
	{":record", "FILE|off", "write the session from here on as a golden transcript"},
	{":quit", "", "leave (Ctrl-D too)"},
}

func newShell(c *cli, dir string, files []string, seed uint64) (*shell, error) {
	s := &shell{cli: c, dir: dir, seed: seed}
	s.queue = dice.NewQueue(nil, dice.NewPCG(seed))
	if err := s.loadFiles(files); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *shell) path(p string) string {
	if filepath.IsAbs(p) || s.dir == "" {
		return p
	}
	return filepath.Join(s.dir, p)
}

// loadFiles (re)builds the program and a fresh machine from files.
func (s *shell) loadFiles(files []string) error {
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
			return errors.New("rule files have errors")
		}
	} else {
		prog, _ = dsl.LoadSource("<empty>", nil)
	}
	m, err := dsl.NewMachine(prog, s.queue, nil)
	if err != nil {
		return err
	}
	s.files, s.prog = files, prog
	s.install(m)
	s.sess = dsl.NewSession(m)
	return nil
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

// exec runs one complete input (an expression, a let, or a meta command).
func (s *shell) exec(input string) {
	s.failed = false
	input = strings.TrimSpace(input)
	if s.rec != nil && !strings.HasPrefix(input, ":record") {
		s.rec.input(input)
	}
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
	old := s.stderr
	s.stderr = s.stdout // in the REPL, errors go where the user looks
	s.printError(err, srcs)
	s.stderr = old
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
		old := s.m
		if err := s.loadFiles(append(append([]string(nil), s.files...), arg)); err != nil {
			s.errorf("%v; nothing changed", err)
			return
		}
		s.carry(old)
		fmt.Fprintf(s.stdout, "loaded %s\n", arg)
	case ":reload":
		old, oldProg, oldFiles := s.m, s.prog, s.files
		if err := s.loadFiles(oldFiles); err != nil {
			s.errorf("%v; the previous version stays loaded", err)
			s.prog, s.files = oldProg, oldFiles
			s.install(old)
			return
		}
		notes := s.carry(old)
		fmt.Fprintf(s.stdout, "reloaded %d file(s)\n", len(s.files))
		for _, n := range notes {
			fmt.Fprintln(s.stdout, "  "+n)
		}
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
		fmt.Fprintf(s.stdout, "seed %d\n", n)
	case ":rolls":
		list, err := dice.ParseList(arg)
		if err != nil {
			s.errorf("%v", err)
			return
		}
		s.queue.Push(list...)
		fmt.Fprintf(s.stdout, "next results: %s\n", strings.Join(s.queue.Pending(), " "))
	case ":cards":
		list, err := parseCards(s.prog, arg)
		if err != nil || len(list) == 0 {
			s.errorf(":cards Q♣ 7♠ (or QC 7S): %v", err)
			return
		}
		s.m.GivenCards = append(s.m.GivenCards, list...)
		fmt.Fprintf(s.stdout, "next cards: %s\n", strings.Join(s.m.GivenCards, " "))
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
			s.printDist(arg, d, false)
			return
		}
		e, err := dice.Parse(arg, s.prog.Dice())
		if err == nil {
			var d *dice.Dist
			if d, err = e.Distribution(); err == nil {
				s.printDist(arg, d, false)
				return
			}
		}
		old := s.stderr
		s.stderr = s.stdout
		s.diceError(arg, err)
		s.stderr = old
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

func suggest(name string, cands []string) string {
	if best := dsl.DidYouMean(name, cands); best != "" {
		return "; did you mean " + best + "?"
	}
	return ""
}

func (s *shell) carry(old *dsl.Machine) []string {
	notes := s.m.CarryOver(old)
	return notes
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

// needsMore reports whether an input still has open brackets (outside strings and
// comments, as the language's own scanner sees them): the REPL then asks for a
// continuation line.
func needsMore(input string) bool { return dsl.OpenBrackets(input) > 0 }

// recorder writes a golden transcript of the session as it goes.
type recorder struct {
	f       *os.File
	path    string
	buf     bytes.Buffer
	restore io.Writer
}

func (s *shell) record(arg string) {
	if arg == "off" {
		if s.rec == nil {
			s.errorf("not recording")
			return
		}
		err := s.rec.close()
		s.stdout = s.rec.restore
		path := s.rec.path
		s.rec = nil
		if err != nil {
			s.errorf("%v", err)
			return
		}
		fmt.Fprintf(s.stdout, "recorded %s\n", path)
		return
	}
	if arg == "" {
		s.errorf(":record FILE or :record off")
		return
	}
	if s.rec != nil {
		s.errorf("already recording to %s", s.rec.path)
		return
	}
	f, err := os.Create(s.path(arg))
	if err != nil {
		s.errorf("%v", err)
		return
	}
	r := &recorder{f: f, path: arg, restore: s.stdout}
	fmt.Fprintf(&r.buf, "# Recorded by rulesh; `rulesh test` replays it.\nseed %d\n", s.seed)
	for _, file := range s.files {
		fmt.Fprintf(&r.buf, "load %s\n", file)
	}
	for _, o := range s.m.Options() {
		if o.Value != o.Default {
			fmt.Fprintf(&r.buf, "set %s %s\n", o.Name, dsl.Repr(o.Value))
		}
	}
	if p := s.queue.Pending(); len(p) > 0 {
		fmt.Fprintf(&r.buf, "rolls %s\n", strings.Join(p, " "))
	}
	s.rec = r
	fmt.Fprintf(r.restore, "recording to %s\n", arg)
	s.stdout = io.MultiWriter(r.restore, &r.buf)
}

func (r *recorder) input(in string) {
	lines := strings.Split(in, "\n")
	fmt.Fprintf(&r.buf, "> %s\n", lines[0])
	for _, l := range lines[1:] {
		fmt.Fprintf(&r.buf, "... %s\n", l)
	}
}

func (r *recorder) close() error {
	_, err := r.f.Write(r.buf.Bytes())
	if cerr := r.f.Close(); err == nil {
		err = cerr
	}
	return err
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
