package dsl_test

// The odds engine computes the dice made from rules (dsl.SetDieOdds): importing it installs
// it for every test of this package, as the rulesh binary does, so that the transcripts'
// rule files all load here.
import _ "rulesh/analysis"
