package syntax

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"golang.org/x/exp/ebnf"
	"rulesh/dsl/internal/ruletest"
)

// The grammar in docs/LANGUAGE.md is checked against the parser here:
//
//   - it is well formed: golang.org/x/exp/ebnf parses it and verifies that every production is
//     defined and reachable from File;
//   - grammarExamples gives every production at least one example that the real loader
//     accepts; the grammar itself, run by a small recogniser (ordered choice, greedy
//     repetition, as participle reads), accepts it too and uses that production on the way;
//   - every literal of the grammar (keyword, operator, spelt-out alternative) is used by an
//     example or a rule file;
//   - grammarCounterExamples are refused by the loader and by the grammar alike;
//   - the parser and the grammar agree on every .rules file of the repository, on the
//     examples mutated a few tokens at a time, and (FuzzGrammar) on any input;
//   - participle's own grammar names no production and no token the document lacks.

const languageDoc = "../../../docs/LANGUAGE.md"

// grammarExample is a rule file that exercises the productions it names.
type grammarExample struct {
	prods string // space-separated production names
	src   string
	// parseOnly: the example is syntax only; the check after parsing refuses it.
	parseOnly bool
}

var grammarExamples = []grammarExample{
	{prods: "File Decl newline", src: `
const a = 1

const b = 2
`},
	{prods: "Name", src: `const d2 = 2`},
	{prods: "Ruleset", src: `ruleset "Duel" version "1.0" source "démonstration"`},
	{prods: "Include", src: `include "armes.rules"`},
	{prods: "Option", src: `option malus = 3 "each shooting malus"`},
	{prods: "Const Brackets", src: `const ÉTATS = ["indemne", "blessé", "hors de combat"]`},
	{prods: "Kind Field Type", src: `
kind Combattant {
  nom: string
  pv: int = 10, blessures: []string
  défense: map[string]int, parades: []map[string][]int
}`},
	{prods: "Entity FieldInit", src: `
kind K { nom: string
  aptitude: int }
entity ariane: K { nom: "Ariane", aptitude: 7 }
entity brutus: K { nom = "Brutus" }`},
	{prods: "Dice Face", src: `
dice combat = [sabre, fusil, fusil,
  boulet, drapeau, général]
dice moral = [-1, 0, 0, 1, 1, 2]`},
	{prods: "Dice DieCall", src: `
rule attack(bonus: int, fois: int): int {
  return d(6) + bonus * fois
}
dice attaque = attack(1, 2)`},
	{prods: "Face Counts Count", src: `
dice ability = [{}, {s: 1}, {s: 2}, {a: 1}, {s: 1, a: 1},
  {
    a: 2
  }]
dice setback = [{}, {f: -1}]`},
	{prods: "Proc Param Block Stmt Emit", src: `
action frapper(cible: string,
    force: int = 1) {
  emit "{cible} perd {force}"
}`},
	{prods: "Simple assign_op", src: `
kind K { pv: int }
action blesse(c: K) {
  c.pv -= 2
  c.pv *= 2
  blesse(c)
}`},
	// A newline is not needed between two statements when the first ends with a block.
	{prods: "Block Stmt", src: `
action a(x: bool) {
  if x { emit "oui" } emit "fin"
}`},
	{prods: "Let", src: `
action a() {
  let x: int = 3
  emit "{x}"
}`},
	{prods: "If Head", src: `
action a(x: int) {
  if x > 3 {
    emit "haut"
  } else if x > 1 {
    emit "moyen"
  } else {
    emit "bas"
  }
}`},
	{prods: "For", src: `
action a() {
  for i, x in [4, 5] {
    emit "{i}: {x}"
  }
}`},
	{prods: "While", src: `
action a() {
  let n = 3
  while n > 0 {
    n -= 1
  }
}`},
	{prods: "Return", src: `
rule double(x: int = 2): int {
  return x * 2
}
action rien() {
  return
}`},
	{prods: "Break Continue", src: `
action a() {
  for x in [1, 2, 3] {
    if x == 1 { continue }
    while true {
      break
    }
  }
}`},
	{prods: "Require", src: `
action a(pv: int) {
  require pv > 0 else "hors de combat"
}`},
	{prods: "Table Row Key KeyPiece Band", src: `
table portée(dist, allonge) {
  (.. allonge]            : "impossible"
  (allonge .. allonge*6]  : "idéale"
  >= 100                  : "hors de vue"
  else                    : "lointaine"
}`},
	{prods: "Table", src: `
table localisation roll 3d6 {
  3 .. 9   : "haut"
  10 .. 18 : "bas"
}`},
	{prods: "Columns", src: `
table résultat(rapport, dé) {
  columns ratio 1:2, 1:1, 2:1
  below  : "impossible"
  1 .. 3 : ["AR", "EX", "DR"]
  4 .. 6 : ["EX", "DR", "DE"]
}`},
	{prods: "Deck DeckLine Suit Rank Jokers", src: `
deck jeu standard {
  suit "♣" "Souffle" black "vitesse"
  rank V 11 figure
  jokers 2
}`},
	{prods: "Enum", src: `
enum Objectif { réduire, maintenir,
  augmenter }
kind Flotte {
  objectif: Objectif = "réduire"
}`},
	{prods: "Deck Pile", src: `
deck jeu standard
pile défausse`},
	{prods: "Map MapLine Rows Legend Edges Road Height Point Units Hex", src: `
map champ {
  rows {
    ". f c"
    ". . c"
  }
  legend "." plaine, "f" forêt,
    "c" colline
  river (1,1)-(2,1), (1,2)-(2,1)
  bridge (1,2)-(2,1)
  road (1,2), (2,2)
  height (3,1) -1, (3,2) -2
  point moulin (3,1) "le moulin"
  units Unité at position marker sigle label nom side camp
  units Pion at case
}
kind Unité {
  nom: string
  sigle: string
  camp: string
  position: hex
}
kind Pion { case: hex }`},
	{prods: "Expr Piece Atom lead_word word", src: `const a = max(1, 2) + len([3]) - 1`},
	{prods: "Operator", src: `
const a = 1 +
  2
const b = true and
  not false or
  true`},
	{prods: "Operator", src: `const n = [1, 2, 3] | filter(# > 1) | len()`},
	{prods: "Parens Brackets Braces Inner", src: `const m = {a: [1, (2)], b: {c: 3}}`},
	{prods: "Parens Inner assign_op", src: `
rule score(base: int, bonus = 0, malus = 0): int {
  return base + bonus - malus
}
action tour() {
  emit score(2, malus = 1)
}`},
	{prods: "ident unicode_letter unicode_digit number decimals decimal_digit", src: `const pv_max2 = 12.5`},
	// A combining accent scans as part of an ident, but a name may not have one: the check
	// refuses it (write é precomposed). In a string or a map key it is fine.
	{prods: "unicode_mark", src: "const te\u0301nacite = 1", parseOnly: true},
	{prods: "string dq_char sq_char escape not_newline", src: `
const s = "il dit \"oui\""
const t = 'l\'arme'`},
	{prods: "dice dice_mod", src: `
action a() {
  let r = 4d6kh3 + d% + 4dF + 3d[1,1,2] + 4D + 10d10! + 1D6r<3
  emit "{r}"
}`},
	{prods: "ascii_letter", src: `
dice combat = [sabre, fusil]
dice Mon_dé = [1, 2]
action a() {
  let n = 2dcombat=sabre + 1DMon_dé
  emit "{n}"
}`},
	{prods: "face_char non_ascii", src: `
dice combat = [sabre, Fusil, général]
action a() {
  let n = 2d[combat]=général + 2d[combat]=Fusil
  emit "{n}"
}`},
	{prods: "card suit_symbol", src: `const c = [Q♣, 10♥, 7♠, A♦, J♣, K♠, R♥, V♣, D♦]`},
	{prods: "line_op other_op", src: `
const a = !(1 + 2 ** 3 >= 4 || false)
const m = {a: 2}
const b = m?.a ^ 2 < 5`},
	// The scanner reads these as operators; expr-lang gives them no meaning.
	{prods: "other_op", src: `const x = a & b ~ c @ d; $e`, parseOnly: true},
}

