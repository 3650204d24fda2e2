package check

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"

	"rulesh/dsl/internal/syntax"
)

// deceivingText warns of text that reads other than it runs, in every file of the load in
// load order: a name that looks like another one but differs (Unicode TR39's skeletons, see
// syntax.Skeleton), a name mixing Latin, Greek or Cyrillic letters, and the bidirectional
// controls in strings and comments ("Trojan Source"; outside them they do not scan). It
// reads the tokens of the one scanner, so every name is seen, declared or used, keywords
// and fields included; each spelling is judged where it is first met.
func (c *Compiler) deceivingText(files []syntax.ParsedFile) {
	// Sized for the spellings: the largest shipped ruleset names each about nine times
	// (362 spellings for 3,385 names); grown from empty, the maps rehashed six times.
	hint := 0
	for _, f := range files {
		hint += len(f.Names) / 8
	}
	first := make(map[string]lexer.Position, hint) // spelling -> where first met
	bySkeleton := make(map[string]string, hint)    // skeleton -> first spelling
	// Spellings met, by their length and end bytes, asked before first: a comparison of two
	// strings costs less than the map's hash and probe (3,375 names were 1.2% of a check).
	var met [512]string
	for _, f := range files {
		src := f.Text
		if src == "" {
			src = string(c.prog.Sources[f.Name])
		}
		name := func(v string, p lexer.Position) {
			// v[0]: a name is never empty.
			h := (uint(len(v))*37 + uint(v[0])*7 + uint(v[len(v)-1])) % uint(len(met))
			if met[h] == v {
				return
			}
			met[h] = v
			if _, ok := first[v]; ok {
				return
			}
			p.Filename = f.Name
			first[v] = p
			c.lookAlike(v, p, bySkeleton, first)
		}
		if f.Names != nil {
			// The names the parser's scan of the file met, not a second scan.
			for _, n := range f.Names {
				name(src[n.Offset:n.Offset+n.Len], lexer.Position{Offset: int(n.Offset), Line: int(n.Line), Column: int(n.Column)})
			}
		} else {
			syntax.Scan(src, func(t lexer.Token) bool {
				if t.Type == syntax.TokIdent {
					name(t.Value, t.Pos)
				}
				return true
			})
		}
		if containsBidi(src) {
			c.bidiControls(f.Name, src, stringSpans(src))
		}
	}
}

// stringSpans returns the byte spans of the strings of src (and of the strings left open),
// in order.
func stringSpans(src string) [][2]int {
	var strs [][2]int
	syntax.Scan(src, func(t lexer.Token) bool {
		if t.Type == syntax.TokString || t.Type == syntax.TokBad {
			strs = append(strs, [2]int{t.Pos.Offset, t.Pos.Offset + len(t.Value)})
		}
		return true
	})
	return strs
}

// lookAlike warns when name, met for the first time at p, shares its skeleton with another
// spelling met before, or else mixes scripts.
func (c *Compiler) lookAlike(name string, p lexer.Position, bySkeleton map[string]string, first map[string]lexer.Position) {
	sk := syntax.Skeleton(name)
	prev, ok := bySkeleton[sk]
	if !ok {
		bySkeleton[sk] = name
		if scripts := syntax.Scripts(name); len(scripts) > 1 {
			c.warnf(p, fmt.Sprintf("name %s mixes %s letters: %s", name, strings.Join(scripts, " and "), strings.Join(oddRunes(name, scripts), ", ")), "")
		}
		return
	}
	// The first spelling's position is its name's own; "declared" when that is where a
	// global is declared (a declaration starts on the line of its name).
	at := syntax.PosOf(first[prev])
	where := "first seen at " + at.String()
	if g, ok := c.prog.Globals[prev]; ok {
		if d := g.DeclPos(); d.File == at.File && d.Line == at.Line {
			where = "declared at " + at.String()
		} else {
			where = "declared at " + d.String()
		}
	}
	c.warnf(p, fmt.Sprintf("name %s looks like %s (%s) but differs: %s", name, prev, where, strings.Join(differing(name, prev), ", ")), "")
}

// differing names the runes that tell the two spellings apart: the look-alike letters of
// either that the other lacks, or else (an accent typed apart) the runes of name that
// other lacks.
func differing(name, other string) []string {
	var odd, plain []string
	seen := map[rune]bool{}
	for i, pair := range [][2]string{{name, other}, {other, name}} {
		for _, r := range pair[0] {
			if strings.ContainsRune(pair[1], r) || seen[r] {
				continue
			}
			seen[r] = true
			if syntax.Skeleton(string(r)) != string(r) && !syntax.Decomposes(r) {
				odd = append(odd, syntax.RuneName(r))
			} else if i == 0 {
				plain = append(plain, syntax.RuneName(r))
			}
		}
	}
	if len(odd) > 0 {
		return odd
	}
	return plain
}

// oddRunes names the letters of name outside its main script: Latin when it is among
// scripts (the rule files' own), else the first met.
func oddRunes(name string, scripts []string) []string {
	main := scripts[0]
	for _, s := range scripts {
		if s == "Latin" {
			main = s
		}
	}
	var out []string
	seen := map[rune]bool{}
	for _, r := range name {
		if s := syntax.Scripts(string(r)); len(s) == 1 && s[0] != main && !seen[r] {
			seen[r] = true
			out = append(out, syntax.RuneName(r))
		}
	}
	return out
}

// bidiControls warns of every bidirectional control in src, at its exact position; strs are
// the byte spans of its strings, so the warning says whether it is in a string or a comment.
func (c *Compiler) bidiControls(file, src string, strs [][2]int) {
	p := lexer.Position{Filename: file, Line: 1, Column: 1}
	for i, r := range src {
		if syntax.IsBidiControl(r) {
			where := "a comment"
			for _, s := range strs {
				if i >= s[0] && i < s[1] {
					where = "a string"
					break
				}
			}
			at := p
			at.Advance(src[p.Offset:i])
			c.warnf(at, fmt.Sprintf("bidirectional control %s in %s: the line may display in another order than it reads", syntax.RuneName(r), where), "")
			p = at
			p.Advance(src[i : i+utf8.RuneLen(r)])
		}
	}
}

// bidiRunes are the bidirectional controls looked for.
const bidiRunes = "\u061C\u200E\u200F\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069"

// containsBidi is strings.ContainsAny(src, bidiRunes) without decoding every rune of a
// whole file (ContainsAny with runes beyond ASCII looks each one up: 4% of checking the
// largest ruleset). Each of those runes is encoded starting with the byte 0xD8 (U+061C) or
// 0xE2 (the others), which never continues another rune: only the runes starting with one
// are decoded, found by IndexByte (a byte-by-byte loop over the file was 1% of the check).
func containsBidi(src string) bool {
	for _, lead := range [...]byte{0xD8, 0xE2} {
		for s := src; ; {
			i := strings.IndexByte(s, lead)
			if i < 0 {
				break
			}
			if r, _ := utf8.DecodeRuneInString(s[i:]); strings.ContainsRune(bidiRunes, r) {
				return true
			}
			s = s[i+1:]
		}
	}
	return false
}
