//go:build !race

package racetest

// Enabled is true when the tests were built with -race (see race_on.go).
const Enabled = false
