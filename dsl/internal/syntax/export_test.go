package syntax

import "errors"

// checkFiles is the whole check of rule files (parse and check), which lives above this
// package: the tests of package syntax_test install it (check_test.go) so that the
// grammar's examples and counter-examples are held to the checker too.
var checkFiles func(fs FileSystem, paths ...string) (any, Diagnostics)

// SetCheck installs the whole check for this package's tests.
func SetCheck(f func(fs FileSystem, paths ...string) (any, Diagnostics)) { checkFiles = f }

// checkSource checks one file given as text.
func checkSource(name string, src []byte) (any, Diagnostics) {
	return checkFiles(memFiles{name: src}, name)
}

// memFiles serves rule files from memory.
type memFiles map[string][]byte

func (m memFiles) ReadFile(name string) ([]byte, error) {
	if b, ok := m[name]; ok {
		return b, nil
	}
	return nil, errors.New("no such file")
}

// parseOne parses one file given as text.
func parseOne(name string, src []byte) (*File, *Diagnostic) {
	return Parse(name, src)
}
