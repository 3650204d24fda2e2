package dsl

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"rulesh/dsl/internal/syntax"
	"rulesh/stdlib/dice"
)

// Hand-given results, cards and answers are checked when they are given (`:rolls`,
// `--rolls`, a transcript's `rolls`…), so that a typo is refused with its reason at once
// instead of failing a call later, or being reported only when the session ends.

// CheckRolls reports the first hand-given die result that no die could show: every die of
// the dice notation has faces from 1 to dice.MaxSides, so a whole number below 1 or above
// it fits only a die that has it as a face: a declared one (`dice moral = [-1, 0, 1]`), an
// inline one or the Fudge dice (-1, 0) written in the rules or in texts (an expression
// given with the results: `eval --rolls -1,0 '2dF'`); a name fits only a face of such a die.
func (p *Program) CheckRolls(results []string, texts ...string) error {
	return p.checkRolls(nil, results, texts)
}

// CheckRolls is Program.CheckRolls with the dice made from rules of this machine's options
// too (`--set bonus=-7` gives a die faces below 1 that the defaults' faces do not have).
func (m *Machine) CheckRolls(results []string, texts ...string) error {
	var own []*dice.Die
	for _, d := range m.prog.p.RuleDice() {
		if v, ok := m.m.Global(d.Name); ok {
			if die, ok := v.(*dice.Die); ok && die != d.Die {
				own = append(own, die)
			}
		}
	}
	return m.prog.checkRolls(own, results, texts)
}

// checkRolls is CheckRolls, the faces of the dice own fitting as a declared die's do.
func (p *Program) checkRolls(own []*dice.Die, results []string, texts []string) error {
	var faces map[string]bool
	for _, r := range results {
		if v, err := strconv.Atoi(r); err == nil && v >= 1 && v <= dice.MaxSides {
			continue
		}
		if rec, ok := dice.ParseRecordText(r); ok {
			if err := p.checkRecordRoll(r, rec); err != nil {
				return err
			}
			continue
		}
		if faces == nil {
			faces = p.faces(texts)
			for _, d := range own {
				for _, f := range d.Faces {
					faces[f.String()] = true
				}
			}
		}
		if faces[r] {
			continue
		}
		if v, err := strconv.Atoi(r); err == nil {
			if v > dice.MaxSides {
				return fmt.Errorf("hand-given result %s fits no die: a die has at most %d sides", r, dice.MaxSides)
			}
			return fmt.Errorf("hand-given result %s fits no die: dice show 1 or more, and no die of these rules has the face %s", r, r)
		}
		var named []string
		for _, d := range p.p.DiceDecl {
			if len(d.Die.Faces) > 0 && d.Die.Faces[0].Sym != "" {
				named = append(named, d.Name)
			}
		}
		if len(named) == 0 {
			return fmt.Errorf("hand-given result %s fits no die: no die of these rules has named faces", r)
		}
		return fmt.Errorf("hand-given result %s is a face of no die of these rules (%s)", r, strings.Join(named, ", "))
	}
	return nil
}

// checkRecordRoll reports a hand-given record (`{s: 1, a: 1}`) that is a face of no record
// die of the rules.
func (p *Program) checkRecordRoll(r string, rec map[string]int) error {
	var named []string
	for _, d := range p.p.DiceDecl {
		if d.Die.Record {
			if d.Die.FaceOfRecord(rec) > 0 {
				return nil
			}
			named = append(named, d.Name)
		}
	}
	if len(named) == 0 {
		return fmt.Errorf("hand-given result %s fits no die: no die of these rules has records of counts for faces", r)
	}
	return fmt.Errorf("hand-given result %s is a face of no die of these rules (%s)", r, strings.Join(named, ", "))
}

// faces is every face, as written, of the dice the rules declare, of the inline dice and
// of the Fudge dice in the rules' dice literals and in texts.
func (p *Program) faces(texts []string) map[string]bool {
	faces := map[string]bool{}
	for _, d := range p.p.DiceDecl {
		for _, f := range d.Die.Faces {
			faces[f.String()] = true
		}
	}
	scan := func(src string) {
		syntax.Scan(src, func(t lexer.Token) bool {
			if t.Type != syntax.TokDice {
				return true
			}
			if strings.Contains(t.Value, "dF") {
				for _, f := range dice.FudgeDie.Faces {
					faces[f.String()] = true
				}
			}
			// d[-1, 0, 1]: an inline die's faces (or a declared die's name, already in).
			if i := strings.Index(t.Value, "d["); i >= 0 {
				if j := strings.IndexByte(t.Value[i:], ']'); j > 0 {
					for _, f := range strings.Split(t.Value[i+2:i+j], ",") {
						faces[strings.TrimSpace(f)] = true
					}
				}
			}
			return true
		})
	}
	for _, src := range p.p.Sources {
		scan(string(src))
	}
	for _, t := range texts {
		scan(t)
	}
	return faces
}

// CheckChoices reports the first hand-given answer to choose that fits no menu: a whole
// number is an option's number, from 1. Any other text may name an option, which only the
// call that asks can tell.
func CheckChoices(answers []string) error {
	for _, a := range answers {
		if n, err := strconv.Atoi(a); err == nil && n < 1 {
			return fmt.Errorf("answer %s fits no menu: options are numbered from 1", a)
		}
	}
	return nil
}
