package dsl

import (
	"errors"
	"path/filepath"

	"rulesh/dsl/internal/check"
	"rulesh/dsl/internal/syntax"
	"rulesh/stdlib/dice"
)

// Load reads rule files (and their includes), checks them and compiles every expression.
// Diagnostics holds warnings even when loading succeeds; the Program is nil on any error.
func Load(fs FileSystem, paths ...string) (*Program, Diagnostics) {
	return loadFiles(fs, paths, false)
}

// Check is Load for a caller that reads only the diagnostics and what the Program declares
// (`rulesh check`, the language server, the playground): the diagnostics are Load's, but the
// expressions of procedures are not compiled for running (no closures, no slots). The
// Program still runs, on expr's VM, and is much slower than Load's.
func Check(fs FileSystem, paths ...string) (*Program, Diagnostics) {
	return loadFiles(fs, paths, true)
}

// loadFiles is Load, or Check when diagsOnly is set.
func loadFiles(fs FileSystem, paths []string, diagsOnly bool) (*Program, Diagnostics) {
	files, sources, diags := syntax.ParseFiles(fs, paths...)
	if diags.HasErrors() {
		diags.Sort()
		return nil, diags
	}
	if !declaresRuleDice(files) {
		return load(files, sources, diags, nil, diagsOnly)
	}
	// The dice made from rules are computed on the rules they need, checked with stand-in
	// faces (ruledice.go), then everything is checked with their faces. The first load runs
	// those rules: it is compiled for running.
	first, firstDiags := load(ruleDiceFiles(files, sources), sources, diags, nil, false)
	if first == nil {
		return nil, firstDiags
	}
	return loadRuleDice(first, func(faces map[string][]dice.Face) (*Program, Diagnostics) {
		files, sources, diags := syntax.ParseFiles(fs, paths...)
		if diags.HasErrors() {
			diags.Sort()
			return nil, diags
		}
		return load(files, sources, diags, faces, diagsOnly)
	})
}

// load checks parsed files, the dice made from rules having the faces given (nil: stand-ins,
// to be computed); diagsOnly as Check.
func load(files []syntax.ParsedFile, sources syntax.Sources, diags Diagnostics, faces map[string][]dice.Face, diagsOnly bool) (*Program, Diagnostics) {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Name
	}
	prog := check.NewProgram(library.Get(), sources, names)
	prog.RuleFaces = faces
	if diagsOnly {
		diags = append(diags, check.DiagnoseFiles(prog, files)...)
	} else {
		diags = append(diags, check.CheckFiles(prog, files)...)
	}
	diags.Sort()
	if diags.HasErrors() {
		return nil, diags
	}
	// Fill the lazily built tables now, so a loaded Program is only read from then on and
	// may be shared between goroutines.
	prog.Dice()
	_, _ = prog.DefaultDeck()
	for _, k := range prog.Kinds {
		k.Type()
	}
	prog.Freeze()
	return &Program{p: prog, rd: &ruleDice{}}, diags
}

// LoadSource checks one rule file given as text (tests, the fuzzer, the REPL).
func LoadSource(name string, src []byte) (*Program, Diagnostics) {
	return Load(memFiles{name: src}, name)
}

type memFiles map[string][]byte

func (m memFiles) ReadFile(name string) ([]byte, error) {
	if b, ok := m[filepath.ToSlash(name)]; ok {
		return b, nil
	}
	if b, ok := m[name]; ok {
		return b, nil
	}
	return nil, errors.New("no such file")
}
