package dsl

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Parsing limits: they turn hostile input into a clear error instead of a deep recursion.
const (
	// MaxFileSize is the largest rule file read, in bytes.
	MaxFileSize = 8 << 20
	// MaxNesting is the deepest nesting of brackets and braces in a rule file.
	MaxNesting = 64
	// MaxIncludes is the most files one load may read through includes.
	MaxIncludes = 200
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
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
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

type parsedFile struct {
	name string
	ast  *fileAST
}

// parseSource checks bytes that would trip the parser, then parses them.
func parseSource(name string, src []byte) (*fileAST, *Diagnostic) {
	if d := precheck(name, src); d != nil {
		return nil, d
	}
	f, err := fileParser.ParseBytes(name, src)
	if err != nil {
		return nil, parseDiag(name, err)
	}
	return f, nil
}

// precheck rejects invalid UTF-8 and nesting deeper than MaxNesting, skipping strings and
// comments, so the recursive-descent parser never sees them.
func precheck(name string, src []byte) *Diagnostic {
	line, col := 1, 1
	depth := 0
	inStr := byte(0)
	comment := false
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size <= 1 {
			return &Diagnostic{Pos: Pos{name, line, col}, Summary: fmt.Sprintf("invalid UTF-8 byte 0x%02x", src[i]), Detail: "rule files must be saved as UTF-8"}
		}
		if r == 0 {
			return &Diagnostic{Pos: Pos{name, line, col}, Summary: "NUL byte in a rule file", Detail: "is this a binary file?"}
		}
		switch {
		case r == '\n':
			inStr, comment = 0, false
		case comment:
		case inStr != 0:
			if r == '\\' && i+1 < len(src) && src[i+1] != '\n' {
				i += size
				col++
				_, size = utf8.DecodeRune(src[i:])
			} else if byte(r) == inStr {
				inStr = 0
			}
		case r == '"' || r == '\'':
			inStr = byte(r)
		case r == '/' && i+1 < len(src) && src[i+1] == '/':
			comment = true
		case r == '(' || r == '[' || r == '{':
			depth++
			if depth > MaxNesting {
				return &Diagnostic{Pos: Pos{name, line, col}, Summary: fmt.Sprintf("brackets nested deeper than the limit of %d", MaxNesting)}
			}
		case r == ')' || r == ']' || r == '}':
			depth--
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
		return &Diagnostic{Pos: Pos{name, p.Line, p.Column}, Summary: msg}
	}
	return &Diagnostic{Pos: Pos{File: name}, Summary: err.Error()}
}

// loader reads a file and its includes once each; includes must stay in the root folder.
type loader struct {
	fs    FileSystem
	root  string
	seen  map[string]bool
	files []parsedFile
	src   Sources
	diags Diagnostics
}

func (l *loader) load(name string, from lexer.Position) {
	clean := filepath.Clean(name)
	if l.seen[clean] {
		return
	}
	if len(l.seen) >= MaxIncludes {
		l.diags = append(l.diags, &Diagnostic{Pos: posOf(from), Summary: fmt.Sprintf("more than %d included files", MaxIncludes)})
		return
	}
	l.seen[clean] = true
	src, err := l.fs.ReadFile(clean)
	if err != nil {
		d := &Diagnostic{Pos: posOf(from), Summary: "cannot read " + name}
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
	l.src[clean] = src
	f, d := parseSource(clean, src)
	if d != nil {
		l.diags = append(l.diags, d)
		return
	}
	l.files = append(l.files, parsedFile{clean, f})
	for _, decl := range f.Decls {
		if inc := decl.Include; inc != nil {
			path, ok := unquote(inc.Path)
			target := filepath.Join(filepath.Dir(clean), path)
			if !ok || filepath.IsAbs(path) || !within(l.root, target) || !l.resolvedWithin(target) {
				l.diags = append(l.diags, &Diagnostic{Pos: posOf(inc.Pos), Summary: "include " + inc.Path + " is outside the ruleset's folder", Detail: "includes are limited to " + l.root})
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

func posOf(p lexer.Position) Pos { return Pos{p.Filename, p.Line, p.Column} }

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

// Resolve follows the symbolic links of name, relative to the base folder.
func (d DirFiles) Resolve(name string) (string, error) {
	if !filepath.IsAbs(name) {
		name = filepath.Join(string(d), name)
	}
	return filepath.EvalSymlinks(name)
}
