package dsl

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestImportDirection holds the packages of the language to the direction of imports the
// README's Architecture section gives: no package imports one above it.
func TestImportDirection(t *testing.T) {
	// forbidden lists, for each package folder, the module's packages it must not import
	// (a prefix covers the folders under it).
	forbidden := map[string][]string{
		"dsl/internal/syntax":  {"rulesh/dsl", "rulesh/cmd"},
		"dsl/internal/runtime": {"rulesh/dsl/internal/check", "rulesh/dsl/internal/lib", "rulesh/dsl/internal/exprx", "rulesh/cmd", "rulesh/dsl\x00"},
		"dsl/internal/lib":     {"rulesh/dsl/internal/check", "rulesh/cmd", "rulesh/dsl\x00"},
		// The meaning of values, apart from any expression engine: an interpreter calls it
		// directly, so it knows neither expr-lang nor the adapter, nor another library.
		"dsl/internal/lib/core": {"github.com/expr-lang", "rulesh/dsl/internal/exprx", "rulesh/dsl/internal/lib",
			"rulesh/dsl/internal/check", "rulesh/cmd", "rulesh/dsl\x00"},
		"dsl/internal/check": {"rulesh/dsl/internal/lib", "rulesh/cmd", "rulesh/dsl\x00"},
		"dsl/internal/exprx": {"rulesh/dsl/internal/check", "rulesh/dsl/internal/lib", "rulesh/cmd", "rulesh/dsl\x00"},
		"dsl":                {"rulesh/cmd"},
		"stdlib":             {"rulesh/dsl", "rulesh/cmd"},
		// Go's internal rule already keeps cmd out of dsl/internal; this says so here too.
		"cmd/rulesh":   {"rulesh/dsl/internal"},
		"analysis":     {"rulesh/dsl/internal", "rulesh/cmd"},
		"dsl/internal": {"rulesh/dsl/internal/check", "rulesh/cmd", "rulesh/dsl\x00"},
		// Test support, imported by tests only: it loads rules through the facade.
		"dsl/internal/dsltest": {"rulesh/cmd"},
	}
	// allowed lists, for each package folder, the imports its forbidden rules would catch
	// that it may make all the same: exprx registers core's functions, and imports no other
	// library.
	allowed := map[string][]string{
		"dsl/internal/exprx": {"rulesh/dsl/internal/lib/core"},
	}
	checked := 0
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() || strings.Contains(path, "testdata") {
			return err
		}
		rel, _ := filepath.Rel("..", path)
		rel = filepath.ToSlash(rel)
		var rules []string
		best := ""
		for dir, r := range forbidden {
			if (rel == dir || strings.HasPrefix(rel, dir+"/")) && len(dir) > len(best) {
				best, rules = dir, r
			}
		}
		if best == "" {
			return nil
		}
		entries, err := os.ReadDir(path)
		if err != nil {
			return err
		}
		for _, e := range entries {
			name := filepath.Join(path, e.Name())
			if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			for _, imp := range f.Imports {
				ip, _ := strconv.Unquote(imp.Path.Value)
				if slices.Contains(allowed[best], ip) {
					continue
				}
				for _, bad := range rules {
					// A rule ending in NUL forbids that package exactly, not those under it.
					exact := strings.TrimSuffix(bad, "\x00")
					if ip == exact || exact == bad && strings.HasPrefix(ip, bad+"/") {
						t.Errorf("%s imports %s", name, ip)
					}
				}
			}
			checked++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 40 {
		t.Errorf("only %d files checked", checked)
	}
}
