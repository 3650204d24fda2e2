package dsl

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/expr-lang/expr/ast"

	"rulesh/dsl/syntax"
	"rulesh/stdlib/cards"
	"rulesh/stdlib/dice"
)

// Roll is a dice result as rules see it: it behaves as its total in arithmetic and
// comparisons (`r + 3`, `r >= 12`), and keeps its dice.
type Roll struct {
	Total   int      `expr:"total"`
	Faces   []int    `expr:"faces"`   // the dice that count, in rolling order
	All     []int    `expr:"all"`     // every die, dropped ones included
	Dropped []int    `expr:"dropped"` // the dice keep/drop removed
	Symbols []string `expr:"symbols"` // faces' names, for symbolic dice
	Highest int      `expr:"highest"`
	Lowest  int      `expr:"lowest"`
	Bool    bool     `expr:"ok"` // the outcome of a comparison written in the notation
	result  *dice.Result
}

func newRoll(r *dice.Result) *Roll {
	out := &Roll{Total: r.Total, Bool: r.Bool, result: r}
	n := 0
	for _, t := range r.Terms {
		n += len(t.Dice)
	}
	out.All = make([]int, 0, n)
	out.Faces = make([]int, 0, n)
	first := true
	for _, t := range r.Terms {
		for _, d := range t.Dice {
			out.All = append(out.All, d.Value)
			if d.Face.Sym != "" {
				out.Symbols = append(out.Symbols, d.Face.Sym)
			}
			if d.Dropped {
				out.Dropped = append(out.Dropped, d.Value)
				continue
			}
			out.Faces = append(out.Faces, d.Value)
			if first || d.Value > out.Highest {
				out.Highest = d.Value
			}
			if first || d.Value < out.Lowest {
				out.Lowest = d.Value
			}
			first = false
		}
	}
	if out.Faces == nil {
		out.Faces = []int{}
	}
	return out
}

// String shows the dice and the total: `4d6kh3 [6, (1), 4, 4] = 14`.
func (r *Roll) String() string { return r.result.String() }

// JSON is the roll as JSON output shows it.
func (r *Roll) JSON() any {
	return map[string]any{"roll": r.result.String(), "total": r.Total, "faces": r.Faces, "all": r.All}
}

// Symbol returns the name of a single symbolic die's face, or "".
func (r *Roll) Symbol() string {
	if len(r.Symbols) == 1 {
		return r.Symbols[0]
	}
	return ""
}

var rollType = &Type{Kind: TRoll}

// rewriteLiterals turns dice literals (`3d6`, `4D+2`, `6d10>=8`, `2d[combat]=fusil`) into
// calls carrying the parsed dice: the notation is parsed once, here, at load. It returns
// the new text and the map from its rune offsets back to the original ones.
func (c *compiler) rewriteLiterals(x *Expr, sc *scope) (string, []int, map[string]*dice.Expr, map[string]*cards.Card, bool) {
	text := x.Text
	if !mayHoldLiterals(text) {
		return text, nil, nil, nil, true
	}
	lex, _ := syntax.Lexer.LexString("", text)
	var b strings.Builder
	var origin []int
	var found map[string]*dice.Expr
	var cardLits map[string]*cards.Card
	ok := true
	last := 0 // byte offset copied so far
	copyTo := func(end int) {
		for last < end {
			// Sizes as decoded, never utf8.RuneLen: a stray byte counts one.
			_, size := utf8.DecodeRuneInString(text[last:end])
			origin = append(origin, utf8.RuneCountInString(text[:last]))
			b.WriteString(text[last : last+size])
			last += size
		}
	}
	for {
		t, err := lex.Next()
		if err != nil || t.EOF() {
			break
		}
		if t.Type == syntax.TokCard {
			card, err := c.cardLiteral(t.Value)
			if err != nil {
				c.errorf(x.PosAt(utf8.RuneCountInString(text[:t.Pos.Offset])), "card "+t.Value+": "+err.Error(), "")
				ok = false
				continue
			}
			copyTo(t.Pos.Offset)
			if cardLits == nil {
				cardLits = map[string]*cards.Card{}
			}
			key := "__card" + strconv.Itoa(len(cardLits))
			cardLits[key] = card
			at := utf8.RuneCountInString(text[:t.Pos.Offset])
			for range key {
				origin = append(origin, at)
			}
			b.WriteString(key)
			last = t.Pos.Offset + len(t.Value)
			continue
		}
		if t.Type != syntax.TokDice {
			continue
		}
		// A name that is a variable or a global is not a die: d6 in `d6>=3` where d6 is a
		// parameter, d in `d[k]`. expr-lang then reads the text as written.
		if name := syntax.DieName(t.Value); name != "" {
			if _, local := sc.lookup(name); local {
				continue
			}
			if _, global := c.prog.Globals[name]; global {
				continue
			}
		}
		de, perr := dice.Parse(t.Value, c.prog.Dice())
		if perr != nil {
			col := 1
			msg := perr.Error()
			if e, ok := perr.(*dice.Error); ok {
				col, msg = e.Col, e.Msg
			}
			at := x.PosAt(utf8.RuneCountInString(text[:t.Pos.Offset]) + col - 1)
			c.errorf(at, "dice "+t.Value+": "+msg, "")
			ok = false
			continue
		}
		copyTo(t.Pos.Offset)
		key := "__lit" + strconv.Itoa(len(found))
		if found == nil {
			found = map[string]*dice.Expr{}
		}
		found[key] = de
		repl := "__dice(__rt, " + key + ")"
		at := utf8.RuneCountInString(text[:t.Pos.Offset])
		for range repl {
			origin = append(origin, at)
		}
		b.WriteString(repl)
		last = t.Pos.Offset + len(t.Value)
	}
	if found == nil && cardLits == nil {
		return text, nil, nil, nil, ok
	}
	copyTo(len(text))
	origin = append(origin, utf8.RuneCountInString(text))
	return b.String(), origin, found, cardLits, ok
}

