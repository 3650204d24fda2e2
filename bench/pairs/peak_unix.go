//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// peakKB is the peak resident set of a finished process, in KiB (Linux counts it in KiB,
// macOS in bytes).
func peakKB(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) / 1024
	}
	return int64(ru.Maxrss)
}
