package cli

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

var gcSink []byte

// gcPercent reads the collector's percentage without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

func TestDeferGCRestores(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	before, limit := gcPercent(), debug.SetMemoryLimit(-1)
	restore := deferGC()
	if p := gcPercent(); p != -1 {
		t.Fatalf("collector percentage while deferred = %d, want -1 (off)", p)
	}
	if l := debug.SetMemoryLimit(-1); l > gcFreeBytes {
		t.Fatalf("memory limit while deferred = %d, want at most %d", l, gcFreeBytes)
	}
	restore()
	if p, l := gcPercent(), debug.SetMemoryLimit(-1); p != before || l != limit {
		t.Fatalf("after restore: percentage %d, limit %d; want %d, %d", p, l, before, limit)
	}
}

// A command that allocates past gcFreeBytes gets the collector back as it was: a large
// input is collected by the usual percentage, not held against the limit.
func TestDeferGCEndsAtFirstCollection(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	before := gcPercent()
	restore := deferGC()
	defer restore()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	gcs := ms.NumGC
	for i := 0; i < 3*gcFreeBytes>>20; i++ {
		gcSink = make([]byte, 1<<20)
	}
	runtime.ReadMemStats(&ms)
	if ms.NumGC == gcs {
		t.Fatalf("no collection after allocating %d MiB", 3*gcFreeBytes>>20)
	}
	deadline := time.Now().Add(5 * time.Second)
	for gcPercent() != before {
		if time.Now().After(deadline) {
			t.Fatalf("collector percentage still %d after the first collection, want %d", gcPercent(), before)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestDeferGCLeavesTheUsersChoice(t *testing.T) {
	t.Setenv("GOGC", "50")
	before := gcPercent()
	restore := deferGC()
	defer restore()
	if p := gcPercent(); p != before {
		t.Errorf("with GOGC set, the percentage became %d (was %d)", p, before)
	}
}

// During sim the collector runs at simGCPercent, and after it as before; a GOGC given in
// the environment is left alone.
func TestCollectLess(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	for _, c := range []struct {
		env  string
		want int
	}{{"", simGCPercent}, {"50", 100}} {
		t.Setenv("GOGC", c.env)
		restore := collectLess()
		if got := debug.SetGCPercent(c.want); got != c.want {
			t.Errorf("GOGC=%q: sim runs at %d, want %d", c.env, got, c.want)
		}
		restore()
		if got := debug.SetGCPercent(100); got != 100 {
			t.Errorf("GOGC=%q: after sim %d, want 100", c.env, got)
		}
	}
}
