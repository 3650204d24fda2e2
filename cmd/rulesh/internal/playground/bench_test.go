package playground

import (
	"os"
	"path/filepath"
	"testing"
)

// The playground's numbers (docs/PERFORMANCE.md, "Playground") are measured in the page by
// web/test; these are the same work without the browser, to run natively or under Node
// (GOOS=js GOARCH=wasm go test -bench . with Go's lib/wasm on PATH).

func shipped(b *testing.B, dir string) Files {
	files := Files{}
	paths, err := filepath.Glob(filepath.Join("..", "..", "..", "..", "rulesets", dir, "*.rules"))
	if err != nil || len(paths) == 0 {
		b.Fatalf("no rule files in %s: %v", dir, err)
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		files[filepath.Base(p)] = string(src)
	}
	return files
}

// BenchmarkCheckLargest is a check as you type of the largest shipped rule file.
func BenchmarkCheckLargest(b *testing.B) {
	files := shipped(b, "starwars")
	for b.Loop() {
		Check(files, "starwars.rules")
	}
}

// BenchmarkProb3d6 is `:prob 3d6 >= 12` in a console already started.
func BenchmarkProb3d6(b *testing.B) {
	files := Files{"a.rules": "option bonus = 2 \"b\"\n"}
	c := NewConsole()
	c.Exec(Request{Files: files, Root: "a.rules", Version: 1})
	for b.Loop() {
		c.Exec(Request{Files: files, Root: "a.rules", Version: 1, Input: ":prob 3d6 >= 12"})
	}
}

// BenchmarkStartMortebrume starts a console on forge.rules (with its include) and asks the
// odds of a strike.
func BenchmarkStartMortebrume(b *testing.B) {
	files := shipped(b, "mortebrume")
	for b.Loop() {
		c := NewConsole()
		c.Exec(Request{Files: files, Root: "forge.rules", Version: 1, Input: ":prob frapper(will, jack)"})
	}
}
