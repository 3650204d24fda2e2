// Package lsp is `rulesh lsp`: a language server speaking the Language Server Protocol over
// stdin and stdout, so that an editor shows the checker's diagnostics as the GM types, and
// offers the outline of a rule file, hover, go to definition, references, rename, completion
// and formatting.
//
// A ruleset is read as `rulesh check` reads it, from the folder of the file being edited,
// with the text of the buffers the editor holds open in place of the files on disk. The
// files of one ruleset are the file edited and every rule file of its folder joined to it by
// includes (either way); checks start from the files of that group no other file includes.
// Names are found through the language's read-only queries (dsl.Outline, dsl.Names), which
// work from the parse alone, so a file that does not check keeps its outline, and one that
// does not parse keeps the outline it last had.
//
// The protocol's types and method dispatch come from github.com/tliron/glsp; the JSON-RPC
// connection is github.com/sourcegraph/jsonrpc2 (what glsp runs on), driven here directly
// so that the server runs on any stream, a pipe in the tests as well as stdio. It imports
// the language through the dsl facade only.
//
// Limits, so that no client makes the server crash or grow without bound: a message body
// is at most MaxMessage (32 MiB; a larger one is refused with an error whose id is null and
// skipped without being held), a header at most 8 KiB (past that the framing is lost: an
// error, and the connection ends), and a buffer over dsl.MaxLoadSize (4 MiB) is not
// outlined, checked or formatted but gets one diagnostic. What the server keeps for a file goes when
// it is closed, and Serve returns only once no check runs.
package lsp
