// Package racetest tells tests whether they run under the race detector (go test -race),
// which makes code run 5 to 20 times slower: the heaviest tests then walk smaller tables or
// fewer rounds, still reaching every path they check. Only tests import it; it imports
// nothing.
package racetest
