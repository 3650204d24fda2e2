// Package playground is what the web playground's engine does, apart from the browser: it
// checks the rules being edited (diagnostics with ranges, for the editor's underlines and
// the list of problems) and runs the REPL's own shell against them, its output cut into
// text and pictures. The WebAssembly entry point (./wasm) only carries requests and answers
// across to JavaScript as JSON; everything here builds and is tested on any platform.
package playground

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode"

	"rulesh/cmd/rulesh/internal/repl"
	"rulesh/dsl"
)

// Files are the rule files of the page by name (slash paths, includes relative to the file
// that includes them).
type Files map[string]string

// ReadFile reads a file as the loader asks for it; one over the loader's size limit is
// refused, as a file on disk would be.
func (f Files) ReadFile(name string) ([]byte, error) {
	src, ok := f[path.Clean(strings.ReplaceAll(name, "\\", "/"))]
	if !ok {
		return nil, errors.New("no such file in the playground")
	}
	if len(src) > dsl.MaxFileSize {
		return nil, fmt.Errorf("the file is %d bytes, over the limit of %d", len(src), dsl.MaxFileSize)
	}
	return []byte(src), nil
}

// Diag is one problem of the rules, with its range in characters (lines and columns from
// 1, the end just past the last character underlined).
type Diag struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	EndLine  int    `json:"endLine"`
	EndCol   int    `json:"endCol"`
	Severity string `json:"severity"` // "error" or "warning"
	Message  string `json:"message"`
}