// grammarCounterExamples are refused by the loader and by the grammar; each names the
// production whose rule it breaks.
var grammarCounterExamples = []grammarExample{
	// else goes on the line of the closing brace.
	{prods: "If", src: `
action a(x: int) {
  if x > 1 {
  }
  else {
  }
}`},
	// In a header, { opens the block: a map literal goes in parentheses.
	{prods: "Head", src: `
action a() {
  for x in {a: 1} {
  }
}`},
	{prods: "Simple", src: `
action a() {
  let x = 1
  x = 2 x = 3
}`},
	{prods: "Require", src: `
action a() {
  require true "message"
}`},
	{prods: "Emit", src: `
action a() {
  emit
}`},
	{prods: "Let", src: `
action a() {
  let = 2
}`},
	{prods: "Expr", src: `const x = if`},
	{prods: "Parens", src: `const x = (1 + 2`},
	{prods: "Const", src: `const x = 1 = 2`},
	{prods: "Option", src: `option malus 3`},
	{prods: "Field", src: `kind K { pv int }`},
	{prods: "Entity", src: `
kind K { pv: int }
entity e K { pv: 1 }`},
	{prods: "Dice", src: `dice d = []`},
	{prods: "Row", src: `
table t(x) {
  1 "un"
}`},
	{prods: "Rows", src: `
map m {
  rows {
  }
}`},
	{prods: "Hex", src: `
map m {
  rows {
    ". ."
  }
  legend "." plaine
  road (1, 2, 3)
}`},
	{prods: "Jokers", src: `
deck d {
  jokers
}`},
	{prods: "string", src: `const s = "abc`},
	// A backslash does not carry a string over the end of its line.
	{prods: "escape", src: "const s = \"a\\\nb\""},
	// A kind's name is an ident, never a dice token.
	{prods: "Kind", src: `kind d6 { pv: int }`},
}

