package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"rulesh/cmd/rulesh/internal/sysio"
	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

// A golden transcript is a REPL session written down:
//
//	# comments (only before the first input)
//	seed 42                  directives: seed, load FILE, set NAME VALUE, rolls 7 3, cards Q♣
//	load ../../rulesets/examples/duel.rules
//	> frapper(ariane, brutus)      an input…
//	Ariane touche Brutus …         …and the exact output expected
//	> rule lines continued
//	... with "... " lines
//
// Paths are relative to the transcript's folder. An output line that would read as something
// else (an input "> ", a continuation "... ", a line starting with "\", or a blank or "#"
// line at the end of an output, which would be taken for a comment) is written with a "\" in
// front; replay removes one leading "\" from every output line.
type transcript struct {
	path      string
	header    []string // comment and directive lines, kept as written
	seed      uint64
	files     []string
	sets      [][2]string
	rolls     []string
	cards     string
	cardsLine int
	cases     []tcase
	trailer   []string // comment and blank lines after the last output, kept as written
}

type tcase struct {
	pre   []string // comment and blank lines before the input, kept as written
	input string   // may hold several lines
	want  string
}

// errNoInput is a transcript without any input: it would pass while testing nothing.
var errNoInput = errors.New("no input: a transcript needs at least one line starting with \"> \"")

func isInputLine(l string) bool { return strings.HasPrefix(l, "> ") || l == ">" }

// isNote is a line that, at the end of an output, is read as a comment or spacing before
// the next input rather than as output.
func isNote(l string) bool { return l == "" || strings.HasPrefix(l, "#") }

