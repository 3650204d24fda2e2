package syntax

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text that deceives the reader: names that look alike but differ, and the bidirectional
// controls that reorder how a line displays. The tables here are a hand-written subset of
// Unicode TR39's confusables (the Cyrillic and Greek letters that look like Latin ones,
// fullwidth ASCII, the mathematical alphanumerics, the dotless i) and of the canonical
// decompositions (the accented Latin letters of French and its neighbours), so that the
// module needs no golang.org/x/text. Diacritics are kept: `défense` and `defense` are two
// names, as a French reader sees them.

// confusable maps a rune to the Latin text it looks like, with its Unicode name. It and
// decomposed are built on first use: as package variables every command built them at init.
var confusable = &Lazy[map[rune]struct{ to, name string }]{Build: func() map[rune]struct{ to, name string } {
	return map[rune]struct{ to, name string }{
		// Cyrillic.
		'А': {"A", "CYRILLIC CAPITAL LETTER A"}, 'В': {"B", "CYRILLIC CAPITAL LETTER VE"},
		'С': {"C", "CYRILLIC CAPITAL LETTER ES"}, 'Е': {"E", "CYRILLIC CAPITAL LETTER IE"},
		'Н': {"H", "CYRILLIC CAPITAL LETTER EN"}, 'І': {"I", "CYRILLIC CAPITAL LETTER BYELORUSSIAN-UKRAINIAN I"},
		'Ј': {"J", "CYRILLIC CAPITAL LETTER JE"}, 'К': {"K", "CYRILLIC CAPITAL LETTER KA"},
		'М': {"M", "CYRILLIC CAPITAL LETTER EM"}, 'О': {"O", "CYRILLIC CAPITAL LETTER O"},
		'Р': {"P", "CYRILLIC CAPITAL LETTER ER"}, 'Ѕ': {"S", "CYRILLIC CAPITAL LETTER DZE"},
		'Т': {"T", "CYRILLIC CAPITAL LETTER TE"}, 'Х': {"X", "CYRILLIC CAPITAL LETTER HA"},
		'У': {"Y", "CYRILLIC CAPITAL LETTER U"}, 'Ү': {"Y", "CYRILLIC CAPITAL LETTER STRAIGHT U"},
		'Ѵ': {"V", "CYRILLIC CAPITAL LETTER IZHITSA"}, 'Ԛ': {"Q", "CYRILLIC CAPITAL LETTER QA"},
		'Ԝ': {"W", "CYRILLIC CAPITAL LETTER WE"}, 'Ӏ': {"l", "CYRILLIC LETTER PALOCHKA"},
		'а': {"a", "CYRILLIC SMALL LETTER A"}, 'с': {"c", "CYRILLIC SMALL LETTER ES"},
		'е': {"e", "CYRILLIC SMALL LETTER IE"}, 'і': {"i", "CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I"},
		'ј': {"j", "CYRILLIC SMALL LETTER JE"}, 'о': {"o", "CYRILLIC SMALL LETTER O"},
		'р': {"p", "CYRILLIC SMALL LETTER ER"}, 'ѕ': {"s", "CYRILLIC SMALL LETTER DZE"},
		'х': {"x", "CYRILLIC SMALL LETTER HA"}, 'у': {"y", "CYRILLIC SMALL LETTER U"},
		'ү': {"y", "CYRILLIC SMALL LETTER STRAIGHT U"}, 'һ': {"h", "CYRILLIC SMALL LETTER SHHA"},
		'ԁ': {"d", "CYRILLIC SMALL LETTER KOMI DE"}, 'ԛ': {"q", "CYRILLIC SMALL LETTER QA"},
		'ԝ': {"w", "CYRILLIC SMALL LETTER WE"}, 'ѵ': {"v", "CYRILLIC SMALL LETTER IZHITSA"},
		'ӏ': {"l", "CYRILLIC SMALL LETTER PALOCHKA"}, 'ё': {"e\u0308", "CYRILLIC SMALL LETTER IO"},
		'Ё': {"E\u0308", "CYRILLIC CAPITAL LETTER IO"}, 'ї': {"i\u0308", "CYRILLIC SMALL LETTER YI"},
		// Greek.
		'Α': {"A", "GREEK CAPITAL LETTER ALPHA"}, 'Β': {"B", "GREEK CAPITAL LETTER BETA"},
		'Ε': {"E", "GREEK CAPITAL LETTER EPSILON"}, 'Ζ': {"Z", "GREEK CAPITAL LETTER ZETA"},
		'Η': {"H", "GREEK CAPITAL LETTER ETA"}, 'Ι': {"I", "GREEK CAPITAL LETTER IOTA"},
		'Κ': {"K", "GREEK CAPITAL LETTER KAPPA"}, 'Μ': {"M", "GREEK CAPITAL LETTER MU"},
		'Ν': {"N", "GREEK CAPITAL LETTER NU"}, 'Ο': {"O", "GREEK CAPITAL LETTER OMICRON"},
		'Ρ': {"P", "GREEK CAPITAL LETTER RHO"}, 'Τ': {"T", "GREEK CAPITAL LETTER TAU"},
		'Υ': {"Y", "GREEK CAPITAL LETTER UPSILON"}, 'Χ': {"X", "GREEK CAPITAL LETTER CHI"},
		'α': {"a", "GREEK SMALL LETTER ALPHA"}, 'ι': {"i", "GREEK SMALL LETTER IOTA"},
		'ν': {"v", "GREEK SMALL LETTER NU"}, 'ο': {"o", "GREEK SMALL LETTER OMICRON"},
		'ρ': {"p", "GREEK SMALL LETTER RHO"}, 'υ': {"u", "GREEK SMALL LETTER UPSILON"},
		'χ': {"x", "GREEK SMALL LETTER CHI"}, 'γ': {"y", "GREEK SMALL LETTER GAMMA"},
		'ϲ': {"c", "GREEK LUNATE SIGMA SYMBOL"}, 'ϳ': {"j", "GREEK LETTER YOT"},
		// Latin letters that pass for others.
		'ı': {"i", "LATIN SMALL LETTER DOTLESS I"}, 'ȷ': {"j", "LATIN SMALL LETTER DOTLESS J"},
	}
}}