// tokenTypes maps the lexical productions that syntactic ones use to the scanner's token types.
var tokenTypes = map[string]lexer.TokenType{
	"newline": TokNewline, "ident": TokIdent, "number": TokNumber, "string": TokString,
	"dice": TokDice, "card": TokCard, "assign_op": TokOp, "line_op": TokOp, "other_op": TokOp,
}

// tokenClasses are the productions described in words that stand for one token.
var tokenClasses = map[string]func(lexer.Token) bool{
	"word": func(t lexer.Token) bool { return t.Type == TokIdent && t.Value != "else" },
	"lead_word": func(t lexer.Token) bool {
		return t.Type == TokIdent && t.Value != "else" && !statementWords(t.Value)
	},
}

// runeClasses are the productions described in words that stand for one character.
var runeClasses = map[string]func(rune) bool{
	"unicode_letter": unicode.IsLetter,
	"unicode_digit":  unicode.IsDigit,
	"unicode_mark":   func(r rune) bool { return unicode.Is(unicode.Mn, r) },
	"dq_char":        func(r rune) bool { return r != '"' && r != '\\' && r != '\n' },
	"sq_char":        func(r rune) bool { return r != '\'' && r != '\\' && r != '\n' },
	"not_newline":    func(r rune) bool { return r != '\n' },
	"face_char":      func(r rune) bool { return r != ']' && r != '"' && r != '\'' && r != '\n' },
	"non_ascii":      func(r rune) bool { return r > unicode.MaxASCII },
}

