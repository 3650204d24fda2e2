package transcript

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fake is a Session that knows a few inputs: `say TEXT` prints TEXT with `\n` as line
// breaks (no final newline added), `big N` prints N bytes, `state` prints what the directives
// gave, `quit` leaves; anything else is echoed.
type fake struct {
	out     io.Writer
	dir     string
	files   []string
	seed    uint64
	sets    []string
	rolls   []string
	cards   string
	choices []string
	quit    bool
}

func (f *fake) SetOption(name, value string) error {
	if name == "bad" {
		return errors.New("no option bad")
	}
	f.sets = append(f.sets, name+"="+value)
	return nil
}

func (f *fake) GiveRolls(list string) error {
	if strings.Contains(list, "0") {
		return errors.New("hand-given result 0 fits no die")
	}
	f.rolls = append(f.rolls, strings.Fields(list)...)
	return nil
}

func (f *fake) GiveCards(list string) error {
	if strings.Contains(list, "Z") {
		return errors.New(`"Z♣": no rank "Z"`)
	}
	f.cards = list
	return nil
}

func (f *fake) GiveChoices(list string) error {
	if strings.Contains(list, "0") {
		return errors.New("answer 0 fits no menu")
	}
	f.choices = append(f.choices, list)
	return nil
}

func (f *fake) Exec(input string) {
	cmd, arg, _ := strings.Cut(input, " ")
	switch cmd {
	case "say":
		fmt.Fprint(f.out, strings.ReplaceAll(arg, `\n`, "\n"))
	case "big":
		n, _ := strconv.Atoi(arg)
		fmt.Fprint(f.out, strings.Repeat("x", n))
	case "state":
		fmt.Fprintf(f.out, "dir %s files %v seed %d sets %v rolls %v cards %q choices %q\n", f.dir, f.files, f.seed, f.sets, f.rolls, f.cards, f.choices)
	case "quit":
		f.quit = true
	default:
		fmt.Fprintln(f.out, input)
	}
}

func (f *fake) Quit() bool { return f.quit }

func openFake(dir string, files []string, seed uint64, out io.Writer) (Session, error) {
	for _, f := range files {
		if f == "broken.rules" {
			fmt.Fprintln(out, "broken.rules:1:1: unexpected }")
			return nil, errors.New("rule files have errors")
		}
	}
	return &fake{out: out, dir: dir, files: files, seed: seed}, nil
}

func replay(t *testing.T, src string) (*Transcript, []string, error) {
	t.Helper()
	tr, err := Parse("d/x.transcript", []byte(src))
	if err != nil {
		return nil, nil, err
	}
	got, err := tr.Replay(openFake)
	return tr, got, err
}

// TestReplay: directives reach the session, outputs are split per input, whole lines, and a
// quit stops the replay.
func TestReplay(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"default seed", "> state\n", []string{`dir d files [] seed 1 sets [] rolls [] cards "" choices []` + "\n"}},
		{"directives", "# a comment\nseed 42\nload a.rules\nload b.rules\nset malus 3\nset nom le grand\nrolls 7 3\nrolls 5\ncards Q♣ 7♠\nchoices 2 colline\nchoices 1\n\n> state\n",
			[]string{`dir d files [a.rules b.rules] seed 42 sets [malus=3 nom=le grand] rolls [7 3 5] cards "Q♣ 7♠" choices ["2 colline" "1"]` + "\n"}},
		{"whole lines", "> say a\n> say \n> say b\\nc\\n\n", []string{"a\n", "", "b\nc\n"}},
		{"continuations", "> f(1,\n... 2)\n", []string{"f(1,\n2)\n"}},
		{"quit", "> 1\n> quit\n> 2\n", []string{"1\n", "", ""}},
		{"bare prompt", ">\n", []string{"\n"}},
	}
	for _, tt := range tests {
		_, got, err := replay(t, tt.src)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tt.want) {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestReplayErrors: bad directives, a session that cannot start, and options or cards it
// refuses are errors naming the transcript (and the line, when there is one).
func TestReplayErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"seed x\n> 1\n", "d/x.transcript:1: seed needs a whole number"},
		{"load\n> 1\n", "d/x.transcript:1: load FILE"},
		{"load a b\n> 1\n", "d/x.transcript:1: load FILE"},
		{"set malus\n> 1\n", "d/x.transcript:1: set NAME VALUE"},
		{"rolls 3 x.5\n> 1\n", `d/x.transcript:1: rolls: bad die result "x.5": give numbers or face names`},
		{"rolls\n> 1\n", "d/x.transcript:1: rolls: no result given"},
		{"cards\n> 1\n", "d/x.transcript:1: cards needs at least one card (cards Q♣ 7♠)"},
		{"cards Q♣\ncards 7♠\n> 1\n", "d/x.transcript:2: a second cards directive (give every card on one line)"},
		{"seed 1\nrules x\n> 1\n", `d/x.transcript:2: unknown directive "rules" (seed, load, set, rolls, cards, choices; inputs start with "> ")`},
		{"choices\n> 1\n", "d/x.transcript:1: choices needs at least one answer (choices 2 colline)"},
		{"", `d/x.transcript: no input: a transcript needs at least one line starting with "> "`},
		{"# only a comment\nseed 2\n", `d/x.transcript: no input: a transcript needs at least one line starting with "> "`},
		{"load broken.rules\n> 1\n", "d/x.transcript: rule files have errors\nbroken.rules:1:1: unexpected }\n"},
		{"set bad 1\n> 1\n", "d/x.transcript: set bad: no option bad"},
		{"seed 1\n\ncards Z♣\n> 1\n", `d/x.transcript:3: cards: "Z♣": no rank "Z"`},
		// Results and answers the session refuses are named by their directive's line.
		{"rolls 7\nrolls 3 0\n> 1\n", "d/x.transcript:2: rolls: hand-given result 0 fits no die"},
		{"choices 2\n# c\nchoices 0\n> 1\n", "d/x.transcript:3: choices: answer 0 fits no menu"},
	}
	for _, tt := range tests {
		_, _, err := replay(t, tt.src)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%q: %v, want %q", tt.src, err, tt.want)
		}
	}
	if _, err := Parse("x", nil); !errors.Is(err, ErrNoInput) {
		t.Errorf("an empty transcript: %v, want ErrNoInput", err)
	}
}

