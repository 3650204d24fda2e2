package syntax_test

import (
	_ "rulesh/analysis" // the odds engine, for the dice made from rules
	"rulesh/dsl"
	"rulesh/dsl/internal/syntax"
)

func init() {
	syntax.SetCheck(func(fs syntax.FileSystem, paths ...string) (any, syntax.Diagnostics) {
		return dsl.Load(fs, paths...)
	})
}