func parseTranscript(path string, src []byte) (*transcript, error) {
	t := &transcript{path: path, seed: 1}
	// A byte order mark (some Windows editors write one) is not part of the first line.
	lines := strings.Split(strings.TrimPrefix(string(src), "\ufeff"), "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	for i := range lines {
		lines[i] = strings.TrimSuffix(lines[i], "\r")
	}
	i := 0
	for ; i < len(lines); i++ {
		l := lines[i]
		if isInputLine(l) {
			break
		}
		t.header = append(t.header, l)
		f := strings.Fields(l)
		if len(f) == 0 || strings.HasPrefix(l, "#") {
			continue
		}
		rest := strings.TrimSpace(strings.TrimPrefix(l, f[0]))
		switch f[0] {
		case "seed":
			n, err := strconv.ParseUint(rest, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: seed needs a whole number", path, i+1)
			}
			t.seed = n
		case "load":
			if len(f) != 2 {
				return nil, fmt.Errorf("%s:%d: load FILE", path, i+1)
			}
			t.files = append(t.files, f[1])
		case "set":
			if len(f) < 3 {
				return nil, fmt.Errorf("%s:%d: set NAME VALUE", path, i+1)
			}
			t.sets = append(t.sets, [2]string{f[1], strings.Join(f[2:], " ")})
		case "rolls":
			list, err := dice.ParseList(rest)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: rolls: %v", path, i+1, err)
			}
			t.rolls = append(t.rolls, list...)
		case "cards":
			if rest == "" {
				return nil, fmt.Errorf("%s:%d: cards needs at least one card (cards Q♣ 7♠)", path, i+1)
			}
			if t.cards != "" {
				return nil, fmt.Errorf("%s:%d: a second cards directive (give every card on one line)", path, i+1)
			}
			t.cards, t.cardsLine = rest, i+1
		default:
			return nil, fmt.Errorf("%s:%d: unknown directive %q (seed, load, set, rolls, cards; inputs start with \"> \")", path, i+1, f[0])
		}
	}
	if i == len(lines) {
		return nil, fmt.Errorf("%s: %w", path, errNoInput)
	}
	var pre []string
	for i < len(lines) {
		c := tcase{pre: pre, input: strings.TrimPrefix(strings.TrimPrefix(lines[i], ">"), " ")}
		i++
		for i < len(lines) && strings.HasPrefix(lines[i], "... ") {
			c.input += "\n" + strings.TrimPrefix(lines[i], "... ")
			i++
		}
		var want []string
		for i < len(lines) && !isInputLine(lines[i]) {
			want = append(want, lines[i])
			i++
		}
		// Comment and blank lines at the end belong to the next input (or end the file),
		// not to this output.
		cut := len(want)
		for cut > 0 && isNote(want[cut-1]) {
			cut--
		}
		pre = append([]string(nil), want[cut:]...)
		for _, w := range want[:cut] {
			c.want += strings.TrimPrefix(w, `\`) + "\n"
		}
		t.cases = append(t.cases, c)
	}
	t.trailer = pre
	return t, nil
}

// escapeOutput writes an output so that it reads back as the same output (see transcript).
func escapeOutput(out string) string {
	if out == "" {
		return ""
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	tail := len(lines)
	for tail > 0 && isNote(lines[tail-1]) {
		tail--
	}
	var b strings.Builder
	for i, l := range lines {
		if strings.HasPrefix(l, `\`) || isInputLine(l) || strings.HasPrefix(l, "... ") || i >= tail {
			b.WriteString(`\`)
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

// writeInput writes an input as "> " and "... " lines.
func writeInput(b *strings.Builder, input string) {
	lines := strings.Split(input, "\n")
	b.WriteString("> " + lines[0] + "\n")
	for _, l := range lines[1:] {
		b.WriteString("... " + l + "\n")
	}
}

// run replays the transcript and returns the actual output of each case. Replay never
// writes a file: :record is refused.
func (t *transcript) run() ([]string, error) {
	// No expected output is longer than a transcript file: keep no more of the actual one.
	out := &capture{limit: dsl.MaxFileSize + 1}
	c := &cli{stdout: out, stderr: out}
	sh, err := newShell(c, filepath.Dir(t.path), t.files, t.seed)
	if err != nil {
		return nil, fmt.Errorf("%s: %v\n%s", t.path, err, out.buf.String())
	}
	sh.replay = true
	for _, kv := range t.sets {
		if err := sh.m.SetOption(kv[0], dsl.ParseValue(kv[1])); err != nil {
			return nil, fmt.Errorf("%s: set %s: %v", t.path, kv[0], err)
		}
	}
	sh.queue.Push(t.rolls...)
	if t.cards != "" {
		list, err := parseCards(sh.prog, t.cards)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: cards: %v", t.path, t.cardsLine, err)
		}
		sh.m.GivenCards = list
	}
	out.Reset()
	got := make([]string, len(t.cases))
	for i, tc := range t.cases {
		out.Reset()
		sh.exec(tc.input)
		got[i] = out.buf.String()
		if got[i] != "" && !strings.HasSuffix(got[i], "\n") {
			got[i] += "\n" // a transcript holds whole lines
		}
		if out.over {
			got[i] += fmt.Sprintf("(output cut: longer than a transcript may be, %d MiB)\n", dsl.MaxFileSize>>20)
		}
		if sh.quit {
			break
		}
	}
	return got, nil
}

// render writes the transcript back with the given outputs (for --update).
func (t *transcript) render(outputs []string) string {
	var b strings.Builder
	for _, h := range t.header {
		b.WriteString(h + "\n")
	}
	for i, tc := range t.cases {
		for _, p := range tc.pre {
			b.WriteString(p + "\n")
		}
		writeInput(&b, tc.input)
		b.WriteString(escapeOutput(outputs[i]))
	}
	for _, p := range t.trailer {
		b.WriteString(p + "\n")
	}
	return b.String()
}

// diff shows the first mismatching case as a unified diff.
func (t *transcript) diff(got []string) string {
	for i, tc := range t.cases {
		if got[i] == tc.want {
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "--- %s (expected)\n+++ %s (actual)\n@@ > %s @@\n", t.path, t.path, strings.Split(tc.input, "\n")[0])
		w := strings.Split(strings.TrimSuffix(tc.want, "\n"), "\n")
		g := strings.Split(strings.TrimSuffix(got[i], "\n"), "\n")
		for _, l := range unifiedLines(w, g) {
			b.WriteString(l + "\n")
		}
		return b.String()
	}
	return ""
}

// unifiedLines is a small LCS line diff: " " kept, "-" expected only, "+" actual only.
func unifiedLines(a, b []string) []string {
	n, m := len(a), len(b)
	if n*m > 4_000_000 {
		var out []string
		for _, l := range a {
			out = append(out, "-"+l)
		}
		for _, l := range b {
			out = append(out, "+"+l)
		}
		return out
	}
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []string
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			out = append(out, " "+a[i])
			i, j = i+1, j+1
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			out = append(out, "+"+b[j])
			j++
		default:
			out = append(out, "-"+a[i])
			i++
		}
	}
	return out
}

// findTranscripts lists the *.transcript files under the given paths (files or folders).
func findTranscripts(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".transcript") {
				out = append(out, path)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(out)
	return out, nil
}

// test is `rulesh test [--update] [PATH]...`.
func (c *cli) test(args []string) int {
	fs := c.newFlags("test", "test [--update] [PATH]...")
	update := fs.Bool("update", false, "rewrite the expected output of every transcript")
	paths, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(paths) == 0 {
		paths = []string{"tests"}
	}
	files, err := findTranscripts(paths)
	if err != nil {
		fmt.Fprintf(c.stderr, "rulesh test: %v\n", err)
		return exitError
	}
	if len(files) == 0 {
		fmt.Fprintf(c.stderr, "rulesh test: no .transcript file under %s\n", strings.Join(paths, ", "))
		return exitError
	}
	pass, fail := 0, 0
	for _, f := range files {
		ok, msg := runTranscriptFile(f, *update)
		if ok {
			pass++
			fmt.Fprintf(c.stdout, "ok    %s\n", f)
			continue
		}
		fail++
		fmt.Fprintf(c.stdout, "FAIL  %s\n%s", f, msg)
	}
	fmt.Fprintf(c.stdout, "%d passed, %d failed\n", pass, fail)
	if fail > 0 {
		return exitError
	}
	return exitOK
}

// runTranscriptFile replays one transcript; with update it rewrites it and passes.
func runTranscriptFile(path string, update bool) (bool, string) {
	src, err := dsl.OSFiles{}.ReadFile(path)
	if err != nil {
		return false, err.Error() + "\n"
	}
	t, err := parseTranscript(path, src)
	if err != nil {
		return false, err.Error() + "\n"
	}
	got, err := t.run()
	if err != nil {
		return false, err.Error() + "\n"
	}
	if update {
		if err := sysio.WriteFile(path, []byte(t.render(got))); err != nil {
			return false, err.Error() + "\n"
		}
		return true, ""
	}
	if d := t.diff(got); d != "" {
		return false, d
	}
	return true, ""
}
