package main

import (
	"math/rand/v2"
	"os"

	"golang.org/x/term"
)

// isTerminal reports whether f is a terminal: /dev/null is a character device too, but not
// a terminal, so `rulesh < /dev/null` reads plainly.
func isTerminal(f *os.File) bool {
	return term.IsTerminal(int(f.Fd()))
}

func randomSeed() uint64 { return rand.Uint64() }
