package syntax

import "testing"

// TestSkeleton: look-alike and fullwidth letters fold to the Latin ones they pass for, an
// accented letter typed as one character or as a letter and a combining accent is one
// skeleton, and accents are never stripped.
func TestSkeleton(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"parry", "p\u0430rry", true},      // Cyrillic а
		{"PARRY", "\u0420\u0410RRY", true}, // Cyrillic Р, А
		{"obole", "\u03bfbole", true},      // Greek ο
		{"KO", "\u039a\u039f", true},       // Greek Κ, Ο
		{"parry", "\uff50\uff41rry", true}, // fullwidth ｐ, ａ
		{"x1", "\U0001d431\U0001d7cf", true},
		{"lien", "\U0001d695\U0001d48a\U0001d41e\U0001d427", true}, // monospace l, bold italic i, bold e, bold n
		{"fil", "f\u0131l", true},                                  // dotless ı
		{"d\u00e9fense", "de\u0301fense", true},
		{"\u00c9lan", "E\u0301lan", true},
		{"d\u00e9fense", "defense", false},
		{"\u00e9l\u00e8ve", "eleve", false},
		{"\u00eatre", "etre", false},
		{"\u00e0", "a", false},
		{"gar\u00e7on", "garcon", false},
		{"c\u0153ur", "coeur", false},
		{"\u00c9lan", "Elan", false},
		{"Parry", "parry", false}, // case is no look-alike
		{"\u0441\u0438\u043b\u0430", "cnna", false},
	} {
		if got := Skeleton(c.a) == Skeleton(c.b); got != c.same {
			t.Errorf("Skeleton(%q) = %q, Skeleton(%q) = %q: same %v, want %v", c.a, Skeleton(c.a), c.b, Skeleton(c.b), got, c.same)
		}
	}
}

// TestRuneName: the names of the runes the tables know are Unicode's own.
func TestRuneName(t *testing.T) {
	for r, want := range map[rune]string{
		'\u0430':     "U+0430 CYRILLIC SMALL LETTER A",
		'\uff21':     "U+FF21 FULLWIDTH LATIN CAPITAL LETTER A",
		'\uff5a':     "U+FF5A FULLWIDTH LATIN SMALL LETTER Z",
		'\uff10':     "U+FF10 FULLWIDTH DIGIT ZERO",
		'\U0001d400': "U+1D400 MATHEMATICAL BOLD CAPITAL A",
		'\U0001d6a3': "U+1D6A3 MATHEMATICAL MONOSPACE SMALL Z",
		'\U0001d7ff': "U+1D7FF MATHEMATICAL MONOSPACE DIGIT NINE",
		'\u0301':     "U+0301 COMBINING ACUTE ACCENT",
		'\u202e':     "U+202E RIGHT-TO-LEFT OVERRIDE",
		'\u00e9':     "U+00E9 'é'",
	} {
		if got := RuneName(r); got != want {
			t.Errorf("RuneName(%U) = %q, want %q", r, got, want)
		}
	}
}

// TestScripts: Latin, Greek and Cyrillic letters count; French accents are Latin, digits
// and mathematical letters none.
func TestScripts(t *testing.T) {
	for name, want := range map[string]int{
		"d\u00e9fense": 1, "c\u0153ur_2": 1, "p\u0430rry": 2, "\u03b1\u0431c": 3, "\U0001d431x": 1, "_1": 0,
	} {
		if got := len(Scripts(name)); got != want {
			t.Errorf("Scripts(%q) = %v, want %d scripts", name, Scripts(name), want)
		}
	}
}
