package repl

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"rulesh/cmd/rulesh/internal/sysio"
	"rulesh/cmd/rulesh/internal/transcript"
	"rulesh/dsl"
)

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
func (s *Shell) record(arg string) {
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
			_, err = transcript.Parse(path, src)
		}
		// An empty file, or a transcript recorded without any input yet, may be replaced.
		if err != nil && !errors.Is(err, transcript.ErrNoInput) && len(bytes.TrimSpace(src)) > 0 {
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
func (s *Shell) transcriptHead(r *recorder) (string, []string) {
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
		if len(s.m.GivenCards()) > 0 {
			fmt.Fprintf(&b, "cards %s\n", strings.Join(s.m.GivenCards(), " "))
		}
		if len(s.m.GivenChoices()) > 0 {
			fmt.Fprintf(&b, "choices %s\n", strings.Join(s.m.GivenChoices(), " "))
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
// relative to the transcript, and an input that writes a file is kept as a comment.
func (r *recorder) entry(e logEntry, s *Shell) string {
	input, output := e.input, e.output
	if writesFile(input) {
		// Replay refuses to write files; the picture changes no state, so the transcript
		// says it was drawn and replays what comes after.
		return "# not replayed (replay writes no file): " + input + "\n"
	}
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
	return transcript.Entry(input, output)
}