// patchDiceLiteral replaces a placeholder `__litN` by the parsed dice as a constant.
func patchDiceLiteral(node *ast.Node, lits map[string]*dice.Expr) bool {
	id, ok := (*node).(*ast.IdentifierNode)
	if !ok || lits == nil {
		return false
	}
	de, ok := lits[id.Value]
	if !ok {
		return false
	}
	ast.Patch(node, &ast.ConstantNode{Value: de})
	return true
}

// rollExpr rolls parsed dice on the machine's source, reusing a roller per expression.
func (m *Machine) RollExpr(de *dice.Expr) (*Roll, error) {
	if m.Dice == nil {
		return nil, fmt.Errorf("no dice source")
	}
	if m.rollers == nil {
		m.rollers = map[*dice.Expr]*dice.Roller{}
	}
	r := m.rollers[de]
	if r == nil {
		r = dice.NewRoller(de, m.Dice)
		m.rollers[de] = r
	}
	res, err := r.Roll()
	if err != nil {
		return nil, err
	}
	n := 0
	for _, t := range res.Terms {
		n += len(t.Dice)
	}
	if err := m.Charge(n); err != nil {
		return nil, err
	}
	if m.Trace != nil {
		m.trace("roll " + res.String())
	}
	return newRoll(res), nil
}

// rollText parses notation given at run time (`roll(pool + "D+2")`), caching the parse.
func (m *Machine) RollText(src string) (*Roll, error) {
	de, ok := m.parsed[src]
	if !ok {
		var err error
		if de, err = dice.Parse(src, m.Prog.Dice()); err != nil {
			return nil, fmt.Errorf("roll(%q): %v", src, err)
		}
		m.cacheParsed(src, de)
	}
	return m.RollExpr(de)
}

// maxParsedRolls bounds the notation texts (and their rollers) a machine keeps parsed.
const maxParsedRolls = 1000

// cacheParsed keeps a parse of notation given at run time. When the cache is full it is
// emptied, with the rollers made for it: a rule building endless distinct texts cannot grow
// a machine without bound, and a handful of texts used again and again stays cached.
func (m *Machine) cacheParsed(src string, de *dice.Expr) {
	if m.parsed == nil || len(m.parsed) >= maxParsedRolls {
		m.parsed = map[string]*dice.Expr{}
		m.rollers = nil
	}
	m.parsed[src] = de
}

// mayHoldLiterals is a quick scan before lexing: a dice literal needs a d or D followed by a
// digit, %, F or [ (or a count before a bare D); a card literal needs a suit symbol.
func mayHoldLiterals(text string) bool {
	if strings.ContainsAny(text, "♣♠♥♦") {
		return true
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != 'd' && c != 'D' {
			continue
		}
		if i+1 < len(text) && (syntax.IsDigit(text[i+1]) || strings.IndexByte("%F[", text[i+1]) >= 0) {
			return true
		}
		if c == 'D' && i > 0 && syntax.IsDigit(text[i-1]) {
			return true
		}
	}
	return false
}
