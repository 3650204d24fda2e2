//go:build race

package racetest

// Enabled is true when the tests were built with -race.
const Enabled = true
