package dsl

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFormatShippedRules: formatting every shipped rule file is idempotent, keeps it loading,
// and the files are already in canonical form.
func TestFormatShippedRules(t *testing.T) {
	files, _ := filepath.Glob("../rulesets/*/*.rules")
	if len(files) == 0 {
		t.Fatal("no rule files")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		once, err := Format(f, src)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		twice, _ := Format(f, once)
		if string(once) != string(twice) {
			t.Errorf("%s: formatting is not idempotent", f)
		}
		if string(once) != string(src) {
			t.Errorf("%s is not in canonical form (rulesh fmt -w %s)", f, f)
		}
	}
}

func TestFormatReindents(t *testing.T) {
	src := "rule f(x) {\n      let y = x +\n 1\n\n\n  if y > 2 {\nemit \"{y}\"   \n        }\n return y\n}\n"
	want := "rule f(x) {\n  let y = x +\n    1\n\n  if y > 2 {\n    emit \"{y}\"\n  }\n  return y\n}\n"
	got, err := Format("t.rules", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if _, err := Format("bad.rules", []byte("rule f( {")); err == nil {
		t.Error("a file that does not parse is not formatted")
	}
}
