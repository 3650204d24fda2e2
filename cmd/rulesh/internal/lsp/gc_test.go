package lsp

import (
	"runtime/debug"
	"testing"
)

// TestTuneGC: the server's collector settings, put back by the function tuneGC returns;
// a GOGC of the user's is left alone.
func TestTuneGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	percent := debug.SetGCPercent(100)
	defer debug.SetGCPercent(percent)
	limit := debug.SetMemoryLimit(-1)
	restore := tuneGC()
	if p := debug.SetGCPercent(serverGCPercent); p != serverGCPercent {
		t.Errorf("percentage while serving = %d, want %d", p, serverGCPercent)
	}
	if l := debug.SetMemoryLimit(-1); l != serverMemoryLimit {
		t.Errorf("memory limit while serving = %d, want %d", l, serverMemoryLimit)
	}
	restore()
	if p, l := debug.SetGCPercent(100), debug.SetMemoryLimit(-1); p != 100 || l != limit {
		t.Errorf("after restore: percentage %d, limit %d; want 100, %d", p, l, limit)
	}
	t.Setenv("GOGC", "50")
	tuneGC()()
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("with GOGC set the percentage became %d", p)
	}
}
