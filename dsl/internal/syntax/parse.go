package syntax

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Parsing limits: they turn hostile input into a clear error instead of a deep recursion.
const (
	// MaxFileSize is the largest file read, in bytes (a transcript, the history); rule files
	// are held to MaxLoadSize, all of one load together.
	MaxFileSize = 8 << 20
	// MaxNesting is the deepest nesting of brackets, blocks and unary operators in a rule
	// file or an input.
	MaxNesting = 64
	// MaxIncludes is the most files one load may read through includes.
	MaxIncludes = 200
	// MaxLoadSize is the most bytes of rule files one load reads, all files and includes
	// together: checking costs about a hundred times the source in memory, so 200 includes
	// of MaxFileSize each would exhaust the machine.
	MaxLoadSize = 4 << 20
	// MaxFileTokens is the most tokens one rule file may hold: the parser holds every token
	// of a file at once (some 500 bytes each), and a file of short tokens (1,1,1,…) within
	// MaxLoadSize took a gigabyte before any other limit answered.
	MaxFileTokens = 1_000_000
	// MaxExprNodes bounds the nodes of one expression's syntax tree.
	MaxExprNodes = 5000
	// MaxExprTokens bounds the tokens of one expression, checked before expr-lang reads
	// it. Every node takes at least one token and few take more than two, so no expression
	// within MaxExprNodes comes near it.
	MaxExprTokens = 4 * MaxExprNodes
)

// FileSystem reads rule files; tests and the REPL may swap it. Paths are slash or OS paths.
type FileSystem interface {
	ReadFile(name string) ([]byte, error)
}

// OSFiles reads from the real file system.
type OSFiles struct{}

// ReadFile reads a file through ReadLimited with MaxFileSize.
func (OSFiles) ReadFile(name string) ([]byte, error) {
	return ReadLimited(name, MaxFileSize)
}

// Stat describes the file name leads to, links followed: the loader tells files apart by
// it, not by the spelling of their paths.
func (OSFiles) Stat(name string) (os.FileInfo, error) {
	return os.Stat(name)
}

// Resolve returns the path with every symbolic link followed (include confinement).
func (OSFiles) Resolve(name string) (string, error) {
	return filepath.EvalSymlinks(name)
}

