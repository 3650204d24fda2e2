package check

import (
	"strings"
	"testing"
)

// TestContainsBidi: containsBidi finds what strings.ContainsAny finds, whatever the bytes
// around (invalid UTF-8, a lead byte cut short, look-alike neighbours).
func TestContainsBidi(t *testing.T) {
	var cases []string
	for _, r := range bidiRunes {
		cases = append(cases, string(r), "x"+string(r)+"y", "é"+string(r))
	}
	cases = append(cases, "", "plain", "\xE2", "\xE2\x80", "\xD8", "\xD8\x9D", "\u2065", "\u202F", "\u2028", "\u061B",
		"\xE2\u202E", "\xD8\u061C", "\xff\xfe\u2066", "\xE2\x80\xAE"[:2]+"\u2069", "a\uFFFDb")
	for _, s := range cases {
		if got, want := containsBidi(s), strings.ContainsAny(s, bidiRunes); got != want {
			t.Errorf("containsBidi(%q) = %v, ContainsAny says %v", s, got, want)
		}
	}
}
