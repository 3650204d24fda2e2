package repl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/peterh/liner"

	"rulesh/cmd/rulesh/internal/sysio"
)

// Run reads the session's inputs from stdin until it ends or :quit, and ends the session (a
// transcript being recorded is closed, unused hand-given results are reported). On the
// process's own terminal it is the interactive REPL (prompts, line editing, history,
// completion, Ctrl-C); otherwise stdin is read plainly, as a script. It reports whether every
// input succeeded: a piped script can be checked by its exit code.
func (s *Shell) Run(stdin io.Reader) bool {
	if f, ok := stdin.(*os.File); ok && f == os.Stdin && liner.TerminalSupported() && sysio.IsTerminal(f) {
		s.interactive()
		return true
	}
	return s.plain(stdin)
}

// maxLine is the longest input line read from a piped script.
const maxLine = 16 << 20

// plain reads inputs line by line, without prompts: piped scripts (`rulesh < script.txt`).
// It reports false when any input failed, or the script could not be read whole.
func (s *Shell) plain(r io.Reader) bool {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	var pending strings.Builder
	depth := 0 // brackets open in pending
	anyFailed := false
	defer s.finish()
	lineNo := 0
	for sc.Scan() {
		lineNo++
		if pending.Len() > 0 {
			pending.WriteByte('\n')
		}
		line := sc.Text()
		if lineNo == 1 {
			// A script saved with a byte order mark reads as one saved without.
			line = strings.TrimPrefix(line, "\ufeff")
		}
		pending.WriteString(line)
		depth += lineDepth(line)
		if pending.Len() > maxLine {
			// An open bracket would otherwise gather the whole script into one input.
			fmt.Fprintf(s.stderr, "rulesh: the input ending at line %d is longer than the %d MiB limit (a bracket left open?); stopped there\n", lineNo, maxLine>>20)
			return false
		}
		if depth > 0 {
			continue
		}
		s.Exec(pending.String())
		// A program driving the REPL through a pipe reads each answer before its next line.
		sysio.Flush(s.user)
		anyFailed = anyFailed || s.failed
		pending.Reset()
		depth = 0
		if s.quit {
			break
		}
	}
	if err := sc.Err(); err != nil {
		// The rest of the script cannot be read: stop, and say why.
		if errors.Is(err, bufio.ErrTooLong) {
			fmt.Fprintf(s.stderr, "rulesh: input line %d is longer than the %d MiB limit; stopped there\n", lineNo+1, maxLine>>20)
		} else {
			fmt.Fprintf(s.stderr, "rulesh: reading input: %v\n", err)
		}
		return false
	}
	if pending.Len() > 0 {
		s.Exec(pending.String())
		anyFailed = anyFailed || s.failed
	}
	return !anyFailed
}

// historyPath is $XDG_STATE_HOME/rulesh/history (~/.local/state/rulesh/history).
func historyPath() string {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "rulesh", "history")
}

func (s *Shell) interactive() {
	// At the terminal every write shows at once: what was written before (the diagnostics of
	// the files loaded) goes out with the first, and a long call's lines show as they come.
	s.stdout = io.MultiWriter(sysio.Unbuffered(s.user), &s.out)
	sysio.Flush(s.user)
	ln := liner.NewLiner()
	defer ln.Close()
	ln.SetCtrlCAborts(true)
	ln.SetTabCompletionStyle(liner.TabPrints)
	ln.SetWordCompleter(func(line string, pos int) (string, []string, string) {
		head, cands := s.completions(line[:pos])
		return head, cands, line[pos:]
	})
	// The menu is shown at the terminal only: the log and the transcript hold the answer
	// as a hand-given one (see Shell.answer), which is what replay shows.
	s.ask = func(prompt string, options []string) (int, error) {
		return menu(sysio.Unbuffered(s.user), ln.Prompt, prompt, options)
	}
	s.m.SetAsk(s.answer)
	hist := historyPath()
	if hist != "" {
		b, err := readHistory(hist)
		if err != nil {
			// What cannot be read is not written over either: the session keeps no history.
			fmt.Fprintf(s.stderr, "rulesh: history not kept this session: %v\n", err)
			hist = ""
		}
		_, _ = ln.ReadHistory(bytes.NewReader(b))
	}
	// Ctrl-C while a call runs interrupts it at its next step: a statement, or a unit of work
	// inside an expression (a die, an element walked by map or filter…).
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	go func() {
		for range sig {
			s.Interrupt()
		}
	}()
	defer s.finish()
	fmt.Fprintf(s.stdout, "rulesh — %s. :help lists the commands, Ctrl-D leaves.\n", s.describe())
	var pending strings.Builder
	depth := 0 // brackets open in pending
	for !s.quit {
		prompt := "> "
		if pending.Len() > 0 {
			prompt = "... "
		}
		line, err := ln.Prompt(prompt)
		if errors.Is(err, liner.ErrPromptAborted) {
			pending.Reset() // Ctrl-C clears the pending input and goes on
			depth = 0
			continue
		}
		if err != nil { // io.EOF: Ctrl-D
			fmt.Fprintln(s.stdout)
			break
		}
		if pending.Len() > 0 {
			pending.WriteByte('\n')
		}
		pending.WriteString(line)
		depth += lineDepth(line)
		if depth > 0 && pending.Len() <= maxLine {
			continue
		}
		input := pending.String()
		pending.Reset()
		depth = 0
		if strings.TrimSpace(input) != "" {
			if h := strings.ReplaceAll(input, "\n", " "); len(h) <= maxHistoryLine {
				ln.AppendHistory(h)
			}
			s.interrupt.Store(false)
			s.Exec(input)
			if s.interrupt.Load() {
				s.interrupted = true
			}
			s.saveHistory(ln, hist)
		}
	}
}

// maxHistoryLine is the longest history line kept: the line editor reads history through
// a 4 KiB buffer and gives up on the whole file at a longer line.
const maxHistoryLine = 4000

// maxHistory bounds the history file read: the line editor keeps 1,000 lines.
const maxHistory = 8 << 20

// readHistory reads the history file, a regular file of at most maxHistory bytes (a named
// pipe there would block the session, a device would never end), and returns its lines
// without those the line editor would stop at: longer than maxHistoryLine, or not UTF-8.
// A file that does not exist yet is an empty history.
func readHistory(path string) ([]byte, error) {
	b, err := sysio.ReadRegular(path, maxHistory)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	for line := range bytes.Lines(b) {
		line = bytes.TrimSuffix(line, []byte("\n"))
		if len(line) <= maxHistoryLine && utf8.Valid(line) {
			out.Write(line)
			out.WriteByte('\n')
		}
	}
	return out.Bytes(), nil
}

// saveHistory writes the history file itself with mode 0600 after every input, so nothing
// is lost if the terminal closes. Only a regular file is written: opening a named pipe
// for writing blocks until someone reads it.
func (s *Shell) saveHistory(ln *liner.State, path string) {
	if path == "" {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return
	}
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return
	}
	_, _ = ln.WriteHistory(f)
	f.Close()
}

func (s *Shell) describe() string {
	if len(s.files) == 0 {
		return "no rule file loaded"
	}
	name := s.prog.Name()
	if name == "" {
		name = strings.Join(s.files, ", ")
	}
	return fmt.Sprintf("%s, seed %d", name, s.seed)
}
