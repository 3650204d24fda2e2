package cli

import (
	"testing"

	"rulesh/cmd/rulesh/internal/repl"
)

// TestSimDefaultRuns: the REPL's :sim without N runs as many times as sim without --runs.
func TestSimDefaultRuns(t *testing.T) {
	if repl.DefaultSimRuns != DefaultRuns {
		t.Errorf("repl.DefaultSimRuns %d, sim's DefaultRuns %d", repl.DefaultSimRuns, DefaultRuns)
	}
}
