package dsl

import (
	"rulesh/dsl/internal/lib/cards"
	"rulesh/dsl/internal/lib/choice"
	"rulesh/dsl/internal/lib/dice"
	"rulesh/dsl/internal/lib/hex"
	"rulesh/dsl/internal/runtime"
)

// library holds the functions rules call that need the running Machine, gathered once from
// the libraries named here: the language's core, dice, cards and hex maps. A name given by
// two libraries is a mistake in Go, not in a rule file; it stops the program at first use
// (TestBuiltinsRegistered loads a file, so the tests catch it).
var library = &runtime.Lazy[*runtime.Library]{Build: func() *runtime.Library {
	out := map[string]runtime.Builtin{}
	for _, lib := range []map[string]runtime.Builtin{runtime.Core(), dice.Builtins(), cards.Builtins(), choice.Builtins(), hex.Builtins()} {
		for name, b := range lib {
			if _, dup := out[name]; dup {
				panic("builtin " + name + " is registered by two libraries")
			}
			out[name] = b
		}
	}
	return &runtime.Library{Builtins: out}
}}
