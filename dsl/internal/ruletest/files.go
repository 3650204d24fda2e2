package ruletest

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// RuleFiles lists every rule file of the repository whose root is root (a relative path from
// the test's folder), refused ones included: the shipped rulesets, the tests' and the
// examples' files; the web playground's folder and hidden folders are left out.
func RuleFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "web" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".rules") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil || len(files) < 40 {
		t.Fatalf("found %d rule files under %s: %v", len(files), root, err)
	}
	return files
}
