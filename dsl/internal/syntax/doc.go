// Package syntax reads rule files: the one scanner (tokens, brackets, strings, comments,
// continuation lines, statement keywords), the participle grammar whose structs are the
// syntax tree, the loader of files and their includes, the canonical printer (`rulesh fmt`),
// and positioned diagnostics with their rendering.
//
// It knows nothing of what a rule means: names are not resolved, types not checked, and no
// expression is compiled. It must not import the rest of the language (dsl and its other
// packages) nor expr-lang; participle is its only parser dependency.
package syntax