// decomposed maps the precomposed Latin letters to their canonical decomposition (NFD), so
// that `é` typed as one character and as `e` followed by a combining acute accent are one
// skeleton. The accent stays in the skeleton.
var decomposed = &Lazy[map[rune]string]{Build: func() map[rune]string {
	return map[rune]string{
		'À': "A\u0300", 'Á': "A\u0301", 'Â': "A\u0302", 'Ã': "A\u0303", 'Ä': "A\u0308", 'Å': "A\u030A",
		'Ç': "C\u0327", 'È': "E\u0300", 'É': "E\u0301", 'Ê': "E\u0302", 'Ë': "E\u0308",
		'Ì': "I\u0300", 'Í': "I\u0301", 'Î': "I\u0302", 'Ï': "I\u0308", 'Ñ': "N\u0303",
		'Ò': "O\u0300", 'Ó': "O\u0301", 'Ô': "O\u0302", 'Õ': "O\u0303", 'Ö': "O\u0308",
		'Ù': "U\u0300", 'Ú': "U\u0301", 'Û': "U\u0302", 'Ü': "U\u0308", 'Ý': "Y\u0301",
		'à': "a\u0300", 'á': "a\u0301", 'â': "a\u0302", 'ã': "a\u0303", 'ä': "a\u0308", 'å': "a\u030A",
		'ç': "c\u0327", 'è': "e\u0300", 'é': "e\u0301", 'ê': "e\u0302", 'ë': "e\u0308",
		'ì': "i\u0300", 'í': "i\u0301", 'î': "i\u0302", 'ï': "i\u0308", 'ñ': "n\u0303",
		'ò': "o\u0300", 'ó': "o\u0301", 'ô': "o\u0302", 'õ': "o\u0303", 'ö': "o\u0308",
		'ù': "u\u0300", 'ú': "u\u0301", 'û': "u\u0302", 'ü': "u\u0308", 'ý': "y\u0301", 'ÿ': "y\u0308",
		'Ÿ': "Y\u0308",
	}
}}

