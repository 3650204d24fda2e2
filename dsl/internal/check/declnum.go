package check

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/alecthomas/participle/v2/lexer"
)

// Declaration limits: a deck or a board is built whole at load, so its size is bounded
// before anything is allocated.
const (
	// MaxDeckCards is the most cards a declared deck may hold (ranks × suits + jokers).
	MaxDeckCards = 1000
	// MaxMapHexes is the most hexes a declared map may hold (columns × rows).
	MaxMapHexes = 100_000
)

// declInt reads a whole-number literal of a declaration (a joker count, a rank's value, a
// hex coordinate, a height, a die face). A number too large for a machine integer is an
// error at its position, never a silent MaxInt or 0.
func (c *Compiler) declInt(text string, neg bool, p lexer.Position, what string) (int, bool) {
	v, err := strconv.ParseInt(text, 10, 64)
	if errors.Is(err, strconv.ErrRange) || err == nil && (v > math.MaxInt || v < math.MinInt) {
		c.errorf(p, fmt.Sprintf("%s %s is too large", what, text), fmt.Sprintf("the largest whole number is %d", math.MaxInt))
		return 0, false
	}
	if err != nil {
		c.errorf(p, fmt.Sprintf("%s %s is not a whole number", what, text), "")
		return 0, false
	}
	if neg {
		v = -v
	}
	return int(v), true
}
