package dsl_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/racetest"
)

const outlineSrc = `ruleset "t"
include "autre.rules"

// Le malus de base.
option malus = 3 "chaque malus"

kind Figure {
  pv: int = 10
}

enum Allure { bon_plein, largue }

dice combat = [sabre, fusil]

// Frappe une figure.
action frapper(f: Figure, n = 1) {
  f.pv -= n
  emit "{f.pv} restants"
}
`

func TestOutline(t *testing.T) {
	syms, incs, err := dsl.Outline("t.rules", []byte(outlineSrc))
	if err != nil {
		t.Fatal(err)
	}
	if len(incs) != 1 || incs[0] != "autre.rules" {
		t.Errorf("includes = %q", incs)
	}
	var got []string
	for _, s := range syms {
		got = append(got, s.Sort+" "+s.Name+" "+s.Pos.String()+"-"+s.End.String()+" ["+s.Container+"|"+s.Type+"|"+s.Doc+"] "+strings.ReplaceAll(s.Text, "\n", "⏎"))
	}
	want := []string{
		"option malus t.rules:5:8-t.rules:5:13 [||chaque malus] option malus = 3 \"chaque malus\"",
		"kind Figure t.rules:7:6-t.rules:7:12 [||] kind Figure {⏎  pv: int = 10⏎}",
		"field pv t.rules:8:3-t.rules:8:5 [Figure|int|] pv: int = 10",
		"enum Allure t.rules:11:6-t.rules:11:12 [||] enum Allure { bon_plein, largue }",
		"value bon_plein t.rules:11:15-t.rules:11:24 [Allure||] Allure.bon_plein",
		"value largue t.rules:11:26-t.rules:11:32 [Allure||] Allure.largue",
		"dice combat t.rules:13:6-t.rules:13:12 [||] dice combat = [sabre, fusil]",
		"action frapper t.rules:16:8-t.rules:16:15 [||Frappe une figure.] action frapper(f: Figure, n = 1) {",
		"param f t.rules:16:16-t.rules:16:17 [frapper|Figure|] f: Figure",
		"param n t.rules:16:27-t.rules:16:28 [frapper||] n = 1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if syms[7].Stop.Line != 19 {
		t.Errorf("frapper ends at %v", syms[7].Stop)
	}
}

func TestNames(t *testing.T) {
	var got []string
	for _, n := range dsl.Names("t.rules", []byte(outlineSrc)) {
		if n.Pos.Line >= 17 {
			got = append(got, n.Name+"@"+n.Pos.String()[8:]+map[bool]string{true: "."}[n.AfterDot])
		}
	}
	// The template hole's names count; the keyword emit does not.
	if s := strings.Join(got, " "); s != "f@17:3 pv@17:5. n@17:11 f@18:10 pv@18:12." {
		t.Errorf("names = %s", s)
	}
}

// TestOutlineTruncated: every prefix of a shipped ruleset outlines or fails cleanly.
func TestOutlineTruncated(t *testing.T) {
	files, _ := filepath.Glob("../rulesets/*/*.rules")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// Forty cuts per file; ten under -race, where each costs ten times more.
		cuts := 40
		if racetest.Enabled {
			cuts = 10
		}
		step := max(len(src)/cuts, 1)
		for n := 0; n <= len(src); n += step {
			// A prefix's error lies within the prefix (or just past its last line).
			if _, _, d := dsl.Outline(f, src[:n]); d != nil {
				if start, _ := d.Range(); start.Line > bytes.Count(src[:n], []byte("\n"))+2 {
					t.Errorf("%s cut at %d: error at line %d: %v", f, n, start.Line, d)
				}
			}
			dsl.Names(f, src[:n])
		}
		if syms, _, d := dsl.Outline(f, src); d != nil || len(syms) == 0 {
			t.Errorf("%s: %d symbols, %v", f, len(syms), d)
		}
	}
}

// TestOutlineLinear: outlining twice as many declarations allocates about twice as much
// (it copied the rest of the file per declaration, which grows with the square). Bytes, not
// time, so the figure does not depend on the machine's load.
func TestOutlineLinear(t *testing.T) {
	doc := func(n int) []byte {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "// la %d\nconst a%d = 1\n", i, i)
		}
		return []byte(b.String())
	}
	allocated := func(src []byte) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		syms, _, err := dsl.Outline("big.rules", src)
		runtime.ReadMemStats(&after)
		if err != nil || len(syms) == 0 {
			t.Fatalf("outline: %d symbols, %v", len(syms), err)
		}
		names := dsl.Names("big.rules", src)
		if len(names) != len(syms) {
			t.Fatalf("%d names for %d symbols", len(names), len(syms))
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	small, big := allocated(doc(4000)), allocated(doc(16000))
	if big > 6*small {
		t.Errorf("4,000 declarations allocate %d bytes, 16,000 allocate %d: more than 6 times as much", small, big)
	}
}

// TestIsReserved: IsReserved says why, in the checker's terms, and agrees with it: a const
// may not take a name it refuses (a keyword, a builtin, a __ prefix), and may take one it
// accepts.
func TestIsReserved(t *testing.T) {
	for _, tc := range []struct{ name, why string }{
		{"len", "it is a builtin"},
		{"d", "it is a builtin"},
		{"roll", "it is a builtin"},
		{"sum", "it is a builtin"},
		{"count", "it is a builtin"}, // expr-lang's
		{"if", "it is a keyword"},
		{"true", "it is a keyword"},
		{"dice", "it is a keyword"},
		{"__x", "it starts with __, which is reserved"},
		{"", "it is not a name (names are letters, digits and _, starting with a letter)"},
		{"1a", "it is not a name (names are letters, digits and _, starting with a letter)"},
		{"a b", "it is not a name (names are letters, digits and _, starting with a letter)"},
		{"x.y", "it is not a name (names are letters, digits and _, starting with a letter)"},
		{"pénalité", ""},
		{"lens", ""},
	} {
		if got := dsl.IsReserved(tc.name); got != tc.why {
			t.Errorf("IsReserved(%q) = %q, want %q", tc.name, got, tc.why)
		}
		if tc.why == "" || strings.HasPrefix(tc.why, "it is not a name") {
			continue
		}
		if _, d := dsl.LoadSource("t.rules", []byte("const "+tc.name+" = 1\n")); !d.HasErrors() {
			t.Errorf("const %s loads, IsReserved refuses it", tc.name)
		}
	}
	if _, d := dsl.LoadSource("t.rules", []byte("const pénalité = 1\n")); d.HasErrors() {
		t.Errorf("const pénalité: %v", d)
	}
	for _, n := range dsl.Keywords() {
		if dsl.IsReserved(n) != "it is a keyword" {
			t.Errorf("keyword %s: %q", n, dsl.IsReserved(n))
		}
	}
}
