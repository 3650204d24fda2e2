package syntax

import (
	"reflect"
	"strings"
	"testing"
)

// TestHandReaderScansAsItReads: the hand reader takes a file's tokens from its scan as it
// reads them, one declaration's window at a time, and still answers as a scan of the whole
// file first did: a nesting problem anywhere is the file's error (even after a declaration
// the hand reader gives up on), a character the language does not use sends the whole file
// to the grammar, and a declaration longer than the window's first room reads as the
// grammar reads it.
func TestHandReaderScansAsItReads(t *testing.T) {
	good := "action a(x) {\n  let y = x + 1\n  emit \"{y}\"\n}\n\nrule r(): int { return 2 }\n"
	deep := "const c = " + strings.Repeat("(", MaxNesting+1) + "1" + strings.Repeat(")", MaxNesting+1) + "\n"
	var long strings.Builder
	long.WriteString("action long() {\n")
	for i := range 400 {
		long.WriteString("  let v" + strings.Repeat("x", i%7) + " = (1 + 2) * 3 - 4\n")
	}
	long.WriteString("}\n")
	cases := []struct {
		name, src string
		want      string // the error's summary, "" for none
	}{
		{"nesting at the end", good + deep, "nesting deeper than the limit of 64"},
		{"nesting after a declaration the grammar refuses", good + "action b( {\n}\n" + deep, "nesting deeper than the limit of 64"},
		{"nesting after a stray character", good + "const s = 1 § 2\n" + deep, "nesting deeper than the limit of 64"},
		{"an open string after good declarations", good + "const s = \"open\n", "*"},
		{"a stray character after good declarations", good + "const s = 1 § 2\n", "*"},
		{"a declaration the grammar refuses", good + "action b( {\n}\n" + good, "*"},
		{"a long declaration between two", good + long.String() + good, ""},
	}
	for _, c := range cases {
		hand, grammar, hd, gd := parseBoth("f.rules", []byte(c.src))
		if !reflect.DeepEqual(hd, gd) || !reflect.DeepEqual(hand, grammar) {
			t.Errorf("%s: the hand reader gives %v, the grammar %v", c.name, hd, gd)
			continue
		}
		switch {
		case c.want == "" && hd != nil:
			t.Errorf("%s: %v", c.name, hd)
		case c.want == "*" && hd == nil, c.want != "" && c.want != "*" && (hd == nil || hd.Summary != c.want):
			t.Errorf("%s: got %v, want %q", c.name, hd, c.want)
		}
	}
}
