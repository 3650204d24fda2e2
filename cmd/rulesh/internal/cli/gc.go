package cli

import (
	"os"
	"runtime"
	"runtime/debug"
	"sync/atomic"
)

// gcFreeBytes is how much a short command may allocate before the collector first runs.
// Checking the largest shipped ruleset allocates about 17 MiB, of which the collector,
// run every 4 MiB at the default settings, took a quarter of the process's CPU time.
const gcFreeBytes = 64 << 20

// deferGC turns the garbage collector off for a short command until its heap reaches
// gcFreeBytes, and returns what restores the settings it found. The first collection
// (forced by the memory limit) puts the collector back as it was, so a large input (a
// 4 MiB rule file holds hundreds of MiB while it loads) is collected as usual from then on,
// never against the limit. A GOGC or GOMEMLIMIT of the user's is left alone.
func deferGC() (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {} // the user's choice
	}
	var done atomic.Bool
	limit := debug.SetMemoryLimit(-1) // reads it
	percent := debug.SetGCPercent(-1)
	debug.SetMemoryLimit(min(limit, gcFreeBytes))
	back := func() {
		if done.CompareAndSwap(false, true) {
			debug.SetGCPercent(percent)
			debug.SetMemoryLimit(limit)
		}
	}
	// A finalizer runs after the collection that finds its object unreachable: the first
	// one, which only the limit can start while the percentage is off.
	// (32 bytes: an object under 16 may share a block whose finalizer never runs.)
	sentinel := new([32]byte)
	runtime.SetFinalizer(sentinel, func(*[32]byte) { back() })
	return back
}

// simGCPercent is the garbage collector's GOGC during sim: a run's garbage is most
// of what a simulation allocates, and its live heap (a machine per worker and variant, the
// tally) is small, so letting the heap grow to five times it instead of twice spends a
// quarter less CPU on a Mortebrume strike for about 12 MB more memory.
const simGCPercent = 400

// collectLess sets simGCPercent unless GOGC was given, and returns what puts it back.
func collectLess() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(simGCPercent)
	return func() { debug.SetGCPercent(old) }
}
