package cli

import (
	"io"
	"strings"
	"testing"
)

// probJobs are the jobs `rulesh prob` is measured on (docs/PERFORMANCE.md, "Exact odds").
var probJobs = []struct{ name, expr string }{
	{"3d6", "3d6"}, {"8d6kh3", "8d6kh3"}, {"20d6", "20d6"}, {"10d10kh3", "10d10kh3"},
	{"8d10ge7", "8d10>=7"}, {"200d10", "200d10"}, {"500d10", "500d10"}, {"100d10kh3", "100d10kh3"},
}

// BenchmarkProb runs the whole `rulesh prob EXPR` command (parse, exact distribution,
// table) into io.Discard; with /json, `rulesh prob --json EXPR`.
func BenchmarkProb(b *testing.B) {
	for _, asJSON := range []bool{false, true} {
		for _, j := range probJobs {
			name := j.name
			args := []string{j.expr}
			if asJSON {
				name += "/json"
				args = []string{"--json", j.expr}
			}
			b.Run(name, func(b *testing.B) {
				var errOut strings.Builder
				for b.Loop() {
					if code := Prob(IO{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &errOut}, args); code != 0 {
						b.Fatalf("exit %d: %s", code, errOut.String())
					}
				}
			})
		}
	}
}
