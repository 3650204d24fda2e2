package syntax

import (
	"reflect"
	"strings"
	"testing"
)

// parseBoth parses src with the hand reader of procedures and with the grammar alone.
func parseBoth(name string, src []byte) (hand, grammar *File, hd, gd *Diagnostic) {
	hand, hd = Parse(name, src)
	handDecls = false
	defer func() { handDecls = true }()
	grammar, gd = Parse(name, src)
	return
}

// TestHandReaderMatchesGrammar: the hand reader of declarations gives the grammar's tree, and
// the same error where a file does not parse, on every rule file of the repository and on
// each of them with a line removed or cut short (the shapes an editor sees while typing).
func TestHandReaderMatchesGrammar(t *testing.T) {
	files := repoRuleFiles(t)
	if len(files) < 20 {
		t.Fatalf("only %d rule files found", len(files))
	}
	procs, variants := 0, 0
	compare := func(name string, src []byte) {
		t.Helper()
		variants++
		hand, grammar, hd, gd := parseBoth(name, src)
		if !reflect.DeepEqual(hd, gd) {
			t.Fatalf("%s: hand reader's error %v, the grammar's %v", name, hd, gd)
		}
		if !reflect.DeepEqual(hand, grammar) {
			if hand != nil && grammar != nil && len(hand.Decls) == len(grammar.Decls) {
				for i := range hand.Decls {
					if !reflect.DeepEqual(hand.Decls[i], grammar.Decls[i]) {
						t.Fatalf("%s: declaration %d at %v differs from the grammar's", name, i, grammar.Decls[i].Pos)
					}
				}
			}
			t.Fatalf("%s: the trees differ", name)
		}
		if hand != nil {
			for _, d := range hand.Decls {
				if d.Proc != nil {
					procs++
				}
			}
		}
	}
	for name, src := range files {
		before := handFallbacks.Load()
		compare(name, src)
		if _, d := Parse(name, src); d == nil && handFallbacks.Load() != before {
			t.Errorf("%s parses, but the hand reader left %d declarations to the grammar", name, handFallbacks.Load()-before)
		}
		if testing.Short() {
			continue
		}
		lines := strings.SplitAfter(string(src), "\n")
		// Lines removed, and lines cut in their middle, here and there.
		for i := 0; i < len(lines); i += 31 {
			compare(name, []byte(strings.Join(lines[:i], "")+strings.Join(lines[i+1:], "")))
		}
		for i := 3; i < len(lines); i += 37 {
			l := lines[i]
			compare(name, []byte(strings.Join(lines[:i], "")+l[:len(l)/2]+"\n"+strings.Join(lines[i+1:], "")))
		}
	}
	if procs < 400 {
		t.Fatalf("only %d procedures compared", procs)
	}
	t.Logf("%d files, %d variants, %d procedures", len(files), variants, procs)
}