// TestDiff: the first mismatching case is shown as a unified diff; trailing comments and
// blank lines are not expected output, an escaped one is.
func TestDiff(t *testing.T) {
	tests := []struct{ src, want string }{
		{"> 1 + 1\n3\n> 2 + 2\n5\n", "--- d/x.transcript (expected)\n+++ d/x.transcript (actual)\n@@ > 1 + 1 @@\n+1 + 1\n-3\n"},
		{"> a\na\n# the end\n\n", ""},
		{"> a\na\n\\# not a comment\n", "@@ > a @@\n a\n-# not a comment\n"},
		{"> say a\\nb\\nc\na\nc\n", "@@ > say a\\nb\\nc @@\n a\n+b\n c\n"},
		{"> a\na\n> f(x,\n... y)\nf(x,\ny\n", "@@ > f(x, @@\n f(x,\n+y)\n-y\n"},
		// A byte order mark and Windows line ends are not part of the text.
		{"\ufeffseed 1\r\n> a\r\na\r\n", ""},
	}
	for _, tt := range tests {
		tr, got, err := replay(t, tt.src)
		if err != nil {
			t.Fatal(err)
		}
		if d := tr.Diff(got); !strings.Contains(d, tt.want) || (tt.want == "") != (d == "") {
			t.Errorf("%q: diff\n%s\nwant\n%s", tt.src, d, tt.want)
		}
	}
}

func TestUnifiedLines(t *testing.T) {
	tests := []struct {
		a, b, want []string
	}{
		{[]string{"a", "b", "c"}, []string{"a", "c"}, []string{" a", "-b", " c"}},
		{[]string{"a"}, []string{"b", "a"}, []string{"+b", " a"}},
		{nil, []string{"x"}, []string{"+x"}},
		{[]string{"x"}, nil, []string{"-x"}},
	}
	for _, tt := range tests {
		if got := unifiedLines(tt.a, tt.b); strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("unifiedLines(%q, %q) = %q, want %q", tt.a, tt.b, got, tt.want)
		}
	}
	// Past four million cells, every line is shown as removed then added: no quadratic table.
	big := make([]string, 2001)
	for i := range big {
		big[i] = strconv.Itoa(i)
	}
	got := unifiedLines(big, big)
	if len(got) != 2*len(big) || got[0] != "-0" || got[len(big)] != "+0" {
		t.Errorf("large diff: %d lines, starting %q", len(got), got[:2])
	}
}