// docGrammar reads the ```ebnf block of docs/LANGUAGE.md.
func docGrammar(t testing.TB) ebnf.Grammar {
	t.Helper()
	b, err := os.ReadFile(languageDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start := strings.Index(doc, "```ebnf\n")
	if start < 0 {
		t.Fatalf("%s has no ```ebnf block", languageDoc)
	}
	start += len("```ebnf\n")
	end := strings.Index(doc[start:], "\n```")
	if end < 0 {
		t.Fatalf("%s: the ```ebnf block is not closed", languageDoc)
	}
	// Keep the line numbers of the document in the grammar's errors.
	text := strings.Repeat("\n", strings.Count(doc[:start], "\n")) + doc[start:start+end]
	g, err := ebnf.Parse(languageDoc, strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if err := ebnf.Verify(g, "File"); err != nil {
		t.Fatal(err)
	}
	return g
}

func TestGrammarWellFormed(t *testing.T) {
	g := docGrammar(t)
	for name, p := range g {
		if p.Expr != nil {
			continue
		}
		_, isTok := tokenClasses[name]
		_, isRune := runeClasses[name]
		if !isTok && !isRune {
			t.Errorf("%s is described in words but the test has no class for it", name)
		}
	}
	for name := range tokenClasses {
		if p, ok := g[name]; !ok || p.Expr != nil {
			t.Errorf("token class %s is not a production described in words", name)
		}
	}
	for name := range runeClasses {
		if p, ok := g[name]; !ok || p.Expr != nil {
			t.Errorf("character class %s is not a production described in words", name)
		}
	}
	for name := range tokenTypes {
		if _, ok := g[name]; !ok {
			t.Errorf("token production %s is not in the grammar", name)
		}
	}
}

func TestGrammarExamples(t *testing.T) {
	g := docGrammar(t)
	covered := map[string]bool{}
	for _, ex := range grammarExamples {
		prods := strings.Fields(ex.prods)
		for _, p := range prods {
			if _, ok := g[p]; !ok {
				t.Errorf("example for %s: no such production", p)
			}
			covered[p] = true
		}
		used, err := grammarAccepts(g, ex.src)
		if err != nil {
			t.Errorf("the grammar refuses the example for %s: %v\n%s", ex.prods, err, ex.src)
			continue
		}
		for _, p := range prods {
			if !used[p] {
				t.Errorf("the example for %s does not use %s\n%s", ex.prods, p, ex.src)
			}
		}
		if _, d := parseOne("example.rules", []byte(ex.src)); d != nil {
			t.Errorf("the parser refuses the example for %s: %s\n%s", ex.prods, d.Summary, ex.src)
			continue
		}
		if ex.parseOnly {
			continue
		}
		files := memFiles{"example.rules": []byte(ex.src), "armes.rules": []byte("const arme = 1\n")}
		if _, diags := checkFiles(files, "example.rules"); diags.HasErrors() {
			t.Errorf("the example for %s does not load:\n%v\n%s", ex.prods, diags, ex.src)
		}
	}
	var missing []string
	for name := range g {
		if !covered[name] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("productions without an example: %s", strings.Join(missing, " "))
	}
}

func TestGrammarCounterExamples(t *testing.T) {
	g := docGrammar(t)
	for _, ex := range grammarCounterExamples {
		if _, ok := g[ex.prods]; !ok {
			t.Errorf("counter-example for %s: no such production", ex.prods)
		}
		if _, err := grammarAccepts(g, ex.src); err == nil {
			t.Errorf("the grammar accepts the counter-example for %s:\n%s", ex.prods, ex.src)
		}
		if _, diags := checkSource("example.rules", []byte(ex.src)); !diags.HasErrors() {
			t.Errorf("the loader accepts the counter-example for %s:\n%s", ex.prods, ex.src)
		}
	}
}

// TestGrammarRuleFiles runs every rule file of the repository through the parser and the
// grammar: both accept it or both refuse it.
func TestGrammarRuleFiles(t *testing.T) {
	g := docGrammar(t)
	files := repoRuleFiles(t)
	if len(files) < 10 {
		t.Errorf("only %d rule files found", len(files))
	}
	for path, src := range files {
		_, gerr := grammarAccepts(g, string(src))
		_, d := parseOne(path, src)
		switch {
		case gerr != nil && d == nil:
			t.Errorf("%s: the parser accepts it, the grammar refuses it: %v", path, gerr)
		case gerr == nil && d != nil:
			t.Errorf("%s: the grammar accepts it, the parser refuses it: %s", path, d)
		}
	}
}

// repoRuleFiles reads the rule files of the repository, but those refused for a limit
// (encoding, nesting, length): the grammar does not say those.
func repoRuleFiles(t *testing.T) map[string][]byte {
	files := map[string][]byte{}
	for _, path := range ruletest.RuleFiles(t, "../../..") {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		_, diag := parseOne(path, src)
		if precheck(path, src) == nil && (diag == nil || !strings.Contains(diag.Summary, "the limit of")) {
			files[path] = src
		}
	}
	return files
}

// TestGrammarLiterals checks that every literal and range of the grammar (every keyword,
// operator and alternative spelled out) is used by an example or a rule file of the
// repository.
func TestGrammarLiterals(t *testing.T) {
	g := docGrammar(t)
	var srcs []string
	for _, ex := range grammarExamples {
		srcs = append(srcs, ex.src)
	}
	for _, src := range repoRuleFiles(t) {
		srcs = append(srcs, string(src))
	}
	used := map[string]bool{}
	for _, src := range srcs {
		u, _ := grammarAccepts(g, src)
		for k := range u {
			used[k] = true
		}
	}
	var missing []string
	for k := range grammarLiterals(g) {
		if !used[k] {
			missing = append(missing, k)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("literals of %s that no example uses:\n%s", languageDoc, strings.Join(missing, "\n"))
	}
}

// TestGrammarNamesParticiple checks that each production of participle's grammars (the
// declarations and table rows) and each token it names stands for one in the document.
func TestGrammarNamesParticiple(t *testing.T) {
	g := docGrammar(t)
	doc := map[string]string{
		"File": "File", "Decl": "Decl", "RulesetDecl": "Ruleset", "Prop": "Ruleset",
		"IncludeDecl": "Include", "OptionDecl": "Option", "ConstDecl": "Const", "KindDecl": "Kind", "EnumDecl": "Enum", "EnumValue": "Enum",
		"FieldDecl": "Field", "TypeRef": "Type", "EntityDecl": "Entity", "FieldInit": "FieldInit",
		"DiceDecl": "Dice", "Face": "Face", "DieCall": "DieCall", "Counts": "Counts", "Count": "Count", "CountValue": "Count", "ProcDecl": "Proc", "Param": "Param",
		"Block": "Block", "Stmt": "Stmt", "SimpleStmt": "Simple", "LetStmt": "Let",
		"IfStmt": "If", "ForStmt": "For", "WhileStmt": "While", "ReturnStmt": "Return",
		"BreakStmt": "Break", "ContinueStmt": "Continue",
		"RequireStmt": "Require", "EmitStmt": "Emit", "TableDecl": "Table", "Row": "Row",
		"RowGrammar": "Row", "Columns": "Columns", "Key": "Key", "DeckDecl": "Deck",
		"DeckLine": "DeckLine", "Suit": "Suit", "Rank": "Rank", "PileDecl": "Pile",
		"MapDecl": "Map", "MapLine": "MapLine", "RowLine": "Rows", "Legend": "Legend",
		"EdgeLine": "Edges", "Edge": "Edges", "Hex": "Hex", "Height": "Height",
		"Point": "Point", "Units": "Units", "UnitAccess": "Units", "Expr": "Expr", "Head": "Head",
		"<ident>": "ident", "<dice>": "dice", "<string>": "string", "<number>": "number",
		"<newline>": "newline", "<card>": "card",
	}
	grammars := []fmt.Stringer{
		&fileParser, &rowParser,
		participle.MustBuild[RulesetDecl](participle.Lexer(Lexer)),
		participle.MustBuild[IncludeDecl](participle.Lexer(Lexer)),
		participle.MustBuild[OptionDecl](participle.Lexer(Lexer)),
		participle.MustBuild[ConstDecl](participle.Lexer(Lexer)),
		participle.MustBuild[KindDecl](participle.Lexer(Lexer)),
		participle.MustBuild[EnumDecl](participle.Lexer(Lexer)),
		participle.MustBuild[EntityDecl](participle.Lexer(Lexer)),
		participle.MustBuild[DiceDecl](participle.Lexer(Lexer)),
		participle.MustBuild[TableDecl](participle.Lexer(Lexer)),
		participle.MustBuild[DeckDecl](participle.Lexer(Lexer)),
		participle.MustBuild[PileDecl](participle.Lexer(Lexer)),
		participle.MustBuild[MapDecl](participle.Lexer(Lexer)),
		participle.MustBuild[ProcDecl](participle.Lexer(Lexer)),
	}
	// Production names are capitalised words outside the quoted literals.
	quoted := regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	names := regexp.MustCompile(`<[a-z]+>|\b[A-Z][A-Za-z]*\b`)
	seen := map[string]bool{}
	for _, p := range grammars {
		for _, name := range names.FindAllString(quoted.ReplaceAllString(p.String(), `""`), -1) {
			seen[name] = true
		}
	}
	for name := range seen {
		if name == "<comma>" {
			continue // the token ","
		}
		d, ok := doc[name]
		if !ok {
			t.Errorf("participle's %s stands for no production of the document (add it to this test's table)", name)
		} else if _, ok := g[d]; !ok {
			t.Errorf("participle's %s stands for %s, which the document lacks", name, d)
		}
	}
	for _, want := range []string{"File", "ProcDecl", "Block", "Stmt", "MapLine", "RowGrammar"} {
		if !seen[want] {
			t.Errorf("participle's grammars do not name %s any more: update this test", want)
		}
	}
}

// grammarAccepts runs the grammar over the scanner's tokens of src and returns the
// productions used, or why it refused.
func grammarAccepts(g ebnf.Grammar, src string) (map[string]bool, error) {
	lx, err := Lexer.LexString("example.rules", src)
	if err != nil {
		return nil, err
	}
	var toks []lexer.Token
	for {
		tok, err := lx.Next()
		if err != nil {
			return nil, err
		}
		if tok.EOF() {
			break
		}
		toks = append(toks, tok)
	}
	r := &recogniser{g: g, toks: toks, memo: map[memoKey]memoVal{}, lexMemo: map[lexKey]memoVal{}}
	end, ok := r.tokens(&ebnf.Name{String: "File"}, 0)
	if r.err != nil {
		return nil, r.err
	}
	if !ok || end < len(toks) {
		at := toks[min(end, len(toks)-1)]
		return nil, fmt.Errorf("%d:%d: stops before %q", at.Pos.Line, at.Pos.Column, at.Value)
	}
	used := map[string]bool{}
	for _, u := range r.used {
		used[u] = true
	}
	return used, nil
}

// recogniser reads a grammar as participle does: alternatives in order, the first that
// matches wins; options and repetitions take what they can, with no going back. Syntactic
// productions match tokens; a lexical production matches one token of its type whose text
// its characters match.
type recogniser struct {
	g       ebnf.Grammar
	toks    []lexer.Token
	memo    map[memoKey]memoVal
	lexMemo map[lexKey]memoVal
	used    []string
	err     error
}

type memoKey struct {
	name string
	pos  int
}

type lexKey struct{ name, text string }

type memoVal struct {
	end  int
	ok   bool
	used []string
}

func (r *recogniser) tokens(e ebnf.Expression, pos int) (int, bool) {
	mark := len(r.used)
	switch x := e.(type) {
	case nil:
		return pos, true
	case ebnf.Alternative:
		for _, a := range x {
			if end, ok := r.tokens(a, pos); ok {
				return end, true
			}
			r.used = r.used[:mark]
		}
		return pos, false
	case ebnf.Sequence:
		for _, s := range x {
			end, ok := r.tokens(s, pos)
			if !ok {
				r.used = r.used[:mark]
				return pos, false
			}
			pos = end
		}
		return pos, true
	case *ebnf.Group:
		return r.tokens(x.Body, pos)
	case *ebnf.Option:
		if end, ok := r.tokens(x.Body, pos); ok {
			return end, true
		}
		r.used = r.used[:mark]
		return pos, true
	case *ebnf.Repetition:
		for {
			mark = len(r.used)
			end, ok := r.tokens(x.Body, pos)
			if !ok || end == pos {
				r.used = r.used[:mark]
				return pos, true
			}
			pos = end
		}
	case *ebnf.Token:
		if pos < len(r.toks) && r.toks[pos].Value == x.String {
			r.used = append(r.used, literalKey(x))
			return pos + 1, true
		}
		return pos, false
	case *ebnf.Name:
		if unicode.IsLower([]rune(x.String)[0]) {
			return r.token(x.String, pos)
		}
		k := memoKey{x.String, pos}
		if v, ok := r.memo[k]; ok {
			r.used = append(r.used, v.used...)
			return v.end, v.ok
		}
		end, ok := r.tokens(r.g[x.String].Expr, pos)
		if ok {
			r.used = append(r.used, x.String)
		} else {
			r.used = r.used[:mark]
		}
		r.memo[k] = memoVal{end, ok, slices.Clone(r.used[mark:])}
		return end, ok
	}
	r.err = fmt.Errorf("%T in a syntactic production", e)
	return pos, false
}

// token matches one token against a lexical production.
func (r *recogniser) token(name string, pos int) (int, bool) {
	if pos >= len(r.toks) {
		return pos, false
	}
	t := r.toks[pos]
	if class, ok := tokenClasses[name]; ok {
		if !class(t) {
			return pos, false
		}
		r.used = append(r.used, name)
		return pos + 1, true
	}
	typ, ok := tokenTypes[name]
	if !ok {
		r.err = fmt.Errorf("the syntactic grammar uses %s, which has no token type in this test", name)
		return pos, false
	}
	if t.Type != typ {
		return pos, false
	}
	k := lexKey{name, t.Value}
	v, ok := r.lexMemo[k]
	if !ok {
		text := []rune(t.Value)
		var used []string
		end, matched := r.chars(&ebnf.Name{String: name}, text, 0, &used)
		v = memoVal{ok: matched && end == len(text), used: used}
		r.lexMemo[k] = v
	}
	if !v.ok {
		return pos, false
	}
	r.used = append(r.used, v.used...)
	return pos + 1, true
}

// chars matches characters against a lexical production, as tokens does tokens.
func (r *recogniser) chars(e ebnf.Expression, text []rune, pos int, used *[]string) (int, bool) {
	mark := len(*used)
	switch x := e.(type) {
	case nil:
		return pos, true
	case ebnf.Alternative:
		for _, a := range x {
			if end, ok := r.chars(a, text, pos, used); ok {
				return end, true
			}
			*used = (*used)[:mark]
		}
		return pos, false
	case ebnf.Sequence:
		for _, s := range x {
			end, ok := r.chars(s, text, pos, used)
			if !ok {
				*used = (*used)[:mark]
				return pos, false
			}
			pos = end
		}
		return pos, true
	case *ebnf.Group:
		return r.chars(x.Body, text, pos, used)
	case *ebnf.Option:
		if end, ok := r.chars(x.Body, text, pos, used); ok {
			return end, true
		}
		*used = (*used)[:mark]
		return pos, true
	case *ebnf.Repetition:
		for {
			mark = len(*used)
			end, ok := r.chars(x.Body, text, pos, used)
			if !ok || end == pos {
				*used = (*used)[:mark]
				return pos, true
			}
			pos = end
		}
	case *ebnf.Token:
		lit := []rune(x.String)
		if pos+len(lit) <= len(text) && slices.Equal(text[pos:pos+len(lit)], lit) {
			*used = append(*used, literalKey(x))
			return pos + len(lit), true
		}
		return pos, false
	case *ebnf.Range:
		lo, hi := []rune(x.Begin.String)[0], []rune(x.End.String)[0]
		if pos < len(text) && text[pos] >= lo && text[pos] <= hi {
			*used = append(*used, literalKey(x.Begin))
			return pos + 1, true
		}
		return pos, false
	case *ebnf.Name:
		p := r.g[x.String]
		if p.Expr == nil {
			class, ok := runeClasses[x.String]
			if !ok {
				r.err = fmt.Errorf("%s is described in words but has no character class in this test", x.String)
				return pos, false
			}
			if pos < len(text) && class(text[pos]) {
				*used = append(*used, x.String)
				return pos + 1, true
			}
			return pos, false
		}
		end, ok := r.chars(p.Expr, text, pos, used)
		if ok {
			*used = append(*used, x.String)
		}
		return end, ok
	}
	r.err = fmt.Errorf("%T in a lexical production", e)
	return pos, false
}

// TestGrammarMutations compares the parser and the grammar on the examples with a few tokens
// dropped, added, doubled or swapped, as FuzzGrammar does on any input.
func TestGrammarMutations(t *testing.T) {
	g := docGrammar(t)
	var pool [][]string
	vocab := map[string]bool{}
	for _, ex := range append(grammarExamples, grammarCounterExamples...) {
		var toks []string
		Scan(ex.src, func(tk lexer.Token) bool {
			toks = append(toks, tk.Value)
			vocab[tk.Value] = true
			return true
		})
		pool = append(pool, toks)
	}
	for _, w := range []string{"else", "let", "if", "for", "in", "while", "return", "require", "emit",
		"columns", "ratio", "roll", "standard", "figure", "rows", "legend", "road", "height", "point",
		"river", "{", "}", "(", ")", "[", "]", ",", "\n", ":", "=", "+=", "-", "and", "not", "?"} {
		vocab[w] = true
	}
	words := make([]string, 0, len(vocab))
	for w := range vocab {
		words = append(words, w)
	}
	sort.Strings(words)
	rng := rand.New(rand.NewSource(1))
	n := 5000
	if testing.Short() {
		n = 500
	}
	for i, bad := 0, 0; i < n && bad < 10; i++ {
		toks := slices.Clone(pool[rng.Intn(len(pool))])
		for k := rng.Intn(3) + 1; k > 0 && len(toks) > 0; k-- {
			j := rng.Intn(len(toks))
			switch rng.Intn(4) {
			case 0:
				toks = slices.Delete(toks, j, j+1)
			case 1:
				toks = slices.Insert(toks, j, words[rng.Intn(len(words))])
			case 2:
				toks = slices.Insert(toks, j, toks[j])
			case 3:
				if j+1 < len(toks) {
					toks[j], toks[j+1] = toks[j+1], toks[j]
				}
			}
		}
		if err := grammarAgrees(g, strings.Join(toks, " ")); err != nil {
			bad++
			t.Error(err)
		}
	}
}

// FuzzGrammar compares the parser and the grammar on any input (see grammarAgrees).
func FuzzGrammar(f *testing.F) {
	for _, ex := range append(grammarExamples, grammarCounterExamples...) {
		f.Add(ex.src)
	}
	files, _ := filepath.Glob("../../../rulesets/*/*.rules")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil && len(b) < 20000 {
			f.Add(string(b))
		}
	}
	g := docGrammar(f)
	f.Fuzz(func(t *testing.T, src string) {
		if err := grammarAgrees(g, src); err != nil {
			t.Fatal(err)
		}
	})
}

// grammarAgrees compares the parser and the grammar on src. What the grammar accepts, the
// parser accepts. What the parser accepts and the grammar refuses has brackets that do not
// pair up inside an expression, which expr-lang refuses after the parser: the loader must
// refuse it. Inputs beyond a limit (nesting, length) are not compared.
func grammarAgrees(g ebnf.Grammar, src string) error {
	_, d := parseOne("fuzz.rules", []byte(src))
	if precheck("fuzz.rules", []byte(src)) != nil || d != nil && strings.Contains(d.Summary, "the limit of") {
		return nil
	}
	_, gerr := grammarAccepts(g, src)
	switch {
	case gerr == nil && d != nil:
		return fmt.Errorf("the grammar accepts it, the parser refuses it (%s):\n%s", d.Summary, src)
	case gerr != nil && d == nil:
		if _, diags := checkSource("fuzz.rules", []byte(src)); !diags.HasErrors() {
			return fmt.Errorf("the parser and the loader accept it, the grammar refuses it (%v):\n%s", gerr, src)
		}
	}
	return nil
}

// literalKey names one literal (or range) of the grammar by where it stands in the document.
func literalKey(x *ebnf.Token) string {
	return fmt.Sprintf("%q at %d:%d", x.String, x.StringPos.Line, x.StringPos.Column)
}

// grammarLiterals lists the literals and ranges of the grammar by literalKey.
func grammarLiterals(g ebnf.Grammar) map[string]bool {
	keys := map[string]bool{}
	var walk func(e ebnf.Expression)
	walk = func(e ebnf.Expression) {
		switch x := e.(type) {
		case ebnf.Alternative:
			for _, a := range x {
				walk(a)
			}
		case ebnf.Sequence:
			for _, a := range x {
				walk(a)
			}
		case *ebnf.Group:
			walk(x.Body)
		case *ebnf.Option:
			walk(x.Body)
		case *ebnf.Repetition:
			walk(x.Body)
		case *ebnf.Token:
			keys[literalKey(x)] = true
		case *ebnf.Range:
			keys[literalKey(x.Begin)] = true
		}
	}
	for _, p := range g {
		walk(p.Expr)
	}
	return keys
}