// combining names the combining accents of the decompositions above. (Switches, not maps:
// a map is built at every start of the program, for every command.)
func combining(r rune) (string, bool) {
	switch r {
	case 0x0300:
		return "COMBINING GRAVE ACCENT", true
	case 0x0301:
		return "COMBINING ACUTE ACCENT", true
	case 0x0302:
		return "COMBINING CIRCUMFLEX ACCENT", true
	case 0x0303:
		return "COMBINING TILDE", true
	case 0x0308:
		return "COMBINING DIAERESIS", true
	case 0x030A:
		return "COMBINING RING ABOVE", true
	case 0x0327:
		return "COMBINING CEDILLA", true
	}
	return "", false
}

// mathStyles are the styles of the mathematical alphanumerics from U+1D400, 52 letters
// (A–Z, a–z) each; the unassigned holes among them are not letters and never reach here.
var mathStyles = []string{"BOLD", "ITALIC", "BOLD ITALIC", "SCRIPT", "BOLD SCRIPT", "FRAKTUR",
	"DOUBLE-STRUCK", "BOLD FRAKTUR", "SANS-SERIF", "SANS-SERIF BOLD", "SANS-SERIF ITALIC",
	"SANS-SERIF BOLD ITALIC", "MONOSPACE"}

// mathDigitStyles are the styles of the mathematical digits from U+1D7CE, ten each.
var mathDigitStyles = []string{"BOLD", "DOUBLE-STRUCK", "SANS-SERIF", "SANS-SERIF BOLD", "MONOSPACE"}

var digitNames = []string{"ZERO", "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE"}

// folded returns the ASCII text r is a compatibility or look-alike form of, and its name:
// fullwidth ASCII, the mathematical alphanumerics, or an entry of the table.
func folded(r rune) (to, name string, ok bool) {
	switch {
	case r >= 0xFF01 && r <= 0xFF5E:
		a := r - 0xFF01 + '!'
		name := asciiName(a)
		if unicode.IsLetter(a) {
			name = "LATIN " + strings.Replace(name, " ", " LETTER ", 1)
		}
		return string(a), "FULLWIDTH " + name, true
	case r >= 0x1D400 && r < 0x1D400+rune(52*len(mathStyles)):
		i := r - 0x1D400
		a := latinLetter(int(i % 52))
		return string(a), "MATHEMATICAL " + mathStyles[i/52] + " " + asciiName(a), true
	case r >= 0x1D7CE && r <= 0x1D7FF:
		i := r - 0x1D7CE
		return string('0' + i%10), "MATHEMATICAL " + mathDigitStyles[i/10] + " DIGIT " + digitNames[i%10], true
	}
	if c, ok := confusable.Get()[r]; ok {
		return c.to, c.name, true
	}
	return "", "", false
}

func latinLetter(i int) rune {
	if i < 26 {
		return 'A' + rune(i)
	}
	return 'a' + rune(i-26)
}

// asciiName is the Unicode name of a printable ASCII character as the fullwidth and
// mathematical names use it; punctuation, which no name holds, goes by its code.
func asciiName(a rune) string {
	switch {
	case a >= 'A' && a <= 'Z':
		return "CAPITAL " + string(a)
	case a >= 'a' && a <= 'z':
		return "SMALL " + string(a-'a'+'A')
	case a >= '0' && a <= '9':
		return "DIGIT " + digitNames[a-'0']
	}
	return fmt.Sprintf("U+%04X", a)
}

