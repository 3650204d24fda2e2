package check

import "rulesh/dsl/internal/syntax"

// Positions and diagnostics come from package syntax.
type (
	// Pos is a position in a rule file.
	Pos = syntax.Pos
	// Diagnostic is one problem found in a rule file or an input.
	Diagnostic = syntax.Diagnostic
	// Diagnostics is a list of problems.
	Diagnostics = syntax.Diagnostics
	// Sources holds the text of rule files by name.
	Sources = syntax.Sources
)

// Severities.
const (
	Error   = syntax.Error
	Warning = syntax.Warning
)
