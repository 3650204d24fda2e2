package dsl

import "rulesh/dsl/internal/syntax"

// The diagnostics, positions and file access of the language live in package syntax; the
// facade names them so that users of dsl need no other import.
type (
	// Pos is a position in a rule file.
	Pos = syntax.Pos
	// Severity tells an error from a warning.
	Severity = syntax.Severity
	// Diagnostic is one problem found in a rule file or an input.
	Diagnostic = syntax.Diagnostic
	// Diagnostics is a list of problems.
	Diagnostics = syntax.Diagnostics
	// Sources holds the text of the files a diagnostic may point into, by name.
	Sources = syntax.Sources
	// FileSystem reads rule files.
	FileSystem = syntax.FileSystem
	// OSFiles reads from the real file system.
	OSFiles = syntax.OSFiles
	// DirFiles reads paths relative to a base folder.
	DirFiles = syntax.DirFiles
)

// Severities.
const (
	Error   = syntax.Error
	Warning = syntax.Warning
)

// Limits of the reader and the parser.
const (
	MaxFileSize   = syntax.MaxFileSize
	MaxNesting    = syntax.MaxNesting
	MaxIncludes   = syntax.MaxIncludes
	MaxLoadSize   = syntax.MaxLoadSize
	MaxFileTokens = syntax.MaxFileTokens
	MaxExprTokens = syntax.MaxExprTokens
)

// ReadLimited reads a regular file of at most limit bytes.
func ReadLimited(name string, limit int64) ([]byte, error) { return syntax.ReadLimited(name, limit) }

// DidYouMean suggests the candidate closest to name, or "".
func DidYouMean(name string, candidates []string) string {
	return syntax.DidYouMean(name, candidates)
}

// Format lays a rule file out canonically.
func Format(name string, src []byte) ([]byte, error) { return syntax.Format(name, src) }

// OpenBrackets returns how many brackets src leaves open outside strings and comments.
func OpenBrackets(src string) int { return syntax.OpenBrackets(src) }

// ParsersBuilt counts the parsers of the grammar built so far: they are built on first use,
// not at package initialisation, so that a command that reads no rule file does not pay for
// them (the command's start-up test checks it).
func ParsersBuilt() int { return syntax.ParsersBuilt() }
