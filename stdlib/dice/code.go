package dice

import (
	"fmt"
	"strconv"
	"strings"
)

// Code is a dice code held as a value, not rolled: Count dice of Sides sides plus Bonus
// (`4D+2`, `3d6`, `2d10-1`). Bare records that the dice were written with a bare D (a d6),
// so the code prints as written. Codes are compared by count, sides and bonus (Equal). A
// *Code is not changed once built: Plus and Add make new ones.
type Code struct {
	Count int `expr:"count"`
	Sides int `expr:"sides"`
	Bonus int `expr:"bonus"`
	bare  bool
}

// maxCodeCount bounds the dice of a code, as the notation bounds a term.
const maxCodeCount = 10000

// codeForm is what a code looks like, for the messages of ParseCode.
const codeForm = "a code is N dice then an optional bonus: 4D+2, 1D, 3d6, 2d10-1"

// ParseCode reads a dice code: an optional count (1 by default), d or D, the sides (a bare D
// is a d6), then an optional + or - and a whole number. Spaces may surround the sign.
func ParseCode(s string) (*Code, error) {
	src := strings.TrimSpace(s)
	fail := func(what string) (*Code, error) {
		return nil, fmt.Errorf("%q is not a dice code: %s (%s)", s, what, codeForm)
	}
	i := 0
	digits := func() (int, bool, error) {
		start := i
		for i < len(src) && src[i] >= '0' && src[i] <= '9' {
			i++
		}
		if i == start {
			return 0, false, nil
		}
		n, err := strconv.Atoi(src[start:i])
		if err != nil || n > 1000000 {
			return 0, true, fmt.Errorf("%s is too large", src[start:i])
		}
		return n, true, nil
	}
	c := Code{Count: 1}
	n, ok, err := digits()
	if err != nil {
		return fail(err.Error())
	}
	if ok {
		c.Count = n
	}
	if i >= len(src) || (src[i] != 'd' && src[i] != 'D') {
		return fail("expected d or D after the count")
	}
	i++
	n, ok, err = digits()
	switch {
	case err != nil:
		return fail(err.Error())
	case ok:
		c.Sides = n
	default:
		c.Sides, c.bare = 6, true
	}
	if c.Sides < 2 {
		return fail("a die has at least 2 sides")
	}
	if c.Count > maxCodeCount {
		return fail(fmt.Sprintf("at most %d dice", maxCodeCount))
	}
	rest := strings.TrimSpace(src[i:])
	if rest == "" {
		return &c, nil
	}
	sign := rest[0]
	if sign != '+' && sign != '-' {
		return fail(fmt.Sprintf("unexpected %q", rest))
	}
	src, i = strings.TrimSpace(rest[1:]), 0
	n, ok, err = digits()
	if err != nil {
		return fail(err.Error())
	}
	if !ok || i != len(src) {
		return fail(fmt.Sprintf("expected a whole number after %c", sign))
	}
	c.Bonus = n
	if sign == '-' {
		c.Bonus = -n
	}
	return &c, nil
}

// String writes the code as it is read back: the count, D for dice written with a bare D
// (else d and the sides), and the bonus with its sign when it is not zero: 4D+2, 3d6, 2d10-1.
func (c *Code) String() string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(c.Count))
	if c.bare {
		b.WriteByte('D')
	} else {
		b.WriteByte('d')
		b.WriteString(strconv.Itoa(c.Sides))
	}
	if c.Bonus > 0 {
		b.WriteByte('+')
		b.WriteString(strconv.Itoa(c.Bonus))
	} else if c.Bonus < 0 {
		b.WriteString(strconv.Itoa(c.Bonus))
	}
	return b.String()
}

// Equal reports whether two codes have the same count, sides and bonus (4D and 4d6 are
// equal).
func (c *Code) Equal(o *Code) bool {
	return c.Count == o.Count && c.Sides == o.Sides && c.Bonus == o.Bonus
}

// Plus adds a bonus: the pips of 4D+2 plus 1 are 4D+3.
func (c *Code) Plus(n int) *Code {
	r := *c
	r.Bonus += n
	return &r
}

// Add adds (sign 1) or takes away (sign -1) the dice and bonus of o, whose dice must have the
// same sides; the result keeps c's spelling. A code is left with no fewer than 0 dice.
func (c *Code) Add(o *Code, sign int) (*Code, error) {
	op := "+"
	if sign < 0 {
		op = "-"
	}
	if c.Sides != o.Sides {
		return nil, fmt.Errorf("%s %s %s: the dice have different sides (d%d and d%d)", c, op, o, c.Sides, o.Sides)
	}
	r := *c
	r.Count += sign * o.Count
	r.Bonus += sign * o.Bonus
	if r.Count < 0 {
		return nil, fmt.Errorf("%s %s %s leaves %d dice", c, op, o, r.Count)
	}
	if r.Count > maxCodeCount {
		return nil, fmt.Errorf("%s %s %s has more than %d dice", c, op, o, maxCodeCount)
	}
	return &r, nil
}