// Skeleton is the form of a name a reader cannot tell apart from others of the same
// skeleton (Unicode TR39's skeleton, on the subset of the tables above): look-alike and
// fullwidth letters become the Latin ones they pass for, and precomposed accented letters
// are decomposed, accents kept. Two names that differ but share a skeleton deceive the
// reader.
func Skeleton(name string) string {
	ascii := true
	for i := 0; i < len(name); i++ {
		if name[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return name
	}
	var b strings.Builder
	b.Grow(len(name) + 4)
	for _, r := range name {
		if r < utf8.RuneSelf {
			// The tables map no ASCII character: most letters of a French name are plain.
			b.WriteByte(byte(r))
		} else if to, _, ok := folded(r); ok {
			b.WriteString(to)
		} else if d, ok := decomposed.Get()[r]; ok {
			b.WriteString(d)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Decomposes reports whether r is a precomposed letter the skeleton decomposes (é), not a
// look-alike of another letter.
func Decomposes(r rune) bool {
	_, ok := decomposed.Get()[r]
	return ok
}

// RuneName is "U+0430 CYRILLIC SMALL LETTER A" for the runes the tables name, the code
// and the character otherwise.
func RuneName(r rune) string {
	if _, name, ok := folded(r); ok {
		return fmt.Sprintf("U+%04X %s", r, name)
	}
	if name, ok := combining(r); ok {
		return fmt.Sprintf("U+%04X %s", r, name)
	}
	if name, ok := bidiNames(r); ok {
		return fmt.Sprintf("U+%04X %s", r, name)
	}
	return fmt.Sprintf("U+%04X %q", r, r)
}

// Scripts lists, in order met, the scripts of a name's letters among those whose letters
// pass for each other (Latin, Greek, Cyrillic). A name with two of them mixes scripts;
// digits, marks and the mathematical letters (script Common) count for none.
func Scripts(name string) []string {
	var out []string
	add := func(s string) {
		for _, o := range out {
			if o == s {
				return
			}
		}
		out = append(out, s)
	}
	for _, r := range name {
		switch {
		case r < utf8.RuneSelf:
			// Of ASCII, Latin has the letters and nothing else; the search of the tables
			// was most of the time the look-alike check of a ruleset's names took.
			if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
				add("Latin")
			}
		case unicode.Is(unicode.Latin, r):
			add("Latin")
		case unicode.Is(unicode.Greek, r):
			add("Greek")
		case unicode.Is(unicode.Cyrillic, r):
			add("Cyrillic")
		}
	}
	return out
}

// bidiNames names the bidirectional controls: each can make a line display in an order
// other than the one the machine reads (the "Trojan Source" attack).
func bidiNames(r rune) (string, bool) {
	switch r {
	case 0x061C:
		return "ARABIC LETTER MARK", true
	case 0x200E:
		return "LEFT-TO-RIGHT MARK", true
	case 0x200F:
		return "RIGHT-TO-LEFT MARK", true
	case 0x202A:
		return "LEFT-TO-RIGHT EMBEDDING", true
	case 0x202B:
		return "RIGHT-TO-LEFT EMBEDDING", true
	case 0x202C:
		return "POP DIRECTIONAL FORMATTING", true
	case 0x202D:
		return "LEFT-TO-RIGHT OVERRIDE", true
	case 0x202E:
		return "RIGHT-TO-LEFT OVERRIDE", true
	case 0x2066:
		return "LEFT-TO-RIGHT ISOLATE", true
	case 0x2067:
		return "RIGHT-TO-LEFT ISOLATE", true
	case 0x2068:
		return "FIRST STRONG ISOLATE", true
	case 0x2069:
		return "POP DIRECTIONAL ISOLATE", true
	}
	return "", false
}

// IsBidiControl reports whether r is a bidirectional control character.
func IsBidiControl(r rune) bool {
	_, ok := bidiNames(r)
	return ok
}
