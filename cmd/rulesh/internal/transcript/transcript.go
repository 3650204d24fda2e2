package transcript

import (
	"errors"
	"fmt"
	"io"
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

// A Transcript is a REPL session written down:
//
//	# comments (only before the first input)
//	seed 42                  directives: seed, load FILE, set NAME VALUE, rolls 7 3, cards Q♣,
//	                         choices 2 colline
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
type Transcript struct {
	path      string
	header    []string // comment and directive lines, kept as written
	seed      uint64
	files     []string
	sets      [][2]string
	rolls     []directive
	cards     string
	cardsLine int
	choices   []directive
	cases     []tcase
	trailer   []string // comment and blank lines after the last output, kept as written
}

// directive is the list a rolls or choices directive gives, with its line for errors.
type directive struct {
	list string
	line int
}

type tcase struct {
	pre   []string // comment and blank lines before the input, kept as written
	input string   // may hold several lines
	want  string
}

// ErrNoInput is a transcript without any input: it would pass while testing nothing.
var ErrNoInput = errors.New("no input: a transcript needs at least one line starting with \"> \"")

func isInputLine(l string) bool { return strings.HasPrefix(l, "> ") || l == ">" }

// isNote is a line that, at the end of an output, is read as a comment or spacing before
// the next input rather than as output.
func isNote(l string) bool { return l == "" || strings.HasPrefix(l, "#") }

// Parse reads the transcript src, from the file path (named in its errors, and the folder its
// load paths are relative to). A transcript without any input is ErrNoInput.
func Parse(path string, src []byte) (*Transcript, error) {
	t := &Transcript{path: path, seed: 1}
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
			// Read here for the form; checked against the rules' dice once they are loaded.
			if _, err := dice.ParseList(rest); err != nil {
				return nil, fmt.Errorf("%s:%d: rolls: %v", path, i+1, err)
			}
			t.rolls = append(t.rolls, directive{rest, i + 1})
		case "cards":
			if rest == "" {
				return nil, fmt.Errorf("%s:%d: cards needs at least one card (cards Q♣ 7♠)", path, i+1)
			}
			if t.cards != "" {
				return nil, fmt.Errorf("%s:%d: a second cards directive (give every card on one line)", path, i+1)
			}
			t.cards, t.cardsLine = rest, i+1
		case "choices":
			if rest == "" {
				return nil, fmt.Errorf("%s:%d: choices needs at least one answer (choices 2 colline)", path, i+1)
			}
			t.choices = append(t.choices, directive{rest, i + 1})
		default:
			return nil, fmt.Errorf("%s:%d: unknown directive %q (seed, load, set, rolls, cards, choices; inputs start with \"> \")", path, i+1, f[0])
		}
	}
	if i == len(lines) {
		return nil, fmt.Errorf("%s: %w", path, ErrNoInput)
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

// escapeOutput writes an output so that it reads back as the same output (see Transcript).
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

// Entry writes one input and its output in transcript form, as :record appends them.
func Entry(input, output string) string {
	var b strings.Builder
	writeInput(&b, input)
	b.WriteString(escapeOutput(output))
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

// Session is a REPL session that a transcript is replayed in.
type Session interface {
	// SetOption sets an option from its written value (the set directive).
	SetOption(name, value string) error
	// GiveRolls queues hand-given die results, written as a list "7 3 5" (the rolls
	// directive), refusing a result no die could show.
	GiveRolls(list string) error
	// GiveCards queues hand-given cards, written as a list "Q♣ 7♠" (the cards directive).
	GiveCards(list string) error
	// GiveChoices queues hand-given answers to choose, written "2 colline" (the choices
	// directive), refusing an answer that fits no menu.
	GiveChoices(list string) error
	// Exec runs one input; its output, errors included, goes to the session's writer.
	Exec(input string)
	// Quit reports whether an input asked to leave.
	Quit() bool
}

// An Opener starts a session for replay: the rule files loaded from dir, the dice seeded,
// every output written to out. A session opened for replay must write no file.
type Opener func(dir string, files []string, seed uint64, out io.Writer) (Session, error)

// Replay runs the transcript's inputs in a session that open starts and returns the actual
// output of each case (empty for the cases after an input that quits).
func (t *Transcript) Replay(open Opener) ([]string, error) {
	// No expected output is longer than a transcript file: keep no more of the actual one.
	out := &Capture{Limit: dsl.MaxFileSize + 1}
	sh, err := open(filepath.Dir(t.path), t.files, t.seed, out)
	if err != nil {
		return nil, fmt.Errorf("%s: %v\n%s", t.path, err, out.String())
	}
	for _, kv := range t.sets {
		if err := sh.SetOption(kv[0], kv[1]); err != nil {
			return nil, fmt.Errorf("%s: set %s: %v", t.path, kv[0], err)
		}
	}
	for _, d := range t.rolls {
		if err := sh.GiveRolls(d.list); err != nil {
			return nil, fmt.Errorf("%s:%d: rolls: %v", t.path, d.line, err)
		}
	}
	if t.cards != "" {
		if err := sh.GiveCards(t.cards); err != nil {
			return nil, fmt.Errorf("%s:%d: cards: %v", t.path, t.cardsLine, err)
		}
	}
	for _, d := range t.choices {
		if err := sh.GiveChoices(d.list); err != nil {
			return nil, fmt.Errorf("%s:%d: choices: %v", t.path, d.line, err)
		}
	}
	got := make([]string, len(t.cases))
	for i, tc := range t.cases {
		out.Reset()
		sh.Exec(tc.input)
		got[i] = out.String()
		if got[i] != "" && !strings.HasSuffix(got[i], "\n") {
			got[i] += "\n" // a transcript holds whole lines
		}
		if out.Over() {
			got[i] += fmt.Sprintf("(output cut: longer than a transcript may be, %d MiB)\n", dsl.MaxFileSize>>20)
		}
		if sh.Quit() {
			break
		}
	}
	return got, nil
}

// Render writes the transcript back with the given outputs, one per case (for --update):
// comments, directives and spacing stay as written.
func (t *Transcript) Render(outputs []string) string {
	var b strings.Builder
	for _, h := range t.header {
		b.WriteString(h + "\n")
	}
	for i, tc := range t.cases {
		for _, p := range tc.pre {
			b.WriteString(p + "\n")
		}
		b.WriteString(Entry(tc.input, outputs[i]))
	}
	for _, p := range t.trailer {
		b.WriteString(p + "\n")
	}
	return b.String()
}

// Diff shows the first case whose output is not got's as a unified diff, or "" when all match.
func (t *Transcript) Diff(got []string) string {
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

// Find lists the *.transcript files under the given paths (files or folders), sorted; a
// file named on its own is listed whatever its name.
func Find(paths []string) ([]string, error) {
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

// RunFile replays the transcript in the file path in sessions that open starts; with update
// it rewrites the file with the actual outputs and passes. It reports whether the transcript
// passed and, when not, why (a diff or an error), ending in a newline.
func RunFile(path string, update bool, open Opener) (bool, string) {
	src, err := dsl.OSFiles{}.ReadFile(path)
	if err != nil {
		return false, err.Error() + "\n"
	}
	t, err := Parse(path, src)
	if err != nil {
		return false, err.Error() + "\n"
	}
	got, err := t.Replay(open)
	if err != nil {
		return false, err.Error() + "\n"
	}
	if update {
		if err := sysio.WriteFile(path, []byte(t.Render(got))); err != nil {
			return false, err.Error() + "\n"
		}
		return true, ""
	}
	if d := t.Diff(got); d != "" {
		return false, d
	}
	return true, ""
}