// TestEscapeRoundTrip: outputs that read as inputs, continuations, escapes, comments or
// blank lines at the end are written with a "\" and read back as they were; Render keeps
// comments and spacing, and a second rendering changes nothing.
func TestEscapeRoundTrip(t *testing.T) {
	out := `> pas une entrée\n>\n... ni une suite\n\ une barre\n\nmilieu\n# pas un commentaire\n\n`
	src := "# en-tête\nload r.rules\n> say " + out + "\n\n# avant la suite\n> say " + out + "\n# à la fin\n"
	tr, got, err := replay(t, src)
	if err != nil {
		t.Fatal(err)
	}
	esc := "\\> pas une entrée\n\\>\n\\... ni une suite\n\\\\ une barre\n\nmilieu\n\\# pas un commentaire\n\\\n"
	want := "# en-tête\nload r.rules\n> say " + out + "\n" + esc + "\n# avant la suite\n> say " + out + "\n" + esc + "# à la fin\n"
	rendered := tr.Render(got)
	if rendered != want {
		t.Errorf("Render:\n%s\nwant:\n%s", rendered, want)
	}
	tr2, got2, err := replay(t, rendered)
	if err != nil {
		t.Fatal(err)
	}
	if d := tr2.Diff(got2); d != "" {
		t.Errorf("the rendered transcript does not replay:\n%s", d)
	}
	if again := tr2.Render(got2); again != rendered {
		t.Errorf("a second rendering changed the text:\n%s", again)
	}
	if Entry("a", "") != "> a\n" || escapeOutput("") != "" {
		t.Errorf("an input without output: %q", Entry("a", ""))
	}
}

// TestReplayBoundsOutput: replay keeps no more actual output than a transcript can hold, and
// says where it cut.
func TestReplayBoundsOutput(t *testing.T) {
	_, got, err := replay(t, "> big 9000000\n> say small\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(got[0]) > 200 || got[0] != "(output cut: longer than a transcript may be, 8 MiB)\n" {
		t.Errorf("%d bytes: %.100q", len(got[0]), got[0])
	}
	if got[1] != "small\n" {
		t.Errorf("the next input's output: %q", got[1])
	}
}

func TestCapture(t *testing.T) {
	c := &Capture{Limit: 10}
	for _, s := range []string{"abcd", "efghijkl", "mn"} {
		if n, err := c.Write([]byte(s)); n != len(s) || err != nil {
			t.Errorf("Write(%q) = %d, %v", s, n, err)
		}
	}
	// Once cut, later small writes are dropped too, so what is kept is the start, whole.
	if c.String() != "abcd" || c.Len() != 4 || !c.Over() {
		t.Errorf("kept %q (over %v), want \"abcd\" and over", c.String(), c.Over())
	}
	c.Reset()
	c.Write([]byte("0123456789"))
	if c.String() != "0123456789" || c.Over() {
		t.Errorf("after Reset: %q, over %v", c.String(), c.Over())
	}
}

func TestFind(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"b/z.transcript", "a.transcript", "b/notes.txt", "c/d/e.transcript", "solo.txt"} {
		p = filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Find([]string{filepath.Join(dir, "solo.txt"), dir})
	if err != nil {
		t.Fatal(err)
	}
	var rel []string
	for _, g := range got {
		r, _ := filepath.Rel(dir, g)
		rel = append(rel, filepath.ToSlash(r))
	}
	if want := "a.transcript b/z.transcript c/d/e.transcript solo.txt"; strings.Join(rel, " ") != want {
		t.Errorf("Find: %v, want %s", rel, want)
	}
	if _, err := Find([]string{filepath.Join(dir, "missing")}); err == nil {
		t.Error("a missing path is no error")
	}
}

// TestRunFile: a passing file, a failing one with its diff, --update rewriting it, and the
// files that cannot be read or parsed.
func TestRunFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.transcript", "> a\na\n")
	bad := write("bad.transcript", "seed 3\n> a\nb\n")
	broken := write("broken.transcript", "load broken.rules\n> a\n")
	empty := write("empty.transcript", "")
	if ok, msg := RunFile(good, false, openFake); !ok || msg != "" {
		t.Errorf("good: %v %q", ok, msg)
	}
	if ok, msg := RunFile(bad, false, openFake); ok || !strings.HasSuffix(msg, "@@ > a @@\n+a\n-b\n") {
		t.Errorf("bad: %v %q", ok, msg)
	}
	if ok, msg := RunFile(bad, true, openFake); !ok || msg != "" {
		t.Errorf("bad --update: %v %q", ok, msg)
	}
	if b, _ := os.ReadFile(bad); string(b) != "seed 3\n> a\na\n" {
		t.Errorf("updated to %q", b)
	}
	for _, p := range []string{broken, empty, filepath.Join(dir, "missing.transcript")} {
		if ok, msg := RunFile(p, false, openFake); ok || !strings.HasSuffix(msg, "\n") || !strings.Contains(msg, filepath.Base(p)) {
			t.Errorf("%s: %v %q", p, ok, msg)
		}
	}
	// --update into a folder that refuses the write fails and says why.
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(ro, "t.transcript")
	if err := os.WriteFile(p, []byte("> a\nb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(ro, 0o755)
	if os.Geteuid() != 0 {
		if ok, msg := RunFile(p, true, openFake); ok || msg == "" {
			t.Errorf("update in a read-only folder: %v %q", ok, msg)
		}
	}
}