// Check loads root with its includes from files and returns its diagnostics, warnings
// included, each said once. A range the checker does not know the end of underlines the
// name that starts there, or one character, as the language server does.
func Check(files Files, root string) []Diag {
	_, diags := dsl.Check(files, root)
	out := []Diag{}
	seen := map[Diag]bool{}
	lines := map[string][]int{} // each file's line starts, found once for all its diagnostics
	for _, dg := range diags {
		start, end := dg.Range()
		file := path.Clean(start.File)
		if _, ok := files[file]; !ok || start.Line == 0 {
			// A file outside the page (a missing include) or no position: said at the top
			// of the root, where the check started.
			file, start, end = root, dsl.Pos{Line: 1, Col: 1}, dsl.Pos{}
		}
		if end.Line < start.Line || end.Line == start.Line && end.Col <= start.Col {
			if lines[file] == nil {
				lines[file] = lineStarts(files[file])
			}
			end = nameEnd(files[file], lines[file], start)
		}
		msg := dg.Summary
		if dg.Detail != "" {
			msg += " (" + dg.Detail + ")"
		}
		sev := "error"
		if dg.Severity == dsl.Warning {
			sev = "warning"
		}
		d := Diag{File: file, Line: start.Line, Col: start.Col, EndLine: end.Line, EndCol: end.Col, Severity: sev, Message: msg}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// lineStarts is the offset of each line of src.
func lineStarts(src string) []int {
	starts := []int{0}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// nameEnd is the end of the name (letters, digits, _) that starts at p in src, or one
// character past p when none does; starts are src's lines (lineStarts), so that many
// diagnostics in a large file do not each split it again.
func nameEnd(src string, starts []int, p dsl.Pos) dsl.Pos {
	end := dsl.Pos{Line: p.Line, Col: p.Col + 1}
	if p.Line < 1 || p.Line > len(starts) {
		return end
	}
	line := src[starts[p.Line-1]:]
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	col, n := 1, 0
	for _, r := range line {
		if col >= p.Col {
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
				break
			}
			n++
		}
		col++
	}
	if n > 0 {
		end.Col = p.Col + n
	}
	return end
}

// Segment is one piece of the console's output: text as the terminal shows it, or an SVG
// picture (a chart of :prob, the board of :map) drawn after the text it goes with.
type Segment struct {
	Kind string `json:"kind"` // "text" or "svg"
	Text string `json:"text"`
}

// Request is one input of the console, with the rules as the editor has them.
type Request struct {
	Files Files  `json:"files"`
	Root  string `json:"root"`
	// Version counts the edits of the rules: when it changed since the last input, the rules
	// are reloaded first (:reload, state kept where it fits), so that an input runs against
	// the rules on the screen.
	Version int    `json:"version"`
	Seed    uint64 `json:"seed"`
	Input   string `json:"input"`
	// Complete, when set, asks for the completions of the word at its end instead of
	// running Input (see Console.Complete).
	Complete string `json:"complete"`
}

// Console is one REPL session of the page. It is used by one goroutine at a time.
type Console struct {
	// Progress, when set, hears how many of a :sim's runs are done while it runs (see
	// repl.Config.Progress): the page's engine posts it to the page, for its progress bar.
	Progress func(done, total int64)

	files   Files // the rules as the editor has them, read by the shell through Files
	root    string
	version int
	sh      *repl.Shell
	loaded  bool // the shell runs with the rules (they had no errors when it started)
	segs    []Segment
	text    strings.Builder
}

// NewConsole returns a console with no session yet: the first input starts one.
func NewConsole() *Console { return &Console{files: Files{}} }

// Write takes the shell's output.
func (c *Console) Write(p []byte) (int, error) {
	c.text.Write(p)
	return len(p), nil
}

func (c *Console) picture(svg string) {
	c.flush()
	c.segs = append(c.segs, Segment{Kind: "svg", Text: svg})
}

func (c *Console) flush() {
	if c.text.Len() > 0 {
		c.segs = append(c.segs, Segment{Kind: "text", Text: c.text.String()})
		c.text.Reset()
	}
}

// Exec runs one input of the console and returns its output. A session starts on the first
// input and again when the root changes; rules with errors leave a session without them
// (dice and expressions still run) until they load.
func (c *Console) Exec(r Request) []Segment {
	c.segs = nil
	c.take(r.Files)
	switch {
	case c.sh == nil || r.Root != c.root:
		c.start(r)
	case r.Version != c.version && !c.loaded:
		c.start(r)
	case r.Version != c.version && !isReload(r.Input):
		c.sh.Exec(":reload")
	}
	c.version = r.Version
	if c.sh == nil {
		c.flush()
		return c.segs
	}
	c.sh.Exec(r.Input)
	if c.sh.Quit() {
		// The page stays open: the next input starts a fresh session.
		c.sh = nil
		fmt.Fprintln(c, "session ended: the next input starts a new one")
	}
	c.flush()
	return c.segs
}

// take makes files the rules the shell reads (on its next load or :reload).
func (c *Console) take(files Files) {
	clear(c.files)
	for name, src := range files {
		c.files[path.Clean(name)] = src
	}
}

// Complete returns the completions of the word at the end of r.Complete, as Tab gives them
// at the terminal, and the text before that word. An edit of the rules since the last
// input is not reloaded here: the next input says what the reload changed.
func (c *Console) Complete(r Request) (head string, candidates []string) {
	if c.sh == nil || r.Root != c.root {
		c.segs = nil
		c.take(r.Files)
		c.start(r)
		c.version = r.Version
		c.segs, c.text = nil, strings.Builder{}
	}
	if c.sh == nil {
		return r.Complete, nil
	}
	return c.sh.Complete(r.Complete)
}

func isReload(input string) bool { return strings.TrimSpace(input) == ":reload" }

// start begins a session with r's root loaded, or without rules when they have errors (the
// diagnostics are said, and the next input after an edit tries again).
func (c *Console) start(r Request) {
	c.root, c.loaded = r.Root, false
	cfg := repl.Config{FS: c.files, Seed: r.Seed, Stdout: c, Stderr: c, Picture: c.picture, Progress: c.Progress}
	if r.Root != "" {
		cfg.Files = []string{r.Root}
		sh, err := repl.New(cfg)
		if err == nil {
			c.sh, c.loaded = sh, true
			fmt.Fprintf(c, "loaded %s, seed %d\n", r.Root, r.Seed)
			return
		}
		fmt.Fprintf(c, "error: %s has errors (see the diagnostics): the console runs without the rules until they are fixed\n", r.Root)
	}
	cfg.Files = nil
	sh, err := repl.New(cfg)
	if err != nil {
		// Only rule files can fail to load, and there are none: said all the same.
		fmt.Fprintf(c, "error: %v\n", err)
		c.sh = nil
		return
	}
	c.sh = sh
}