// handShapes are each statement, parameter and declaration form the hand reader reads, and
// forms the grammar refuses.
var handShapes = []string{
	"action a() {}\n",
	"rule r(x, y: int = 2, z: []int, m: map[string]int): bool { return x }\n",
	"action a(\n  x: int,\n  y\n) {\n}\n",
	"action a(\n) {}\n",
	// The grammar reads the second declaration, the hand reader those around it.
	"const a = 1\naction b(\n) {}\nconst c = 2\ntable t {\n  1 : 2\n}\n",
	"const a = 1\naction b(\n) {}\nconst = 2\n",
	"action a(x,) {}\n",
	"action a(x: ) {}\n",
	"action a() {\n  let x: map[P][]int = {}\n  x[\"a\"] += [1]\n  f(x)\n}\n",
	"action a() {\n  if x { return } else if y { break } else { continue }\n}\n",
	"action a() {\n  if x { return }\n  else { }\n}\n",
	"action a() {\n  for k, v in m { emit \"{k}\" }\n  while n < 3 { n += 1 }\n}\n",
	"action a() {\n  require x > 1 else \"no\"\n  require x\n}\n",
	"action a() { return 1 }\n",
	"action a() {\n  x = \n}\n",
	"action a() {\n  let = 3\n}\n",
	"action a() {\n  for in xs {}\n}\n",
	"action a() {\n  if x {\n",
	"action a() {\n  emit\n}\n",
	"action a(): [int {}\n",
	"action a() { x } y\n",
	"rule d6(d8: int) { return d8 }\n",
	"ruleset \"t\" version \"1\" source \"s\"\n",
	"ruleset \"t\" version 1\n",
	"ruleset t\n",
	"kind K { a: int = 1, b: []K\n c: map[E]int }\n",
	"kind K { a int }\n",
	"kind K { a: int = }\n",
	"kind k8 {}\n",
	"enum E { a, b\n c }\n",
	"enum E { a b \"c\" }\n",
	"entity e: K { a: 1, b = 2\n c: [1, 2] }\n",
	"entity e: K { a 1 }\n",
	"entity e K {}\n",
	"table t(x, y: int = 2) roll 2d6 + y {\n  2 .. 6 : \"a\"\n  else : 1\n}\n",
	"table t {\n  columns ratio 1:2, 1:1\n  1 : 1, 2\n}\n",
	"table t(x {\n}\n",
	"table t(x) {\n  1 :\n",
	"table t {\n  columns ratio, 2\n  1 : 1\n}\n",
	"table t {\n  columns 1, 2 }\n",
	"table t {\n  columns\n}\n",
	"include \"a.rules\"\n",
	"include a\n",
	"pile main\npile d6\npile \"x\"\n",
	"dice c = [sabre, -1, 2, \"x\", d6]\n",
	"dice c = [\n  1,\n  2\n]\n",
	"dice c = [1, 2,]\n",
	"dice c = []\n",
	"dice c = [-]\n",
	"dice n = [{s: 1, a: -2}, {}, {\n  t: x,\n  u: \"y\"\n}]\n",
	"dice n = [{s 1}]\n",
	"dice n = [{s: 1,}]\n",
	"dice a = attack()\ndice v = volley(3, bonus + 1)\n",
	"dice v = volley(3,\n 1)\n",
	"dice v = volley(3\n",
	"dice v = 3\n",
	"deck jeu standard {\n  suit \"♣\" \"Souffle\" black \"vitesse\"\n  suit \"♥\" \"Coeur\" red\n  jokers 2\n  rank V 11 figure\n  rank 10 10\n}\n",
	"deck jeu\ndeck d standard\ndeck e {}\n",
	"deck jeu {\n  jokers two\n}\n",
	"deck jeu {\n  rank V\n}\n",
	"deck jeu {\n  suit \"a\" b red\n}\n",
	"map champ {\n  rows {\n    \". . f\"\n    \". v .\"\n  }\n  legend \".\" plaine, \"f\" forêt,\n    \"v\" village\n  river (2,1)-(3,1), (2,2)-(3,2)\n  ford (1,1)-(1,2)\n  road (1,2), (2,2)\n  height (3,1) 1, (1,1) -2\n  point moulin (3,1) \"le moulin\"\n  point gué (1,1)\n  units Unité at position marker sigle label nom side camp\n  units U at pos side s\n}\n",
	"map m {\n  rows {\n  }\n}\n",
	"map m {\n  river (1,1)-(2)\n}\n",
	"map m {\n  height (1,1)\n}\n",
	"map m {\n  units U at\n}\n",
	"map m {\n  forest (1,1)\n}\n",
	"map m {\n  road (1,1),\n}\n",
	"const a = 1\nfoo\n",
	"\n\nconst a = 1\n\n",
	"",
}

// TestHandReaderShapes: the hand reader and the grammar agree on each of handShapes.
func TestHandReaderShapes(t *testing.T) {
	for _, src := range handShapes {
		hand, grammar, hd, gd := parseBoth("t.rules", []byte(src))
		if !reflect.DeepEqual(hd, gd) || !reflect.DeepEqual(hand, grammar) {
			t.Errorf("%q: hand reader (%v) and grammar (%v) differ", src, hd, gd)
		}
	}
}

// FuzzHandReader: on any text, the hand reader gives the grammar's tree or its error.
func FuzzHandReader(f *testing.F) {
	for _, src := range handShapes {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		hand, grammar, hd, gd := parseBoth("t.rules", []byte(src))
		if !reflect.DeepEqual(hd, gd) || !reflect.DeepEqual(hand, grammar) {
			t.Errorf("%q: hand reader (%v) and grammar (%v) differ", src, hd, gd)
		}
	})
}
