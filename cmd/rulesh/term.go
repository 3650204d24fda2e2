package main

import (
	"math/rand/v2"
	"os"
)

// isTerminal reports whether f is a character device (a terminal), not a pipe or a file.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func randomSeed() uint64 { return rand.Uint64() }
