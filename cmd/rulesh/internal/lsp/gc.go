package lsp

import (
	"os"
	"runtime/debug"
)

// serverGCPercent is the collector's percentage while the server runs. A check of a large
// ruleset (brigantin.rules with naval.rules, 64 KB) allocates about 10 MiB over a small live
// heap, so at the default 100 the collector ran several times per check: a third of the CPU
// from the debounce to the diagnostics. At 400 the heap grows to five times what is live (a
// few tens of MiB for the shipped rulesets), which a long-lived editor process can afford.
const serverGCPercent = 400

// serverMemoryLimit bounds what that percentage may let the heap grow to: near it the
// collector runs as often as it must (a soft limit, as debug.SetMemoryLimit sets it).
const serverMemoryLimit = 1 << 30

// tuneGC sets the collector for the server, unless the user chose through GOGC or GOMEMLIMIT,
// and returns what puts the settings back.
func tuneGC() (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	percent := debug.SetGCPercent(serverGCPercent)
	limit := debug.SetMemoryLimit(serverMemoryLimit)
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}
