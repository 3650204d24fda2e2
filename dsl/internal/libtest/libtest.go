// Package libtest gives the checker's and exprx's own tests what package dsl assembles for
// them elsewhere: the library of builtins and an in-memory file system. Only tests import
// it; it imports the runtime and the libraries, never the checker or the facade.
package libtest

import (
	"errors"

	"rulesh/dsl/internal/lib/cards"
	"rulesh/dsl/internal/lib/choice"
	"rulesh/dsl/internal/lib/dice"
	"rulesh/dsl/internal/lib/hex"
	"rulesh/dsl/internal/runtime"
)

// Library gathers the builtins of the language's core and of every library, as dsl does.
func Library() *runtime.Library {
	all := map[string]runtime.Builtin{}
	for _, lib := range []map[string]runtime.Builtin{runtime.Core(), dice.Builtins(), cards.Builtins(), choice.Builtins(), hex.Builtins()} {
		for name, b := range lib {
			all[name] = b
		}
	}
	return &runtime.Library{Builtins: all}
}

// MemFiles is a file system of rule files held in memory, by name.
type MemFiles map[string][]byte

// ReadFile returns a file's text, or an error for a name it does not hold.
func (m MemFiles) ReadFile(name string) ([]byte, error) {
	if b, ok := m[name]; ok {
		return b, nil
	}
	return nil, errors.New("no such file")
}
