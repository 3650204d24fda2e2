package check_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rulesh/dsl"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestDiagnosticsGolden loads each bad file under testdata/diag and compares the rendered
// diagnostics with the .golden file beside it (go test ./dsl -run Golden -update rewrites them).
func TestDiagnosticsGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/diag/*.rules")
	if len(files) == 0 {
		t.Fatal("no test files")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			prog, diags := dsl.Load(nil, f)
			srcs := dsl.Sources{}
			if prog != nil {
				srcs = prog.Sources()
			} else {
				for _, d := range diags {
					if b, err := os.ReadFile(d.Pos.File); err == nil {
						srcs[d.Pos.File] = b
					}
				}
			}
			got := diags.Render(srcs)
			if prog == nil && !diags.HasErrors() {
				t.Fatal("nil program without errors")
			}
			golden := strings.TrimSuffix(f, ".rules") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("diagnostics differ from %s:\n--- got\n%s\n--- want\n%s", golden, got, want)
			}
		})
	}
}