// ReadLimited is the one way rulesh reads a file it was given (rule files, includes,
// transcripts): only a regular file, at most limit bytes. A device, a FIFO or a folder is
// refused before it is opened (reading /dev/zero never ends, opening a FIFO blocks), and the
// opened file is checked again in case the path changed in between. The read goes through a
// limit of one byte more than allowed, so a file that grew after the check is caught too.
func ReadLimited(name string, limit int64) ([]byte, error) {
	st, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if err := regular(name, st, limit); err != nil {
		return nil, err
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err = f.Stat()
	if err != nil {
		return nil, err
	}
	if err := regular(name, st, limit); err != nil {
		return nil, err
	}
	// Read into a buffer of the file's size (and the byte that shows it grew), not through
	// io.ReadAll's doubling: a file is read once per load.
	buf := bytes.NewBuffer(make([]byte, 0, st.Size()+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	if int64(len(b)) > limit {
		return nil, tooLarge(name, limit)
	}
	return b, nil
}

func regular(name string, st os.FileInfo, limit int64) error {
	switch {
	case st.IsDir():
		return &os.PathError{Op: "read", Path: name, Err: errors.New("is a directory")}
	case !st.Mode().IsRegular():
		return &os.PathError{Op: "read", Path: name, Err: errors.New("not a regular file; a device, a pipe or a socket is refused")}
	case st.Size() > limit:
		return tooLarge(name, limit)
	}
	return nil
}

func tooLarge(name string, limit int64) error {
	return &os.PathError{Op: "read", Path: name, Err: fmt.Errorf("larger than the %d MiB limit", limit>>20)}
}

// ParsedFile is one rule file read by ParseFiles, with its name as diagnostics give it.
type ParsedFile struct {
	Name string
	AST  *File
	// Names are where the file's names (its TokIdent tokens) are, in the order Scan meets
	// them: the checks that read every name (check's deceivingText) take them instead of
	// scanning the file again, the names' text cut from Text. Nil: scan the source.
	Names []NameAt
	// Text is the file's source as a string, which the tokens' values are cut from ("":
	// read Sources).
	Text string
}

// NameAt is where a name is in its file: its byte offset and length, and the line and
// column (in runes) where it starts. (16 bytes, where a token is 64.)
type NameAt struct{ Offset, Len, Line, Column int32 }

// ParseFiles reads and parses rule files and their includes, each once, in the order a
// check must see them. It returns the parsed files, the text of every file read (for
// diagnostics) and the problems found; includes stay inside the folder of the file naming
// them, and one call reads at most MaxLoadSize bytes.
func ParseFiles(fs FileSystem, paths ...string) ([]ParsedFile, Sources, Diagnostics) {
	if fs == nil {
		fs = OSFiles{}
	}
	src := Sources{}
	var diags Diagnostics
	var files []ParsedFile
	read := 0
	seen := &fileSet{names: map[string]bool{}}
	for _, p := range paths {
		l := &loader{fs: fs, root: filepath.Dir(filepath.Clean(p)), seen: seen, src: src, read: &read}
		l.load(p, lexer.Position{})
		files = append(files, l.files...)
		diags = append(diags, l.diags...)
	}
	return files, src, diags
}

// Parse parses one rule file (its includes are not read), after checking the bytes that
// would trip the parser: encoding, nesting and size.
func Parse(name string, src []byte) (*File, *Diagnostic) {
	f, _, _, d := parseFile(name, src)
	return f, d
}

// parseError is the diagnostic of a file the grammar does not read.
func parseError(name string, src []byte, err error) *Diagnostic {
	d := parseDiag(name, err)
	if d.End.Line == 0 {
		d.End = tokenEnd(src, d.Pos)
	}
	return d
}

// tokenEnd is where the token starting at p ends, as the tolerant scan reads it (a character
// the language does not use, a string left open), or the zero Pos when nothing starts there.
func tokenEnd(src []byte, p Pos) Pos {
	lines := bytes.SplitN(src, []byte("\n"), p.Line+1)
	if p.Line < 1 || p.Line > len(lines) {
		return Pos{}
	}
	line := []rune(string(lines[p.Line-1]))
	if p.Col < 1 || p.Col > len(line) {
		return Pos{}
	}
	end := Pos{}
	Scan(string(line[p.Col-1:]), func(t lexer.Token) bool {
		if t.Pos.Offset == 0 {
			end = After(p, t.Value)
		}
		return false
	})
	return end
}

// precheck rejects what would trip a parser before any parser runs: bytes that are not
// UTF-8, NUL bytes, and nesting deeper than MaxNesting.
func precheck(name string, src []byte) *Diagnostic {
	if d := CheckEncoding(name, src, "rule files must be saved as UTF-8"); d != nil {
		return d
	}
	return CheckNesting(string(src), lexer.Position{Filename: name, Line: 1, Column: 1}, false)
}

// CheckEncoding reports the first byte that is not UTF-8, or a NUL byte, with its position.
func CheckEncoding(name string, src []byte, detail string) *Diagnostic {
	if utf8.Valid(src) && bytes.IndexByte(src, 0) < 0 {
		return nil
	}
	line, col := 1, 1
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size <= 1 {
			return &Diagnostic{Pos: Pos{name, line, col}, End: Pos{name, line, col + 1}, Summary: fmt.Sprintf("invalid UTF-8 byte 0x%02x", src[i]), Detail: detail}
		}
		if r == 0 {
			return &Diagnostic{Pos: Pos{name, line, col}, End: Pos{name, line, col + 1}, Summary: "NUL byte", Detail: "is this a binary file?"}
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += size
	}
	return nil
}

// operatorWords reports whether s is a word that, like an operator, expects an operand after it.
func operatorWords(s string) bool {
	switch s {
	case "and", "or", "not", "in", "else", "let", "if", "for", "while", "return", "require",
		"emit":
		return true
	}
	return false
}

// endsOperand reports whether token t can end an operand, so that a - or + after it is
// binary.
func endsOperand(t lexer.Token) bool {
	switch t.Type {
	case TokIdent:
		return !operatorWords(t.Value)
	case TokNumber, TokString, TokDice, TokCard:
		return true
	case TokPunct:
		return BracketDelta(t) < 0
	}
	return false
}

// CheckNesting bounds how deep the parsers (participle's and expr-lang's, both recursive)
// will go, in one pass of the shared scanner: every open bracket or block brace, every
// unary operator (`!`, `not`, a prefix `-` or `+`) and every `else if` counts one level. A
// unary operator stops counting where its operand ends (at the next binary operator, comma
// or line end), an `else if` where its statement ends (at a line end outside its blocks).
//
// For a whole rule file the grammar bounds each expression's length and reports what the
// lexer rejects; for text that reaches expr-lang without the grammar (an input, a string's
// {hole}), expr is true and the same pass also bounds the tokens to MaxExprTokens and
// reports what the lexer would reject. Positions count from start.
func CheckNesting(src string, start lexer.Position, expr bool) *Diagnostic {
	n := nesting{start: start, expr: expr}
	var bad *Diagnostic
	Scan(src, func(t lexer.Token) bool {
		bad = n.step(&t)
		return bad == nil
	})
	return bad
}

// ScanHole reads the text after a string's { up to the } that closes the hole: the first
// closing bracket outside brackets and strings. It returns that bracket's byte offset (-1
// when the hole is not closed) and what CheckNesting(inner[:close], start, true) reports,
// from one scan where there were two (one for the end, one for the nesting). The tokens
// before the close are those of the hole alone: none of them reaches it.
func ScanHole(inner string, start lexer.Position) (close int, bad *Diagnostic) {
	n := nesting{start: start, expr: true}
	close, depth := -1, 0
	Scan(inner, func(t lexer.Token) bool {
		if depth += BracketDelta(t); depth < 0 {
			close = t.Pos.Offset
			return false
		}
		if bad == nil {
			bad = n.step(&t)
		}
		return true
	})
	if close < 0 {
		return -1, nil
	}
	return close, bad
}

// nesting is CheckNesting's count, one token at a time: the scan of a whole rule file
// (parseFile) runs it on the tokens it hands the parser, so a file is scanned once.
type nesting struct {
	// frames[i] counts what is pending inside the i-th open bracket, frames[0] outside
	// any (depth of them open). Each open bracket counts one level, and the count stops
	// at the first level past MaxNesting: no more than MaxNesting+1 are ever open. A
	// fixed array keeps the count off the heap (CheckNesting runs on every template hole).
	frames   [MaxNesting + 2]nestFrame
	depth    int
	level, n int
	prev     lexer.Token
	start    lexer.Position
	expr     bool
}

type nestFrame struct{ unary, elseIfs int32 }

// step counts token t and returns the problem it makes, or nil.
func (s *nesting) step(t *lexer.Token) *Diagnostic {
	top := &s.frames[s.depth]
	switch d := BracketDelta(*t); {
	case d > 0:
		s.depth++
		s.frames[s.depth] = nestFrame{}
		s.level++
	case d < 0:
		if s.depth > 0 {
			s.level -= 1 + int(top.unary+top.elseIfs)
			s.depth--
		}
	case (t.Type == TokOp && (t.Value == "!" || t.Value == "-" || t.Value == "+") ||
		t.Type == TokIdent && t.Value == "not") && !endsOperand(s.prev):
		top.unary++
		s.level++
	case t.Type == TokIdent && t.Value == "if" && s.prev.Type == TokIdent && s.prev.Value == "else":
		top.elseIfs++
		s.level++
	case !endsOperand(*t):
		// A binary operator, comma or line end: the operand of pending unary
		// operators is complete; a line end also ends an if statement.
		s.level -= int(top.unary)
		top.unary = 0
		if t.Type == TokNewline {
			s.level -= int(top.elseIfs)
			top.elseIfs = 0
		}
	}
	s.n++
	var bad *Diagnostic
	switch {
	case s.level > MaxNesting:
		bad = &Diagnostic{Summary: fmt.Sprintf("nesting deeper than the limit of %d", MaxNesting),
			Detail: "brackets, blocks, else if and unary operators (!, not, -, +) each count one level"}
	case !s.expr && s.n > MaxFileTokens:
		bad = &Diagnostic{Summary: fmt.Sprintf("more than %d tokens in one file (the limit)", MaxFileTokens)}
	case !s.expr:
	case s.n > MaxExprTokens:
		bad = &Diagnostic{Summary: fmt.Sprintf("expression longer than the limit of %d tokens", MaxExprTokens)}
	case t.Type == TokBad && (t.Value[0] == '"' || t.Value[0] == '\''):
		bad = &Diagnostic{Summary: "unterminated string", Detail: "a string ends on its line with the quote it began with"}
	case t.Type == TokBad:
		bad = &Diagnostic{Summary: unexpectedChar(t.Value)}
	}
	if bad != nil {
		bad.Pos = Pos{s.start.Filename, s.start.Line + t.Pos.Line - 1, t.Pos.Column}
		if t.Pos.Line == 1 {
			bad.Pos.Col += s.start.Column - 1
		}
		bad.End = After(bad.Pos, t.Value)
		return bad
	}
	s.prev = *t
	return nil
}

// ReservedUse finds, in an expression's text, a name the implementation keeps for itself:
// one starting with __ (the machine, the literals rewritten for expr-lang) or expr-lang's
// $env (every name at once). It returns the token's offset in runes and a message, or -1.
func ReservedUse(text string) (int, string) {
	if !strings.Contains(text, "__") && !strings.Contains(text, "$") {
		return -1, ""
	}
	at, msg := -1, ""
	Scan(text, func(t lexer.Token) bool {
		switch {
		case t.Type == TokIdent && strings.HasPrefix(t.Value, "__"):
			at, msg = utf8.RuneCountInString(text[:t.Pos.Offset]), "names starting with __ are reserved"
		case t.Type == TokOp && t.Value == "$":
			at, msg = utf8.RuneCountInString(text[:t.Pos.Offset]), "$ is not part of the language"
		default:
			return true
		}
		return false
	})
	return at, msg
}

// tooManyRE is compiled on first use: only an error message needs it.
var tooManyRE = &Lazy[*regexp.Regexp]{Build: func() *regexp.Regexp {
	return regexp.MustCompile(`too many iterations of .* \(> (\d+)\)`)
}}

func parseDiag(name string, err error) *Diagnostic {
	var perr participle.Error
	if errors.As(err, &perr) {
		p := perr.Position()
		msg := perr.Message()
		msg = strings.Replace(msg, `unexpected token "<EOF>"`, "unexpected end of file", 1)
		msg = strings.TrimPrefix(msg, "lexer: ")
		if strings.HasPrefix(msg, "invalid input text") {
			msg = "unexpected character" + strings.TrimPrefix(msg, "invalid input text")
			if strings.Contains(msg, `"\"`) || strings.Contains(msg, `"'`) {
				msg = "unterminated string"
			}
		}
		msg = strings.Replace(msg, `unexpected token "\n"`, "unexpected end of line", 1)
		// participle's bound on repetitions names grammar types (StmtAST, RowAST…).
		msg = tooManyRE.Get().ReplaceAllString(msg, "more than $1 lines or items in one block or file")
		d := &Diagnostic{Pos: Pos{name, p.Line, p.Column}, Summary: plainExpected(msg)}
		var ut *participle.UnexpectedTokenError
		if errors.As(err, &ut) && !ut.Unexpected.EOF() {
			d.End = After(d.Pos, ut.Unexpected.Value)
		}
		return d
	}
	return &Diagnostic{Pos: Pos{File: name}, Summary: err.Error()}
}

// loader reads a file and its includes once each; includes must stay in the root folder.
type loader struct {
	fs    FileSystem
	root  string
	seen  *fileSet
	files []ParsedFile
	src   Sources
	diags Diagnostics
	// read counts the bytes read by this load, shared by the loaders of its files.
	read *int
}

// stater is a FileSystem that can describe a file: two paths to one file (a relative and
// an absolute path, a symbolic link, a folder reached through a link) are then one file.
type stater interface {
	Stat(name string) (os.FileInfo, error)
}

// fileSet is the files one load has met, by path and, where the file system can say, by
// identity; the first path met names the file in every diagnostic.
type fileSet struct {
	names map[string]bool
	infos []os.FileInfo
	count int
}

// visit reports whether the file at the clean path clean was met before, and records it
// if not, unless the load already holds MaxIncludes files (full). A path that cannot be
// described (missing, or a file system in memory) is known by its text alone; reading it
// then fails or succeeds on its own.
func (s *fileSet) visit(fs FileSystem, clean string) (seen, full bool) {
	if s.names[clean] {
		return true, false
	}
	var info os.FileInfo
	if st, ok := fs.(stater); ok {
		if i, err := st.Stat(clean); err == nil {
			info = i
			// A linear scan: a load holds at most MaxIncludes files.
			for _, prev := range s.infos {
				if os.SameFile(prev, info) {
					s.names[clean] = true
					return true, false
				}
			}
		}
	}
	if s.count >= MaxIncludes {
		return false, true
	}
	s.names[clean] = true
	if info != nil {
		s.infos = append(s.infos, info)
	}
	s.count++
	return false, false
}

func (l *loader) load(name string, from lexer.Position) {
	clean := filepath.Clean(name)
	seen, full := l.seen.visit(l.fs, clean)
	if seen {
		return
	}
	if full {
		l.diags = append(l.diags, &Diagnostic{Pos: PosOf(from), Summary: fmt.Sprintf("more than %d included files", MaxIncludes)})
		return
	}
	src, err := l.fs.ReadFile(clean)
	if err != nil {
		d := &Diagnostic{Pos: PosOf(from), Summary: "cannot read " + name}
		if from.Filename == "" {
			d.Pos = Pos{File: name}
		}
		var pe *os.PathError
		if errors.As(err, &pe) {
			d.Detail = pe.Err.Error()
		} else {
			d.Detail = err.Error()
		}
		l.diags = append(l.diags, d)
		return
	}
	if *l.read += len(src); *l.read > MaxLoadSize {
		d := &Diagnostic{Pos: PosOf(from), Summary: fmt.Sprintf("the rule files of this load pass the limit of %d MiB in total", MaxLoadSize>>20), Detail: "while reading " + name}
		if from.Filename == "" {
			d.Pos = Pos{File: name}
		}
		l.diags = append(l.diags, d)
		return
	}
	l.src[clean] = src
	f, names, text, d := parseFile(clean, src)
	if d != nil {
		l.diags = append(l.diags, d)
		return
	}
	l.files = append(l.files, ParsedFile{Name: clean, AST: f, Names: names, Text: text})
	for _, decl := range f.Decls {
		if inc := decl.Include; inc != nil {
			path, ok := Unquote(inc.Path)
			target := filepath.Join(filepath.Dir(clean), path)
			if !ok || filepath.IsAbs(path) || !within(l.root, target) || !l.resolvedWithin(target) {
				l.diags = append(l.diags, &Diagnostic{Pos: PosOf(inc.Pos), Summary: "include " + inc.Path + " is outside the ruleset's folder", Detail: "includes are limited to " + l.root})
				continue
			}
			l.load(target, inc.Pos)
		}
	}
}

// resolver is a FileSystem that can follow symbolic links: includes are then confined by
// the paths they resolve to, so a link inside the folder cannot lead out of it.
type resolver interface {
	Resolve(name string) (string, error)
}

// resolvedWithin reports whether target, with links followed, stays in the root folder with
// links followed. A target that does not resolve (missing) passes: reading it then fails
// with its own message.
func (l *loader) resolvedWithin(target string) bool {
	r, ok := l.fs.(resolver)
	if !ok {
		return true
	}
	root, err := r.Resolve(l.root)
	if err != nil {
		return true
	}
	t, err := r.Resolve(target)
	if err != nil {
		return true
	}
	return within(root, t)
}

func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// PosOf converts a participle position.
func PosOf(p lexer.Position) Pos { return Pos{p.Filename, p.Line, p.Column} }

// DirFiles reads paths relative to a base folder while diagnostics keep the paths as written
// (a transcript's `load ../../rulesets/x.rules` reads the same wherever rulesh runs).
type DirFiles string

// ReadFile reads name relative to the base folder (absolute names as they are).
func (d DirFiles) ReadFile(name string) ([]byte, error) {
	if !filepath.IsAbs(name) {
		name = filepath.Join(string(d), name)
	}
	return OSFiles{}.ReadFile(name)
}

// Stat describes the file name leads to, relative to the base folder.
func (d DirFiles) Stat(name string) (os.FileInfo, error) {
	if !filepath.IsAbs(name) {
		name = filepath.Join(string(d), name)
	}
	return os.Stat(name)
}

// Resolve follows the symbolic links of name, relative to the base folder.
func (d DirFiles) Resolve(name string) (string, error) {
	if !filepath.IsAbs(name) {
		name = filepath.Join(string(d), name)
	}
	return filepath.EvalSymlinks(name)
}
