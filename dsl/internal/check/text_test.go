package check_test

import (
	"testing"
)

// TestLookAlikeNames: a name that looks like one met before but differs is warned of where
// its own spelling is first met, naming the first and the letters that differ; accented
// letters are letters of their own, so défense and defense are two plain names.
func TestLookAlikeNames(t *testing.T) {
	checkSummaries(t, []struct{ src, want string }{
		{"const parry = 1\nconst p\u0430rry = 2\n",
			"t.rules:2:7: name p\u0430rry looks like parry (declared at t.rules:1:7) but differs: U+0430 CYRILLIC SMALL LETTER A"},
		// A use counts as much as a declaration, and the look-alike letter may be in the
		// first spelling.
		{"const p\u0430rry = 1\nrule f(parry) {\n  return parry\n}\n",
			"t.rules:1:7: name p\u0430rry mixes Latin and Cyrillic letters: U+0430 CYRILLIC SMALL LETTER A\n" +
				"t.rules:2:8: name parry looks like p\u0430rry (declared at t.rules:1:7) but differs: U+0430 CYRILLIC SMALL LETTER A"},
		{"const \uff50arry = 1\nconst parry = 2\n",
			"t.rules:2:7: name parry looks like \uff50arry (declared at t.rules:1:7) but differs: U+FF50 FULLWIDTH LATIN SMALL LETTER P"},
		{"const obole = 1\nrule f(\u03bfbole) {\n  return \u03bfbole\n}\n",
			"t.rules:2:8: name \u03bfbole looks like obole (declared at t.rules:1:7) but differs: U+03BF GREEK SMALL LETTER OMICRON"},
		{"const x = 1\nconst \U0001d431 = 2\n",
			"t.rules:2:7: name \U0001d431 looks like x (declared at t.rules:1:7) but differs: U+1D431 MATHEMATICAL BOLD SMALL X"},
		// A keyword can be imitated too; it is no global, so its first place is given.
		{"const \u0430nd = 1\n", "t.rules:1:7: name \u0430nd mixes Cyrillic and Latin letters: U+0430 CYRILLIC SMALL LETTER A"},
		{"rule f(x) {\n  return x and true\n}\nconst \u0430nd = 1\n",
			"t.rules:4:7: name \u0430nd looks like and (first seen at t.rules:2:12) but differs: U+0430 CYRILLIC SMALL LETTER A"},
		// French accents are plain letters: no look-alike, no mixed script.
		{"const d\u00e9fense = 1\nconst defense = 2\nconst \u00e9l\u00e8ve = 3\nconst eleve = 4\nconst \u00eatre = 5\nconst etre = 6\n" +
			"const \u00e0 = 7\nconst a = 8\nconst gar\u00e7on = 9\nconst garcon = 10\nconst c\u0153ur = 11\nconst coeur = 12\nconst \u00c9lan = 13\nconst Elan = 14\n", ""},
		// A name alone in its script, or a non-confusable one, is fine.
		{"const \u0441\u0438\u043b\u0430 = 1\nconst \u03b2\u03ad\u03bb\u03bf\u03c2 = 2\n", ""},
	})
}

// TestMixedScriptNames: a name mixing Latin, Greek or Cyrillic letters is warned of once,
// naming the letters outside Latin.
func TestMixedScriptNames(t *testing.T) {
	checkSummaries(t, []struct{ src, want string }{
		{"const tr\u043e\u043fhy = 1\nrule f() {\n  return tr\u043e\u043fhy\n}\n",
			"t.rules:1:7: name tr\u043e\u043fhy mixes Latin and Cyrillic letters: U+043E CYRILLIC SMALL LETTER O, U+043F '\u043f'"},
		{"const \u03b1\u0431 = 1\n", "t.rules:1:7: name \u03b1\u0431 mixes Greek and Cyrillic letters: U+0431 '\u0431'"},
	})
}

// TestBidiControls: a bidirectional control in a string or a comment is warned of at its
// exact line and column (in characters), each one; elsewhere it does not scan.
func TestBidiControls(t *testing.T) {
	checkSummaries(t, []struct{ src, want string }{
		{"const s = \"\u00e9t\u00e9 \u202eabc\u202c\" // ok \u2067x\u2069\nconst t = \"\u200f\"\n",
			"t.rules:1:16: bidirectional control U+202E RIGHT-TO-LEFT OVERRIDE in a string: the line may display in another order than it reads\n" +
				"t.rules:1:20: bidirectional control U+202C POP DIRECTIONAL FORMATTING in a string: the line may display in another order than it reads\n" +
				"t.rules:1:29: bidirectional control U+2067 RIGHT-TO-LEFT ISOLATE in a comment: the line may display in another order than it reads\n" +
				"t.rules:1:31: bidirectional control U+2069 POP DIRECTIONAL ISOLATE in a comment: the line may display in another order than it reads\n" +
				"t.rules:2:12: bidirectional control U+200F RIGHT-TO-LEFT MARK in a string: the line may display in another order than it reads"},
		{"// \u061c\nconst s = 1\n", "t.rules:1:4: bidirectional control U+061C ARABIC LETTER MARK in a comment: the line may display in another order than it reads"},
		// In a name, or anywhere else outside strings and comments, it is an error naming it.
		{"const a\u202eb = 1\n", "t.rules:1:8: unexpected bidirectional control U+202E RIGHT-TO-LEFT OVERRIDE: it can make a line display in another order than it reads"},
	})
}
