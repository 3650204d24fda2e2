package runtime

import (
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"
)

// NumberArgs checks, before a function runs, the arguments its signatures declare as
// numbers, or as rolls only (any_face's first). The checker refuses a call whose argument
// is known not to be one, but a value of type any gets past it: without this check ToInt
// and ToFloat would read a string, a roll or a bool as 0 and the function would answer
// with it, and a function of a roll would fail in its own words, naming neither itself
// nor the argument.
type NumberArgs struct {
	name string
	// skip is the count of parameters before the rule's arguments (1 for a builtin's
	// *Machine, 0 for a core function).
	skip  int
	sigs  []reflect.Type
	arity [][]numArg // by the count of arguments, for the counts the signatures take
}

// variadicArity is how many arguments past a variadic signature's fixed ones NewNumberArgs
// works the checks out for; a longer call works them out when it runs.
const variadicArity = 6

// numArg is an argument that must be a number or a roll: its index, whether a number is
// accepted (a signature takes an int or a float there) and whether a roll is (a signature
// takes a roll there, standing for its total when a number is also accepted).
type numArg struct {
	pos          int
	number, roll bool
}

// NewNumberArgs reads the signatures types (pointers to func types, as Builtin.Types) of the
// function rules call name, whose first skip parameters are not the rule's arguments. It is
// nil for a function that takes no number and no roll: checking it costs nothing.
func NewNumberArgs(name string, skip int, types []any) *NumberArgs {
	c := &NumberArgs{name: name, skip: skip}
	most := 0
	for _, t := range types {
		ft := reflect.TypeOf(t).Elem()
		c.sigs = append(c.sigs, ft)
		most = max(most, ft.NumIn()-skip)
		if ft.IsVariadic() {
			// Calls past the fixed parameters are common (any_face(r, 6, 8, 10)): their
			// checks are worked out here, not per call.
			most = max(most, ft.NumIn()-skip+variadicArity)
		}
	}
	some := false
	for n := 0; n <= most; n++ {
		args := c.numArgs(n)
		c.arity = append(c.arity, args)
		some = some || len(args) > 0
	}
	if !some {
		return nil
	}
	return c
}

// numArgs are the arguments of a call of n arguments that every signature taking n
// declares as a number or a roll (a roll allowed if one of them takes a roll there, a
// number if one takes a number). An argument some signature takes as anything else is left
// to the function.
func (c *NumberArgs) numArgs(n int) []numArg {
	var out []numArg
	for i := 0; i < n; i++ {
		number, roll, fits := false, false, false
		for _, ft := range c.sigs {
			in, ok := paramAt(ft, c.skip+i, c.skip+n)
			if !ok {
				continue
			}
			fits = true
			switch in {
			case reflect.TypeFor[int](), reflect.TypeFor[float64]():
				number = true
			case reflect.TypeFor[*Roll]():
				roll = true
			default:
				number, fits = false, false
			}
			if !fits {
				break
			}
		}
		if fits && (number || roll) {
			out = append(out, numArg{pos: i, number: number, roll: roll})
		}
	}
	return out
}

// paramAt is the type of parameter i of ft in a call of n parameters, false when ft does not
// take n.
func paramAt(ft reflect.Type, i, n int) (reflect.Type, bool) {
	switch {
	case ft.IsVariadic() && n >= ft.NumIn()-1:
		if i >= ft.NumIn()-1 {
			return ft.In(ft.NumIn() - 1).Elem(), true
		}
	case n != ft.NumIn():
		return nil, false
	}
	return ft.In(i), true
}

// Check is nil when every argument of args (the rule's, without what skip skips) that must
// be a number or a roll is one: an int or a float where a number is accepted (a float where
// an int is declared is cut toward zero by the function, as before), a roll where a roll
// is.
func (c *NumberArgs) Check(args []any) error {
	if c == nil {
		return nil
	}
	var want []numArg
	if len(args) < len(c.arity) {
		want = c.arity[len(args)]
	} else {
		want = c.numArgs(len(args)) // beyond every fixed arity: a variadic call, rare
	}
	for _, w := range want {
		switch args[w.pos].(type) {
		case int, float64:
			if w.number {
				continue
			}
		case *Roll:
			if w.roll {
				continue
			}
		}
		what := "a number"
		switch {
		case w.number && w.roll:
			what = "a number or a roll"
		case w.roll:
			what = "a roll"
		}
		return Errorf("%s: argument %d must be %s, got %s", c.name, w.pos+1, what, Described(args[w.pos]))
	}
	return nil
}

// CheckingNumbers is bs with each builtin that takes numbers or rolls checking them
// (NumberArgs) before its Fn runs: what a library gives, so that no builtin reads a value
// of type any as 0.
func CheckingNumbers(bs map[string]Builtin) map[string]Builtin {
	for name, b := range bs {
		c := NewNumberArgs(name, 1, b.Types)
		if c == nil {
			continue
		}
		fn := b.Fn
		b.Fn = func(m *Machine, args []any) (any, error) {
			if err := c.Check(args); err != nil {
				return nil, err
			}
			return fn(m, args)
		}
		bs[name] = b
	}
	return bs
}

// Described is a value as an error shows what it got: the value, and its type in words
// (2d6 (a roll), "x" (a string)); nil alone.
func Described(v any) string {
	if v == nil {
		return "nil"
	}
	return Repr(v) + " (" + WithArticle(TypeName(v)) + ")"
}

// WithArticle is a name after "a" or "an", as its sound asks: an Arme, an Écaille, a Unit,
// a roll. A letter alone is read by its name (an F, a U). Otherwise the sound is guessed
// from the spelling: a vowel (accents included) takes "an", but not the "you" or "wo"
// sounds of English words (a unit, a one-off); a silent h (an hour, an honour) does.
func WithArticle(name string) string {
	r, size := utf8.DecodeRuneInString(name)
	if size == len(name) && r < utf8.RuneSelf && unicode.IsLetter(r) {
		// A letter alone is read by its name: an A, an F, a U.
		if strings.ContainsRune("aefhilmnorsx", unicode.ToLower(r)) {
			return "an " + name
		}
		return "a " + name
	}
	base := unicode.ToLower(foldAccent(r))
	lower := strings.ToLower(name)
	an := strings.ContainsRune("aeiou", base)
	for _, p := range []string{"uni", "use", "usu", "uti", "eu", "one", "once"} {
		if strings.HasPrefix(lower, p) {
			an = false
		}
	}
	for _, p := range []string{"hour", "honest", "honor", "honour", "heir"} {
		if strings.HasPrefix(lower, p) {
			an = true
		}
	}
	if an {
		return "an " + name
	}
	return "a " + name
}

// foldAccent is a Latin vowel without its accent (é is e, Â is A); any other rune as it is.
func foldAccent(r rune) rune {
	for base, accented := range map[rune]string{
		'a': "àáâãäåā", 'e': "èéêëēė", 'i': "ìíîïī", 'o': "òóôõöøōœ", 'u': "ùúûüū",
		'A': "ÀÁÂÃÄÅĀ", 'E': "ÈÉÊËĒĖ", 'I': "ÌÍÎÏĪ", 'O': "ÒÓÔÕÖØŌŒ", 'U': "ÙÚÛÜŪ",
	} {
		if strings.ContainsRune(accented, r) {
			return base
		}
	}
	return r
}
